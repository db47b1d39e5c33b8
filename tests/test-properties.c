/* test-properties.c — the properties of libagent's classes, as GObject
 * sees them: AgentSession, AgentProvider of each API, AgentMcpClient,
 * AgentProfile and AgentProfileList
 *
 * For every property of the classes below that can be written after
 * construction: set through g_object_set_property() to a value other
 * than the current one, the object notifies it once, under its own name,
 * and nothing else; set again to the same value, it notifies nothing
 * (G_PARAM_EXPLICIT_NOTIFY, honoured); and it reads back what was set.
 * A property installed at the wrong id, a setter that notifies another
 * property or notifies by a mistyped name, a class that notifies a value
 * that did not change: each fails here. Read-only properties are checked
 * to read.
 *
 * AgentConversation's properties are read-only: its methods change them
 * (rename, set_model, set_settings, set_profile, an append and its write), and each
 * change notifies once by the property's own name, a call that changes
 * nothing notifies nothing, and every property but created (which never
 * changes) is seen notified (/properties/conversation, in a real SQLite
 * file).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <agent.h>

#include "agent-test-util.h"
#if AGENT_HAS_STORE
#include "test-store-util.h"
#endif

typedef struct
{
  GPtrArray *names;   /* of the properties notified, in order */
} Notes;

static void
notify_cb (GObject    *object,
           GParamSpec *pspec,
           Notes      *notes)
{
  g_ptr_array_add (notes->names, g_strdup (pspec->name));
}

static char *
describe_notes (Notes *notes)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < notes->names->len; i++)
    g_string_append_printf (text, "%s%s", i ? ", " : "", (char *) notes->names->pdata[i]);
  return g_string_free (text, FALSE);
}

/* A valid value of @pspec other than @current, or FALSE when the test
 * knows none for its type */
static gboolean
other_value (GParamSpec   *pspec,
             const GValue *current,
             GValue       *value)
{
  GType type = G_PARAM_SPEC_VALUE_TYPE (pspec);

  g_value_init (value, type);

  if (type == G_TYPE_BOOLEAN)
    g_value_set_boolean (value, !g_value_get_boolean (current));
  else if (type == G_TYPE_UINT)
    {
      GParamSpecUInt *p = G_PARAM_SPEC_UINT (pspec);
      guint v = g_value_get_uint (current);

      g_value_set_uint (value, v < p->maximum ? MAX (v + 1, p->minimum) : p->minimum);
    }
  else if (type == G_TYPE_UINT64)
    {
      GParamSpecUInt64 *p = G_PARAM_SPEC_UINT64 (pspec);
      guint64 v = g_value_get_uint64 (current);

      g_value_set_uint64 (value, v < p->maximum ? MAX (v + 1, p->minimum) : p->minimum);
    }
  else if (type == G_TYPE_INT64)
    {
      GParamSpecInt64 *p = G_PARAM_SPEC_INT64 (pspec);
      gint64 v = g_value_get_int64 (current);

      g_value_set_int64 (value, v < p->maximum ? MAX (v + 1, p->minimum) : p->minimum);
    }
  else if (type == G_TYPE_DOUBLE)
    {
      GParamSpecDouble *p = G_PARAM_SPEC_DOUBLE (pspec);
      double v = g_value_get_double (current);

      g_value_set_double (value, v != p->minimum ? p->minimum : (p->minimum + p->maximum) / 2);
    }
  else if (type == G_TYPE_STRING)
    /* A value every string property here takes: a path, a URL, a model,
     * a duration */
    g_value_set_string (value, g_strcmp0 (g_value_get_string (current), "10") == 0 ? "20" : "10");
  else if (G_TYPE_IS_ENUM (type))
    {
      GEnumClass *klass = g_type_class_ref (type);
      int v = g_value_get_enum (current);

      g_value_set_enum (value, klass->values[0].value != v ? klass->values[0].value
                                                           : klass->values[1].value);
      g_type_class_unref (klass);
    }
  else if (type == AGENT_TYPE_MEMORY)
    g_value_take_object (value, agent_simple_memory_new ());
  else if (type == AGENT_TYPE_CONTEXT_POLICY)
    g_value_take_object (value, agent_context_policy_new (AGENT_CONTEXT_STRATEGY_KEEP_LAST));
  else if (type == G_TYPE_STRV)
    {
      const char * const *v = g_value_get_boxed (current);
      const char *one[] = { "10", NULL };
      const char *two[] = { "20", "NAME=30", NULL };

      g_value_set_boxed (value, v != NULL && g_strv_equal (v, one) ? two : one);
    }
  else if (type == JSON_TYPE_NODE)
    g_value_take_boxed (value, json_from_string ("{\"type\": \"object\"}", NULL));
  else
    {
      g_value_unset (value);
      return FALSE;
    }
  return TRUE;
}

static void
check_object (GObject *object)
{
  g_autofree GParamSpec **pspecs = NULL;
  Notes notes = { g_ptr_array_new_with_free_func (g_free) };
  guint n_pspecs;
  guint n_checked = 0;

  g_signal_connect (object, "notify", G_CALLBACK (notify_cb), &notes);
  pspecs = g_object_class_list_properties (G_OBJECT_GET_CLASS (object), &n_pspecs);
  g_assert_cmpuint (n_pspecs, >, 0);

  for (guint i = 0; i < n_pspecs; i++)
    {
      GParamSpec *pspec = pspecs[i];
      g_auto(GValue) current = G_VALUE_INIT;
      g_auto(GValue) value = G_VALUE_INIT;
      g_auto(GValue) read = G_VALUE_INIT;
      g_autofree char *seen = NULL;

      if (pspec->owner_type != G_OBJECT_TYPE (object))
        continue;

      /* Every property reads */
      g_value_init (&current, G_PARAM_SPEC_VALUE_TYPE (pspec));
      if (pspec->flags & G_PARAM_READABLE)
        g_object_get_property (object, pspec->name, &current);

      if (!(pspec->flags & G_PARAM_WRITABLE) || (pspec->flags & G_PARAM_CONSTRUCT_ONLY))
        continue;

      g_test_message ("%s:%s", G_OBJECT_TYPE_NAME (object), pspec->name);
      if (!other_value (pspec, &current, &value))
        g_error ("%s:%s: no value to try for a %s: teach other_value()",
                 G_OBJECT_TYPE_NAME (object), pspec->name,
                 g_type_name (G_PARAM_SPEC_VALUE_TYPE (pspec)));

      /* A write-only property (the API key) has nothing to notify */
      if (!(pspec->flags & G_PARAM_READABLE))
        {
          g_object_set_property (object, pspec->name, &value);
          continue;
        }

      g_assert_true (pspec->flags & G_PARAM_EXPLICIT_NOTIFY);

      /* Changed: notified once, by its own name */
      g_ptr_array_set_size (notes.names, 0);
      g_object_set_property (object, pspec->name, &value);
      seen = describe_notes (&notes);
      g_assert_cmpstr (seen, ==, pspec->name);

      /* Read back */
      g_value_init (&read, G_PARAM_SPEC_VALUE_TYPE (pspec));
      g_object_get_property (object, pspec->name, &read);
      if (G_VALUE_HOLDS (&read, JSON_TYPE_NODE))
        g_assert_true (json_node_equal (g_value_get_boxed (&read), g_value_get_boxed (&value)));
      else if (G_VALUE_HOLDS (&read, G_TYPE_STRV))
        g_assert_true (g_strv_equal (g_value_get_boxed (&read), g_value_get_boxed (&value)));
      else
        g_assert_cmpint (g_param_values_cmp (pspec, &read, &value), ==, 0);

      /* The same again: nothing notified */
      g_ptr_array_set_size (notes.names, 0);
      g_object_set_property (object, pspec->name, &value);
      g_clear_pointer (&seen, g_free);
      seen = describe_notes (&notes);
      g_assert_cmpstr (seen, ==, "");

      n_checked++;
    }

  g_assert_cmpuint (n_checked, >, 0);
  g_signal_handlers_disconnect_by_func (object, notify_cb, &notes);
  g_ptr_array_unref (notes.names);
}

static void
test_session (void)
{
  g_autoptr(AgentProvider) provider = agent_provider_new ("openai", NULL);
  g_autoptr(AgentSession) session = agent_session_new (provider);

  check_object (G_OBJECT (session));
}

static void
test_provider (gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AgentProvider) provider = agent_provider_new (data, &error);

  g_assert_no_error (error);
  /* The API key is write-only: has-api-key says whether there is one */
  agent_provider_set_api_key (provider, "sk-test-key");
  check_object (G_OBJECT (provider));
}

static void
test_profile (void)
{
  g_autoptr(AgentProfile) profile = agent_profile_new ("A", "ollama");

  check_object (G_OBJECT (profile));
}

static void
test_profile_list (void)
{
  g_autoptr(AgentProfileList) list = agent_profile_list_new ("/nonexistent/profiles.ini");

  check_object (G_OBJECT (list));
}

static void
test_mcp_client (gconstpointer data)
{
  g_autoptr(AgentMcpClient) client = NULL;

  /* Neither is connected: changing the program or the URL, enabling or
   * disabling, starts nothing */
  if (g_str_equal (data, "stdio"))
    client = agent_mcp_client_new_stdio ("props", "true", NULL);
  else
    client = agent_mcp_client_new_http ("props", "http://127.0.0.1:9/mcp");
  check_object (G_OBJECT (client));
  g_assert_cmpint (agent_mcp_client_get_state (client), ==, AGENT_MCP_CLIENT_STATE_DISCONNECTED);
}

#if AGENT_HAS_STORE
typedef struct
{
  Notes       notes;
  GHashTable *seen;   /* every name notified */
} Watch;

static void
watch_cb (GObject    *object,
          GParamSpec *pspec,
          Watch      *watch)
{
  /* The notified pspec is the class's own, not one looked up by a name */
  g_assert_true (pspec == g_object_class_find_property (G_OBJECT_GET_CLASS (object),
                                                        pspec->name));
  g_hash_table_add (watch->seen, g_strdup (pspec->name));
}

/* What was notified since the last call, in order, and forgets it */
static char *
take_notes (Watch *watch)
{
  char *text = describe_notes (&watch->notes);

  g_ptr_array_set_size (watch->notes.names, 0);
  return text;
}

#define assert_notified(watch, expected) \
  G_STMT_START { \
    g_autofree char *seen_ = take_notes (watch); \
    g_assert_cmpstr (seen_, ==, expected); \
  } G_STMT_END

static gboolean
has_id (gpointer data)
{
  return agent_conversation_get_id (data) != 0;
}

static void
test_conversation (void)
{
  g_autoptr(GError) error = NULL;
  TestStore db = { NULL };
  AgentStore *store;
  g_autoptr(AgentStore) again = NULL;
  g_autoptr(AgentConversation) conversation = NULL;
  g_autoptr(AgentConversation) read_back = NULL;
  g_autoptr(AgentMessage) question = agent_message_new (AGENT_MESSAGE_ROLE_USER, "Hello there");
  g_autoptr(JsonNode) settings = json_from_string ("{\"base-url\": \"http://localhost\"}", NULL);
  g_autoptr(JsonNode) same = json_from_string ("{\"base-url\": \"http://localhost\"}", NULL);
  g_autofree char *title = NULL;
  g_autoptr(JsonNode) settings_read = NULL;
  g_autofree GParamSpec **pspecs = NULL;
  guint n_pspecs;
  Watch watch = { NULL };

  test_store_open (&db);
  store = db.store;
  conversation = agent_store_create_conversation (store);
  watch.notes.names = g_ptr_array_new_with_free_func (g_free);
  watch.seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_signal_connect (conversation, "notify", G_CALLBACK (notify_cb), &watch.notes);
  g_signal_connect (conversation, "notify", G_CALLBACK (watch_cb), &watch);

  /* Before its first write: the fields change, and say so */
  g_assert_true (agent_conversation_rename (conversation, "Plans", &error));
  assert_notified (&watch, "title");
  g_assert_true (agent_conversation_rename (conversation, "  Plans ", &error));
  assert_notified (&watch, "");
  g_assert_true (agent_conversation_set_model (conversation, "ollama", "qwen3:8b", &error));
  assert_notified (&watch, "provider, model");
  g_assert_true (agent_conversation_set_model (conversation, "ollama", "qwen3:8b", &error));
  assert_notified (&watch, "");
  g_assert_true (agent_conversation_set_model (conversation, "ollama", "llama3.2", &error));
  assert_notified (&watch, "model");
  g_assert_true (agent_conversation_set_settings (conversation, settings, &error));
  assert_notified (&watch, "settings");
  g_assert_true (agent_conversation_set_settings (conversation, same, &error));
  assert_notified (&watch, "");
  g_assert_true (agent_conversation_set_settings (conversation, NULL, &error));
  assert_notified (&watch, "settings");
  g_assert_true (agent_conversation_set_settings (conversation, NULL, &error));
  assert_notified (&watch, "");
  g_assert_no_error (error);

  /* Refused: nothing changes, nothing is notified */
  {
    g_autoptr(JsonNode) secret = json_from_string ("{\"api_key\": \"sk-1\"}", NULL);

    g_assert_false (agent_conversation_set_settings (conversation, secret, &error));
    g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);
    g_assert_false (agent_conversation_rename (conversation, "\xff", &error));
    g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);
    assert_notified (&watch, "");
  }

  /* The first message: updated at once, the id once it is written */
  g_assert_true (agent_memory_append (AGENT_MEMORY (conversation), question, &error));
  g_assert_no_error (error);
  assert_notified (&watch, "updated");
  test_store_flush (store);
  agent_test_wait_until (has_id, conversation);
  assert_notified (&watch, "id");

  /* Written ones: the same */
  g_assert_true (agent_conversation_rename (conversation, "Travel plans", &error));
  assert_notified (&watch, "title");
  g_assert_true (agent_conversation_rename (conversation, "Travel plans", &error));
  assert_notified (&watch, "");
  g_assert_true (agent_conversation_set_model (conversation, "openai", "llama3.2", &error));
  assert_notified (&watch, "provider");
  g_assert_true (agent_conversation_set_settings (conversation, settings, &error));
  assert_notified (&watch, "settings");
  g_assert_true (agent_conversation_set_settings (conversation, same, &error));
  assert_notified (&watch, "");
  g_assert_true (agent_conversation_set_profile (conversation, "Work", &error));
  assert_notified (&watch, "profile");
  g_assert_true (agent_conversation_set_profile (conversation, "Work", &error));
  assert_notified (&watch, "");
  g_assert_no_error (error);

  /* Read back, as properties and from the file */
  g_object_get (conversation, "title", &title, "settings", &settings_read, NULL);
  g_assert_cmpstr (title, ==, "Travel plans");
  g_assert_true (json_node_equal (settings_read, settings));
  read_back = test_store_read_back (&db, agent_conversation_get_id (conversation), &again);
  g_assert_cmpstr (agent_conversation_get_title (read_back), ==, "Travel plans");
  g_assert_cmpstr (agent_conversation_get_provider (read_back), ==, "openai");
  g_assert_cmpstr (agent_conversation_get_model (read_back), ==, "llama3.2");
  g_assert_cmpstr (agent_conversation_get_profile (read_back), ==, "Work");
  g_assert_true (json_node_equal (agent_conversation_get_settings (read_back), settings));

  /* A title of its own comes with the first message of one without */
  {
    g_autoptr(AgentConversation) untitled = agent_store_create_conversation (store);
    g_autoptr(AgentMessage) hello = agent_message_new (AGENT_MESSAGE_ROLE_USER, "Hi");
    Notes notes = { g_ptr_array_new_with_free_func (g_free) };
    g_autofree char *seen = NULL;

    g_signal_connect (untitled, "notify", G_CALLBACK (notify_cb), &notes);
    g_assert_true (agent_memory_append (AGENT_MEMORY (untitled), hello, &error));
    g_assert_no_error (error);
    seen = describe_notes (&notes);
    g_assert_cmpstr (seen, ==, "title, updated");
    g_assert_cmpstr (agent_conversation_get_title (untitled), ==, "Hi");
    test_store_flush (store);
    g_signal_handlers_disconnect_by_func (untitled, notify_cb, &notes);
    g_ptr_array_unref (notes.names);
  }

  /* Every property was seen changing but the one that never does */
  pspecs = g_object_class_list_properties (G_OBJECT_GET_CLASS (conversation), &n_pspecs);
  for (guint i = 0; i < n_pspecs; i++)
    if (pspecs[i]->owner_type == AGENT_TYPE_CONVERSATION &&
        !g_str_equal (pspecs[i]->name, "created"))
      {
        g_test_message ("AgentConversation:%s", pspecs[i]->name);
        g_assert_true (g_hash_table_contains (watch.seen, pspecs[i]->name));
      }

  g_signal_handlers_disconnect_by_data (conversation, &watch.notes);
  g_signal_handlers_disconnect_by_data (conversation, &watch);
  g_ptr_array_unref (watch.notes.names);
  g_hash_table_unref (watch.seen);
  g_clear_object (&read_back);
  g_clear_object (&again);
  g_clear_object (&conversation);
  test_store_close (&db);
}
#endif

int
main (int   argc,
      char *argv[])
{
  const char * const *names;

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/properties/session", test_session);
  g_test_add_func ("/properties/profile", test_profile);
  g_test_add_func ("/properties/profile-list", test_profile_list);
  g_test_add_data_func ("/properties/mcp-client/stdio", "stdio", test_mcp_client);
  g_test_add_data_func ("/properties/mcp-client/http", "http", test_mcp_client);
  names = agent_provider_list_names ();
  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autofree char *path = g_strdup_printf ("/properties/provider/%s", names[i]);

      g_test_add_data_func (path, (gpointer) names[i], test_provider);
    }
#if AGENT_HAS_STORE
  g_test_add_func ("/properties/conversation", test_conversation);
#endif

  return g_test_run ();
}
