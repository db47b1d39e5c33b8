/* test-cli-store.c — agent-cli --store, --continue, --conversation,
 * --list-conversations, --regenerate, --branches and --branch, --export and
 * --import (every branch, the active one, a broken tree refused), what a
 * kill -9 in the middle of an answer leaves in the file, and JSON nested too deeply: a turn whose tool call had
 * arguments too deep keeps its text on disk (agent-cli used to die of a
 * stack overflow in the middle of the turn), and JSON too deep in a
 * database file is left out when it is read, not a crash
 *
 * Each case runs $AGENT_CLI against an AgentTestServer served from this
 * process's main loop, then reads the database with AgentStore and with
 * SQLite alone.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <signal.h>
#include <string.h>
#include <sys/stat.h>

#include <glib/gstdio.h>

#include <agent.h>

#include "agent-test-cli.h"
#include "agent-test-openai.h"
#include "agent-test-server.h"
#include "agent-test-util.h"
#include "test-store-util.h"

typedef struct
{
  TestStore        db;
  AgentTestServer *server;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  test_store_open (&f->db);
  g_clear_object (&f->db.store);  /* agent-cli has the file to itself */
  f->server = agent_test_server_new ();
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  agent_test_server_free (f->server);
  test_store_assert_sound (f->db.path);
  test_store_close (&f->db);
}

/* agent-cli --json --store FILE …ARGS */
static AgentTestProcess *
spawn (Fixture            *f,
       const char * const *args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();

  g_ptr_array_add (argv, (gpointer) "--json");
  g_ptr_array_add (argv, (gpointer) "--store");
  g_ptr_array_add (argv, f->db.path);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);

  return agent_test_cli_spawn (NULL, NULL, (const char * const *) argv->pdata);
}

static AgentTestProcess *
run (Fixture            *f,
     const char * const *args)
{
  AgentTestProcess *cli = spawn (f, args);

  agent_test_process_wait (cli);
  agent_test_process_parse_json (cli);
  return cli;
}

/* The first turn: tools, with the server's URL, model and a system prompt */
static void
first_turn (Fixture *f)
{
  g_autoptr(AgentTestProcess) cli = NULL;

  test_store_add_tool_turn (f->server, "4 and 42.");
  cli = run (f, AGENT_TEST_ARGS ("--base-url", agent_test_server_get_base_url (f->server),
                                 "--model", "test-model", "--system", "Be exact.",
                                 "--tool", "calculator", "First question"));
  agent_test_process_assert_exit (cli, 0);
  g_assert_cmpstr (agent_test_cli_done_content (cli), ==, "4 and 42.");
}

/* The only conversation, as a new store reads it */
static AgentConversation *
read_only_conversation (Fixture     *f,
                        AgentStore **store)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GListModel) list = NULL;
  AgentConversation *conversation;

  *store = test_store_open_again (&f->db);
  agent_store_check (*store, &error);
  g_assert_no_error (error);
  list = agent_store_list_conversations (*store);
  g_assert_cmpuint (g_list_model_get_n_items (list), ==, 1);
  conversation = g_list_model_get_item (list, 0);
  agent_conversation_load (conversation, &error);
  g_assert_no_error (error);
  return conversation;
}

static AgentMessage *
message_at (AgentConversation *conversation,
            guint              position)
{
  AgentMessage *message = g_list_model_get_item (G_LIST_MODEL (conversation), position);

  g_assert_nonnull (message);
  g_object_unref (message);  /* the conversation keeps it */
  return message;
}

static void
assert_first_turn (AgentConversation *conversation)
{
  AgentMessage *assistant = message_at (conversation, 1);

  g_assert_cmpstr (agent_message_get_content (message_at (conversation, 0)), ==, "First question");
  g_assert_cmpuint (agent_message_get_n_tool_calls (assistant), ==, 2);
  g_assert_cmpstr (agent_tool_call_get_result (agent_message_get_tool_call (assistant, 1)), ==,
                   "42");
  g_assert_cmpstr (agent_message_get_content (message_at (conversation, 2)), ==, "4");
  g_assert_cmpstr (agent_message_get_content (message_at (conversation, 3)), ==, "42");
  g_assert_cmpstr (agent_message_get_content (message_at (conversation, 4)), ==, "4 and 42.");
  g_assert_cmpint (agent_message_get_state (message_at (conversation, 4)), ==,
                   AGENT_MESSAGE_STATE_COMPLETE);
}

/* kill -9 while the second answer streams: the file is sound, the first
 * turn whole, the second prompt kept; the next run goes on from there */
static void
test_killed_mid_stream (Fixture       *f,
                        gconstpointer  data)
{
  static const char * const after[] = { "Answered after all.", NULL };
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autoptr(AgentTestProcess) again = NULL;
  g_autoptr(AgentStore) store = NULL;
  g_autoptr(AgentConversation) conversation = NULL;
  g_autofree char *settings = NULL;
  AgentTestResponse *response;

  first_turn (f);

  /* No --base-url, --model or --system: the conversation's own */
  response = agent_test_openai_begin (f->server, "");
  agent_test_openai_add_text (response, "Half an ans");
  agent_test_response_add_wait (response);
  cli = spawn (f, AGENT_TEST_ARGS ("--continue", "Second question"));
  agent_test_cli_wait_for_text_deltas (cli, 1);
  g_subprocess_send_signal (cli->process, SIGKILL);
  agent_test_process_wait (cli);
  g_assert_cmpint (cli->status, ==, -1);
  agent_test_server_release (f->server);

  g_assert_cmpuint (json_array_get_length (agent_test_openai_get_messages (f->server, 2)), ==, 7);
  g_assert_cmpstr (agent_test_openai_get_message_string (f->server, 2, 0, "content"), ==,
                   "Be exact.");

  test_store_assert_sound (f->db.path);
  conversation = read_only_conversation (f, &store);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (conversation)), ==, 6);
  assert_first_turn (conversation);
  g_assert_cmpstr (agent_message_get_content (message_at (conversation, 5)), ==, "Second question");
  g_assert_cmpstr (agent_conversation_get_model (conversation), ==, "test-model");
  settings = json_to_string (agent_conversation_get_settings (conversation), FALSE);
  agent_test_assert_contains (settings, "\"system-prompt\":\"Be exact.\"");
  g_clear_object (&conversation);
  g_clear_object (&store);

  /* Going on */
  agent_test_openai_add_text_response (f->server, after, 10, 3);
  again = run (f, AGENT_TEST_ARGS ("--continue", "Third question"));
  agent_test_process_assert_exit (again, 0);
  g_assert_cmpstr (agent_test_cli_done_content (again), ==, "Answered after all.");
  conversation = read_only_conversation (f, &store);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (conversation)), ==, 8);
}

/* Ctrl-C: the part that streamed is kept, marked interrupted, and sent
 * back when the conversation goes on */
static void
test_interrupted (Fixture       *f,
                  gconstpointer  data)
{
  static const char * const after[] = { "Go on, then.", NULL };
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autoptr(AgentTestProcess) again = NULL;
  g_autoptr(AgentStore) store = NULL;
  g_autoptr(AgentConversation) conversation = NULL;
  AgentTestResponse *response;
  AgentMessage *partial;

  response = agent_test_openai_begin (f->server, "");
  agent_test_openai_add_text (response, "Once upon");
  agent_test_response_add_wait (response);
  cli = spawn (f, AGENT_TEST_ARGS ("--base-url", agent_test_server_get_base_url (f->server),
                                   "A story"));
  agent_test_cli_wait_for_text_deltas (cli, 1);
  g_subprocess_send_signal (cli->process, SIGINT);
  agent_test_process_wait (cli);
  agent_test_process_assert_exit (cli, 130);
  agent_test_server_release (f->server);

  conversation = read_only_conversation (f, &store);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (conversation)), ==, 2);
  partial = message_at (conversation, 1);
  g_assert_cmpint (agent_message_get_state (partial), ==, AGENT_MESSAGE_STATE_INTERRUPTED);
  g_assert_cmpstr (agent_message_get_content (partial), ==, "Once upon");
  g_clear_object (&conversation);
  g_clear_object (&store);

  agent_test_openai_add_text_response (f->server, after, 10, 3);
  again = run (f, AGENT_TEST_ARGS ("--continue", "Go on"));
  agent_test_process_assert_exit (again, 0);
  g_assert_cmpstr (agent_test_openai_get_message_string (f->server, 1, 1, "content"), ==,
                   "Once upon");
  g_assert_cmpstr (agent_test_openai_get_message_string (f->server, 1, 2, "content"), ==, "Go on");
}

static void
test_list_and_pick (Fixture       *f,
                    gconstpointer  data)
{
  static const char * const one[] = { "One.", NULL };
  static const char * const two[] = { "Two.", NULL };
  static const char * const three[] = { "Three.", NULL };
  static const char * const forgotten[] = { "Forgotten.", NULL };
  const char *url = agent_test_server_get_base_url (f->server);
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autoptr(AgentTestProcess) list = NULL;
  g_autoptr(AgentTestProcess) text = NULL;
  g_autoptr(AgentTestProcess) missing = NULL;
  g_autoptr(AgentTestProcess) both = NULL;
  g_autoptr(AgentTestProcess) unkept = NULL;
  g_autofree char *id = NULL;
  g_autofree char *count = NULL;
  JsonArray *conversations;
  JsonObject *newest;

  agent_test_openai_add_text_response (f->server, one, 1, 1);
  agent_test_openai_add_text_response (f->server, two, 1, 1);
  agent_test_openai_add_text_response (f->server, three, 1, 1);
  cli = run (f, AGENT_TEST_ARGS ("--base-url", url, "--model", "m1", "Alpha"));
  agent_test_process_assert_exit (cli, 0);
  g_clear_pointer (&cli, agent_test_process_free);
  cli = run (f, AGENT_TEST_ARGS ("--base-url", url, "--model", "m2", "Beta"));
  agent_test_process_assert_exit (cli, 0);
  g_clear_pointer (&cli, agent_test_process_free);

  /* --conversation: the older one, which becomes the newest */
  id = test_store_query (f->db.path, "SELECT id FROM conversations WHERE title = 'Alpha'");
  cli = run (f, AGENT_TEST_ARGS ("--conversation", id, "Alpha again"));
  agent_test_process_assert_exit (cli, 0);
  g_assert_cmpstr (json_object_get_string_member (agent_test_openai_get_request (f->server, 2),
                                                  "model"), ==, "m1");

  list = run (f, AGENT_TEST_ARGS ("--list-conversations"));
  agent_test_process_assert_exit (list, 0);
  g_assert_cmpuint (list->events->len, ==, 1);
  conversations = json_object_get_array_member (g_ptr_array_index (list->events, 0),
                                                "conversations");
  g_assert_cmpuint (json_array_get_length (conversations), ==, 2);
  newest = json_array_get_object_element (conversations, 0);
  g_assert_cmpstr (json_object_get_string_member (newest, "title"), ==, "Alpha");
  g_assert_cmpstr (json_object_get_string_member (newest, "model"), ==, "m1");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (conversations, 1),
                                                  "title"), ==, "Beta");

  text = agent_test_cli_run (AGENT_TEST_ARGS ("--store", f->db.path, "--list-conversations"));
  agent_test_process_assert_exit (text, 0);
  agent_test_assert_contains (text->out->str, "\topenai/m1\tAlpha\n");
  g_assert_true (g_str_has_prefix (text->out->str, id));

  missing = run (f, AGENT_TEST_ARGS ("--conversation", "4242", "Hello"));
  agent_test_process_assert_exit (missing, 1);
  agent_test_cli_assert_error (missing, "invalid-argument");
  both = run (f, AGENT_TEST_ARGS ("--no-store", "--continue", "Hello"));
  agent_test_process_assert_exit (both, 1);

  /* --no-store: nothing is written */
  agent_test_openai_add_text_response (f->server, forgotten, 1, 1);
  unkept = agent_test_cli_run (AGENT_TEST_ARGS ("--json", "--no-store", "--base-url", url,
                                                "Forget me"));
  agent_test_process_assert_exit (unkept, 0);
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 4);
  count = test_store_query (f->db.path, "SELECT count(*) FROM messages");
  g_assert_cmpstr (count, ==, "6");
}

/* The first JSON event of @cli of @type */
static JsonObject *
event_of_type (AgentTestProcess *cli,
               const char       *type)
{
  for (guint i = 0; i < cli->events->len; i++)
    {
      JsonObject *event = g_ptr_array_index (cli->events, i);

      if (g_strcmp0 (json_object_get_string_member_with_default (event, "type", NULL), type) == 0)
        return event;
    }
  g_assert_not_reached ();
}

/* --regenerate keeps the old answer as a sibling; --branches lists both;
 * --branch goes on from the old one (the request holds it); the options
 * need a kept conversation and refuse what makes no sense */
static void
test_branches (Fixture       *f,
               gconstpointer  data)
{
  static const char * const one[] = { "One.", NULL };
  static const char * const two[] = { "Two.", NULL };
  static const char * const again[] = { "Two, again.", NULL };
  static const char * const three[] = { "Three.", NULL };
  const char *url = agent_test_server_get_base_url (f->server);
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autoptr(AgentTestProcess) text = NULL;
  g_autoptr(AgentStore) store = NULL;
  g_autoptr(AgentConversation) conversation = NULL;
  g_autofree char *old_id = NULL;
  g_autofree char *count = NULL;
  JsonObject *request;
  JsonArray *forks, *siblings, *messages;
  JsonObject *first, *second;

  agent_test_openai_add_text_response (f->server, one, 1, 1);
  agent_test_openai_add_text_response (f->server, two, 1, 1);
  agent_test_openai_add_text_response (f->server, again, 1, 1);
  agent_test_openai_add_text_response (f->server, three, 1, 1);
  cli = run (f, AGENT_TEST_ARGS ("--base-url", url, "--model", "m1", "First"));
  agent_test_process_assert_exit (cli, 0);
  g_clear_pointer (&cli, agent_test_process_free);
  cli = run (f, AGENT_TEST_ARGS ("--continue", "Second"));
  agent_test_process_assert_exit (cli, 0);
  g_clear_pointer (&cli, agent_test_process_free);

  /* Not without a kept conversation, nor with a prompt */
  cli = run (f, AGENT_TEST_ARGS ("--regenerate"));
  agent_test_process_assert_exit (cli, 1);
  agent_test_assert_contains (agent_test_cli_assert_error (cli, "invalid-argument"),
                              "--continue");
  g_clear_pointer (&cli, agent_test_process_free);
  cli = run (f, AGENT_TEST_ARGS ("--continue", "--regenerate", "Hello"));
  agent_test_process_assert_exit (cli, 1);
  agent_test_assert_contains (agent_test_cli_assert_error (cli, "invalid-argument"),
                              "takes no prompt");
  g_clear_pointer (&cli, agent_test_process_free);
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 2);

  /* --regenerate: the same request again, a new answer, the old one kept */
  cli = run (f, AGENT_TEST_ARGS ("--continue", "--regenerate"));
  agent_test_process_assert_exit (cli, 0);
  g_assert_cmpstr (agent_test_cli_done_content (cli), ==, "Two, again.");
  g_clear_pointer (&cli, agent_test_process_free);
  messages = json_object_get_array_member (agent_test_openai_get_request (f->server, 2),
                                           "messages");
  g_assert_cmpuint (json_array_get_length (messages), ==, 3);
  count = test_store_query (f->db.path, "SELECT count(*) FROM messages");
  g_assert_cmpstr (count, ==, "5");

  /* --branches --json: one fork, after the question, with both answers */
  cli = run (f, AGENT_TEST_ARGS ("--continue", "--branches"));
  agent_test_process_assert_exit (cli, 0);
  forks = json_object_get_array_member (event_of_type (cli, "branches"), "forks");
  g_assert_cmpuint (json_array_get_length (forks), ==, 1);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (forks, 0), "after"),
                   ==, 2);
  siblings = json_object_get_array_member (json_array_get_object_element (forks, 0), "siblings");
  g_assert_cmpuint (json_array_get_length (siblings), ==, 2);
  first = json_array_get_object_element (siblings, 0);
  second = json_array_get_object_element (siblings, 1);
  g_assert_cmpstr (json_object_get_string_member (first, "text"), ==, "Two.");
  g_assert_cmpint (json_object_get_int_member (first, "index"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (first, "of"), ==, 2);
  g_assert_false (json_object_get_boolean_member (first, "active"));
  g_assert_cmpstr (json_object_get_string_member (first, "role"), ==, "assistant");
  g_assert_nonnull (json_object_get_string_member (first, "created"));
  g_assert_cmpstr (json_object_get_string_member (second, "text"), ==, "Two, again.");
  g_assert_true (json_object_get_boolean_member (second, "active"));
  old_id = g_strdup_printf ("%" G_GINT64_FORMAT, json_object_get_int_member (first, "id"));
  g_clear_pointer (&cli, agent_test_process_free);

  /* In words */
  text = agent_test_cli_run (AGENT_TEST_ARGS ("--store", f->db.path, "--continue", "--branches"));
  agent_test_process_assert_exit (text, 0);
  agent_test_assert_contains (text->out->str, "After message 2 (Second):\n");
  agent_test_assert_contains (text->out->str, "\t1 / 2\t");
  agent_test_assert_contains (text->out->str, "\tTwo.\n");
  agent_test_assert_contains (text->out->str, "* 4\t2 / 2\t");

  /* --branch: on from the old answer; the request holds it, not the new */
  cli = run (f, AGENT_TEST_ARGS ("--continue", "--branch", old_id, "Third"));
  agent_test_process_assert_exit (cli, 0);
  g_assert_cmpstr (agent_test_cli_done_content (cli), ==, "Three.");
  g_clear_pointer (&cli, agent_test_process_free);
  request = agent_test_openai_get_request (f->server, 3);
  messages = json_object_get_array_member (request, "messages");
  g_assert_cmpuint (json_array_get_length (messages), ==, 5);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages, 3),
                                                  "content"), ==, "Two.");

  /* An id that is not there */
  cli = run (f, AGENT_TEST_ARGS ("--continue", "--branch", "4242", "Hello"));
  agent_test_process_assert_exit (cli, 1);
  agent_test_assert_contains (agent_test_cli_assert_error (cli, "invalid-argument"), "4242");
  g_clear_pointer (&cli, agent_test_process_free);

  /* The file: both branches, the active one through the old answer */
  conversation = read_only_conversation (f, &store);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (conversation)), ==, 6);
  g_assert_cmpstr (agent_message_get_content (message_at (conversation, 3)), ==, "Two.");
  g_assert_cmpuint (agent_memory_get_n_siblings (AGENT_MEMORY (conversation), 3), ==, 2);
}

/* The contents of @conversation's messages, depth first, each with its
 * depth: the shape and text of its tree */
static void
outline (AgentConversation *conversation,
         gint64             id,
         guint              depth,
         GString           *out)
{
  gsize n_ids = 0;
  g_autofree gint64 *ids = agent_conversation_dup_following (conversation, id, &n_ids);

  for (gsize i = 0; i < n_ids; i++)
    {
      AgentMessage *message = agent_conversation_lookup_message (conversation, ids[i]);

      g_string_append_printf (out, "%u %s\n", depth, agent_message_get_content (message));
      outline (conversation, ids[i], depth + 1, out);
    }
}

/* --export json then --import: every branch comes back, the same one
 * active; --export markdown is the active branch; a broken file is
 * refused whole */
static void
test_export_import (Fixture       *f,
                    gconstpointer  data)
{
  static const char * const one[] = { "One.", NULL };
  static const char * const two[] = { "Two.", NULL };
  static const char * const again[] = { "Two, again.", NULL };
  const char *url = agent_test_server_get_base_url (f->server);
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autoptr(AgentStore) store = NULL;
  g_autoptr(GListModel) list = NULL;
  g_autoptr(GString) first_tree = g_string_new (NULL);
  g_autoptr(GString) second_tree = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *json_path = g_strconcat (f->db.path, ".export.json", NULL);
  g_autofree char *broken_path = g_strconcat (f->db.path, ".broken.json", NULL);
  g_autofree char *count = NULL;
  AgentConversation *kept, *imported;
  gint64 id;

  agent_test_openai_add_text_response (f->server, one, 1, 1);
  agent_test_openai_add_text_response (f->server, two, 1, 1);
  agent_test_openai_add_text_response (f->server, again, 1, 1);
  cli = run (f, AGENT_TEST_ARGS ("--base-url", url, "--model", "m1", "First"));
  agent_test_process_assert_exit (cli, 0);
  g_clear_pointer (&cli, agent_test_process_free);
  cli = run (f, AGENT_TEST_ARGS ("--continue", "Second"));
  agent_test_process_assert_exit (cli, 0);
  g_clear_pointer (&cli, agent_test_process_free);
  cli = run (f, AGENT_TEST_ARGS ("--continue", "--regenerate"));
  agent_test_process_assert_exit (cli, 0);
  g_clear_pointer (&cli, agent_test_process_free);

  /* Not without a conversation */
  cli = run (f, AGENT_TEST_ARGS ("--export", "json"));
  agent_test_process_assert_exit (cli, 1);
  agent_test_assert_contains (agent_test_cli_assert_error (cli, "invalid-argument"),
                              "--continue");
  g_clear_pointer (&cli, agent_test_process_free);

  /* Markdown: the active branch only */
  cli = spawn (f, AGENT_TEST_ARGS ("--continue", "--export", "markdown"));
  agent_test_process_wait (cli);
  agent_test_process_assert_exit (cli, 0);
  agent_test_assert_contains (cli->out->str, "Two, again.");
  g_assert_null (strstr (cli->out->str, "Two."));
  g_clear_pointer (&cli, agent_test_process_free);

  cli = spawn (f, AGENT_TEST_ARGS ("--continue", "--export", "json"));
  agent_test_process_wait (cli);
  agent_test_process_assert_exit (cli, 0);
  g_assert_true (g_file_set_contents (json_path, cli->out->str, -1, &error));
  g_assert_no_error (error);
  g_clear_pointer (&cli, agent_test_process_free);

  /* A tree that is not one: refused, nothing written */
  {
    g_autofree char *text = NULL;
    g_autoptr(GString) damaged = NULL;

    g_assert_true (g_file_get_contents (json_path, &text, NULL, &error));
    damaged = g_string_new (text);
    g_assert_cmpuint (g_string_replace (damaged, "\"leaf\" : 4", "\"leaf\" : 40", 1), ==, 1);
    g_assert_true (g_file_set_contents (broken_path, damaged->str, -1, &error));
  }
  cli = run (f, AGENT_TEST_ARGS ("--import", broken_path));
  agent_test_process_assert_exit (cli, 1);
  agent_test_assert_contains (agent_test_cli_assert_error (cli, "invalid-argument"),
                              "“leaf” 40 is not the id of a message in the file");
  g_clear_pointer (&cli, agent_test_process_free);
  count = test_store_query (f->db.path, "SELECT count(*) FROM conversations");
  g_assert_cmpstr (count, ==, "1");

  cli = run (f, AGENT_TEST_ARGS ("--import", json_path));
  agent_test_process_assert_exit (cli, 0);
  id = json_object_get_int_member (event_of_type (cli, "imported"), "conversation");
  g_clear_pointer (&cli, agent_test_process_free);

  /* Both in the file, the same tree, the same branch active */
  store = test_store_open_again (&f->db);
  list = agent_store_list_conversations (store);
  g_assert_cmpuint (g_list_model_get_n_items (list), ==, 2);
  imported = agent_store_lookup_conversation (store, id);
  g_assert_nonnull (imported);
  kept = g_list_model_get_item (list, 1);
  g_object_unref (kept);
  g_assert_true (kept != imported);
  outline (kept, -1, 0, first_tree);
  outline (imported, -1, 0, second_tree);
  g_assert_cmpstr (first_tree->str, ==, "0 First\n1 One.\n2 Second\n3 Two.\n3 Two, again.\n");
  g_assert_cmpstr (second_tree->str, ==, first_tree->str);
  test_store_assert_same_messages (G_LIST_MODEL (kept), G_LIST_MODEL (imported));
  g_assert_cmpstr (agent_message_get_content (message_at (imported, 3)), ==, "Two, again.");
  g_object_unref (imported);
  g_unlink (json_path);
  g_unlink (broken_path);
}

/* Without --store: the app's file under XDG_DATA_HOME, the owner's only */
static void
test_default_path (Fixture       *f,
                   gconstpointer  data)
{
  static const char * const hello[] = { "Hello.", NULL };
  g_autofree char *home = g_build_filename (f->db.dir, "data-home", NULL);
  g_autofree char *env = g_strconcat ("XDG_DATA_HOME=", home, NULL);
  g_autofree char *folder = g_build_filename (home, "agent-chat", NULL);
  g_autofree char *path = g_build_filename (folder, "conversations.db", NULL);
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autofree char *content = NULL;
  GStatBuf info;

  agent_test_openai_add_text_response (f->server, hello, 1, 1);
  cli = agent_test_cli_run_full (AGENT_TEST_ARGS (env), NULL,
                                 AGENT_TEST_ARGS ("--base-url",
                                                  agent_test_server_get_base_url (f->server),
                                                  "Hi there"));
  agent_test_process_assert_exit (cli, 0);

  g_assert_cmpint (g_stat (path, &info), ==, 0);
  g_assert_cmpint (info.st_mode & 0777, ==, 0600);
  content = test_store_query (path, "SELECT content FROM messages WHERE position = 1");
  g_assert_cmpstr (content, ==, "Hello.");
  test_store_assert_sound (path);

  agent_test_remove_dir (folder);
}

/* Disks that run out */

/* An answer of 2 MiB, in 64 deltas; with @tool, it calls the calculator
 * after them */
static void
add_long_answer (Fixture  *f,
                 gboolean  tool)
{
  g_autofree char *piece = g_strnfill (32 * 1024, 'a');
  AgentTestResponse *response = agent_test_openai_begin (f->server, "");

  for (guint i = 0; i < 64; i++)
    agent_test_openai_add_text (response, piece);
  if (tool)
    agent_test_openai_add_tool_call (response, 0, "call_1", "calculator",
                                     "{\"expression\":\"1+1\"}");
  agent_test_openai_add_end (response, tool ? "tool_calls" : "stop", 1, 1);
}

/* What a run that could not keep its answer printed: one error, of the
 * store, naming the file and what happened; no "done" */
static const char *
assert_storage_failure (AgentTestProcess *cli,
                        const char       *path,
                        const char       *what)
{
  JsonObject *error;
  const char *message;

  g_test_message ("exit %d; stderr: %s", cli->status, cli->err->str);
  /* Not killed by SIGXFSZ */
  agent_test_process_assert_exit (cli, 1);
  agent_test_process_parse_json (cli);
  g_assert_cmpuint (agent_test_process_count_events (cli, "done"), ==, 0);
  g_assert_cmpuint (agent_test_process_count_events (cli, "error"), ==, 1);
  error = agent_test_process_nth_event (cli, "error", 0);
  g_assert_cmpstr (agent_test_get_string (error, "code"), ==, "storage");
  message = agent_test_get_string (error, "message");
  agent_test_assert_contains (message, path);
  agent_test_assert_contains (message, what);
  g_assert_null (strstr (message, "disk I/O error"));
  g_assert_null (strstr (message, "database or disk is full"));
  /* The answer streamed: it is the store that failed */
  g_assert_cmpuint (agent_test_process_count_events (cli, "text-delta"), >, 0);
  return message;
}

/* A file size limit (ulimit -f) the answer does not fit under: agent-cli
 * is not killed by SIGXFSZ, and says the answer was not kept instead of
 * "done", once; with a tool call in the answer, the turn stops before the
 * next request, and says it once too */
static void
test_file_size_limit (Fixture       *f,
                      gconstpointer  data)
{
  gboolean tool = GPOINTER_TO_INT (data);
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autoptr(AgentStore) store = NULL;
  g_autoptr(AgentConversation) conversation = NULL;
  g_autofree char *blocks = NULL;
  GStatBuf info;

  /* Room for the question, not for the answer (512-byte blocks) */
  g_assert_cmpint (g_stat (f->db.path, &info), ==, 0);
  blocks = g_strdup_printf ("%" G_GUINT64_FORMAT, ((guint64) info.st_size + 512 * 1024) / 512);
  add_long_answer (f, tool);
  cli = agent_test_process_spawn ("sh", NULL, NULL, AGENT_TEST_PROCESS_DEFAULT,
                                  AGENT_TEST_ARGS ("-c", "ulimit -f \"$1\" && shift && exec \"$@\"",
                                                   "sh", blocks,
                                                   agent_test_find_program ("AGENT_CLI", "cli",
                                                                            "agent-cli"),
                                                   "--json", "--store", f->db.path,
                                                   "--base-url",
                                                   agent_test_server_get_base_url (f->server),
                                                   "--tool", "calculator", "--yes",
                                                   "Write at length"));
  agent_test_process_wait (cli);
  assert_storage_failure (cli, f->db.path, "ulimit -f");
  /* Nothing was asked after the answer that was not kept */
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 1);

  /* What was kept is whole: the question */
  conversation = read_only_conversation (f, &store);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (conversation)), ==, 1);
  g_assert_cmpstr (agent_message_get_content (message_at (conversation, 0)), ==,
                   "Write at length");
}

/* A disk that is full: a small tmpfs, mounted in a mount namespace of
 * agent-cli's own (unshare: no root needed where user namespaces are
 * allowed) */
static void
test_disk_full (Fixture       *f,
                gconstpointer  data)
{
  g_autofree char *mount_point = g_build_filename (f->db.dir, "small-disk", NULL);
  g_autofree char *path = g_build_filename (mount_point, "conversations.db", NULL);
  g_autoptr(AgentTestProcess) probe = NULL;
  g_autoptr(AgentTestProcess) cli = NULL;

  g_assert_cmpint (g_mkdir (mount_point, 0700), ==, 0);
  probe = agent_test_process_spawn ("unshare", NULL, NULL, AGENT_TEST_PROCESS_DEFAULT,
                                    AGENT_TEST_ARGS ("-rm", "mount", "-t", "tmpfs", "-o", "size=1m",
                                                     "tmpfs", mount_point));
  agent_test_process_wait (probe);
  if (probe->status != 0)
    {
      g_autofree char *why = g_strdup_printf ("No tmpfs can be mounted here: %s",
                                              probe->err->str);

      g_test_skip (why);
      return;
    }

  add_long_answer (f, FALSE);
  cli = agent_test_process_spawn ("unshare", NULL, NULL, AGENT_TEST_PROCESS_DEFAULT,
                                  AGENT_TEST_ARGS ("-rm", "sh", "-c",
                                                   "mount -t tmpfs -o size=1m tmpfs \"$1\" && "
                                                   "shift && exec \"$@\"",
                                                   "sh", mount_point,
                                                   agent_test_find_program ("AGENT_CLI", "cli",
                                                                            "agent-cli"),
                                                   "--json", "--store", path,
                                                   "--base-url",
                                                   agent_test_server_get_base_url (f->server),
                                                   "Write at length"));
  agent_test_process_wait (cli);
  assert_storage_failure (cli, path, "disk is full");
}

/* JSON nested too deeply: 150 KB of "[[[…", far under every size limit,
 * far past any stack */
#define HUGE_DEPTH 150000

/* The calculator is called with arguments 150,000 arrays deep: its call
 * fails with an error that says so, the model answers, and the file holds
 * the whole turn: the text that streamed before the call too */
static void
test_arguments_kept (Fixture       *f,
                     gconstpointer  data)
{
  static const char * const after[] = { "It could not count that.", NULL };
  g_autofree char *arguments = agent_test_nested_arrays (HUGE_DEPTH, NULL);
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autoptr(AgentConversation) conversation = NULL;
  g_autoptr(AgentStore) store = NULL;
  AgentTestResponse *r;
  AgentMessage *assistant;
  AgentToolCall *call;

  r = agent_test_openai_begin (f->server, "Let me work it out.");
  agent_test_openai_add_tool_call (r, 0, "call_1", "calculator", arguments);
  agent_test_openai_add_end (r, "tool_calls", 1, 1);
  agent_test_openai_add_text_response (f->server, after, 1, 1);

  cli = agent_test_cli_run (AGENT_TEST_ARGS ("--json", "--store", f->db.path,
                                             "--tool", "calculator", "--base-url",
                                             agent_test_server_get_base_url (f->server),
                                             "Count it"));
  agent_test_process_assert_exit (cli, 0);
  agent_test_process_parse_json (cli);
  g_assert_cmpstr (agent_test_cli_done_content (cli), ==, "It could not count that.");
  agent_test_assert_contains (agent_test_cli_call_error (cli, "call_1"), "nested more than 512");

  conversation = read_only_conversation (f, &store);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (conversation)), ==, 4);
  g_assert_cmpstr (agent_message_get_content (message_at (conversation, 0)), ==, "Count it");
  assistant = message_at (conversation, 1);
  g_assert_cmpstr (agent_message_get_content (assistant), ==, "Let me work it out.");
  g_assert_cmpuint (agent_message_get_n_tool_calls (assistant), ==, 1);
  call = agent_message_get_tool_call (assistant, 0);
  g_assert_cmpstr (agent_tool_call_get_arguments (call), ==, arguments);
  g_assert_true (agent_tool_call_is_error (call));
  agent_test_assert_contains (agent_tool_call_get_result (call), "nested more than 512");
  agent_test_assert_contains (agent_message_get_content (message_at (conversation, 2)),
                              "nested more than 512");
  g_assert_cmpstr (agent_message_get_content (message_at (conversation, 3)), ==,
                   "It could not count that.");
}

/* A database whose JSON columns were written by someone else: JSON too
 * deep in them is left out as JSON that is not an object is, and the
 * messages read */
static void
test_stored_json (Fixture       *f,
                  gconstpointer  data)
{
  static const char * const answer[] = { "Fine.", NULL };
  g_autofree char *deep = agent_test_nested_arrays (HUGE_DEPTH, NULL);
  g_autofree char *object = g_strdup_printf ("{\"a\":%s}", deep);
  g_autofree char *sql = NULL;
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autoptr(AgentConversation) conversation = NULL;
  g_autoptr(AgentStore) store = NULL;
  AgentMessage *message;

  agent_test_openai_add_text_response (f->server, answer, 1, 1);
  cli = agent_test_cli_run (AGENT_TEST_ARGS ("--json", "--store", f->db.path, "--base-url",
                                             agent_test_server_get_base_url (f->server), "Hello"));
  agent_test_process_assert_exit (cli, 0);

  sql = g_strdup_printf ("UPDATE messages SET provider_data = '%s', usage = '%s', "
                         "metrics = '%s', error = '%s';"
                         "UPDATE conversations SET settings = '%s';",
                         object, object, object, object, object);
  test_store_exec (f->db.path, sql);

  conversation = read_only_conversation (f, &store);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (conversation)), ==, 2);
  message = message_at (conversation, 1);
  g_assert_cmpstr (agent_message_get_content (message), ==, "Fine.");
  g_assert_null (agent_message_get_provider_data (message));
  g_assert_null (agent_conversation_get_settings (conversation));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("/cli-store/killed-mid-stream", test_killed_mid_stream);
  ADD ("/cli-store/interrupted", test_interrupted);
  ADD ("/cli-store/list-and-pick", test_list_and_pick);
  ADD ("/cli-store/branches", test_branches);
  ADD ("/cli-store/export-import", test_export_import);
  ADD ("/cli-store/default-path", test_default_path);
  g_test_add ("/cli-store/disk-full/file-size-limit", Fixture, GINT_TO_POINTER (FALSE),
              fixture_setup, test_file_size_limit, fixture_teardown);
  g_test_add ("/cli-store/disk-full/tool-loop", Fixture, GINT_TO_POINTER (TRUE),
              fixture_setup, test_file_size_limit, fixture_teardown);
  ADD ("/cli-store/disk-full/tmpfs", test_disk_full);
  ADD ("/cli-store/too-deep/arguments-kept", test_arguments_kept);
  ADD ("/cli-store/too-deep/stored-json", test_stored_json);

  return g_test_run ();
}
