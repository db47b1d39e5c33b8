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

#include "agent-test-sse.h"
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

typedef enum
{
  WRITE_LARGE,
  WRITE_EVENTS,
  WRITE_LATENCY,
} WriteMode;

typedef struct
{
  Server      *server;
  char        *tag;
  BenchCpu     cpu;
  guint64      bytes;       /* of SSE, chunk framing not counted */
  AgentTestSseWriter *writer;  /* on the connection stolen from the SoupServer */
  WriteMode    mode;
  BenchStream *stream;      /* owned by the server */
  gsize        offset;      /* WRITE_LARGE: next byte to send */
  guint        next_event;  /* WRITE_EVENTS: next event to send */
  guint        queued : 1;  /* a chunk handed to the writer, not yet written */
  guint        body_done : 1;
  /* WRITE_LATENCY */
  guint        timer_id;
  guint        n_left;
  guint        n_sent;
  gint64       stamp;       /* of the chunk being written, or 0 */
  GArray      *write_delays; /* double, µs */
} Response;

static void
response_free (Response *response)
{
  g_clear_handle_id (&response->timer_id, g_source_remove);
  if (response->writer != NULL)
    {
      GIOStream *connection = g_object_ref (agent_test_sse_writer_get_stream (response->writer));

      g_clear_pointer (&response->writer, agent_test_sse_writer_free);
      g_io_stream_close (connection, NULL, NULL);
      g_object_unref (connection);
    }
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
finish_response (Response     *response,
                 const GError *error)
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

  if (error != NULL)
    g_string_append_printf (line, " error=%s", error->message);

  printf ("%s\n", line->str);
  fflush (stdout);

  g_ptr_array_remove (response->server->responses, response);
}

/* Hands the writer one HTTP chunk holding @len bytes of SSE */
static void
add_chunk (Response   *response,
           const char *data,
           gsize       len)
{
  response->queued = TRUE;
  agent_test_sse_writer_add_chunk (response->writer, data, len);
  response->bytes += len;
}

/* Hands the writer the next chunk; FALSE if there is none yet */
static gboolean
fill (Response *response)
{
  gsize size;
  const char *data;

  if (response->mode == WRITE_LATENCY || response->body_done)
    return FALSE;  /* the timer fills */

  data = g_bytes_get_data (response->stream->bytes, &size);

  if (response->mode == WRITE_LARGE && response->offset < size)
    {
      gsize len = MIN (BENCH_LARGE_WRITE, size - response->offset);

      add_chunk (response, data + response->offset, len);
      response->offset += len;
    }
  else if (response->mode == WRITE_EVENTS && response->next_event < response->stream->ends->len)
    {
      GArray *ends = response->stream->ends;
      gsize start = response->next_event > 0 ? g_array_index (ends, gsize, response->next_event - 1) : 0;
      gsize end = g_array_index (ends, gsize, response->next_event);

      add_chunk (response, data + start, end - start);
      response->next_event++;
    }
  else
    {
      response->body_done = TRUE;
      agent_test_sse_writer_end (response->writer, AGENT_TEST_SSE_END);
    }

  return TRUE;
}

/* A chunk is written (handed to the kernel, in one send()): the next one
 * is made only now, so that the body is never all in memory twice */
static void
written_cb (AgentTestSseWriter *writer,
            gpointer            data)
{
  Response *response = data;

  response->queued = FALSE;
  if (response->stamp != 0)
    {
      double delay = (bench_monotonic_ns () - response->stamp) / 1e3;

      g_array_append_val (response->write_delays, delay);
      response->stamp = 0;
    }
  fill (response);
}

static void
done_cb (AgentTestSseWriter *writer,
         gboolean            complete,
         const GError       *error,
         gpointer            data)
{
  finish_response (data, complete ? NULL : error);
}

/* Latency mode: one content event every BENCH_LATENCY_PAUSE_MS, the
 * connection idle in between. The stamp is taken just before the send(). */
static gboolean
latency_tick_cb (gpointer data)
{
  Response *response = data;
  g_autoptr(GString) event = g_string_new (NULL);
  char text[64];

  if (response->queued)
    return G_SOURCE_CONTINUE;  /* the last chunk is still being written */

  if (response->n_left == 0)
    {
      response->timer_id = 0;
      bench_format_finish_event (event, "stop");
      bench_format_usage_event (event, response->n_sent, 0);
      bench_format_done_event (event);
      add_chunk (response, event->str, event->len);
      response->body_done = TRUE;
      agent_test_sse_writer_end (response->writer, AGENT_TEST_SSE_END);
      return G_SOURCE_REMOVE;
    }

  response->n_left--;
  response->n_sent++;
  response->stamp = bench_monotonic_ns ();
  g_snprintf (text, sizeof text, " @%" G_GINT64_FORMAT, response->stamp);
  bench_format_content_event (event, text);
  add_chunk (response, event->str, event->len);

  return G_SOURCE_CONTINUE;
}

static gboolean
carries_tool_results (SoupServerMessage *message)
{
  SoupMessageBody *request_body = soup_server_message_get_request_body (message);
  g_autoptr(GBytes) bytes = soup_message_body_flatten (request_body);
  gsize len;
  const char *data = g_bytes_get_data (bytes, &len);
  static const char needle[] = "\"role\":\"tool\"";

  return data != NULL && g_strstr_len (data, len, needle) != NULL;
}

/* The request is read; from here on the connection is ours. */
static void
server_cb (SoupServer        *soup_server,
           SoupServerMessage *message,
           const char        *path,
           GHashTable        *query,
           gpointer           user_data)
{
  Server *self = user_data;
  g_auto(GStrv) parts = g_strsplit (path[0] == '/' ? path + 1 : path, "/", 0);
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
  response->tag = g_strdup (parts[3]);
  bench_cpu_now (&response->cpu);

  if (g_strcmp0 (parts[1], "latency") == 0)
    response->mode = WRITE_LATENCY;
  else if (g_strcmp0 (parts[1], "event") == 0)
    response->mode = WRITE_EVENTS;
  else
    response->mode = WRITE_LARGE;

  if (workload == BENCH_WORKLOAD_TOOLS && carries_tool_results (message))
    {
      response->stream = lookup_stream (self, BENCH_WORKLOAD_SHORT, 5);
      response->mode = WRITE_LARGE;
    }
  else if (response->mode != WRITE_LATENCY)
    {
      response->stream = lookup_stream (self, workload, size);
    }

  /* Like production servers: each write leaves at once. */
  g_socket_set_option (soup_server_message_get_socket (message), IPPROTO_TCP, TCP_NODELAY, 1,
                       NULL);
  {
    g_autoptr(GIOStream) connection = soup_server_message_steal_connection (message);

    response->writer = agent_test_sse_writer_new (connection);
  }
  agent_test_sse_writer_set_callbacks (response->writer, written_cb, done_cb, response);
  g_ptr_array_add (self->responses, response);
  agent_test_sse_writer_add_head (response->writer, 200, NULL, "text/event-stream", NULL, TRUE);

  if (response->mode == WRITE_LATENCY)
    {
      g_autoptr(GString) event = g_string_new (NULL);

      response->n_left = size;
      response->write_delays = g_array_new (FALSE, FALSE, sizeof (double));
      bench_format_role_event (event);
      add_chunk (response, event->str, event->len);
      response->timer_id = g_timeout_add (BENCH_LATENCY_PAUSE_MS, latency_tick_cb, response);
    }
  else
    {
      fill (response);
    }

  agent_test_sse_writer_start (response->writer);
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
