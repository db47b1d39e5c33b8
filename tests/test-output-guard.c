/* test-output-guard.c — the check-output hook on a turn's final answer
 *
 * - /output-guard/allow: the answer stands; the hook sees the final
 *   answer only, not the steps that called tools.
 * - /output-guard/reject: the turn fails with AGENT_ERROR_HOOK and the
 *   reason; the answer is not kept; the tool calls and results of the
 *   turn's earlier steps are; the next turn goes on from there.
 * - /output-guard/replace: the answer's text is the replacement: in the
 *   message, the memory, the next request.
 * - /output-guard/fail-closed: a handler that gives no decision rejects;
 *   the first handler that does not allow decides, the others are not
 *   asked.
 * - /output-guard/schema: with an output schema, a replacement is checked
 *   against it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <agent.h>

#include "agent-test-answers.h"
#include "agent-test-openai.h"
#include "agent-test-provider.h"
#include "agent-test-util.h"

typedef struct
{
  guint       n_calls;
  const char *verdict;   /* "allow", "reject", "replace" or "null" */
  char       *seen;      /* the text of the answer it saw */
} Guard;

static AgentOutputDecision *
check_output_cb (AgentSession *session,
                 AgentMessage *answer,
                 Guard        *guard)
{
  guard->n_calls++;
  g_free (guard->seen);
  guard->seen = g_strdup (agent_message_get_content (answer));
  g_assert_cmpint (agent_message_get_n_tool_calls (answer), ==, 0);

  if (g_str_equal (guard->verdict, "allow"))
    return agent_output_decision_new_allow ();
  if (g_str_equal (guard->verdict, "reject"))
    return agent_output_decision_new_reject ("it names a secret");
  if (g_str_equal (guard->verdict, "replace"))
    return agent_output_decision_new_replace ("[withheld]");
  return NULL;
}

static gboolean
echo_cb (AgentTool            *tool,
         AgentToolInvocation  *invocation,
         gpointer              user_data,
         GError              **error)
{
  agent_tool_invocation_return_result (invocation, "s3cr3t");
  return TRUE;
}

static void
setup (AgentTestSession *s,
       Guard            *guard)
{
  g_autoptr(JsonNode) schema = agent_test_parse_json ("{\"type\":\"object\"}");
  g_autoptr(AgentTool) vault = agent_tool_new ("vault", "Reads the vault.", schema, echo_cb,
                                               NULL, NULL);

  agent_test_session_init (s, "openai");
  agent_session_add_tool (s->session, vault);
  g_signal_connect (s->session, "check-output", G_CALLBACK (check_output_cb), guard);
}

static AgentMessage *
memory_item (AgentTestSession *s,
             guint             position)
{
  GListModel *memory = G_LIST_MODEL (agent_session_get_memory (s->session));
  AgentMessage *message = g_list_model_get_item (memory, position);

  g_object_unref (message);
  return message;
}

static guint
memory_length (AgentTestSession *s)
{
  return g_list_model_get_n_items (G_LIST_MODEL (agent_session_get_memory (s->session)));
}

static void
test_allow (void)
{
  Guard guard = { 0, "allow", NULL };
  AgentTestSession s;

  setup (&s, &guard);
  agent_test_add_call_answer (s.server, "openai", "call_1", "vault", "{}");
  agent_test_add_text_answer (s.server, "openai", "The vault is open.", NULL);
  agent_test_turn_run (&s.turn, s.session, "Open it", NULL);
  g_assert_no_error (s.turn.error);

  /* Once, on the final answer */
  g_assert_cmpuint (guard.n_calls, ==, 1);
  g_assert_cmpstr (guard.seen, ==, "The vault is open.");
  g_assert_cmpuint (memory_length (&s), ==, 4);
  g_assert_cmpstr (agent_message_get_content (s.turn.result), ==, "The vault is open.");

  g_free (guard.seen);
  agent_test_session_clear (&s);
}

static void
test_reject (void)
{
  Guard guard = { 0, "reject", NULL };
  AgentTestSession s;
  const char *last_user;

  setup (&s, &guard);
  agent_test_add_call_answer (s.server, "openai", "call_1", "vault", "{}");
  agent_test_add_text_answer (s.server, "openai", "The secret is s3cr3t.", NULL);
  agent_test_turn_run (&s.turn, s.session, "Open it", NULL);

  g_assert_error (s.turn.error, AGENT_ERROR, AGENT_ERROR_HOOK);
  agent_test_assert_contains (s.turn.error->message, "it names a secret");
  g_assert_null (s.turn.result);
  g_assert_null (agent_session_get_current_message (s.session));
  /* The user's message, the call, its result; not the answer */
  g_assert_cmpuint (memory_length (&s), ==, 3);
  g_assert_cmpint (agent_message_get_role (memory_item (&s, 2)), ==, AGENT_MESSAGE_ROLE_TOOL);

  /* The conversation goes on from there */
  guard.verdict = "allow";
  agent_test_add_text_answer (s.server, "openai", "Closed.", NULL);
  agent_test_turn_clear (&s.turn);
  agent_test_turn_run (&s.turn, s.session, "Close it", NULL);
  g_assert_no_error (s.turn.error);
  last_user = agent_test_openai_get_last_user_content (s.server, 2);
  g_assert_cmpstr (last_user, ==, "Close it");
  g_assert_cmpuint (json_array_get_length (agent_test_openai_get_messages (s.server, 2)), ==, 4);

  g_free (guard.seen);
  agent_test_session_clear (&s);
}

static void
test_replace (void)
{
  Guard guard = { 0, "replace", NULL };
  AgentTestSession s;

  setup (&s, &guard);
  agent_test_add_text_answer (s.server, "openai", "The secret is s3cr3t.", NULL);
  agent_test_turn_run (&s.turn, s.session, "Tell me", NULL);
  g_assert_no_error (s.turn.error);
  g_assert_cmpstr (guard.seen, ==, "The secret is s3cr3t.");
  g_assert_cmpstr (agent_message_get_content (s.turn.result), ==, "[withheld]");
  g_assert_true (memory_item (&s, 1) == s.turn.result);

  /* Sent back as replaced */
  guard.verdict = "allow";
  agent_test_add_text_answer (s.server, "openai", "Fine.", NULL);
  agent_test_turn_clear (&s.turn);
  agent_test_turn_run (&s.turn, s.session, "Why?", NULL);
  g_assert_no_error (s.turn.error);
  g_assert_cmpstr (agent_test_openai_get_message_string (s.server, 1, 1, "content"), ==,
                   "[withheld]");

  g_free (guard.seen);
  agent_test_session_clear (&s);
}

static AgentOutputDecision *
allow_cb (AgentSession *session,
          AgentMessage *answer,
          guint        *n_calls)
{
  (*n_calls)++;
  return agent_output_decision_new_allow ();
}

static void
test_fail_closed (void)
{
  Guard guard = { 0, "null", NULL };
  AgentTestSession s;
  guint n_first = 0;
  guint n_last = 0;

  agent_test_session_init (&s, "openai");
  g_signal_connect (s.session, "check-output", G_CALLBACK (allow_cb), &n_first);
  g_signal_connect (s.session, "check-output", G_CALLBACK (check_output_cb), &guard);
  g_signal_connect (s.session, "check-output", G_CALLBACK (allow_cb), &n_last);

  agent_test_add_text_answer (s.server, "openai", "Hello.", NULL);
  agent_test_turn_run (&s.turn, s.session, "Hi", NULL);
  g_assert_error (s.turn.error, AGENT_ERROR, AGENT_ERROR_HOOK);
  agent_test_assert_contains (s.turn.error->message, "no decision");
  g_assert_cmpuint (n_first, ==, 1);
  g_assert_cmpuint (guard.n_calls, ==, 1);
  g_assert_cmpuint (n_last, ==, 0);
  g_assert_cmpuint (memory_length (&s), ==, 1);

  /* Every one allows: it stands */
  guard.verdict = "allow";
  agent_test_add_text_answer (s.server, "openai", "Hello.", NULL);
  agent_test_turn_clear (&s.turn);
  agent_test_turn_run (&s.turn, s.session, "Hi", NULL);
  g_assert_no_error (s.turn.error);
  g_assert_cmpuint (n_last, ==, 1);

  g_free (guard.seen);
  agent_test_session_clear (&s);
}

static AgentOutputDecision *
replace_json_cb (AgentSession *session,
                 AgentMessage *answer,
                 const char   *replacement)
{
  return agent_output_decision_new_replace (replacement);
}

static void
test_schema (void)
{
  g_autoptr(JsonNode) schema = agent_test_parse_json (
    "{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\"}},\"required\":[\"n\"]}");
  AgentTestSession s;
  gulong id;

  agent_test_session_init (&s, "openai");
  agent_session_set_output_schema (s.session, schema);

  id = g_signal_connect (s.session, "check-output", G_CALLBACK (replace_json_cb),
                         (gpointer) "{\"n\": \"many\"}");
  agent_test_add_text_answer (s.server, "openai", "{\"n\": 1}", NULL);
  agent_test_turn_run (&s.turn, s.session, "Count", NULL);
  g_assert_error (s.turn.error, AGENT_ERROR, AGENT_ERROR_SCHEMA);
  g_signal_handler_disconnect (s.session, id);

  g_signal_connect (s.session, "check-output", G_CALLBACK (replace_json_cb),
                    (gpointer) "{\"n\": 2}");
  agent_test_add_text_answer (s.server, "openai", "{\"n\": 1}", NULL);
  agent_test_turn_clear (&s.turn);
  agent_test_turn_run (&s.turn, s.session, "Count", NULL);
  g_assert_no_error (s.turn.error);
  g_assert_cmpstr (agent_message_get_content (s.turn.result), ==, "{\"n\": 2}");

  agent_test_session_clear (&s);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/output-guard/allow", test_allow);
  g_test_add_func ("/output-guard/reject", test_reject);
  g_test_add_func ("/output-guard/replace", test_replace);
  g_test_add_func ("/output-guard/fail-closed", test_fail_closed);
  g_test_add_func ("/output-guard/schema", test_schema);

  return g_test_run ();
}
