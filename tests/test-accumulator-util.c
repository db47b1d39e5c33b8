/* test-accumulator-util.c — building streams and decoding them, for the
 * accumulator tests
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "providers/agent-openai-chat-private.h"
#include "messages/agent-tool-call-private.h"

#include "agent-test-feed.h"
#include "agent-test-replay.h"
#include "agent-test-util.h"
#include "test-accumulator-util.h"

/* Building streams */

/* ' becomes ", and \' becomes \" */
char *
json (const char *sq)
{
  GString *out = g_string_new (NULL);

  for (const char *p = sq; *p; p++)
    {
      if (p[0] == '\\' && p[1] == '\'')
        {
          g_string_append (out, "\\\"");
          p++;
        }
      else if (*p == '\'')
        g_string_append_c (out, '"');
      else
        g_string_append_c (out, *p);
    }

  return g_string_free (out, FALSE);
}

/* A body from pieces: "{…}" is one `data:` event (JSON written with '),
 * "[DONE]" the end marker, anything else is copied as it is. */
GString *
body_new (const char *first,
          ...)
{
  GString *body = g_string_new (NULL);
  va_list args;

  va_start (args, first);
  for (const char *piece = first; piece != NULL; piece = va_arg (args, const char *))
    {
      if (piece[0] == '{')
        {
          g_autofree char *data = json (piece);

          g_string_append_printf (body, "data: %s\n\n", data);
        }
      else if (strcmp (piece, "[DONE]") == 0)
        g_string_append (body, "data: [DONE]\n\n");
      else
        g_string_append (body, piece);
    }
  va_end (args);

  return body;
}

/* Decoding, with a listener that records everything */

/* Feeds @body in pieces of @piece bytes (all of it at once if 0), stopping
 * at the first error, then finishes. The listener's contract must hold. */
static AgentTestReplay *
run_pieces (const char *body,
            gsize       len,
            gsize       piece)
{
  AgentTestReplay *run = agent_test_replay_new ();

  if (piece == 0)
    piece = MAX (len, 1);

  agent_test_feed_pieces (agent_test_replay_feed, run, body, len, piece, NULL, &run->error);
  agent_test_replay_finish (run);
  g_assert_cmpstr (run->problems->str, ==, "");

  return run;
}

AgentMessage *
run_message (AgentTestReplay *run)
{
  return agent_test_replay_get_message (run);
}

/* The call at @position. If there is none, the test fails and an empty
 * call stands in, so that the checks that follow report rather than crash
 * (assertions are not fatal here). */
AgentToolCall *
run_call (AgentTestReplay *run,
          guint            position)
{
  static AgentToolCall *missing;

  if (position < agent_message_get_n_tool_calls (run_message (run)))
    return agent_message_get_tool_call (run_message (run), position);

  g_test_fail_printf ("there is no tool call at position %u", position);
  if (missing == NULL)
    missing = agent_tool_call_new (NULL, "", NULL);
  return missing;
}

AgentTestToolDelta *
run_tool_delta (AgentTestReplay *run,
                guint            i)
{
  static AgentTestToolDelta missing = { NULL, G_MAXUINT, NULL, NULL, (char *) "", 0 };

  if (i < run->tool_deltas->len)
    return &g_array_index (run->tool_deltas, AgentTestToolDelta, i);

  g_test_fail_printf ("the listener heard of no tool-call delta %u", i);
  return &missing;
}

/* The message's usage. If there is none, the test fails and an empty usage
 * stands in (assertions are not fatal here). */
AgentUsage *
run_usage (AgentTestReplay *run)
{
  static AgentUsage *missing;
  AgentUsage *usage = agent_message_get_usage (run_message (run));

  if (usage != NULL)
    return usage;

  g_test_fail_printf ("the message has no usage");
  if (missing == NULL)
    missing = agent_usage_new (0, 0, 0);
  return missing;
}

const char *
or_empty (const char *s)
{
  return s ? s : "";
}

/* The error's message, or "" when there is none (the assertion about the
 * error itself already failed). */
const char *
message_of (const GError *error)
{
  return error ? error->message : "";
}

/* Everything observable about a message, as text, appended to @out */
void
describe_message (GString      *out,
                  AgentMessage *message)
{
  AgentUsage *usage = agent_message_get_usage (message);

  g_string_append_printf (out, "content=%s\nreasoning=%s\nrefusal=%s\nfinish=%s\nid=%s\nmodel=%s\n",
                          agent_message_get_content (message),
                          agent_message_get_reasoning (message),
                          agent_message_get_refusal (message),
                          agent_message_get_finish_reason (message),
                          agent_message_get_response_id (message),
                          agent_message_get_model (message));
  if (usage != NULL && agent_usage_get_raw (usage) != NULL)
    {
      g_autofree char *raw = json_to_string (agent_usage_get_raw (usage), FALSE);

      g_string_append_printf (out, "usage=%s\n", raw);
    }
  for (guint i = 0; i < agent_message_get_n_tool_calls (message); i++)
    {
      AgentToolCall *call = agent_message_get_tool_call (message, i);

      g_string_append_printf (out, "call %u: index=%u id=%s name=%s type=%s state=%d args=%s\n", i,
                              agent_tool_call_get_index (call), agent_tool_call_get_id (call),
                              agent_tool_call_get_name (call), _agent_tool_call_get_type_name (call),
                              agent_tool_call_get_state (call), agent_tool_call_get_arguments (call));
    }
}

/* Everything observable about a run, as text. */
char *
summarize (AgentTestReplay *run)
{
  GString *out = g_string_new (NULL);

  describe_message (out, run_message (run));
  g_string_append_printf (out, "error=%s:%d:%s\nfinish_ok=%d finish_error=%s\ndone=%d events=%u\n",
                          run->error ? g_quark_to_string (run->error->domain) : "",
                          run->error ? run->error->code : 0,
                          message_of (run->error),
                          run->finish_ok,
                          message_of (run->finish_error),
                          agent_stream_decoder_is_done (run->decoder),
                          (guint) agent_stream_decoder_get_n_events (run->decoder));
  g_string_append (out, run->log->str);

  return g_string_free (out, FALSE);
}

/* Decodes @body whole and one byte at a time (or in @piece bytes), checks
 * that both agree, and returns the whole run. */
AgentTestReplay *
decode_len (const char *body,
            gsize       len,
            gsize       piece)
{
  g_autoptr(AgentTestReplay) pieces = run_pieces (body, len, piece);
  AgentTestReplay *whole = run_pieces (body, len, 0);
  g_autofree char *a = summarize (whole);
  g_autofree char *b = summarize (pieces);

  g_assert_cmpstr (a, ==, b);

  return whole;
}

AgentTestReplay *
decode (GString *body)
{
  return decode_len (body->str, body->len, 1);
}

/* A tool-call delta: index (or -1 for none), id, name, arguments (' JSON
 * fragments are passed through json(), NULL leaves the member out). */
char *
tool_chunk (int         index,
            const char *id,
            const char *name,
            const char *arguments)
{
  GString *call = g_string_new ("{");
  g_autoptr(GString) function = g_string_new (NULL);

  if (index >= 0)
    g_string_append_printf (call, "'index':%d,", index);
  if (id != NULL)
    g_string_append_printf (call, "'id':'%s','type':'function',", id);
  if (name != NULL)
    g_string_append_printf (function, "'name':'%s'", name);
  if (arguments != NULL)
    g_string_append_printf (function, "%s'arguments':%s", name ? "," : "", arguments);
  g_string_append_printf (call, "'function':{%s}}", function->str);

  {
    g_autofree char *calls = g_string_free (call, FALSE);

    return g_strdup_printf ("{'id':'r1','choices':[{'index':0,'delta':{'tool_calls':[%s]},'finish_reason':null}]}",
                            calls);
  }
}
