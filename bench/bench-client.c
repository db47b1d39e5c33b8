/* bench-client.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <libsoup/soup.h>

#include "agent.h"

#include "bench-client.h"
#include "bench-util.h"

#define READ_BUFFER_SIZE (64 * 1024)

typedef struct
{
  BenchRun     *run;
  GMainLoop    *loop;
  BenchCpu      cpu;
  double        wall;
  GArray       *latencies_us;
  AgentMessage *result;
  GError       *error;
  guint         step_done : 1;
} SessionRun;

static void
text_delta_cb (AgentSession *session,
               AgentMessage *message,
               const char   *delta,
               SessionRun   *ctx)
{
  /* Only the measured (first) step counts. */
  if (ctx->step_done)
    return;
  ctx->run->n_text_deltas++;
  ctx->run->text_bytes += strlen (delta);
}

static void
latency_delta_cb (AgentSession *session,
                  AgentMessage *message,
                  const char   *delta,
                  SessionRun   *ctx)
{
  gint64 now = bench_monotonic_ns ();

  ctx->run->n_text_deltas++;
  if (delta[0] == ' ' && delta[1] == '@')
    {
      double latency = (now - g_ascii_strtoll (delta + 2, NULL, 10)) / 1e3;

      g_array_append_val (ctx->latencies_us, latency);
    }
}

static void
reasoning_delta_cb (AgentSession *session,
                    AgentMessage *message,
                    const char   *delta,
                    SessionRun   *ctx)
{
  if (ctx->step_done)
    return;
  ctx->run->n_reasoning_deltas++;
  ctx->run->reasoning_bytes += strlen (delta);
}

static void
tool_call_delta_cb (AgentSession  *session,
                    AgentToolCall *call,
                    const char    *fragment,
                    SessionRun    *ctx)
{
  if (ctx->step_done)
    return;
  ctx->run->n_tool_deltas++;
}

static void
step_finished_cb (AgentSession *session,
                  AgentMessage *message,
                  SessionRun   *ctx)
{
  guint n_calls;

  if (ctx->step_done)
    return;

  ctx->run->cpu = bench_cpu_since (&ctx->cpu, &ctx->run->cpu_user, &ctx->run->cpu_sys);
  ctx->run->n_blocked = bench_blocked_since (&ctx->cpu);
  ctx->run->wall = bench_wall_now () - ctx->wall;
  ctx->step_done = TRUE;

  n_calls = agent_message_get_n_tool_calls (message);
  ctx->run->n_tool_calls = n_calls;
  for (guint i = 0; i < n_calls; i++)
    ctx->run->argument_bytes +=
      strlen (agent_tool_call_get_arguments (agent_message_get_tool_call (message, i)));
}

static void
send_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  SessionRun *ctx = user_data;

  ctx->result = agent_session_send_finish (AGENT_SESSION (object), result, &ctx->error);
  g_main_loop_quit (ctx->loop);
}

static gboolean
run_session (const char  *base_url,
             BenchRun    *run,
             GArray      *latencies_us,
             GError     **error)
{
  g_autoptr(AgentProvider) provider = NULL;
  g_autoptr(AgentSession) session = NULL;
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  SessionRun ctx = { 0 };

  memset (run, 0, sizeof *run);
  ctx.run = run;
  ctx.loop = loop;
  ctx.latencies_us = latencies_us;

  if (!(provider = agent_provider_new ("openai", error)))
    return FALSE;
  agent_provider_set_base_url (provider, base_url);
  agent_provider_set_model (provider, "gpt-4o");

  session = agent_session_new (provider);
  agent_session_set_stream_tool_call_chunks (session, TRUE);
  g_signal_connect (session, "text-delta",
                    latencies_us ? G_CALLBACK (latency_delta_cb) : G_CALLBACK (text_delta_cb),
                    &ctx);
  g_signal_connect (session, "reasoning-delta", G_CALLBACK (reasoning_delta_cb), &ctx);
  g_signal_connect (session, "tool-call-delta", G_CALLBACK (tool_call_delta_cb), &ctx);
  g_signal_connect (session, "step-finished", G_CALLBACK (step_finished_cb), &ctx);

  bench_cpu_now (&ctx.cpu);
  ctx.wall = bench_wall_now ();
  agent_session_send_async (session, "Write the answer, please.", NULL, send_cb, &ctx);
  g_main_loop_run (loop);

  g_signal_handlers_disconnect_by_data (session, &ctx);

  if (ctx.result == NULL)
    {
      g_propagate_prefixed_error (error, ctx.error, "%s: ", base_url);
      return FALSE;
    }

  g_object_unref (ctx.result);
  return TRUE;
}

gboolean
bench_run_session (const char  *base_url,
                   BenchRun    *run,
                   GError     **error)
{
  return run_session (base_url, run, NULL, error);
}

gboolean
bench_run_latency (const char  *base_url,
                   GArray      *latencies_us,
                   GError     **error)
{
  BenchRun run;

  return run_session (base_url, &run, latencies_us, error);
}

/* The floor: libsoup alone */

typedef struct
{
  BenchRun     *run;
  GMainLoop    *loop;
  GInputStream *stream;
  GSource      *source;
  guint8       *buffer;
  GError       *error;
} FloorRun;

static void drain (FloorRun *ctx);

static gboolean
readable_cb (GObject  *stream,
             gpointer  user_data)
{
  FloorRun *ctx = user_data;

  g_clear_pointer (&ctx->source, g_source_unref);
  drain (ctx);
  return G_SOURCE_REMOVE;
}

static void
drain (FloorRun *ctx)
{
  GPollableInputStream *pollable = G_POLLABLE_INPUT_STREAM (ctx->stream);

  for (;;)
    {
      g_autoptr(GError) error = NULL;
      gssize n;

      n = g_pollable_input_stream_read_nonblocking (pollable, ctx->buffer, READ_BUFFER_SIZE,
                                                    NULL, &error);
      if (n > 0)
        {
          ctx->run->body_bytes += n;
          continue;
        }

      if (n < 0 && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK))
        {
          ctx->source = g_pollable_input_stream_create_source (pollable, NULL);
          g_source_set_callback (ctx->source, G_SOURCE_FUNC (readable_cb), ctx, NULL);
          g_source_attach (ctx->source, NULL);
          return;
        }

      if (n < 0)
        ctx->error = g_steal_pointer (&error);
      g_main_loop_quit (ctx->loop);
      return;
    }
}

static void
floor_sent_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  FloorRun *ctx = user_data;

  ctx->stream = soup_session_send_finish (SOUP_SESSION (object), result, &ctx->error);
  if (ctx->stream == NULL)
    {
      g_main_loop_quit (ctx->loop);
      return;
    }

  if (!G_IS_POLLABLE_INPUT_STREAM (ctx->stream) ||
      !g_pollable_input_stream_can_poll (G_POLLABLE_INPUT_STREAM (ctx->stream)))
    {
      g_set_error_literal (&ctx->error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                           "the response body is not pollable");
      g_main_loop_quit (ctx->loop);
      return;
    }

  drain (ctx);
}

gboolean
bench_run_floor (const char  *base_url,
                 BenchRun    *run,
                 GError     **error)
{
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr(SoupMessage) message = NULL;
  g_autoptr(GBytes) body = g_bytes_new_static ("{}", 2);
  g_autofree char *url = g_strconcat (base_url, "/chat/completions", NULL);
  g_autofree guint8 *buffer = g_malloc (READ_BUFFER_SIZE);
  FloorRun ctx = { 0 };
  BenchCpu cpu;
  double wall;

  memset (run, 0, sizeof *run);
  ctx.run = run;
  ctx.loop = loop;
  ctx.buffer = buffer;

  message = soup_message_new (SOUP_METHOD_POST, url);
  soup_message_headers_replace (soup_message_get_request_headers (message),
                                "Accept", "text/event-stream");
  soup_message_set_request_body_from_bytes (message, "application/json", body);

  bench_cpu_now (&cpu);
  wall = bench_wall_now ();
  soup_session_send_async (session, message, G_PRIORITY_DEFAULT, NULL, floor_sent_cb, &ctx);
  g_main_loop_run (loop);
  run->cpu = bench_cpu_since (&cpu, &run->cpu_user, &run->cpu_sys);
  run->n_blocked = bench_blocked_since (&cpu);
  run->wall = bench_wall_now () - wall;

  if (ctx.stream != NULL)
    g_input_stream_close (ctx.stream, NULL, NULL);
  g_clear_object (&ctx.stream);

  if (ctx.error != NULL)
    {
      g_propagate_prefixed_error (error, ctx.error, "%s: ", url);
      return FALSE;
    }

  if (!SOUP_STATUS_IS_SUCCESSFUL (soup_message_get_status (message)))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: HTTP %u", url,
                   soup_message_get_status (message));
      return FALSE;
    }

  return TRUE;
}
