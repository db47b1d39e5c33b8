/* test-structured-util.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agent-test-util.h"
#include "test-structured-util.h"

const char dates_schema[] =
  "{\"title\": \"dates\", \"type\": \"object\", \"additionalProperties\": false,"
  " \"required\": [\"dates\"],"
  " \"properties\": {\"dates\": {\"type\": \"array\", \"items\": {\"$ref\": \"#/$defs/date\"}}},"
  " \"$defs\": {\"date\": {\"type\": \"object\", \"additionalProperties\": false,"
  "   \"required\": [\"day\", \"month\", \"note\"],"
  "   \"properties\": {\"day\": {\"type\": \"integer\"},"
  "                    \"month\": {\"type\": \"string\", \"enum\": [\"March\", \"April\"]},"
  "                    \"note\": {\"type\": [\"string\", \"null\"]}}}}}";

const char dates_answer[] =
  "{\"dates\": [{\"day\": 12, \"month\": \"March\", \"note\": \"caf\xc3\xa9\"},"
  " {\"day\": 3, \"month\": \"April\", \"note\": null}]}";


static JsonNode *
deep_copy (JsonNode *node)
{
  g_autofree char *text = json_to_string (node, FALSE);

  return json_from_string (text, NULL);
}

/* Each object-delta's changes, applied to what the ones before built,
 * build the object it shows */
static void
object_delta_cb (AgentSession *session,
                 AgentMessage *message,
                 JsonNode     *object,
                 JsonNode     *changes,
                 Fixture      *f)
{
  g_assert_true (AGENT_IS_MESSAGE (message));
  g_assert_nonnull (changes);
  if (f->message != message)
    {
      /* A step's answer: an object of its own, which the changes add */
      g_clear_pointer (&f->built, json_node_unref);
      f->message = message;
    }
  f->built = agent_test_apply_changes (g_steal_pointer (&f->built), changes);
  if (!agent_test_json_equal (f->built, object))
    {
      g_autofree char *built = json_to_string (f->built, FALSE);
      g_autofree char *shown = json_to_string (object, FALSE);
      g_autofree char *text = json_to_string (changes, FALSE);

      g_error ("object-delta %u: its changes %s build %s, not %s", f->deltas->len, text, built,
               shown);
    }
  g_ptr_array_add (f->deltas, deep_copy (object));
}

static void
object_finished_cb (AgentSession *session,
                    AgentMessage *message,
                    JsonNode     *object,
                    Fixture      *f)
{
  g_assert_null (f->finished);
  f->finished = deep_copy (object);
}

static void
setup (Fixture    *f,
       const char *provider)
{
  agent_test_session_init (&f->s, provider);
  agent_provider_set_model (f->s.provider, "test-model");
  f->deltas = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  g_signal_connect (f->s.session, "object-delta", G_CALLBACK (object_delta_cb), f);
  g_signal_connect (f->s.session, "object-finished", G_CALLBACK (object_finished_cb), f);
}

void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  setup (f, data);
}

void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_clear_pointer (&f->deltas, g_ptr_array_unref);
  g_clear_pointer (&f->finished, json_node_unref);
  g_clear_pointer (&f->object, json_node_unref);
  g_clear_pointer (&f->built, json_node_unref);
  g_clear_error (&f->error);
  agent_test_session_clear (&f->s);
}

static void
object_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  Fixture *f = user_data;

  f->object = agent_session_send_for_object_finish (AGENT_SESSION (source), result, &f->error);
  f->done = TRUE;
}

void
run_for_object (Fixture    *f,
                const char *text,
                const char *schema_text)
{
  g_autoptr(JsonNode) schema = schema_text ? agent_test_parse_json (schema_text) : NULL;

  f->done = FALSE;
  agent_session_send_for_object_async (f->s.session, text, schema, NULL, object_cb, f);
  agent_test_wait_for (&f->done);
  g_assert_true ((f->object == NULL) != (f->error == NULL));
}

/* Every object-delta was a view of the final object, the last one the
 * object itself, and there were several */
void
assert_deltas (Fixture  *f,
               JsonNode *object,
               guint     at_least)
{
  g_assert_cmpuint (f->deltas->len, >=, at_least);
  for (guint i = 0; i < f->deltas->len; i++)
    if (!agent_test_json_is_view_of (g_ptr_array_index (f->deltas, i), object))
      {
        g_autofree char *part = json_to_string (g_ptr_array_index (f->deltas, i), FALSE);
        g_autofree char *whole = json_to_string (object, FALSE);

        g_error ("object-delta %u, %s, is not a view of %s", i, part, whole);
      }
  g_assert_true (agent_test_json_equal (g_ptr_array_index (f->deltas, f->deltas->len - 1),
                                        object));
}

void
assert_object (Fixture    *f,
               const char *expected)
{
  g_autoptr(JsonNode) want = agent_test_parse_json (expected);

  g_assert_no_error (f->error);
  g_assert_nonnull (f->object);
  g_assert_true (agent_test_json_equal (f->object, want));
  g_assert_nonnull (f->finished);
  g_assert_true (agent_test_json_equal (f->finished, want));
  assert_deltas (f, want, 2);
}

/* @text as a JSON string, quotes included */
char *
json_string (const char *text)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_VALUE);

  json_node_set_string (node, text);
  return json_to_string (node, FALSE);
}

/* @text in pieces of 1 to 7 bytes, cut anywhere but inside a character */
GPtrArray *
pieces (const char *text)
{
  GPtrArray *result = g_ptr_array_new_with_free_func (g_free);
  gsize len = strlen (text);
  gsize at = 0;
  guint n = 0;

  while (at < len)
    {
      gsize size = MIN ((gsize) (n++ % 7) + 1, len - at);

      while (at + size < len && (text[at + size] & 0xc0) == 0x80)
        size++;
      g_ptr_array_add (result, g_strndup (text + at, size));
      at += size;
    }

  return result;
}

GListModel *
memory (Fixture *f)
{
  return G_LIST_MODEL (agent_session_get_memory (f->s.session));
}

AgentMessage *
memory_item (Fixture *f,
             guint    index)
{
  g_autoptr(AgentMessage) message = g_list_model_get_item (memory (f), index);

  return message;   /* the memory keeps it */
}

