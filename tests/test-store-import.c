/* test-store-import.c — conversations imported from the JSON that Export
 * writes
 *
 * - /store/import/round-trip: a conversation with an image, a tool turn, a
 *   title, settings and an error kept with its last message, exported,
 *   deleted for good, imported: the same messages (every field), the same
 *   attachments, tool calls, title, creation time, model and settings, the
 *   same error; and exported again, the same JSON but for its id.
 * - /store/import/branches: a conversation with a regenerated answer and an
 *   edited question (tool calls and an image on the other branches), its
 *   active branch an older one: exported, imported, every branch the same
 *   (the rows in the file, each message's contents, parent and children),
 *   the same active leaf; the Markdown export is the active branch only.
 * - /store/import/old-format: a file exported before branches (no ids, no
 *   "branches", no "leaf") is one branch.
 * - /store/import/refused/…: files that are not such an export, or are
 *   damaged or hostile, are refused with an error that says what is wrong
 *   and where; nothing is written. Broken trees among them: a parent not
 *   in the file, a cycle, a leaf not in the file, a path that is not one.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "agent-test-openai.h"
#include "agent-test-png.h"
#include "agent-test-server.h"
#include "agent-test-turn.h"
#include "agent-test-util.h"
#include "test-store-util.h"

typedef struct
{
  AgentConversation *conversation;
  GError            *error;
  gboolean           done;
} Imported;

/* The conversations @store lists */
static guint
n_listed (AgentStore *store)
{
  g_autoptr(GListModel) list = agent_store_list_conversations (store);

  return g_list_model_get_n_items (list);
}

static void
imported_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  Imported *imported = user_data;

  imported->conversation = agent_store_import_conversation_finish (AGENT_STORE (object), result,
                                                                   &imported->error);
  imported->done = TRUE;
}

static AgentConversation *
import (AgentStore  *store,
        const char  *json,
        GError     **error)
{
  g_autoptr(GBytes) bytes = g_bytes_new (json, strlen (json));
  Imported imported = { 0 };

  agent_store_import_conversation_async (store, bytes, NULL, imported_cb, &imported);
  agent_test_wait_for (&imported.done);
  if (imported.error != NULL)
    g_propagate_error (error, imported.error);
  return imported.conversation;
}

/* Every member of @a and @b but "id", the same */
static void
assert_same_but_id (const char *a,
                    const char *b)
{
  g_autoptr(JsonNode) first = agent_test_parse_json (a);
  g_autoptr(JsonNode) second = agent_test_parse_json (b);

  json_object_remove_member (json_node_get_object (first), "id");
  json_object_remove_member (json_node_get_object (second), "id");
  json_object_remove_member (json_node_get_object (first), "updated");
  json_object_remove_member (json_node_get_object (second), "updated");
  g_assert_true (agent_test_json_equal (first, second));
}

static void
test_round_trip (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentProvider) provider = agent_test_openai_provider_new (server);
  g_autoptr(AgentSession) session = agent_session_new (provider);
  g_autoptr(AgentTool) calculator = agent_calculator_tool_new ();
  g_autoptr(GBytes) png = agent_test_grey_png_new (30, 20, 20);
  g_autoptr(AgentMessage) question = agent_test_image_message_new ("What is this?", png);
  g_autoptr(AgentConversation) conversation = NULL;
  g_autoptr(AgentConversation) back = NULL;
  g_autoptr(AgentConversation) imported = NULL;
  g_autoptr(AgentStore) again = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) failed = g_error_new_literal (AGENT_ERROR, AGENT_ERROR_HTTP,
                                                  "The server said no");
  g_autoptr(JsonNode) settings = agent_test_parse_json ("{\"system-prompt\": \"Be brief.\"}");
  g_autofree char *json = NULL;
  g_autofree char *json_again = NULL;
  const char *deltas[] = { "A grey rectangle.", NULL };
  AgentTestTurn turn = { 0 };
  const GError *kept;
  TestStore db;

  test_store_open (&db);
  conversation = agent_store_create_conversation (db.store);
  agent_session_set_memory (session, AGENT_MEMORY (conversation));
  agent_session_add_tool (session, calculator);
  agent_test_openai_add_text_response (server, deltas, 10, 4);
  agent_test_turn_run_message (&turn, session, question);
  g_assert_no_error (turn.error);
  test_store_add_tool_turn (server, "It is 4 and 42.");
  agent_test_turn_run (&turn, session, "Two sums, please", NULL);
  g_assert_no_error (turn.error);
  agent_test_turn_clear (&turn);
  g_assert_true (agent_conversation_rename (conversation, "Sums and a picture", &error));
  g_assert_true (agent_conversation_set_model (conversation, "openai", "test-model", &error));
  g_assert_true (agent_conversation_set_settings (conversation, settings, &error));
  g_assert_true (agent_conversation_set_error (conversation,
                                               g_list_model_get_n_items (G_LIST_MODEL (conversation)) - 1,
                                               failed, &error));
  g_assert_no_error (error);
  test_store_flush (db.store);

  back = test_store_read_back (&db, agent_conversation_get_id (conversation), &again);
  json = agent_conversation_export (back, AGENT_EXPORT_FORMAT_JSON, &error);
  g_assert_no_error (error);

  /* Deleted for good */
  g_assert_true (agent_store_delete_conversation (again, back, &error));
  g_assert_true (agent_store_purge_deleted (again, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n_listed (again), ==, 0);

  imported = import (again, json, &error);
  g_assert_no_error (error);
  g_assert_nonnull (imported);
  g_assert_cmpint (agent_conversation_get_id (imported), >, 0);
  g_assert_cmpuint (n_listed (again), ==, 1);
  g_assert_cmpstr (agent_conversation_get_title (imported), ==, "Sums and a picture");
  g_assert_cmpstr (agent_conversation_get_model (imported), ==, "test-model");
  g_assert_true (g_date_time_equal (agent_conversation_get_created (imported),
                                    agent_conversation_get_created (back)));
  test_store_assert_same_messages (G_LIST_MODEL (back), G_LIST_MODEL (imported));
  {
    g_autoptr(AgentMessage) first = g_list_model_get_item (G_LIST_MODEL (imported), 0);

    g_assert_cmpuint (agent_message_get_n_attachments (first), ==, 1);
    g_assert_true (g_bytes_equal (agent_content_part_get_data (
                                    agent_message_get_attachment (first, 0)), png));
  }
  kept = agent_conversation_get_error (imported,
                                       g_list_model_get_n_items (G_LIST_MODEL (imported)) - 1);
  g_assert_error (kept, AGENT_ERROR, AGENT_ERROR_HTTP);
  g_assert_cmpstr (kept->message, ==, "The server said no");

  /* Exported again: the same, but for its id (and update time) */
  json_again = agent_conversation_export (imported, AGENT_EXPORT_FORMAT_JSON, &error);
  g_assert_no_error (error);
  assert_same_but_id (json, json_again);

  /* And read back from the file, the same too */
  {
    g_autoptr(AgentStore) third = NULL;
    g_autoptr(AgentConversation) reread = test_store_read_back (&db,
                                                                agent_conversation_get_id (imported),
                                                                &third);

    test_store_assert_same_messages (G_LIST_MODEL (back), G_LIST_MODEL (reread));
    g_assert_cmpstr (agent_conversation_get_title (reread), ==, "Sums and a picture");
    test_store_flush (third);
  }

  test_store_flush (again);
  agent_session_set_memory (session, NULL);
  g_clear_object (&conversation);
  g_clear_object (&back);
  g_clear_object (&imported);
  g_clear_object (&again);
  test_store_close (&db);
}

static void
append_text (AgentConversation *conversation,
             AgentMessageRole   role,
             const char        *text)
{
  g_autoptr(AgentMessage) message = agent_message_new (role, text);

  test_store_append (conversation, message);
}

/* Every message of @conversation's tree, from its first messages down,
 * children in the order they came, into @messages; one line each of its
 * place ("depth child-index / n-children") into @outline */
static void
walk (AgentConversation *conversation,
      gint64             id,
      guint              depth,
      GListStore        *messages,
      GString           *outline)
{
  gsize n_ids = 0;
  g_autofree gint64 *ids = agent_conversation_dup_following (conversation, id, &n_ids);

  for (gsize i = 0; i < n_ids; i++)
    {
      AgentMessage *message = agent_conversation_lookup_message (conversation, ids[i]);

      g_assert_nonnull (message);
      g_list_store_append (messages, message);
      g_string_append_printf (outline, "%u %zu/%zu %s\n", depth, i, n_ids,
                              agent_message_get_content (message));
      walk (conversation, ids[i], depth + 1, messages, outline);
    }
}

/* The trees of @a and @b are the same, and so are their active branches */
static void
assert_same_tree (AgentConversation *a,
                  AgentConversation *b)
{
  g_autoptr(GListStore) first = g_list_store_new (AGENT_TYPE_MESSAGE);
  g_autoptr(GListStore) second = g_list_store_new (AGENT_TYPE_MESSAGE);
  g_autoptr(GString) first_outline = g_string_new (NULL);
  g_autoptr(GString) second_outline = g_string_new (NULL);

  walk (a, -1, 0, first, first_outline);
  walk (b, -1, 0, second, second_outline);
  g_assert_cmpstr (first_outline->str, ==, second_outline->str);
  test_store_assert_same_messages (G_LIST_MODEL (first), G_LIST_MODEL (second));
  test_store_assert_same_messages (G_LIST_MODEL (a), G_LIST_MODEL (b));
}

static char *
count_rows (TestStore  *db,
            const char *table,
            gint64      conversation)
{
  g_autofree char *sql = NULL;

  if (g_str_equal (table, "messages"))
    sql = g_strdup_printf ("SELECT count(*) FROM messages WHERE conversation_id = %"
                           G_GINT64_FORMAT, conversation);
  else
    sql = g_strdup_printf ("SELECT count(*) FROM %s JOIN messages ON messages.id = %s.message_id "
                           "WHERE messages.conversation_id = %" G_GINT64_FORMAT,
                           table, table, conversation);
  return test_store_query (db->path, sql);
}

static void
test_branches (void)
{
  g_autoptr(GBytes) png = agent_test_grey_png_new (30, 20, 20);
  g_autoptr(AgentMessage) edited = agent_test_image_message_new ("Second, edited", png);
  g_autoptr(AgentMessage) calling = agent_message_new (AGENT_MESSAGE_ROLE_ASSISTANT, NULL);
  g_autoptr(AgentToolCall) call = agent_tool_call_new ("call-1", "calculator",
                                                       "{\"expression\": \"6 * 7\"}");
  g_autoptr(AgentMessage) result = agent_message_new_tool_result ("call-1", "calculator", "42",
                                                                  FALSE);
  g_autoptr(AgentConversation) conversation = NULL;
  g_autoptr(AgentConversation) back = NULL;
  g_autoptr(AgentConversation) imported = NULL;
  g_autoptr(AgentConversation) reread = NULL;
  g_autoptr(AgentStore) again = NULL;
  g_autoptr(AgentStore) third = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;
  g_autofree char *json_again = NULL;
  g_autofree char *markdown = NULL;
  AgentMemory *memory;
  gint64 id;
  TestStore db;

  test_store_open (&db);
  conversation = agent_store_create_conversation (db.store);
  memory = AGENT_MEMORY (conversation);
  append_text (conversation, AGENT_MESSAGE_ROLE_USER, "First");
  append_text (conversation, AGENT_MESSAGE_ROLE_ASSISTANT, "One.");
  append_text (conversation, AGENT_MESSAGE_ROLE_USER, "Second");
  append_text (conversation, AGENT_MESSAGE_ROLE_ASSISTANT, "Two.");
  /* Regenerated */
  g_assert_true (agent_memory_branch (memory, 3, &error));
  append_text (conversation, AGENT_MESSAGE_ROLE_ASSISTANT, "Two, again.");
  /* Edited, with an image, answered with a tool */
  g_assert_true (agent_memory_branch (memory, 2, &error));
  g_assert_no_error (error);
  test_store_append (conversation, edited);
  agent_message_add_tool_call (calling, call);
  test_store_append (conversation, calling);
  test_store_append (conversation, result);
  append_text (conversation, AGENT_MESSAGE_ROLE_ASSISTANT, "It is 42.");
  /* Back to the first answer of the first question: not the newest branch */
  g_assert_true (agent_memory_select_sibling (memory, 2, 0, &error));
  g_assert_true (agent_memory_select_sibling (memory, 3, 0, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (conversation)), ==, 4);
  test_store_flush (db.store);

  back = test_store_read_back (&db, agent_conversation_get_id (conversation), &again);
  json = agent_conversation_export (back, AGENT_EXPORT_FORMAT_JSON, &error);
  g_assert_no_error (error);
  markdown = agent_conversation_export (back, AGENT_EXPORT_FORMAT_MARKDOWN, &error);
  g_assert_no_error (error);

  /* Markdown: the active branch, nothing of the others */
  agent_test_assert_contains (markdown, "Second");
  agent_test_assert_contains (markdown, "Two.");
  g_assert_null (strstr (markdown, "Two, again."));
  g_assert_null (strstr (markdown, "edited"));
  g_assert_null (strstr (markdown, "It is 42."));

  imported = import (again, json, &error);
  g_assert_no_error (error);
  g_assert_nonnull (imported);
  id = agent_conversation_get_id (imported);
  g_assert_cmpint (id, !=, agent_conversation_get_id (back));
  assert_same_tree (back, imported);
  g_assert_cmpint (agent_conversation_get_message_id (imported, 3), ==,
                   agent_conversation_get_message_id (back, 3));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (imported)), ==, 4);
  {
    g_autoptr(AgentMessage) last = g_list_model_get_item (G_LIST_MODEL (imported), 3);

    g_assert_cmpstr (agent_message_get_content (last), ==, "Two.");
  }
  /* The other branches are reached, with their image and their tool call */
  g_assert_cmpuint (agent_memory_get_n_siblings (AGENT_MEMORY (imported), 2), ==, 2);
  g_assert_cmpuint (agent_memory_get_n_siblings (AGENT_MEMORY (imported), 3), ==, 2);
  g_assert_true (agent_memory_select_sibling (AGENT_MEMORY (imported), 2, 1, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (imported)), ==, 6);
  {
    g_autoptr(AgentMessage) question = g_list_model_get_item (G_LIST_MODEL (imported), 2);
    g_autoptr(AgentMessage) answer = g_list_model_get_item (G_LIST_MODEL (imported), 3);

    g_assert_cmpuint (agent_message_get_n_attachments (question), ==, 1);
    g_assert_true (g_bytes_equal (agent_content_part_get_data (
                                    agent_message_get_attachment (question, 0)), png));
    g_assert_cmpuint (agent_message_get_n_tool_calls (answer), ==, 1);
    g_assert_cmpstr (agent_tool_call_get_name (agent_message_get_tool_call (answer, 0)), ==,
                     "calculator");
  }
  g_assert_true (agent_memory_select_sibling (AGENT_MEMORY (imported), 2, 0, &error));
  g_assert_true (agent_memory_select_sibling (AGENT_MEMORY (imported), 3, 0, &error));
  g_assert_no_error (error);
  test_store_flush (again);

  /* In the file: every row, twice (the conversation and its import) */
  {
    g_autofree char *n_messages = count_rows (&db, "messages", id);
    g_autofree char *n_calls = count_rows (&db, "tool_calls", id);
    g_autofree char *n_parts = count_rows (&db, "message_parts", id);
    g_autofree char *was_messages = count_rows (&db, "messages", agent_conversation_get_id (back));

    g_assert_cmpstr (n_messages, ==, "9");
    g_assert_cmpstr (was_messages, ==, "9");
    g_assert_cmpstr (n_calls, ==, "1");
    g_assert_cmpstr (n_parts, ==, "1");
  }

  /* Read back from the file: the same tree and leaf */
  reread = test_store_read_back (&db, id, &third);
  assert_same_tree (back, reread);

  /* Exported again: the same, but for its id (and update time) */
  json_again = agent_conversation_export (reread, AGENT_EXPORT_FORMAT_JSON, &error);
  g_assert_no_error (error);
  assert_same_but_id (json, json_again);

  test_store_flush (third);
  g_clear_object (&conversation);
  g_clear_object (&back);
  g_clear_object (&imported);
  g_clear_object (&reread);
  g_clear_object (&again);
  g_clear_object (&third);
  test_store_close (&db);
}

/* As agent_conversation_export() wrote it before branches */
static const char old_format[] =
  "{\"format\":\"libagent-conversation\",\"version\":1,\"id\":3,\"title\":\"Old\","
  "\"messages\":[{\"role\":\"user\",\"state\":\"complete\",\"content\":\"Hello\"},"
  "{\"role\":\"assistant\",\"state\":\"complete\",\"content\":\"Hi.\"},"
  "{\"role\":\"user\",\"state\":\"complete\",\"content\":\"Again\"},"
  "{\"role\":\"assistant\",\"state\":\"complete\",\"content\":\"Hi again.\"}]}";

static void
test_old_format (void)
{
  g_autoptr(AgentConversation) imported = NULL;
  g_autoptr(AgentConversation) reread = NULL;
  g_autoptr(AgentStore) again = NULL;
  g_autoptr(GListStore) messages = g_list_store_new (AGENT_TYPE_MESSAGE);
  g_autoptr(GString) outline = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  TestStore db;

  test_store_open (&db);
  imported = import (db.store, old_format, &error);
  g_assert_no_error (error);
  test_store_flush (db.store);

  reread = test_store_read_back (&db, agent_conversation_get_id (imported), &again);
  walk (reread, -1, 0, messages, outline);
  g_assert_cmpstr (outline->str, ==, "0 0/1 Hello\n1 0/1 Hi.\n2 0/1 Again\n3 0/1 Hi again.\n");
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (reread)), ==, 4);
  g_assert_cmpint (agent_conversation_get_message_id (reread, 3), ==, 3);
  test_store_assert_same_messages (G_LIST_MODEL (imported), G_LIST_MODEL (reread));

  test_store_flush (again);
  g_clear_object (&imported);
  g_clear_object (&reread);
  g_clear_object (&again);
  test_store_close (&db);
}

/* Refused: each file, and what the error says */
typedef struct
{
  const char *name;
  const char *json;
  const char *says;
} Refusal;

#define HEAD "{\"format\":\"libagent-conversation\",\"version\":1,\"title\":\"T\",\"messages\":"
/* "hi" in base64, and its SHA-256 */
#define HI "aGk="
/* Messages 0 and 1 of a tree */
#define P0 "[{\"id\":0,\"parent\":null,\"role\":\"user\",\"content\":\"Q\"}"
#define P1 "{\"id\":1,\"parent\":0,\"role\":\"assistant\",\"content\":\"A\"}"
#define HI_SHA "8f434346648f6b96df89dda901c5176b10a6d83961dd3c1ac88b59b2dc327aa4"

static const Refusal refusals[] = {
  { "not-json", "{\"format\": \"libagent-conversation\",", "It is not JSON" },
  { "not-object", "[1, 2]", "not an object" },
  { "other-format", "{\"format\":\"something\",\"version\":1,\"messages\":[]}", "“format”" },
  { "no-version", "{\"format\":\"libagent-conversation\",\"messages\":[]}", "“version” is missing" },
  { "newer", "{\"format\":\"libagent-conversation\",\"version\":7,\"messages\":[]}",
    "version 7" },
  { "no-messages", HEAD "[]}", "no messages" },
  { "messages-not-list", HEAD "{}}", "“messages” is not a list" },
  { "message-not-object", HEAD "[\"hello\"]}", "message 1: it is not an object" },
  { "no-role", HEAD "[{\"content\":\"x\"}]}", "message 1: “role” is missing" },
  { "bad-role", HEAD "[{\"role\":\"user\"},{\"role\":\"wizard\"}]}",
    "message 2: “role” is “wizard”, not one of system, user, assistant, tool" },
  { "content-number", HEAD "[{\"role\":\"user\",\"content\":42}]}",
    "message 1: “content” is not a string" },
  { "bad-date", HEAD "[{\"role\":\"user\",\"created\":\"yesterday\"}]}",
    "message 1: “created” is not a date" },
  { "usage-not-object", HEAD "[{\"role\":\"assistant\",\"usage\":3}]}",
    "message 1: “usage” is not an object" },
  { "attachment-kind", HEAD "[{\"role\":\"user\",\"attachments\":[{\"kind\":\"sound\","
    "\"mime-type\":\"audio/ogg\",\"data\":\"" HI "\"}]}]}",
    "message 1, attachment 1: “kind” is “sound”" },
  { "attachment-base64", HEAD "[{\"role\":\"user\",\"attachments\":[{\"kind\":\"image\","
    "\"mime-type\":\"image/png\",\"data\":\"not base64!\"}]}]}",
    "message 1, attachment 1: its “data” is not base64" },
  { "attachment-checksum", HEAD "[{\"role\":\"user\",\"attachments\":[{\"kind\":\"file\","
    "\"mime-type\":\"text/plain\",\"data\":\"" HI "\",\"sha256\":\"00" HI_SHA "\"}]}]}",
    "message 1, attachment 1: its data does not match its sha256" },
  { "attachment-size", HEAD "[{\"role\":\"user\",\"attachments\":[{\"kind\":\"file\","
    "\"mime-type\":\"text/plain\",\"data\":\"" HI "\",\"size\":900}]}]}",
    "its data is 2 bytes, not the 900 its “size” says" },
  { "attachment-offset", HEAD "[{\"role\":\"user\",\"content\":\"ab\",\"attachments\":["
    "{\"kind\":\"file\",\"mime-type\":\"text/plain\",\"data\":\"" HI "\",\"offset\":3}]}]}",
    "“offset” 3 is past the end of the message's text (2 bytes)" },
  { "attachment-nothing", HEAD "[{\"role\":\"user\",\"attachments\":[{\"kind\":\"image\","
    "\"mime-type\":\"image/png\"}]}]}",
    "it has neither “data” nor “uri”" },
  { "attachment-uri", HEAD "[{\"role\":\"user\",\"attachments\":[{\"kind\":\"image\","
    "\"mime-type\":\"image/png\",\"uri\":\"file:///etc/passwd\"}]}]}",
    "its “uri” is not an http: or https: address" },
  { "tool-call-name", HEAD "[{\"role\":\"assistant\",\"tool-calls\":[{\"id\":\"c\"}]}]}",
    "message 1, tool call 1: “name” is missing" },
  { "tool-call-state", HEAD "[{\"role\":\"assistant\",\"tool-calls\":[{\"name\":\"t\","
    "\"state\":\"exploded\"}]}]}",
    "message 1, tool call 1: “state” is “exploded”" },
  { "summary-range", HEAD "[{\"role\":\"assistant\",\"summary\":{\"start\":0,\"end\":9}}]}",
    "message 1: its “summary” is not the range of messages before it" },
  { "error-no-domain", HEAD "[{\"role\":\"user\",\"error\":{\"message\":\"x\"}}]}",
    "message 1: its “error” has no “domain”" },
  { "negative-duration", HEAD "[{\"role\":\"assistant\",\"tool-calls\":[{\"name\":\"t\","
    "\"duration-us\":-5}]}]}",
    "“duration-us” is not a whole number of at least -1" },
  /* Broken trees */
  { "parent-missing", HEAD P0 "," P1 "],\"branches\":[{\"id\":2,\"parent\":7,"
    "\"role\":\"assistant\"}]}",
    "“branches”, message 1: its “parent” 7 is not the id of a message in the file" },
  { "cycle", HEAD P0 "," P1 "],\"branches\":[{\"id\":2,\"parent\":3,\"role\":\"user\"},"
    "{\"id\":3,\"parent\":2,\"role\":\"assistant\"}]}",
    "“branches”, message 1: its “parent” 3 leads back to it: the messages make a cycle" },
  { "own-parent", HEAD P0 "," P1 "],\"branches\":[{\"id\":2,\"parent\":2,"
    "\"role\":\"user\"}]}",
    "“branches”, message 1: its “parent” 2 leads back to it" },
  { "parent-after", HEAD P0 "," P1 "],\"branches\":[{\"id\":2,\"parent\":3,\"role\":\"user\"},"
    "{\"id\":3,\"parent\":0,\"role\":\"assistant\"}]}",
    "“branches”, message 1: its “parent” 3 comes after it" },
  { "leaf-missing", HEAD P0 "," P1 "],\"leaf\":9}",
    "“leaf” 9 is not the id of a message in the file" },
  { "leaf-not-path", HEAD P0 "," P1 "],\"branches\":[{\"id\":2,\"parent\":0,"
    "\"role\":\"assistant\"}],\"leaf\":2}",
    "“leaf” 2 is not the last of “messages”, the active branch" },
  { "path-broken", HEAD P0 ",{\"id\":1,\"parent\":null,\"role\":\"assistant\"}]}",
    "message 2: its “parent” is not the message before it" },
  { "same-id", HEAD P0 "," P1 "],\"branches\":[{\"id\":1,\"parent\":0,"
    "\"role\":\"assistant\"}]}",
    "“branches”, message 1: its “id” 1 is that of message 2 too" },
  { "id-missing", HEAD P0 ",{\"role\":\"assistant\"}]}",
    "message 2: “id” is missing (the other messages have one)" },
  { "branches-no-id", HEAD "[{\"role\":\"user\"}],\"branches\":[{\"role\":\"user\"}]}",
    "The messages of “branches” have no “id”" },
  { "leaf-not-id", HEAD P0 "],\"leaf\":\"last\"}", "“leaf” is not the id of a message" },
};

static void
test_refused (gconstpointer data)
{
  const Refusal *refusal = data;
  g_autoptr(AgentConversation) conversation = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *count = NULL;
  TestStore db;

  test_store_open (&db);
  conversation = import (db.store, refusal->json, &error);
  g_assert_null (conversation);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  agent_test_assert_contains (error->message, refusal->says);
  /* Nothing written */
  g_assert_cmpuint (n_listed (db.store), ==, 0);
  test_store_flush (db.store);
  count = test_store_query (db.path, "SELECT count(*) FROM messages");
  g_assert_cmpstr (count, ==, "0");
  test_store_close (&db);
}

/* Nested deeper than the reader takes: refused, not a crash */
static void
test_refused_deep (void)
{
  g_autoptr(GString) json = g_string_new (HEAD "[{\"role\":\"user\",\"provider-data\":");
  g_autoptr(AgentConversation) conversation = NULL;
  g_autoptr(GError) error = NULL;
  TestStore db;

  for (guint i = 0; i < 100000; i++)
    g_string_append (json, "{\"a\":");
  g_string_append (json, "1");
  for (guint i = 0; i < 100000; i++)
    g_string_append_c (json, '}');
  g_string_append (json, "}]}");

  test_store_open (&db);
  conversation = import (db.store, json->str, &error);
  g_assert_null (conversation);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  agent_test_assert_contains (error->message, "It is not JSON");
  test_store_close (&db);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/store/import/round-trip", test_round_trip);
  g_test_add_func ("/store/import/branches", test_branches);
  g_test_add_func ("/store/import/old-format", test_old_format);
  for (guint i = 0; i < G_N_ELEMENTS (refusals); i++)
    {
      g_autofree char *path = g_strdup_printf ("/store/import/refused/%s", refusals[i].name);

      g_test_add_data_func (path, &refusals[i], test_refused);
    }
  g_test_add_func ("/store/import/refused/too-deep", test_refused_deep);

  return g_test_run ();
}
