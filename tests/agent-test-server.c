/* agent-test-server.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agent-test-feed.h"
#include "agent-test-server.h"
#include "agent-test-util.h"

typedef enum
{
  ACTION_BYTES,
  ACTION_DELAY,
  ACTION_WAIT,
} ActionType;

typedef struct
{
  ActionType  type;
  GBytes     *bytes;
  guint       msec;
} Action;

struct _AgentTestResponse
{
  guint   status;
  char   *content_type;
  GPtrArray *headers;   /* name, value, name, value, … */
  GArray *actions;
  char   *body;
  guint   drop : 1;
  guint   drop_at_boundary : 1;
};

typedef struct
{
  char               *path;
  SoupMessageHeaders *headers;
  JsonNode           *body;
} Request;

typedef struct
{
  AgentTestServer   *server;
  SoupServerMessage *message;
  AgentTestResponse *response;
  guint              next;
  guint              source_id;
  guint              waiting : 1;
  guint              done : 1;
} Stream;

struct _AgentTestServer
{
  SoupServer *server;
  char       *base_url;
  GQueue      responses;
  GPtrArray  *requests;
  GPtrArray  *streams;
  guint       n_aborted;
};

static void
action_clear (gpointer data)
{
  Action *action = data;

  g_clear_pointer (&action->bytes, g_bytes_unref);
}

static void
response_free (AgentTestResponse *self)
{
  g_array_unref (self->actions);
  g_ptr_array_unref (self->headers);
  g_free (self->content_type);
  g_free (self->body);
  g_free (self);
}

static void
request_free (gpointer data)
{
  Request *request = data;

  g_free (request->path);
  g_clear_pointer (&request->headers, soup_message_headers_unref);
  g_clear_pointer (&request->body, json_node_unref);
  g_free (request);
}

static void stream_step (Stream *stream);

static void
stream_free (Stream *stream)
{
  g_clear_handle_id (&stream->source_id, g_source_remove);
  g_signal_handlers_disconnect_by_data (stream->message, stream);
  g_clear_object (&stream->message);
  g_clear_pointer (&stream->response, response_free);
  g_free (stream);
}

static void
stream_finished_cb (SoupServerMessage *message,
                    Stream            *stream)
{
  AgentTestServer *self = stream->server;

  if (!stream->done)
    self->n_aborted++;

  g_ptr_array_remove (self->streams, stream);
}

static gboolean
stream_step_cb (gpointer data)
{
  Stream *stream = data;

  stream->source_id = 0;
  stream_step (stream);
  return G_SOURCE_REMOVE;
}

static void
wrote_chunk_cb (SoupServerMessage *message,
                Stream            *stream)
{
  if (stream->source_id == 0 && !stream->waiting)
    stream->source_id = g_idle_add (stream_step_cb, stream);
}

static void
stream_step (Stream *stream)
{
  SoupMessageBody *body = soup_server_message_get_response_body (stream->message);
  GArray *actions = stream->response->actions;

  if (stream->next >= actions->len)
    {
      stream->done = TRUE;

      if (stream->response->drop)
        {
          /* Break the connection without the last chunk: in the middle of
           * a chunk (a chunk header promising more than follows), or, with
           * drop_at_boundary, between two chunks. Nothing of libsoup's is
           * pending on the socket now: the last chunk was written. */
          GSocket *socket = soup_server_message_get_socket (stream->message);
          static const char partial[] = "100\r\ndata: {\"choi";

          if (!stream->response->drop_at_boundary)
            g_socket_send (socket, partial, sizeof partial - 1, NULL, NULL);
          g_socket_shutdown (socket, TRUE, TRUE, NULL);
          stream->done = FALSE;
          return;
        }

      soup_message_body_complete (body);
      soup_server_message_unpause (stream->message);
      return;
    }

  {
    Action *action = &g_array_index (actions, Action, stream->next++);

    switch (action->type)
      {
      case ACTION_BYTES:
        soup_message_body_append_bytes (body, action->bytes);
        soup_server_message_unpause (stream->message);
        break;

      case ACTION_DELAY:
        stream->source_id = g_timeout_add (action->msec, stream_step_cb, stream);
        break;

      case ACTION_WAIT:
        stream->waiting = TRUE;
        break;

      default:
        g_assert_not_reached ();
      }
  }
}

static void
server_cb (SoupServer        *server,
           SoupServerMessage *message,
           const char        *path,
           GHashTable        *query,
           gpointer           user_data)
{
  AgentTestServer *self = user_data;
  SoupMessageBody *request_body = soup_server_message_get_request_body (message);
  g_autoptr(GBytes) bytes = soup_message_body_flatten (request_body);
  AgentTestResponse *response;
  SoupMessageHeaders *headers;
  Request *request;
  Stream *stream;

  request = g_new0 (Request, 1);
  request->path = g_strdup (path);
  request->headers = soup_message_headers_ref (soup_server_message_get_request_headers (message));
  if (g_bytes_get_size (bytes) > 0)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();

      if (json_parser_load_from_data (parser, g_bytes_get_data (bytes, NULL),
                                      g_bytes_get_size (bytes), NULL))
        request->body = json_node_ref (json_parser_get_root (parser));
    }
  g_ptr_array_add (self->requests, request);

  response = g_queue_pop_head (&self->responses);
  if (response == NULL)
    {
      soup_server_message_set_status (message, SOUP_STATUS_INTERNAL_SERVER_ERROR, NULL);
      soup_server_message_set_response (message, "application/json", SOUP_MEMORY_STATIC,
                                        "{\"error\":{\"message\":\"no scripted response\"}}", 43);
      return;
    }

  soup_server_message_set_status (message, response->status, NULL);
  for (guint i = 0; i + 1 < response->headers->len; i += 2)
    soup_message_headers_replace (soup_server_message_get_response_headers (message),
                                  g_ptr_array_index (response->headers, i),
                                  g_ptr_array_index (response->headers, i + 1));

  if (response->body != NULL)
    {
      soup_server_message_set_response (message, response->content_type, SOUP_MEMORY_COPY,
                                        response->body, strlen (response->body));
      response_free (response);
      return;
    }

  headers = soup_server_message_get_response_headers (message);
  soup_message_headers_set_encoding (headers, SOUP_ENCODING_CHUNKED);
  soup_message_headers_set_content_type (headers, response->content_type, NULL);
  soup_message_headers_replace (headers, "Cache-Control", "no-cache");

  stream = g_new0 (Stream, 1);
  stream->server = self;
  stream->message = g_object_ref (message);
  stream->response = response;
  g_ptr_array_add (self->streams, stream);

  g_signal_connect (message, "wrote-headers", G_CALLBACK (wrote_chunk_cb), stream);
  g_signal_connect (message, "wrote-chunk", G_CALLBACK (wrote_chunk_cb), stream);
  g_signal_connect (message, "finished", G_CALLBACK (stream_finished_cb), stream);
  g_signal_connect (message, "disconnected", G_CALLBACK (stream_finished_cb), stream);

  soup_server_message_pause (message);
  stream->source_id = g_idle_add (stream_step_cb, stream);
}

static AgentTestServer *
server_new (GTlsCertificate *certificate)
{
  AgentTestServer *self = g_new0 (AgentTestServer, 1);
  g_autoptr(GError) error = NULL;
  GSList *uris;
  GUri *uri;

  self->server = soup_server_new ("tls-certificate", certificate, NULL);
  self->requests = g_ptr_array_new_with_free_func (request_free);
  self->streams = g_ptr_array_new_with_free_func ((GDestroyNotify)stream_free);
  g_queue_init (&self->responses);

  soup_server_add_handler (self->server, NULL, server_cb, self, NULL);
  if (!soup_server_listen_local (self->server, 0,
                                 SOUP_SERVER_LISTEN_IPV4_ONLY |
                                 (certificate ? SOUP_SERVER_LISTEN_HTTPS : 0),
                                 &error))
    g_error ("Cannot listen on 127.0.0.1: %s", error->message);

  uris = soup_server_get_uris (self->server);
  uri = uris->data;
  self->base_url = g_strdup_printf ("%s://127.0.0.1:%d/v1", certificate ? "https" : "http",
                                    g_uri_get_port (uri));
  g_slist_free_full (uris, (GDestroyNotify)g_uri_unref);

  return self;
}

AgentTestServer *
agent_test_server_new (void)
{
  return server_new (NULL);
}

/* The same over TLS, with the certificate and key in PEM files */
AgentTestServer *
agent_test_server_new_tls (const char *certificate_file,
                           const char *key_file)
{
  g_autoptr(GTlsCertificate) certificate = NULL;
  g_autoptr(GError) error = NULL;

  certificate = g_tls_certificate_new_from_files (certificate_file, key_file, &error);
  g_assert_no_error (error);
  return server_new (certificate);
}

void
agent_test_server_free (AgentTestServer *self)
{
  if (self == NULL)
    return;

  /* Let the server see its clients go (they closed their connections)
   * before it stops listening, then let the disconnections run. */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  soup_server_disconnect (self->server);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_ptr_array_unref (self->streams);
  g_clear_object (&self->server);
  g_queue_clear_full (&self->responses, (GDestroyNotify)response_free);
  g_ptr_array_unref (self->requests);
  g_free (self->base_url);
  g_free (self);
}

const char *
agent_test_server_get_base_url (AgentTestServer *self)
{
  return self->base_url;
}

AgentTestResponse *
agent_test_server_add_response (AgentTestServer *self,
                                guint            status)
{
  AgentTestResponse *response = g_new0 (AgentTestResponse, 1);

  response->status = status;
  response->content_type = g_strdup ("text/event-stream");
  response->headers = g_ptr_array_new_with_free_func (g_free);
  response->actions = g_array_new (FALSE, TRUE, sizeof (Action));
  g_array_set_clear_func (response->actions, action_clear);
  g_queue_push_tail (&self->responses, response);

  return response;
}

guint
agent_test_server_get_n_requests (AgentTestServer *self)
{
  return self->requests->len;
}

JsonNode *
agent_test_server_get_request_body (AgentTestServer *self,
                                    guint            index)
{
  g_assert_cmpuint (index, <, self->requests->len);
  return ((Request *)g_ptr_array_index (self->requests, index))->body;
}

const char *
agent_test_server_get_request_header (AgentTestServer *self,
                                      guint            index,
                                      const char      *name)
{
  g_assert_cmpuint (index, <, self->requests->len);
  return soup_message_headers_get_one (((Request *)g_ptr_array_index (self->requests, index))->headers,
                                       name);
}

const char *
agent_test_server_get_request_path (AgentTestServer *self,
                                    guint            index)
{
  g_assert_cmpuint (index, <, self->requests->len);
  return ((Request *)g_ptr_array_index (self->requests, index))->path;
}

guint
agent_test_server_get_n_pending (AgentTestServer *self)
{
  return g_queue_get_length (&self->responses);
}

gboolean
agent_test_server_is_waiting (AgentTestServer *self)
{
  for (guint i = 0; i < self->streams->len; i++)
    if (((Stream *)g_ptr_array_index (self->streams, i))->waiting)
      return TRUE;

  return FALSE;
}

static gboolean
server_is_waiting (gpointer data)
{
  return agent_test_server_is_waiting (data);
}

/* Runs the main loop until a response reached its wait. */
void
agent_test_server_wait_until_waiting (AgentTestServer *self)
{
  agent_test_wait_until (server_is_waiting, self);
}

void
agent_test_server_release (AgentTestServer *self)
{
  for (guint i = 0; i < self->streams->len; i++)
    {
      Stream *stream = g_ptr_array_index (self->streams, i);

      if (stream->waiting)
        {
          stream->waiting = FALSE;
          stream_step (stream);
        }
    }
}

guint
agent_test_server_get_n_aborted (AgentTestServer *self)
{
  return self->n_aborted;
}

void
agent_test_response_set_content_type (AgentTestResponse *self,
                                      const char        *content_type)
{
  g_free (self->content_type);
  self->content_type = g_strdup (content_type);
}

void
agent_test_response_add_header (AgentTestResponse *self,
                                const char        *name,
                                const char        *value)
{
  g_ptr_array_add (self->headers, g_strdup (name));
  g_ptr_array_add (self->headers, g_strdup (value));
}

void
agent_test_response_add_bytes (AgentTestResponse *self,
                               const char        *data,
                               gssize             len)
{
  Action action = { ACTION_BYTES };

  if (len < 0)
    len = strlen (data);
  action.bytes = g_bytes_new (data, len);
  g_array_append_val (self->actions, action);
}

void
agent_test_response_add_sse (AgentTestResponse *self,
                             const char        *json)
{
  g_autofree char *event = g_strdup_printf ("data: %s\n\n", json);

  agent_test_response_add_bytes (self, event, -1);
}

void
agent_test_response_add_sse_printf (AgentTestResponse *self,
                                    const char        *format,
                                    ...)
{
  g_autofree char *json = NULL;
  va_list args;

  va_start (args, format);
  json = g_strdup_vprintf (format, args);
  va_end (args);

  agent_test_response_add_sse (self, json);
}

void
agent_test_response_add_done (AgentTestResponse *self)
{
  agent_test_response_add_bytes (self, "data: [DONE]\n\n", -1);
}

void
agent_test_response_add_delay (AgentTestResponse *self,
                               guint              msec)
{
  Action action = { ACTION_DELAY };

  action.msec = msec;
  g_array_append_val (self->actions, action);
}

void
agent_test_response_add_wait (AgentTestResponse *self)
{
  Action action = { ACTION_WAIT };

  g_array_append_val (self->actions, action);
}

/* The connection breaks in the middle of a chunk after the scripted
 * bytes, as when a network or a server dies mid-transfer. */
void
agent_test_response_set_drop (AgentTestResponse *self)
{
  self->drop = TRUE;
}

/* The connection closes cleanly between two chunks, without the chunked
 * terminator. (libsoup 3.2 reports this as a clean end of the body.) */
void
agent_test_response_set_drop_at_boundary (AgentTestResponse *self)
{
  self->drop = TRUE;
  self->drop_at_boundary = TRUE;
}

void
agent_test_response_set_body (AgentTestResponse *self,
                              const char        *content_type,
                              const char        *body)
{
  agent_test_response_set_content_type (self, content_type);
  g_free (self->body);
  self->body = g_strdup (body);
}

static gboolean
add_bytes (gpointer     user_data,
           const char  *bytes,
           gsize        len,
           GError     **error)
{
  agent_test_response_add_bytes (user_data, bytes, len);
  return TRUE;
}

/* The file at @path, written in pieces of 1 to @max_piece bytes drawn from
 * a GRand seeded with @seed, or whole if @max_piece is 0. */
void
agent_test_response_add_file_in_pieces (AgentTestResponse *self,
                                        const char        *path,
                                        guint32            seed,
                                        gsize              max_piece)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  g_autofree char *contents = NULL;
  gsize len;

  if (!g_file_get_contents (path, &contents, &len, &error))
    g_error ("%s", error->message);

  if (max_piece == 0)
    agent_test_feed_pieces (add_bytes, self, contents, len, MAX (len, 1), NULL, NULL);
  else
    agent_test_feed_pieces (add_bytes, self, contents, len, max_piece, rand, NULL);
}
