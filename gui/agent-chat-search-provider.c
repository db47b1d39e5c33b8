/* agent-chat-search-provider.c
 *
 * GNOME Shell's search provider (org.gnome.Shell.SearchProvider2), so that
 * stored conversations are found from the Overview: the words typed there
 * are searched in the store (its full-text search, as the sidebar's); a
 * result is named by the conversation's title, described by the words
 * around the match (plain text), and activating it opens the app at that
 * conversation (app.open-conversation). "Search in the app" shows the
 * sidebar's search with the words. data/…search-provider.ini tells the
 * Shell where to ask.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agent-chat-search-provider.h"
#include "agent-chat-snippet.h"
#include "agent-chat-window.h"

/* At most this many results go to the Shell */
#define MAX_RESULTS 20

static const char introspection[] =
  "<node>"
  "  <interface name='org.gnome.Shell.SearchProvider2'>"
  "    <method name='GetInitialResultSet'>"
  "      <arg type='as' name='terms' direction='in'/>"
  "      <arg type='as' name='results' direction='out'/>"
  "    </method>"
  "    <method name='GetSubsearchResultSet'>"
  "      <arg type='as' name='previous_results' direction='in'/>"
  "      <arg type='as' name='terms' direction='in'/>"
  "      <arg type='as' name='results' direction='out'/>"
  "    </method>"
  "    <method name='GetResultMetas'>"
  "      <arg type='as' name='identifiers' direction='in'/>"
  "      <arg type='aa{sv}' name='metas' direction='out'/>"
  "    </method>"
  "    <method name='ActivateResult'>"
  "      <arg type='s' name='identifier' direction='in'/>"
  "      <arg type='as' name='terms' direction='in'/>"
  "      <arg type='u' name='timestamp' direction='in'/>"
  "    </method>"
  "    <method name='LaunchSearch'>"
  "      <arg type='as' name='terms' direction='in'/>"
  "      <arg type='u' name='timestamp' direction='in'/>"
  "    </method>"
  "  </interface>"
  "</node>";

/* The results of the last search, by id, for their descriptions */
typedef struct
{
  AgentChatApplication *app;
  GHashTable           *results;  /* id → AgentSearchResult */
} Provider;

static void
provider_free (gpointer data)
{
  Provider *provider = data;

  g_hash_table_unref (provider->results);
  g_free (provider);
}

static GVariant *
search (Provider            *provider,
        const char * const  *terms)
{
  AgentStore *store = agent_chat_application_get_store (provider->app);
  g_autofree char *text = g_strjoinv (" ", (char **) terms);
  g_autoptr(GListModel) results = NULL;
  g_autoptr(GError) error = NULL;
  GVariantBuilder builder;

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("as"));
  g_hash_table_remove_all (provider->results);
  if (store != NULL && !(results = agent_store_search (store, text, &error)))
    g_debug ("The Shell's search failed: %s", error->message);
  for (guint i = 0; results != NULL && i < g_list_model_get_n_items (results) &&
                    i < MAX_RESULTS; i++)
    {
      g_autoptr(AgentSearchResult) result = g_list_model_get_item (results, i);
      AgentConversation *conversation = agent_search_result_get_conversation (result);
      char *id = g_strdup_printf ("%" G_GINT64_FORMAT, agent_conversation_get_id (conversation));

      g_variant_builder_add (&builder, "s", id);
      g_hash_table_insert (provider->results, id, g_object_ref (result));
    }
  return g_variant_builder_end (&builder);
}

/* Plain text, without the <b> of the matches */
static char *
describe (AgentSearchResult *result)
{
  g_autofree char *markup = agent_chat_snippet_to_markup (agent_search_result_get_snippet (result),
                                                          32);
  g_autofree char *text = NULL;

  if (!pango_parse_markup (markup, -1, 0, NULL, &text, NULL, NULL))
    return g_strdup ("");
  return g_steal_pointer (&text);
}

static GVariant *
result_metas (Provider            *provider,
              const char * const  *ids)
{
  AgentStore *store = agent_chat_application_get_store (provider->app);
  g_autoptr(GIcon) icon = g_themed_icon_new (AGENT_CHAT_APP_ID);
  g_autoptr(GVariant) serialized_icon = g_icon_serialize (icon);
  GVariantBuilder builder;

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("aa{sv}"));
  for (guint i = 0; store != NULL && ids[i] != NULL; i++)
    {
      gint64 id = g_ascii_strtoll (ids[i], NULL, 10);
      g_autoptr(AgentConversation) conversation = agent_store_lookup_conversation (store, id);
      AgentSearchResult *result = g_hash_table_lookup (provider->results, ids[i]);
      const char *title;

      if (conversation == NULL)
        continue;
      title = agent_conversation_get_title (conversation);
      g_variant_builder_open (&builder, G_VARIANT_TYPE ("a{sv}"));
      g_variant_builder_add (&builder, "{sv}", "id", g_variant_new_string (ids[i]));
      g_variant_builder_add (&builder, "{sv}", "name",
                             g_variant_new_string (title && *title ? title : _("Untitled")));
      if (result != NULL)
        {
          g_autofree char *description = describe (result);

          g_variant_builder_add (&builder, "{sv}", "description",
                                 g_variant_new_string (description));
        }
      if (serialized_icon != NULL)
        g_variant_builder_add (&builder, "{sv}", "icon", serialized_icon);
      g_variant_builder_close (&builder);
    }
  return g_variant_builder_end (&builder);
}

static void
method_call (GDBusConnection       *connection,
             const char            *sender,
             const char            *object_path,
             const char            *interface_name,
             const char            *method_name,
             GVariant              *parameters,
             GDBusMethodInvocation *invocation,
             gpointer               user_data)
{
  Provider *provider = user_data;
  GApplication *app = G_APPLICATION (provider->app);

  /* Answering keeps the app, started for the Shell alone, running */
  g_application_hold (app);
  if (g_str_equal (method_name, "GetInitialResultSet") ||
      g_str_equal (method_name, "GetSubsearchResultSet"))
    {
      g_autofree const char **terms = NULL;

      if (g_str_equal (method_name, "GetInitialResultSet"))
        g_variant_get (parameters, "(^a&s)", &terms);
      else
        g_variant_get (parameters, "(@as^a&s)", NULL, &terms);
      g_dbus_method_invocation_return_value (invocation,
                                             g_variant_new_tuple ((GVariant *[]) {
                                               search (provider, terms) }, 1));
    }
  else if (g_str_equal (method_name, "GetResultMetas"))
    {
      g_autofree const char **ids = NULL;

      g_variant_get (parameters, "(^a&s)", &ids);
      g_dbus_method_invocation_return_value (invocation,
                                             g_variant_new_tuple ((GVariant *[]) {
                                               result_metas (provider, ids) }, 1));
    }
  else if (g_str_equal (method_name, "ActivateResult"))
    {
      const char *id = NULL;

      g_variant_get (parameters, "(&sasu)", &id, NULL, NULL);
      g_action_group_activate_action (G_ACTION_GROUP (app), "open-conversation",
                                      g_variant_new_int64 (g_ascii_strtoll (id, NULL, 10)));
      g_dbus_method_invocation_return_value (invocation, NULL);
    }
  else if (g_str_equal (method_name, "LaunchSearch"))
    {
      g_autofree const char **terms = NULL;
      g_autofree char *text = NULL;

      g_variant_get (parameters, "(^a&su)", &terms, NULL);
      text = g_strjoinv (" ", (char **) terms);
      agent_chat_application_search (provider->app, text);
      g_dbus_method_invocation_return_value (invocation, NULL);
    }
  else
    g_dbus_method_invocation_return_error (invocation, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_METHOD,
                                           "Unknown method %s", method_name);
  g_application_release (app);
}

/**
 * agent_chat_search_provider_register:
 * @app: the application
 * @connection: its bus
 * @object_path: where to serve the search provider
 * @error: return location for a #GError
 *
 * Returns: the registration's id, or 0 on failure
 */
guint
agent_chat_search_provider_register (AgentChatApplication  *app,
                                     GDBusConnection       *connection,
                                     const char            *object_path,
                                     GError               **error)
{
  static const GDBusInterfaceVTable vtable = { method_call, NULL, NULL, { 0, } };
  static GDBusNodeInfo *info = NULL;
  Provider *provider;

  if (info == NULL)
    info = g_dbus_node_info_new_for_xml (introspection, NULL);
  provider = g_new0 (Provider, 1);
  provider->app = app;
  provider->results = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  return g_dbus_connection_register_object (connection, object_path, info->interfaces[0],
                                            &vtable, provider, provider_free, error);
}
