/* agent-mcp-auth-flow.c — the steps of OAuth authorization for MCP
 *
 * Synchronous, in a worker thread with its own SoupSession and main
 * context (the loopback receiver runs there): discovery of the
 * protected-resource metadata (from the 401's resource_metadata, else the
 * well-known URIs of RFC 9728), of the authorization server's metadata
 * (RFC 8414, then OpenID discovery), registration (RFC 7591) unless a
 * client is configured, the authorization code with PKCE S256 and the
 * resource indicator (RFC 8707), the token and refresh requests. Each error
 * names its step and URL; none carries a token, code, verifier or secret.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/random.h>

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>

#include "agent-error-private.h"
#include "mcp/agent-mcp-auth-private.h"
#include "wire/agent-wire-util-private.h"
#include "agent-version.h"

#define MAX_METADATA     (256 * 1024)
#define HTTP_TIMEOUT     30
#define CLIENT_NAME      "libagent"

typedef struct
{
  AgentMcpAuthRequest *request;
  SoupSession         *session;
  GCancellable        *cancellable;
  GPtrArray           *secrets;     /* what errors must never show */
} Flow;

static void
flow_add_secret (Flow       *flow,
                 const char *secret)
{
  if (secret != NULL && secret[0] != '\0')
    g_ptr_array_insert (flow->secrets, flow->secrets->len - 1, g_strdup (secret));
}

static GError *
flow_error (Flow       *flow,
            int         code,
            const char *format,
            ...) G_GNUC_PRINTF (3, 4);

static GError *
flow_error (Flow       *flow,
            int         code,
            const char *format,
            ...)
{
  g_autofree char *text = NULL;
  g_autofree char *redacted = NULL;
  va_list args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  redacted = agent_redact (text, (const char * const *) flow->secrets->pdata);
  /* Translators: the first %s is the name of an MCP server, the second what went wrong */
  return g_error_new (AGENT_ERROR, code, _("MCP server “%s”: %s"), flow->request->server,
                      redacted);
}

/* HTTP */

/* Sends @message; its body as a JSON object, or an error naming @what and
 * where. The error's text of an OAuth error answer is kept (RFC 6749 5.2). */
static JsonObject *
send_for_json (Flow         *flow,
               SoupMessage  *message,
               const char   *what,
               guint        *status_out,
               GError      **error)
{
  g_autoptr(GBytes) body = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *url = g_uri_to_string_partial (soup_message_get_uri (message),
                                                  G_URI_HIDE_QUERY | G_URI_HIDE_PASSWORD);
  JsonNode *root;
  guint status;

  soup_message_headers_replace (soup_message_get_request_headers (message), "Accept",
                                "application/json");
  soup_message_add_flags (message, SOUP_MESSAGE_NO_REDIRECT);
  body = soup_session_send_and_read (flow->session, message, flow->cancellable, &local_error);
  if (body == NULL)
    {
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_propagate_error (error, g_steal_pointer (&local_error));
      else
        g_propagate_error (error, flow_error (flow, AGENT_ERROR_NETWORK, "%s at %s: %s", what, url,
                                              local_error->message));
      return NULL;
    }

  status = soup_message_get_status (message);
  if (status_out != NULL)
    *status_out = status;
  if (g_bytes_get_size (body) > MAX_METADATA)
    {
      g_propagate_error (error, flow_error (flow, AGENT_ERROR_PROTOCOL,
                                            _("%s at %s: the answer is too large"), what, url));
      return NULL;
    }

  root = NULL;
  if (json_parser_load_from_data (parser, g_bytes_get_data (body, NULL),
                                  g_bytes_get_size (body), NULL))
    root = json_parser_get_root (parser);

  if (!SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      const char *oauth_error = NULL;
      const char *description = NULL;

      if (root != NULL && JSON_NODE_HOLDS_OBJECT (root))
        {
          JsonObject *object = json_node_get_object (root);

          oauth_error = json_object_get_string_member_with_default (object, "error", NULL);
          description = json_object_get_string_member_with_default (object, "error_description",
                                                                    NULL);
        }
      g_propagate_error (error, flow_error (flow, status == 400 || status == 401
                                                    ? AGENT_ERROR_AUTHENTICATION
                                                    : AGENT_ERROR_HTTP,
                                            "%s at %s: HTTP %u%s%s%s%s", what, url, status,
                                            oauth_error ? ": " : "", oauth_error ? oauth_error : "",
                                            description ? ", " : "",
                                            description ? description : ""));
      return NULL;
    }

  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_propagate_error (error, flow_error (flow, AGENT_ERROR_PROTOCOL,
                                            _("%s at %s: the answer is not a JSON object"),
                                            what, url));
      return NULL;
    }
  return json_object_ref (json_node_get_object (root));
}

static JsonObject *
get_json (Flow        *flow,
          const char  *url,
          const char  *what,
          guint       *status,
          GError     **error)
{
  g_autoptr(SoupMessage) message = soup_message_new (SOUP_METHOD_GET, url);

  if (message == NULL)
    {
      g_propagate_error (error, flow_error (flow, AGENT_ERROR_PROTOCOL,
                                            _("%s: “%s” is not a URL"), what, url));
      return NULL;
    }
  return send_for_json (flow, message, what, status, error);
}

/* A form POST to the token endpoint; the client authenticates with its
 * secret in the form (client_secret_post) when it has one. */
static JsonObject *
post_token (Flow        *flow,
            const char  *url,
            GHashTable  *form,
            const char  *what,
            GError     **error)
{
  g_autoptr(SoupMessage) message = NULL;
  g_autoptr(GBytes) bytes = NULL;
  char *encoded = soup_form_encode_hash (form);
  gsize len = strlen (encoded);

  message = soup_message_new (SOUP_METHOD_POST, url);
  if (message == NULL)
    {
      g_free (encoded);
      g_propagate_error (error, flow_error (flow, AGENT_ERROR_PROTOCOL,
                                            _("%s: “%s” is not a URL"), what, url));
      return NULL;
    }
  bytes = g_bytes_new_take (encoded, len);
  soup_message_set_request_body_from_bytes (message, "application/x-www-form-urlencoded", bytes);
  return send_for_json (flow, message, what, NULL, error);
}

/* The well-known URIs */

/* https://host/path + /.well-known/name → https://host/.well-known/name/path */
static char *
well_known (const char *url,
            const char *name,
            gboolean    with_path)
{
  g_autoptr(GUri) uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);
  g_autofree char *path = NULL;
  const char *old_path;

  if (uri == NULL)
    return NULL;
  old_path = g_uri_get_path (uri);
  if (!with_path || old_path[0] == '\0' || g_str_equal (old_path, "/"))
    path = g_strdup_printf ("/.well-known/%s", name);
  else
    {
      g_autofree char *trimmed = g_strdup (old_path);
      gsize len = strlen (trimmed);

      while (len > 1 && trimmed[len - 1] == '/')
        trimmed[--len] = '\0';
      path = g_strdup_printf ("/.well-known/%s%s", name, trimmed);
    }
  return g_uri_join (G_URI_FLAGS_NONE, g_uri_get_scheme (uri), NULL, g_uri_get_host (uri),
                     g_uri_get_port (uri), path, NULL, NULL);
}

/* A parameter of a WWW-Authenticate: Bearer challenge (RFC 6750) */
char *
_agent_mcp_auth_param (const char *www_authenticate,
                       const char *name)
{
  g_autoptr(GHashTable) params = NULL;
  const char *value;

  if (www_authenticate == NULL)
    return NULL;
  while (g_ascii_isspace (*www_authenticate))
    www_authenticate++;
  if (g_ascii_strncasecmp (www_authenticate, "Bearer", 6) != 0)
    return NULL;
  params = soup_header_parse_param_list (www_authenticate + 6);
  value = g_hash_table_lookup (params, name);
  return g_strdup (value);
}

/* The resource server's metadata: from the challenge, else the well-known
 * URI with the endpoint's path, then at the root. NULL (no error) when the
 * server has none, as servers of 2025-03-26 did. */
static JsonObject *
discover_resource (Flow    *flow,
                   GError **error)
{
  g_autofree char *from_challenge = _agent_mcp_auth_param (flow->request->www_authenticate,
                                                           "resource_metadata");
  const char *what = _("protected resource metadata");

  if (from_challenge != NULL)
    return get_json (flow, from_challenge, what, NULL, error);

  for (guint i = 0; i < 2; i++)
    {
      g_autofree char *url = well_known (flow->request->url, "oauth-protected-resource", i == 0);
      g_autoptr(GError) local_error = NULL;
      JsonObject *metadata;
      guint status = 0;

      if (url == NULL)
        break;
      metadata = get_json (flow, url, what, &status, &local_error);
      if (metadata != NULL)
        return metadata;
      if (status != 404 || g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return NULL;
        }
    }
  return NULL;
}

/* RFC 8414 and OpenID Connect Discovery, in the order the MCP
 * specification gives */
static JsonObject *
discover_server (Flow        *flow,
                 const char  *issuer,
                 GError     **error)
{
  g_autoptr(GUri) uri = g_uri_parse (issuer, G_URI_FLAGS_NONE, NULL);
  g_autoptr(GPtrArray) urls = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) first_error = NULL;
  const char *path;

  if (uri == NULL)
    {
      g_propagate_error (error, flow_error (flow, AGENT_ERROR_PROTOCOL,
                                            _("the authorization server “%s” is not a URL"),
                                            issuer));
      return NULL;
    }
  path = g_uri_get_path (uri);
  g_ptr_array_add (urls, well_known (issuer, "oauth-authorization-server", TRUE));
  g_ptr_array_add (urls, well_known (issuer, "openid-configuration", TRUE));
  if (path[0] != '\0' && !g_str_equal (path, "/"))
    g_ptr_array_add (urls, g_strdup_printf ("%s%s.well-known/openid-configuration", issuer,
                                            g_str_has_suffix (issuer, "/") ? "" : "/"));

  for (guint i = 0; i < urls->len; i++)
    {
      g_autoptr(GError) local_error = NULL;
      JsonObject *metadata;
      guint status = 0;

      metadata = get_json (flow, urls->pdata[i], _("authorization server metadata"), &status,
                           &local_error);
      if (metadata != NULL)
        return metadata;
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return NULL;
        }
      if (first_error == NULL)
        first_error = g_steal_pointer (&local_error);
      if (status != 404 && status != 0)
        break;
    }
  /* The first URL's error says most: the one RFC 8414 names */
  g_propagate_error (error, g_steal_pointer (&first_error));
  return NULL;
}

static gboolean
has_string (JsonObject *object,
            const char *member,
            const char *value)
{
  JsonArray *array;

  if (!json_object_has_member (object, member) ||
      !JSON_NODE_HOLDS_ARRAY (json_object_get_member (object, member)))
    return FALSE;
  array = json_object_get_array_member (object, member);
  for (guint i = 0; i < json_array_get_length (array); i++)
    if (g_strcmp0 (json_array_get_string_element (array, i), value) == 0)
      return TRUE;
  return FALSE;
}

static const char *
string_member (JsonObject *object,
               const char *member)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

/* RFC 7591: a public client with the loopback redirect */
static gboolean
register_client (Flow        *flow,
                 JsonObject  *server,
                 const char  *redirect_uri,
                 char       **client_id,
                 char       **client_secret,
                 GError     **error)
{
  const char *endpoint = string_member (server, "registration_endpoint");
  g_autoptr(SoupMessage) message = NULL;
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(JsonObject) answer = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *body = NULL;
  const char *id;
  gsize len;

  if (endpoint == NULL)
    {
      g_propagate_error (error, flow_error (flow, AGENT_ERROR_AUTHENTICATION,
                                            _("the authorization server offers no dynamic client "
                                              "registration: give a client id in the server's "
                                              "“oauth” configuration")));
      return FALSE;
    }

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "client_name");
  json_builder_add_string_value (builder, CLIENT_NAME);
  json_builder_set_member_name (builder, "redirect_uris");
  json_builder_begin_array (builder);
  json_builder_add_string_value (builder, redirect_uri);
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "grant_types");
  json_builder_begin_array (builder);
  json_builder_add_string_value (builder, "authorization_code");
  json_builder_add_string_value (builder, "refresh_token");
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "response_types");
  json_builder_begin_array (builder);
  json_builder_add_string_value (builder, "code");
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "token_endpoint_auth_method");
  json_builder_add_string_value (builder, "none");
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  body = json_to_string (root, FALSE);

  message = soup_message_new (SOUP_METHOD_POST, endpoint);
  if (message == NULL)
    {
      g_propagate_error (error, flow_error (flow, AGENT_ERROR_PROTOCOL,
                                            _("client registration: “%s” is not a URL"),
                                            endpoint));
      return FALSE;
    }
  len = strlen (body);
  bytes = g_bytes_new_take (g_steal_pointer (&body), len);
  soup_message_set_request_body_from_bytes (message, "application/json", bytes);
  answer = send_for_json (flow, message, _("client registration"), NULL, error);
  if (answer == NULL)
    return FALSE;
  if ((id = string_member (answer, "client_id")) == NULL)
    {
      g_propagate_error (error, flow_error (flow, AGENT_ERROR_PROTOCOL,
                                            _("client registration at %s: no client_id in the "
                                              "answer"), endpoint));
      return FALSE;
    }
  *client_id = g_strdup (id);
  *client_secret = g_strdup (string_member (answer, "client_secret"));
  flow_add_secret (flow, *client_secret);
  return TRUE;
}

/* PKCE (RFC 7636) and state: unguessable, URL-safe */
static char *
base64url (const guint8 *data,
           gsize         len)
{
  char *text = g_base64_encode (data, len);

  g_strdelimit (text, "+", '-');
  g_strdelimit (text, "/", '_');
  g_strdelimit (text, "=", '\0');
  return text;
}

/* From the kernel's CSPRNG: GRand's are predictable from its output */
static char *
random_token (void)
{
  guint8 bytes[32];
  gsize filled = 0;

  while (filled < sizeof bytes)
    {
      ssize_t n = getrandom (bytes + filled, sizeof bytes - filled, 0);

      if (n < 0 && errno != EINTR)
        g_error ("getrandom() failed: %s", g_strerror (errno));
      if (n > 0)
        filled += n;
    }
  return base64url (bytes, sizeof bytes);
}

static char *
pkce_challenge (const char *verifier)
{
  g_autoptr(GChecksum) checksum = g_checksum_new (G_CHECKSUM_SHA256);
  guint8 digest[32];
  gsize len = sizeof digest;

  g_checksum_update (checksum, (const guchar *) verifier, strlen (verifier));
  g_checksum_get_digest (checksum, digest, &len);
  return base64url (digest, len);
}

/* A token answer (RFC 6749 5.1) onto @tokens */
static gboolean
read_tokens (Flow            *flow,
             JsonObject      *answer,
             const char      *endpoint,
             AgentMcpTokens  *tokens,
             GError         **error)
{
  const char *access_token = string_member (answer, "access_token");
  const char *token_type = string_member (answer, "token_type");
  const char *refresh_token = string_member (answer, "refresh_token");
  const char *scope = string_member (answer, "scope");
  JsonNode *expires_in = json_object_get_member (answer, "expires_in");

  if (access_token == NULL ||
      (token_type != NULL && g_ascii_strcasecmp (token_type, "Bearer") != 0))
    {
      g_propagate_error (error, flow_error (flow, AGENT_ERROR_PROTOCOL,
                                            _("token endpoint at %s: no Bearer access_token in "
                                              "the answer"), endpoint));
      return FALSE;
    }

  g_free (tokens->access_token);
  tokens->access_token = g_strdup (access_token);
  /* A refresh answer without one keeps the old refresh token */
  if (refresh_token != NULL)
    {
      g_free (tokens->refresh_token);
      tokens->refresh_token = g_strdup (refresh_token);
    }
  if (scope != NULL)
    {
      g_free (tokens->scope);
      tokens->scope = g_strdup (scope);
    }
  tokens->expires_at = 0;
  if (expires_in != NULL && JSON_NODE_HOLDS_VALUE (expires_in) &&
      json_node_get_value_type (expires_in) == G_TYPE_INT64)
    tokens->expires_at = g_get_real_time () / G_USEC_PER_SEC + json_node_get_int (expires_in);
  return TRUE;
}

static GHashTable *
form_new (const AgentMcpTokens *tokens)
{
  GHashTable *form = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);

  g_hash_table_insert (form, (gpointer) "client_id", g_strdup (tokens->client_id));
  if (tokens->client_secret != NULL)
    g_hash_table_insert (form, (gpointer) "client_secret", g_strdup (tokens->client_secret));
  if (tokens->resource != NULL)
    g_hash_table_insert (form, (gpointer) "resource", g_strdup (tokens->resource));
  return form;
}

static AgentMcpTokens *
refresh (Flow                 *flow,
         const AgentMcpTokens *current,
         GError              **error)
{
  g_autoptr(AgentMcpTokens) tokens = _agent_mcp_tokens_copy (current);
  g_autoptr(GHashTable) form = form_new (tokens);
  g_autoptr(JsonObject) answer = NULL;

  g_hash_table_insert (form, (gpointer) "grant_type", g_strdup ("refresh_token"));
  g_hash_table_insert (form, (gpointer) "refresh_token", g_strdup (tokens->refresh_token));
  answer = post_token (flow, tokens->token_endpoint, form, _("token refresh"), error);
  if (answer == NULL || !read_tokens (flow, answer, tokens->token_endpoint, tokens, error))
    return NULL;
  return g_steal_pointer (&tokens);
}

/* The resource indicator: the server's canonical URI (no fragment), or
 * what its metadata names, when that covers the server's URL */
static char *
canonical_resource (Flow        *flow,
                    JsonObject  *resource_metadata,
                    GError     **error)
{
  g_autoptr(GUri) uri = g_uri_parse (flow->request->url, G_URI_FLAGS_NONE, NULL);
  g_autofree char *url = NULL;
  const char *named;

  url = g_uri_to_string_partial (uri, G_URI_HIDE_FRAGMENT);
  if (resource_metadata == NULL || (named = string_member (resource_metadata, "resource")) == NULL)
    return g_steal_pointer (&url);

  if (!g_str_has_prefix (url, named))
    {
      g_propagate_error (error, flow_error (flow, AGENT_ERROR_PROTOCOL,
                                            _("protected resource metadata: it is for %s, not "
                                              "for %s"), named, url));
      return NULL;
    }
  return g_strdup (named);
}

typedef struct
{
  void     (*func) (gpointer    data,
                    const char *uri);
  GObject   *data;
  char      *uri;
} OpenUri;

static gboolean
open_uri_cb (gpointer data)
{
  OpenUri *open = data;

  open->func (open->data, open->uri);
  return G_SOURCE_REMOVE;
}

static void
open_uri_free (gpointer data)
{
  OpenUri *open = data;

  g_object_unref (open->data);
  g_free (open->uri);
  g_free (open);
}

/* The whole dance: metadata, client, the browser, the code, the tokens */
static AgentMcpTokens *
authorize (Flow          *flow,
           GError       **error)
{
  AgentMcpAuthRequest *request = flow->request;
  g_autoptr(JsonObject) resource_metadata = NULL;
  g_autoptr(JsonObject) server = NULL;
  g_autoptr(AgentMcpRedirect) redirect = NULL;
  g_autoptr(AgentMcpTokens) tokens = g_new0 (AgentMcpTokens, 1);
  g_autoptr(GHashTable) query = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  g_autoptr(GHashTable) form = NULL;
  g_autoptr(JsonObject) answer = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *issuer = NULL;
  g_autofree char *verifier = random_token ();
  g_autofree char *state = random_token ();
  g_autofree char *challenge = pkce_challenge (verifier);
  g_autofree char *code = NULL;
  g_autofree char *encoded = NULL;
  g_autofree char *challenge_scope = NULL;
  const char *authorization_endpoint;
  const char *token_endpoint;
  const char *scope;
  OpenUri *open;

  flow_add_secret (flow, verifier);
  flow_add_secret (flow, state);

  resource_metadata = discover_resource (flow, &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }
  if (resource_metadata != NULL && json_object_has_member (resource_metadata,
                                                           "authorization_servers"))
    {
      JsonNode *servers = json_object_get_member (resource_metadata, "authorization_servers");

      if (JSON_NODE_HOLDS_ARRAY (servers) &&
          json_array_get_length (json_node_get_array (servers)) > 0)
        issuer = g_strdup (json_array_get_string_element (json_node_get_array (servers), 0));
    }
  if (issuer == NULL)
    {
      /* Servers of 2025-03-26: the MCP server's origin is the authorization server */
      g_autoptr(GUri) uri = g_uri_parse (request->url, G_URI_FLAGS_NONE, NULL);

      issuer = g_uri_join (G_URI_FLAGS_NONE, g_uri_get_scheme (uri), NULL, g_uri_get_host (uri),
                           g_uri_get_port (uri), "", NULL, NULL);
    }

  if ((tokens->resource = canonical_resource (flow, resource_metadata, error)) == NULL)
    return NULL;
  if ((server = discover_server (flow, issuer, error)) == NULL)
    return NULL;

  authorization_endpoint = string_member (server, "authorization_endpoint");
  token_endpoint = string_member (server, "token_endpoint");
  if (authorization_endpoint == NULL || token_endpoint == NULL)
    {
      g_propagate_error (error, flow_error (flow, AGENT_ERROR_PROTOCOL,
                                            _("authorization server metadata of %s: no "
                                              "authorization or token endpoint"), issuer));
      return NULL;
    }
  /* Without S256 the code could be stolen on its way back */
  if (!has_string (server, "code_challenge_methods_supported", "S256"))
    {
      g_propagate_error (error, flow_error (flow, AGENT_ERROR_AUTHENTICATION,
                                            _("authorization server metadata of %s: PKCE with "
                                              "S256 is not supported, and it is required"),
                                            issuer));
      return NULL;
    }
  tokens->token_endpoint = g_strdup (token_endpoint);

  if (!request->interactive)
    {
      g_propagate_error (error, flow_error (flow, AGENT_ERROR_AUTHENTICATION,
                                            _("the server requires authorization, and the "
                                              "application does not offer it (no handler of "
                                              "AgentMcpClient::authorize)")));
      return NULL;
    }

  if ((redirect = _agent_mcp_redirect_new (state, &local_error)) == NULL)
    {
      g_propagate_error (error, flow_error (flow, AGENT_ERROR_NETWORK,
                                            _("the loopback receiver of the redirect: %s"),
                                            local_error->message));
      return NULL;
    }

  if (request->client_id != NULL)
    {
      tokens->client_id = g_strdup (request->client_id);
      tokens->client_secret = g_strdup (request->client_secret);
    }
  else if (!register_client (flow, server, _agent_mcp_redirect_get_uri (redirect),
                             &tokens->client_id, &tokens->client_secret, error))
    return NULL;

  /* The scope: the challenge's, else the configured one, else what the
   * resource offers */
  challenge_scope = _agent_mcp_auth_param (request->www_authenticate, "scope");
  scope = challenge_scope != NULL ? challenge_scope : request->scope;
  if (scope == NULL && resource_metadata != NULL &&
      json_object_has_member (resource_metadata, "scopes_supported") &&
      JSON_NODE_HOLDS_ARRAY (json_object_get_member (resource_metadata, "scopes_supported")))
    {
      JsonArray *scopes = json_object_get_array_member (resource_metadata, "scopes_supported");
      g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
      g_auto(GStrv) strv = NULL;

      for (guint i = 0; i < json_array_get_length (scopes); i++)
        if (json_array_get_string_element (scopes, i) != NULL)
          g_strv_builder_add (builder, json_array_get_string_element (scopes, i));
      strv = g_strv_builder_end (builder);
      if (strv[0] != NULL)
        tokens->scope = g_strjoinv (" ", strv);
    }
  else
    tokens->scope = g_strdup (scope);

  g_hash_table_insert (query, (gpointer) "response_type", g_strdup ("code"));
  g_hash_table_insert (query, (gpointer) "client_id", g_strdup (tokens->client_id));
  g_hash_table_insert (query, (gpointer) "redirect_uri",
                       g_strdup (_agent_mcp_redirect_get_uri (redirect)));
  g_hash_table_insert (query, (gpointer) "code_challenge", g_strdup (challenge));
  g_hash_table_insert (query, (gpointer) "code_challenge_method", g_strdup ("S256"));
  g_hash_table_insert (query, (gpointer) "state", g_strdup (state));
  g_hash_table_insert (query, (gpointer) "resource", g_strdup (tokens->resource));
  if (tokens->scope != NULL)
    g_hash_table_insert (query, (gpointer) "scope", g_strdup (tokens->scope));
  encoded = soup_form_encode_hash (query);

  open = g_new0 (OpenUri, 1);
  open->func = request->open_uri;
  open->data = g_object_ref (request->open_uri_data);
  open->uri = g_strdup_printf ("%s%c%s", authorization_endpoint,
                               strchr (authorization_endpoint, '?') ? '&' : '?', encoded);
  g_main_context_invoke_full (request->context, G_PRIORITY_DEFAULT, open_uri_cb, open, open_uri_free);

  code = _agent_mcp_redirect_wait (redirect, request->server, flow->cancellable, error);
  if (code == NULL)
    return NULL;
  flow_add_secret (flow, code);

  form = form_new (tokens);
  g_hash_table_insert (form, (gpointer) "grant_type", g_strdup ("authorization_code"));
  g_hash_table_insert (form, (gpointer) "code", g_strdup (code));
  g_hash_table_insert (form, (gpointer) "redirect_uri",
                       g_strdup (_agent_mcp_redirect_get_uri (redirect)));
  g_hash_table_insert (form, (gpointer) "code_verifier", g_strdup (verifier));
  answer = post_token (flow, token_endpoint, form, _("token endpoint"), error);
  if (answer == NULL || !read_tokens (flow, answer, token_endpoint, tokens, error))
    return NULL;
  return g_steal_pointer (&tokens);
}

static gboolean
is_expired (const AgentMcpTokens *tokens)
{
  /* A minute early: the request must not arrive after the token expired */
  return tokens->expires_at != 0 && g_get_real_time () / G_USEC_PER_SEC >= tokens->expires_at - 60;
}

/* Loads, refreshes or authorizes, as the request asks; the new tokens are
 * saved in the keyring. NULL without an error: nothing to do (no tokens
 * known and no refusal yet). */
AgentMcpTokens *
_agent_mcp_auth_flow_run (AgentMcpAuthRequest  *request,
                          GCancellable         *cancellable,
                          GError              **error)
{
  g_autoptr(GMainContext) context = g_main_context_new ();
  g_autoptr(AgentMcpTokens) tokens = NULL;
  g_autoptr(AgentMcpTokens) current = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GPtrArray) secrets = g_ptr_array_new_with_free_func (g_free);
  gboolean refused;
  gboolean save = FALSE;
  Flow flow = { request, NULL, cancellable, secrets };

  g_ptr_array_add (secrets, NULL);
  flow_add_secret (&flow, request->client_secret);
  g_main_context_push_thread_default (context);
  flow.session = soup_session_new_with_options ("user-agent", "libagent/" AGENT_VERSION_S,
                                                "timeout", HTTP_TIMEOUT,
                                                NULL);

  current = request->current != NULL ? _agent_mcp_tokens_copy (request->current) : NULL;
  if (request->load)
    {
      g_autoptr(AgentMcpTokens) stored = _agent_mcp_auth_store_load (request->url, cancellable,
                                                                     &local_error);

      /* A keyring that cannot be read is no reason not to authorize */
      if (local_error != NULL)
        {
          _agent_mcp_log (request->server, "%s", local_error->message);
          g_clear_error (&local_error);
        }
      if (stored != NULL)
        {
          g_clear_pointer (&current, _agent_mcp_tokens_free);
          current = g_steal_pointer (&stored);
        }
    }

  if (current != NULL)
    {
      flow_add_secret (&flow, current->access_token);
      flow_add_secret (&flow, current->refresh_token);
      flow_add_secret (&flow, current->client_secret);
    }

  /* The token refused is not the one we have: a newer one, try it */
  refused = request->status != 0 &&
            (current == NULL || g_strcmp0 (current->access_token, request->refused_token) == 0);

  if (current != NULL && (refused || is_expired (current)))
    {
      g_autofree char *insufficient = _agent_mcp_auth_param (request->www_authenticate, "error");

      /* A token of too small a scope needs the user, not a refresh */
      if (current->refresh_token != NULL && g_strcmp0 (insufficient, "insufficient_scope") != 0)
        {
          tokens = refresh (&flow, current, &local_error);
          if (tokens == NULL)
            {
              if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
                goto out;
              _agent_mcp_log (request->server, "%s", local_error->message);
              g_clear_error (&local_error);
            }
          save = tokens != NULL;
        }
      if (tokens == NULL && request->status != 0)
        refused = TRUE;   /* expired and not refreshed: as good as refused */
      else if (tokens == NULL)
        {
          /* Before a request: it goes with the old token, and the server's
           * refusal, if it comes, starts the rest */
          tokens = g_steal_pointer (&current);
          g_clear_pointer (&tokens->refresh_token, g_free);
        }
    }
  else if (current != NULL)
    tokens = g_steal_pointer (&current);

  if (tokens == NULL && refused)
    {
      tokens = authorize (&flow, &local_error);
      save = tokens != NULL;
    }

  if (save)
    {
      g_autoptr(GError) store_error = NULL;

      /* Kept for the next run; a keyring that fails only costs a new
       * authorization then */
      if (!_agent_mcp_auth_store_save (request->url, tokens, cancellable, &store_error))
        _agent_mcp_log (request->server, "%s", store_error->message);
    }

out:
  g_clear_object (&flow.session);
  while (g_main_context_iteration (context, FALSE))
    ;
  g_main_context_pop_thread_default (context);
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }
  return g_steal_pointer (&tokens);
}

void
_agent_mcp_auth_request_free (AgentMcpAuthRequest *request)
{
  g_free (request->server);
  g_free (request->url);
  g_free (request->www_authenticate);
  g_free (request->client_id);
  g_free (request->client_secret);
  g_free (request->scope);
  g_free (request->refused_token);
  g_clear_pointer (&request->current, _agent_mcp_tokens_free);
  g_clear_object (&request->open_uri_data);
  g_clear_pointer (&request->context, g_main_context_unref);
  g_free (request);
}
