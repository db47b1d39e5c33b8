/* test-control.c — loop control: approval, hooks and limits, through the
 * public API against a real HTTP server (running tools: test-control-tools.c)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "agent-test-openai.h"
#include "agent-test-server.h"
#include "agent-test-turn.h"
#include "agent-test-util.h"
#include "test-control-util.h"

/* Approval */

typedef struct
{
  GPtrArray *approvals;
  gboolean   handle;
  int        answer;      /* 1 allow, 0 deny, -1 later */
} Approver;

static gboolean
approve_cb (AgentSession      *session,
            AgentToolCall     *call,
            AgentToolApproval *approval,
            Approver          *approver)
{
  g_assert_true (agent_tool_approval_get_tool_call (approval) == call);
  g_assert_cmpint (agent_tool_call_get_state (call), ==, AGENT_TOOL_CALL_STATE_AWAITING_APPROVAL);
  g_ptr_array_add (approver->approvals, g_object_ref (approval));

  if (approver->answer == 1)
    agent_tool_approval_allow (approval);
  else if (approver->answer == 0)
    agent_tool_approval_deny (approval, "not today");

  return approver->handle;
}

static guint runs;

static gboolean
counting_handler (AgentTool           *tool,
                  AgentToolInvocation *invocation,
                  gpointer             user_data,
                  GError             **error)
{
  runs++;
  agent_tool_invocation_return_result (invocation, "ran");

  return TRUE;
}

static AgentTool *
guarded_tool_new (void)
{
  AgentTool *tool = agent_tool_new ("delete_all", "Deletes everything", NULL,
                                    counting_handler, NULL, NULL);

  agent_tool_set_requires_approval (tool, TRUE);
  return tool;
}

static void
setup_approval (Fixture  *f,
                Approver *approver,
                gboolean  handle,
                int       answer)
{
  g_autoptr(AgentTool) tool = guarded_tool_new ();

  runs = 0;
  approver->approvals = g_ptr_array_new_with_free_func (g_object_unref);
  approver->handle = handle;
  approver->answer = answer;
  agent_session_add_tool (f->session, tool);
  g_signal_connect (f->session, "approve-tool-call", G_CALLBACK (approve_cb), approver);

  add_calls (f, "delete_all", "{}", 1);
  add_answer (f, "OK.");
}

static void
test_approval_allowed (Fixture       *f,
                       gconstpointer  data)
{
  Approver approver = { 0 };

  setup_approval (f, &approver, TRUE, 1);
  agent_test_turn_run (&f->turn, f->session, "Clean up", NULL);

  g_assert_no_error (f->turn.error);
  g_assert_cmpuint (approver.approvals->len, ==, 1);
  g_assert_cmpuint (runs, ==, 1);
  g_assert_cmpstr (tool_message (f, 1, "c0"), ==, "ran");
  g_assert_true (agent_tool_approval_get_allowed (g_ptr_array_index (approver.approvals, 0)));
  g_ptr_array_unref (approver.approvals);
}

static void
test_approval_denied (Fixture       *f,
                      gconstpointer  data)
{
  Approver approver = { 0 };
  AgentToolCall *call;

  setup_approval (f, &approver, TRUE, 0);
  agent_test_turn_run (&f->turn, f->session, "Clean up", NULL);

  /* Denial is the call's result; the loop goes on */
  g_assert_no_error (f->turn.error);
  g_assert_cmpstr (agent_message_get_content (f->turn.result), ==, "OK.");
  g_assert_cmpuint (runs, ==, 0);
  g_assert_cmpstr (tool_message (f, 1, "c0"), ==, "Denied by the user: not today");
  call = agent_message_get_tool_call (memory_message (f, 1), 0);
  g_assert_cmpint (agent_tool_call_get_state (call), ==, AGENT_TOOL_CALL_STATE_DENIED);
  g_assert_true (agent_tool_call_is_error (call));
  assert_memory_consistent (f);
  g_ptr_array_unref (approver.approvals);
}

static void
test_approval_no_handler (Fixture       *f,
                          gconstpointer  data)
{
  Approver approver = { 0 };

  /* A handler that does not take the question counts as none */
  setup_approval (f, &approver, FALSE, -1);
  agent_test_turn_run (&f->turn, f->session, "Clean up", NULL);

  g_assert_no_error (f->turn.error);
  g_assert_cmpuint (runs, ==, 0);
  g_assert_true (g_str_has_prefix (tool_message (f, 1, "c0"), "Not run: this tool needs the user's approval"));
  g_ptr_array_unref (approver.approvals);
}

static gpointer
allow_later (gpointer data)
{
  g_usleep (20000);
  agent_tool_approval_allow (data);
  return NULL;
}

static gboolean
have_approval (gpointer data)
{
  return ((Approver *)data)->approvals->len > 0;
}

static void
test_approval_later_from_thread (Fixture       *f,
                                 gconstpointer  data)
{
  Approver approver = { 0 };
  GThread *thread;

  setup_approval (f, &approver, TRUE, -1);
  agent_test_turn_send (&f->turn, f->session, "Clean up", NULL);
  agent_test_wait_until (have_approval, &approver);

  /* Nothing runs while the user thinks */
  g_assert_cmpuint (runs, ==, 0);
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 1);

  thread = g_thread_new ("user", allow_later, g_ptr_array_index (approver.approvals, 0));
  agent_test_turn_wait (&f->turn);
  g_thread_join (thread);

  g_assert_no_error (f->turn.error);
  g_assert_cmpuint (runs, ==, 1);
  g_ptr_array_unref (approver.approvals);
}

static void
test_approval_cancelled (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  Approver approver = { 0 };
  AgentToolApproval *approval;

  setup_approval (f, &approver, TRUE, -1);
  agent_test_turn_send (&f->turn, f->session, "Clean up", cancellable);
  agent_test_wait_until (have_approval, &approver);

  approval = g_ptr_array_index (approver.approvals, 0);
  g_assert_false (g_cancellable_is_cancelled (agent_tool_approval_get_cancellable (approval)));
  g_cancellable_cancel (cancellable);
  agent_test_turn_wait (&f->turn);

  g_assert_error (f->turn.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  /* The question was withdrawn, the call answered "cancelled", no tool ran */
  g_assert_true (g_cancellable_is_cancelled (agent_tool_approval_get_cancellable (approval)));
  g_assert_cmpuint (runs, ==, 0);
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 1);
  g_assert_cmpuint (memory_length (f), ==, 3);
  assert_memory_consistent (f);

  /* A late answer is ignored, and an allow says so */
  g_test_expect_message ("Agent", G_LOG_LEVEL_WARNING,
                         "The call of tool “delete_all” was allowed after it was over*");
  agent_tool_approval_allow (approval);
  g_test_assert_expected_messages ();
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpuint (runs, ==, 0);
  g_ptr_array_unref (approver.approvals);
}

/* A handler that says it will answer, and lets the approval go */
static gboolean
forgetful_approve_cb (AgentSession      *session,
                      AgentToolCall     *call,
                      AgentToolApproval *approval,
                      gpointer           data)
{
  return TRUE;
}

static void
test_approval_dropped (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(AgentTool) tool = guarded_tool_new ();
  AgentToolCall *call;

  runs = 0;
  agent_session_add_tool (f->session, tool);
  g_signal_connect (f->session, "approve-tool-call", G_CALLBACK (forgetful_approve_cb), NULL);
  add_calls (f, "delete_all", "{}", 1);
  add_answer (f, "OK.");

  agent_test_turn_run (&f->turn, f->session, "Clean up", NULL);

  /* Denied, not hung, and the tool did not run */
  g_assert_no_error (f->turn.error);
  g_assert_cmpuint (runs, ==, 0);
  g_assert_cmpstr (tool_message (f, 1, "c0"), ==,
                   "Not run: the approval was dropped without an answer");
  call = agent_message_get_tool_call (memory_message (f, 1), 0);
  g_assert_cmpint (agent_tool_call_get_state (call), ==, AGENT_TOOL_CALL_STATE_DENIED);
  assert_memory_consistent (f);
}

/* Hooks */

static char *
refuse_input_cb (AgentSession *session,
                 const char   *text,
                 gpointer      data)
{
  if (strstr (text, "password") != NULL)
    return g_strdup ("it contains a password");
  return NULL;
}

static void
test_hook_check_input (Fixture       *f,
                       gconstpointer  data)
{
  g_signal_connect (f->session, "check-input", G_CALLBACK (refuse_input_cb), NULL);

  agent_test_turn_run (&f->turn, f->session, "my password is hunter2", NULL);

  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_HOOK);
  g_assert_nonnull (strstr (f->turn.error->message, "it contains a password"));
  /* Nothing stored, nothing sent */
  g_assert_cmpuint (memory_length (f), ==, 0);
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 0);
  g_assert_false (agent_session_get_busy (f->session));

  /* Other input goes through */
  agent_test_turn_clear (&f->turn);
  add_answer (f, "Hi.");
  agent_test_turn_run (&f->turn, f->session, "hello", NULL);
  g_assert_no_error (f->turn.error);
}

static void
prepare_step_cb (AgentSession     *session,
                 AgentStepRequest *request,
                 guint            *calls)
{
  g_autoptr(AgentMessage) note = agent_message_new (AGENT_MESSAGE_ROLE_USER, "(injected)");

  (*calls)++;
  agent_step_request_set_system_prompt (request, "Be brief.");
  agent_step_request_set_model (request, "other-model");
  g_list_store_append (agent_step_request_get_messages (request), note);

  /* Offer no tools in the second step */
  if (agent_step_request_get_step (request) == 2)
    g_list_store_remove_all (agent_step_request_get_tools (request));
}

static void
test_hook_prepare_step (Fixture       *f,
                        gconstpointer  data)
{
  JsonObject *request;
  guint calls = 0;

  g_signal_connect (f->session, "prepare-step", G_CALLBACK (prepare_step_cb), &calls);

  add_calls (f, "calculator", "{\"expression\":\"1+1\"}", 1);
  add_answer (f, "2");
  agent_test_turn_run (&f->turn, f->session, "1+1?", NULL);

  g_assert_no_error (f->turn.error);
  g_assert_cmpuint (calls, ==, 2);

  request = agent_test_openai_get_request (f->server, 0);
  g_assert_cmpstr (json_object_get_string_member (request, "model"), ==, "other-model");
  g_assert_true (json_object_has_member (request, "tools"));
  g_assert_cmpstr (agent_test_openai_get_message_string (f->server, 0, 0, "content"), ==, "Be brief.");
  g_assert_cmpstr (agent_test_openai_get_last_user_content (f->server, 0), ==, "(injected)");

  request = agent_test_openai_get_request (f->server, 1);
  g_assert_false (json_object_has_member (request, "tools"));

  /* The memory is untouched: user, assistant, tool, assistant */
  g_assert_cmpuint (memory_length (f), ==, 4);
  g_assert_cmpstr (agent_message_get_content (memory_message (f, 0)), ==, "1+1?");
}

static AgentToolDecision *
block_cb (AgentSession  *session,
          AgentToolCall *call,
          gpointer       data)
{
  if (strstr (agent_tool_call_get_arguments (call), "rm -rf") != NULL)
    return agent_tool_decision_new_block ("destructive commands are not allowed");
  return agent_tool_decision_new_allow ();
}

/* A guard that gives no decision for "ls" */
static AgentToolDecision *
silent_cb (AgentSession  *session,
           AgentToolCall *call,
           gpointer       data)
{
  if (strstr (agent_tool_call_get_arguments (call), "ls") != NULL)
    return NULL;
  return agent_tool_decision_new_allow ();
}

static void
test_hook_check_tool_call (Fixture       *f,
                           gconstpointer  data)
{
  g_autoptr(AgentTool) shell = agent_tool_new ("shell", "Runs a command", NULL,
                                               counting_handler, NULL, NULL);
  const AgentTestToolChunk chunks[] = {
    { 0, "c0", "shell", "{\"command\":\"rm -rf /\"}" },
    { 1, "c1", "shell", "{\"command\":\"ls\"}" },
  };
  AgentToolCall *blocked;

  runs = 0;
  agent_session_add_tool (f->session, shell);
  g_signal_connect (f->session, "check-tool-call", G_CALLBACK (block_cb), NULL);

  agent_test_openai_add_tool_response (f->server, chunks, G_N_ELEMENTS (chunks), 1, 1);
  add_answer (f, "Listed.");
  agent_test_turn_run (&f->turn, f->session, "clean", NULL);

  g_assert_no_error (f->turn.error);
  g_assert_cmpuint (runs, ==, 1);
  g_assert_cmpstr (tool_message (f, 1, "c0"), ==, "Blocked: destructive commands are not allowed");
  g_assert_cmpstr (tool_message (f, 1, "c1"), ==, "ran");
  blocked = agent_message_get_tool_call (memory_message (f, 1), 0);
  g_assert_cmpint (agent_tool_call_get_state (blocked), ==, AGENT_TOOL_CALL_STATE_DENIED);
  g_assert_cmpint (agent_tool_call_get_duration (blocked), ==, -1);
}

/* The hook fails closed: a guard that gives no decision blocks the call,
 * even after another guard allowed it. */
static void
test_hook_check_tool_call_fails_closed (Fixture       *f,
                                        gconstpointer  data)
{
  g_autoptr(AgentTool) shell = agent_tool_new ("shell", "Runs a command", NULL,
                                               counting_handler, NULL, NULL);
  const AgentTestToolChunk chunks[] = {
    { 0, "c0", "shell", "{\"command\":\"ls\"}" },
    { 1, "c1", "shell", "{\"command\":\"pwd\"}" },
  };
  AgentToolCall *blocked;

  runs = 0;
  agent_session_add_tool (f->session, shell);
  g_signal_connect (f->session, "check-tool-call", G_CALLBACK (block_cb), NULL);
  g_signal_connect (f->session, "check-tool-call", G_CALLBACK (silent_cb), NULL);

  agent_test_openai_add_tool_response (f->server, chunks, G_N_ELEMENTS (chunks), 1, 1);
  add_answer (f, "Only pwd.");
  agent_test_turn_run (&f->turn, f->session, "where", NULL);

  g_assert_no_error (f->turn.error);
  g_assert_cmpuint (runs, ==, 1);
  g_assert_cmpstr (tool_message (f, 1, "c0"), ==,
                   "Blocked: the check-tool-call hook gave no decision");
  g_assert_cmpstr (tool_message (f, 1, "c1"), ==, "ran");
  blocked = agent_message_get_tool_call (memory_message (f, 1), 0);
  g_assert_cmpint (agent_tool_call_get_state (blocked), ==, AGENT_TOOL_CALL_STATE_DENIED);
  assert_memory_consistent (f);
}

static void
test_decision (void)
{
  g_autoptr(AgentToolDecision) allow = agent_tool_decision_new_allow ();
  g_autoptr(AgentToolDecision) block = agent_tool_decision_new_block ("no");
  g_autofree char *reason = NULL;
  gboolean allowed = TRUE;

  g_assert_true (agent_tool_decision_get_allowed (allow));
  g_assert_null (agent_tool_decision_get_reason (allow));
  g_assert_false (agent_tool_decision_get_allowed (block));
  g_assert_cmpstr (agent_tool_decision_get_reason (block), ==, "no");
  g_object_get (block, "allowed", &allowed, "reason", &reason, NULL);
  g_assert_false (allowed);
  g_assert_cmpstr (reason, ==, "no");
}

static char *
redact_cb (AgentSession  *session,
           AgentToolCall *call,
           gpointer       data)
{
  g_autoptr(GString) text = g_string_new (agent_tool_call_get_result (call));

  if (g_string_replace (text, "sk-12345", "[secret]", 0) == 0)
    return NULL;
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static gboolean
leaky_handler (AgentTool           *tool,
               AgentToolInvocation *invocation,
               gpointer             user_data,
               GError             **error)
{
  agent_tool_invocation_return_result (invocation, "key=sk-12345 ok");

  return TRUE;
}

static void
test_hook_filter_tool_result (Fixture       *f,
                              gconstpointer  data)
{
  g_autoptr(AgentTool) env = agent_tool_new ("env", "Shows the environment", NULL,
                                             leaky_handler, NULL, NULL);

  agent_session_add_tool (f->session, env);
  g_signal_connect (f->session, "filter-tool-result", G_CALLBACK (redact_cb), NULL);

  add_calls (f, "env", "{}", 1);
  add_answer (f, "Done.");
  agent_test_turn_run (&f->turn, f->session, "env?", NULL);

  g_assert_no_error (f->turn.error);
  g_assert_cmpstr (tool_message (f, 1, "c0"), ==, "key=[secret] ok");
  g_assert_cmpstr (agent_message_get_content (memory_message (f, 2)), ==, "key=[secret] ok");
  g_assert_cmpstr (agent_tool_call_get_result (agent_message_get_tool_call (memory_message (f, 1), 0)),
                   ==, "key=[secret] ok");
}

typedef struct
{
  guint         count;
  AgentMessage *message;
  GError       *error;
  AgentMetrics *metrics;
} Finished;

static void
turn_finished_cb (AgentSession *session,
                  AgentMessage *message,
                  const GError *error,
                  AgentMetrics *metrics,
                  Finished     *finished)
{
  finished->count++;
  g_clear_object (&finished->message);
  g_clear_error (&finished->error);
  g_clear_pointer (&finished->metrics, agent_metrics_unref);
  finished->message = message ? g_object_ref (message) : NULL;
  finished->error = error ? g_error_copy (error) : NULL;
  finished->metrics = agent_metrics_ref (metrics);
}

static void
test_hook_turn_finished (Fixture       *f,
                         gconstpointer  data)
{
  Finished finished = { 0 };
  AgentTestResponse *r;

  g_signal_connect (f->session, "turn-finished", G_CALLBACK (turn_finished_cb), &finished);

  add_answer (f, "Fine.");
  agent_test_turn_run (&f->turn, f->session, "ok?", NULL);
  g_assert_cmpuint (finished.count, ==, 1);
  g_assert_true (finished.message == f->turn.result);
  g_assert_null (finished.error);
  g_assert_cmpuint (agent_metrics_get_steps (finished.metrics), ==, 1);

  agent_test_turn_clear (&f->turn);
  r = agent_test_server_add_response (f->server, 500);
  agent_test_response_set_body (r, "text/plain", "no");
  agent_test_turn_run (&f->turn, f->session, "again?", NULL);
  g_assert_cmpuint (finished.count, ==, 2);
  g_assert_null (finished.message);
  g_assert_error (finished.error, AGENT_ERROR, AGENT_ERROR_HTTP);
  g_assert_nonnull (finished.metrics);

  g_clear_pointer (&finished.metrics, agent_metrics_unref);
  g_clear_error (&finished.error);
}

/* Limits */

static void
test_limit_steps (Fixture       *f,
                  gconstpointer  data)
{
  /* A model that never stops calling tools */
  agent_session_set_max_steps (f->session, 3);
  for (guint i = 0; i < 5; i++)
    add_calls (f, "calculator", "{\"expression\":\"1\"}", 1);

  agent_test_turn_run (&f->turn, f->session, "loop", NULL);

  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_LIMIT);
  g_assert_nonnull (strstr (f->turn.error->message, "max-steps"));
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 3);
  g_assert_cmpuint (memory_length (f), ==, 7);
  assert_memory_consistent (f);
}

static void
test_limit_tool_calls (Fixture       *f,
                       gconstpointer  data)
{
  agent_session_set_max_tool_calls (f->session, 3);
  add_calls (f, "calculator", "{\"expression\":\"1+1\"}", 2);
  add_calls (f, "calculator", "{\"expression\":\"2+2\"}", 2);
  add_answer (f, "never asked");

  agent_test_turn_run (&f->turn, f->session, "compute", NULL);

  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_LIMIT);
  g_assert_nonnull (strstr (f->turn.error->message, "max-tool-calls"));
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 2);
  /* user, 2 calls + 2 results, 2 calls + 2 results: the second not run */
  g_assert_cmpuint (memory_length (f), ==, 7);
  assert_memory_consistent (f);
  g_assert_cmpstr (agent_message_get_content (memory_message (f, 5)), ==, "4");
  g_assert_true (g_str_has_prefix (agent_message_get_content (memory_message (f, 6)),
                                   "Not run: the turn reached its limit of 3 tool calls"));
  g_assert_cmpuint (agent_metrics_get_tool_calls (agent_session_get_turn_metrics (f->session)), ==, 3);
}

/* A call whose arguments are not JSON does not run, so it does not count */
static void
test_limit_tool_calls_invalid_arguments (Fixture       *f,
                                         gconstpointer  data)
{
  static const AgentTestToolChunk chunks[] = {
    { 0, "c0", "calculator", "not json" },
    { 1, "c1", "calculator", "{\"expression\":\"1+1\"}" },
  };

  agent_session_set_max_tool_calls (f->session, 1);
  agent_test_openai_add_tool_response (f->server, chunks, G_N_ELEMENTS (chunks), 1, 1);
  add_answer (f, "Two.");

  agent_test_turn_run (&f->turn, f->session, "compute", NULL);

  g_assert_no_error (f->turn.error);
  g_assert_cmpstr (agent_message_get_content (f->turn.result), ==, "Two.");
  /* user, 2 calls, the refusal of the first, the result of the second, the answer */
  g_assert_cmpuint (memory_length (f), ==, 5);
  assert_memory_consistent (f);
  g_assert_nonnull (strstr (agent_message_get_content (memory_message (f, 2)), "JSON"));
  g_assert_cmpstr (agent_message_get_content (memory_message (f, 3)), ==, "2");
  g_assert_cmpuint (agent_metrics_get_tool_calls (agent_session_get_turn_metrics (f->session)), ==, 1);
}

static void
run_cut_off (Fixture    *f,
             const char *finish_reason)
{
  AgentTestResponse *r = agent_test_openai_begin (f->server, "");
  const AgentTestToolChunk chunk = { 0, "c0", "calculator", "{\"expression\":\"1+" };

  runs = 0;
  agent_test_openai_add_text (r, "Computing");
  agent_test_openai_add_tool_chunk (r, &chunk);
  agent_test_openai_add_end (r, finish_reason, 1, 1);

  agent_test_turn_run (&f->turn, f->session, "go", NULL);
}

static void
test_limit_cut_off (Fixture       *f,
                    gconstpointer  data)
{
  run_cut_off (f, "length");

  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_LIMIT);
  g_assert_nonnull (strstr (f->turn.error->message, "length"));
  /* The call never ran and is not in memory; the text stays */
  g_assert_cmpuint (f->finished->len, ==, 0);
  g_assert_cmpuint (memory_length (f), ==, 2);
  g_assert_cmpstr (agent_message_get_content (memory_message (f, 1)), ==, "Computing");
  g_assert_cmpuint (agent_message_get_n_tool_calls (memory_message (f, 1)), ==, 0);
  g_assert_cmpint (agent_message_get_state (memory_message (f, 1)), ==, AGENT_MESSAGE_STATE_INTERRUPTED);
  assert_memory_consistent (f);
}

static void
test_limit_filtered (Fixture       *f,
                     gconstpointer  data)
{
  run_cut_off (f, "content_filter");

  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_PROVIDER);
  g_assert_nonnull (strstr (f->turn.error->message, "content_filter"));
  g_assert_cmpuint (f->finished->len, ==, 0);
  assert_memory_consistent (f);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  ADD ("/control/approval/allowed", test_approval_allowed);
  ADD ("/control/approval/denied", test_approval_denied);
  ADD ("/control/approval/no-handler", test_approval_no_handler);
  ADD ("/control/approval/later-from-thread", test_approval_later_from_thread);
  ADD ("/control/approval/cancelled", test_approval_cancelled);
  ADD ("/control/approval/dropped", test_approval_dropped);
  ADD ("/control/hook/check-input", test_hook_check_input);
  ADD ("/control/hook/prepare-step", test_hook_prepare_step);
  ADD ("/control/hook/check-tool-call", test_hook_check_tool_call);
  ADD ("/control/hook/check-tool-call-fails-closed", test_hook_check_tool_call_fails_closed);
  g_test_add_func ("/control/hook/decision", test_decision);
  ADD ("/control/hook/filter-tool-result", test_hook_filter_tool_result);
  ADD ("/control/hook/turn-finished", test_hook_turn_finished);
  ADD ("/control/limit/steps", test_limit_steps);
  ADD ("/control/limit/tool-calls", test_limit_tool_calls);
  ADD ("/control/limit/tool-calls-invalid-arguments", test_limit_tool_calls_invalid_arguments);
  ADD ("/control/limit/cut-off", test_limit_cut_off);
  ADD ("/control/limit/filtered", test_limit_filtered);

  return g_test_run ();
}
