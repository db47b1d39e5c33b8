/* test-store.c — AgentConversation as a session's memory, in a real SQLite file
 *
 * Every case writes through the public API and reads back through another
 * AgentStore on the same file (another connection, as another process
 * would), comparing every field of every message.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <agent.h>

#include "agent-test-openai.h"
#include "agent-test-server.h"
#include "agent-test-turn.h"
#include "agent-test-util.h"
#include "test-store-util.h"

#define API_KEY "sk-test-NEVER-STORED-4242"

typedef struct
{
  TestStore          db;
  AgentTestServer   *server;
  AgentProvider     *provider;
  AgentSession      *session;
  AgentConversation *conversation;
  AgentTestTurn      turn;
  guint              n_seen_at_tool_start;
  guint              n_seen_at_second_step;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(AgentTool) calculator = agent_calculator_tool_new ();

  test_store_open (&f->db);
  f->server = agent_test_server_new ();
  f->provider = agent_test_openai_provider_new (f->server);
  agent_provider_set_api_key (f->provider, API_KEY);
  f->session = agent_session_new (f->provider);
  agent_session_add_tool (f->session, calculator);
  f->conversation = agent_store_create_conversation (f->db.store);
  agent_session_set_memory (f->session, AGENT_MEMORY (f->conversation));
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  agent_test_turn_clear (&f->turn);
  test_store_flush (f->db.store);
  g_assert_finalize_object (f->session);
  g_assert_finalize_object (f->provider);
  g_clear_object (&f->db.store);  /* its list holds the conversation */
  g_assert_finalize_object (f->conversation);
  agent_test_server_free (f->server);
  test_store_assert_sound (f->db.path);
  test_store_close (&f->db);
}

/* Conversation @f->conversation as another connection reads it */
static AgentConversation *
read_back (Fixture     *f,
           AgentStore **store)
{
  test_store_flush (f->db.store);
  return test_store_read_back (&f->db, agent_conversation_get_id (f->conversation), store);
}

static void
assert_read_back_equal (Fixture *f)
{
  g_autoptr(AgentStore) store = NULL;
  g_autoptr(AgentConversation) copy = read_back (f, &store);

  test_store_assert_same_messages (G_LIST_MODEL (f->conversation), G_LIST_MODEL (copy));
}

static void
append (Fixture      *f,
        AgentMessage *message)
{
  g_autoptr(GError) error = NULL;

  agent_memory_append (AGENT_MEMORY (f->conversation), message, &error);
  g_assert_no_error (error);
  g_object_unref (message);
}

/* Every kind of message, and every field a message can hold */
static void
test_round_trip (Fixture       *f,
                 gconstpointer  data)
{
  static const char provider_data[] =
    "{\"anthropic\":{\"thinking\":[{\"type\":\"thinking\",\"thinking\":\"Hm…\","
    "\"signature\":\"EqQBCkYIARgCIkB/+=\\u0000\\\"\\n✓\"}]},"
    "\"openai-responses\":{\"reasoning\":{\"id\":\"rs_1\",\"encrypted_content\":\"gAAAAB==\"}},"
    "\"numbers\":[0.1,1e300,-2,9007199254740993,true,null,{}]}";
  g_autoptr(JsonNode) data_node = agent_test_parse_json (provider_data);
  g_autoptr(JsonNode) raw_usage = agent_test_parse_json (
    "{\"prompt_tokens\":11,\"completion_tokens\":7,\"total_tokens\":18,"
    "\"completion_tokens_details\":{\"reasoning_tokens\":3},"
    "\"prompt_tokens_details\":{\"cached_tokens\":5},\"cost\":0.25}");
  g_autoptr(AgentUsage) usage = agent_usage_new_from_json (raw_usage);
  g_autoptr(AgentToolCall) call = agent_tool_call_new ("toolu_1", "calculator",
                                                       "{\"expression\": \"1 + 1\" }");
  g_autoptr(GDateTime) when = g_date_time_new_utc (2024, 2, 29, 23, 59, 59.123456);
  AgentMessage *assistant;
  guint n;

  g_assert_cmpint (agent_conversation_get_id (f->conversation), ==, 0);

  append (f, agent_message_new (AGENT_MESSAGE_ROLE_SYSTEM, "Answer briefly."));
  /* The id comes with the commit, from the store's writer thread */
  test_store_flush (f->db.store);
  g_assert_cmpint (agent_conversation_get_id (f->conversation), >, 0);
  append (f, g_object_new (AGENT_TYPE_MESSAGE, "role", AGENT_MESSAGE_ROLE_USER,
                           "content", "Ünïcödé ✓ \"quotes\" 'and' <tags>\n\ttabs",
                           "created", when, NULL));
  append (f, agent_message_new (AGENT_MESSAGE_ROLE_USER, ""));

  /* Content NULL (only calls), reasoning, refusal, everything else */
  agent_tool_call_set_provider_data (call, data_node);
  assistant = g_object_new (AGENT_TYPE_MESSAGE,
                            "role", AGENT_MESSAGE_ROLE_ASSISTANT,
                            "reasoning", "Thinking, with a signature.",
                            "refusal", "Not that part.",
                            "finish-reason", "tool_use",
                            "usage", usage,
                            "response-id", "msg_01",
                            "model", "claude-test",
                            "provider-data", data_node,
                            NULL);
  agent_message_add_tool_call (assistant, call);
  append (f, assistant);
  append (f, agent_message_new_tool_result ("toolu_1", "calculator", "2", FALSE));

  /* A failed call, and a result with no tool name */
  append (f, agent_message_new_tool_result ("toolu_x", NULL, "No such tool", TRUE));

  g_assert_cmpstr (agent_conversation_get_title (f->conversation), ==,
                   "Ünïcödé ✓ \"quotes\" 'and' <tags>");

  /* A real turn: streamed reasoning, calls run by the session (states,
   * results, durations), usage, metrics and the turn's metrics */
  test_store_add_tool_turn (f->server, "4 and 42.");
  agent_test_turn_run (&f->turn, f->session, "What is 2+2 and 6*7?", NULL);
  g_assert_no_error (f->turn.error);

  n = g_list_model_get_n_items (G_LIST_MODEL (f->conversation));
  g_assert_cmpuint (n, ==, 11);
  g_assert_nonnull (agent_message_get_turn_metrics (f->turn.result));
  assert_read_back_equal (f);

  /* The provider's data, byte for byte as json-glib writes it */
  {
    g_autoptr(AgentStore) store = NULL;
    g_autoptr(AgentConversation) copy = read_back (f, &store);
    g_autoptr(AgentMessage) message = g_list_model_get_item (G_LIST_MODEL (copy), 3);
    g_autofree char *expected = json_to_string (data_node, FALSE);
    g_autofree char *actual = json_to_string (agent_message_get_provider_data (message), FALSE);
    g_autofree char *call_data = NULL;

    g_assert_cmpstr (actual, ==, expected);
    call_data = json_to_string (agent_tool_call_get_provider_data (agent_message_get_tool_call (message, 0)), FALSE);
    g_assert_cmpstr (call_data, ==, expected);
    g_assert_null (agent_message_get_content (message));
    g_assert_cmpint (agent_usage_get_cached_tokens (agent_message_get_usage (message)), ==, 5);
  }

  /* The key the provider sent is nowhere in the files */
  g_assert_false (test_store_file_contains (f->db.path, API_KEY));
  g_assert_true (test_store_file_contains (f->db.path, "6*7"));
}

static void
count_at_tool_start_cb (AgentSession  *session,
                        AgentToolCall *call,
                        Fixture       *f)
{
  g_autoptr(AgentStore) store = NULL;
  g_autoptr(AgentConversation) copy = read_back (f, &store);

  f->n_seen_at_tool_start = g_list_model_get_n_items (G_LIST_MODEL (copy));
}

static void
count_at_prepare_step_cb (AgentSession     *session,
                          AgentStepRequest *request,
                          Fixture          *f)
{
  g_autoptr(AgentStore) store = NULL;
  g_autoptr(AgentConversation) copy = NULL;

  if (agent_step_request_get_step (request) != 2)
    return;
  copy = read_back (f, &store);
  f->n_seen_at_second_step = g_list_model_get_n_items (G_LIST_MODEL (copy));
}

/* The user's message is written at once; the assistant's message with its
 * calls only with all the results, before the next request. */
static void
test_commit_points (Fixture       *f,
                    gconstpointer  data)
{
  test_store_add_tool_turn (f->server, "Done.");
  g_signal_connect (f->session, "tool-started", G_CALLBACK (count_at_tool_start_cb), f);
  g_signal_connect (f->session, "prepare-step", G_CALLBACK (count_at_prepare_step_cb), f);

  agent_test_turn_run (&f->turn, f->session, "Compute.", NULL);
  g_assert_no_error (f->turn.error);

  g_assert_cmpuint (f->n_seen_at_tool_start, ==, 1);
  g_assert_cmpuint (f->n_seen_at_second_step, ==, 4);
  assert_read_back_equal (f);
}

static gboolean
partial_arrived (gpointer data)
{
  Fixture *f = data;
  AgentMessage *current = agent_session_get_current_message (f->session);

  return current != NULL && g_strcmp0 (agent_message_get_content (current), "The first half") == 0;
}

/* A cancelled answer is kept, marked interrupted; a new session on the
 * conversation read back sends it, and goes on. */
static void
test_interrupted_then_continued (Fixture       *f,
                                 gconstpointer  data)
{
  static const char * const first[] = { "Hello.", NULL };
  static const char * const after[] = { "The second half.", NULL };
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(AgentStore) store = NULL;
  g_autoptr(AgentConversation) copy = NULL;
  g_autoptr(AgentMessage) last = NULL;
  g_autoptr(AgentSession) session = NULL;
  AgentTestResponse *response;
  AgentTestTurn turn = { 0 };
  JsonObject *message;

  agent_test_openai_add_text_response (f->server, first, 5, 2);
  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);
  g_assert_no_error (f->turn.error);

  response = agent_test_openai_begin (f->server, "");
  agent_test_openai_add_text (response, "The first half");
  agent_test_response_add_wait (response);
  agent_test_turn_send (&f->turn, f->session, "Tell me a story", cancellable);
  agent_test_wait_until (partial_arrived, f);
  g_cancellable_cancel (cancellable);
  agent_test_turn_wait (&f->turn);
  g_assert_error (f->turn.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  agent_test_server_release (f->server);

  copy = read_back (f, &store);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (copy)), ==, 4);
  last = g_list_model_get_item (G_LIST_MODEL (copy), 3);
  g_assert_cmpint (agent_message_get_state (last), ==, AGENT_MESSAGE_STATE_INTERRUPTED);
  g_assert_cmpstr (agent_message_get_content (last), ==, "The first half");
  test_store_assert_same_messages (G_LIST_MODEL (f->conversation), G_LIST_MODEL (copy));

  /* Continue from what was read back */
  agent_test_openai_add_text_response (f->server, after, 20, 4);
  session = agent_session_new (f->provider);
  agent_session_set_memory (session, AGENT_MEMORY (copy));
  agent_test_turn_run (&turn, session, "Go on", NULL);
  g_assert_no_error (turn.error);
  agent_test_turn_clear (&turn);

  g_assert_cmpstr (agent_test_openai_get_message_string (f->server, 2, 3, "content"), ==,
                   "The first half");
  message = agent_test_openai_get_message (f->server, 2, 4);
  g_assert_cmpstr (json_object_get_string_member (message, "content"), ==, "Go on");
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (copy)), ==, 6);

  test_store_flush (store);
  g_clear_object (&session);
  g_clear_object (&store);
  g_clear_object (&copy);
  copy = read_back (f, &store);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (copy)), ==, 6);
}

static void
continue_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  AgentTestTurn *turn = user_data;

  agent_test_turn_clear (turn);
  turn->result = agent_session_continue_finish (AGENT_SESSION (object), result, &turn->error);
  turn->finished = TRUE;
}

/* Regenerating: the old answer stays in the file, as a branch */
static void
test_truncate (Fixture       *f,
               gconstpointer  data)
{
  static const char * const one[] = { "One.", NULL };
  static const char * const two[] = { "Two.", NULL };
  static const char * const again[] = { "Two, again.", NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *count = NULL;

  agent_test_openai_add_text_response (f->server, one, 5, 2);
  agent_test_openai_add_text_response (f->server, two, 5, 2);
  agent_test_openai_add_text_response (f->server, again, 5, 2);
  agent_test_turn_run (&f->turn, f->session, "First", NULL);
  agent_test_turn_run (&f->turn, f->session, "Second", NULL);
  g_assert_no_error (f->turn.error);

  agent_test_turn_clear (&f->turn);
  agent_memory_truncate (AGENT_MEMORY (f->conversation), 3, &error);
  g_assert_no_error (error);
  test_store_flush (f->db.store);
  count = test_store_query (f->db.path, "SELECT count(*) FROM messages");
  g_assert_cmpstr (count, ==, "4");

  agent_session_continue_async (f->session, NULL, continue_cb, &f->turn);
  agent_test_turn_wait (&f->turn);
  g_assert_no_error (f->turn.error);
  g_assert_cmpstr (agent_message_get_content (f->turn.result), ==, "Two, again.");

  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (f->conversation)), ==, 4);
  g_assert_cmpuint (agent_memory_get_n_siblings (AGENT_MEMORY (f->conversation), 3), ==, 2);
  assert_read_back_equal (f);
}

static void
break_the_file_cb (AgentSession  *session,
                   AgentToolCall *call,
                   Fixture       *f)
{
  /* Another process deletes the conversation under the session */
  test_store_exec (f->db.path, "PRAGMA foreign_keys = ON; DELETE FROM conversations");
}

static void
write_failed_cb (AgentConversation *conversation,
                 const GError      *error,
                 GError           **seen)
{
  g_assert_null (*seen);
  *seen = g_error_copy (error);
}

/* A write that fails (here another process deleted the conversation, so
 * the tool results' transaction breaks its foreign key) is reported once
 * by AgentConversation::write-failed, fails the turn before its next
 * request (which waits for the write), and is told by the next flush;
 * from then on nothing more is written: the next turn fails before
 * anything is sent, and the file keeps what was written before. */
static void
test_write_failure (Fixture       *f,
                    gconstpointer  data)
{
  static const char * const never[] = { "Never sent.", NULL };
  g_autoptr(GError) failed = NULL;
  g_autoptr(GError) flushed = NULL;
  g_autofree char *count = NULL;
  guint n_requests;

  g_signal_connect (f->conversation, "write-failed", G_CALLBACK (write_failed_cb), &failed);
  test_store_add_tool_turn (f->server, "Unreached.");
  g_signal_connect (f->session, "tool-started", G_CALLBACK (break_the_file_cb), f);
  agent_test_turn_run (&f->turn, f->session, "Compute.", NULL);
  /* The next step waited for the results to be in: it is never sent */
  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_STORAGE);
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 1);
  g_assert_cmpstr (f->turn.error->message, ==, failed->message);

  g_assert_false (test_store_try_flush (f->db.store, &flushed));
  g_assert_error (flushed, AGENT_ERROR, AGENT_ERROR_STORAGE);
  g_assert_error (failed, AGENT_ERROR, AGENT_ERROR_STORAGE);
  agent_test_assert_contains (failed->message, f->db.path);
  g_assert_cmpstr (failed->message, ==, flushed->message);

  /* The next user message cannot be written either: nothing is sent */
  n_requests = agent_test_server_get_n_requests (f->server);
  g_signal_handlers_disconnect_by_data (f->session, f);
  agent_test_openai_add_text_response (f->server, never, 1, 1);
  agent_test_turn_run (&f->turn, f->session, "Again", NULL);
  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_STORAGE);
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, n_requests);

  /* Nothing after the failure went in; the flush after it has nothing to say */
  test_store_flush (f->db.store);
  count = test_store_query (f->db.path, "SELECT count(*) FROM messages");
  g_assert_cmpstr (count, ==, "0");
  g_signal_handlers_disconnect_by_data (f->conversation, &failed);
}

/* Markdown for people, JSON with every field; no key in either */
/* What the session holds the conversation with is recorded, read back
 * from the file, and written again only when it changed; never the key. */
static void
test_record_session (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AgentStore) other = NULL;
  g_autoptr(AgentConversation) again = NULL;
  g_autofree char *settings = NULL;
  g_autofree char *expected = NULL;
  guint n_notified = 0;

  agent_provider_set_model (f->provider, "test-model");
  agent_session_set_system_prompt (f->session, "Be brief.");
  g_signal_connect (f->conversation, "notify::settings", G_CALLBACK (agent_test_count_notify),
                    &n_notified);

  g_assert_true (agent_conversation_record_session (f->conversation, f->session, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n_notified, ==, 1);
  g_assert_true (agent_conversation_record_session (f->conversation, f->session, &error));
  g_assert_cmpuint (n_notified, ==, 1);

  /* A message gives the conversation its row; then read it back */
  agent_test_openai_add_text_response (f->server, (const char *[]) { "Hello.", NULL }, 1, 1);
  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);
  g_assert_no_error (f->turn.error);
  again = read_back (f, &other);
  g_assert_cmpstr (agent_conversation_get_provider (again), ==, "openai");
  g_assert_cmpstr (agent_conversation_get_model (again), ==, "test-model");
  settings = json_to_string (agent_conversation_get_settings (again), FALSE);
  expected = g_strdup_printf ("{\"base-url\":\"%s\",\"system-prompt\":\"Be brief.\","
                              "\"tools\":[\"calculator\"]}",
                              agent_provider_get_base_url (f->provider));
  g_assert_cmpstr (settings, ==, expected);
  g_assert_null (strstr (settings, API_KEY));

  /* Changed: written again */
  agent_session_set_system_prompt (f->session, NULL);
  g_assert_true (agent_conversation_record_session (f->conversation, f->session, &error));
  g_assert_cmpuint (n_notified, ==, 2);
  g_assert_false (json_object_has_member (json_node_get_object (agent_conversation_get_settings (f->conversation)),
                                          "system-prompt"));
  g_signal_handlers_disconnect_by_data (f->conversation, &n_notified);
}

/* Members the application keeps in the settings (agent-chat's tools
 * allowed, model picked, title asked) stay when a session is recorded, as
 * agent-cli --continue does on a conversation the app made; the members
 * record_session() owns are replaced, or removed when unset. */
static void
test_record_session_keeps_members (Fixture       *f,
                                   gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AgentStore) other = NULL;
  g_autoptr(AgentConversation) again = NULL;
  g_autoptr(JsonNode) app = agent_test_parse_json (
    "{\"allowed-tools\":[\"calculator\"],\"picked-model\":\"big\",\"title-asked\":true,"
    "\"base-url\":\"http://old.example/v1\",\"system-prompt\":\"Old.\",\"tools\":[]}");
  JsonObject *object;

  g_assert_true (agent_conversation_set_settings (f->conversation, app, &error));
  g_assert_no_error (error);
  agent_session_set_system_prompt (f->session, NULL);
  g_assert_true (agent_conversation_record_session (f->conversation, f->session, &error));
  g_assert_no_error (error);

  agent_test_openai_add_text_response (f->server, (const char *[]) { "Hello.", NULL }, 1, 1);
  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);
  g_assert_no_error (f->turn.error);

  again = read_back (f, &other);
  object = json_node_get_object (agent_conversation_get_settings (again));
  g_assert_cmpstr (json_array_get_string_element (json_object_get_array_member (object,
                                                                                "allowed-tools"),
                                                  0), ==, "calculator");
  g_assert_cmpstr (json_object_get_string_member (object, "picked-model"), ==, "big");
  g_assert_true (json_object_get_boolean_member (object, "title-asked"));
  g_assert_cmpstr (json_object_get_string_member (object, "base-url"), ==,
                   agent_provider_get_base_url (f->provider));
  g_assert_false (json_object_has_member (object, "system-prompt"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (object, "tools")), ==, 1);
}

static void
test_export (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *markdown = NULL;
  g_autofree char *json = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonObject *object;
  JsonArray *messages;
  JsonObject *assistant;

  test_store_add_tool_turn (f->server, "4 and 42, in ```code```.");
  agent_test_turn_run (&f->turn, f->session, "What is 2+2 and 6*7?\nThanks.", NULL);
  g_assert_no_error (f->turn.error);
  agent_conversation_set_model (f->conversation, "openai", "test-model", &error);
  g_assert_no_error (error);

  markdown = agent_conversation_export (f->conversation, AGENT_EXPORT_FORMAT_MARKDOWN, &error);
  g_assert_no_error (error);
  agent_test_assert_contains (markdown, "# What is 2+2 and 6*7?\n");
  agent_test_assert_contains (markdown, " · openai · test-model*\n");
  agent_test_assert_contains (markdown, "## You\n\nWhat is 2+2 and 6*7?\nThanks.\n\n## Assistant\n");
  agent_test_assert_contains (markdown, "> **Reasoning**\n>\n> Two sums: use the tool.\n");
  agent_test_assert_contains (markdown, "**Tool call** `calculator`\n\n```json\n{\"expression\":\"6*7\"}\n```");
  agent_test_assert_contains (markdown, "## Tool result: `calculator`\n\n```\n42\n```");
  agent_test_assert_contains (markdown, "4 and 42, in ```code```.");
  g_assert_null (strstr (markdown, API_KEY));

  json = agent_conversation_export (f->conversation, AGENT_EXPORT_FORMAT_JSON, &error);
  g_assert_no_error (error);
  g_assert_null (strstr (json, API_KEY));
  root = agent_test_parse_json (json);
  object = json_node_get_object (root);
  g_assert_cmpstr (json_object_get_string_member (object, "format"), ==, "libagent-conversation");
  g_assert_cmpint (json_object_get_int_member (object, "id"), ==,
                   agent_conversation_get_id (f->conversation));
  g_assert_cmpstr (json_object_get_string_member (object, "model"), ==, "test-model");
  messages = json_object_get_array_member (object, "messages");
  g_assert_cmpuint (json_array_get_length (messages), ==, 5);
  assistant = json_array_get_object_element (messages, 1);
  g_assert_cmpstr (json_object_get_string_member (assistant, "role"), ==, "assistant");
  g_assert_cmpstr (json_object_get_string_member (assistant, "reasoning"), ==,
                   "Two sums: use the tool.");
  g_assert_cmpstr (json_object_get_string_member (
                     json_array_get_object_element (
                       json_object_get_array_member (assistant, "tool-calls"), 1), "result"),
                   ==, "42");
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (assistant, "usage"),
                                               "prompt-tokens"), ==, 30);
  g_assert_true (json_object_has_member (assistant, "metrics"));
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages, 2),
                                                  "tool-call-id"), ==, "call_a");
  g_assert_true (json_object_has_member (json_array_get_object_element (messages, 4),
                                         "turn-metrics"));
}

static const GError *
error_at (AgentConversation *conversation,
          guint              position)
{
  return agent_conversation_get_error (conversation, position);
}

/* What the errors of @f->conversation are, as another connection reads
 * them: "position:code:message" joined by '|' */
static char *
read_back_errors (Fixture *f)
{
  g_autoptr(AgentStore) store = NULL;
  g_autoptr(AgentConversation) copy = read_back (f, &store);
  GString *errors = g_string_new (NULL);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (copy));

  for (guint i = 0; i < n; i++)
    {
      const GError *error = error_at (copy, i);

      if (error != NULL)
        g_string_append_printf (errors, "%s%u:%s:%s", errors->len ? "|" : "", i,
                                error->domain == AGENT_ERROR ? agent_error_get_code (error)
                                                             : g_quark_to_string (error->domain),
                                error->message);
    }
  return g_string_free (errors, FALSE);
}

/* A failed turn's error is kept with the message its turn ended with, read
 * back by another connection; it goes when the turn is taken up again, and
 * stays with an answer it cut short, or when a new question follows. */
static void
test_turn_errors (Fixture       *f,
                  gconstpointer  data)
{
  static const char * const one[] = { "One.", NULL };
  static const char * const three[] = { "Three.", NULL };
  AgentTestResponse *response;
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) refused = NULL;
  g_autoptr(GError) other = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_TIMED_OUT, "Too slow");
  g_autofree char *errors = NULL;
  g_autofree char *json = NULL;
  g_autofree char *expected = NULL;
  const GError *kept;

  agent_test_openai_add_text_response (f->server, one, 5, 2);
  agent_test_turn_run (&f->turn, f->session, "First", NULL);
  g_assert_no_error (f->turn.error);

  /* A turn that fails before any answer ends with the user's message */
  response = agent_test_server_add_response (f->server, 401);
  agent_test_response_set_body (response, "application/json",
                                "{\"error\":{\"message\":\"Incorrect API key provided\"}}");
  agent_test_turn_run (&f->turn, f->session, "Second", NULL);
  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_AUTHENTICATION);
  refused = g_error_copy (f->turn.error);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (f->conversation)), ==, 3);
  g_assert_null (error_at (f->conversation, 2));
  g_assert_true (agent_conversation_set_error (f->conversation, 2, refused, &error));
  g_assert_no_error (error);
  kept = error_at (f->conversation, 2);
  g_assert_error (kept, AGENT_ERROR, AGENT_ERROR_AUTHENTICATION);
  g_assert_cmpstr (kept->message, ==, refused->message);
  g_assert_null (error_at (f->conversation, 1));
  g_assert_null (error_at (f->conversation, 3));
  errors = read_back_errors (f);
  expected = g_strdup_printf ("2:authentication:%s", refused->message);
  g_assert_cmpstr (errors, ==, expected);
  g_clear_pointer (&errors, g_free);
  g_clear_pointer (&expected, g_free);
  /* Nothing of the key goes with it */
  g_assert_false (test_store_file_contains (f->db.path, API_KEY));

  /* Taken up again, the turn is cut short: the user's message loses its
   * error, the interrupted answer has its own */
  response = agent_test_openai_begin (f->server, NULL);
  agent_test_openai_add_text (response, "Half an ");
  agent_test_openai_add_text (response, "answer");
  agent_test_response_set_drop (response);
  agent_test_turn_clear (&f->turn);
  agent_session_continue_async (f->session, NULL, continue_cb, &f->turn);
  agent_test_turn_wait (&f->turn);
  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_NETWORK);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (f->conversation)), ==, 4);
  g_assert_null (error_at (f->conversation, 2));
  g_assert_true (agent_conversation_set_error (f->conversation, 3, f->turn.error, &error));
  g_assert_no_error (error);
  errors = read_back_errors (f);
  expected = g_strdup_printf ("3:network:%s", f->turn.error->message);
  g_assert_cmpstr (errors, ==, expected);
  g_clear_pointer (&errors, g_free);

  /* The conversation goes on: the cut answer keeps saying why */
  agent_test_openai_add_text_response (f->server, three, 5, 2);
  agent_test_turn_run (&f->turn, f->session, "Third", NULL);
  g_assert_no_error (f->turn.error);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (f->conversation)), ==, 6);
  g_assert_error (error_at (f->conversation, 3), AGENT_ERROR, AGENT_ERROR_NETWORK);
  errors = read_back_errors (f);
  g_assert_true (g_str_has_prefix (errors, "3:network:"));
  g_clear_pointer (&errors, g_free);

  /* Errors of any domain; none clears one */
  g_assert_true (agent_conversation_set_error (f->conversation, 5, other, &error));
  g_assert_no_error (error);
  errors = read_back_errors (f);
  g_assert_true (strstr (errors, "|5:g-io-error-quark:Too slow") != NULL);
  g_clear_pointer (&errors, g_free);
  g_assert_true (agent_conversation_set_error (f->conversation, 5, NULL, &error));
  g_assert_null (error_at (f->conversation, 5));

  /* The JSON export carries it */
  json = agent_conversation_export (f->conversation, AGENT_EXPORT_FORMAT_JSON, &error);
  g_assert_no_error (error);
  agent_test_assert_contains (json, "\"error\" : {");
  agent_test_assert_contains (json, "\"name\" : \"network\"");

  /* No message there: refused */
  g_assert_false (agent_conversation_set_error (f->conversation, 6, other, &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  /* Deleted with its message (a branch keeps it: see test-store-branches) */
  agent_memory_delete_branch (AGENT_MEMORY (f->conversation), 3, &error);
  g_assert_no_error (error);
  g_assert_null (error_at (f->conversation, 3));
  errors = read_back_errors (f);
  g_assert_cmpstr (errors, ==, "");
  assert_read_back_equal (f);

  /* A failed turn, then a new question (not the failed turn taken up
   * again): the failed turn stays failed, its question unanswered */
  response = agent_test_server_add_response (f->server, 401);
  agent_test_response_set_body (response, "application/json",
                                "{\"error\":{\"message\":\"Incorrect API key provided\"}}");
  agent_test_turn_run (&f->turn, f->session, "Fourth", NULL);
  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_AUTHENTICATION);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (f->conversation)), ==, 4);
  g_assert_true (agent_conversation_set_error (f->conversation, 3, f->turn.error, &error));
  g_assert_no_error (error);
  agent_test_openai_add_text_response (f->server, three, 5, 2);
  agent_test_turn_run (&f->turn, f->session, "Fifth", NULL);
  g_assert_no_error (f->turn.error);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (f->conversation)), ==, 6);
  g_assert_error (error_at (f->conversation, 3), AGENT_ERROR, AGENT_ERROR_AUTHENTICATION);
  g_clear_pointer (&errors, g_free);
  errors = read_back_errors (f);
  g_assert_true (g_str_has_prefix (errors, "3:authentication:"));
}

/* A program whose first libagent call reads a stored error: the error is
 * in AgentError's extended domain (it has room for the token counts), not
 * in a plain quark of the same name that an error copy would overrun. */
static void
test_turn_errors_fresh_process (void)
{
  if (g_test_subprocess ())
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(AgentStore) store = agent_store_new (g_getenv ("TEST_STORE_PATH"), &error);
      g_autoptr(GError) copy = NULL;
      g_autoptr(AgentConversation) conversation = NULL;
      gint64 requested = 0, limit = 0;

      g_assert_no_error (error);
      conversation = agent_store_lookup_conversation (store, 1);
      g_assert_nonnull (conversation);
      g_assert_true (agent_conversation_load (conversation, &error));
      g_assert_no_error (error);
      copy = g_error_copy (agent_conversation_get_error (conversation, 0));
      g_assert_true (agent_error_get_context_tokens (copy, &requested, &limit));
      /* The numbers are not stored: unknown, not whatever lay before */
      g_assert_cmpint (requested, ==, -1);
      g_assert_cmpint (limit, ==, -1);
      g_assert_cmpstr (copy->message, ==, "Too long for the model");
      return;
    }

  {
    g_autoptr(GError) error = NULL;
    g_autoptr(GError) too_long = g_error_new_literal (AGENT_ERROR, AGENT_ERROR_CONTEXT_LENGTH,
                                                      "Too long for the model");
    g_autoptr(AgentConversation) conversation = NULL;
    g_autoptr(AgentMessage) question = agent_message_new (AGENT_MESSAGE_ROLE_USER, "Hello");
    TestStore db;

    test_store_open (&db);
    conversation = agent_store_create_conversation (db.store);
    g_assert_true (agent_memory_append (AGENT_MEMORY (conversation), question, &error));
    g_assert_no_error (error);
    g_assert_true (agent_conversation_set_error (conversation, 0, too_long, &error));
    g_assert_no_error (error);
    test_store_flush (db.store);
    g_assert_cmpint (agent_conversation_get_id (conversation), ==, 1);

    g_setenv ("TEST_STORE_PATH", db.path, TRUE);
    g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
    g_test_trap_assert_passed ();

    g_clear_object (&conversation);
    test_store_close (&db);
  }
}

/* The prompt cache's counts come back as the provider reported them: an
 * Anthropic usage's cache reads and writes, and none where an OpenAI
 * usage had none (not a count of 0 the provider never gave) */
static void
test_usage_cache (Fixture       *f,
                  gconstpointer  data)
{
  static const char *raw[] = {
    "{\"input_tokens\":10,\"output_tokens\":2,\"cache_read_input_tokens\":1024,"
    "\"cache_creation_input_tokens\":300}",
    "{\"prompt_tokens\":9,\"completion_tokens\":3,\"total_tokens\":12}",
  };
  g_autoptr(AgentStore) store = NULL;
  g_autoptr(AgentConversation) copy = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (raw); i++)
    {
      g_autoptr(JsonNode) node = agent_test_parse_json (raw[i]);
      g_autoptr(AgentUsage) usage = agent_usage_new_from_json (node);

      append (f, g_object_new (AGENT_TYPE_MESSAGE, "role", AGENT_MESSAGE_ROLE_ASSISTANT,
                               "content", "Hi.", "usage", usage, NULL));
    }

  copy = read_back (f, &store);
  test_store_assert_same_messages (G_LIST_MODEL (f->conversation), G_LIST_MODEL (copy));
  for (guint i = 0; i < G_N_ELEMENTS (raw); i++)
    {
      g_autoptr(AgentMessage) message = g_list_model_get_item (G_LIST_MODEL (copy), i);
      g_autoptr(JsonNode) json = agent_usage_to_json (agent_message_get_usage (message));
      JsonObject *object = json_node_get_object (json);

      g_assert_cmpint (json_object_has_member (object, "cached-input-tokens"), ==, i == 0);
      g_assert_cmpint (json_object_has_member (object, "cache-creation-input-tokens"), ==, i == 0);
    }
  {
    g_autoptr(AgentMessage) message = g_list_model_get_item (G_LIST_MODEL (copy), 0);
    AgentUsage *usage = agent_message_get_usage (message);

    g_assert_cmpint (agent_usage_get_cached_tokens (usage), ==, 1024);
    g_assert_cmpint (agent_usage_get_cache_creation_tokens (usage), ==, 300);
    g_assert_cmpint (agent_usage_get_prompt_tokens (usage), ==, 1334);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("/store/round-trip", test_round_trip);
  ADD ("/store/commit-points", test_commit_points);
  ADD ("/store/interrupted-then-continued", test_interrupted_then_continued);
  ADD ("/store/truncate", test_truncate);
  ADD ("/store/write-failure", test_write_failure);
  ADD ("/store/export", test_export);
  ADD ("/store/record-session", test_record_session);
  ADD ("/store/record-session-keeps-members", test_record_session_keeps_members);
  ADD ("/store/turn-errors", test_turn_errors);
  ADD ("/store/usage-cache", test_usage_cache);
  g_test_add_func ("/store/turn-errors-fresh-process", test_turn_errors_fresh_process);

  return g_test_run ();
}
