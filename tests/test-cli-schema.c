/* test-cli-schema.c — agent-cli --schema FILE
 *
 * - plain: standard output is the object, indented, once checked (the
 *   text as it streamed is not shown); the request asked for the schema;
 * - --json: object-delta events, each with the changes since the one
 *   before (applied in turn, they build the object, a view of the final
 *   one at each step; their size grows with the answer, not with its
 *   square), and an object event with it, besides the usual events;
 * - an answer that does not follow the schema: exit status 1, the error
 *   with its JSON path, and the answer as it came, on standard error; so
 *   does one that was cut off (finish reason "length"), even whole;
 * - a schema file that cannot be used (not an object, nested 100,000
 *   deep, a $ref that goes round in a circle): exit status 1, said why,
 *   before any request.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "agent-test-cli.h"
#include "agent-test-openai.h"
#include "agent-test-server.h"
#include "agent-test-util.h"

static const char schema[] =
  "{\"type\": \"object\", \"additionalProperties\": false, \"required\": [\"dates\"],"
  " \"properties\": {\"dates\": {\"type\": \"array\", \"items\": {\"type\": \"object\","
  "   \"required\": [\"day\", \"month\"], \"properties\": {\"day\": {\"type\": \"integer\"},"
  "   \"month\": {\"type\": \"string\"}}}}}}";

static const char * const answer[] = {
  "{\"dates\": [{\"da", "y\": 12, \"mon", "th\": \"Mar", "ch\"}, {\"day\": 3", ", \"month\": ",
  "\"April\"}]}", NULL
};

static const char pretty[] =
  "{\n"
  "  \"dates\" : [\n"
  "    {\n"
  "      \"day\" : 12,\n"
  "      \"month\" : \"March\"\n"
  "    },\n"
  "    {\n"
  "      \"day\" : 3,\n"
  "      \"month\" : \"April\"\n"
  "    }\n"
  "  ]\n"
  "}\n";

typedef struct
{
  AgentTestServer *server;
  char            *dir;
  char            *schema_path;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  f->server = agent_test_server_new ();
  f->dir = agent_test_make_dir ("test-cli-schema");
  f->schema_path = agent_test_write_file (f->dir, "dates.json", schema, -1);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  agent_test_remove_dir (f->dir);
  g_free (f->dir);
  g_free (f->schema_path);
  agent_test_server_free (f->server);
}

static void
test_plain (Fixture       *f,
            gconstpointer  data)
{
  g_autoptr(AgentTestProcess) cli = NULL;
  JsonObject *format;

  agent_test_openai_add_text_response (f->server, answer, 10, 6);
  cli = agent_test_cli_run (AGENT_TEST_ARGS ("--base-url", agent_test_server_get_base_url (f->server),
                                             "--schema", f->schema_path, "Which dates?"));

  agent_test_process_assert_exit (cli, 0);
  g_assert_cmpstr (cli->out->str, ==, pretty);

  format = json_object_get_object_member (agent_test_openai_get_request (f->server, 0),
                                          "response_format");
  g_assert_nonnull (format);
  g_assert_cmpstr (json_object_get_string_member (format, "type"), ==, "json_schema");
}

/* The object-delta lines, their changes applied in turn: a view of
 * @object after each (after 64 of them, on a long answer), @object after
 * the last; and nothing that json-glib complained of (the live object was
 * sealed, and stopped growing) */
static void
assert_deltas (AgentTestProcess *cli,
               JsonNode         *object,
               guint             at_least)
{
  g_autoptr(JsonNode) built = NULL;
  guint n = agent_test_process_count_events (cli, "object-delta");
  guint i = 0;

  g_assert_cmpuint (n, >=, at_least);
  for (guint k = 0; k < cli->events->len; k++)
    {
      JsonObject *event = g_ptr_array_index (cli->events, k);

      if (!g_str_equal (agent_test_event_type (event), "object-delta"))
        continue;
      g_assert_true (json_object_has_member (event, "changes"));
      built = agent_test_apply_changes (g_steal_pointer (&built),
                                        json_object_get_member (event, "changes"));
      /* (A sample, on a long answer: each look costs the whole object) */
      if (i++ % (n / 64 + 1) == 0 && !agent_test_json_is_view_of (built, object))
        {
          g_autofree char *part = json_to_string (built, FALSE);

          g_error ("object-delta %u builds %s, not a view of the object", i - 1, part);
        }
    }
  g_assert_true (agent_test_json_equal (built, object));
  g_assert_null (strstr (cli->err->str, "CRITICAL"));
}

static void
test_json (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autoptr(JsonNode) object = NULL;

  agent_test_openai_add_text_response (f->server, answer, 10, 6);
  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--base-url",
                                                  agent_test_server_get_base_url (f->server),
                                                  "--schema", f->schema_path, "Which dates?"));

  agent_test_process_assert_exit (cli, 0);
  g_assert_cmpuint (agent_test_process_count_events (cli, "object"), ==, 1);
  object = json_node_ref (json_object_get_member (agent_test_process_nth_event (cli, "object", 0),
                                                  "object"));
  {
    g_autofree char *joined = g_strjoinv ("", (char **) answer);
    g_autoptr(JsonNode) want = agent_test_parse_json (joined);

    g_assert_true (agent_test_json_equal (object, want));
  }

  assert_deltas (cli, object, 3);
  /* The usual events are still there */
  {
    g_autofree char *joined = g_strjoinv ("", (char **) answer);

    g_assert_cmpstr (agent_test_cli_done_content (cli), ==, joined);
  }
}

/* A first object-delta line that shows a string still growing: the line
 * was made of a shallow copy of the session's object in an immutable
 * JsonBuilder, which sealed the string, and every later piece of it
 * failed ("json_node_set_string: assertion '!node->immutable'") */
static void
test_json_string_first (Fixture       *f,
                        gconstpointer  data)
{
  static const char * const pieces[] = {
    "{\"note\": \"Hel", "lo, ", "wor", "ld\", \"n\": 1", "2}", NULL
  };
  g_autofree char *path = agent_test_write_file (f->dir, "note.json", "{\"type\": \"object\"}", -1);
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autoptr(JsonNode) object = agent_test_parse_json ("{\"note\": \"Hello, world\", \"n\": 12}");

  agent_test_openai_add_text_response (f->server, pieces, 10, 6);
  cli = agent_test_cli_run (AGENT_TEST_ARGS ("--json", "--base-url",
                                             agent_test_server_get_base_url (f->server),
                                             "--schema", path, "A note?"));

  agent_test_process_assert_exit (cli, 0);
  g_assert_null (strstr (cli->err->str, "CRITICAL"));
  agent_test_process_parse_json (cli);
  assert_deltas (cli, object, 1);
}

/* An array of 1,000 objects in pieces of 8 bytes: the object-delta lines
 * carry what changed, so --json writes a few times the answer, not the
 * whole object again on each of its 5,000 lines */
static void
test_json_linear (Fixture       *f,
                  gconstpointer  data)
{
  static const char items_schema[] =
    "{\"type\": \"object\", \"required\": [\"items\"], \"properties\": {\"items\":"
    " {\"type\": \"array\", \"items\": {\"type\": \"object\"}}}}";
  g_autofree char *path = agent_test_write_file (f->dir, "items.json", items_schema, -1);
  g_autoptr(GString) items = g_string_new ("{\"items\": [");
  g_autoptr(GPtrArray) deltas = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autoptr(JsonNode) object = NULL;

  for (guint i = 0; i < 1000; i++)
    g_string_append_printf (items, "%s{\"n\": %u, \"name\": \"item number %u\"}",
                            i > 0 ? ", " : "", i, i);
  g_string_append (items, "]}");
  for (gsize at = 0; at < items->len; at += 8)
    g_ptr_array_add (deltas, g_strndup (items->str + at, 8));
  g_ptr_array_add (deltas, NULL);

  agent_test_openai_add_text_response (f->server, (const char * const *) deltas->pdata, 10, 6);
  cli = agent_test_cli_spawn (NULL, NULL,
                              AGENT_TEST_ARGS ("--json", "--base-url",
                                               agent_test_server_get_base_url (f->server),
                                               "--schema", path, "Items?"));
  /* (Under valgrind, this process serves 5,000 events slowly) */
  agent_test_wait_until ((gboolean (*) (gpointer)) agent_test_process_is_finished, cli);
  agent_test_process_assert_exit (cli, 0);
  agent_test_process_parse_json (cli);
  object = agent_test_parse_json (items->str);
  assert_deltas (cli, object, 1000);
  g_test_message ("an answer of %" G_GSIZE_FORMAT " bytes in %u pieces: %" G_GSIZE_FORMAT
                  " bytes of --json", items->len, deltas->len - 1, cli->out->len);
  g_assert_cmpuint (cli->out->len, <, 32 * items->len);
}

static void
test_mismatch (Fixture       *f,
               gconstpointer  data)
{
  static const char * const wrong[] = { "{\"dates\": [{\"day\": \"12\", ", "\"month\": \"March\"}]}",
                                        NULL };
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autoptr(AgentTestProcess) json_cli = NULL;

  agent_test_openai_add_text_response (f->server, wrong, 10, 6);
  cli = agent_test_cli_run (AGENT_TEST_ARGS ("--base-url", agent_test_server_get_base_url (f->server),
                                             "--schema", f->schema_path, "Which dates?"));

  agent_test_process_assert_exit (cli, 1);
  g_assert_cmpstr (cli->out->str, ==, "");
  agent_test_assert_contains (cli->err->str, "$.dates[0].day: expected integer, got string");
  agent_test_assert_contains (cli->err->str, "{\"dates\": [{\"day\": \"12\", \"month\": \"March\"}]}");

  agent_test_openai_add_text_response (f->server, wrong, 10, 6);
  json_cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--base-url",
                                                       agent_test_server_get_base_url (f->server),
                                                       "--schema", f->schema_path, "Again"));
  agent_test_process_assert_exit (json_cli, 1);
  agent_test_assert_contains (agent_test_cli_assert_error (json_cli, "schema"), "$.dates[0].day");
  g_assert_cmpuint (agent_test_process_count_events (json_cli, "object"), ==, 0);
}

/* An object that happens to be whole when the model ran out of tokens
 * (finish reason "length") is not taken */
static void
test_cut_off (Fixture       *f,
              gconstpointer  data)
{
  g_autofree char *joined = g_strjoinv ("", (char **) answer);
  g_autoptr(AgentTestProcess) cli = NULL;
  AgentTestResponse *r = agent_test_openai_begin (f->server, NULL);

  agent_test_openai_add_text (r, joined);
  agent_test_openai_add_end (r, "length", 10, 6);
  cli = agent_test_cli_run (AGENT_TEST_ARGS ("--base-url", agent_test_server_get_base_url (f->server),
                                             "--schema", f->schema_path, "Which dates?"));

  agent_test_process_assert_exit (cli, 1);
  g_assert_cmpstr (cli->out->str, ==, "");
  agent_test_assert_contains (cli->err->str, "cut off (finish reason “length”)");
}

static void
test_bad_file (Fixture       *f,
               gconstpointer  data)
{
  g_autofree char *array = agent_test_write_file (f->dir, "array.json", "[1]", -1);
  g_autofree char *missing = g_build_filename (f->dir, "missing.json", NULL);
  g_autoptr(AgentTestProcess) not_object = NULL;
  g_autoptr(AgentTestProcess) not_there = NULL;

  not_object = agent_test_cli_run (AGENT_TEST_ARGS ("--base-url",
                                                    agent_test_server_get_base_url (f->server),
                                                    "--schema", array, "Hi"));
  agent_test_process_assert_exit (not_object, 1);
  agent_test_assert_contains (not_object->err->str, "is not a JSON object");

  not_there = agent_test_cli_run (AGENT_TEST_ARGS ("--base-url",
                                                   agent_test_server_get_base_url (f->server),
                                                   "--schema", missing, "Hi"));
  agent_test_process_assert_exit (not_there, 1);
  agent_test_assert_contains (not_there->err->str, "Could not read the schema");
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 0);
}

/* 100,000 levels: json-glib's parser overflowed the stack reading it,
 * before any request */
static void
test_too_deep (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GString) deep = g_string_new ("{\"type\": \"object\", \"examples\": ");
  g_autofree char *path = NULL;
  g_autoptr(AgentTestProcess) cli = NULL;

  for (guint i = 0; i < 100000; i++)
    g_string_append_c (deep, '[');
  for (guint i = 0; i < 100000; i++)
    g_string_append_c (deep, ']');
  g_string_append_c (deep, '}');
  path = agent_test_write_file (f->dir, "deep.json", deep->str, deep->len);

  cli = agent_test_cli_run (AGENT_TEST_ARGS ("--base-url", agent_test_server_get_base_url (f->server),
                                             "--schema", path, "Hi"));
  agent_test_process_assert_exit (cli, 1);
  agent_test_assert_contains (cli->err->str, "deep.json");
  agent_test_assert_contains (cli->err->str, "nested more than 512");
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 0);
}

/* A $ref that goes round in a circle: found before the request, not when
 * the answer is checked */
static void
test_ref_loop (Fixture       *f,
               gconstpointer  data)
{
  static const char loop[] =
    "{\"type\": \"object\", \"properties\": {\"a\": {\"$ref\": \"#/$defs/b\"}},"
    " \"$defs\": {\"b\": {\"anyOf\": [{\"$ref\": \"#/$defs/c\"}]},"
    "             \"c\": {\"$ref\": \"#/$defs/b\"}}}";
  g_autofree char *path = agent_test_write_file (f->dir, "loop.json", loop, -1);
  g_autoptr(AgentTestProcess) cli = NULL;

  agent_test_openai_add_text_response (f->server, answer, 10, 6);
  cli = agent_test_cli_run (AGENT_TEST_ARGS ("--base-url", agent_test_server_get_base_url (f->server),
                                             "--schema", path, "Hi"));
  agent_test_process_assert_exit (cli, 1);
  agent_test_assert_contains (cli->err->str, "loop.json");
  agent_test_assert_contains (cli->err->str, "goes round in a circle");
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/cli-schema/plain", Fixture, NULL, fixture_setup, test_plain, fixture_teardown);
  g_test_add ("/cli-schema/json", Fixture, NULL, fixture_setup, test_json, fixture_teardown);
  g_test_add ("/cli-schema/json-linear", Fixture, NULL, fixture_setup, test_json_linear,
              fixture_teardown);
  g_test_add ("/cli-schema/json-string-first", Fixture, NULL, fixture_setup,
              test_json_string_first, fixture_teardown);
  g_test_add ("/cli-schema/mismatch", Fixture, NULL, fixture_setup, test_mismatch,
              fixture_teardown);
  g_test_add ("/cli-schema/cut-off", Fixture, NULL, fixture_setup, test_cut_off,
              fixture_teardown);
  g_test_add ("/cli-schema/bad-file", Fixture, NULL, fixture_setup, test_bad_file,
              fixture_teardown);
  g_test_add ("/cli-schema/too-deep", Fixture, NULL, fixture_setup, test_too_deep,
              fixture_teardown);
  g_test_add ("/cli-schema/ref-loop", Fixture, NULL, fixture_setup, test_ref_loop,
              fixture_teardown);

  return g_test_run ();
}
