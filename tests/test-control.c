/* test-control.c — loop control: approval, hooks, limits, parallel tools,
 * timeouts, return-direct, progress, request slots and metrics, through
 * the public API against a real HTTP server
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

typedef struct
{
  AgentTestServer *server;
  AgentProvider   *provider;
  AgentSession    *session;
  AgentTestTurn    turn;
  GPtrArray       *finished;   /* ids of the calls, in tool-finished order */
} Fixture;

static void
tool_finished_cb (AgentSession  *session,
                  AgentToolCall *call,
                  Fixture       *f)
{
  g_ptr_array_add (f->finished, g_strdup (agent_tool_call_get_id (call)));
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(AgentTool) calculator = agent_calculator_tool_new ();

  f->server = agent_test_server_new ();
  f->provider = agent_test_openai_provider_new (f->server);
  f->session = agent_session_new (f->provider);
  agent_session_add_tool (f->session, calculator);
  f->finished = g_ptr_array_new_with_free_func (g_free);
  g_signal_connect (f->session, "tool-finished", G_CALLBACK (tool_finished_cb), f);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  agent_test_turn_clear (&f->turn);
  g_assert_finalize_object (f->session);
  g_assert_finalize_object (f->provider);
  agent_test_server_free (f->server);
  g_ptr_array_unref (f->finished);
}

static guint
memory_length (Fixture *f)
{
  return g_list_model_get_n_items (G_LIST_MODEL (agent_session_get_memory (f->session)));
}

static AgentMessage *
memory_message (Fixture *f,
                guint    index)
{
  g_autoptr(AgentMessage) message =
    g_list_model_get_item (G_LIST_MODEL (agent_session_get_memory (f->session)), index);

  g_assert_nonnull (message);
  return message;  /* the memory keeps it alive */
}

/* No assistant message in memory has a call without its result right
 * after it, in call order. */
static void
assert_memory_consistent (Fixture *f)
{
  guint n = memory_length (f);

  for (guint i = 0; i < n; i++)
    {
      AgentMessage *message = memory_message (f, i);

      for (guint c = 0; c < agent_message_get_n_tool_calls (message); c++)
        {
          AgentMessage *result;

          g_assert_cmpuint (i + 1 + c, <, n);
          result = memory_message (f, i + 1 + c);
          g_assert_cmpint (agent_message_get_role (result), ==, AGENT_MESSAGE_ROLE_TOOL);
          g_assert_cmpstr (agent_message_get_tool_call_id (result), ==,
                           agent_tool_call_get_id (agent_message_get_tool_call (message, c)));
        }
    }
}

static void
add_answer (Fixture    *f,
            const char *text)
{
  const char * const deltas[] = { text, NULL };

  agent_test_openai_add_text_response (f->server, deltas, 10, 5);
}

/* One step calling @name with @arguments, @n times (ids c0, c1, …) */
static void
add_calls (Fixture    *f,
           const char *name,
           const char *arguments,
           guint       n)
{
  g_autofree AgentTestToolChunk *chunks = g_new0 (AgentTestToolChunk, n);
  g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < n; i++)
    {
      g_ptr_array_add (ids, g_strdup_printf ("c%u", i));
      chunks[i].index = i;
      chunks[i].id = g_ptr_array_index (ids, i);
      chunks[i].name = name;
      chunks[i].arguments = arguments;
    }
  agent_test_openai_add_tool_response (f->server, chunks, n, 10, 5);
}

static const char *
tool_message (Fixture    *f,
              guint       request,
              const char *call_id)
{
  return agent_test_openai_tool_message_content (f->server, request, call_id);
}

/* A tool the test completes by hand */

typedef struct
{
  GPtrArray *invocations;
} Held;

static void
hold_handler (AgentTool           *tool,
              AgentToolInvocation *invocation,
              gpointer             user_data)
{
  Held *held = user_data;

  g_ptr_array_add (held->invocations, g_object_ref (invocation));
}

static AgentTool *
held_tool_new (const char *name,
               Held       *held)
{
  held->invocations = g_ptr_array_new_with_free_func (g_object_unref);
  return agent_tool_new (name, "Held by the test", NULL, hold_handler, held, NULL);
}

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

static void
counting_handler (AgentTool           *tool,
                  AgentToolInvocation *invocation,
                  gpointer             user_data)
{
  runs++;
  agent_tool_invocation_return_result (invocation, "ran");
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

  /* A late answer is ignored */
  agent_tool_approval_allow (approval);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpuint (runs, ==, 0);
  g_ptr_array_unref (approver.approvals);
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

static char *
block_cb (AgentSession  *session,
          AgentToolCall *call,
          gpointer       data)
{
  if (strstr (agent_tool_call_get_arguments (call), "rm -rf") != NULL)
    return g_strdup ("destructive commands are not allowed");
  return NULL;
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

static void
leaky_handler (AgentTool           *tool,
               AgentToolInvocation *invocation,
               gpointer             user_data)
{
  agent_tool_invocation_return_result (invocation, "key=sk-12345 ok");
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

/* Tools side by side */

typedef struct
{
  AgentToolInvocation *invocation;
  guint                order;
} Delayed;

static gboolean
complete_delayed (gpointer data)
{
  Delayed *delayed = data;
  g_autofree char *result = g_strdup_printf ("result %u", delayed->order);

  agent_tool_invocation_return_result (delayed->invocation, result);
  g_object_unref (delayed->invocation);
  g_free (delayed);
  return G_SOURCE_REMOVE;
}

static guint started_together;

/* The later the call, the sooner it finishes */
static void
reverse_handler (AgentTool           *tool,
                 AgentToolInvocation *invocation,
                 gpointer             user_data)
{
  Delayed *delayed = g_new0 (Delayed, 1);
  JsonObject *arguments = json_node_get_object (agent_tool_invocation_get_arguments (invocation));
  guint n = json_object_get_int_member (arguments, "n");

  started_together++;
  delayed->invocation = g_object_ref (invocation);
  delayed->order = n;
  g_timeout_add (10 + 10 * (8 - n), complete_delayed, delayed);
}

static void
test_parallel_eight (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(AgentTool) tool = agent_tool_new ("work", "Works", NULL, reverse_handler, NULL, NULL);
  AgentTestToolChunk chunks[16];
  g_autoptr(GPtrArray) strings = g_ptr_array_new_with_free_func (g_free);
  JsonArray *messages;

  started_together = 0;
  agent_session_add_tool (f->session, tool);

  /* Eight calls, their fragments interleaved */
  for (guint i = 0; i < 8; i++)
    {
      char *id = g_strdup_printf ("c%u", i);
      char *args = g_strdup_printf ("{\"n\":%u}", i);

      g_ptr_array_add (strings, id);
      g_ptr_array_add (strings, args);
      chunks[i] = (AgentTestToolChunk) { i, id, "work", "{\"n\":" };
      chunks[8 + i] = (AgentTestToolChunk) { i, NULL, NULL, args + 5 };
    }
  agent_test_openai_add_tool_response (f->server, chunks, 16, 1, 1);
  add_answer (f, "All done.");

  agent_test_turn_run (&f->turn, f->session, "work", NULL);

  g_assert_no_error (f->turn.error);
  g_assert_cmpuint (started_together, ==, 8);

  /* They finished last to first... */
  g_assert_cmpuint (f->finished->len, ==, 8);
  g_assert_cmpstr (g_ptr_array_index (f->finished, 0), ==, "c7");
  g_assert_cmpstr (g_ptr_array_index (f->finished, 7), ==, "c0");

  /* ...and were answered in call order */
  messages = agent_test_openai_get_messages (f->server, 1);
  g_assert_cmpuint (json_array_get_length (messages), ==, 10);
  for (guint i = 0; i < 8; i++)
    {
      JsonObject *message = json_array_get_object_element (messages, 2 + i);
      g_autofree char *id = g_strdup_printf ("c%u", i);
      g_autofree char *result = g_strdup_printf ("result %u", i);

      g_assert_cmpstr (json_object_get_string_member (message, "tool_call_id"), ==, id);
      g_assert_cmpstr (json_object_get_string_member (message, "content"), ==, result);
    }
  assert_memory_consistent (f);

  /* The turn's metrics count the eight runs */
  g_assert_cmpuint (agent_metrics_get_tool_calls (agent_message_get_turn_metrics (f->turn.result)), ==, 8);
  g_assert_cmpint (agent_metrics_get_tool_time (agent_message_get_turn_metrics (f->turn.result)), >, 0);
}

static void
test_tool_timeout (Fixture       *f,
                   gconstpointer  data)
{
  Held held = { 0 };
  g_autoptr(AgentTool) slow = held_tool_new ("slow", &held);
  const AgentTestToolChunk chunks[] = {
    { 0, "c0", "slow", "{}" },
    { 1, "c1", "calculator", "{\"expression\":\"6*7\"}" },
  };
  AgentToolInvocation *invocation;
  AgentToolCall *call;

  agent_session_set_tool_timeout (f->session, 0.2);
  agent_session_add_tool (f->session, slow);
  agent_test_openai_add_tool_response (f->server, chunks, G_N_ELEMENTS (chunks), 1, 1);
  add_answer (f, "One timed out.");

  agent_test_turn_run (&f->turn, f->session, "go", NULL);

  g_assert_no_error (f->turn.error);
  g_assert_cmpstr (tool_message (f, 1, "c0"), ==, "The tool timed out after 0.2 s");
  g_assert_cmpstr (tool_message (f, 1, "c1"), ==, "42");

  /* The slow tool was told to stop; its late answer changes nothing */
  invocation = g_ptr_array_index (held.invocations, 0);
  g_assert_true (g_cancellable_is_cancelled (agent_tool_invocation_get_cancellable (invocation)));
  agent_tool_invocation_return_result (invocation, "too late");
  while (g_main_context_iteration (NULL, FALSE))
    ;
  call = agent_message_get_tool_call (memory_message (f, 1), 0);
  g_assert_cmpstr (agent_tool_call_get_result (call), ==, "The tool timed out after 0.2 s");
  g_assert_cmpint (agent_tool_call_get_state (call), ==, AGENT_TOOL_CALL_STATE_FAILED);
  g_assert_cmpint (agent_tool_call_get_duration (call), >=, 200000);
  g_ptr_array_unref (held.invocations);
}

/* A tool's own timeout wins over the session's */
static void
test_tool_timeout_per_tool (Fixture       *f,
                            gconstpointer  data)
{
  Held held = { 0 };
  g_autoptr(AgentTool) slow = held_tool_new ("slow", &held);

  agent_session_set_tool_timeout (f->session, 60);
  agent_tool_set_timeout (slow, 0.1);
  agent_session_add_tool (f->session, slow);
  add_calls (f, "slow", "{}", 1);
  add_answer (f, "ok");

  agent_test_turn_run (&f->turn, f->session, "go", NULL);

  g_assert_no_error (f->turn.error);
  g_assert_cmpstr (tool_message (f, 1, "c0"), ==, "The tool timed out after 0.1 s");
  g_ptr_array_unref (held.invocations);
}

static char *
blocking_body (AgentTool     *tool,
               JsonNode      *arguments,
               GCancellable  *cancellable,
               gpointer       user_data,
               GError       **error)
{
  JsonObject *object = json_node_get_object (arguments);
  gint64 ms = json_object_get_int_member (object, "ms");

  /* Sleeps in small pieces, watching its cancellable */
  for (gint64 slept = 0; slept < ms; slept += 5)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      g_usleep (5000);
    }

  if (g_thread_self () == user_data)
    return g_strdup ("ran on the main thread");
  return g_strdup_printf ("slept %" G_GINT64_FORMAT " ms", ms);
}

static void
test_blocking_tool (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(AgentTool) sleeper = agent_tool_new_blocking ("sleep", "Sleeps", NULL, blocking_body,
                                                          g_thread_self (), NULL);
  const AgentTestToolChunk chunks[] = {
    { 0, "c0", "sleep", "{\"ms\":30}" },
    { 1, "c1", "sleep", "{\"ms\":5000}" },
  };

  agent_session_set_tool_timeout (f->session, 0.3);
  agent_session_add_tool (f->session, sleeper);
  agent_test_openai_add_tool_response (f->server, chunks, G_N_ELEMENTS (chunks), 1, 1);
  add_answer (f, "ok");

  agent_test_turn_run (&f->turn, f->session, "sleep", NULL);

  g_assert_no_error (f->turn.error);
  g_assert_cmpstr (tool_message (f, 1, "c0"), ==, "slept 30 ms");
  g_assert_cmpstr (tool_message (f, 1, "c1"), ==, "The tool timed out after 0.3 s");
}

/* Return-direct */

static void
answer_handler (AgentTool           *tool,
                AgentToolInvocation *invocation,
                gpointer             user_data)
{
  agent_tool_invocation_return_result (invocation, user_data);
}

static void
test_return_direct (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(AgentTool) weather = agent_tool_new ("weather", "Weather", NULL, answer_handler,
                                                 (gpointer) "Sunny, 21 °C", NULL);
  g_autoptr(AgentTool) time = agent_tool_new ("time", "Time", NULL, answer_handler,
                                              (gpointer) "12:00", NULL);
  const AgentTestToolChunk chunks[] = {
    { 0, "c0", "weather", "{}" },
    { 1, "c1", "time", "{}" },
  };

  agent_tool_set_return_direct (weather, TRUE);
  agent_tool_set_return_direct (time, TRUE);
  agent_session_add_tool (f->session, weather);
  agent_session_add_tool (f->session, time);
  agent_test_openai_add_tool_response (f->server, chunks, G_N_ELEMENTS (chunks), 1, 1);

  agent_test_turn_run (&f->turn, f->session, "weather and time?", NULL);

  g_assert_no_error (f->turn.error);
  /* No second request: the results are the answer, in call order */
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 1);
  g_assert_cmpstr (agent_message_get_content (f->turn.result), ==, "Sunny, 21 °C\n\n12:00");
  g_assert_cmpint (agent_message_get_role (f->turn.result), ==, AGENT_MESSAGE_ROLE_ASSISTANT);
  g_assert_cmpuint (memory_length (f), ==, 5);
  g_assert_true (memory_message (f, 4) == f->turn.result);
  assert_memory_consistent (f);
}

static void
test_return_direct_mixed (Fixture       *f,
                          gconstpointer  data)
{
  g_autoptr(AgentTool) weather = agent_tool_new ("weather", "Weather", NULL, answer_handler,
                                                 (gpointer) "Sunny", NULL);
  const AgentTestToolChunk chunks[] = {
    { 0, "c0", "weather", "{}" },
    { 1, "c1", "calculator", "{\"expression\":\"2+2\"}" },
  };

  /* Not every tool of the step returns directly: the model is asked */
  agent_tool_set_return_direct (weather, TRUE);
  agent_session_add_tool (f->session, weather);
  agent_test_openai_add_tool_response (f->server, chunks, G_N_ELEMENTS (chunks), 1, 1);
  add_answer (f, "Sunny, and 4.");

  agent_test_turn_run (&f->turn, f->session, "weather and 2+2?", NULL);

  g_assert_no_error (f->turn.error);
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 2);
  g_assert_cmpstr (agent_message_get_content (f->turn.result), ==, "Sunny, and 4.");
}

/* Progress */

static gpointer
report_progress (gpointer data)
{
  AgentToolInvocation *invocation = data;

  for (guint i = 1; i <= 4; i++)
    {
      g_autofree char *text = g_strdup_printf ("part %u of 4", i);

      g_usleep (10000);
      agent_tool_invocation_report_progress (invocation, i / 4.0, text);
    }
  agent_tool_invocation_return_result (invocation, "all parts");
  g_object_unref (invocation);
  return NULL;
}

static void
progress_handler (AgentTool           *tool,
                  AgentToolInvocation *invocation,
                  gpointer             user_data)
{
  g_thread_unref (g_thread_new ("progress", report_progress, g_object_ref (invocation)));
}

typedef struct
{
  GThread *main_thread;
  double   last;
  guint    count;
  gboolean off_thread;
  gboolean backwards;
  char    *text;
} Progress;

static void
tool_progress_cb (AgentSession  *session,
                  AgentToolCall *call,
                  double         fraction,
                  const char    *text,
                  Progress      *progress)
{
  if (g_thread_self () != progress->main_thread)
    progress->off_thread = TRUE;
  if (fraction < progress->last)
    progress->backwards = TRUE;
  g_assert_cmpfloat (agent_tool_call_get_progress (call), ==, fraction);
  progress->last = fraction;
  progress->count++;
  g_free (progress->text);
  progress->text = g_strdup (text);
}

static void
test_progress (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(AgentTool) tool = agent_tool_new ("long", "Takes a while", NULL, progress_handler,
                                              NULL, NULL);
  Progress progress = { g_thread_self () };
  AgentToolCall *call;

  agent_session_add_tool (f->session, tool);
  g_signal_connect (f->session, "tool-progress", G_CALLBACK (tool_progress_cb), &progress);
  add_calls (f, "long", "{}", 1);
  add_answer (f, "Done.");

  agent_test_turn_run (&f->turn, f->session, "go", NULL);

  g_assert_no_error (f->turn.error);
  /* Reports may merge when they come faster than the main loop runs */
  g_assert_cmpuint (progress.count, >=, 1);
  g_assert_cmpuint (progress.count, <=, 4);
  g_assert_false (progress.off_thread);
  g_assert_false (progress.backwards);
  g_assert_cmpfloat (progress.last, ==, 1.0);
  g_assert_cmpstr (progress.text, ==, "part 4 of 4");
  call = agent_message_get_tool_call (memory_message (f, 1), 0);
  g_assert_cmpfloat (agent_tool_call_get_progress (call), ==, 1.0);
  g_assert_cmpstr (agent_tool_call_get_progress_text (call), ==, "part 4 of 4");
  g_assert_cmpstr (tool_message (f, 1, "c0"), ==, "all parts");
  g_free (progress.text);
}

/* Request slots */

static gboolean
n_requests_is (gpointer data)
{
  gpointer *args = data;

  return agent_test_server_get_n_requests (args[0]) == GPOINTER_TO_UINT (args[1]);
}

static void
wait_requests (Fixture *f,
               guint    n)
{
  gpointer args[2] = { f->server, GUINT_TO_POINTER (n) };

  agent_test_wait_until (n_requests_is, args);
}

static void
test_concurrency_limit (Fixture       *f,
                        gconstpointer  data)
{
  AgentSession *sessions[5];
  AgentTestTurn turns[5] = { { 0 } };
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();

  agent_provider_set_max_concurrent_requests (f->provider, 2);

  for (guint i = 0; i < 5; i++)
    {
      AgentTestResponse *r = agent_test_openai_begin (f->server, "");

      agent_test_response_add_wait (r);
      agent_test_openai_add_text (r, "done");
      agent_test_openai_add_end (r, "stop", 1, 1);
    }

  for (guint i = 0; i < 5; i++)
    {
      sessions[i] = agent_session_new (f->provider);
      agent_test_turn_send (&turns[i], sessions[i], "hi", i == 4 ? cancellable : NULL);
    }

  /* Two go, three wait their turn */
  wait_requests (f, 2);
  for (guint i = 0; i < 20; i++)
    g_main_context_iteration (NULL, FALSE);
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 2);

  /* One waiting is cancelled: it never sends */
  g_cancellable_cancel (cancellable);
  agent_test_turn_wait (&turns[4]);
  g_assert_error (turns[4].error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

  /* Releasing the answers lets the others in, two at a time */
  while (agent_test_server_get_n_requests (f->server) < 4)
    {
      agent_test_server_release (f->server);
      g_main_context_iteration (NULL, TRUE);
    }
  for (guint i = 0; i < 4; i++)
    {
      while (!turns[i].finished)
        {
          agent_test_server_release (f->server);
          g_main_context_iteration (NULL, TRUE);
        }
      g_assert_no_error (turns[i].error);
    }

  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 4);

  /* The sessions that waited say so in their metrics */
  {
    gint64 waited = 0;

    for (guint i = 0; i < 4; i++)
      waited += agent_metrics_get_wait_time (agent_message_get_metrics (turns[i].result));
    g_assert_cmpint (waited, >, 0);
  }

  for (guint i = 0; i < 5; i++)
    {
      agent_test_turn_clear (&turns[i]);
      g_assert_finalize_object (sessions[i]);
    }
}

/* Metrics */

static void
test_metrics (Fixture       *f,
              gconstpointer  data)
{
  const char * const deltas[] = { "a", "b", "c", NULL };
  AgentTestResponse *r;
  AgentMetrics *step;
  AgentMetrics *turn;
  AgentMessage *first;

  add_calls (f, "calculator", "{\"expression\":\"1\"}", 1);
  r = agent_test_openai_begin (f->server, "");
  agent_test_openai_add_text (r, deltas[0]);
  agent_test_response_add_delay (r, 30);
  agent_test_openai_add_text (r, deltas[1]);
  agent_test_openai_add_text (r, deltas[2]);
  agent_test_openai_add_end (r, "stop", 100, 40);

  agent_test_turn_run (&f->turn, f->session, "go", NULL);
  g_assert_no_error (f->turn.error);

  /* The first step: one call, its usage */
  first = memory_message (f, 1);
  step = agent_message_get_metrics (first);
  g_assert_nonnull (step);
  g_assert_cmpuint (agent_metrics_get_steps (step), ==, 1);
  g_assert_cmpuint (agent_metrics_get_tool_calls (step), ==, 1);
  g_assert_cmpint (agent_usage_get_total_tokens (agent_metrics_get_usage (step)), ==, 15);

  /* The last step streamed over 30 ms */
  step = agent_message_get_metrics (f->turn.result);
  g_assert_cmpint (agent_metrics_get_time_to_first_token (step), >=, 0);
  g_assert_cmpint (agent_metrics_get_duration (step), >=, 30000);
  g_assert_cmpint (agent_metrics_get_duration (step), >=, agent_metrics_get_time_to_first_token (step));
  g_assert_cmpfloat (agent_metrics_get_tokens_per_second (step), >, 0);
  /* 40 tokens over at most the whole step: a lower bound that cannot lie */
  g_assert_cmpfloat (agent_metrics_get_tokens_per_second (step), >=,
                     40 / (agent_metrics_get_duration (step) / 1e6));

  /* The turn: two steps, usage summed, one tool run */
  turn = agent_message_get_turn_metrics (f->turn.result);
  g_assert_nonnull (turn);
  g_assert_true (turn == agent_session_get_turn_metrics (f->session));
  g_assert_cmpuint (agent_metrics_get_steps (turn), ==, 2);
  g_assert_cmpint (agent_usage_get_prompt_tokens (agent_metrics_get_usage (turn)), ==, 110);
  g_assert_cmpint (agent_usage_get_completion_tokens (agent_metrics_get_usage (turn)), ==, 45);
  g_assert_cmpuint (agent_metrics_get_tool_calls (turn), ==, 1);
  g_assert_cmpint (agent_metrics_get_tool_time (turn), >=, 0);
  g_assert_cmpint (agent_metrics_get_duration (turn), >=, agent_metrics_get_duration (step));
  g_assert_cmpint (agent_metrics_get_time_to_first_token (turn), ==,
                   agent_metrics_get_time_to_first_token (agent_message_get_metrics (first)));
  g_assert_null (agent_message_get_turn_metrics (first));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("/control/approval/allowed", test_approval_allowed);
  ADD ("/control/approval/denied", test_approval_denied);
  ADD ("/control/approval/no-handler", test_approval_no_handler);
  ADD ("/control/approval/later-from-thread", test_approval_later_from_thread);
  ADD ("/control/approval/cancelled", test_approval_cancelled);
  ADD ("/control/hook/check-input", test_hook_check_input);
  ADD ("/control/hook/prepare-step", test_hook_prepare_step);
  ADD ("/control/hook/check-tool-call", test_hook_check_tool_call);
  ADD ("/control/hook/filter-tool-result", test_hook_filter_tool_result);
  ADD ("/control/hook/turn-finished", test_hook_turn_finished);
  ADD ("/control/limit/steps", test_limit_steps);
  ADD ("/control/limit/tool-calls", test_limit_tool_calls);
  ADD ("/control/limit/tool-calls-invalid-arguments", test_limit_tool_calls_invalid_arguments);
  ADD ("/control/limit/cut-off", test_limit_cut_off);
  ADD ("/control/limit/filtered", test_limit_filtered);
  ADD ("/control/tools/eight-in-parallel", test_parallel_eight);
  ADD ("/control/tools/timeout", test_tool_timeout);
  ADD ("/control/tools/timeout-per-tool", test_tool_timeout_per_tool);
  ADD ("/control/tools/blocking", test_blocking_tool);
  ADD ("/control/tools/return-direct", test_return_direct);
  ADD ("/control/tools/return-direct-mixed", test_return_direct_mixed);
  ADD ("/control/tools/progress", test_progress);
  ADD ("/control/concurrency-limit", test_concurrency_limit);
  ADD ("/control/metrics", test_metrics);

  return g_test_run ();
}
