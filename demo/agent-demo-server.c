/* agent-demo-server.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The demo model server: a small, deterministic stand-in for an OpenAI-compatible
 * chat-completions server, so that libagent can be tried without a real model.
 * It listens on 127.0.0.1 only, streams its answers as Server-Sent Events with a
 * pause between chunks, and calls a `calculator` tool when asked arithmetic.
 *
 * The model's replies and the API's error messages are protocol data, as they are for
 * any model server: they stay in English whatever the locale, so that clients and tests
 * can rely on them. Only the program's own messages on the terminal are translatable.
 *
 * This file is the HTTP side: listening, routing, request limits, logging, and main().
 * The rest is split by purpose: agent-demo-request.c reads and validates a request,
 * agent-demo-model.c decides what to answer, agent-demo-response.c shapes the answer as
 * the API sends it, and agent-demo-stream.c writes a streamed answer chunk by chunk.
 */

#include "config.h"

#include <errno.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib-unix.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#include "agent-demo-model.h"
#include "agent-demo-request.h"
#include "agent-demo-response.h"
#include "agent-demo-stream.h"
#include "agent-demo-util.h"

#define MAX_REQUEST_BODY (8 * 1024 * 1024)

typedef struct
{
  GMainLoop *loop;
  guint      delay_ms;
  gboolean   quiet;
  DemoModel  model;
  guint      sigint_id;
  guint      sigterm_id;
  guint      stdin_watch;
} DemoServer;

/* Per-request bookkeeping, attached to each SoupServerMessage. */
typedef struct
{
  gint64  started;
  gsize   received;
  char   *summary;
} RequestInfo;

static void
request_info_free (RequestInfo *info)
{
  g_free (info->summary);
  g_free (info);
}

static RequestInfo *
request_info_get (SoupServerMessage *msg)
{
  return g_object_get_data (G_OBJECT (msg), "demo-request-info");
}

static void
request_info_set_summary (SoupServerMessage *msg,
                          const char        *summary)
{
  RequestInfo *info = request_info_get (msg);

  if (info != NULL)
    {
      g_free (info->summary);
      info->summary = g_strdup (summary);
    }
}

/* Replies */

static void
reply_json (SoupServerMessage *msg,
            guint              status,
            JsonObject        *object)
{
  char *body = demo_json_object_to_string (object);

  soup_server_message_set_status (msg, status, NULL);
  soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_TAKE,
                                    body, strlen (body));
}

static void
reply_error (SoupServerMessage *msg,
             guint              status,
             const char        *message,
             const char        *param,
             const char        *code)
{
  g_autoptr(JsonObject) root = json_object_new ();
  JsonObject *error = json_object_new ();

  json_object_set_string_member (error, "message", message);
  json_object_set_string_member (error, "type", "invalid_request_error");
  demo_json_set_string_or_null (error, "param", param);
  demo_json_set_string_or_null (error, "code", code);
  json_object_set_object_member (root, "error", error);

  reply_json (msg, status, root);
  request_info_set_summary (msg, message);
}

static void
reply_api_error (SoupServerMessage  *msg,
                 const DemoApiError *error)
{
  reply_error (msg, error->status, error->message, error->param, error->code);
}

/* Endpoints */

static void
handle_chat_completions (DemoServer        *self,
                         SoupServerMessage *msg)
{
  g_auto(DemoRequest) request = { 0 };
  g_auto(DemoReply) reply = { 0 };
  g_autoptr(DemoApiError) error = NULL;
  g_autoptr(GBytes) body = NULL;
  g_autofree char *summary = NULL;

  body = soup_message_body_flatten (soup_server_message_get_request_body (msg));
  if ((error = demo_request_parse (body, &request)))
    {
      reply_api_error (msg, error);
      return;
    }

  demo_model_answer (&self->model, &request, &reply);

  if (reply.calls != NULL)
    summary = g_strdup_printf ("%s, %u tool call%s", request.stream ? "stream" : "json",
                               reply.calls->len, reply.calls->len == 1 ? "" : "s");
  else
    summary = g_strdup_printf ("%s, %s", request.stream ? "stream" : "json",
                               request.tool_results->len > 0 ? "answer to tool results"
                                                             : "text");
  request_info_set_summary (msg, summary);

  if (request.stream)
    {
      demo_stream_start (msg, demo_response_build_events (&reply), self->delay_ms);
    }
  else
    {
      g_autoptr(JsonObject) completion = demo_response_build_completion (&reply);

      reply_json (msg, SOUP_STATUS_OK, completion);
    }
}

static void
handle_models (SoupServerMessage *msg,
               gboolean           single)
{
#define MODEL_JSON "{\"id\":\"" DEMO_MODEL "\",\"object\":\"model\",\"owned_by\":\"libagent-demo\"}"
  static const char list[] = "{\"object\":\"list\",\"data\":[" MODEL_JSON "]}";
  static const char model[] = MODEL_JSON;
#undef MODEL_JSON

  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_STATIC,
                                    single ? model : list,
                                    single ? strlen (model) : strlen (list));
}

static void
demo_server_handle (SoupServer        *server,
                    SoupServerMessage *msg,
                    const char        *path,
                    GHashTable        *query,
                    gpointer           user_data)
{
  DemoServer *self = user_data;
  const char *method = soup_server_message_get_method (msg);
  const char *allowed = NULL;
  g_autofree char *message = NULL;

  /* Any Authorization header is accepted, and never looked at. */

  /* Connections accepted outside libsoup's own listeners serve one request each (see
   * demo_server_listen()); say so, and clients will not try to reuse them. */
  soup_message_headers_replace (soup_server_message_get_response_headers (msg),
                                "Connection", "close");

  if (g_str_equal (path, "/v1/chat/completions"))
    {
      if (method == SOUP_METHOD_POST)
        {
          handle_chat_completions (self, msg);
          return;
        }
      allowed = "POST";
    }
  else if (g_str_equal (path, "/v1/models") || g_str_equal (path, "/v1/models/" DEMO_MODEL))
    {
      if (method == SOUP_METHOD_GET || method == SOUP_METHOD_HEAD)
        {
          handle_models (msg, !g_str_equal (path, "/v1/models"));
          return;
        }
      allowed = "GET, HEAD";
    }

  if (allowed != NULL)
    {
      message = g_strdup_printf ("Invalid method for URL (%s %s)", method, path);
      soup_message_headers_replace (soup_server_message_get_response_headers (msg),
                                    "Allow", allowed);
      reply_error (msg, SOUP_STATUS_METHOD_NOT_ALLOWED, message, NULL, NULL);
    }
  else
    {
      message = g_strdup_printf ("Invalid URL (%s %s)", method, path);
      reply_error (msg, SOUP_STATUS_NOT_FOUND, message, NULL, NULL);
    }
}

/* Request lifecycle: body size limit and logging */

static void
reject_too_large (SoupServerMessage *msg)
{
  SoupMessageBody *body = soup_server_message_get_request_body (msg);

  if (soup_server_message_get_status (msg) != 0)
    return;

  /* Keep reading what the client sends, but stop storing it. */
  soup_message_body_set_accumulate (body, FALSE);
  soup_message_body_truncate (body);
  soup_message_headers_replace (soup_server_message_get_response_headers (msg),
                                "Connection", "close");
  reply_error (msg, SOUP_STATUS_REQUEST_ENTITY_TOO_LARGE,
               "Request body too large: the limit is 8 MiB.", NULL, "request_too_large");
}

static void
on_got_headers (SoupServerMessage *msg,
                gpointer           user_data)
{
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (msg);

  if (soup_message_headers_get_encoding (headers) == SOUP_ENCODING_CONTENT_LENGTH &&
      soup_message_headers_get_content_length (headers) > MAX_REQUEST_BODY)
    reject_too_large (msg);
}

static void
on_got_chunk (SoupServerMessage *msg,
              GBytes            *chunk,
              gpointer           user_data)
{
  RequestInfo *info = request_info_get (msg);

  if (info == NULL)
    return;

  info->received += g_bytes_get_size (chunk);
  if (info->received > MAX_REQUEST_BODY)
    reject_too_large (msg);
}

static void
on_request_started (SoupServer        *server,
                    SoupServerMessage *msg,
                    gpointer           user_data)
{
  RequestInfo *info = g_new0 (RequestInfo, 1);

  info->started = g_get_monotonic_time ();
  g_object_set_data_full (G_OBJECT (msg), "demo-request-info", info,
                          (GDestroyNotify) request_info_free);
  g_signal_connect (msg, "got-headers", G_CALLBACK (on_got_headers), NULL);
  g_signal_connect (msg, "got-chunk", G_CALLBACK (on_got_chunk), NULL);
}

static void
log_request (DemoServer        *self,
             SoupServerMessage *msg,
             gboolean           aborted)
{
  RequestInfo *info = request_info_get (msg);
  const char *method = soup_server_message_get_method (msg);
  g_autofree char *outcome = NULL;

  if (self->quiet || info == NULL || method == NULL)
    return;

  if (aborted)
    outcome = g_strdup ("client went away");
  else
    outcome = g_strdup_printf ("%u", soup_server_message_get_status (msg));

  /* Only the request line and the outcome: never headers, so never credentials. */
  g_printerr ("%s %s → %s%s%s (%" G_GINT64_FORMAT " ms)\n",
              method, g_uri_get_path (soup_server_message_get_uri (msg)), outcome,
              info->summary ? ", " : "", info->summary ? info->summary : "",
              (g_get_monotonic_time () - info->started) / 1000);
}

static void
on_request_finished (SoupServer        *server,
                     SoupServerMessage *msg,
                     gpointer           user_data)
{
  log_request (user_data, msg, FALSE);
}

static void
on_request_aborted (SoupServer        *server,
                    SoupServerMessage *msg,
                    gpointer           user_data)
{
  log_request (user_data, msg, TRUE);
}

/* Program */

static gboolean
on_incoming (GSocketService    *service,
             GSocketConnection *connection,
             GObject           *source_object,
             gpointer           user_data)
{
  SoupServer *server = user_data;
  g_autoptr(GSocketAddress) local = g_socket_connection_get_local_address (connection, NULL);
  g_autoptr(GSocketAddress) remote = g_socket_connection_get_remote_address (connection, NULL);
  g_autoptr(GError) error = NULL;

  if (!soup_server_accept_iostream (server, G_IO_STREAM (connection), local, remote, &error))
    g_printerr ("%s: %s\n", g_get_prgname (), error->message);

  return TRUE;
}

/* Listens on 127.0.0.1 and hands each connection to @server. This does what
 * soup_server_listen_local() does, without the listener of libsoup 3.2, which leaks every
 * accepted socket (never closed once a client drops an idle keep-alive connection). */
static GSocketService *
demo_server_listen (SoupServer  *server,
                    guint16      port,
                    guint16     *bound_port,
                    GError     **error)
{
  g_autoptr(GSocketService) service = g_socket_service_new ();
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, port);
  g_autoptr(GSocketAddress) effective = NULL;

  if (!g_socket_listener_add_address (G_SOCKET_LISTENER (service), address,
                                      G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP,
                                      NULL, &effective, error))
    return NULL;

  *bound_port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (effective));
  g_signal_connect_object (service, "incoming", G_CALLBACK (on_incoming), server, 0);
  g_socket_service_start (service);

  return g_steal_pointer (&service);
}

static gboolean
on_quit_signal (gpointer user_data)
{
  DemoServer *self = user_data;

  g_main_loop_quit (self->loop);
  return G_SOURCE_CONTINUE;
}

static gboolean
on_stdin_ready (int          fd,
                GIOCondition condition,
                gpointer     user_data)
{
  DemoServer *self = user_data;
  char buffer[4096];
  gssize n_read;

  do
    n_read = read (fd, buffer, sizeof buffer);
  while (n_read < 0 && errno == EINTR);

  if (n_read > 0 || (n_read < 0 && errno == EAGAIN))
    return G_SOURCE_CONTINUE;

  self->stdin_watch = 0;
  g_main_loop_quit (self->loop);
  return G_SOURCE_REMOVE;
}

static void
demo_server_remove_sources (DemoServer *self)
{
  g_clear_handle_id (&self->sigint_id, g_source_remove);
  g_clear_handle_id (&self->sigterm_id, g_source_remove);
  g_clear_handle_id (&self->stdin_watch, g_source_remove);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(SoupServer) server = NULL;
  g_autoptr(GSocketService) service = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  g_autoptr(GError) error = NULL;
  DemoServer self = { 0 };
  guint16 bound_port = 0;
  int port = 0;
  int delay_ms = 40;
  gboolean print_url = FALSE;
  gboolean exit_on_stdin_eof = FALSE;
  const GOptionEntry entries[] = {
    { "port", 'p', 0, G_OPTION_ARG_INT, &port,
      N_("Port to listen on, 0 to pick a free one"), N_("PORT") },
    { "delay-ms", 'd', 0, G_OPTION_ARG_INT, &delay_ms,
      N_("Pause between streamed chunks, in milliseconds (default 40)"), N_("MS") },
    { "print-url", 0, 0, G_OPTION_ARG_NONE, &print_url,
      N_("Print the base URL on the first line of standard output (always done)"), NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &self.quiet,
      N_("Do not log requests on standard error"), NULL },
    { "exit-on-stdin-eof", 0, 0, G_OPTION_ARG_NONE, &exit_on_stdin_eof,
      N_("Exit when standard input reaches end of file"), NULL },
    G_OPTION_ENTRY_NULL
  };

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  context = g_option_context_new (NULL);
  g_option_context_set_summary (context, _("A demo model server speaking the OpenAI "
                                           "chat-completions protocol on 127.0.0.1."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s: %s\n", g_get_prgname (), error->message);
      return EXIT_FAILURE;
    }
  if (port < 0 || port > 65535 || delay_ms < 0 || delay_ms > 60000)
    {
      g_printerr (_("%s: the port must be in 0–65535 and the delay in 0–60000 ms\n"),
                  g_get_prgname ());
      return EXIT_FAILURE;
    }

  /* A client closing its end must not kill us while we log or stream. */
  signal (SIGPIPE, SIG_IGN);

  self.delay_ms = delay_ms;
  self.loop = loop = g_main_loop_new (NULL, FALSE);

  /* Before the URL goes out, so that a script may stop us as soon as it has read it. */
  self.sigint_id = g_unix_signal_add (SIGINT, on_quit_signal, &self);
  self.sigterm_id = g_unix_signal_add (SIGTERM, on_quit_signal, &self);
  if (exit_on_stdin_eof)
    self.stdin_watch = g_unix_fd_add (STDIN_FILENO, G_IO_IN | G_IO_HUP | G_IO_ERR,
                                      on_stdin_ready, &self);

  server = soup_server_new ("server-header", "agent-demo-server", NULL);
  soup_server_add_handler (server, NULL, demo_server_handle, &self, NULL);
  g_signal_connect (server, "request-started", G_CALLBACK (on_request_started), &self);
  g_signal_connect (server, "request-finished", G_CALLBACK (on_request_finished), &self);
  g_signal_connect (server, "request-aborted", G_CALLBACK (on_request_aborted), &self);

  if (!(service = demo_server_listen (server, port, &bound_port, &error)))
    {
      g_printerr (_("%s: cannot listen on 127.0.0.1 port %d: %s\n"),
                  g_get_prgname (), port, error->message);
      demo_server_remove_sources (&self);
      return EXIT_FAILURE;
    }

  printf ("http://127.0.0.1:%u/v1\n", bound_port);
  fflush (stdout);

  if (!self.quiet)
    g_printerr (_("Demo model server listening on http://127.0.0.1:%u/v1 "
                  "(model “%s”); press Ctrl+C to stop.\n"), bound_port, DEMO_MODEL);

  g_main_loop_run (loop);

  demo_server_remove_sources (&self);

  /* Stop listening, drop the clients (which stops their streams), let the I/O settle. */
  g_socket_service_stop (service);
  g_socket_listener_close (G_SOCKET_LISTENER (service));
  g_clear_object (&service);
  soup_server_disconnect (server);
  for (guint i = 0; i < 100 && g_main_context_iteration (NULL, FALSE); i++)
    ;
  g_clear_object (&server);

  return EXIT_SUCCESS;
}
