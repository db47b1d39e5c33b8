/* agent-fetch-url.c — the built-in fetch_url tool
 *
 * A GET over HTTP(S) with its own SoupSession, bounded in size and time,
 * following redirects itself (only to http and https). A model must not
 * reach the user's router or a service on this computer unasked: every
 * connection is checked, on the address it was actually made to, against
 * loopback, link-local, private, shared, multicast and unspecified
 * addresses, unless the caller allowed that host or network. The check
 * runs when the socket is connected, before a byte of the request is
 * written, so a name that resolves to 127.0.0.1 and a redirect to a
 * private address are refused as a literal address is.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>
#include <libsoup/soup.h>

#ifdef HAVE_POPPLER
# include <poppler.h>
#endif

#include "tools/agent-builtin-tools.h"
#include "tools/agent-html-text-private.h"
#include "agent-error.h"
#include "agent-util-private.h"
#include "agent-version.h"

#define DEFAULT_TIMEOUT   20
#define DEFAULT_MAX_BYTES (2 * 1024 * 1024)
#define MAX_TEXT          (48 * 1024)
#define MAX_REDIRECTS     5
#define READ_CHUNK        (64 * 1024)

typedef struct
{
  GStrv      hosts;    /* allowed host names, in lower case */
  GPtrArray *masks;    /* allowed networks, GInetAddressMask */
  guint      timeout;
  gsize      max_bytes;
} Settings;

typedef struct
{
  const Settings *settings;
  const char     *host;
  GCancellable   *cancellable;
  char           *refused;     /* the address a connection was refused to */
  gboolean        checked;
} Fetch;

static void
settings_free (gpointer data)
{
  Settings *settings = data;

  g_strfreev (settings->hosts);
  g_ptr_array_unref (settings->masks);
  g_free (settings);
}

/* Addresses no web page lives at: this computer, the local network, the
 * carrier's shared space, link-local, multicast and the unspecified ones. */
static const char * const blocked_networks[] = {
  "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16",
  "172.16.0.0/12", "192.0.0.0/24", "192.168.0.0/16", "198.18.0.0/15", "224.0.0.0/4",
  "240.0.0.0/4", "::/128", "::1/128", "fc00::/7", "fe80::/10", "fec0::/10", "ff00::/8",
  NULL
};

static GPtrArray *
get_blocked_masks (void)
{
  static gsize masks;

  if (g_once_init_enter (&masks))
    {
      GPtrArray *array = g_ptr_array_new ();

      for (guint i = 0; blocked_networks[i] != NULL; i++)
        g_ptr_array_add (array, g_inet_address_mask_new_from_string (blocked_networks[i], NULL));
      g_once_init_leave (&masks, (gsize) array);
    }

  return (GPtrArray *) masks;
}

static gboolean
address_is_public (GInetAddress *address)
{
  GPtrArray *blocked = get_blocked_masks ();

  /* ::ffff:10.0.0.1 reaches 10.0.0.1: judge the IPv4 address inside */
  if (g_inet_address_get_family (address) == G_SOCKET_FAMILY_IPV6)
    {
      const guint8 *bytes = g_inet_address_to_bytes (address);
      static const guint8 mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

      if (memcmp (bytes, mapped, sizeof mapped) == 0)
        {
          g_autoptr(GInetAddress) v4 = g_inet_address_new_from_bytes (bytes + 12,
                                                                      G_SOCKET_FAMILY_IPV4);

          return address_is_public (v4);
        }
    }

  if (g_inet_address_get_is_any (address) || g_inet_address_get_is_loopback (address) ||
      g_inet_address_get_is_link_local (address) || g_inet_address_get_is_site_local (address) ||
      g_inet_address_get_is_multicast (address))
    return FALSE;

  for (guint i = 0; i < blocked->len; i++)
    if (g_inet_address_mask_matches (blocked->pdata[i], address))
      return FALSE;

  return TRUE;
}

static gboolean
address_is_allowed (const Settings *settings,
                    const char     *host,
                    GInetAddress   *address)
{
  g_autofree char *lower = g_ascii_strdown (host, -1);

  if (address_is_public (address))
    return TRUE;
  if (settings->hosts != NULL && g_strv_contains ((const char * const *)settings->hosts, lower))
    return TRUE;
  for (guint i = 0; i < settings->masks->len; i++)
    if (g_inet_address_mask_matches (settings->masks->pdata[i], address))
      return TRUE;

  return FALSE;
}

static char *
refuse_address (Fetch          *fetch,
                GSocketAddress *address)
{
  GInetAddress *inet;

  if (!G_IS_INET_SOCKET_ADDRESS (address))
    return g_strdup ("?");

  inet = g_inet_socket_address_get_address (G_INET_SOCKET_ADDRESS (address));
  if (address_is_allowed (fetch->settings, fetch->host, inet))
    return NULL;

  return g_inet_address_to_string (inet);
}

static void
on_network_event (SoupMessage        *message,
                  GSocketClientEvent  event,
                  GIOStream          *connection,
                  Fetch              *fetch)
{
  g_autoptr(GSocketAddress) address = NULL;

  if (event != G_SOCKET_CLIENT_CONNECTED)
    return;

  fetch->checked = TRUE;
  if (G_IS_SOCKET_CONNECTION (connection))
    address = g_socket_connection_get_remote_address (G_SOCKET_CONNECTION (connection), NULL);

  if (address == NULL)
    fetch->refused = g_strdup ("?");
  else
    fetch->refused = refuse_address (fetch, address);

  if (fetch->refused != NULL)
    g_cancellable_cancel (fetch->cancellable);
}

static void
on_cancelled (GCancellable *cancellable,
              GCancellable *inner)
{
  g_cancellable_cancel (inner);
}

static char *
shown_url (GUri *uri)
{
  return g_uri_to_string_partial (uri, G_URI_HIDE_USERINFO | G_URI_HIDE_AUTH_PARAMS);
}

static gboolean
scheme_is_web (GUri *uri)
{
  const char *scheme = g_uri_get_scheme (uri);

  return g_ascii_strcasecmp (scheme, "http") == 0 || g_ascii_strcasecmp (scheme, "https") == 0;
}

/* Reads at most max_bytes + 1 bytes of @stream: one more than the limit
 * says that there was more, without reading the rest. */
static GByteArray *
read_bounded (GInputStream    *stream,
              const Settings  *settings,
              gint64           deadline,
              gboolean        *truncated,
              GCancellable    *cancellable,
              GError         **error)
{
  g_autoptr(GByteArray) data = g_byte_array_new ();

  *truncated = FALSE;
  for (;;)
    {
      gsize want = MIN (READ_CHUNK, settings->max_bytes + 1 - data->len);
      gsize old = data->len;
      gssize n;

      if (g_get_monotonic_time () > deadline)
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT, "");
          return NULL;
        }

      g_byte_array_set_size (data, old + want);
      n = g_input_stream_read (stream, data->data + old, want, cancellable, error);
      if (n < 0)
        return NULL;
      g_byte_array_set_size (data, old + n);
      if (n == 0)
        break;
      if (data->len > settings->max_bytes)
        {
          g_byte_array_set_size (data, settings->max_bytes);
          *truncated = TRUE;
          break;
        }
    }

  return g_steal_pointer (&data);
}

static char *
to_utf8 (const char *data,
         gsize       length,
         const char *charset)
{
  g_autofree char *converted = NULL;

  if (charset != NULL && g_ascii_strcasecmp (charset, "utf-8") != 0 &&
      g_ascii_strcasecmp (charset, "utf8") != 0)
    converted = g_convert_with_fallback (data, length, "UTF-8", charset, "?", NULL, NULL, NULL);

  if (converted != NULL)
    return g_steal_pointer (&converted);

  /* A body cut at the limit may end inside a character; a wrong charset
   * leaves U+FFFD rather than failing the call */
  return g_utf8_make_valid (data, length);
}

#ifdef HAVE_POPPLER
static char *
pdf_to_text (GByteArray  *data,
             char       **title,
             GError     **error)
{
  g_autoptr(GBytes) bytes = g_bytes_new (data->data, data->len);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GError) local_error = NULL;
  PopplerDocument *document;
  int n_pages;

  /* poppler-glib 22 has no g_autoptr for its types */
  document = poppler_document_new_from_bytes (bytes, NULL, &local_error);
  if (document == NULL)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_TOOL, _("the PDF could not be read: %s"),
                   local_error->message);
      return NULL;
    }

  *title = poppler_document_get_title (document);
  n_pages = poppler_document_get_n_pages (document);
  for (int i = 0; i < n_pages && text->len <= MAX_TEXT; i++)
    {
      PopplerPage *page = poppler_document_get_page (document, i);
      g_autofree char *page_text = NULL;

      if (page == NULL)
        continue;
      page_text = poppler_page_get_text (page);
      g_object_unref (page);
      if (page_text == NULL)
        continue;
      if (text->len > 0)
        g_string_append (text, "\n\n");
      g_string_append (text, page_text);
    }
  g_object_unref (document);

  return g_strdup (text->str);
}
#endif

static gboolean
is_text_type (const char *type)
{
  return g_str_has_prefix (type, "text/") || g_str_equal (type, "application/json") ||
         g_str_has_suffix (type, "+json") || g_str_equal (type, "application/xml") ||
         g_str_has_suffix (type, "+xml") || g_str_equal (type, "application/javascript") ||
         g_str_equal (type, "application/x-ndjson");
}

/* The page's text for the model: HTML as Markdown, PDF as text, text and
 * JSON as they are; other types are refused. */
static char *
convert_body (SoupMessage  *message,
              const char   *url,
              GByteArray   *data,
              gboolean      truncated,
              char        **title,
              GError      **error)
{
  g_autoptr(GHashTable) params = NULL;
  g_autofree char *type = NULL;
  const char *header_type;
  const char *charset;

  header_type = soup_message_headers_get_content_type (soup_message_get_response_headers (message),
                                                       &params);
  charset = params != NULL ? g_hash_table_lookup (params, "charset") : NULL;
  type = g_ascii_strdown (header_type != NULL ? header_type : "", -1);

  if (type[0] == '\0')
    {
      /* No type: HTML if it looks like it, text if it is UTF-8 */
      g_autofree char *start = g_ascii_strdown ((const char *)data->data, MIN (data->len, 256));

      g_free (type);
      if (strstr (start, "<html") != NULL || strstr (start, "<!doctype html") != NULL)
        type = g_strdup ("text/html");
      else if (g_utf8_validate_len ((const char *)data->data, data->len, NULL) &&
               memchr (data->data, '\0', data->len) == NULL)
        type = g_strdup ("text/plain");
      else
        type = g_strdup ("application/octet-stream");
    }

  if (g_str_equal (type, "text/html") || g_str_equal (type, "application/xhtml+xml"))
    return _agent_html_to_markdown ((const char *)data->data, data->len, charset, url, title);

  if (g_str_equal (type, "application/pdf"))
    {
#ifdef HAVE_POPPLER
      if (truncated)
        {
          g_set_error (error, AGENT_ERROR, AGENT_ERROR_LIMIT,
                       _("the PDF is larger than %zu bytes, the most fetch_url reads"),
                       (size_t) data->len);
          return NULL;
        }
      return pdf_to_text (data, title, error);
#else
      g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_UNSUPPORTED,
                           _("it is a PDF, and this libagent was built without PDF support "
                             "(poppler-glib)"));
      return NULL;
#endif
    }

  if (is_text_type (type))
    return to_utf8 ((const char *)data->data, data->len, charset);

  g_set_error (error, AGENT_ERROR, AGENT_ERROR_UNSUPPORTED,
               _("its content type is “%s”; fetch_url reads HTML, text, JSON and PDF"), type);
  return NULL;
}

static char *
format_result (const char *url,
               const char *title,
               const char *text,
               gboolean    truncated,
               gsize       max_bytes)
{
  GString *out = g_string_new (NULL);
  gsize length = strlen (text);

  g_string_append_printf (out, "URL: %s\n", url);
  if (title != NULL && title[0] != '\0')
    g_string_append_printf (out, "Title: %s\n", title);
  g_string_append_c (out, '\n');

  if (length > MAX_TEXT)
    {
      const char *end = g_utf8_find_prev_char (text, text + MAX_TEXT + 1);

      g_string_append_len (out, text, end - text);
      g_string_append_c (out, '\n');
      g_string_append_printf (out, _("[The text was cut here: %zu of its %zu bytes are shown.]"),
                              (size_t) (end - text), (size_t) length);
    }
  else
    g_string_append (out, text);

  if (truncated)
    {
      g_string_append_c (out, '\n');
      g_string_append_printf (out, _("[The page is larger than %zu bytes; only that much of it "
                                     "was read.]"),
                              (size_t) max_bytes);
    }

  return g_string_free (out, FALSE);
}

/* Sends one GET to @uri, checking the address each new connection
 * reaches. */
static GInputStream *
send_checked (SoupSession     *session,
              SoupMessage     *message,
              const Settings  *settings,
              GUri            *uri,
              GCancellable    *cancellable,
              GError         **error)
{
  g_autoptr(GCancellable) inner = g_cancellable_new ();
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *url = shown_url (uri);
  Fetch fetch = { settings, g_uri_get_host (uri), inner, NULL, FALSE };
  gulong cancel_id = 0;
  gulong event_id;

  if (cancellable != NULL)
    cancel_id = g_cancellable_connect (cancellable, G_CALLBACK (on_cancelled),
                                       g_object_ref (inner), g_object_unref);
  event_id = g_signal_connect (message, "network-event", G_CALLBACK (on_network_event), &fetch);

  stream = soup_session_send (session, message, inner, &local_error);

  g_signal_handler_disconnect (message, event_id);
  g_cancellable_disconnect (cancellable, cancel_id);

  /* Fail closed: a reused connection was checked when it was made; a
   * new one the signal did not report is checked here */
  if (fetch.refused == NULL && stream != NULL && !fetch.checked)
    {
      GSocketAddress *address = soup_message_get_remote_address (message);

      fetch.refused = address != NULL ? refuse_address (&fetch, address) : g_strdup ("?");
    }

  if (fetch.refused != NULL)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_TOOL,
                   _("Refused to fetch %s: its address %s is on this computer or a private "
                     "network (allow the host to reach it)"),
                   url, fetch.refused);
      g_free (fetch.refused);
      return NULL;
    }

  if (stream == NULL)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT))
        g_set_error (error, AGENT_ERROR, AGENT_ERROR_TIMEOUT,
                     _("Fetching %s timed out after %u s"), url, settings->timeout);
      else
        g_set_error (error, AGENT_ERROR, AGENT_ERROR_NETWORK, _("Could not fetch %s: %s"),
                     url, local_error->message);
      return NULL;
    }

  return g_steal_pointer (&stream);
}

static char *
fetch_url (AgentTool     *tool,
           JsonNode      *arguments,
           GCancellable  *cancellable,
           gpointer       user_data,
           GError       **error)
{
  const Settings *settings = user_data;
  JsonObject *object = json_node_get_object (arguments);
  g_autoptr(SoupSession) session = NULL;
  g_autoptr(GByteArray) data = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GUri) uri = NULL;
  g_autofree char *url = NULL;
  g_autofree char *title = NULL;
  g_autofree char *text = NULL;
  gboolean truncated = FALSE;
  gint64 deadline;
  JsonNode *node;

  node = json_object_get_member (object, "url");
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    {
      g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_TOOL,
                           _("“url” must be a string, for example "
                             "{\"url\": \"https://example.org/\"}"));
      return NULL;
    }

  uri = g_uri_parse (json_node_get_string (node), SOUP_HTTP_URI_FLAGS, NULL);
  if (uri == NULL || !scheme_is_web (uri) || g_uri_get_host (uri) == NULL ||
      g_uri_get_host (uri)[0] == '\0')
    {
      g_autofree char *shown = _agent_url_hide_userinfo (json_node_get_string (node));

      g_set_error (error, AGENT_ERROR, AGENT_ERROR_TOOL,
                   _("“%s” is not an http or https URL"), shown);
      return NULL;
    }

  /* Direct connections only: through a proxy, the address connected to
   * would be the proxy's and the rule could not be checked */
  session = soup_session_new_with_options ("user-agent", "libagent/" AGENT_VERSION_S,
                                           "timeout", settings->timeout,
                                           "proxy-resolver", NULL,
                                           NULL);
  deadline = g_get_monotonic_time () + (gint64) settings->timeout * 3 * G_USEC_PER_SEC;

  for (guint hop = 0;; hop++)
    {
      g_autoptr(SoupMessage) message = soup_message_new_from_uri ("GET", uri);
      g_autoptr(GInputStream) stream = NULL;
      guint status;

      g_clear_pointer (&url, g_free);
      url = shown_url (uri);

      soup_message_add_flags (message, SOUP_MESSAGE_NO_REDIRECT);
      soup_message_headers_replace (soup_message_get_request_headers (message), "Accept",
                                    "text/html, application/xhtml+xml, text/plain;q=0.9, "
                                    "application/json;q=0.9, application/pdf;q=0.8, */*;q=0.1");

      stream = send_checked (session, message, settings, uri, cancellable, error);
      if (stream == NULL)
        return NULL;

      status = soup_message_get_status (message);
      if (SOUP_STATUS_IS_REDIRECTION (status) &&
          soup_message_headers_get_one (soup_message_get_response_headers (message),
                                        "Location") != NULL)
        {
          const char *location = soup_message_headers_get_one (
              soup_message_get_response_headers (message), "Location");
          g_autoptr(GUri) target = g_uri_parse_relative (uri, location, SOUP_HTTP_URI_FLAGS,
                                                         NULL);

          g_input_stream_close (stream, NULL, NULL);
          if (hop >= MAX_REDIRECTS)
            {
              g_set_error (error, AGENT_ERROR, AGENT_ERROR_LIMIT,
                           _("Could not fetch %s: more than %d redirects"), url, MAX_REDIRECTS);
              return NULL;
            }
          if (target == NULL || !scheme_is_web (target) || g_uri_get_host (target) == NULL)
            {
              g_autofree char *shown = target != NULL ? shown_url (target)
                                                      : g_utf8_make_valid (location, -1);

              g_set_error (error, AGENT_ERROR, AGENT_ERROR_TOOL,
                           _("Refused to follow the redirect of %s to “%s”: only http and https "
                             "are fetched"),
                           url, shown);
              return NULL;
            }
          g_clear_pointer (&uri, g_uri_unref);
          uri = g_steal_pointer (&target);
          continue;
        }

      if (!SOUP_STATUS_IS_SUCCESSFUL (status))
        {
          g_set_error (error, AGENT_ERROR, AGENT_ERROR_HTTP, _("Fetching %s failed: HTTP %u %s"),
                       url, status, soup_message_get_reason_phrase (message));
          return NULL;
        }

      data = read_bounded (stream, settings, deadline, &truncated, cancellable, &local_error);
      if (data == NULL)
        {
          if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
            g_propagate_error (error, g_steal_pointer (&local_error));
          else if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT))
            g_set_error (error, AGENT_ERROR, AGENT_ERROR_TIMEOUT,
                         _("Fetching %s timed out after %u s"), url, settings->timeout);
          else
            g_set_error (error, AGENT_ERROR, AGENT_ERROR_NETWORK, _("Could not fetch %s: %s"),
                         url, local_error->message);
          return NULL;
        }

      text = convert_body (message, url, data, truncated, &title, &local_error);
      if (text == NULL)
        {
          g_set_error (error, local_error->domain, local_error->code,
                       _("Could not read %s: %s"), url, local_error->message);
          return NULL;
        }
      break;
    }

  return format_result (url, title, text, truncated, settings->max_bytes);
}

static JsonNode *
fetch_url_parameters (void)
{
  g_autoptr(JsonBuilder) builder = json_builder_new_immutable ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, "object");
  json_builder_set_member_name (builder, "properties");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "url");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, "string");
  json_builder_set_member_name (builder, "description");
  json_builder_add_string_value (builder, "The http or https URL of the page");
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "required");
  json_builder_begin_array (builder);
  json_builder_add_string_value (builder, "url");
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

/**
 * agent_fetch_url_tool_new:
 *
 * Creates the `fetch_url` tool with its default settings, as
 * [func@Agent.fetch_url_tool_new_full] with no allowed hosts: it refuses
 * every address on this computer and on private networks.
 *
 * Returns: (transfer full): a new [class@Agent.Tool]
 *
 * Since: 0.1
 */
AgentTool *
agent_fetch_url_tool_new (void)
{
  return agent_fetch_url_tool_new_full (NULL, 0, 0, NULL);
}

/**
 * agent_fetch_url_tool_new_full:
 * @allowed_hosts: (nullable) (array zero-terminated=1): host names (`"intranet.example"`),
 *   addresses (`"192.168.1.2"`) or networks (`"10.0.0.0/8"`, `"::1/128"`) that may be
 *   fetched although they are on this computer or a private network
 * @timeout_seconds: how long connecting and each read may take, 0 for the
 *   default (20 s); a whole fetch may take three times as long
 * @max_bytes: how much of a page is read at most, 0 for the default (2 MiB)
 * @error: return location for a [struct@GLib.Error]
 *
 * Creates the `fetch_url` tool: `{"url": "https://…"}` returns the
 * readable text of a web page. HTML becomes Markdown (headings,
 * paragraphs, lists, links with absolute URLs, code; the `<main>` or
 * `<article>` of the page when it has one, without scripts, styles,
 * navigation, footers, asides and forms); PDF becomes its text when
 * libagent was built with poppler-glib; text and JSON are returned as they
 * are; other types are refused. At most 48 KiB of text is returned, with
 * a note when it was cut.
 *
 * Redirects are followed (at most 5), only to http and https. Loopback,
 * link-local, private (RFC 1918, `fc00::/7`), shared (`100.64.0.0/10`),
 * multicast and unspecified addresses are refused unless @allowed_hosts
 * names the host or the address: the rule is checked on the address each
 * connection is made to, so a name that resolves to such an address, or
 * a redirect to one, is refused too. The tool connects directly, never
 * through a proxy. Fetching needs the user's approval
 * ([property@Agent.Tool:requires-approval] is set); it runs in a worker
 * thread.
 *
 * Returns: (transfer full): a new [class@Agent.Tool], or %NULL with
 *   %AGENT_ERROR_INVALID_ARGUMENT if an entry of @allowed_hosts is neither
 *   a host name nor an address or network
 *
 * Since: 0.1
 */
AgentTool *
agent_fetch_url_tool_new_full (const char * const  *allowed_hosts,
                               guint                timeout_seconds,
                               guint64              max_bytes,
                               GError             **error)
{
  g_autoptr(JsonNode) parameters = NULL;
  g_autoptr(GStrvBuilder) hosts = g_strv_builder_new ();
  Settings *settings;
  AgentTool *tool;

  settings = g_new0 (Settings, 1);
  settings->masks = g_ptr_array_new_with_free_func (g_object_unref);
  settings->timeout = timeout_seconds > 0 ? timeout_seconds : DEFAULT_TIMEOUT;
  settings->max_bytes = max_bytes > 0 ? (gsize) MIN (max_bytes, G_MAXSIZE - 1)
                                      : DEFAULT_MAX_BYTES;

  for (guint i = 0; allowed_hosts != NULL && allowed_hosts[i] != NULL; i++)
    {
      const char *entry = allowed_hosts[i];
      g_autofree char *bare = g_strdup (entry);
      GInetAddressMask *mask = NULL;
      g_autoptr(GInetAddress) address = NULL;

      /* [::1] as in a URL */
      if (bare[0] == '[' && g_str_has_suffix (bare, "]"))
        {
          memmove (bare, bare + 1, strlen (bare) - 2);
          bare[strlen (bare) - 2] = '\0';
        }

      if (strchr (bare, '/') != NULL)
        mask = g_inet_address_mask_new_from_string (bare, NULL);
      else if ((address = g_inet_address_new_from_string (bare)) != NULL)
        mask = g_inet_address_mask_new (address, g_inet_address_get_native_size (address) * 8,
                                        NULL);
      else if (bare[0] == '\0' || bare[strspn (bare, "abcdefghijklmnopqrstuvwxyz"
                                                    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-")] != '\0')
        mask = NULL;
      else
        {
          g_autofree char *lower = g_ascii_strdown (bare, -1);

          g_strv_builder_add (hosts, lower);
          continue;
        }

      if (mask == NULL)
        {
          settings_free (settings);
          g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                       _("“%s” is not a host name, an address or a network such as "
                         "10.0.0.0/8"),
                       entry);
          return NULL;
        }
      g_ptr_array_add (settings->masks, mask);
    }
  settings->hosts = g_strv_builder_end (hosts);

  parameters = fetch_url_parameters ();
  tool = agent_tool_new_blocking ("fetch_url",
                                  "Fetches a web page over http or https and returns its readable "
                                  "text as Markdown (HTML), or the text of a PDF, plain text or "
                                  "JSON. Pages on the user's computer or local network are "
                                  "refused. The user must approve each fetch.",
                                  parameters, fetch_url, settings, settings_free);
  agent_tool_set_requires_approval (tool, TRUE);

  return tool;
}
