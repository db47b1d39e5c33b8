/* test-store-attachments.c — images and documents in stored conversations
 *
 * - /store/attachments/round-trip: the parts of a message come back as
 *   they were saved, in order, with their bytes, names and URIs.
 * - /store/attachments/audio: a recording comes back an audio part.
 * - /store/attachments/dedup-delete: an image two conversations carry is
 *   kept once; deleting one keeps it for the other, deleting both frees it.
 * - /store/attachments/migrate-from-v4: a database written by the previous
 *   schema (tests/test-store-v4.db, made by agent-cli of commit 40caa76)
 *   opens, migrated, with nothing lost, and takes attachments.
 * - /store/attachments/export: JSON in base64, Markdown embedded.
 * - /store/attachments/cli: agent-cli --attach keeps the files with the
 *   conversation, and a kill -9 in the middle of the turn leaves them whole.
 * - /store/attachments/cli-refused: a file the provider does not take is
 *   refused before anything is written, and -c goes on.
 * - /store/attachments/scaled: what a turn made of an image (scaled to the
 *   provider's size, in base64) is kept with it: after a restart, the next
 *   request sends the same without scaling it again; the original stays.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <signal.h>
#include <string.h>

#include <agent.h>

#include "agent-test-cli.h"
#include "agent-test-openai.h"
#include "agent-test-png.h"
#include "agent-test-server.h"
#include "agent-test-turn.h"
#include "messages/agent-content-part-private.h"
#include "agent-test-util.h"
#include "test-store-util.h"

static const char png_bytes[] = "\x89PNG\r\n\x1a\n\0\0\0\rIHDR fake image";
static const char pdf_bytes[] = "%PDF-1.4\n% fake document\n";

static AgentContentPart *
png_part (void)
{
  g_autoptr(GBytes) data = g_bytes_new_static (png_bytes, sizeof png_bytes - 1);

  return agent_content_part_new_image ("image/png", data);
}

/* Text, an image, more text, a document, an image by URL */
static AgentMessage *
message_new (void)
{
  g_autoptr(GBytes) pdf = g_bytes_new_static (pdf_bytes, sizeof pdf_bytes - 1);
  g_autoptr(AgentContentPart) first = agent_content_part_new_text ("Look:");
  g_autoptr(AgentContentPart) image = png_part ();
  g_autoptr(AgentContentPart) second = agent_content_part_new_text ("And read:");
  g_autoptr(AgentContentPart) document = agent_content_part_new_file ("application/pdf", pdf,
                                                                      "report.pdf");
  g_autoptr(AgentContentPart) remote = agent_content_part_new_for_uri (AGENT_CONTENT_PART_KIND_IMAGE,
                                                                       "image/jpeg",
                                                                       "https://example.com/a.jpg");
  AgentContentPart *parts[] = { first, image, second, document, remote };

  return agent_message_new_with_parts (AGENT_MESSAGE_ROLE_USER, parts, G_N_ELEMENTS (parts));
}

static void
assert_same_parts (AgentMessage *expected,
                   AgentMessage *actual)
{
  g_autoptr(GListModel) want = agent_message_list_parts (expected);
  g_autoptr(GListModel) got = agent_message_list_parts (actual);
  guint n = g_list_model_get_n_items (want);

  g_assert_cmpstr (agent_message_get_content (actual), ==, agent_message_get_content (expected));
  g_assert_cmpuint (g_list_model_get_n_items (got), ==, n);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AgentContentPart) a = g_list_model_get_item (want, i);
      g_autoptr(AgentContentPart) b = g_list_model_get_item (got, i);

      g_assert_cmpint (agent_content_part_get_kind (b), ==, agent_content_part_get_kind (a));
      g_assert_cmpstr (agent_content_part_get_text (b), ==, agent_content_part_get_text (a));
      g_assert_cmpstr (agent_content_part_get_mime_type (b), ==, agent_content_part_get_mime_type (a));
      g_assert_cmpstr (agent_content_part_get_name (b), ==, agent_content_part_get_name (a));
      g_assert_cmpstr (agent_content_part_get_uri (b), ==, agent_content_part_get_uri (a));
      g_assert_true ((agent_content_part_get_data (a) == NULL) ==
                     (agent_content_part_get_data (b) == NULL));
      if (agent_content_part_get_data (a) != NULL)
        g_assert_true (g_bytes_equal (agent_content_part_get_data (a),
                                      agent_content_part_get_data (b)));
    }
}

static void
test_round_trip (void)
{
  g_autoptr(AgentConversation) conversation = NULL;
  g_autoptr(AgentConversation) back = NULL;
  g_autoptr(AgentStore) again = NULL;
  g_autoptr(AgentMessage) message = message_new ();
  g_autoptr(AgentMessage) answer = agent_message_new (AGENT_MESSAGE_ROLE_ASSISTANT, "A report.");
  g_autoptr(AgentMessage) read = NULL;
  g_autoptr(GError) error = NULL;
  guint64 size = 0;
  TestStore db;

  test_store_open (&db);
  conversation = agent_store_create_conversation (db.store);
  test_store_append (conversation, message);
  test_store_append (conversation, answer);
  test_store_flush (db.store);  /* the id comes with the first write */

  back = test_store_read_back (&db, agent_conversation_get_id (conversation), &again);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (back)), ==, 2);
  read = g_list_model_get_item (G_LIST_MODEL (back), 0);
  g_assert_cmpuint (agent_message_get_n_attachments (read), ==, 3);
  assert_same_parts (message, read);

  /* The bytes of the image and the document; the URL takes none */
  g_assert_true (agent_conversation_get_attachments_size (back, &size, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (size, ==, (sizeof png_bytes - 1) + (sizeof pdf_bytes - 1));

  g_clear_object (&back);
  g_clear_object (&again);
  test_store_assert_sound (db.path);
  g_clear_object (&conversation);
  test_store_close (&db);
}

/* A recording comes back an audio part, with its bytes and type */
static void
test_audio (void)
{
  static const char wav[] = "RIFF\x24\0\0\0WAVEfmt fake recording";
  g_autoptr(AgentConversation) conversation = NULL;
  g_autoptr(AgentConversation) back = NULL;
  g_autoptr(AgentStore) again = NULL;
  g_autoptr(GBytes) data = g_bytes_new_static (wav, sizeof wav - 1);
  g_autoptr(AgentContentPart) text = agent_content_part_new_text ("Listen:");
  g_autoptr(AgentContentPart) audio = agent_content_part_new_audio ("audio/wav", data);
  AgentContentPart *parts[] = { text, audio };
  g_autoptr(AgentMessage) message = agent_message_new_with_parts (AGENT_MESSAGE_ROLE_USER, parts, 2);
  g_autoptr(AgentMessage) read = NULL;
  TestStore db;

  test_store_open (&db);
  conversation = agent_store_create_conversation (db.store);
  test_store_append (conversation, message);
  test_store_flush (db.store);

  back = test_store_read_back (&db, agent_conversation_get_id (conversation), &again);
  read = g_list_model_get_item (G_LIST_MODEL (back), 0);
  g_assert_cmpuint (agent_message_get_n_attachments (read), ==, 1);
  g_assert_cmpint (agent_content_part_get_kind (agent_message_get_attachment (read, 0)), ==,
                   AGENT_CONTENT_PART_KIND_AUDIO);
  assert_same_parts (message, read);

  g_clear_object (&back);
  g_clear_object (&again);
  test_store_assert_sound (db.path);
  g_clear_object (&conversation);
  test_store_close (&db);
}

static char *
count_attachments (const char *path)
{
  return test_store_query (path, "SELECT count(*) FROM attachments");
}

static void
test_dedup_delete (void)
{
  g_autoptr(AgentConversation) first = NULL;
  g_autoptr(AgentConversation) second = NULL;
  g_autoptr(AgentConversation) back = NULL;
  g_autoptr(AgentStore) again = NULL;
  g_autoptr(AgentContentPart) image = png_part ();
  g_autoptr(AgentMessage) one = agent_message_new_with_parts (AGENT_MESSAGE_ROLE_USER, &image, 1);
  g_autoptr(AgentMessage) two = agent_message_new_with_parts (AGENT_MESSAGE_ROLE_USER, &image, 1);
  g_autoptr(AgentMessage) three = agent_message_new_with_parts (AGENT_MESSAGE_ROLE_USER, &image, 1);
  g_autoptr(AgentMessage) read = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *count = NULL;
  g_autofree char *parts = NULL;
  gint64 second_id;
  TestStore db;

  test_store_open (&db);
  first = agent_store_create_conversation (db.store);
  second = agent_store_create_conversation (db.store);
  test_store_append (first, one);
  test_store_append (first, three);
  test_store_append (second, two);
  test_store_flush (db.store);
  second_id = agent_conversation_get_id (second);

  /* Three messages, one copy of the bytes */
  count = count_attachments (db.path);
  g_assert_cmpstr (count, ==, "1");
  g_clear_pointer (&count, g_free);
  parts = test_store_query (db.path, "SELECT count(*) FROM message_parts");
  g_assert_cmpstr (parts, ==, "3");

  /* Deleting the first conversation for good keeps the second's */
  g_assert_true (agent_store_delete_conversation (db.store, first, &error));
  g_assert_no_error (error);
  g_assert_true (agent_store_purge_deleted (db.store, &error));
  g_assert_no_error (error);
  count = count_attachments (db.path);
  g_assert_cmpstr (count, ==, "1");
  g_clear_pointer (&count, g_free);
  back = test_store_read_back (&db, second_id, &again);
  read = g_list_model_get_item (G_LIST_MODEL (back), 0);
  assert_same_parts (two, read);
  g_clear_object (&read);
  g_clear_object (&back);
  g_clear_object (&again);

  /* Deleting the second's message frees it (branching would keep it) */
  g_assert_true (agent_memory_delete_branch (AGENT_MEMORY (second), 0, &error));
  g_assert_no_error (error);
  test_store_flush (db.store);  /* the deletion is written on the store's thread */
  count = count_attachments (db.path);
  g_assert_cmpstr (count, ==, "0");
  test_store_assert_sound (db.path);

  g_clear_object (&first);
  g_clear_object (&second);
  test_store_close (&db);
}

static void
test_migrate_from_v4 (void)
{
  g_autofree char *dir = agent_test_make_dir ("test-store-v4");
  g_autofree char *path = g_build_filename (dir, "old.db", NULL);
  g_autofree char *source = g_test_build_filename (G_TEST_DIST, "test-store-v4.db", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *version = NULL;
  g_autoptr(AgentStore) store = NULL;
  g_autoptr(AgentStore) again = NULL;
  g_autoptr(GListModel) list = NULL;
  g_autoptr(AgentConversation) sums = NULL;
  g_autoptr(AgentConversation) hello = NULL;
  g_autoptr(AgentConversation) back = NULL;
  g_autoptr(AgentMessage) message = message_new ();
  g_autoptr(AgentMessage) read = NULL;
  g_autoptr(AgentMessage) call = NULL;
  g_autoptr(GError) error = NULL;
  gsize len;

  g_file_get_contents (source, &contents, &len, &error);
  g_assert_no_error (error);
  g_file_set_contents (path, contents, len, &error);
  g_assert_no_error (error);
  version = test_store_query (path, "PRAGMA user_version");
  g_assert_cmpstr (version, ==, "4");
  g_clear_pointer (&version, g_free);

  store = agent_store_new (path, &error);
  g_assert_no_error (error);
  version = test_store_query (path, "PRAGMA user_version");
  g_assert_cmpstr (version, ==, "8");

  /* What the old agent-cli wrote is all there */
  list = agent_store_list_conversations (store);
  g_assert_cmpuint (g_list_model_get_n_items (list), ==, 2);
  sums = agent_store_lookup_conversation (store, 1);
  g_assert_cmpstr (agent_conversation_get_title (sums), ==, "What is 2+3?");
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (sums)), ==, 6);
  call = g_list_model_get_item (G_LIST_MODEL (sums), 1);
  g_assert_cmpstr (agent_tool_call_get_arguments (agent_message_get_tool_call (call, 0)), ==,
                   "{\"expression\":\"2+3\"}");
  read = g_list_model_get_item (G_LIST_MODEL (sums), 3);
  g_assert_cmpstr (agent_message_get_content (read), ==, "The result of 2+3 is 5.");
  g_assert_cmpuint (agent_message_get_n_attachments (read), ==, 0);
  g_clear_object (&read);

  /* …and it takes attachments now */
  hello = agent_store_lookup_conversation (store, 2);
  test_store_append (hello, message);
  back = test_store_read_back (&(TestStore) { dir, path, store }, 2, &again);
  read = g_list_model_get_item (G_LIST_MODEL (back), 2);
  assert_same_parts (message, read);
  test_store_assert_sound (path);

  g_clear_object (&read);
  g_clear_object (&back);
  g_clear_object (&again);
  g_clear_object (&hello);
  g_clear_object (&sums);
  g_clear_object (&list);
  g_clear_object (&store);
  agent_test_remove_dir (dir);
}

static void
test_export (void)
{
  g_autoptr(AgentConversation) conversation = NULL;
  g_autoptr(AgentMessage) message = message_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;
  g_autofree char *markdown = NULL;
  g_autofree char *image64 = g_base64_encode ((const guchar *) png_bytes, sizeof png_bytes - 1);
  g_autofree char *pdf64 = g_base64_encode ((const guchar *) pdf_bytes, sizeof pdf_bytes - 1);
  g_autofree char *image_md = g_strdup_printf ("![Image](data:image/png;base64,%s)", image64);
  g_autofree char *pdf_md = g_strdup_printf ("[report.pdf](data:application/pdf;base64,%s)", pdf64);
  g_autofree char *image_sum = g_compute_checksum_for_data (G_CHECKSUM_SHA256,
                                                           (const guchar *) png_bytes,
                                                           sizeof png_bytes - 1);
  g_autofree char *pdf_sum = g_compute_checksum_for_data (G_CHECKSUM_SHA256,
                                                         (const guchar *) pdf_bytes,
                                                         sizeof pdf_bytes - 1);
  g_autofree char *expected = NULL;
  JsonObject *first;
  TestStore db;

  test_store_open (&db);
  conversation = agent_store_create_conversation (db.store);
  test_store_append (conversation, message);

  json = agent_conversation_export (conversation, AGENT_EXPORT_FORMAT_JSON, &error);
  g_assert_no_error (error);
  root = agent_test_parse_json (json);
  first = json_array_get_object_element (
    json_object_get_array_member (json_node_get_object (root), "messages"), 0);
  expected = g_strdup_printf (
    "[{\"kind\":\"image\",\"mime-type\":\"image/png\",\"name\":null,\"offset\":5,\"size\":27,"
    "  \"sha256\":\"%s\",\"data\":\"%s\"},"
    " {\"kind\":\"file\",\"mime-type\":\"application/pdf\",\"name\":\"report.pdf\",\"offset\":14,"
    "  \"size\":25,\"sha256\":\"%s\",\"data\":\"%s\"},"
    " {\"kind\":\"image\",\"mime-type\":\"image/jpeg\",\"name\":null,\"offset\":14,\"size\":0,"
    "  \"uri\":\"https://example.com/a.jpg\"}]",
    image_sum, image64, pdf_sum, pdf64);
  {
    g_autoptr(JsonNode) want = agent_test_parse_json (expected);

    g_assert_true (agent_test_json_equal (want, json_object_get_member (first, "attachments")));
  }

  markdown = agent_conversation_export (conversation, AGENT_EXPORT_FORMAT_MARKDOWN, &error);
  g_assert_no_error (error);
  agent_test_assert_contains (markdown, image_md);
  agent_test_assert_contains (markdown, pdf_md);
  agent_test_assert_contains (markdown, "![Image](https://example.com/a.jpg)");
  agent_test_assert_contains (markdown, "*application/pdf, 25 bytes*");

  g_clear_object (&conversation);
  test_store_close (&db);
}

/* agent-cli --attach: the files are kept with the conversation; killed
 * while the model answers, the question is whole */
static void
test_cli (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autoptr(AgentStore) store = NULL;
  g_autoptr(GListModel) list = NULL;
  g_autoptr(AgentConversation) conversation = NULL;
  g_autoptr(AgentMessage) question = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = agent_test_make_dir ("store-cli-attach-XXXXXX");
  g_autofree char *db_path = g_build_filename (dir, "conversations.db", NULL);
  g_autofree char *image = agent_test_write_file (dir, "shot.png", png_bytes, sizeof png_bytes - 1);
  AgentTestResponse *response;
  AgentContentPart *part;

  response = agent_test_openai_begin (server, "");
  agent_test_response_add_wait (response);
  cli = agent_test_cli_spawn (NULL, NULL,
                              AGENT_TEST_ARGS ("--json", "--base-url",
                                               agent_test_server_get_base_url (server),
                                               "--store", db_path, "--attach", image,
                                               "What is wrong here?"));
  agent_test_server_wait_until_waiting (server);
  g_subprocess_send_signal (cli->process, SIGKILL);
  agent_test_process_wait (cli);
  agent_test_server_release (server);

  test_store_assert_sound (db_path);
  store = agent_store_new (db_path, &error);
  g_assert_no_error (error);
  list = agent_store_list_conversations (store);
  g_assert_cmpuint (g_list_model_get_n_items (list), ==, 1);
  conversation = g_list_model_get_item (list, 0);
  question = g_list_model_get_item (G_LIST_MODEL (conversation), 0);
  g_assert_cmpstr (agent_message_get_content (question), ==, "What is wrong here?");
  g_assert_cmpuint (agent_message_get_n_attachments (question), ==, 1);
  part = agent_message_get_attachment (question, 0);
  g_assert_cmpstr (agent_content_part_get_name (part), ==, "shot.png");
  g_assert_cmpstr (agent_content_part_get_mime_type (part), ==, "image/png");
  g_assert_cmpuint (agent_content_part_get_size (part), ==, sizeof png_bytes - 1);

  g_clear_object (&question);
  g_clear_object (&conversation);
  g_clear_object (&list);
  g_clear_object (&store);
  agent_test_remove_dir (dir);
}

/* An attachment refused before sending (a type the provider does not
 * take) is not kept: neither the file (here holding what looks like a
 * key, as /proc/self/environ would) nor the question; and the next
 * agent-cli -c goes on, instead of failing the same way */
static void
test_cli_refused (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) refused = NULL;
  g_autoptr(AgentTestProcess) next = NULL;
  g_autofree char *dir = agent_test_make_dir ("store-cli-attach-XXXXXX");
  g_autofree char *db_path = g_build_filename (dir, "conversations.db", NULL);
  g_autofree char *archive = agent_test_write_file (dir, "environ.zip",
                                                    "PK\3\4 OPENAI_API_KEY=sk-kept-NEVER-42", -1);
  const char *base_url = agent_test_server_get_base_url (server);
  g_autofree char *count = NULL;
  JsonArray *messages;

  refused = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--base-url", base_url,
                                                      "--store", db_path, "--attach", archive,
                                                      "Unpack this"));
  agent_test_process_assert_exit (refused, 1);
  agent_test_assert_contains (agent_test_cli_assert_error (refused, "invalid-argument"),
                              "application/zip");
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 0);

  test_store_assert_sound (db_path);
  g_assert_false (test_store_file_contains (db_path, "sk-kept-NEVER-42"));
  g_assert_false (test_store_file_contains (db_path, "Unpack this"));
  count = test_store_query (db_path, "SELECT count(*) FROM messages");
  g_assert_cmpstr (count, ==, "0");
  g_clear_pointer (&count, g_free);
  count = test_store_query (db_path, "SELECT count(*) FROM attachments");
  g_assert_cmpstr (count, ==, "0");
  g_clear_pointer (&count, g_free);

  /* The conversation goes on */
  agent_test_openai_add_text_response (server, (const char * const[]) { "Hello.", NULL }, 1, 1);
  next = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--base-url", base_url,
                                                   "--store", db_path, "-c", "Hi"));
  agent_test_process_assert_exit (next, 0);
  messages = agent_test_openai_get_messages (server, 0);
  g_assert_cmpuint (json_array_get_length (messages), ==, 1);
  count = test_store_query (db_path, "SELECT count(*) FROM messages");
  g_assert_cmpstr (count, ==, "2");

  agent_test_remove_dir (dir);
}

/* The image of the first user message of request @index */
static char *
sent_image (AgentTestServer *server,
            guint            index)
{
  JsonObject *message = json_array_get_object_element (agent_test_openai_get_messages (server,
                                                                                        index),
                                                         0);
  JsonArray *content = json_object_get_array_member (message, "content");
  JsonObject *image = json_object_get_object_member (json_array_get_object_element (content, 1),
                                                     "image_url");

  return g_strdup (json_object_get_string_member (image, "url"));
}

static void
test_scaled (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentProvider) provider = agent_test_openai_provider_new (server);
  g_autoptr(AgentSession) session = agent_session_new (provider);
  g_autoptr(GBytes) png = agent_test_grey_png_new (3000, 2000, 2000);
  g_autoptr(AgentMessage) question = agent_test_image_message_new ("What is this?", png);
  g_autoptr(AgentConversation) conversation = NULL;
  g_autoptr(AgentConversation) back = NULL;
  g_autoptr(AgentStore) again = NULL;
  g_autoptr(AgentSession) later = NULL;
  g_autoptr(AgentMessage) read = NULL;
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  g_autofree char *kept = NULL;
  const char *deltas[] = { "Grey.", NULL };
  AgentTestTurn turn = { 0 };
  guint n_scaled;
  TestStore db;

#ifndef HAVE_GDK_PIXBUF
  g_test_skip ("libagent was built without gdk-pixbuf");
  return;
#endif

  test_store_open (&db);
  conversation = agent_store_create_conversation (db.store);
  agent_session_set_memory (session, AGENT_MEMORY (conversation));
  agent_test_openai_add_text_response (server, deltas, 10, 2);
  agent_test_turn_run_message (&turn, session, question);
  g_assert_no_error (turn.error);
  test_store_flush (db.store);
  first = sent_image (server, 0);
  g_assert_true (g_str_has_prefix (first, "data:image/png;base64,"));

  /* One variant, at the provider's size; the attachment as it was */
  kept = test_store_query (db.path, "SELECT group_concat (width || 'x' || height) "
                                    "FROM attachment_variants");
  g_assert_cmpstr (kept, ==, "1152x768");
  g_clear_pointer (&kept, g_free);
  kept = test_store_query (db.path, "SELECT group_concat (size) FROM attachments");
  g_assert_cmpuint (g_ascii_strtoull (kept, NULL, 10), ==, g_bytes_get_size (png));

  /* After a restart: the same image sent, nothing scaled */
  back = test_store_read_back (&db, agent_conversation_get_id (conversation), &again);
  read = g_list_model_get_item (G_LIST_MODEL (back), 0);
  g_assert_true (g_bytes_equal (agent_content_part_get_data (agent_message_get_attachment (read, 0)),
                                png));
  later = agent_session_new (provider);
  agent_session_set_memory (later, AGENT_MEMORY (back));
  n_scaled = _agent_content_part_get_n_scaled ();
  agent_test_openai_add_text_response (server, deltas, 10, 2);
  agent_test_turn_run (&turn, later, "And now?", NULL);
  g_assert_no_error (turn.error);
  second = sent_image (server, 1);
  g_assert_cmpstr (second, ==, first);
  g_assert_cmpuint (_agent_content_part_get_n_scaled (), ==, n_scaled);

  agent_test_turn_clear (&turn);
  test_store_flush (again);
  g_clear_object (&later);
  g_clear_object (&back);
  g_clear_object (&again);
  agent_session_set_memory (session, NULL);
  g_clear_object (&conversation);
  test_store_close (&db);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/store/attachments/round-trip", test_round_trip);
  g_test_add_func ("/store/attachments/audio", test_audio);
  g_test_add_func ("/store/attachments/dedup-delete", test_dedup_delete);
  g_test_add_func ("/store/attachments/migrate-from-v4", test_migrate_from_v4);
  g_test_add_func ("/store/attachments/export", test_export);
  g_test_add_func ("/store/attachments/cli", test_cli);
  g_test_add_func ("/store/attachments/cli-refused", test_cli_refused);
  g_test_add_func ("/store/attachments/scaled", test_scaled);

  return g_test_run ();
}
