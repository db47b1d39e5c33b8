/* agent-test-oauth.c — an OAuth authorization server and an MCP server it
 * protects, in process (see agent-test-oauth.h)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <json-glib/json-glib.h>

#include "agent-test-oauth.h"

typedef struct
{
  char *client_id;
  char *redirect_uri;
  char *challenge;
  char *resource;
} Code;

static void
code_free (gpointer data)
{
  Code *code = data;

  g_free (code->client_id);
  g_free (code->redirect_uri);
  g_free (code->challenge);
  g_free (code->resource);
  g_free (code);
}

static char *
new_secret (AgentTestOAuth *self,
            const char     *kind)
{
  char *secret = g_strdup_printf ("%s-%u-%08x%08x", kind, ++self->serial, g_random_int (),
                                  g_random_int ());

  g_ptr_array_add (self->issued, g_strdup (secret));
  return secret;
}

static char *
s256 (const char *verifier)
{
  g_autoptr(GChecksum) checksum = g_checksum_new (G_CHECKSUM_SHA256);
  guint8 digest[32];
  gsize len = sizeof digest;
  char *text;

  g_checksum_update (checksum, (const guchar *) verifier, strlen (verifier));
  g_checksum_get_digest (checksum, digest, &len);
  text = g_base64_encode (digest, len);
  g_strdelimit (text, "+", '-');
  g_strdelimit (text, "/", '_');
  g_strdelimit (text, "=", '\0');
  return text;
}

static void
reply (SoupServerMessage *message,
       guint              status,
       const char        *content_type,
       const char        *body)
{
  soup_server_message_set_status (message, status, NULL);
  soup_server_message_set_response (message, content_type, SOUP_MEMORY_COPY, body, strlen (body));
}

static void
reply_json (SoupServerMessage *message,
            guint              status,
            const char        *format,
            ...) G_GNUC_PRINTF (3, 4);

static void
reply_json (SoupServerMessage *message,
            guint              status,
            const char        *format,
            ...)
{
  g_autofree char *body = NULL;
  va_list args;

  va_start (args, format);
  body = g_strdup_vprintf (format, args);
  va_end (args);
  reply (message, status, "application/json", body);
}

static void
token_error (AgentTestOAuth    *self,
             SoupServerMessage *message,
             const char        *description)
{
  g_free (self->last_token_error);
  self->last_token_error = g_strdup (description);
  reply_json (message, SOUP_STATUS_BAD_REQUEST,
              "{\"error\":\"invalid_grant\",\"error_description\":\"%s\"}", description);
}

static void
issue (AgentTestOAuth    *self,
       SoupServerMessage *message,
       const char        *client_id,
       const char        *resource)
{
  g_autofree char *access = new_secret (self, "at");
  g_autofree char *refresh = new_secret (self, "rt");
  int expires_in = self->next_expires_in != 0 ? self->next_expires_in : 3600;

  self->next_expires_in = 0;
  g_hash_table_insert (self->access_tokens, g_strdup (access), g_strdup (resource));
  g_hash_table_insert (self->refresh_tokens, g_strdup (refresh), g_strdup (client_id));
  reply_json (message, SOUP_STATUS_OK,
              "{\"access_token\":\"%s\",\"token_type\":\"Bearer\",\"expires_in\":%d,"
              "\"refresh_token\":\"%s\",\"scope\":\"mcp:tools\"}", access, expires_in, refresh);
}

static GHashTable *
request_form (SoupServerMessage *message)
{
  SoupMessageBody *body = soup_server_message_get_request_body (message);
  g_autoptr(GBytes) bytes = soup_message_body_flatten (body);
  g_autofree char *text = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));

  return soup_form_decode (text);
}

static JsonObject *
request_json (SoupServerMessage *message)
{
  SoupMessageBody *body = soup_server_message_get_request_body (message);
  g_autoptr(GBytes) bytes = soup_message_body_flatten (body);
  g_autoptr(JsonParser) parser = json_parser_new ();

  if (!json_parser_load_from_data (parser, g_bytes_get_data (bytes, NULL),
                                   g_bytes_get_size (bytes), NULL) ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    return NULL;
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

static void
token_endpoint (AgentTestOAuth    *self,
                SoupServerMessage *message)
{
  g_autoptr(GHashTable) form = request_form (message);
  const char *grant_type = g_hash_table_lookup (form, "grant_type");
  const char *client_id = g_hash_table_lookup (form, "client_id");
  const char *resource = g_hash_table_lookup (form, "resource");

  g_free (self->last_token_resource);
  self->last_token_resource = g_strdup (resource);

  if (g_strcmp0 (grant_type, "authorization_code") == 0)
    {
      const char *code_text = g_hash_table_lookup (form, "code");
      const char *verifier = g_hash_table_lookup (form, "code_verifier");
      g_autofree char *challenge = verifier ? s256 (verifier) : NULL;
      Code *code = code_text ? g_hash_table_lookup (self->codes, code_text) : NULL;

      if (code == NULL)
        token_error (self, message, "unknown code");
      else if (g_strcmp0 (code->client_id, client_id) != 0 ||
               g_strcmp0 (code->redirect_uri, g_hash_table_lookup (form, "redirect_uri")) != 0)
        token_error (self, message, "code issued to another client or redirect");
      else if (g_strcmp0 (code->resource, resource) != 0)
        token_error (self, message, "code issued for another resource");
      else if (g_strcmp0 (code->challenge, challenge) != 0)
        token_error (self, message, "code_verifier does not match the code_challenge");
      else
        {
          self->n_codes_redeemed++;
          issue (self, message, client_id, resource);
        }
      /* A code is good once, right or wrong */
      if (code_text != NULL)
        g_hash_table_remove (self->codes, code_text);
    }
  else if (g_strcmp0 (grant_type, "refresh_token") == 0)
    {
      const char *refresh = g_hash_table_lookup (form, "refresh_token");
      const char *owner = refresh ? g_hash_table_lookup (self->refresh_tokens, refresh) : NULL;

      if (owner == NULL || g_strcmp0 (owner, client_id) != 0)
        token_error (self, message, "refresh token revoked or unknown");
      else if (g_strcmp0 (resource, self->mcp_url) != 0)
        token_error (self, message, "refresh for another resource");
      else
        {
          self->n_refreshes++;
          /* Rotation: the old one is spent */
          g_hash_table_remove (self->refresh_tokens, refresh);
          issue (self, message, client_id, resource);
        }
    }
  else
    reply_json (message, SOUP_STATUS_BAD_REQUEST, "{\"error\":\"unsupported_grant_type\"}");
}

static void
authorize_endpoint (AgentTestOAuth    *self,
                    SoupServerMessage *message,
                    GHashTable        *query)
{
  const char *client_id = query ? g_hash_table_lookup (query, "client_id") : NULL;
  const char *redirect_uri = query ? g_hash_table_lookup (query, "redirect_uri") : NULL;
  const char *registered = client_id ? g_hash_table_lookup (self->clients, client_id) : NULL;
  g_autofree char *code_text = NULL;
  g_autofree char *location = NULL;
  g_autofree char *encoded_state = NULL;
  Code *code;

  if (registered == NULL || g_strcmp0 (registered, redirect_uri) != 0 ||
      g_strcmp0 (g_hash_table_lookup (query, "response_type"), "code") != 0 ||
      g_strcmp0 (g_hash_table_lookup (query, "code_challenge_method"), "S256") != 0 ||
      g_hash_table_lookup (query, "code_challenge") == NULL ||
      g_hash_table_lookup (query, "state") == NULL)
    {
      reply (message, SOUP_STATUS_BAD_REQUEST, "text/plain", "bad authorization request");
      return;
    }

  self->n_authorizations++;
  g_free (self->last_authorize_resource);
  self->last_authorize_resource = g_strdup (g_hash_table_lookup (query, "resource"));

  code_text = new_secret (self, "code");
  code = g_new0 (Code, 1);
  code->client_id = g_strdup (client_id);
  code->redirect_uri = g_strdup (redirect_uri);
  code->challenge = g_strdup (g_hash_table_lookup (query, "code_challenge"));
  code->resource = g_strdup (g_hash_table_lookup (query, "resource"));
  g_hash_table_insert (self->codes, g_strdup (code_text), code);

  encoded_state = g_uri_escape_string (g_hash_table_lookup (query, "state"), NULL, TRUE);
  location = g_strdup_printf ("%s?code=%s&state=%s", redirect_uri, code_text, encoded_state);
  soup_server_message_set_redirect (message, SOUP_STATUS_FOUND, location);
}

static void
as_cb (SoupServer        *server,
       SoupServerMessage *message,
       const char        *path,
       GHashTable        *query,
       gpointer           user_data)
{
  AgentTestOAuth *self = user_data;

  if (g_str_equal (path, "/.well-known/oauth-authorization-server"))
    {
      if (self->no_metadata)
        {
          reply (message, SOUP_STATUS_NOT_FOUND, "text/plain", "no");
          return;
        }
      self->n_metadata++;
      reply_json (message, SOUP_STATUS_OK,
                  "{\"issuer\":\"%s\",\"authorization_endpoint\":\"%s/authorize\","
                  "\"token_endpoint\":\"%s/token\",\"registration_endpoint\":\"%s/register\","
                  "\"response_types_supported\":[\"code\"],"
                  "\"grant_types_supported\":[\"authorization_code\",\"refresh_token\"]%s}",
                  self->issuer, self->issuer, self->issuer, self->issuer,
                  self->no_s256 ? "" : ",\"code_challenge_methods_supported\":[\"plain\",\"S256\"]");
    }
  else if (g_str_equal (path, "/register"))
    {
      g_autoptr(JsonObject) request = request_json (message);
      g_autofree char *client_id = g_strdup_printf ("client-%u", ++self->serial);
      JsonArray *uris;

      if (request == NULL || !json_object_has_member (request, "redirect_uris"))
        {
          reply_json (message, SOUP_STATUS_BAD_REQUEST, "{\"error\":\"invalid_client_metadata\"}");
          return;
        }
      uris = json_object_get_array_member (request, "redirect_uris");
      self->n_registrations++;
      g_hash_table_insert (self->clients, g_strdup (client_id),
                           g_strdup (json_array_get_string_element (uris, 0)));
      reply_json (message, SOUP_STATUS_CREATED, "{\"client_id\":\"%s\",\"redirect_uris\":[\"%s\"],"
                  "\"token_endpoint_auth_method\":\"none\"}", client_id,
                  json_array_get_string_element (uris, 0));
    }
  else if (g_str_equal (path, "/authorize"))
    authorize_endpoint (self, message, query);
  else if (g_str_equal (path, "/token") &&
           g_str_equal (soup_server_message_get_method (message), "POST"))
    token_endpoint (self, message);
  else
    reply (message, SOUP_STATUS_NOT_FOUND, "text/plain", "not found");
}

/* The MCP endpoint */

static gboolean
authorized (AgentTestOAuth    *self,
            SoupServerMessage *message)
{
  const char *header = soup_message_headers_get_one (
    soup_server_message_get_request_headers (message), "Authorization");
  const char *resource;

  if (header == NULL || !g_str_has_prefix (header, "Bearer "))
    return FALSE;
  resource = g_hash_table_lookup (self->access_tokens, header + strlen ("Bearer "));
  return g_strcmp0 (resource, self->mcp_url) == 0;
}

static void
mcp_endpoint (AgentTestOAuth    *self,
              SoupServerMessage *message)
{
  const char *method = soup_server_message_get_method (message);
  g_autoptr(JsonObject) request = NULL;
  const char *rpc_method;
  gint64 id;

  if (!authorized (self, message))
    {
      g_autofree char *challenge = NULL;

      self->n_refused++;
      challenge = g_strdup_printf ("Bearer resource_metadata=\"%s/.well-known/"
                                   "oauth-protected-resource/mcp\", scope=\"mcp:tools\"",
                                   self->issuer_rs);
      soup_message_headers_replace (soup_server_message_get_response_headers (message),
                                    "WWW-Authenticate", challenge);
      reply_json (message, SOUP_STATUS_UNAUTHORIZED, "{\"error\":\"invalid_token\"}");
      return;
    }

  if (g_str_equal (method, "GET"))
    {
      reply (message, SOUP_STATUS_METHOD_NOT_ALLOWED, "text/plain", "");
      return;
    }
  if (g_str_equal (method, "DELETE"))
    {
      reply (message, SOUP_STATUS_OK, "text/plain", "");
      return;
    }

  request = request_json (message);
  rpc_method = request ? json_object_get_string_member_with_default (request, "method", "") : "";
  id = request ? json_object_get_int_member_with_default (request, "id", -1) : -1;

  if (g_str_equal (rpc_method, "initialize"))
    {
      soup_message_headers_replace (soup_server_message_get_response_headers (message),
                                    "Mcp-Session-Id", "oauth-session");
      reply_json (message, SOUP_STATUS_OK,
                  "{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ",\"result\":{"
                  "\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"tools\":{}},"
                  "\"serverInfo\":{\"name\":\"protected\",\"version\":\"1\"}}}", id);
    }
  else if (id < 0)
    reply (message, SOUP_STATUS_ACCEPTED, "text/plain", "");
  else if (g_str_equal (rpc_method, "tools/list"))
    reply_json (message, SOUP_STATUS_OK,
                "{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ",\"result\":{\"tools\":["
                "{\"name\":\"whoami\",\"description\":\"Says who is signed in\","
                "\"inputSchema\":{\"type\":\"object\"}}]}}", id);
  else if (g_str_equal (rpc_method, "tools/call") && self->want_scope)
    {
      g_autofree char *challenge = NULL;

      /* RFC 6750 3.1: the token is good, its scope too small */
      self->want_scope = FALSE;
      challenge = g_strdup_printf ("Bearer error=\"insufficient_scope\", "
                                   "scope=\"mcp:tools mcp:admin\", resource_metadata=\"%s/"
                                   ".well-known/oauth-protected-resource/mcp\"", self->issuer_rs);
      soup_message_headers_replace (soup_server_message_get_response_headers (message),
                                    "WWW-Authenticate", challenge);
      reply_json (message, SOUP_STATUS_FORBIDDEN, "{\"error\":\"insufficient_scope\"}");
    }
  else if (g_str_equal (rpc_method, "tools/call"))
    {
      self->n_calls++;
      reply_json (message, SOUP_STATUS_OK,
                  "{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ",\"result\":{\"content\":["
                  "{\"type\":\"text\",\"text\":\"signed in, call %u\"}]}}", id, self->n_calls);
    }
  else
    reply_json (message, SOUP_STATUS_OK,
                "{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ",\"error\":{\"code\":-32601,"
                "\"message\":\"no\"}}", id);
}

static void
rs_cb (SoupServer        *server,
       SoupServerMessage *message,
       const char        *path,
       GHashTable        *query,
       gpointer           user_data)
{
  AgentTestOAuth *self = user_data;

  if (g_str_equal (path, "/.well-known/oauth-protected-resource/mcp"))
    {
      self->n_resource_metadata++;
      reply_json (message, SOUP_STATUS_OK,
                  "{\"resource\":\"%s\",\"authorization_servers\":[\"%s\"],"
                  "\"scopes_supported\":[\"mcp:tools\"],\"bearer_methods_supported\":[\"header\"]}",
                  self->mcp_url, self->issuer);
    }
  else if (g_str_equal (path, "/mcp"))
    mcp_endpoint (self, message);
  else
    reply (message, SOUP_STATUS_NOT_FOUND, "text/plain", "not found");
}

static char *
listen_local (SoupServer *server)
{
  g_autoptr(GError) error = NULL;
  GSList *uris;
  char *url;

  soup_server_listen_local (server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error);
  g_assert_no_error (error);
  uris = soup_server_get_uris (server);
  url = g_strdup_printf ("http://127.0.0.1:%d", g_uri_get_port (uris->data));
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
  return url;
}

void
agent_test_oauth_start (AgentTestOAuth *self)
{
  memset (self, 0, sizeof *self);
  self->clients = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->codes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, code_free);
  self->access_tokens = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->refresh_tokens = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->issued = g_ptr_array_new_with_free_func (g_free);
  self->authorize_uris = g_ptr_array_new_with_free_func (g_free);

  self->as = soup_server_new (NULL, NULL);
  soup_server_add_handler (self->as, NULL, as_cb, self, NULL);
  self->issuer = listen_local (self->as);
  self->rs = soup_server_new (NULL, NULL);
  soup_server_add_handler (self->rs, NULL, rs_cb, self, NULL);
  self->issuer_rs = listen_local (self->rs);
  self->mcp_url = g_strdup_printf ("%s/mcp", self->issuer_rs);
}

void
agent_test_oauth_stop (AgentTestOAuth *self)
{
  soup_server_disconnect (self->as);
  soup_server_disconnect (self->rs);
  g_clear_object (&self->as);
  g_clear_object (&self->rs);
  g_clear_object (&self->browser_session);
  g_clear_pointer (&self->clients, g_hash_table_unref);
  g_clear_pointer (&self->codes, g_hash_table_unref);
  g_clear_pointer (&self->access_tokens, g_hash_table_unref);
  g_clear_pointer (&self->refresh_tokens, g_hash_table_unref);
  g_clear_pointer (&self->issued, g_ptr_array_unref);
  g_clear_pointer (&self->authorize_uris, g_ptr_array_unref);
  g_free (self->issuer);
  g_free (self->issuer_rs);
  g_free (self->mcp_url);
  g_free (self->page);
  g_free (self->last_token_error);
  g_free (self->last_authorize_resource);
  g_free (self->last_token_resource);
}

void
agent_test_oauth_revoke (AgentTestOAuth *self,
                         gboolean        refresh)
{
  g_hash_table_remove_all (self->access_tokens);
  if (refresh)
    g_hash_table_remove_all (self->refresh_tokens);
}

/* The browser */

static void
page_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  AgentTestOAuth *self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) body = NULL;

  body = soup_session_send_and_read_finish (SOUP_SESSION (object), result, &error);
  g_assert_no_error (error);
  self->page_status = soup_message_get_status (soup_session_get_async_result_message (
                                                 SOUP_SESSION (object), result));
  g_free (self->page);
  self->page = g_strndup (g_bytes_get_data (body, NULL), g_bytes_get_size (body));
  self->browsed = TRUE;
}

/* The redirect, as the mode wants it */
static char *
tamper (AgentTestOAuth *self,
        const char     *location)
{
  g_autoptr(GUri) uri = g_uri_parse (location, G_URI_FLAGS_ENCODED, NULL);
  g_autoptr(GHashTable) decoded = NULL;
  g_autoptr(GHashTable) query = NULL;
  g_autoptr(GUri) changed = NULL;
  GHashTableIter iter;
  gpointer key;
  gpointer value;
  g_autofree char *encoded = NULL;

  g_assert_nonnull (uri);
  if (self->browser == AGENT_TEST_BROWSER_FOLLOW)
    return g_strdup (location);

  /* (soup_form_decode()'s values share their keys' memory: copied) */
  decoded = soup_form_decode (g_uri_get_query (uri));
  query = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_hash_table_iter_init (&iter, decoded);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_hash_table_insert (query, g_strdup (key), g_strdup (value));
  if (self->browser == AGENT_TEST_BROWSER_WRONG_STATE)
    g_hash_table_replace (query, g_strdup ("state"), g_strdup ("forged-state"));
  else if (self->browser == AGENT_TEST_BROWSER_DENY)
    {
      g_hash_table_remove (query, "code");
      g_hash_table_replace (query, g_strdup ("error"), g_strdup ("access_denied"));
    }
  else if (self->browser == AGENT_TEST_BROWSER_OTHER_CODE)
    {
      /* An attacker's code: issued to the same client for the attacker's
       * own PKCE challenge, slipped into the redirect */
      Code *mine = g_hash_table_lookup (self->codes, g_hash_table_lookup (query, "code"));
      Code *theirs = g_new0 (Code, 1);
      char *code_text = new_secret (self, "code");

      g_assert_nonnull (mine);
      theirs->client_id = g_strdup (mine->client_id);
      theirs->redirect_uri = g_strdup (mine->redirect_uri);
      theirs->resource = g_strdup (mine->resource);
      theirs->challenge = s256 ("the-attacker's-own-verifier-of-43-characters-at-least");
      g_hash_table_insert (self->codes, g_strdup (code_text), theirs);
      g_hash_table_replace (query, g_strdup ("code"), code_text);
    }
  encoded = soup_form_encode_hash (query);
  changed = g_uri_build (G_URI_FLAGS_ENCODED, g_uri_get_scheme (uri), NULL, g_uri_get_host (uri),
                         g_uri_get_port (uri), g_uri_get_path (uri), encoded, NULL);
  return g_uri_to_string (changed);
}

static void
authorize_page_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  AgentTestOAuth *self = user_data;
  SoupMessage *message = soup_session_get_async_result_message (SOUP_SESSION (object), result);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) body = NULL;
  g_autoptr(SoupMessage) next = NULL;
  g_autofree char *target = NULL;
  const char *location;

  body = soup_session_send_and_read_finish (SOUP_SESSION (object), result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (soup_message_get_status (message), ==, SOUP_STATUS_FOUND);
  location = soup_message_headers_get_one (soup_message_get_response_headers (message),
                                           "Location");
  g_assert_nonnull (location);
  /* The loopback receiver of RFC 8252: 127.0.0.1, a port of its own */
  g_assert_true (g_str_has_prefix (location, "http://127.0.0.1:"));

  target = tamper (self, location);
  next = soup_message_new (SOUP_METHOD_GET, target);
  g_assert_nonnull (next);
  soup_session_send_and_read_async (SOUP_SESSION (object), next, G_PRIORITY_DEFAULT, NULL,
                                    page_cb, self);
}

void
agent_test_oauth_browse (AgentTestOAuth *self,
                         const char     *uri)
{
  g_autoptr(SoupMessage) message = soup_message_new (SOUP_METHOD_GET, uri);

  g_assert_nonnull (message);
  if (self->browser_session == NULL)
    self->browser_session = soup_session_new ();
  self->browsed = FALSE;
  soup_message_add_flags (message, SOUP_MESSAGE_NO_REDIRECT);
  soup_session_send_and_read_async (self->browser_session, message, G_PRIORITY_DEFAULT, NULL,
                                    authorize_page_cb, self);
}

void
agent_test_oauth_authorize_cb (GObject        *client,
                               const char     *uri,
                               AgentTestOAuth *self)
{
  g_ptr_array_add (self->authorize_uris, g_strdup (uri));
  agent_test_oauth_browse (self, uri);
}

void
agent_test_oauth_assert_clean (AgentTestOAuth *self,
                               const char     *text,
                               const char     *where)
{
  if (text == NULL)
    return;
  for (guint i = 0; i < self->issued->len; i++)
    if (strstr (text, self->issued->pdata[i]) != NULL)
      g_error ("%s holds the secret %s", where, (const char *) self->issued->pdata[i]);
}
