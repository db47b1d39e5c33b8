/* bench-history.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agent.h"
#include "transport/agent-provider-private.h"

#include "bench-history.h"
#include "bench-util.h"

static const char * const words[] = {
  "the", "stream", "handler", "returns", "a", "value", "when", "callback", "is", "called",
  "for", "each", "event", "and", "buffer", "café", "naïve", "größer", "日本語", "—",
  "function", "server", "\"quoted\"", "line\nbreak", "tab\there", "path\\to\\file",
};

/* Deterministic text of about @len bytes. */
static char *
make_text (guint *state,
           gsize  len)
{
  GString *text = g_string_sized_new (len + 16);

  while (text->len < len)
    {
      *state = *state * 1103515245 + 12345;
      if (text->len > 0)
        g_string_append_c (text, ' ');
      g_string_append (text, words[(*state >> 16) % G_N_ELEMENTS (words)]);
    }

  return g_string_free (text, FALSE);
}

static gboolean
append (AgentMemory   *memory,
        AgentMessage  *message,
        GError       **error)
{
  gboolean ok = agent_memory_append (memory, message, error);

  g_object_unref (message);
  return ok;
}

static gboolean
fill (AgentMemory   *memory,
      guint          n_messages,
      guint         *n_tool_calls,
      GError       **error)
{
  guint state = 1;
  guint exchange = 0;
  guint n = 0;

  *n_tool_calls = 0;

  while (n < n_messages)
    {
      g_autofree char *question = make_text (&state, 60 + (exchange * 37) % 300);

      if (!append (memory, agent_message_new (AGENT_MESSAGE_ROLE_USER, question), error))
        return FALSE;
      n++;

      if (exchange++ % 5 == 4 && n + 4 <= n_messages)
        {
          AgentMessage *assistant = agent_message_new (AGENT_MESSAGE_ROLE_ASSISTANT, NULL);
          char *ids[2] = { NULL, NULL };
          gboolean ok = TRUE;

          for (guint i = 0; i < 2; i++)
            {
              g_autofree char *arguments = NULL;
              g_autoptr(AgentToolCall) call = NULL;

              ids[i] = g_strdup_printf ("call_%u_%u", exchange, i);
              arguments = g_strdup_printf ("{\"path\":\"src/file-%u.c\",\"query\":\"%u\",\"n\":%u}",
                                           exchange, i, n);
              call = agent_tool_call_new (ids[i], i == 0 ? "read_file" : "search_code", arguments);
              agent_message_add_tool_call (assistant, call);
              (*n_tool_calls)++;
            }
          ok = append (memory, assistant, error);

          for (guint i = 0; i < 2; i++)
            {
              g_autofree char *result = make_text (&state, 300 + i * 900);

              ok = ok && append (memory,
                                 agent_message_new_tool_result (ids[i], "read_file", result, FALSE),
                                 error);
              g_free (ids[i]);
            }
          if (!ok)
            return FALSE;
          n += 3;
        }

      if (n < n_messages)
        {
          g_autofree char *answer = make_text (&state, 200 + (exchange * 131) % 1200);

          if (!append (memory, agent_message_new (AGENT_MESSAGE_ROLE_ASSISTANT, answer), error))
            return FALSE;
          n++;
        }
    }

  return TRUE;
}

gboolean
bench_history_run (guint          n_messages,
                   guint          runs,
                   BenchHistory  *result,
                   GError       **error)
{
  g_autoptr(AgentProvider) provider = NULL;
  g_autoptr(AgentMemory) memory = NULL;
  g_autoptr(GListStore) tools = g_list_store_new (AGENT_TYPE_TOOL);
  g_autoptr(AgentTool) calculator = agent_calculator_tool_new ();
  g_autofree double *samples = g_new0 (double, MAX (runs, 1));
  AgentRequest request = { 0 };
  double start;

  memset (result, 0, sizeof *result);

  if (!(provider = agent_provider_new ("openai", error)))
    return FALSE;
  agent_provider_set_base_url (provider, "http://127.0.0.1:9/v1");
  agent_provider_set_model (provider, "gpt-4o");
  g_list_store_append (tools, calculator);

  start = bench_wall_now ();
  memory = agent_simple_memory_new ();
  if (!fill (memory, n_messages, &result->n_tool_calls, error))
    return FALSE;
  result->fill_ms = (bench_wall_now () - start) * 1e3;
  result->n_messages = g_list_model_get_n_items (G_LIST_MODEL (memory));

  request.provider = provider;
  request.model = agent_provider_get_model (provider);
  request.system_prompt = "You are a helpful assistant that answers briefly.";
  request.messages = G_LIST_MODEL (memory);
  request.tools = G_LIST_MODEL (tools);

  for (guint i = 0; i < runs; i++)
    {
      g_autoptr(SoupMessage) message = NULL;

      start = bench_process_cputime ();
      message = _agent_provider_build_message (provider, &request, error);
      samples[i] = (bench_process_cputime () - start) * 1e3;

      if (message == NULL)
        return FALSE;

      result->body_bytes =
        soup_message_headers_get_content_length (soup_message_get_request_headers (message));
    }

  result->build_ms_median = bench_median (samples, runs);
  result->build_ms_min = samples[0];
  for (guint i = 1; i < runs; i++)
    result->build_ms_min = MIN (result->build_ms_min, samples[i]);
  result->build_ms_max = bench_max (samples, runs);

  return TRUE;
}
