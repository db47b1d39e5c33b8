/* bench-loop-client.c — libagent in the tool-loop benchmark
 *
 * One AgentSession with the built-in calculator tool, through the public
 * API only: each prompt runs the server's tool loop to its text answer.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <stdio.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "agent.h"

#include "bench-loop-client.h"
#include "bench-util.h"

typedef struct
{
  GMainLoop *loop;
  guint      n_steps;
  guint      n_tool_runs;
  guint      n_tool_errors;
  guint64    text_bytes;
  GError    *error;
} LoopRun;

static void
text_delta_cb (AgentSession *session,
               AgentMessage *message,
               const char   *delta,
               LoopRun      *run)
{
  run->text_bytes += strlen (delta);
}

static void
step_finished_cb (AgentSession *session,
                  AgentMessage *message,
                  LoopRun      *run)
{
  run->n_steps++;
}

static void
tool_finished_cb (AgentSession  *session,
                  AgentToolCall *call,
                  LoopRun       *run)
{
  run->n_tool_runs++;
  if (agent_tool_call_get_state (call) != AGENT_TOOL_CALL_STATE_SUCCEEDED)
    run->n_tool_errors++;
}

static void
send_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  LoopRun *run = user_data;
  g_autoptr(AgentMessage) message = NULL;

  message = agent_session_send_finish (AGENT_SESSION (object), result, &run->error);
  g_main_loop_quit (run->loop);
}

static void
print_result (const LoopRun *run,
              guint          n_prompts,
              double         cpu,
              double         cpu_user,
              double         cpu_sys,
              double         wall)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "cpu_s");
  json_builder_add_double_value (builder, cpu);
  json_builder_set_member_name (builder, "cpu_user_s");
  json_builder_add_double_value (builder, cpu_user);
  json_builder_set_member_name (builder, "cpu_sys_s");
  json_builder_add_double_value (builder, cpu_sys);
  json_builder_set_member_name (builder, "wall_s");
  json_builder_add_double_value (builder, wall);
  json_builder_set_member_name (builder, "prompts");
  json_builder_add_int_value (builder, n_prompts);
  json_builder_set_member_name (builder, "steps");
  json_builder_add_int_value (builder, run->n_steps);
  json_builder_set_member_name (builder, "tool_runs");
  json_builder_add_int_value (builder, run->n_tool_runs);
  json_builder_set_member_name (builder, "tool_errors");
  json_builder_add_int_value (builder, run->n_tool_errors);
  json_builder_set_member_name (builder, "text_bytes");
  json_builder_add_int_value (builder, run->text_bytes);
  json_builder_set_member_name (builder, "peak_rss_kib");
  json_builder_add_int_value (builder, bench_peak_rss_kib ());
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  text = json_generator_to_data (generator, NULL);
  printf ("%s\n", text);
}

int
bench_loop_client_main (const char *base_url,
                        const char *ca_file,
                        guint       n_prompts)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AgentProvider) provider = NULL;
  g_autoptr(AgentSession) session = NULL;
  g_autoptr(AgentTool) calculator = agent_calculator_tool_new ();
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  LoopRun run = { 0 };
  BenchCpu cpu;
  double wall, cpu_s, cpu_user, cpu_sys;

  if (!(provider = agent_provider_new ("openai", &error)))
    {
      g_printerr ("bench-loop child: %s\n", error->message);
      return 1;
    }
  agent_provider_set_base_url (provider, base_url);
  agent_provider_set_model (provider, "gpt-4o");
  agent_provider_set_api_key (provider, "sk-bench-not-a-secret");
  agent_provider_set_max_retries (provider, 0);
  if (ca_file != NULL)
    agent_provider_set_tls_ca_file (provider, ca_file);

  session = agent_session_new (provider);
  agent_session_add_tool (session, calculator);
  run.loop = loop;
  g_signal_connect (session, "text-delta", G_CALLBACK (text_delta_cb), &run);
  g_signal_connect (session, "step-finished", G_CALLBACK (step_finished_cb), &run);
  g_signal_connect (session, "tool-finished", G_CALLBACK (tool_finished_cb), &run);

  bench_cpu_now (&cpu);
  wall = bench_wall_now ();
  for (guint i = 0; i < n_prompts && run.error == NULL; i++)
    {
      g_autofree char *prompt = g_strdup_printf ("Work it out with the calculator, please (%u).",
                                                 i + 1);

      agent_session_send_async (session, prompt, NULL, send_cb, &run);
      g_main_loop_run (loop);
    }
  cpu_s = bench_cpu_since (&cpu, &cpu_user, &cpu_sys);
  wall = bench_wall_now () - wall;

  g_signal_handlers_disconnect_by_data (session, &run);

  if (run.error != NULL)
    {
      g_printerr ("bench-loop child: %s\n", run.error->message);
      g_clear_error (&run.error);
      return 1;
    }

  print_result (&run, n_prompts, cpu_s, cpu_user, cpu_sys, wall);
  return 0;
}
