/* agent-chat-preferences-search.c
 *
 * Preferences › Web Search: the service the web_search tool asks (none,
 * SearXNG, Brave Search, Tavily; agent-chat-web-search.c lists them), its address
 * and its API key. The service and the address are settings
 * (search-service, search-url); the address is saved when applied (Enter,
 * its button) or as the group goes, never while typed, and only once it is
 * an http or https URL; the key goes to the keyring through the secret
 * store, under the service and its address, never to GSettings or a log.
 * The line under the rows says what the service needs, or why what was
 * typed cannot be used.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agent-chat-connection.h"
#include "agent-chat-preferences-search.h"
#include "agent-chat-web-search.h"

struct _AgentChatPreferencesSearch
{
  AdwPreferencesGroup   parent_instance;

  AdwComboRow          *service_row;
  GtkStringList        *service_list;
  AdwEntryRow          *url_row;
  AdwEntryRow          *key_row;
  GtkLabel             *hint;

  GSettings            *settings;
  AgentChatSecretStore *secrets;
  GCancellable         *key_cancellable;
  char                 *error;      /* why the address typed is not used */
  guint                 syncing : 1;
  guint                 loading_key : 1;
};

G_DEFINE_FINAL_TYPE (AgentChatPreferencesSearch, agent_chat_preferences_search,
                     ADW_TYPE_PREFERENCES_GROUP)

static const AgentChatSearchService *
selected_service (AgentChatPreferencesSearch *self)
{
  guint n_services;
  const AgentChatSearchService *services = agent_chat_search_services (&n_services);
  guint selected = adw_combo_row_get_selected (self->service_row);

  return selected > 0 && selected < n_services ? &services[selected] : NULL;
}

static char *
dup_key_url (AgentChatPreferencesSearch   *self,
             const AgentChatSearchService *service)
{
  g_autofree char *url = g_settings_get_string (self->settings, "search-url");

  return agent_chat_search_service_dup_key_url (service, url);
}

static void
update_hint (AgentChatPreferencesSearch *self)
{
  const AgentChatSearchService *service = selected_service (self);
  const char *text;

  if (self->error != NULL)
    text = self->error;
  else if (service == NULL)
    text = _("Without a service, the model cannot search the web.");
  else if (!service->needs_key)
    text = _("The address of a SearXNG instance that answers in JSON (“json” among the "
             "formats of its settings.yml).");
  else if (agent_chat_secret_store_get_keyring_error (self->secrets) != NULL)
    text = _("No keyring is available: a key typed here is kept only until Agent Chat quits. "
             "Leave the address empty for the service’s own.");
  else
    text = _("The key is stored in your keyring. Leave the address empty for the service’s "
             "own.");
  gtk_label_set_text (self->hint, text);
  if (self->error != NULL)
    {
      gtk_widget_remove_css_class (GTK_WIDGET (self->hint), "dim-label");
      gtk_widget_add_css_class (GTK_WIDGET (self->hint), "error");
      gtk_widget_add_css_class (GTK_WIDGET (self->url_row), "error");
    }
  else
    {
      gtk_widget_remove_css_class (GTK_WIDGET (self->hint), "error");
      gtk_widget_add_css_class (GTK_WIDGET (self->hint), "dim-label");
      gtk_widget_remove_css_class (GTK_WIDGET (self->url_row), "error");
    }
}

static void
set_error (AgentChatPreferencesSearch *self,
           const GError               *error)
{
  g_clear_pointer (&self->error, g_free);
  if (error != NULL)
    self->error = g_strdup (error->message);
  update_hint (self);
}

/* The key */

static void
on_key_looked_up (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(AgentChatPreferencesSearch) self = user_data;
  g_autoptr(GError) error = NULL;
  AgentChatKeySource source = AGENT_CHAT_KEY_SOURCE_NONE;
  g_autofree char *key = agent_chat_secret_store_lookup_finish (AGENT_CHAT_SECRET_STORE (object),
                                                                result, &source, &error);

  if (error != NULL)
    return;  /* cancelled: another service's key is on its way */
  if (source != AGENT_CHAT_KEY_SOURCE_KEYRING && source != AGENT_CHAT_KEY_SOURCE_SESSION)
    g_clear_pointer (&key, g_free);
  self->loading_key = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (self->key_row), key != NULL ? key : "");
  self->loading_key = FALSE;
  update_hint (self);
}

static void
load_key (AgentChatPreferencesSearch *self)
{
  const AgentChatSearchService *service = selected_service (self);
  g_autofree char *url = NULL;

  g_cancellable_cancel (self->key_cancellable);
  g_clear_object (&self->key_cancellable);
  if (service == NULL || !service->needs_key)
    return;
  url = dup_key_url (self, service);
  self->key_cancellable = g_cancellable_new ();
  agent_chat_secret_store_lookup_async (self->secrets, service->id, url, self->key_cancellable,
                                        on_key_looked_up, g_object_ref (self));
}

static void
on_key_changed (AgentChatPreferencesSearch *self)
{
  const AgentChatSearchService *service = selected_service (self);
  g_autofree char *url = NULL;

  if (self->loading_key || service == NULL || !service->needs_key)
    return;
  url = dup_key_url (self, service);
  /* A key typed meanwhile beats the one being looked up */
  g_cancellable_cancel (self->key_cancellable);
  agent_chat_secret_store_set_key (self->secrets, service->id, url,
                                   gtk_editable_get_text (GTK_EDITABLE (self->key_row)));
}

/* The service and its address */

static void
sync_rows (AgentChatPreferencesSearch *self)
{
  g_autofree char *id = g_settings_get_string (self->settings, "search-service");
  g_autofree char *url = g_settings_get_string (self->settings, "search-url");
  const AgentChatSearchService *service = agent_chat_search_service_lookup (id);
  guint n_services;
  const AgentChatSearchService *services = agent_chat_search_services (&n_services);
  guint position = 0;

  for (guint i = 1; i < n_services; i++)
    if (service == &services[i])
      position = i;
  self->syncing = TRUE;
  adw_combo_row_set_selected (self->service_row, position);
  if (self->error == NULL &&
      g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->url_row)), url) != 0)
    gtk_editable_set_text (GTK_EDITABLE (self->url_row), url);
  self->syncing = FALSE;
  gtk_widget_set_visible (GTK_WIDGET (self->url_row), service != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->key_row), service != NULL && service->needs_key);
  update_hint (self);
}

static void
on_settings_changed (AgentChatPreferencesSearch *self)
{
  sync_rows (self);
  load_key (self);
}

static void
on_service_selected (AgentChatPreferencesSearch *self)
{
  const AgentChatSearchService *service = selected_service (self);

  if (self->syncing)
    return;
  g_settings_set_string (self->settings, "search-service", service != NULL ? service->id : "none");
}

/* Saves the address typed, when it is one (empty: the service's own) */
static void
on_url_applied (AgentChatPreferencesSearch *self)
{
  g_autofree char *url = g_strstrip (g_strdup (gtk_editable_get_text (
                                       GTK_EDITABLE (self->url_row))));
  const AgentChatSearchService *service = selected_service (self);
  g_autoptr(AgentSearchBackend) backend = NULL;
  g_autoptr(GError) error = NULL;

  if (self->syncing || service == NULL)
    return;
  /* SearXNG needs one; the others take one in place of their own */
  if (*url != '\0' || !service->needs_key)
    backend = agent_search_backend_new_searxng (url, &error);
  if (error != NULL)
    {
      g_autofree char *shown = agent_chat_url_hide_userinfo (url);
      g_autoptr(GError) named = NULL;

      /* Translators: %s is the address typed in Preferences › Web Search */
      named = *url != '\0'
              ? g_error_new (AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                             _("“%s” is not an http or https address: it is not used"), shown)
              : g_error_new_literal (AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                                     _("SearXNG needs the address of its instance"));
      set_error (self, named);
      return;
    }
  set_error (self, NULL);
  g_settings_set_string (self->settings, "search-url", url);
}

static void
on_unmap (AgentChatPreferencesSearch *self)
{
  g_autofree char *url = g_settings_get_string (self->settings, "search-url");

  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->url_row)), url) != 0)
    on_url_applied (self);
}

static void
agent_chat_preferences_search_dispose (GObject *object)
{
  AgentChatPreferencesSearch *self = AGENT_CHAT_PREFERENCES_SEARCH (object);

  g_cancellable_cancel (self->key_cancellable);
  g_clear_object (&self->key_cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), AGENT_CHAT_TYPE_PREFERENCES_SEARCH);
  g_clear_object (&self->settings);
  g_clear_object (&self->secrets);

  G_OBJECT_CLASS (agent_chat_preferences_search_parent_class)->dispose (object);
}

static void
agent_chat_preferences_search_finalize (GObject *object)
{
  g_free (AGENT_CHAT_PREFERENCES_SEARCH (object)->error);

  G_OBJECT_CLASS (agent_chat_preferences_search_parent_class)->finalize (object);
}

static void
agent_chat_preferences_search_class_init (AgentChatPreferencesSearchClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = agent_chat_preferences_search_dispose;
  object_class->finalize = agent_chat_preferences_search_finalize;

  gtk_widget_class_set_template_from_resource (
    widget_class, "/io/github/libagent/Chat/agent-chat-preferences-search.ui");
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferencesSearch, service_row);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferencesSearch, service_list);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferencesSearch, url_row);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferencesSearch, key_row);
  gtk_widget_class_bind_template_child (widget_class, AgentChatPreferencesSearch, hint);
}

static void
agent_chat_preferences_search_init (AgentChatPreferencesSearch *self)
{
  guint n_services;
  const AgentChatSearchService *services = agent_chat_search_services (&n_services);

  gtk_widget_init_template (GTK_WIDGET (self));
  /* In the order of agent_chat_search_services(): the position is the service */
  for (guint i = 0; i < n_services; i++)
    gtk_string_list_append (self->service_list, _(services[i].title));
}

/**
 * agent_chat_preferences_search_setup:
 * @self: a #AgentChatPreferencesSearch
 * @settings: the app's settings
 * @secrets: where the service's key is kept
 *
 * Shows and edits the web search settings of @settings.
 */
void
agent_chat_preferences_search_setup (AgentChatPreferencesSearch *self,
                                     GSettings                  *settings,
                                     AgentChatSecretStore       *secrets)
{
  g_return_if_fail (AGENT_CHAT_IS_PREFERENCES_SEARCH (self));
  g_return_if_fail (self->settings == NULL);

  self->settings = g_object_ref (settings);
  self->secrets = g_object_ref (secrets);
  sync_rows (self);
  load_key (self);
  g_signal_connect_object (settings, "changed::search-service", G_CALLBACK (on_settings_changed),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (settings, "changed::search-url", G_CALLBACK (on_settings_changed),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (secrets, "notify::keyring-error", G_CALLBACK (update_hint), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->service_row, "notify::selected",
                           G_CALLBACK (on_service_selected), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->url_row, "apply", G_CALLBACK (on_url_applied), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self, "unmap", G_CALLBACK (on_unmap), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->key_row, "changed", G_CALLBACK (on_key_changed), self,
                           G_CONNECT_SWAPPED);
}
