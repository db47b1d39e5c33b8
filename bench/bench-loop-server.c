/* bench-loop-server.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <gio/gunixinputstream.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#include "bench-loop-answers.h"
#include "bench-loop-server.h"
#include "bench-util.h"
#include "bench-workload.h"

/* Connections the kernel queues before the server accepts them */
#define LISTEN_BACKLOG 128

typedef struct _Loop Loop;

/* One accepted connection */
typedef struct
{
  guint16  port;          /* the client's */
  gint64   accepted_ns;
  guint    n_requests;
} Conn;

/* When the server read a request and wrote the end of its answer */
typedef struct
{
  gint64 read_ns;
  gint64 written_ns;  /* of the last byte of the body written so far */
  guint  step;
  guint  body_done : 1; /* the end written: the last chunk, or all the Content-Length */
} Times;

/* Everything measured between "begin TAG" and "end" */
struct _Loop
{
  guint      serial;          /* what answers and handshakes in flight know it by */
  char      *tag;
  GPtrArray *conns;           /* Conn, owned */
  guint      n_requests;
  guint      n_handshakes;
  guint      n_failed_handshakes;
  guint      n_prompts;
  guint      n_answers;
  guint      n_results_ok;
  GArray    *handshake_ms;    /* double */
  GArray    *times;           /* Times, by arrival */
  GPtrArray *errors;          /* char * */
};

typedef struct
{
  SoupServer      *soup_server;
  GSocketService  *http;
  GSocketService  *https;
  GTlsCertificate *certificate;
  GMainLoop       *main_loop;
  GHashTable      *ports;     /* client port → Conn (not owned) */
  Loop            *loop;      /* the current one; never NULL */
  GPtrArray       *replies;   /* Reply, while being answered */
  GDataInputStream *input;
  GCancellable    *cancellable;
  guint            end_timeout_id;  /* "end" waits for the answers of the loop */
} Server;

typedef enum
{
  FRAMING_SSE,
  FRAMING_LENGTH,
} Framing;

/* One answer being sent */
typedef struct
{
  Server            *server;
  guint              loop_serial;
  SoupServerMessage *message;
  Framing            framing;
  GPtrArray         *events;     /* GBytes: the SSE events after the role one */
  guint              index;       /* in loop->times */
  guint              timer_id;
  guint              complete : 1;
} Reply;

static Loop *
loop_new (const char *tag)
{
  static guint serial;
  Loop *loop = g_new0 (Loop, 1);

  loop->serial = ++serial;
  loop->tag = g_strdup (tag);
  loop->conns = g_ptr_array_new_with_free_func (g_free);
  loop->handshake_ms = g_array_new (FALSE, FALSE, sizeof (double));
  loop->times = g_array_new (FALSE, TRUE, sizeof (Times));
  loop->errors = g_ptr_array_new_with_free_func (g_free);

  return loop;
}

static void
loop_free (Loop *loop)
{
  g_ptr_array_unref (loop->conns);
  g_array_unref (loop->handshake_ms);
  g_array_unref (loop->times);
  g_ptr_array_unref (loop->errors);
  g_free (loop->tag);
  g_free (loop);
}

static void
loop_add_error (Loop       *loop,
                const char *format,
                ...) G_GNUC_PRINTF (2, 3);

static void
loop_add_error (Loop       *loop,
                const char *format,
                ...)
{
  va_list args;

  /* Enough to say what went wrong; a broken client could repeat it */
  if (loop->errors->len >= 20)
    return;

  va_start (args, format);
  g_ptr_array_add (loop->errors, g_strdup_vprintf (format, args));
  va_end (args);
}

static void
add_double_array (JsonBuilder *builder,
                  const char  *name,
                  GArray      *values)
{
  json_builder_set_member_name (builder, name);
  json_builder_begin_array (builder);
  for (guint i = 0; i < values->len; i++)
    json_builder_add_double_value (builder, g_array_index (values, double, i));
  json_builder_end_array (builder);
}

static void
add_int (JsonBuilder *builder,
         const char  *name,
         gint64       value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_int_value (builder, value);
}

/* "loop {JSON}" on stdout */
static void
loop_print (Loop *loop)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GArray) server_ms = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) gaps_ms = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree char *text = NULL;
  guint n_early = 0;
  guint n_cut = 0;

  /* A prompt's requests come one after the other: each step's gap is from
   * the end of the answer before it. A client may send the next request
   * before the server has seen its last chunk leave (it had the [DONE]
   * event): that gap is 0. */
  for (guint i = 0; i < loop->times->len; i++)
    {
      const Times *times = &g_array_index (loop->times, Times, i);
      const Times *before = i > 0 ? &g_array_index (loop->times, Times, i - 1) : NULL;

      if (times->written_ns != 0)
        {
          double ms = (times->written_ns - times->read_ns) / 1e6;

          g_array_append_val (server_ms, ms);
        }
      else
        {
          loop_add_error (loop, "nothing of answer %u was written", i + 1);
        }
      n_cut += !times->body_done;

      if (times->step > 0 && before != NULL && before->written_ns != 0)
        {
          double gap = MAX (times->read_ns - before->written_ns, 0) / 1e6;

          n_early += times->read_ns < before->written_ns;
          g_array_append_val (gaps_ms, gap);
        }
    }

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "tag");
  json_builder_add_string_value (builder, loop->tag);
  add_int (builder, "requests", loop->n_requests);
  add_int (builder, "connections", loop->conns->len);
  add_int (builder, "handshakes", loop->n_handshakes);
  add_int (builder, "failed_handshakes", loop->n_failed_handshakes);
  json_builder_set_member_name (builder, "requests_per_connection");
  json_builder_begin_array (builder);
  for (guint i = 0; i < loop->conns->len; i++)
    json_builder_add_int_value (builder, ((Conn *) g_ptr_array_index (loop->conns, i))->n_requests);
  json_builder_end_array (builder);
  add_double_array (builder, "handshake_ms", loop->handshake_ms);
  add_double_array (builder, "server_ms", server_ms);
  add_double_array (builder, "gaps_ms", gaps_ms);
  add_int (builder, "early_requests", n_early);
  add_int (builder, "answers_cut", n_cut);
  add_int (builder, "prompts", loop->n_prompts);
  add_int (builder, "answers", loop->n_answers);
  add_int (builder, "results_ok", loop->n_results_ok);
  json_builder_set_member_name (builder, "errors");
  json_builder_begin_array (builder);
  for (guint i = 0; i < loop->errors->len; i++)
    json_builder_add_string_value (builder, g_ptr_array_index (loop->errors, i));
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  text = json_generator_to_data (generator, NULL);
  printf ("loop %s\n", text);
  fflush (stdout);
}

/* Connections */

static guint16
address_port (GSocketAddress *address)
{
  if (!G_IS_INET_SOCKET_ADDRESS (address))
    return 0;
  return g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (address));
}

static void
hand_over (Server         *self,
           GIOStream      *stream,
           GSocketAddress *local,
           GSocketAddress *remote)
{
  g_autoptr(GError) error = NULL;

  if (!soup_server_accept_iostream (self->soup_server, stream, local, remote, &error))
    g_printerr ("bench-loop server: cannot take a connection: %s\n", error->message);
}

typedef struct
{
  Server         *server;
  guint           loop_serial;
  gint64          accepted_ns;
  GSocketAddress *local;
  GSocketAddress *remote;
} Handshake;

static void
handshake_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  Handshake *handshake = user_data;
  g_autoptr(GError) error = NULL;
  Loop *loop = handshake->server->loop;
  gboolean done = g_tls_connection_handshake_finish (G_TLS_CONNECTION (object), result, &error);

  /* The loop may have ended meanwhile: then the numbers go nowhere. */
  if (loop->serial == handshake->loop_serial && done)
    {
      double ms = (bench_monotonic_ns () - handshake->accepted_ns) / 1e6;

      loop->n_handshakes++;
      g_array_append_val (loop->handshake_ms, ms);
    }
  else if (loop->serial == handshake->loop_serial)
    {
      loop->n_failed_handshakes++;
      loop_add_error (loop, "TLS handshake: %s", error->message);
    }

  if (error == NULL)
    hand_over (handshake->server, G_IO_STREAM (object), handshake->local, handshake->remote);
  else
    g_io_stream_close (G_IO_STREAM (object), NULL, NULL);

  g_object_unref (handshake->local);
  g_object_unref (handshake->remote);
  g_object_unref (object);
  g_free (handshake);
}

static gboolean
incoming_cb (GSocketService    *service,
             GSocketConnection *connection,
             GObject           *source_object,
             Server            *self)
{
  g_autoptr(GSocketAddress) local = g_socket_connection_get_local_address (connection, NULL);
  g_autoptr(GSocketAddress) remote = g_socket_connection_get_remote_address (connection, NULL);
  Conn *conn = g_new0 (Conn, 1);

  conn->port = address_port (remote);
  conn->accepted_ns = bench_monotonic_ns ();
  g_ptr_array_add (self->loop->conns, conn);
  g_hash_table_insert (self->ports, GUINT_TO_POINTER (conn->port), conn);

  /* Each write leaves at once, as production servers have it: libsoup
   * writes a chunk's size line, data and end separately. */
  g_socket_set_option (g_socket_connection_get_socket (connection), IPPROTO_TCP, TCP_NODELAY,
                       1, NULL);

  if (service == self->https)
    {
      g_autoptr(GError) error = NULL;
      GIOStream *tls = g_tls_server_connection_new (G_IO_STREAM (connection), self->certificate,
                                                    &error);
      Handshake *handshake;

      if (tls == NULL)
        {
          loop_add_error (self->loop, "TLS: %s", error->message);
          return TRUE;
        }

      handshake = g_new0 (Handshake, 1);
      handshake->server = self;
      handshake->loop_serial = self->loop->serial;
      handshake->accepted_ns = conn->accepted_ns;
      handshake->local = g_steal_pointer (&local);
      handshake->remote = g_steal_pointer (&remote);
      g_tls_connection_handshake_async (G_TLS_CONNECTION (tls), G_PRIORITY_DEFAULT, NULL,
                                        handshake_cb, handshake);
      return TRUE;
    }

  hand_over (self, G_IO_STREAM (connection), local, remote);
  return TRUE;
}

static GSocketService *
listen_local (Server  *self,
              guint16 *port)
{
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(GError) error = NULL;
  GSocketService *service = g_socket_service_new ();

  g_socket_listener_set_backlog (G_SOCKET_LISTENER (service), LISTEN_BACKLOG);
  if (!g_socket_listener_add_address (G_SOCKET_LISTENER (service), address,
                                      G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP,
                                      NULL, &bound, &error))
    {
      g_printerr ("bench-loop server: cannot listen on 127.0.0.1: %s\n", error->message);
      g_object_unref (service);
      return NULL;
    }

  g_signal_connect (service, "incoming", G_CALLBACK (incoming_cb), self);
  g_socket_service_start (service);
  *port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));

  return service;
}

static void
reply_free (Reply *reply)
{
  g_clear_handle_id (&reply->timer_id, g_source_remove);
  g_signal_handlers_disconnect_by_data (reply->message, reply);
  g_clear_object (&reply->message);
  g_ptr_array_unref (reply->events);
  g_free (reply);
}

static void read_command (Server *self);

static gboolean
loop_busy (Server *self)
{
  for (guint i = 0; i < self->replies->len; i++)
    if (((Reply *) g_ptr_array_index (self->replies, i))->loop_serial == self->loop->serial)
      return TRUE;
  return FALSE;
}

static void
end_loop (Server *self)
{
  g_clear_handle_id (&self->end_timeout_id, g_source_remove);
  loop_print (self->loop);
  loop_free (self->loop);
  self->loop = loop_new ("");
  g_hash_table_remove_all (self->ports);
  read_command (self);
}

static gboolean
end_timeout_cb (gpointer data)
{
  Server *self = data;

  self->end_timeout_id = 0;
  loop_add_error (self->loop, "answers still being written when the loop ended");
  end_loop (self);
  return G_SOURCE_REMOVE;
}

/* Bytes of the answer left. A client that has its [DONE] may close the
 * connection before the last chunk (the end of a chunked body) is
 * written: the step's end, for the server, is its last data. */
static void
reply_wrote_data_cb (SoupServerMessage *message,
                     guint              size,
                     Reply             *reply)
{
  Loop *loop = reply->server->loop;

  if (reply->complete && loop->serial == reply->loop_serial)
    g_array_index (loop->times, Times, reply->index).written_ns = bench_monotonic_ns ();
}

static void
reply_wrote_body_cb (SoupServerMessage *message,
                     Reply             *reply)
{
  Loop *loop = reply->server->loop;

  if (reply->complete && loop->serial == reply->loop_serial)
    g_array_index (loop->times, Times, reply->index).body_done = TRUE;
}

static void
reply_finished_cb (SoupServerMessage *message,
                   Reply             *reply)
{
  Server *self = reply->server;

  g_ptr_array_remove (self->replies, reply);

  if (self->end_timeout_id != 0 && !loop_busy (self))
    end_loop (self);
}

static gboolean
answer_cb (gpointer data)
{
  Reply *reply = data;
  SoupMessageBody *body = soup_server_message_get_response_body (reply->message);

  reply->timer_id = 0;
  reply->complete = TRUE;

  if (reply->framing == FRAMING_SSE)
    {
      for (guint i = 0; i < reply->events->len; i++)
        soup_message_body_append_bytes (body, g_ptr_array_index (reply->events, i));
      soup_message_body_complete (body);
    }
  else
    {
      g_autoptr(GString) all = g_string_new (NULL);
      gsize len;

      bench_format_role_event (all);
      for (guint i = 0; i < reply->events->len; i++)
        {
          const char *data_ = g_bytes_get_data (g_ptr_array_index (reply->events, i), &len);

          g_string_append_len (all, data_, len);
        }
      soup_server_message_set_response (reply->message, "text/event-stream", SOUP_MEMORY_COPY,
                                        all->str, all->len);
    }

  soup_server_message_unpause (reply->message);
  return G_SOURCE_REMOVE;
}

static gboolean
parse_path (const char *path,
            Framing    *framing,
            guint      *n_steps,
            guint      *step_ms)
{
  g_auto(GStrv) parts = g_strsplit (path[0] == '/' ? path + 1 : path, "/", 0);
  guint64 steps, ms;

  if (g_strv_length (parts) != 5 ||
      g_strcmp0 (parts[3], "chat") != 0 || g_strcmp0 (parts[4], "completions") != 0 ||
      !g_ascii_string_to_unsigned (parts[1], 10, 1, 100, &steps, NULL) ||
      !g_ascii_string_to_unsigned (parts[2], 10, 0, 60000, &ms, NULL))
    return FALSE;

  if (g_strcmp0 (parts[0], "sse") == 0)
    *framing = FRAMING_SSE;
  else if (g_strcmp0 (parts[0], "length") == 0)
    *framing = FRAMING_LENGTH;
  else
    return FALSE;

  *n_steps = steps;
  *step_ms = ms;
  return TRUE;
}

static void
server_cb (SoupServer        *soup_server,
           SoupServerMessage *message,
           const char        *path,
           GHashTable        *query,
           gpointer           user_data)
{
  Server *self = user_data;
  gint64 now = bench_monotonic_ns ();
  Loop *loop = self->loop;
  guint16 port = address_port (soup_server_message_get_remote_address (message));
  Conn *conn = g_hash_table_lookup (self->ports, GUINT_TO_POINTER (port));
  g_autoptr(GBytes) body = NULL;
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);
  gboolean results_ok;
  SoupMessageHeaders *headers;
  Framing framing;
  Reply *reply;
  guint n_steps, step_ms, step;

  if (conn != NULL)
    conn->n_requests++;
  loop->n_requests++;

  if (g_strcmp0 (soup_server_message_get_method (message), "POST") != 0 ||
      !parse_path (path, &framing, &n_steps, &step_ms))
    {
      loop_add_error (loop, "%s %s: not a loop URL", soup_server_message_get_method (message),
                      path);
      soup_server_message_set_status (message, SOUP_STATUS_NOT_FOUND, NULL);
      return;
    }

  body = soup_message_body_flatten (soup_server_message_get_request_body (message));
  step = bench_loop_read_request (body, n_steps, &results_ok, problems);
  for (guint i = 0; i < problems->len; i++)
    loop_add_error (loop, "%s", (const char *) g_ptr_array_index (problems, i));
  /* The newest result is this request's; the others were counted before */
  loop->n_results_ok += results_ok;
  if (step == 0)
    loop->n_prompts++;
  if (step + 1 == n_steps)
    loop->n_answers++;

  reply = g_new0 (Reply, 1);
  reply->server = self;
  reply->loop_serial = loop->serial;
  reply->message = g_object_ref (message);
  reply->framing = framing;
  reply->index = loop->times->len;
  g_array_set_size (loop->times, loop->times->len + 1);
  g_array_index (loop->times, Times, reply->index).read_ns = now;
  g_array_index (loop->times, Times, reply->index).step = step;
  reply->events = bench_loop_answer_events (step, n_steps, loop->n_requests);
  g_ptr_array_add (self->replies, reply);
  g_signal_connect (message, "wrote-body-data", G_CALLBACK (reply_wrote_data_cb), reply);
  g_signal_connect (message, "wrote-body", G_CALLBACK (reply_wrote_body_cb), reply);
  g_signal_connect (message, "finished", G_CALLBACK (reply_finished_cb), reply);
  g_signal_connect (message, "disconnected", G_CALLBACK (reply_finished_cb), reply);

  soup_server_message_set_status (message, SOUP_STATUS_OK, NULL);
  headers = soup_server_message_get_response_headers (message);
  soup_message_headers_replace (headers, "Cache-Control", "no-cache");

  if (framing == FRAMING_SSE)
    {
      g_autoptr(GString) role = g_string_new (NULL);

      soup_message_headers_set_encoding (headers, SOUP_ENCODING_CHUNKED);
      soup_message_headers_set_content_type (headers, "text/event-stream", NULL);
      bench_format_role_event (role);
      soup_message_body_append (soup_server_message_get_response_body (message),
                                SOUP_MEMORY_COPY, role->str, role->len);
    }
  else
    {
      /* Nothing until the whole answer is there */
      soup_server_message_pause (message);
    }

  reply->timer_id = g_timeout_add (step_ms, answer_cb, reply);
}

/* stdin */

static void
command_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  Server *self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = g_data_input_stream_read_line_finish (G_DATA_INPUT_STREAM (object),
                                                                result, NULL, &error);

  if (line == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_main_loop_quit (self->main_loop);
      return;
    }

  g_strstrip (line);
  if (g_str_has_prefix (line, "begin "))
    {
      loop_free (self->loop);
      self->loop = loop_new (line + strlen ("begin "));
      g_hash_table_remove_all (self->ports);
    }
  else if (g_str_equal (line, "end"))
    {
      /* The client may be gone before the server saw its last answer
       * written: wait for it (the next command is read after). */
      if (loop_busy (self))
        self->end_timeout_id = g_timeout_add_seconds (2, end_timeout_cb, self);
      else
        end_loop (self);
      return;
    }
  else if (line[0] != '\0')
    {
      g_printerr ("bench-loop server: unknown command “%s”\n", line);
    }

  read_command (self);
}

static void
read_command (Server *self)
{
  g_data_input_stream_read_line_async (self->input, G_PRIORITY_DEFAULT, self->cancellable,
                                       command_cb, self);
}

int
bench_loop_server_main (const char *certificate_file,
                        const char *key_file)
{
  g_autoptr(GInputStream) stdin_stream = NULL;
  g_autoptr(GError) error = NULL;
  Server self = { 0 };
  guint16 http_port = 0;
  guint16 https_port = 0;

  if (certificate_file != NULL &&
      !(self.certificate = g_tls_certificate_new_from_files (certificate_file, key_file, &error)))
    {
      g_printerr ("bench-loop server: %s\n", error->message);
      return 1;
    }

  self.soup_server = soup_server_new (NULL, NULL);
  self.main_loop = g_main_loop_new (NULL, FALSE);
  self.ports = g_hash_table_new (NULL, NULL);
  self.loop = loop_new ("");
  self.replies = g_ptr_array_new_with_free_func ((GDestroyNotify) reply_free);
  self.cancellable = g_cancellable_new ();
  soup_server_add_handler (self.soup_server, NULL, server_cb, &self, NULL);

  /* libsoup 3.2 keeps a connection alive after a response only while the
   * server has a listener of its own (request_finished() checks it), and
   * the connections here come through soup_server_accept_iostream(), so
   * that the server sees each one accepted and can time its handshake.
   * This listener, on a port nobody is told of, keeps the others alive. */
  if (!soup_server_listen_local (self.soup_server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error))
    {
      g_printerr ("bench-loop server: cannot listen on 127.0.0.1: %s\n", error->message);
      return 1;
    }

  if (!(self.http = listen_local (&self, &http_port)))
    return 1;
  if (self.certificate != NULL && !(self.https = listen_local (&self, &https_port)))
    return 1;

  printf ("http %u\n", http_port);
  if (self.https != NULL)
    printf ("https %u\n", https_port);
  printf ("ready\n");
  fflush (stdout);

  stdin_stream = g_unix_input_stream_new (STDIN_FILENO, FALSE);
  self.input = g_data_input_stream_new (stdin_stream);
  read_command (&self);
  g_main_loop_run (self.main_loop);

  g_cancellable_cancel (self.cancellable);
  g_clear_handle_id (&self.end_timeout_id, g_source_remove);
  g_socket_service_stop (self.http);
  g_socket_listener_close (G_SOCKET_LISTENER (self.http));
  if (self.https != NULL)
    {
      g_socket_service_stop (self.https);
      g_socket_listener_close (G_SOCKET_LISTENER (self.https));
    }
  soup_server_disconnect (self.soup_server);
  while (g_main_context_iteration (NULL, FALSE))
    ;

  g_ptr_array_unref (self.replies);
  g_clear_object (&self.input);
  g_clear_object (&self.cancellable);
  g_clear_object (&self.http);
  g_clear_object (&self.https);
  g_clear_object (&self.soup_server);
  g_clear_object (&self.certificate);
  g_hash_table_unref (self.ports);
  loop_free (self.loop);
  g_main_loop_unref (self.main_loop);

  return 0;
}
