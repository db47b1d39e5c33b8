/* test-store-branches.c — a stored conversation is a tree of branches
 *
 * - /store/branches/migrate-from-v6: a database of the schema before
 *   branches (tests/test-store-v6.db, made by tests/make-store-v6.sh with
 *   the agent-cli of commit 1989f27) opens, migrated: every conversation
 *   one branch, in order, its leaf its last message, nothing lost; and it
 *   goes on from there.
 * - /store/branches/regenerate: regenerating keeps the old answer as a
 *   sibling; switching back shows it, tells the list from that position
 *   only, and the next request (to the loopback server) carries it, not
 *   the new one; another connection reads the same tree and leaf.
 * - /store/branches/edit: editing a question makes a sibling of it;
 *   switching back shows the old question with its answers.
 * - /store/branches/delete: deleting a branch deletes it from the file
 *   (with its tool calls), the list moves to its neighbour; deleting the
 *   last sibling ends the list before it.
 * - /store/branches/search: a search finds what the active path shows,
 *   at its place in the list; an answer on another branch is not found.
 * - /store/branches/unanswered-branch: a branch begun and not answered (a
 *   crash while the new answer streams) reads back as the branch before
 *   it, nothing lost.
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

typedef struct
{
  TestStore          db;
  AgentTestServer   *server;
  AgentProvider     *provider;
  AgentSession      *session;
  AgentConversation *conversation;
  AgentTestTurn      turn;
  /* The last items-changed */
  guint              changed_position;
  guint              changed_removed;
  guint              changed_added;
  guint              n_changes;
} Fixture;

static void
items_changed_cb (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  Fixture    *f)
{
  f->changed_position = position;
  f->changed_removed = removed;
  f->changed_added = added;
  f->n_changes++;
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  test_store_open (&f->db);
  f->server = agent_test_server_new ();
  f->provider = agent_test_openai_provider_new (f->server);
  f->session = agent_session_new (f->provider);
  f->conversation = agent_store_create_conversation (f->db.store);
  agent_session_set_memory (f->session, AGENT_MEMORY (f->conversation));
  g_signal_connect (f->conversation, "items-changed", G_CALLBACK (items_changed_cb), f);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  agent_test_turn_clear (&f->turn);
  test_store_flush (f->db.store);
  g_assert_finalize_object (f->session);
  g_assert_finalize_object (f->provider);
  g_clear_object (&f->db.store);
  g_assert_finalize_object (f->conversation);
  agent_test_server_free (f->server);
  test_store_assert_sound (f->db.path);
  test_store_close (&f->db);
}

static void
add_answer (Fixture    *f,
            const char *text)
{
  const char * const deltas[] = { text, NULL };

  agent_test_openai_add_text_response (f->server, deltas, 5, 2);
}

static void
run (Fixture    *f,
     const char *prompt)
{
  agent_test_turn_run (&f->turn, f->session, prompt, NULL);
  g_assert_no_error (f->turn.error);
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

static void
regenerate (Fixture *f,
            guint    position)
{
  g_autoptr(GError) error = NULL;

  agent_test_turn_clear (&f->turn);
  g_assert_true (agent_memory_branch (AGENT_MEMORY (f->conversation), position, &error));
  g_assert_no_error (error);
  agent_session_continue_async (f->session, NULL, continue_cb, &f->turn);
  agent_test_turn_wait (&f->turn);
  g_assert_no_error (f->turn.error);
}

static char *
content_at (GListModel *model,
            guint       position)
{
  g_autoptr(AgentMessage) message = g_list_model_get_item (model, position);

  g_assert_nonnull (message);
  return g_strdup (agent_message_get_content (message));
}

static void
assert_content (GListModel *model,
                guint       position,
                const char *expected)
{
  g_autofree char *content = content_at (model, position);

  g_assert_cmpstr (content, ==, expected);
}

/* The contents of the request @n's messages, joined with "|" */
static char *
request_contents (Fixture *f,
                  guint    n)
{
  JsonNode *body = agent_test_server_get_request_body (f->server, n);
  JsonArray *messages = json_object_get_array_member (json_node_get_object (body), "messages");
  g_autoptr(GString) out = g_string_new (NULL);

  for (guint i = 0; i < json_array_get_length (messages); i++)
    {
      JsonObject *message = json_array_get_object_element (messages, i);

      if (i > 0)
        g_string_append_c (out, '|');
      g_string_append (out, json_object_get_string_member_with_default (message, "content", ""));
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static void
test_regenerate (Fixture       *f,
                 gconstpointer  data)
{
  AgentMemory *memory = AGENT_MEMORY (f->conversation);
  GListModel *model = G_LIST_MODEL (f->conversation);
  g_autoptr(AgentStore) store = NULL;
  g_autoptr(AgentConversation) copy = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *count = NULL;
  g_autofree char *leaf = NULL;
  g_autofree char *sent = NULL;

  add_answer (f, "One.");
  add_answer (f, "Two.");
  add_answer (f, "Two, again.");
  add_answer (f, "Three.");
  run (f, "First");
  run (f, "Second");
  g_assert_cmpuint (agent_memory_get_n_siblings (memory, 3), ==, 1);

  regenerate (f, 3);
  g_assert_cmpstr (agent_message_get_content (f->turn.result), ==, "Two, again.");
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 4);
  g_assert_cmpuint (agent_memory_get_n_siblings (memory, 3), ==, 2);
  g_assert_cmpuint (agent_memory_get_sibling_index (memory, 3), ==, 1);
  g_assert_cmpuint (agent_memory_get_n_siblings (memory, 2), ==, 1);
  g_assert_cmpuint (agent_memory_get_n_siblings (memory, 4), ==, 0);

  /* Both answers are in the file */
  test_store_flush (f->db.store);
  count = test_store_query (f->db.path, "SELECT count(*) FROM messages");
  g_assert_cmpstr (count, ==, "5");

  /* Back to the first answer: the list changes at 3 only */
  f->n_changes = 0;
  g_assert_true (agent_memory_select_sibling (memory, 3, 0, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (f->n_changes, ==, 1);
  g_assert_cmpuint (f->changed_position, ==, 3);
  g_assert_cmpuint (f->changed_removed, ==, 1);
  g_assert_cmpuint (f->changed_added, ==, 1);
  assert_content (model, 3, "Two.");
  g_assert_cmpuint (agent_memory_get_sibling_index (memory, 3), ==, 0);

  /* Selecting what is there changes nothing; what is not there is refused */
  g_assert_true (agent_memory_select_sibling (memory, 3, 0, &error));
  g_assert_cmpuint (f->n_changes, ==, 1);
  g_assert_false (agent_memory_select_sibling (memory, 3, 2, &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  agent_test_assert_contains (error->message, "position 3");
  g_clear_error (&error);
  g_assert_false (agent_memory_select_sibling (memory, 9, 0, &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  /* The session sends the active path: the first answer, not the second */
  run (f, "Third");
  sent = request_contents (f, 3);
  g_assert_cmpstr (sent, ==, "First|One.|Second|Two.|Third");
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 6);

  /* Another connection reads the same tree, and the same leaf */
  test_store_flush (f->db.store);
  leaf = test_store_query (f->db.path, "SELECT leaf FROM conversations");
  g_assert_cmpstr (leaf, ==, "6");
  copy = test_store_read_back (&f->db, agent_conversation_get_id (f->conversation), &store);
  test_store_assert_same_messages (model, G_LIST_MODEL (copy));
  g_assert_cmpuint (agent_memory_get_n_siblings (AGENT_MEMORY (copy), 3), ==, 2);
  g_assert_cmpuint (agent_memory_get_sibling_index (AGENT_MEMORY (copy), 3), ==, 0);

  /* And the second answer is where it was, at the end of its branch */
  g_assert_true (agent_memory_select_sibling (memory, 3, 1, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 4);
  assert_content (model, 3, "Two, again.");
}

static void
test_edit (Fixture       *f,
           gconstpointer  data)
{
  AgentMemory *memory = AGENT_MEMORY (f->conversation);
  GListModel *model = G_LIST_MODEL (f->conversation);
  g_autoptr(GError) error = NULL;
  g_autofree char *sent = NULL;

  add_answer (f, "One.");
  add_answer (f, "Two.");
  add_answer (f, "Three.");
  add_answer (f, "Two, edited.");
  run (f, "First");
  run (f, "Second");
  run (f, "Third");

  /* Edit "Second": a sibling of it, sent with what came before only */
  g_assert_true (agent_memory_branch (memory, 2, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 2);
  run (f, "Second, edited");
  sent = request_contents (f, 3);
  g_assert_cmpstr (sent, ==, "First|One.|Second, edited");
  g_assert_cmpuint (agent_memory_get_n_siblings (memory, 2), ==, 2);
  g_assert_cmpuint (agent_memory_get_sibling_index (memory, 2), ==, 1);
  g_assert_cmpuint (agent_memory_get_n_siblings (memory, 3), ==, 1);

  /* Undoing the edit is switching back: the old question and all after */
  g_assert_true (agent_memory_select_sibling (memory, 2, 0, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 6);
  g_assert_cmpuint (f->changed_position, ==, 2);
  g_assert_cmpuint (f->changed_removed, ==, 2);
  g_assert_cmpuint (f->changed_added, ==, 4);
  assert_content (model, 2, "Second");
  assert_content (model, 5, "Three.");

  /* The old name, truncate, branches too: nothing is deleted */
  g_assert_true (agent_memory_truncate (memory, 4, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 4);
  test_store_flush (f->db.store);
  {
    g_autofree char *count = test_store_query (f->db.path, "SELECT count(*) FROM messages");

    g_assert_cmpstr (count, ==, "8");
  }
  g_assert_true (agent_memory_select_sibling (memory, 2, 0, &error));
  g_assert_true (agent_memory_select_sibling (memory, 2, 1, &error));
  g_assert_true (agent_memory_select_sibling (memory, 2, 0, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 6);
}

static void
test_delete (Fixture       *f,
             gconstpointer  data)
{
  AgentMemory *memory = AGENT_MEMORY (f->conversation);
  GListModel *model = G_LIST_MODEL (f->conversation);
  g_autoptr(AgentStore) store = NULL;
  g_autoptr(AgentConversation) copy = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *count = NULL;

  add_answer (f, "One.");
  add_answer (f, "One, again.");
  add_answer (f, "One, a third time.");
  add_answer (f, "Two.");
  run (f, "First");
  regenerate (f, 1);
  regenerate (f, 1);
  run (f, "Second");
  g_assert_cmpuint (agent_memory_get_n_siblings (memory, 1), ==, 3);
  g_assert_cmpuint (agent_memory_get_sibling_index (memory, 1), ==, 2);

  /* The middle one: the list stays on the third (not on the path) */
  g_assert_true (agent_memory_select_sibling (memory, 1, 1, &error));
  g_assert_true (agent_memory_delete_branch (memory, 1, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (agent_memory_get_n_siblings (memory, 1), ==, 2);
  assert_content (model, 1, "One, a third time.");
  assert_content (model, 3, "Two.");
  g_assert_cmpuint (agent_memory_get_sibling_index (memory, 1), ==, 1);

  /* The last, with what followed it: the one before takes its place */
  g_assert_true (agent_memory_delete_branch (memory, 1, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 2);
  assert_content (model, 1, "One.");
  g_assert_cmpuint (agent_memory_get_n_siblings (memory, 1), ==, 1);

  test_store_flush (f->db.store);
  count = test_store_query (f->db.path, "SELECT count(*) FROM messages");
  g_assert_cmpstr (count, ==, "2");
  copy = test_store_read_back (&f->db, agent_conversation_get_id (f->conversation), &store);
  test_store_assert_same_messages (model, G_LIST_MODEL (copy));

  /* No sibling left: the list ends before it */
  g_assert_true (agent_memory_delete_branch (memory, 1, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 1);
  g_assert_false (agent_memory_delete_branch (memory, 1, &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  /* And the conversation goes on from there */
  add_answer (f, "One, at last.");
  regenerate (f, 1);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 2);
  g_clear_object (&copy);
  g_clear_object (&store);
  copy = test_store_read_back (&f->db, agent_conversation_get_id (f->conversation), &store);
  test_store_assert_same_messages (model, G_LIST_MODEL (copy));
}

/* A tool call and its result go with their branch */
static void
test_delete_tool_turn (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(AgentTool) calculator = agent_calculator_tool_new ();
  AgentMemory *memory = AGENT_MEMORY (f->conversation);
  g_autoptr(GError) error = NULL;
  g_autofree char *calls = NULL;
  g_autofree char *count = NULL;

  agent_session_add_tool (f->session, calculator);
  test_store_add_tool_turn (f->server, "4 and 42.");
  add_answer (f, "I can't count.");
  run (f, "What is 2+2 and 6*7?");
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (f->conversation)), >, 3);

  regenerate (f, 1);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (f->conversation)), ==, 2);
  g_assert_true (agent_memory_select_sibling (memory, 1, 0, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (agent_message_get_n_tool_calls (f->turn.result), ==, 0);
  g_assert_true (agent_memory_delete_branch (memory, 1, &error));
  g_assert_no_error (error);
  assert_content (G_LIST_MODEL (f->conversation), 1, "I can't count.");

  test_store_flush (f->db.store);
  calls = test_store_query (f->db.path, "SELECT count(*) FROM tool_calls");
  g_assert_cmpstr (calls, ==, "0");
  count = test_store_query (f->db.path, "SELECT count(*) FROM messages");
  g_assert_cmpstr (count, ==, "2");
}

/* The file as a crash while the new answer streams leaves it: the branch
 * begun (its leaf the question), the new answer not there */
static void
test_unanswered_branch (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(AgentStore) store = NULL;
  g_autoptr(AgentConversation) copy = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *leaf = NULL;

  add_answer (f, "One.");
  add_answer (f, "Two.");
  run (f, "First");
  run (f, "Second");
  g_assert_true (agent_memory_branch (AGENT_MEMORY (f->conversation), 3, &error));
  g_assert_no_error (error);

  test_store_flush (f->db.store);
  leaf = test_store_query (f->db.path, "SELECT leaf FROM conversations");
  g_assert_cmpstr (leaf, ==, "2");
  copy = test_store_read_back (&f->db, agent_conversation_get_id (f->conversation), &store);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (copy)), ==, 4);
  assert_content (G_LIST_MODEL (copy), 3, "Two.");
  g_assert_cmpuint (agent_memory_get_n_siblings (AGENT_MEMORY (copy), 3), ==, 1);
}

/* Every message of @id: "position<parent" in order, "," between */
static char *
tree_of (const char *path,
         gint64      id)
{
  g_autofree char *sql = g_strdup_printf ("SELECT group_concat (position || '<' || "
                                          "coalesce (parent, '-'), ',') FROM (SELECT position, "
                                          "parent FROM messages WHERE conversation_id = %"
                                          G_GINT64_FORMAT " ORDER BY position)", id);

  return test_store_query (path, sql);
}

static void
test_migrate_from_v6 (void)
{
  g_autofree char *dir = agent_test_make_dir ("test-store-v6");
  g_autofree char *path = test_store_copy_fixture (dir, "test-store-v6.db", "6");
  static const struct
  {
    gint64      id;
    guint       n_messages;
    const char *tree;
    const char *last;
  } expected[] = {
    { 1, 4, "0<-,1<0,2<1,3<2", "Hello! I am the **libagent demo server**" },
    { 2, 4, "0<-,1<0,2<1,3<2", "The result of 6 * 7 is 42." },
    { 3, 2, "0<-,1<0", "Hello! I am the **libagent demo server**" },
  };
  g_autofree char *version = NULL;
  g_autofree char *leaves = NULL;
  g_autoptr(AgentStore) store = NULL;
  g_autoptr(GError) error = NULL;

  store = agent_store_new (path, &error);
  g_assert_no_error (error);
  version = test_store_query (path, "PRAGMA user_version");
  g_assert_cmpstr (version, ==, "8");
  leaves = test_store_query (path, "SELECT group_concat (id || ':' || leaf, ',') FROM "
                                   "(SELECT id, leaf FROM conversations ORDER BY id)");
  g_assert_cmpstr (leaves, ==, "1:3,2:3,3:1");

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_autoptr(AgentConversation) conversation = NULL;
      g_autoptr(AgentMessage) last = NULL;
      g_autofree char *tree = tree_of (path, expected[i].id);
      guint n;

      g_assert_cmpstr (tree, ==, expected[i].tree);
      conversation = agent_store_lookup_conversation (store, expected[i].id);
      g_assert_nonnull (conversation);
      g_assert_true (agent_conversation_load (conversation, &error));
      g_assert_no_error (error);
      n = g_list_model_get_n_items (G_LIST_MODEL (conversation));
      g_assert_cmpuint (n, ==, expected[i].n_messages);
      for (guint p = 0; p < n; p++)
        {
          g_assert_cmpuint (agent_memory_get_n_siblings (AGENT_MEMORY (conversation), p), ==, 1);
          g_assert_cmpuint (agent_memory_get_sibling_index (AGENT_MEMORY (conversation), p), ==, 0);
        }
      last = g_list_model_get_item (G_LIST_MODEL (conversation), n - 1);
      g_assert_true (g_str_has_prefix (agent_message_get_content (last), expected[i].last));
      if (expected[i].id == 2)
        {
          g_autoptr(AgentMessage) call = g_list_model_get_item (G_LIST_MODEL (conversation), 1);

          g_assert_cmpuint (agent_message_get_n_tool_calls (call), ==, 1);
        }
    }

  /* It goes on: a regenerated last answer of conversation 1 is a sibling */
  {
    g_autoptr(AgentConversation) conversation = agent_store_lookup_conversation (store, 1);
    g_autoptr(AgentMessage) answer = agent_message_new (AGENT_MESSAGE_ROLE_ASSISTANT, "Again.");
    g_autofree char *tree = NULL;
    g_autofree char *leaf = NULL;

    g_assert_true (agent_memory_branch (AGENT_MEMORY (conversation), 3, &error));
    g_assert_true (agent_memory_append (AGENT_MEMORY (conversation), answer, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (agent_memory_get_n_siblings (AGENT_MEMORY (conversation), 3), ==, 2);
    test_store_flush (store);
    tree = tree_of (path, 1);
    g_assert_cmpstr (tree, ==, "0<-,1<0,2<1,3<2,4<2");
    leaf = test_store_query (path, "SELECT leaf FROM conversations WHERE id = 1");
    g_assert_cmpstr (leaf, ==, "4");
  }

  g_clear_object (&store);
  test_store_assert_sound (path);
}

/* How many conversations a search finds, and the first one's position */
static guint
search (Fixture    *f,
        const char *text,
        int        *position)
{
  g_autoptr(GListModel) found = NULL;
  g_autoptr(GError) error = NULL;

  test_store_flush (f->db.store);
  found = agent_store_search (f->db.store, text, &error);
  g_assert_no_error (error);
  if (g_list_model_get_n_items (found) > 0)
    {
      g_autoptr(AgentSearchResult) result = g_list_model_get_item (found, 0);

      *position = agent_search_result_get_position (result);
    }
  return g_list_model_get_n_items (found);
}

static void
test_search (Fixture       *f,
             gconstpointer  data)
{
  int position = -2;

  add_answer (f, "Walrus.");
  add_answer (f, "Narwhal.");
  add_answer (f, "Penguin.");
  run (f, "First");
  regenerate (f, 1);
  run (f, "Second");

  /* 0 First, 1 Narwhal. (Walrus. its sibling), 2 Second, 3 Penguin. */
  g_assert_cmpuint (search (f, "penguin", &position), ==, 1);
  g_assert_cmpint (position, ==, 3);
  g_assert_cmpuint (search (f, "narwhal", &position), ==, 1);
  g_assert_cmpint (position, ==, 1);
  g_assert_cmpuint (search (f, "walrus", &position), ==, 0);

  /* Back to the first answer: the other way round */
  g_assert_true (agent_memory_select_sibling (AGENT_MEMORY (f->conversation), 1, 0, NULL));
  g_assert_cmpuint (search (f, "walrus", &position), ==, 1);
  g_assert_cmpint (position, ==, 1);
  g_assert_cmpuint (search (f, "narwhal", &position), ==, 0);
  g_assert_cmpuint (search (f, "penguin", &position), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  g_test_add_func ("/store/branches/migrate-from-v6", test_migrate_from_v6);
  ADD ("/store/branches/regenerate", test_regenerate);
  ADD ("/store/branches/edit", test_edit);
  ADD ("/store/branches/delete", test_delete);
  ADD ("/store/branches/delete-tool-turn", test_delete_tool_turn);
  ADD ("/store/branches/unanswered-branch", test_unanswered_branch);
  ADD ("/store/branches/search", test_search);

  return g_test_run ();
}
