/* test-fetch-url.c — the fetch_url tool against loopback web servers
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>
#include <cairo.h>
#include <cairo-pdf.h>
#include <libsoup/soup.h>

#include "agent-test-util.h"

#define HUGE_BYTES (64 * 1024 * 1024)

typedef struct
{
  SoupServer *server;
  char       *base;      /* http://127.0.0.1:PORT */
  guint16     port;
  gboolean    has_ipv6;
  guint       n_requests;
  gsize       huge_written;
  GPtrArray  *paused;    /* SoupServerMessage, the slow page's */
  char       *pdf;
  gsize       pdf_length;
} Web;

static const char page_html[] =
  "<!DOCTYPE html><html><head><title>The Page &amp; Co</title>"
  "<style>body { color: red; }</style><script>var secret = 'SCRIPT';</script></head>"
  "<body><nav><a href=\"/home\">NAVIGATION</a></nav>"
  "<div>Outside the main part</div>"
  "<main><h1>Heading One</h1>"
  "<p>Fish &amp; chips cost &euro;5 &mdash; <em>cheap</em>.</p>"
  "<h2>Second</h2>"
  "<ul><li>first item</li><li>second <a href=\"/other?x=1\">relative link</a></li></ul>"
  "<ol><li>one</li><li>two</li></ol>"
  "<pre><code>int main (void)\n{\n  return 0;\n}</code></pre>"
  "<p>Inline <code>g_free ()</code> call.</p>"
  "<noscript>NOSCRIPT</noscript><form><input name=q>FORM</form>"
  "<aside>ASIDE</aside></main>"
  "<footer>FOOTER</footer></body></html>";

static void
write_pdf (Web *web)
{
  g_autofree char *dir = agent_test_make_dir ("agent-fetch-pdf");
  g_autofree char *path = g_build_filename (dir, "doc.pdf", NULL);
  cairo_surface_t *surface = cairo_pdf_surface_create (path, 300, 200);
  cairo_t *cr = cairo_create (surface);

  cairo_move_to (cr, 20, 50);
  cairo_set_font_size (cr, 14);
  cairo_show_text (cr, "Portable words inside");
  cairo_destroy (cr);
  cairo_surface_finish (surface);
  cairo_surface_destroy (surface);

  g_assert_true (g_file_get_contents (path, &web->pdf, &web->pdf_length, NULL));
  agent_test_remove_dir (dir);
}

static void
huge_wrote_chunk (SoupServerMessage *message,
                  Web               *web)
{
  static char block[64 * 1024];
  SoupMessageBody *body = soup_server_message_get_response_body (message);

  if (web->huge_written >= HUGE_BYTES)
    {
      soup_message_body_complete (body);
      return;
    }
  memset (block, 'x', sizeof block);
  soup_message_body_append (body, SOUP_MEMORY_COPY, block, sizeof block);
  web->huge_written += sizeof block;
}

static void
respond (SoupServerMessage *message,
         guint              status,
         const char        *type,
         const char        *body,
         gssize             length)
{
  soup_server_message_set_status (message, status, NULL);
  soup_server_message_set_response (message, type, SOUP_MEMORY_COPY, body,
                                    length < 0 ? strlen (body) : (gsize) length);
}

static void
redirect (SoupServerMessage *message,
          const char        *location)
{
  soup_server_message_set_status (message, SOUP_STATUS_FOUND, NULL);
  soup_message_headers_replace (soup_server_message_get_response_headers (message), "Location",
                                location);
}

static void
handle (SoupServer        *server,
        SoupServerMessage *message,
        const char        *path,
        GHashTable        *query,
        gpointer           user_data)
{
  Web *web = user_data;

  web->n_requests++;

  if (g_str_equal (path, "/page.html"))
    respond (message, 200, "text/html; charset=utf-8", page_html, -1);
  else if (g_str_equal (path, "/latin1.html"))
    respond (message, 200, "text/html; charset=iso-8859-1",
             "<html><body><p>Caf\xe9 cr\xe8me</p></body></html>", -1);
  else if (g_str_equal (path, "/meta.html"))
    respond (message, 200, "text/html",
             "<html><head><meta charset=\"iso-8859-1\"></head><body><p>\xe9t\xe9</p></body></html>",
             -1);
  else if (g_str_equal (path, "/text"))
    respond (message, 200, "text/plain", "Just some  plain\ttext.\n", -1);
  else if (g_str_equal (path, "/json"))
    respond (message, 200, "application/json", "{\"answer\": 42}", -1);
  else if (g_str_equal (path, "/image"))
    respond (message, 200, "image/png", "\x89PNG\r\n\x1a\n", 8);
  else if (g_str_equal (path, "/pdf"))
    respond (message, 200, "application/pdf", web->pdf, web->pdf_length);
  else if (g_str_equal (path, "/missing"))
    respond (message, 404, "text/plain", "no", -1);
  else if (g_str_equal (path, "/redirect"))
    redirect (message, "/text");
  else if (g_str_equal (path, "/redirect-ftp"))
    redirect (message, "ftp://example.org/file");
  else if (g_str_equal (path, "/redirect-loop"))
    redirect (message, "/redirect-loop");
  else if (g_str_equal (path, "/redirect-local"))
    {
      g_autofree char *target = g_strdup_printf ("%s/text", web->base);

      redirect (message, target);
    }
  else if (g_str_equal (path, "/huge"))
    {
      SoupMessageHeaders *headers = soup_server_message_get_response_headers (message);

      soup_server_message_set_status (message, 200, NULL);
      soup_message_headers_set_encoding (headers, SOUP_ENCODING_CHUNKED);
      soup_message_headers_set_content_type (headers, "text/plain", NULL);
      g_signal_connect (message, "wrote-chunk", G_CALLBACK (huge_wrote_chunk), web);
      g_signal_connect (message, "wrote-headers", G_CALLBACK (huge_wrote_chunk), web);
    }
  else if (g_str_equal (path, "/slow"))
    {
      soup_server_message_pause (message);
      g_ptr_array_add (web->paused, g_object_ref (message));
    }
  else
    respond (message, 404, "text/plain", "unknown", -1);
}

static Web *
web_new (void)
{
  Web *web = g_new0 (Web, 1);
  g_autoptr(GError) error = NULL;
  GSList *listeners;

  web->paused = g_ptr_array_new_with_free_func (g_object_unref);
  write_pdf (web);
  web->server = soup_server_new (NULL, NULL);
  soup_server_add_handler (web->server, NULL, handle, web, NULL);
  soup_server_listen_local (web->server, 0, 0, &error);
  g_assert_no_error (error);

  /* The listeners rather than soup_server_get_uris(), which leaks an
   * address per listener in libsoup 3.2 */
  listeners = soup_server_get_listeners (web->server);
  for (GSList *l = listeners; l != NULL; l = l->next)
    {
      g_autoptr(GSocketAddress) address = g_socket_get_local_address (l->data, NULL);
      GInetSocketAddress *inet = G_INET_SOCKET_ADDRESS (address);

      if (g_inet_address_get_family (g_inet_socket_address_get_address (inet)) ==
          G_SOCKET_FAMILY_IPV4)
        web->port = g_inet_socket_address_get_port (inet);
      else
        web->has_ipv6 = TRUE;
    }
  g_slist_free (listeners);
  g_assert_cmpuint (web->port, !=, 0);
  web->base = g_strdup_printf ("http://127.0.0.1:%u", web->port);

  return web;
}

static void
web_free (Web *web)
{
  for (guint i = 0; i < web->paused->len; i++)
    soup_server_message_unpause (web->paused->pdata[i]);
  g_ptr_array_unref (web->paused);
  soup_server_disconnect (web->server);
  g_object_unref (web->server);
  g_free (web->base);
  g_free (web->pdf);
  g_free (web);
}

/* Runs @tool on {"url": @url}; returns its result and whether it is an error. */
static char *
fetch_with (AgentTool    *tool,
            const char   *url,
            GCancellable *cancellable,
            gboolean     *is_error)
{
  g_autofree char *arguments = g_strdup_printf ("{\"url\": \"%s\"}", url);

  return agent_test_invoke_tool (tool, arguments, cancellable, is_error);
}

static AgentTool *
allowing_tool (const char * const *hosts,
               guint               timeout,
               guint64             max_bytes)
{
  g_autoptr(GError) error = NULL;
  AgentTool *tool = agent_fetch_url_tool_new_full (hosts, timeout, max_bytes, &error);

  g_assert_no_error (error);
  return tool;
}

static const char * const loopback[] = { "127.0.0.1", NULL };

static char *
fetch_ok (Web        *web,
          const char *path)
{
  g_autoptr(AgentTool) tool = allowing_tool (loopback, 0, 0);
  g_autofree char *url = g_strconcat (web->base, path, NULL);
  gboolean is_error = TRUE;
  char *result = fetch_with (tool, url, NULL, &is_error);

  if (is_error)
    g_error ("fetch_url %s failed: %s", url, result);
  return result;
}

static char *
fetch_error (AgentTool  *tool,
             const char *url)
{
  gboolean is_error = FALSE;
  char *result = fetch_with (tool, url, NULL, &is_error);

  if (!is_error)
    g_error ("fetch_url %s should have failed, but returned: %s", url, result);
  return result;
}

static void
assert_lacks (const char *haystack,
              const char *needle)
{
  if (strstr (haystack, needle) != NULL)
    g_error ("“%s” should not contain “%s”", haystack, needle);
}

static void
test_html (void)
{
  Web *web = web_new ();
  g_autofree char *result = fetch_ok (web, "/page.html");
  g_autofree char *link = g_strdup_printf ("[relative link](%s/other?x=1)", web->base);
  g_autofree char *first_line = g_strdup_printf ("URL: %s/page.html\n", web->base);

  g_assert_true (g_str_has_prefix (result, first_line));
  agent_test_assert_contains (result, "Title: The Page & Co\n");
  agent_test_assert_contains (result, "# Heading One\n\nFish & chips cost €5 — *cheap*.\n\n"
                                      "## Second\n\n- first item\n- second ");
  agent_test_assert_contains (result, link);
  agent_test_assert_contains (result, "1. one\n2. two");
  agent_test_assert_contains (result, "```\nint main (void)\n{\n  return 0;\n}\n```");
  agent_test_assert_contains (result, "Inline `g_free ()` call.");
  /* <main> only, without what a reader does not see or need */
  for (const char * const *word = (const char * const[]) { "SCRIPT", "color: red",
                                                            "NAVIGATION", "NOSCRIPT", "FORM",
                                                            "ASIDE", "FOOTER",
                                                            "Outside the main", NULL };
       *word != NULL; word++)
    assert_lacks (result, *word);

  web_free (web);
}

static void
test_charsets (void)
{
  Web *web = web_new ();
  g_autofree char *header = fetch_ok (web, "/latin1.html");
  g_autofree char *meta = fetch_ok (web, "/meta.html");

  agent_test_assert_contains (header, "Café crème");
  agent_test_assert_contains (meta, "été");

  web_free (web);
}

static void
test_text_types (void)
{
  Web *web = web_new ();
  g_autofree char *text = fetch_ok (web, "/text");
  g_autofree char *json = fetch_ok (web, "/json");
  g_autoptr(AgentTool) tool = allowing_tool (loopback, 0, 0);
  g_autofree char *image_url = g_strconcat (web->base, "/image", NULL);
  g_autofree char *image = fetch_error (tool, image_url);
  g_autofree char *missing_url = g_strconcat (web->base, "/missing", NULL);
  g_autofree char *missing = fetch_error (tool, missing_url);

  agent_test_assert_contains (text, "\n\nJust some  plain\ttext.\n");
  agent_test_assert_contains (json, "{\"answer\": 42}");
  agent_test_assert_contains (image, image_url);
  agent_test_assert_contains (image, "“image/png”");
  agent_test_assert_contains (missing, missing_url);
  agent_test_assert_contains (missing, "404");

  web_free (web);
}

static void
test_pdf (void)
{
  Web *web = web_new ();
  g_autoptr(AgentTool) tool = allowing_tool (loopback, 0, 0);
  g_autofree char *url = g_strconcat (web->base, "/pdf", NULL);
  gboolean is_error = TRUE;
  g_autofree char *result = fetch_with (tool, url, NULL, &is_error);

#ifdef HAVE_POPPLER
  g_assert_false (is_error);
  agent_test_assert_contains (result, "Portable words inside");
#else
  g_assert_true (is_error);
  agent_test_assert_contains (result, url);
  agent_test_assert_contains (result, "without PDF support");
#endif

  web_free (web);
}

static void
test_redirects (void)
{
  Web *web = web_new ();
  g_autoptr(AgentTool) tool = allowing_tool (loopback, 0, 0);
  g_autofree char *followed = fetch_ok (web, "/redirect");
  g_autofree char *ftp_url = g_strconcat (web->base, "/redirect-ftp", NULL);
  g_autofree char *ftp = fetch_error (tool, ftp_url);
  g_autofree char *loop_url = g_strconcat (web->base, "/redirect-loop", NULL);
  g_autofree char *loop = NULL;
  g_autofree char *final_url = g_strdup_printf ("URL: %s/text\n", web->base);
  guint before;

  g_assert_true (g_str_has_prefix (followed, final_url));
  agent_test_assert_contains (followed, "Just some");
  agent_test_assert_contains (ftp, "ftp://example.org/file");
  agent_test_assert_contains (ftp, "only http and https");

  before = web->n_requests;
  loop = fetch_error (tool, loop_url);
  agent_test_assert_contains (loop, "more than 5 redirects");
  g_assert_cmpuint (web->n_requests - before, ==, 6);

  web_free (web);
}

/* Only "localhost" is allowed: its redirect to 127.0.0.1 is refused
 * before the request is sent. */
static void
test_redirect_to_private (void)
{
  Web *web = web_new ();
  const char * const hosts[] = { "LocalHost", NULL };
  g_autoptr(AgentTool) tool = allowing_tool (hosts, 0, 0);
  g_autofree char *url = g_strdup_printf ("http://localhost:%u/redirect-local", web->port);
  g_autofree char *result = fetch_error (tool, url);
  g_autofree char *target = g_strdup_printf ("%s/text", web->base);

  agent_test_assert_contains (result, "Refused to fetch");
  agent_test_assert_contains (result, target);
  agent_test_assert_contains (result, "127.0.0.1 is on this computer");
  g_assert_cmpuint (web->n_requests, ==, 1);

  web_free (web);
}

static void
test_private_refused (void)
{
  Web *web = web_new ();
  g_autoptr(AgentTool) tool = agent_builtin_tool_new ("fetch_url", NULL);
  g_autofree char *literal = g_strconcat (web->base, "/text", NULL);
  g_autofree char *name = g_strdup_printf ("http://user:hunter2@localhost:%u/text", web->port);
  g_autofree char *v6 = g_strdup_printf ("http://[::1]:%u/text", web->port);
  g_autofree char *mapped = g_strdup_printf ("http://[::ffff:127.0.0.1]:%u/text", web->port);
  g_autofree char *result = NULL;

  g_assert_true (agent_tool_get_requires_approval (tool));

  result = fetch_error (tool, literal);
  agent_test_assert_contains (result, "Refused to fetch");
  agent_test_assert_contains (result, literal);
  g_clear_pointer (&result, g_free);

  /* a name that resolves to loopback; the password is never shown */
  result = fetch_error (tool, name);
  agent_test_assert_contains (result, "Refused to fetch");
  agent_test_assert_contains (result, "localhost");
  assert_lacks (result, "hunter2");
  g_clear_pointer (&result, g_free);

  if (web->has_ipv6)
    {
      result = fetch_error (tool, v6);
      agent_test_assert_contains (result, "Refused to fetch");
      agent_test_assert_contains (result, "::1");
      g_clear_pointer (&result, g_free);

      result = fetch_error (tool, mapped);
      agent_test_assert_contains (result, "Refused to fetch");
      g_clear_pointer (&result, g_free);
    }

  g_assert_cmpuint (web->n_requests, ==, 0);

  web_free (web);
}

static void
test_bad_arguments (void)
{
  g_autoptr(AgentTool) tool = agent_fetch_url_tool_new ();
  g_autoptr(GError) error = NULL;
  const char * const bad_hosts[] = { "10.0.0.0/99", NULL };
  const char * const spaced[] = { "not a host", NULL };
  g_autofree char *file = fetch_error (tool, "file:///etc/passwd");
  g_autofree char *nothing = fetch_error (tool, "https://");
  AgentTool *failed;

  agent_test_assert_contains (file, "“file:///etc/passwd” is not an http or https URL");
  agent_test_assert_contains (nothing, "is not an http or https URL");

  failed = agent_fetch_url_tool_new_full (bad_hosts, 0, 0, &error);
  g_assert_null (failed);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  agent_test_assert_contains (error->message, "“10.0.0.0/99”");
  g_clear_error (&error);

  failed = agent_fetch_url_tool_new_full (spaced, 0, 0, &error);
  g_assert_null (failed);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
}

/* A page much larger than the limit is cut, and read no further */
static void
test_huge (void)
{
  Web *web = web_new ();
  g_autoptr(AgentTool) tool = allowing_tool (loopback, 0, 1024 * 1024);
  g_autofree char *url = g_strconcat (web->base, "/huge", NULL);
  gboolean is_error = TRUE;
  g_autofree char *result = fetch_with (tool, url, NULL, &is_error);

  g_assert_false (is_error);
  agent_test_assert_contains (result, "[The text was cut here: ");
  agent_test_assert_contains (result, "of its 1048576 bytes are shown.]");
  agent_test_assert_contains (result, "[The page is larger than 1048576 bytes");
  g_assert_cmpuint (strlen (result), <, 64 * 1024);
  g_assert_cmpuint (web->huge_written, <, HUGE_BYTES);

  web_free (web);
}

static gboolean
has_paused (gpointer data)
{
  Web *web = data;

  return web->paused->len > 0;
}

static void
test_slow (void)
{
  Web *web = web_new ();
  g_autoptr(AgentTool) tool = allowing_tool (loopback, 1, 0);
  g_autofree char *url = g_strconcat (web->base, "/slow", NULL);
  g_autofree char *result = fetch_error (tool, url);

  agent_test_assert_contains (result, "Fetching ");
  agent_test_assert_contains (result, url);
  agent_test_assert_contains (result, "timed out after 1 s");

  web_free (web);
}

static gboolean
invocation_completed (gpointer data)
{
  return agent_tool_invocation_is_completed (data);
}

static void
cancel_when_paused (Web          *web,
                    GCancellable *cancellable)
{
  agent_test_wait_until (has_paused, web);
  g_cancellable_cancel (cancellable);
}

static void
test_cancel (void)
{
  Web *web = web_new ();
  g_autoptr(AgentTool) tool = allowing_tool (loopback, 0, 0);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autofree char *url = g_strconcat (web->base, "/slow", NULL);
  g_autofree char *arguments = g_strdup_printf ("{\"url\": \"%s\"}", url);
  g_autoptr(AgentToolCall) call = agent_tool_call_new ("call_c", "fetch_url", arguments);
  g_autoptr(AgentToolInvocation) invocation = agent_tool_invocation_new (tool, call, cancellable);
  g_autofree char *result = NULL;
  gboolean is_error = FALSE;

  agent_tool_invoke (tool, invocation);
  cancel_when_paused (web, cancellable);
  agent_test_wait_until (invocation_completed, invocation);
  result = agent_tool_invocation_dup_result (invocation, &is_error);
  g_assert_true (is_error);

  web_free (web);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/fetch-url/html", test_html);
  g_test_add_func ("/fetch-url/charsets", test_charsets);
  g_test_add_func ("/fetch-url/text-types", test_text_types);
  g_test_add_func ("/fetch-url/pdf", test_pdf);
  g_test_add_func ("/fetch-url/redirects", test_redirects);
  g_test_add_func ("/fetch-url/redirect-to-private", test_redirect_to_private);
  g_test_add_func ("/fetch-url/private-refused", test_private_refused);
  g_test_add_func ("/fetch-url/bad-arguments", test_bad_arguments);
  g_test_add_func ("/fetch-url/huge", test_huge);
  g_test_add_func ("/fetch-url/slow", test_slow);
  g_test_add_func ("/fetch-url/cancel", test_cancel);

  return g_test_run ();
}
