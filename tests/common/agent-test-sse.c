/* agent-test-sse.c — see agent-test-sse.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <libsoup/soup.h>

#include "agent-test-sse.h"

/* What a cut connection gets last: a chunk's size line promising 256 bytes,
 * then 16 of them, the start of an event */
static const char cut_chunk[] = "100\r\ndata: {\"choi";

/* Framing */

/* An SSE event: its type (NULL for none, which readers take as "message")
 * and its data, one `data:` line for each line of @data */
void
agent_test_sse_append_event (GString    *out,
                             const char *type,
                             const char *data)
{
  const char *line = data;

  if (type != NULL)
    g_string_append_printf (out, "event: %s\n", type);
  for (;;)
    {
      const char *end = strchr (line, '\n');

      g_string_append_len (out, "data: ", 6);
      g_string_append_len (out, line, end != NULL ? end - line : (gssize) strlen (line));
      g_string_append_c (out, '\n');
      if (end == NULL)
        break;
      line = end + 1;
    }
  g_string_append_c (out, '\n');
}

/* OpenAI's end of a stream */
void
agent_test_sse_append_done (GString *out)
{
  g_string_append_len (out, "data: [DONE]\n\n", 14);
}

/* The status line; @reason NULL for the usual phrase of @status */
void
agent_test_http_append_status (GString    *out,
                               guint       status,
                               const char *reason)
{
  g_string_append_printf (out, "HTTP/1.1 %u %s\r\n", status,
                          reason != NULL ? reason : soup_status_get_phrase (status));
}

void
agent_test_http_append_header (GString    *out,
                               const char *name,
                               const char *value)
{
  g_string_append_printf (out, "%s: %s\r\n", name, value);
}

/* One chunk of a chunked body holding @len bytes of @data */
void
agent_test_http_append_chunk (GString    *out,
                              const char *data,
                              gsize       len)
{
  g_string_append_printf (out, "%" G_GSIZE_MODIFIER "x\r\n", len);
  g_string_append_len (out, data, len);
  g_string_append_len (out, "\r\n", 2);
}

/* The end of a chunked body */
void
agent_test_http_append_last_chunk (GString *out)
{
  g_string_append_len (out, "0\r\n\r\n", 5);
}

/* The writer */

typedef enum
{
  ITEM_BYTES,
  ITEM_DELAY,
  ITEM_WAIT,
  ITEM_END,
} ItemType;

typedef struct
{
  ItemType            type;
  GBytes             *bytes;   /* ITEM_BYTES: written in one call */
  guint               msec;    /* ITEM_DELAY */
  AgentTestSseEnding  ending;  /* ITEM_END */
  gboolean            notify;  /* ITEM_BYTES: the written callback follows */
} Item;

struct _AgentTestSseWriter
{
  GIOStream              *stream;
  GQueue                  items;          /* Item */
  Item                   *current;        /* being written */
  gsize                   written;        /* of current */
  GSource                *output_source;  /* until the stream takes more */
  GSource                *input_source;   /* the client going away */
  GSource                *delay_source;   /* a delay, or a pace */
  GSource                *wait_source;    /* until the process is idle */
  AgentTestSseWrittenFunc written_func;
  AgentTestSseDoneFunc    done_func;
  gpointer                user_data;
  guint                   started : 1;
  guint                   paced : 1;
  guint                   pumping : 1;
  guint                   waiting : 1;
  guint                   hanging : 1;
  guint                   done : 1;
};

static void pump (AgentTestSseWriter *self);

static void
item_free (Item *item)
{
  g_clear_pointer (&item->bytes, g_bytes_unref);
  g_free (item);
}

static void
source_clear (GSource **source)
{
  if (*source == NULL)
    return;
  g_source_destroy (*source);
  g_clear_pointer (source, g_source_unref);
}

static void
stop_sources (AgentTestSseWriter *self)
{
  source_clear (&self->output_source);
  source_clear (&self->input_source);
  source_clear (&self->delay_source);
  source_clear (&self->wait_source);
}

AgentTestSseWriter *
agent_test_sse_writer_new (GIOStream *stream)
{
  AgentTestSseWriter *self = g_new0 (AgentTestSseWriter, 1);

  self->stream = g_object_ref (stream);
  g_queue_init (&self->items);
  return self;
}

/* Stops writing; the connection is left as it is (its owner closes it) */
void
agent_test_sse_writer_free (AgentTestSseWriter *self)
{
  if (self == NULL)
    return;

  stop_sources (self);
  g_clear_pointer (&self->current, item_free);
  g_queue_clear_full (&self->items, (GDestroyNotify) item_free);
  g_object_unref (self->stream);
  g_free (self);
}

GIOStream *
agent_test_sse_writer_get_stream (AgentTestSseWriter *self)
{
  return self->stream;
}

void
agent_test_sse_writer_set_callbacks (AgentTestSseWriter      *self,
                                     AgentTestSseWrittenFunc  written,
                                     AgentTestSseDoneFunc     done,
                                     gpointer                 user_data)
{
  self->written_func = written;
  self->done_func = done;
  self->user_data = user_data;
}

/* Writes what was added meanwhile, when the writer had nothing left */
static void
kick (AgentTestSseWriter *self)
{
  if (self->started && !self->done && !self->pumping && !self->waiting && !self->hanging &&
      self->current == NULL && self->output_source == NULL && self->delay_source == NULL &&
      self->wait_source == NULL)
    pump (self);
}

static void
push (AgentTestSseWriter *self,
      Item               *item)
{
  g_queue_push_tail (&self->items, item);
  kick (self);
}

static void
push_bytes (AgentTestSseWriter *self,
            GBytes             *bytes,
            gboolean            notify)
{
  Item *item = g_new0 (Item, 1);

  item->type = ITEM_BYTES;
  item->bytes = bytes;
  item->notify = notify;
  push (self, item);
}

/* The head of a response with a chunked body: @status (and @reason, or
 * the usual phrase), @content_type, "Cache-Control: no-cache", then
 * @headers (name, value, …, NULL; those that would contradict the framing
 * are left out), and "Connection: close" if @close */
void
agent_test_sse_writer_add_head (AgentTestSseWriter *self,
                                guint               status,
                                const char         *reason,
                                const char         *content_type,
                                const char * const *headers,
                                gboolean            close)
{
  static const char * const framing[] = {
    "Content-Type", "Cache-Control", "Transfer-Encoding", "Content-Length", "Connection",
  };
  GString *head = g_string_new (NULL);

  agent_test_http_append_status (head, status, reason);
  agent_test_http_append_header (head, "Content-Type", content_type);
  agent_test_http_append_header (head, "Cache-Control", "no-cache");
  for (guint i = 0; headers != NULL && headers[i] != NULL && headers[i + 1] != NULL; i += 2)
    {
      gboolean ours = FALSE;

      for (guint j = 0; j < G_N_ELEMENTS (framing); j++)
        ours |= g_ascii_strcasecmp (headers[i], framing[j]) == 0;
      if (!ours)
        agent_test_http_append_header (head, headers[i], headers[i + 1]);
    }
  if (close)
    agent_test_http_append_header (head, "Connection", "close");
  agent_test_http_append_header (head, "Transfer-Encoding", "chunked");
  g_string_append_len (head, "\r\n", 2);
  push_bytes (self, g_string_free_to_bytes (head), FALSE);
}

/* @data as it is, in one write: a head, or a body that is not chunked */
void
agent_test_sse_writer_add_bytes (AgentTestSseWriter *self,
                                 const char         *data,
                                 gsize               len)
{
  push_bytes (self, g_bytes_new (data, len), TRUE);
}

/* One chunk of the body, in one write */
void
agent_test_sse_writer_add_chunk (AgentTestSseWriter *self,
                                 const char         *data,
                                 gsize               len)
{
  GString *chunk = g_string_sized_new (len + 16);

  agent_test_http_append_chunk (chunk, data, len);
  push_bytes (self, g_string_free_to_bytes (chunk), TRUE);
}

/* Nothing for @msec milliseconds */
void
agent_test_sse_writer_add_delay (AgentTestSseWriter *self,
                                 guint               msec)
{
  Item *item = g_new0 (Item, 1);

  item->type = ITEM_DELAY;
  item->msec = msec;
  push (self, item);
}

/* Nothing until agent_test_sse_writer_release() */
void
agent_test_sse_writer_add_wait (AgentTestSseWriter *self)
{
  Item *item = g_new0 (Item, 1);

  item->type = ITEM_WAIT;
  push (self, item);
}

/* How the response ends, after what was added before */
void
agent_test_sse_writer_end (AgentTestSseWriter *self,
                           AgentTestSseEnding  ending)
{
  Item *item = g_new0 (Item, 1);

  if (ending == AGENT_TEST_SSE_END)
    {
      GString *last = g_string_new (NULL);

      agent_test_http_append_last_chunk (last);
      push_bytes (self, g_string_free_to_bytes (last), FALSE);
    }
  else if (ending == AGENT_TEST_SSE_CUT)
    {
      push_bytes (self, g_bytes_new_static (cut_chunk, sizeof cut_chunk - 1), FALSE);
    }
  item->type = ITEM_END;
  item->ending = ending;
  push (self, item);
}

static void
finish (AgentTestSseWriter *self,
        gboolean            complete,
        const GError       *error)
{
  if (self->done)
    return;
  self->done = TRUE;
  stop_sources (self);
  /* Last: the callback may free the writer */
  if (self->done_func != NULL)
    self->done_func (self, complete, error, self->user_data);
}

/* Breaks the connection under any TLS: no close_notify, no last chunk */
static void
break_connection (AgentTestSseWriter *self)
{
  g_autoptr(GIOStream) base = g_object_ref (self->stream);

  if (G_IS_TLS_CONNECTION (base))
    {
      GIOStream *under = NULL;

      g_object_get (base, "base-io-stream", &under, NULL);
      g_object_unref (base);
      base = under;
    }
  if (G_IS_SOCKET_CONNECTION (base))
    g_socket_shutdown (g_socket_connection_get_socket (G_SOCKET_CONNECTION (base)), TRUE, TRUE,
                       NULL);
  else
    g_io_stream_close (self->stream, NULL, NULL);
}

static GError *
broken_error (AgentTestSseEnding ending)
{
  return g_error_new (G_IO_ERROR, G_IO_ERROR_BROKEN_PIPE, "The connection was %s on purpose",
                      ending == AGENT_TEST_SSE_CUT ? "cut in a chunk" : "closed between chunks");
}

static void
end_now (AgentTestSseWriter *self,
         AgentTestSseEnding  ending)
{
  g_autoptr(GError) error = NULL;

  switch (ending)
    {
    case AGENT_TEST_SSE_END:
      finish (self, TRUE, NULL);
      break;

    case AGENT_TEST_SSE_CUT:
    case AGENT_TEST_SSE_CLOSE:
      break_connection (self);
      error = broken_error (ending);
      finish (self, FALSE, error);
      break;

    case AGENT_TEST_SSE_HANG:
      /* Done when the client goes (input_cb) */
      self->hanging = TRUE;
      break;

    default:
      g_assert_not_reached ();
    }
}

static void
attach (AgentTestSseWriter  *self,
        GSource            **where,
        GSource             *source,
        GSourceFunc          func)
{
  *where = source;
  g_source_set_callback (source, func, self, NULL);
  g_source_attach (source, g_main_context_get_thread_default ());
}

/* Takes the source being dispatched off the writer (it goes when its
 * callback returns G_SOURCE_REMOVE) */
static void
detach (GSource **where)
{
  g_clear_pointer (where, g_source_unref);
}

static gboolean
writable_cb (GObject *stream,
             gpointer data)
{
  AgentTestSseWriter *self = data;

  detach (&self->output_source);
  pump (self);
  return G_SOURCE_REMOVE;
}

/* A wait begins once the main loop has nothing else to do: a client in
 * this process has then read and handled what came before it, as it had
 * with libsoup's server, whose writes took a few turns of the loop */
static gboolean
wait_cb (gpointer data)
{
  AgentTestSseWriter *self = data;

  detach (&self->wait_source);
  self->waiting = TRUE;
  return G_SOURCE_REMOVE;
}

static gboolean
delay_cb (gpointer data)
{
  AgentTestSseWriter *self = data;

  detach (&self->delay_source);
  pump (self);
  return G_SOURCE_REMOVE;
}

/* The client's side: what it sends after its request is dropped; its end
 * (or an error) ends the response, in whatever state it is */
static gboolean
input_cb (GObject *stream,
          gpointer data)
{
  AgentTestSseWriter *self = data;
  g_autoptr(GError) error = NULL;
  guint8 buffer[1024];
  gssize n;

  n = g_pollable_input_stream_read_nonblocking (G_POLLABLE_INPUT_STREAM (stream), buffer,
                                                sizeof buffer, NULL, &error);
  if (n > 0 || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK))
    return G_SOURCE_CONTINUE;

  if (n == 0)
    error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED,
                                 "The client closed the connection");
  detach (&self->input_source);
  finish (self, FALSE, error);
  return G_SOURCE_REMOVE;
}

/* Writes without blocking until the queue is empty, a pause, or the
 * stream is full */
static void
pump (AgentTestSseWriter *self)
{
  GOutputStream *output = g_io_stream_get_output_stream (self->stream);

  self->pumping = TRUE;
  while (!self->done)
    {
      g_autoptr(GError) error = NULL;
      const guint8 *data;
      gsize len;
      gssize n = 0;

      if (self->current == NULL)
        {
          Item *item = g_queue_pop_head (&self->items);

          if (item == NULL)
            break;  /* until more is added */

          if (item->type == ITEM_BYTES)
            {
              self->current = item;
              self->written = 0;
            }
          else
            {
              ItemType type = item->type;
              AgentTestSseEnding ending = item->ending;
              guint msec = item->msec;

              item_free (item);
              if (type == ITEM_DELAY)
                {
                  attach (self, &self->delay_source, g_timeout_source_new (msec), delay_cb);
                }
              else if (type == ITEM_WAIT)
                {
                  GSource *idle = g_idle_source_new ();

                  g_source_set_priority (idle, G_PRIORITY_LOW);
                  attach (self, &self->wait_source, idle, wait_cb);
                }
              else
                {
                  self->pumping = FALSE;
                  end_now (self, ending);  /* may free self */
                  return;
                }
              break;
            }
        }

      data = g_bytes_get_data (self->current->bytes, &len);
      if (self->written < len)
        n = g_pollable_output_stream_write_nonblocking (G_POLLABLE_OUTPUT_STREAM (output),
                                                        data + self->written,
                                                        len - self->written, NULL, &error);
      if ((n < 0 && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK)) ||
          (n == 0 && self->written < len))
        {
          attach (self, &self->output_source,
                  g_pollable_output_stream_create_source (G_POLLABLE_OUTPUT_STREAM (output), NULL),
                  G_SOURCE_FUNC (writable_cb));
          break;
        }
      if (n < 0)
        {
          self->pumping = FALSE;
          finish (self, FALSE, error);  /* may free self */
          return;
        }

      self->written += n;
      if (self->written == len)
        {
          gboolean notify = self->current->notify;

          g_clear_pointer (&self->current, item_free);
          if (notify && self->written_func != NULL)
            self->written_func (self, self->user_data);
          if (self->paced && !g_queue_is_empty (&self->items))
            {
              attach (self, &self->delay_source, g_idle_source_new (), delay_cb);
              break;
            }
        }
    }
  self->pumping = FALSE;
}

/* Whether the main loop turns once between two writes (idle), as with
 * libsoup's server: a client in the same process then reads what it was
 * sent a write at a time, as from a server that makes its events one by
 * one. Without, the writer writes as fast as the connection takes it. */
void
agent_test_sse_writer_set_paced (AgentTestSseWriter *self,
                                 gboolean            paced)
{
  self->paced = paced;
}

/* Writes on the thread-default main context, without blocking; the done
 * callback says when it is over */
void
agent_test_sse_writer_start (AgentTestSseWriter *self)
{
  GInputStream *input = g_io_stream_get_input_stream (self->stream);

  g_return_if_fail (!self->started);

  self->started = TRUE;
  if (G_IS_POLLABLE_INPUT_STREAM (input) &&
      g_pollable_input_stream_can_poll (G_POLLABLE_INPUT_STREAM (input)))
    attach (self, &self->input_source,
            g_pollable_input_stream_create_source (G_POLLABLE_INPUT_STREAM (input), NULL),
            G_SOURCE_FUNC (input_cb));
  kick (self);
}

/* Whether the writer stopped at an agent_test_sse_writer_add_wait() */
gboolean
agent_test_sse_writer_is_waiting (AgentTestSseWriter *self)
{
  return self->waiting;
}

/* Goes on after a wait */
void
agent_test_sse_writer_release (AgentTestSseWriter *self)
{
  if (!self->waiting)
    return;
  self->waiting = FALSE;
  kick (self);
}

/* Writes everything, blocking (a delay sleeps): for servers with a thread
 * per connection. The ending breaks the connection where it says so;
 * after AGENT_TEST_SSE_END or _HANG the connection is the caller's. No
 * callback is called; a wait is a programming error. */
gboolean
agent_test_sse_writer_write_all (AgentTestSseWriter  *self,
                                 GError             **error)
{
  GOutputStream *output = g_io_stream_get_output_stream (self->stream);
  Item *item;

  g_return_val_if_fail (!self->started, FALSE);

  while ((item = g_queue_pop_head (&self->items)) != NULL)
    {
      g_autoptr(GError) local_error = NULL;
      gsize len;
      const guint8 *data;

      switch (item->type)
        {
        case ITEM_BYTES:
          data = g_bytes_get_data (item->bytes, &len);
          if (!g_output_stream_write_all (output, data, len, NULL, NULL, &local_error))
            {
              item_free (item);
              g_propagate_error (error, g_steal_pointer (&local_error));
              return FALSE;
            }
          break;

        case ITEM_DELAY:
          g_output_stream_flush (output, NULL, NULL);
          g_usleep (item->msec * G_TIME_SPAN_MILLISECOND);
          break;

        case ITEM_WAIT:
          g_error ("agent_test_sse_writer_write_all() cannot wait: start() the writer");
          break;

        case ITEM_END:
          if (item->ending == AGENT_TEST_SSE_CUT || item->ending == AGENT_TEST_SSE_CLOSE)
            break_connection (self);
          break;

        default:
          g_assert_not_reached ();
        }
      item_free (item);
    }
  return TRUE;
}
