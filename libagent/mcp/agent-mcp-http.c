/* agent-mcp-http.c — an MCP server over Streamable HTTP
 *
 * Each message is a POST to the server's one URL, accepting JSON and SSE.
 * The server answers a notification or a response with 202, and a request
 * with one JSON message or with an event stream that carries the answer
 * and whatever the server says meanwhile (progress, its own requests).
 * The session id it gives in Mcp-Session-Id on the handshake goes with
 * every later request, as does the negotiated MCP-Protocol-Version. Once
 * the handshake is over, a GET opens a stream for what the server says on
 * its own (tools/list_changed); a server may refuse it (405). Closing
 * deletes the session.
 *
 * Under 2026-07-28 there is no session, no GET and no notification from
 * the client (a request is cancelled by closing its stream); every POST
 * says its version, its method (Mcp-Method) and what it names (Mcp-Name:
 * the tool, prompt or resource). A tool's call also carries the arguments
 * its input schema marks with x-mcp-header, as Mcp-Param-{Name}
 * (agent-mcp-param-headers.c); one that no header can carry fails the call
 * before it is sent.
 *
 * The configured headers (a bearer token, say) go to the configured URL's
 * origin only: no redirect is followed, and a request answered with one
 * fails with an error naming where the server pointed.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>
#include <libsoup/soup.h>

#include "agent-error-private.h"
#include "mcp/agent-mcp-auth-private.h"
#include "mcp/agent-mcp-private.h"
#include "wire/agent-sse-parser-private.h"
#include "agent-util-private.h"
#include "agent-version.h"

#define READ_SIZE       (64 * 1024)
#define MAX_BODY        AGENT_MCP_MAX_MESSAGE
#define MAX_ERROR_BODY  (64 * 1024)
#define DELETE_TIMEOUT  5

struct _AgentMcpHttpTransport
{
  AgentMcpTransport  parent_instance;

  char              *url;
  char             **headers;          /* "Name: value" */
  SoupSession       *session;
  GCancellable      *cancellable;      /* every exchange */
  GHashTable        *requests;         /* id → its exchange's GCancellable */
  char              *session_id;
  char              *protocol_version;
  const AgentMcpRevision *revision;    /* of protocol_version, or NULL */
  AgentMcpAuth      *auth;             /* OAuth, or NULL */
  GHashTable        *param_headers;    /* a tool's name → its x-mcp-header annotations */
};

#define AGENT_TYPE_MCP_HTTP_TRANSPORT (agent_mcp_http_transport_get_type ())
G_DECLARE_FINAL_TYPE (AgentMcpHttpTransport, agent_mcp_http_transport,
                      AGENT, MCP_HTTP_TRANSPORT, AgentMcpTransport)
G_DEFINE_FINAL_TYPE (AgentMcpHttpTransport, agent_mcp_http_transport, AGENT_TYPE_MCP_TRANSPORT)

/* One HTTP exchange: a POST of one message, or the GET stream */
typedef struct
{
  AgentMcpHttpTransport *self;
  SoupMessage           *message;
  GInputStream          *stream;
  GCancellable          *cancellable;
  AgentSseParser        *sse;
  GByteArray            *body;
  gint64                 id;           /* the request's, or -1 */
  gulong                 cancelled_id; /* on the transport's cancellable */
  guint                  is_get : 1;
  guint                  is_error : 1; /* an HTTP error status: body read for its message */
  GBytes                *request_body; /* to send it again once authorized */
  char                  *token;        /* the Bearer token it carries */
  guint                  n_challenges;
} Exchange;

static void
exchange_free (Exchange *exchange)
{
  g_cancellable_disconnect (exchange->self->cancellable, exchange->cancelled_id);

  if (exchange->id >= 0)
    {
      GCancellable *current = g_hash_table_lookup (exchange->self->requests, &exchange->id);

      if (current == exchange->cancellable)
        g_hash_table_remove (exchange->self->requests, &exchange->id);
    }

  g_clear_pointer (&exchange->sse, agent_sse_parser_free);
  g_clear_pointer (&exchange->body, g_byte_array_unref);
  g_clear_object (&exchange->stream);
  g_clear_object (&exchange->message);
  g_clear_object (&exchange->cancellable);
  g_clear_pointer (&exchange->request_body, g_bytes_unref);
  g_free (exchange->token);
  g_object_unref (exchange->self);
  g_free (exchange);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Exchange, exchange_free)

static const char *
server_name (AgentMcpHttpTransport *self)
{
  return _agent_mcp_transport_get_name (AGENT_MCP_TRANSPORT (self));
}

/* Fails the exchange's request (a notification's failure is only logged). */
static void
exchange_failed (Exchange *exchange,
                 GError   *error)
{
  AgentMcpTransport *transport = AGENT_MCP_TRANSPORT (exchange->self);
  g_autofree char *message = _agent_mcp_transport_redact (transport, error->message);

  if (exchange->self->auth != NULL)
    {
      char *redacted = _agent_mcp_auth_redact (exchange->self->auth, message);

      g_free (message);
      message = redacted;
    }
  g_free (error->message);
  error->message = g_steal_pointer (&message);

  /* An error made of the answer's status (http_error()) carries it */
  if (error->domain == AGENT_ERROR &&
      (error->code == AGENT_ERROR_HTTP || error->code == AGENT_ERROR_AUTHENTICATION))
    _agent_error_set_http_status (error, soup_message_get_status (exchange->message));

  _agent_mcp_log (server_name (exchange->self), "%s failed: %s",
                  exchange->is_get ? "GET" : "POST", error->message);

  if (exchange->id >= 0)
    _agent_mcp_transport_emit_request_failed (transport, exchange->id, error);
  g_error_free (error);
}

static gboolean
has_sessions (AgentMcpHttpTransport *self)
{
  return self->revision == NULL || self->revision->sessions;
}

static const char *
add_headers (AgentMcpHttpTransport *self,
             SoupMessage           *message)
{
  SoupMessageHeaders *headers = soup_message_get_request_headers (message);

  for (guint i = 0; self->headers != NULL && self->headers[i] != NULL; i++)
    {
      const char *colon = strchr (self->headers[i], ':');
      g_autofree char *name = NULL;
      g_autofree char *value = NULL;

      if (colon == NULL)
        continue;
      name = g_strstrip (g_strndup (self->headers[i], colon - self->headers[i]));
      value = g_strstrip (g_strdup (colon + 1));
      if (name[0] != '\0')
        soup_message_headers_replace (headers, name, value);
    }

  if (self->session_id != NULL && has_sessions (self))
    soup_message_headers_replace (headers, "Mcp-Session-Id", self->session_id);
  if (self->protocol_version != NULL)
    soup_message_headers_replace (headers, "MCP-Protocol-Version", self->protocol_version);
  return self->auth != NULL ? _agent_mcp_auth_apply (self->auth, message) : NULL;
}

/* Reading an answer */

static gboolean
sse_event_cb (const AgentSseEvent  *event,
              gpointer              user_data,
              GError              **error)
{
  Exchange *exchange = user_data;

  /* Events without data (a stream's priming event) carry no message. */
  if (event->data_len > 0)
    _agent_mcp_transport_emit_message (AGENT_MCP_TRANSPORT (exchange->self),
                                       event->data, event->data_len);
  return TRUE;
}

/* The Mcp-Param-* headers of a tools/call's @params (2026-07-28) */
static gboolean
add_param_headers (AgentMcpHttpTransport  *self,
                   SoupMessageHeaders     *headers,
                   const cJSON            *params,
                   GError                **error)
{
  const cJSON *name = cJSON_GetObjectItemCaseSensitive (params, "name");
  GPtrArray *annotations;
  g_auto(GStrv) values = NULL;

  if (self->param_headers == NULL || !cJSON_IsString (name) ||
      (annotations = g_hash_table_lookup (self->param_headers, name->valuestring)) == NULL)
    return TRUE;

  values = _agent_mcp_param_headers_values (annotations,
                                            cJSON_GetObjectItemCaseSensitive (params, "arguments"),
                                            server_name (self), name->valuestring, error);
  if (values == NULL)
    return FALSE;

  for (guint i = 0; values[i] != NULL && values[i + 1] != NULL; i += 2)
    soup_message_headers_replace (headers, values[i], values[i + 1]);
  return TRUE;
}

/* Mcp-Method and Mcp-Name from the request in @body, and the Mcp-Param-*
 * of a tool's call; FALSE with @error when an argument cannot be sent */
static gboolean
add_method_headers (AgentMcpHttpTransport  *self,
                    SoupMessage            *message,
                    GBytes                 *body,
                    GError                **error)
{
  SoupMessageHeaders *headers = soup_message_get_request_headers (message);
  gsize len;
  const char *data = g_bytes_get_data (body, &len);
  g_autoptr(cJSON) request = cJSON_ParseWithLength (data, len);
  cJSON *method = cJSON_GetObjectItemCaseSensitive (request, "method");
  cJSON *params = cJSON_GetObjectItemCaseSensitive (request, "params");
  cJSON *name = NULL;

  if (!cJSON_IsString (method))
    return TRUE;
  soup_message_headers_replace (headers, "Mcp-Method", method->valuestring);

  if (g_str_equal (method->valuestring, "tools/call") ||
      g_str_equal (method->valuestring, "prompts/get"))
    name = cJSON_GetObjectItemCaseSensitive (params, "name");
  else if (g_str_equal (method->valuestring, "resources/read"))
    name = cJSON_GetObjectItemCaseSensitive (params, "uri");

  if (cJSON_IsString (name))
    {
      g_autofree char *value = _agent_mcp_revision_header_value (name->valuestring);

      soup_message_headers_replace (headers, "Mcp-Name", value);
    }

  if (self->revision->param_headers && g_str_equal (method->valuestring, "tools/call"))
    return add_param_headers (self, headers, params, error);
  return TRUE;
}

static GError *
http_error (Exchange *exchange)
{
  AgentMcpHttpTransport *self = exchange->self;
  guint status = soup_message_get_status (exchange->message);
  const char *reason = soup_message_get_reason_phrase (exchange->message);

  /* Redacted with the rest of the message by exchange_failed() */
  if (SOUP_STATUS_IS_REDIRECTION (status))
    {
      g_autofree char *target = _agent_redirect_target (exchange->message, NULL);

      if (target == NULL)
        return g_error_new (AGENT_ERROR, AGENT_ERROR_HTTP,
                            _("The MCP server “%s” answered HTTP %u %s, a redirect without a "
                              "Location"),
                            server_name (self), status, reason ? reason : "");

      return g_error_new (AGENT_ERROR, AGENT_ERROR_HTTP,
                          _("The MCP server “%s” answered HTTP %u %s, a redirect to %s, which is "
                            "not followed: its headers go to its configured URL's host only. If "
                            "the new address is right, make it the server's URL"),
                          server_name (self), status, reason ? reason : "", target);
    }

  if (status == SOUP_STATUS_UNAUTHORIZED || status == SOUP_STATUS_FORBIDDEN)
    return g_error_new (AGENT_ERROR, AGENT_ERROR_AUTHENTICATION,
                        _("The MCP server “%s” refused the request (HTTP %u %s): "
                          "check its headers"),
                        server_name (self), status, reason ? reason : "");

  return g_error_new (AGENT_ERROR, AGENT_ERROR_HTTP,
                      _("The MCP server “%s” answered HTTP %u %s"),
                      server_name (self), status, reason ? reason : "");
}

static void
body_done (Exchange *exchange)
{
  AgentMcpTransport *transport = AGENT_MCP_TRANSPORT (exchange->self);

  if (exchange->sse != NULL)
    {
      agent_sse_parser_finish (exchange->sse, NULL);
      if (exchange->id >= 0)
        {
          /* Ignored if the answer came on the stream, as it should have. */
          g_autoptr(GError) error = NULL;

          error = g_error_new (AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                               _("The MCP server “%s” ended its stream without answering"),
                               server_name (exchange->self));
          _agent_mcp_transport_emit_request_failed (transport, exchange->id, error);
        }
      return;
    }

  if (exchange->body == NULL)
    return;

  if (exchange->is_error)
    {
      /* A JSON-RPC error for the request is the best explanation; else the
       * status says what happened. */
      if (exchange->body->len > 0 && exchange->body->data[0] == '{')
        _agent_mcp_transport_emit_message (transport, (const char *) exchange->body->data,
                                           exchange->body->len);
      exchange_failed (exchange, http_error (exchange));
      return;
    }

  if (exchange->body->len > 0)
    _agent_mcp_transport_emit_message (transport, (const char *) exchange->body->data,
                                       exchange->body->len);
  else if (exchange->id >= 0)
    exchange_failed (exchange, g_error_new (AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                                            _("The MCP server “%s” sent an empty answer"),
                                            server_name (exchange->self)));
}

static void read_body (Exchange *exchange);

static void
read_body_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(Exchange) exchange = user_data;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  const char *data;
  gsize len;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, &error);
  if (bytes == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        exchange_failed (exchange, g_error_new (AGENT_ERROR, AGENT_ERROR_NETWORK,
                                                _("The connection to the MCP server “%s” "
                                                  "broke: %s"),
                                                server_name (exchange->self), error->message));
      return;
    }

  data = g_bytes_get_data (bytes, &len);
  if (len == 0)
    {
      body_done (exchange);
      return;
    }

  if (exchange->sse != NULL)
    {
      if (!agent_sse_parser_feed (exchange->sse, data, len, &error))
        {
          exchange_failed (exchange, g_steal_pointer (&error));
          return;
        }
    }
  else
    {
      gsize limit = exchange->is_error ? MAX_ERROR_BODY : MAX_BODY;

      if (exchange->body->len + len > limit)
        {
          if (exchange->is_error)
            body_done (exchange);
          else
            {
              g_autofree char *max = g_format_size_full (limit, G_FORMAT_SIZE_IEC_UNITS);

              exchange_failed (exchange, g_error_new (AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                                                      _("The answer of the MCP server “%s” is "
                                                        "larger than %s"),
                                                      server_name (exchange->self), max));
            }
          return;
        }
      g_byte_array_append (exchange->body, (const guint8 *) data, len);
    }

  read_body (g_steal_pointer (&exchange));
}

static void
read_body (Exchange *exchange)
{
  g_input_stream_read_bytes_async (exchange->stream, READ_SIZE, G_PRIORITY_DEFAULT,
                                   exchange->cancellable, read_body_cb, exchange);
}

static void exchange_send (Exchange *exchange);

static gboolean
is_challenge (Exchange *exchange,
              guint     status)
{
  g_autofree char *error = NULL;

  if (exchange->self->auth == NULL || exchange->n_challenges >= 2)
    return FALSE;
  if (status == SOUP_STATUS_UNAUTHORIZED)
    return TRUE;
  /* 403 with insufficient_scope: a token with more scope may do */
  error = _agent_mcp_auth_param (soup_message_headers_get_one (
                                   soup_message_get_response_headers (exchange->message),
                                   "WWW-Authenticate"), "error");
  return status == SOUP_STATUS_FORBIDDEN && g_strcmp0 (error, "insufficient_scope") == 0;
}

static void
authorized_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(Exchange) exchange = user_data;
  g_autoptr(GError) error = NULL;

  if (!_agent_mcp_auth_finish (AGENT_MCP_AUTH (object), result, &error))
    exchange_failed (exchange, g_steal_pointer (&error));
  else if (!g_cancellable_is_cancelled (exchange->cancellable))
    exchange_send (g_steal_pointer (&exchange));
}

static void
send_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(Exchange) exchange = user_data;
  AgentMcpHttpTransport *self = exchange->self;
  g_autoptr(GError) error = NULL;
  SoupMessageHeaders *headers;
  const char *content_type;
  const char *session_id;
  guint status;

  exchange->stream = soup_session_send_finish (SOUP_SESSION (object), result, &error);
  if (exchange->stream == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        exchange_failed (exchange, g_error_new (AGENT_ERROR, AGENT_ERROR_NETWORK,
                                                _("The MCP server “%s” could not be reached: %s"),
                                                server_name (self), error->message));
      return;
    }

  status = soup_message_get_status (exchange->message);
  headers = soup_message_get_response_headers (exchange->message);
  content_type = soup_message_headers_get_content_type (headers, NULL);

  if (is_challenge (exchange, status))
    {
      /* Refreshed or authorized, it goes again */
      Exchange *waiting = g_steal_pointer (&exchange);

      waiting->n_challenges++;
      g_input_stream_close_async (waiting->stream, G_PRIORITY_DEFAULT, NULL, NULL, NULL);
      _agent_mcp_auth_challenge_async (self->auth, waiting->message, waiting->token,
                                       authorized_cb, waiting);
      return;
    }

  if ((session_id = soup_message_headers_get_one (headers, "Mcp-Session-Id")) != NULL &&
      self->session_id == NULL && has_sessions (self))
    self->session_id = g_strdup (session_id);

  if (exchange->is_get)
    {
      /* No stream for server messages: it talks only in its answers. */
      if (status != SOUP_STATUS_OK || g_strcmp0 (content_type, "text/event-stream") != 0)
        {
          _agent_mcp_log (server_name (self), "no GET stream (HTTP %u)", status);
          return;
        }
    }
  else if (status == SOUP_STATUS_NOT_FOUND && self->session_id != NULL)
    {
      /* The server forgot the session: a new handshake is needed. */
      g_autoptr(GError) gone = NULL;

      gone = g_error_new (AGENT_ERROR, AGENT_ERROR_NETWORK,
                          _("The MCP server “%s” ended the session"), server_name (self));
      _agent_mcp_transport_emit_closed (AGENT_MCP_TRANSPORT (self), gone);
      return;
    }
  else if (!SOUP_STATUS_IS_SUCCESSFUL (status))
    exchange->is_error = TRUE;
  else if (status == SOUP_STATUS_ACCEPTED || status == SOUP_STATUS_NO_CONTENT)
    {
      if (exchange->id >= 0)
        exchange_failed (exchange, g_error_new (AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                                                _("The MCP server “%s” accepted a request "
                                                  "without answering it"),
                                                server_name (self)));
      return;
    }

  if (!exchange->is_error && g_strcmp0 (content_type, "text/event-stream") == 0)
    exchange->sse = agent_sse_parser_new (sse_event_cb, exchange);
  else
    exchange->body = g_byte_array_new ();

  read_body (g_steal_pointer (&exchange));
}

static void
cancel_exchange_cb (GCancellable *transport_cancellable,
                    gpointer      exchange_cancellable)
{
  g_cancellable_cancel (exchange_cancellable);
}

/* Sends the exchange's message, again after an authorization */
static void
exchange_send (Exchange *exchange)
{
  AgentMcpHttpTransport *self = exchange->self;
  SoupMessageHeaders *headers;

  g_clear_object (&exchange->stream);
  g_clear_object (&exchange->message);
  exchange->message = soup_message_new (exchange->is_get ? SOUP_METHOD_GET : SOUP_METHOD_POST,
                                        self->url);
  soup_message_add_flags (exchange->message, SOUP_MESSAGE_NO_REDIRECT);
  headers = soup_message_get_request_headers (exchange->message);

  if (exchange->is_get)
    soup_message_headers_replace (headers, "Accept", "text/event-stream");
  else
    soup_message_headers_replace (headers, "Accept", "application/json, text/event-stream");
  g_free (exchange->token);
  exchange->token = g_strdup (add_headers (self, exchange->message));

  if (exchange->request_body != NULL && self->revision != NULL && self->revision->method_headers)
    {
      GError *error = NULL;

      if (!add_method_headers (self, exchange->message, exchange->request_body, &error))
        {
          exchange_failed (exchange, error);
          exchange_free (exchange);
          return;
        }
    }
  if (exchange->request_body != NULL)
    soup_message_set_request_body_from_bytes (exchange->message, "application/json",
                                              exchange->request_body);

  soup_session_send_async (self->session, exchange->message, G_PRIORITY_DEFAULT,
                           exchange->cancellable, send_cb, exchange);
}

static void
prepared_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(Exchange) exchange = user_data;
  g_autoptr(GError) error = NULL;

  /* Not ready (the keyring could not be read, a refresh failed): the
   * server's refusal will say what to do */
  if (!_agent_mcp_auth_finish (AGENT_MCP_AUTH (object), result, &error))
    _agent_mcp_log (server_name (exchange->self), "%s", error->message);
  if (!g_cancellable_is_cancelled (exchange->cancellable))
    exchange_send (g_steal_pointer (&exchange));
}

static void
start_exchange (AgentMcpHttpTransport *self,
                const char            *method,
                GBytes                *body,
                gint64                 id)
{
  Exchange *exchange = g_new0 (Exchange, 1);

  exchange->self = g_object_ref (self);
  exchange->id = id;
  exchange->is_get = g_str_equal (method, SOUP_METHOD_GET);
  exchange->cancellable = g_cancellable_new ();
  exchange->request_body = body != NULL ? g_bytes_ref (body) : NULL;

  if (id >= 0)
    {
      gint64 *key = g_new (gint64, 1);

      *key = id;
      g_hash_table_replace (self->requests, key, g_object_ref (exchange->cancellable));
    }

  /* One cancellable for the whole transport, one for the exchange */
  exchange->cancelled_id = g_cancellable_connect (self->cancellable,
                                                  G_CALLBACK (cancel_exchange_cb),
                                                  exchange->cancellable, NULL);

  if (self->auth != NULL && _agent_mcp_auth_needs_prepare (self->auth))
    _agent_mcp_auth_prepare_async (self->auth, prepared_cb, exchange);
  else
    exchange_send (exchange);
}

/* The transport */

static gboolean
agent_mcp_http_transport_start (AgentMcpTransport  *transport,
                                GError            **error)
{
  AgentMcpHttpTransport *self = AGENT_MCP_HTTP_TRANSPORT (transport);
  g_autoptr(GUri) uri = g_uri_parse (self->url, G_URI_FLAGS_NONE, NULL);

  if (uri == NULL || (g_strcmp0 (g_uri_get_scheme (uri), "http") != 0 &&
                      g_strcmp0 (g_uri_get_scheme (uri), "https") != 0))
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("The URL of the MCP server “%s” is not an http or https URL"),
                   server_name (self));
      return FALSE;
    }

  self->session = soup_session_new_with_options ("user-agent", "libagent/" AGENT_VERSION_S,
                                                 "timeout", 0,
                                                 NULL);
  return TRUE;
}

static void
agent_mcp_http_transport_send (AgentMcpTransport *transport,
                               GBytes            *message,
                               gint64             id)
{
  AgentMcpHttpTransport *self = AGENT_MCP_HTTP_TRANSPORT (transport);

  /* notifications/cancelled: closing the request's stream said it */
  if (id < 0 && self->revision != NULL && !self->revision->client_notifications_over_http)
    return;

  start_exchange (self, SOUP_METHOD_POST, message, id);
}

static void
agent_mcp_http_transport_cancel_request (AgentMcpTransport *transport,
                                         gint64             id)
{
  AgentMcpHttpTransport *self = AGENT_MCP_HTTP_TRANSPORT (transport);
  GCancellable *cancellable = g_hash_table_lookup (self->requests, &id);

  if (cancellable != NULL)
    g_cancellable_cancel (cancellable);
}

static void
agent_mcp_http_transport_set_protocol_version (AgentMcpTransport *transport,
                                               const char        *version)
{
  AgentMcpHttpTransport *self = AGENT_MCP_HTTP_TRANSPORT (transport);

  g_free (self->protocol_version);
  self->protocol_version = g_strdup (version);
  self->revision = _agent_mcp_revision_find (version);
}

static void
agent_mcp_http_transport_initialized (AgentMcpTransport *transport)
{
  AgentMcpHttpTransport *self = AGENT_MCP_HTTP_TRANSPORT (transport);

  if (has_sessions (self))
    start_exchange (self, SOUP_METHOD_GET, NULL, -1);
}

static void
delete_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GBytes) body = NULL;

  /* Whatever it answered (405: it does not let clients end sessions), the
   * session is over for us. */
  body = soup_session_send_and_read_finish (SOUP_SESSION (object), result, NULL);
  g_task_return_boolean (task, TRUE);
}

static void
agent_mcp_http_transport_close_async (AgentMcpTransport   *transport,
                                      gboolean             force,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  AgentMcpHttpTransport *self = AGENT_MCP_HTTP_TRANSPORT (transport);
  g_autoptr(GTask) task = g_task_new (self, NULL, callback, user_data);
  g_autoptr(SoupMessage) message = NULL;

  g_task_set_source_tag (task, agent_mcp_http_transport_close_async);
  g_cancellable_cancel (self->cancellable);
  if (self->auth != NULL)
    _agent_mcp_auth_cancel (self->auth);

  if (self->session == NULL || self->session_id == NULL)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  message = soup_message_new (SOUP_METHOD_DELETE, self->url);
  soup_message_add_flags (message, SOUP_MESSAGE_NO_REDIRECT);
  add_headers (self, message);
  g_object_set (self->session, "timeout", DELETE_TIMEOUT, NULL);
  soup_session_send_and_read_async (self->session, message, G_PRIORITY_DEFAULT, NULL,
                                    delete_cb, g_steal_pointer (&task));
  g_clear_pointer (&self->session_id, g_free);
}

static void
agent_mcp_http_transport_dispose (GObject *object)
{
  AgentMcpHttpTransport *self = (AgentMcpHttpTransport *)object;

  g_cancellable_cancel (self->cancellable);

  G_OBJECT_CLASS (agent_mcp_http_transport_parent_class)->dispose (object);
}

static void
agent_mcp_http_transport_finalize (GObject *object)
{
  AgentMcpHttpTransport *self = (AgentMcpHttpTransport *)object;

  g_clear_object (&self->session);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->requests, g_hash_table_unref);
  g_free (self->url);
  g_strfreev (self->headers);
  g_free (self->session_id);
  g_free (self->protocol_version);
  g_clear_object (&self->auth);
  g_clear_pointer (&self->param_headers, g_hash_table_unref);

  G_OBJECT_CLASS (agent_mcp_http_transport_parent_class)->finalize (object);
}

static void
agent_mcp_http_transport_class_init (AgentMcpHttpTransportClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  AgentMcpTransportClass *transport_class = AGENT_MCP_TRANSPORT_CLASS (klass);

  object_class->dispose = agent_mcp_http_transport_dispose;
  object_class->finalize = agent_mcp_http_transport_finalize;

  transport_class->start = agent_mcp_http_transport_start;
  transport_class->send = agent_mcp_http_transport_send;
  transport_class->cancel_request = agent_mcp_http_transport_cancel_request;
  transport_class->set_protocol_version = agent_mcp_http_transport_set_protocol_version;
  transport_class->initialized = agent_mcp_http_transport_initialized;
  transport_class->close_async = agent_mcp_http_transport_close_async;
}

static void
agent_mcp_http_transport_init (AgentMcpHttpTransport *self)
{
  self->cancellable = g_cancellable_new ();
  self->requests = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_object_unref);
}

AgentMcpTransport *
_agent_mcp_http_transport_new (const char         *url,
                               const char * const *headers)
{
  AgentMcpHttpTransport *self = g_object_new (AGENT_TYPE_MCP_HTTP_TRANSPORT, NULL);
  g_autoptr(GPtrArray) secrets = g_ptr_array_new_with_free_func (g_free);

  self->url = g_strdup (url);
  self->headers = g_strdupv ((char **) headers);

  for (guint i = 0; headers != NULL && headers[i] != NULL; i++)
    {
      const char *colon = strchr (headers[i], ':');

      if (colon != NULL)
        g_ptr_array_add (secrets, g_strstrip (g_strdup (colon + 1)));
    }
  g_ptr_array_add (secrets, NULL);
  _agent_mcp_transport_set_secrets (AGENT_MCP_TRANSPORT (self),
                                    (const char * const *) secrets->pdata);

  return AGENT_MCP_TRANSPORT (self);
}

void
_agent_mcp_http_transport_set_auth (AgentMcpTransport *transport,
                                    AgentMcpAuth      *auth)
{
  AgentMcpHttpTransport *self = AGENT_MCP_HTTP_TRANSPORT (transport);

  g_set_object (&self->auth, auth);
}

void
_agent_mcp_http_transport_set_param_headers (AgentMcpTransport *transport,
                                             GHashTable        *headers)
{
  AgentMcpHttpTransport *self = AGENT_MCP_HTTP_TRANSPORT (transport);

  g_clear_pointer (&self->param_headers, g_hash_table_unref);
  if (headers != NULL)
    self->param_headers = g_hash_table_ref (headers);
}
