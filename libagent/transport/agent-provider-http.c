/* agent-provider-http.c
 *
 * The HTTP side of a provider (its settings, timeouts, retries, the size
 * limit, the trusted CAs, are AgentProvider's properties, in
 * agent-provider.c): the SoupSession, the request message
 * with its URL, headers and key, the redaction of the key, and the
 * errors made from HTTP statuses and JSON error objects.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-error-private.h"
#include "json/agent-json-private.h"
#include "transport/agent-provider-private.h"
#include "transport/agent-context-length-private.h"
#include "agent-util-private.h"
#include "agent-version.h"
#include "wire/agent-wire-util-private.h"

/* A user without a password in the base URL this long is a token */
#define MIN_USER_TOKEN 16

/* Connections libsoup may open at once, to one host or in all */
#define SOUP_MAX_CONNECTIONS 1024

AgentProviderHttp *
_agent_provider_http_new (void)
{
  AgentProviderHttp *http = g_new0 (AgentProviderHttp, 1);

  http->connect_timeout = 30;
  http->first_byte_timeout = 600;
  http->idle_timeout = 300;
  http->max_retries = 2;
  http->max_response_size = 64 * 1024 * 1024;

  return http;
}

/* From the provider's dispose: ends what is in flight (only
 * g_object_run_dispose() finds any: each request and listing holds the
 * provider), and drops the session. */
void
_agent_provider_http_dispose (AgentProviderHttp *http)
{
  if (http->cancellable != NULL)
    {
      g_cancellable_cancel (http->cancellable);
      g_clear_object (&http->cancellable);
    }
  g_clear_object (&http->soup_session);
}

/* What every request and listing of the provider links its own
 * cancellable to: disposing the provider cancels it, and the next request
 * gets a new one. Like the session, used from one thread at a time. */
GCancellable *
_agent_provider_get_cancellable (AgentProvider *self)
{
  AgentProviderHttp *http = _agent_provider_get_http (self);

  if (http->cancellable == NULL)
    http->cancellable = g_cancellable_new ();
  return http->cancellable;
}

static void
forget_api_key (AgentProviderHttp *http)
{
  if (http->api_key != NULL)
    {
      explicit_bzero (http->api_key, strlen (http->api_key));
      g_clear_pointer (&http->api_key, g_free);
    }
}

/* Sets the key, spaces around it dropped (none left: no key); whether
 * there is a key changed */
gboolean
_agent_provider_http_set_api_key (AgentProviderHttp *http,
                                  const char        *api_key)
{
  gboolean had_key = http->api_key != NULL;

  forget_api_key (http);
  http->api_key = g_strdup (api_key);
  if (http->api_key != NULL && g_strstrip (http->api_key)[0] == '\0')
    g_clear_pointer (&http->api_key, g_free);

  return had_key != (http->api_key != NULL);
}

void
_agent_provider_http_free (AgentProviderHttp *http)
{
  g_clear_object (&http->soup_session);
  g_clear_object (&http->cancellable);
  g_clear_pointer (&http->tls_ca_file, g_free);
  forget_api_key (http);
  g_free (http);
}















/* The HTTP session, made on first use. libsoup's own I/O timeout is off:
 * the step keeps finer ones (connect, first byte, idle). NULL with @error
 * set if the CA file cannot be read. */
SoupSession *
_agent_provider_get_soup_session (AgentProvider  *self,
                                  GError        **error)
{
  AgentProviderHttp *http = _agent_provider_get_http (self);
  g_autoptr(GTlsDatabase) database = NULL;

  if (http->soup_session != NULL)
    return http->soup_session;

  if (http->tls_ca_file != NULL)
    {
      g_autoptr(GError) local_error = NULL;

      database = g_tls_file_database_new (http->tls_ca_file, &local_error);
      if (database == NULL)
        {
          g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                       _("The certificate authorities in “%s” could not be read: %s"),
                       http->tls_ca_file, local_error->message);
          return NULL;
        }
    }

  /* A streamed answer holds its connection for as long as the model
   * writes: libsoup's default of 2 connections per host would queue the
   * third concurrent session behind the first two. max-concurrent-requests
   * is the limit, when one is wanted. */
  http->soup_session = soup_session_new_with_options ("user-agent", "libagent/" AGENT_VERSION_S,
                                                      "timeout", 0,
                                                      "tls-database", database,
                                                      "max-conns", SOUP_MAX_CONNECTIONS,
                                                      "max-conns-per-host", SOUP_MAX_CONNECTIONS,
                                                      NULL);
  return http->soup_session;
}

void
_agent_provider_add_bearer_auth (AgentProvider      *self,
                                 SoupMessageHeaders *headers)
{
  const char *api_key = _agent_provider_get_http (self)->api_key;

  if (api_key != NULL)
    {
      g_autofree char *value = g_strconcat ("Bearer ", api_key, NULL);

      soup_message_headers_replace (headers, "Authorization", value);
      explicit_bzero (value, strlen (value));
    }
}

/* The key, when there is one, as the value of the header @name (x-api-key,
 * x-goog-api-key, …) */
void
_agent_provider_add_api_key_header (AgentProvider      *self,
                                    SoupMessageHeaders *headers,
                                    const char         *name)
{
  const char *api_key = _agent_provider_get_http (self)->api_key;

  if (api_key != NULL)
    soup_message_headers_replace (headers, name, api_key);
}

/* {base-url}{path}, checked to be an http or https URL with a host. */
char *
_agent_provider_build_url (AgentProvider  *self,
                           const char     *path,
                           GError        **error)
{
  g_autofree char *url = g_strconcat (agent_provider_get_base_url (self), path, NULL);
  g_autoptr(GUri) uri = g_uri_parse (url, SOUP_HTTP_URI_FLAGS, NULL);

  if (uri == NULL ||
      (g_strcmp0 (g_uri_get_scheme (uri), "http") != 0 &&
       g_strcmp0 (g_uri_get_scheme (uri), "https") != 0) ||
      g_uri_get_host (uri) == NULL || g_uri_get_host (uri)[0] == '\0')
    {
      /* Without a password the URL may hold */
      g_autofree char *shown = uri != NULL ? g_uri_to_string_partial (uri, G_URI_HIDE_PASSWORD)
                                           : g_strdup (agent_provider_get_base_url (self));

      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("“%s” is not a valid http or https URL"), shown);
      return NULL;
    }

  return g_steal_pointer (&url);
}

/* The backend's headers (authentication and its own), then those of
 * @settings (the provider's when NULL). Fails, without showing it, when
 * the key cannot be sent in a header, and when a header set cannot be
 * sent. */
gboolean
_agent_provider_add_headers (AgentProvider         *self,
                             AgentRequestSettings  *settings,
                             SoupMessageHeaders    *headers,
                             GError               **error)
{
  const char *api_key = _agent_provider_get_http (self)->api_key;

  for (const char *p = api_key; p != NULL && *p != '\0'; p++)
    if ((guchar) *p < 0x20 || *p == 0x7f)
      {
        g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                             _("The API key contains a line break or another control "
                               "character; set it again"));
        return FALSE;
      }

  _agent_provider_get_backend (self)->add_headers (self, headers);
  return _agent_request_settings_add_headers (settings ? settings
                                                       : agent_provider_get_settings (self),
                                              headers, error);
}

/* The scale_images of the request whose body is being built on this thread */
static GPrivate writing_images = G_PRIVATE_INIT (NULL);

/* Documented in agent-provider-private.h */
const AgentImageRule *
_agent_provider_get_writing_images (void)
{
  return g_private_get (&writing_images);
}

SoupMessage *
_agent_provider_build_message (AgentProvider       *self,
                               const AgentRequest  *request,
                               GError             **error)
{
  const AgentProviderBackend *backend = _agent_provider_get_backend (self);
  g_autoptr(GBytes) body = NULL;
  g_autofree char *path = NULL;
  g_autofree char *url = NULL;
  SoupMessageHeaders *headers;
  SoupMessage *message;

  path = backend->build_path (request);
  if (!(url = _agent_provider_build_url (self, path, error)))
    return NULL;

  g_private_set (&writing_images, (gpointer) request->scale_images);
  body = backend->build_body (request, error);
  g_private_set (&writing_images, NULL);
  if (body == NULL)
    return NULL;

  message = soup_message_new (SOUP_METHOD_POST, url);
  /* The key goes to the base URL's origin only (libsoup would forward
   * x-api-key and the like to wherever a redirect points) */
  soup_message_add_flags (message, SOUP_MESSAGE_NO_REDIRECT);
  headers = soup_message_get_request_headers (message);
  soup_message_headers_replace (headers, "Accept",
                                backend->stream.framing == AGENT_FRAMING_SSE
                                  ? "text/event-stream" : "application/x-ndjson");
  if (!_agent_provider_add_headers (self, request->settings, headers, error))
    {
      g_object_unref (message);
      return NULL;
    }
  _agent_message_set_body (message, "application/json", body);

  return message;
}

/* The body of a message from _agent_provider_build_message() */
GBytes *
_agent_provider_get_request_body (SoupMessage *message)
{
  return g_bytes_ref (g_object_get_data (G_OBJECT (message), "agent-request-body"));
}

static void
restarted_cb (SoupMessage *message,
              GBytes      *body)
{
  /* The Content-Type header stayed */
  soup_message_set_request_body_from_bytes (message, NULL, body);
}

/* Documented in agent-provider-private.h */
void
_agent_message_set_body (SoupMessage *message,
                         const char  *content_type,
                         GBytes      *body)
{
  soup_message_set_request_body_from_bytes (message, content_type, body);
  g_object_set_data_full (G_OBJECT (message), "agent-request-body",
                          g_bytes_ref (body), (GDestroyNotify) g_bytes_unref);
  g_signal_connect_data (message, "restarted", G_CALLBACK (restarted_cb), g_bytes_ref (body),
                         (GClosureNotify) (void (*) (void)) g_bytes_unref, 0);
}

/* Documented in agent-provider-private.h */
GError *
_agent_provider_transfer_error (const char * const *secrets,
                                SoupMessage        *message,
                                GError             *error)
{
  g_autofree char *shown = NULL;
  GError *network;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || error->domain == AGENT_ERROR)
    return error;

  shown = agent_redact (error->message, secrets);
  network = g_error_new (AGENT_ERROR, AGENT_ERROR_NETWORK, _("Could not reach %s: %s"),
                         g_uri_get_host (soup_message_get_uri (message)), shown);
  g_error_free (error);
  return network;
}

/* Documented in agent-provider-private.h */
void
_agent_close_stream_now (GInputStream **stream)
{
  if (*stream != NULL)
    {
      g_autoptr(GCancellable) drop = g_cancellable_new ();

      /* Cancelled, the close cannot block */
      g_cancellable_cancel (drop);
      g_input_stream_close (*stream, drop, NULL);
    }
  g_clear_object (stream);
}

/* Adds @value, and its decoded form if it differs, to @secrets */
static void
add_secret (GPtrArray  *secrets,
            const char *value)
{
  g_autofree char *decoded = NULL;

  if (value == NULL || value[0] == '\0')
    return;

  g_ptr_array_add (secrets, g_strdup (value));
  decoded = g_uri_unescape_string (value, NULL);
  if (decoded != NULL && decoded[0] != '\0' && strcmp (decoded, value) != 0)
    g_ptr_array_add (secrets, g_steal_pointer (&decoded));
}

/* What a request of @self carries that nobody else may see: the API key,
 * the user information of the base URL (as written and decoded: a server
 * may echo either), and the values of the credential headers of @settings
 * (the provider's when NULL). A new NULL-terminated list, for
 * _agent_secrets_free(). */
char **
_agent_provider_dup_request_secrets (AgentProvider        *self,
                                     AgentRequestSettings *settings)
{
  GPtrArray *secrets = g_ptr_array_new ();
  g_autofree char *user = NULL;
  g_autofree char *password = NULL;
  const char *api_key = self != NULL ? _agent_provider_get_http (self)->api_key : NULL;

  if (api_key != NULL)
    g_ptr_array_add (secrets, g_strdup (api_key));

  if (self != NULL &&
      g_uri_split_with_user (agent_provider_get_base_url (self),
                             G_URI_FLAGS_ENCODED | G_URI_FLAGS_HAS_PASSWORD,
                             NULL, &user, &password, NULL, NULL, NULL, NULL, NULL, NULL, NULL))
    {
      /* The password; or the user alone when it is long enough to be a
       * token (https://TOKEN@host) rather than a name */
      if (password != NULL)
        add_secret (secrets, password);
      else if (user != NULL && strlen (user) >= MIN_USER_TOKEN)
        add_secret (secrets, user);
      if (password != NULL)
        explicit_bzero (password, strlen (password));
    }

  if (self != NULL)
    _agent_request_settings_add_secrets (settings ? settings : agent_provider_get_settings (self),
                                         secrets);

  g_ptr_array_add (secrets, NULL);
  return (char **) g_ptr_array_free (secrets, FALSE);
}

/* The secrets of any request of @self: see _agent_provider_dup_request_secrets() */
char **
_agent_provider_dup_secrets (AgentProvider *self)
{
  return _agent_provider_dup_request_secrets (self, NULL);
}

/* Frees a list from _agent_provider_dup_secrets(), wiping it first */
void
_agent_secrets_free (char **secrets)
{
  for (guint i = 0; secrets != NULL && secrets[i] != NULL; i++)
    explicit_bzero (secrets[i], strlen (secrets[i]));
  g_strfreev (secrets);
}

/**
 * _agent_provider_redact:
 *
 * Removes the secrets of @self (its API key, a password in its base URL)
 * from text that came from a server (some echo them back in error
 * messages). Returns a new string.
 */
char *
_agent_provider_redact (AgentProvider *self,
                        const char    *text)
{
  char **secrets = _agent_provider_dup_secrets (self);
  char *redacted = agent_redact (text, (const char * const *) secrets);

  _agent_secrets_free (secrets);
  return redacted;
}

/* Finds the human-readable message in the error shapes providers use:
 * {"error": {"message": …}}, {"error": "…"}, {"message": …}, {"detail": …}. */
static char *
describe_error_json (const AgentJson *root)
{
  AgentJson error = agent_json_member (root, "error");
  const AgentJson *described = root;
  const char *message = NULL;
  const char *code = NULL;

  if (agent_json_is (&error, AGENT_JSON_STRING))
    message = agent_json_string (&error, NULL);
  else if (agent_json_is (&error, AGENT_JSON_OBJECT) &&
           (message = agent_json_member_string (&error, "message", NULL)) != NULL)
    described = &error;

  if (message == NULL)
    message = agent_json_member_string (root, "message", NULL);
  if (message == NULL)
    message = agent_json_member_string (root, "detail", NULL);
  if (message == NULL)
    return NULL;

  /* Its code, or its type (which at the top is just "error"), or status */
  if ((code = agent_json_member_string (described, "code", NULL)) == NULL &&
      ((code = agent_json_member_string (described, "type", NULL)) == NULL ||
       g_str_equal (code, "error")))
    code = agent_json_member_string (described, "status", NULL);

  if (code != NULL && strstr (message, code) == NULL)
    return g_strdup_printf ("%s (%s)", message, code);
  return g_strdup (message);
}

static GError *
context_length_error (const char * const *secrets,
                      const char         *prefix,
                      const char         *described,
                      gint64              requested,
                      gint64              limit)
{
  g_autofree char *redacted = agent_redact (described ? described : "", secrets);
  g_autofree char *numbers = NULL;
  char requested_text[24], limit_text[24];
  GError *error;

  g_snprintf (requested_text, sizeof requested_text, "%" G_GINT64_FORMAT, requested);
  g_snprintf (limit_text, sizeof limit_text, "%" G_GINT64_FORMAT, limit);
  if (requested >= 0 && limit >= 0)
    /* Translators: the tokens a request needed, and the model's context window */
    numbers = g_strdup_printf (_("%s tokens, the limit is %s"), requested_text, limit_text);
  else if (limit >= 0)
    numbers = g_strdup_printf (_("the limit is %s tokens"), limit_text);

  if (numbers != NULL)
    error = g_error_new (AGENT_ERROR, AGENT_ERROR_CONTEXT_LENGTH,
                         _("The conversation is too long for the model's context window (%s). "
                           "%s: %s"),
                         numbers, prefix, redacted);
  else
    error = g_error_new (AGENT_ERROR, AGENT_ERROR_CONTEXT_LENGTH,
                         _("The conversation is too long for the model's context window. "
                           "%s: %s"),
                         prefix, redacted);

  _agent_error_set_context_tokens (error, requested, limit);
  return error;
}

/* An error from a provider's error object; NULL if there is none in it.
 * @secrets (which may be NULL) are redacted before anything is cut. */
GError *
_agent_provider_error_from_json_value (const char * const *secrets,
                                       int                 code,
                                       const char         *prefix,
                                       const AgentJson    *root)
{
  g_autofree char *described = describe_error_json (root);
  g_autofree char *redacted = NULL;
  gint64 requested, limit;

  /* Every API's "too long" is one code, with the numbers it gave */
  if (code != AGENT_ERROR_AUTHENTICATION && _agent_context_length_check (root, &requested, &limit))
    return context_length_error (secrets, prefix, described, requested, limit);

  if (described == NULL)
    {
      /* No message in it: show the object itself, cut at a character. */
      g_autofree char *text = agent_json_serialize (root);
      g_autofree char *excerpt = agent_excerpt (text, strlen (text), 200, secrets);

      return g_error_new (AGENT_ERROR, code, "%s: %s", prefix, excerpt);
    }

  redacted = agent_redact (described, secrets);
  return g_error_new (AGENT_ERROR, code, "%s: %s", prefix, redacted);
}

/* The same from text; NULL if the text is not JSON with an error message. */
GError *
_agent_provider_error_from_json (const char * const *secrets,
                                 int                 code,
                                 const char         *prefix,
                                 const char         *json,
                                 gsize               len)
{
  g_autoptr(AgentJsonParser) parser = agent_json_parser_new ();
  g_autofree char *described = NULL;
  AgentJson root;

  if (!agent_json_parser_parse (parser, json, len, &root, NULL) ||
      !(described = describe_error_json (&root)))
    return NULL;

  return _agent_provider_error_from_json_value (secrets, code, prefix, &root);
}

GError *
_agent_provider_error_from_http (const char * const *secrets,
                                 guint               status,
                                 const char         *reason,
                                 const char         *body,
                                 gsize               len)
{
  g_autofree char *prefix = NULL;
  g_autofree char *shown_reason = NULL;
  int code;
  GError *error;

  code = (status == SOUP_STATUS_UNAUTHORIZED || status == SOUP_STATUS_FORBIDDEN)
       ? AGENT_ERROR_AUTHENTICATION : AGENT_ERROR_HTTP;

  if (reason == NULL || reason[0] == '\0')
    reason = soup_status_get_phrase (status);
  shown_reason = agent_redact (reason ? reason : "", secrets);

  /* Translators: the first %u is an HTTP status code, %s its phrase */
  prefix = g_strdup_printf (_("The server answered %u %s"), status, shown_reason);

  if (body == NULL || len == 0 ||
      !(error = _agent_provider_error_from_json (secrets, code, prefix, body, len)))
    error = g_error_new_literal (AGENT_ERROR, code, prefix);

  _agent_error_set_http_status (error, status);
  return error;
}

/* A redirect, which is never followed: the key goes to the base URL's
 * origin only, and a 301, 302 or 303 would turn the request into a GET
 * without its body. The error says where the server pointed, for the user
 * to make it the base URL if they trust it. */
GError *
_agent_provider_error_from_redirect (const char * const *secrets,
                                     SoupMessage        *message)
{
  g_autofree char *target = _agent_redirect_target (message, secrets);
  g_autofree char *reason = NULL;
  guint status = soup_message_get_status (message);
  GError *error;

  reason = agent_redact (soup_message_get_reason_phrase (message), secrets);
  if (target == NULL)
    error = g_error_new (AGENT_ERROR, AGENT_ERROR_HTTP,
                         _("The server answered %u %s, a redirect without a Location"),
                         status, reason ? reason : "");
  else
    error = g_error_new (AGENT_ERROR, AGENT_ERROR_HTTP,
                         _("The server answered %u %s, a redirect to %s, which is not followed: "
                           "the API key goes to the base URL's host only. If the new address "
                           "is right, make it the base URL"),
                         status, reason ? reason : "", target);

  _agent_error_set_http_status (error, status);
  return error;
}
