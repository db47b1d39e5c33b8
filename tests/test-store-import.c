/* test-store-import.c — conversations imported from the JSON that Export
 * writes
 *
 * - /store/import/round-trip: a conversation with an image, a tool turn, a
 *   title, settings and an error kept with its last message, exported,
 *   deleted for good, imported: the same messages (every field), the same
 *   attachments, tool calls, title, creation time, model and settings, the
 *   same error; and exported again, the same JSON but for its id.
 * - /store/import/refused/…: files that are not such an export, or are
 *   damaged or hostile, are refused with an error that says what is wrong
 *   and where; nothing is written.
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
  for (guint i = 0; i < G_N_ELEMENTS (refusals); i++)
    {
      g_autofree char *path = g_strdup_printf ("/store/import/refused/%s", refusals[i].name);

      g_test_add_data_func (path, &refusals[i], test_refused);
    }
  g_test_add_func ("/store/import/refused/too-deep", test_refused_deep);

  return g_test_run ();
}
