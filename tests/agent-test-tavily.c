/* agent-test-tavily.c — a loopback server shaped like the Tavily API
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <json-glib/json-glib.h>

#include "agent-test-tavily.h"

static const char answer[] =
  "{\"query\": \"q\", \"answer\": null, \"response_time\": 0.5, \"results\": ["
  "{\"title\": \"Tavily one\", \"url\": \"https://one.tavily.example/\", "
  "\"content\": \"The first &amp; best\", \"score\": 0.9},"
  "{\"title\": \"No URL\", \"content\": \"skipped\"},"
  "{\"title\": \"Tavily two\", \"url\": \"https://two.tavily.example/\", "
  "\"content\": \"second\", \"score\": 0.5}]}";

static void
respond (SoupServerMessage *message,
         guint              status,
         const char        *body)
{
  soup_server_message_set_status (message, status, NULL);
  soup_server_message_set_response (message, "application/json", SOUP_MEMORY_COPY, body,
                                    strlen (body));
}

/* {"detail": {"error": @text}} */
static void
respond_error (SoupServerMessage *message,
               guint              status,
               const char        *text)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *body = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "detail");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "error");
  json_builder_add_string_value (builder, text);
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  body = json_to_string (root, FALSE);
  respond (message, status, body);
}

static void
handle (SoupServer        *server,
        SoupServerMessage *message,
        const char        *path,
        GHashTable        *query,
        gpointer           user_data)
{
  AgentTestTavily *self = user_data;
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (message);
  SoupMessageBody *body = soup_server_message_get_request_body (message);
  g_autofree char *expected = g_strconcat ("Bearer ", self->key, NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonNode *root = NULL;
  JsonObject *object;

  self->n_requests++;
  if (!g_str_equal (path, "/search") ||
      !g_str_equal (soup_server_message_get_method (message), "POST"))
    {
      respond_error (message, 404, "Not found");
      return;
    }

  g_free (self->last_bearer);
  self->last_bearer = g_strdup (soup_message_headers_get_one (headers, "Authorization"));
  g_free (self->last_content_type);
  self->last_content_type = g_strdup (soup_message_headers_get_content_type (headers, NULL));
  g_clear_pointer (&self->last_query, g_free);
  self->last_max_results = -1;

  if (body->data != NULL &&
      json_parser_load_from_data (parser, body->data, (gssize) body->length, NULL))
    root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      respond_error (message, 400, "The body is not a JSON object");
      return;
    }
  object = json_node_get_object (root);
  self->last_query = g_strdup (json_object_get_string_member_with_default (object, "query", NULL));
  self->last_max_results = json_object_get_int_member_with_default (object, "max_results", -1);

  if (g_strcmp0 (self->last_bearer, expected) != 0)
    {
      g_autofree char *text = g_strdup_printf ("Unauthorized: missing or invalid API key: %s",
                                               self->last_bearer ? self->last_bearer : "none");

      respond_error (message, 401, text);
    }
  else if (g_strcmp0 (self->last_query, "too many") == 0)
    respond_error (message, 429, "Your request has been blocked due to excessive requests.");
  else if (g_strcmp0 (self->last_query, "break") == 0)
    {
      g_autofree char *text = g_strdup_printf ("Internal error with the key %s", self->key);

      respond_error (message, 500, text);
    }
  else
    respond (message, 200, answer);
}

/* The server runs in a thread of its own, so that a test may search with
 * the blocking call */
static gpointer
serve (gpointer data)
{
  AgentTestTavily *self = data;
  g_autoptr(GError) error = NULL;
  GSList *uris;

  g_main_context_push_thread_default (self->context);
  self->server = soup_server_new (NULL, NULL);
  soup_server_add_handler (self->server, NULL, handle, self, NULL);
  soup_server_listen_local (self->server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error);
  g_assert_no_error (error);
  uris = soup_server_get_uris (self->server);

  g_mutex_lock (&self->lock);
  self->base = g_strdup_printf ("http://127.0.0.1:%u", g_uri_get_port (uris->data));
  g_cond_signal (&self->ready);
  g_mutex_unlock (&self->lock);
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);

  g_main_loop_run (self->loop);

  soup_server_disconnect (self->server);
  g_clear_object (&self->server);
  g_main_context_pop_thread_default (self->context);
  return NULL;
}

AgentTestTavily *
agent_test_tavily_new (const char *key)
{
  AgentTestTavily *self = g_new0 (AgentTestTavily, 1);

  self->key = g_strdup (key);
  self->context = g_main_context_new ();
  self->loop = g_main_loop_new (self->context, FALSE);
  g_mutex_init (&self->lock);
  g_cond_init (&self->ready);

  g_mutex_lock (&self->lock);
  self->thread = g_thread_new ("tavily", serve, self);
  while (self->base == NULL)
    g_cond_wait (&self->ready, &self->lock);
  g_mutex_unlock (&self->lock);

  return self;
}

static gboolean
quit_cb (gpointer data)
{
  g_main_loop_quit (data);
  return G_SOURCE_REMOVE;
}

void
agent_test_tavily_free (AgentTestTavily *self)
{
  g_main_context_invoke (self->context, quit_cb, self->loop);
  g_thread_join (self->thread);
  g_main_loop_unref (self->loop);
  g_main_context_unref (self->context);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->ready);
  g_free (self->base);
  g_free (self->key);
  g_free (self->last_bearer);
  g_free (self->last_query);
  g_free (self->last_content_type);
  g_free (self);
}
