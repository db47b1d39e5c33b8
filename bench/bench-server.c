/* bench-server.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib-unix.h>
#include <libsoup/soup.h>

#include "bench-server.h"
#include "bench-util.h"
#include "bench-workload.h"

typedef struct
{
  SoupServer *server;
  GMainLoop  *loop;
  GHashTable *streams;    /* "workload/size" → BenchStream */
  GPtrArray  *responses;  /* Response, while being written */
  guint       stdin_id;
} Server;

typedef struct
{
  Server            *server;
  SoupServerMessage *message;
  char              *tag;
  BenchCpu           cpu;
  guint64            bytes;
  /* latency mode */
  guint              n_left;
  guint              source_id;
  gint64             stamp;          /* of the event being written, or 0 */
  GArray            *write_delays;   /* double, µs */
} Response;

static void
response_free (Response *response)
{
  g_clear_handle_id (&response->source_id, g_source_remove);
  g_signal_handlers_disconnect_by_data (response->message, response);
  g_clear_object (&response->message);
  g_clear_pointer (&response->write_delays, g_array_unref);
  g_free (response->tag);
  g_free (response);
}

static BenchStream *
lookup_stream (Server        *self,
               BenchWorkload  workload,
               guint          size)
{
  g_autofree char *key = g_strdup_printf ("%s/%u", bench_workload_to_string (workload), size);
  BenchStream *stream = g_hash_table_lookup (self->streams, key);

  if (stream == NULL)
    {
      stream = bench_stream_new (workload, size);
      g_hash_table_insert (self->streams, g_steal_pointer (&key), stream);
    }

  return stream;
}

static void
finished_cb (SoupServerMessage *message,
             Response          *response)
{
  g_autoptr(GString) line = g_string_new ("served ");

  g_string_append_printf (line, "%s cpu=%.6f bytes=%" G_GUINT64_FORMAT,
                          response->tag, bench_cpu_since (&response->cpu, NULL, NULL),
                          response->bytes);

  if (response->write_delays != NULL && response->write_delays->len > 0)
    {
      const double *delays = (const double *) (gpointer) response->write_delays->data;
      guint n = response->write_delays->len;

      g_string_append_printf (line, " write_median_us=%.1f write_max_us=%.1f",
                              bench_median (delays, n), bench_max (delays, n));
    }

  printf ("%s\n", line->str);
  fflush (stdout);

  g_ptr_array_remove (response->server->responses, response);
}

static void
append (Response *response,
        GBytes   *bytes)
{
  SoupMessageBody *body = soup_server_message_get_response_body (response->message);

  response->bytes += g_bytes_get_size (bytes);
  soup_message_body_append_bytes (body, bytes);
}

static void
append_string (Response *response,
               GString  *string)
{
  g_autoptr(GBytes) bytes = g_bytes_new (string->str, string->len);

  append (response, bytes);
}

static void
write_slices (Response    *response,
              BenchStream *stream,
              gboolean     per_event)
{
  gsize size = g_bytes_get_size (stream->bytes);
  gsize start = 0;

  if (per_event)
    {
      for (guint i = 0; i < stream->ends->len; i++)
        {
          gsize end = g_array_index (stream->ends, gsize, i);
          g_autoptr(GBytes) slice = g_bytes_new_from_bytes (stream->bytes, start, end - start);

          append (response, slice);
          start = end;
        }
    }
  else
    {
      for (; start < size; start += BENCH_LARGE_WRITE)
        {
          g_autoptr(GBytes) slice = NULL;

          slice = g_bytes_new_from_bytes (stream->bytes, start, MIN (BENCH_LARGE_WRITE, size - start));
          append (response, slice);
        }
    }
}

/* Latency mode: one content event every BENCH_LATENCY_PAUSE_MS, the body
 * idle in between. */

static void
wrote_chunk_cb (SoupServerMessage *message,
                Response          *response)
{
  if (response->stamp != 0)
    {
      double delay = (bench_monotonic_ns () - response->stamp) / 1e3;

      g_array_append_val (response->write_delays, delay);
      response->stamp = 0;
    }
}

static gboolean
latency_tick_cb (gpointer data)
{
  Response *response = data;
  g_autoptr(GString) event = g_string_new (NULL);
  SoupMessageBody *body = soup_server_message_get_response_body (response->message);
  char text[64];

  if (response->n_left == 0)
    {
      response->source_id = 0;
      bench_format_finish_event (event, "stop");
      bench_format_usage_event (event, response->write_delays->len, 0);
      bench_format_done_event (event);
      append_string (response, event);
      soup_message_body_complete (body);
      soup_server_message_unpause (response->message);
      return G_SOURCE_REMOVE;
    }

  response->n_left--;
  response->stamp = bench_monotonic_ns ();
  g_snprintf (text, sizeof text, " @%" G_GINT64_FORMAT, response->stamp);
  bench_format_content_event (event, text);
  append_string (response, event);
  soup_server_message_unpause (response->message);

  return G_SOURCE_CONTINUE;
}

static void
start_latency (Response *response,
               guint     n_events)
{
  g_autoptr(GString) event = g_string_new (NULL);

  response->n_left = n_events;
  response->write_delays = g_array_new (FALSE, FALSE, sizeof (double));
  g_signal_connect (response->message, "wrote-chunk", G_CALLBACK (wrote_chunk_cb), response);

  bench_format_role_event (event);
  append_string (response, event);
  response->source_id = g_timeout_add (BENCH_LATENCY_PAUSE_MS, latency_tick_cb, response);
}

static gboolean
carries_tool_results (SoupServerMessage *message)
{
  SoupMessageBody *request_body = soup_server_message_get_request_body (message);
  g_autoptr(GBytes) bytes = soup_message_body_flatten (request_body);
  gsize len;
  const char *data = g_bytes_get_data (bytes, &len);
  static const char needle[] = "\"role\":\"tool\"";

  return data != NULL && memmem (data, len, needle, sizeof needle - 1) != NULL;
}

static void
set_nodelay (SoupServerMessage *message)
{
  GSocket *socket = soup_server_message_get_socket (message);

  /* Like production servers: each write leaves at once. */
  if (socket != NULL)
    g_socket_set_option (socket, IPPROTO_TCP, TCP_NODELAY, 1, NULL);
}

static void
server_cb (SoupServer        *soup_server,
           SoupServerMessage *message,
           const char        *path,
           GHashTable        *query,
           gpointer           user_data)
{
  Server *self = user_data;
  g_auto(GStrv) parts = g_strsplit (path[0] == '/' ? path + 1 : path, "/", 0);
  SoupMessageHeaders *headers;
  BenchWorkload workload;
  Response *response;
  guint64 size;

  if (g_strv_length (parts) < 4 ||
      !bench_workload_from_string (parts[0], &workload) ||
      !g_ascii_string_to_unsigned (parts[2], 10, 1, G_MAXUINT, &size, NULL) ||
      (g_strcmp0 (parts[1], "large") != 0 && g_strcmp0 (parts[1], "event") != 0 &&
       g_strcmp0 (parts[1], "latency") != 0))
    {
      soup_server_message_set_status (message, SOUP_STATUS_NOT_FOUND, NULL);
      return;
    }

  response = g_new0 (Response, 1);
  response->server = self;
  response->message = g_object_ref (message);
  response->tag = g_strdup (parts[3]);
  bench_cpu_now (&response->cpu);
  g_ptr_array_add (self->responses, response);
  g_signal_connect (message, "finished", G_CALLBACK (finished_cb), response);

  set_nodelay (message);
  soup_server_message_set_status (message, SOUP_STATUS_OK, NULL);
  headers = soup_server_message_get_response_headers (message);
  soup_message_headers_set_encoding (headers, SOUP_ENCODING_CHUNKED);
  soup_message_headers_set_content_type (headers, "text/event-stream", NULL);
  soup_message_headers_replace (headers, "Cache-Control", "no-cache");
  /* Written chunks are dropped: the body is not kept whole. */
  soup_message_body_set_accumulate (soup_server_message_get_response_body (message), FALSE);

  if (g_strcmp0 (parts[1], "latency") == 0)
    {
      start_latency (response, size);
      return;
    }

  if (workload == BENCH_WORKLOAD_TOOLS && carries_tool_results (message))
    write_slices (response, lookup_stream (self, BENCH_WORKLOAD_SHORT, 5), FALSE);
  else
    write_slices (response, lookup_stream (self, workload, size), g_strcmp0 (parts[1], "event") == 0);

  soup_message_body_complete (soup_server_message_get_response_body (message));
}

static gboolean
stdin_cb (int          fd,
          GIOCondition condition,
          gpointer     user_data)
{
  Server *self = user_data;
  char buffer[256];
  gssize n;

  do
    n = read (fd, buffer, sizeof buffer);
  while (n < 0 && errno == EINTR);

  if (n > 0)
    return G_SOURCE_CONTINUE;

  self->stdin_id = 0;
  g_main_loop_quit (self->loop);
  return G_SOURCE_REMOVE;
}

int
bench_server_main (void)
{
  g_autoptr(GError) error = NULL;
  Server self = { 0 };
  GSList *uris;

  self.server = soup_server_new (NULL, NULL);
  self.loop = g_main_loop_new (NULL, FALSE);
  self.streams = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                        (GDestroyNotify) bench_stream_free);
  self.responses = g_ptr_array_new_with_free_func ((GDestroyNotify) response_free);

  soup_server_add_handler (self.server, NULL, server_cb, &self, NULL);
  if (!soup_server_listen_local (self.server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error))
    {
      g_printerr ("bench-server: cannot listen on 127.0.0.1: %s\n", error->message);
      return 1;
    }

  uris = soup_server_get_uris (self.server);
  printf ("port %d\n", g_uri_get_port (uris->data));
  fflush (stdout);
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);

  self.stdin_id = g_unix_fd_add (STDIN_FILENO, G_IO_IN | G_IO_HUP | G_IO_ERR, stdin_cb, &self);
  g_main_loop_run (self.loop);
  g_clear_handle_id (&self.stdin_id, g_source_remove);

  soup_server_disconnect (self.server);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_ptr_array_unref (self.responses);
  g_clear_object (&self.server);
  g_hash_table_unref (self.streams);
  g_main_loop_unref (self.loop);

  return 0;
}
