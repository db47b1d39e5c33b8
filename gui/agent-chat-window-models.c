/* agent-chat-window-models.c
 *
 * Choosing a model without opening Preferences: the window's title is a
 * button whose popover lists the server's models (asked for each time it
 * opens, with the server's key), searchable, the chat's model checked.
 * The model picked is the chat's: kept with a stored conversation (in its
 * settings, member "picked-model": the provider and the model), in memory
 * for one that is not; a chat without one uses the connection's model (the
 * settings', or the command line's).
 *
 * With a server that has a model manager (Ollama), the list is the
 * manager's, each model with its capability badges (Tools, Vision,
 * Thinking, Embedding: agent-chat-model-badges.c), and the popover offers
 * Get More Models…, which opens the Models window (win.manage-models,
 * also in the main menu; agent-chat-models-window.c).
 *
 * With several servers (the app's profiles), the list has a group for each,
 * under a row with its name, in the profiles' order: each server is asked
 * for its models with its own key, and one that fails says so in its group.
 * A model row names its server in its accessible description, so a screen
 * reader says the group too. Picking a model of another server switches the
 * chat to that profile (kept with the conversation) and model.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "agent-chat-a11y.h"
#include "agent-chat-model-badges.h"
#include "agent-chat-models-window.h"
#include "agent-chat-window-private.h"

#define PICKED_KEY "agent-chat-picked-model"
#define PICKED_MEMBER "picked-model"

static AgentMemory *
chat_memory (AgentChatWindow *self)
{
  return self->session != NULL ? agent_session_get_memory (self->session) : NULL;
}

/* The model picked for @memory with @provider (of @profile, when the model
 * was picked with one), or NULL */
static const char *
picked_model (AgentMemory *memory,
              const char  *provider,
              const char  *profile)
{
  if (memory == NULL)
    return NULL;
#if AGENT_HAS_STORE
  if (AGENT_IS_CONVERSATION (memory))
    {
      JsonNode *settings = agent_conversation_get_settings (AGENT_CONVERSATION (memory));
      JsonObject *object = settings && JSON_NODE_HOLDS_OBJECT (settings)
                           ? json_node_get_object (settings) : NULL;
      JsonObject *picked = object && json_object_has_member (object, PICKED_MEMBER) &&
                           JSON_NODE_HOLDS_OBJECT (json_object_get_member (object, PICKED_MEMBER))
                           ? json_object_get_object_member (object, PICKED_MEMBER) : NULL;

      if (picked == NULL ||
          g_strcmp0 (json_object_get_string_member_with_default (picked, "provider", NULL),
                     provider) != 0 ||
          (profile != NULL && json_object_has_member (picked, "profile") &&
           g_strcmp0 (json_object_get_string_member_with_default (picked, "profile", NULL),
                      profile) != 0))
        return NULL;
      return json_object_get_string_member_with_default (picked, "model", NULL);
    }
#endif
  if (g_strcmp0 (g_object_get_data (G_OBJECT (memory), PICKED_KEY "-provider"), provider) != 0 ||
      g_strcmp0 (g_object_get_data (G_OBJECT (memory), PICKED_KEY "-profile"), profile) != 0)
    return NULL;
  return g_object_get_data (G_OBJECT (memory), PICKED_KEY);
}

/**
 * _agent_chat_window_chat_model:
 * @self: a #AgentChatWindow
 *
 * Returns: the model of the chat shown: the one picked for it, or the
 *   connection's
 */
const char *
_agent_chat_window_chat_model (AgentChatWindow *self)
{
  const char *provider = agent_chat_connection_get_provider (self->connection);
  const char *profile = agent_chat_connection_get_profile_name (self->connection);
  const char *model = picked_model (chat_memory (self), provider, profile);

  return model != NULL && *model != '\0' ? model : agent_chat_connection_get_model (self->connection);
}

static gboolean
pick_model (AgentChatWindow  *self,
            const char       *model,
            GError          **error)
{
  AgentMemory *memory = chat_memory (self);
  const char *provider = agent_chat_connection_get_provider (self->connection);
  const char *profile = agent_chat_connection_get_profile_name (self->connection);

  if (memory == NULL)
    return TRUE;
#if AGENT_HAS_STORE
  if (AGENT_IS_CONVERSATION (memory))
    {
      JsonNode *settings = agent_conversation_get_settings (AGENT_CONVERSATION (memory));
      g_autoptr(JsonNode) node = settings && JSON_NODE_HOLDS_OBJECT (settings)
                                 ? json_node_copy (settings) : json_node_new (JSON_NODE_OBJECT);
      JsonObject *picked = json_object_new ();

      if (json_node_get_object (node) == NULL)
        json_node_take_object (node, json_object_new ());
      json_object_set_string_member (picked, "provider", provider);
      json_object_set_string_member (picked, "model", model);
      if (profile != NULL)
        json_object_set_string_member (picked, "profile", profile);
      json_object_set_object_member (json_node_get_object (node), PICKED_MEMBER, picked);
      return agent_conversation_set_settings (AGENT_CONVERSATION (memory), node, error);
    }
#endif
  g_object_set_data_full (G_OBJECT (memory), PICKED_KEY "-provider", g_strdup (provider), g_free);
  g_object_set_data_full (G_OBJECT (memory), PICKED_KEY "-profile", g_strdup (profile), g_free);
  g_object_set_data_full (G_OBJECT (memory), PICKED_KEY, g_strdup (model), g_free);
  return TRUE;
}

/* The list: one group for each profile when there are several, under a
 * row with its name; rows carry their model and profile as data */

typedef struct
{
  AgentChatWindow *window;
  char            *profile;  /* NULL: a list without groups */
  AgentProvider   *provider; /* another profile's, while its key is looked up */
} Listing;

static void
listing_free (Listing *listing)
{
  g_object_unref (listing->window);
  g_clear_object (&listing->provider);
  g_free (listing->profile);
  g_free (listing);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Listing, listing_free)

static Listing *
listing_new (AgentChatWindow *self,
             const char      *profile)
{
  Listing *listing = g_new0 (Listing, 1);

  listing->window = g_object_ref (self);
  listing->profile = g_strdup (profile);
  return listing;
}

static void
clear_models (AgentChatWindow *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->model_list))) != NULL)
    gtk_list_box_remove (self->model_list, child);
}

static void
set_status (AgentChatWindow *self,
            const char      *status)
{
  gtk_label_set_text (self->models_status, status ? status : "");
  gtk_widget_set_visible (GTK_WIDGET (self->models_status), status != NULL);
}

static const char *
row_profile (GtkWidget *row)
{
  return g_object_get_data (G_OBJECT (row), "profile");
}

/* Where the next row of @profile's group goes: after its last; -1 for the
 * end of the list */
static int
group_end (AgentChatWindow *self,
           const char      *profile)
{
  gboolean in_group = FALSE;
  int position = 0;

  if (profile == NULL)
    return -1;
  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->model_list));
       row != NULL; row = gtk_widget_get_next_sibling (row), position++)
    {
      gboolean header = g_object_get_data (G_OBJECT (row), "header") != NULL;

      if (in_group && header)
        return position;
      if (header && g_strcmp0 (row_profile (row), profile) == 0)
        in_group = TRUE;
    }
  return -1;
}

static void
insert_row (AgentChatWindow *self,
            GtkWidget       *row,
            const char      *profile)
{
  g_object_set_data_full (G_OBJECT (row), "profile", g_strdup (profile), g_free);
  gtk_list_box_insert (self->model_list, row, group_end (self, profile));
}

/* A line of the group that is no model: its name, or what its server said */
static GtkWidget *
add_note (AgentChatWindow *self,
          const char      *profile,
          const char      *text,
          gboolean         header)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 36);
  gtk_widget_add_css_class (label, header ? "heading" : "dim-label");
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), label);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_list_box_row_set_selectable (GTK_LIST_BOX_ROW (row), FALSE);
  if (header)
    {
      /* Reached by the keyboard, so that a screen reader says the group */
      g_object_set_data (G_OBJECT (row), "header", GINT_TO_POINTER (TRUE));
      gtk_widget_add_css_class (row, "model-group");
      insert_row (self, row, profile);
    }
  else
    {
      g_object_set_data (G_OBJECT (row), "note", GINT_TO_POINTER (TRUE));
      insert_row (self, row, profile);
    }
  gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, text, -1);
  return row;
}

/* The notes of @profile's group (its Loading…) go */
static void
clear_notes (AgentChatWindow *self,
             const char      *profile)
{
  GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->model_list));

  while (row != NULL)
    {
      GtkWidget *next = gtk_widget_get_next_sibling (row);

      if (g_object_get_data (G_OBJECT (row), "note") != NULL &&
          g_strcmp0 (row_profile (row), profile) == 0)
        gtk_list_box_remove (self->model_list, row);
      row = next;
    }
}

/* The list of @listing is answered: emptied (its group), and if @listed is
 * FALSE, @error said */
static gboolean
listed_or_said (Listing      *listing,
                gboolean      listed,
                const GError *error)
{
  AgentChatWindow *self = listing->window;
  g_autofree char *text = NULL;

  if (listing->profile == NULL)
    clear_models (self);
  else
    clear_notes (self, listing->profile);
  if (listed)
    return TRUE;
  text = g_strdup_printf (_("The server's models could not be listed: %s"), error->message);
  if (listing->profile == NULL)
    set_status (self, text);
  else
    add_note (self, listing->profile, text, FALSE);
  return FALSE;
}

/* What the list of @listing ends with: the status, or a note in its group */
static void
say_status (Listing    *listing,
            const char *status)
{
  if (listing->profile == NULL)
    set_status (listing->window, status);
  else if (status != NULL)
    add_note (listing->window, listing->profile, status, FALSE);
}

/* The chat's model, in the group of the profile in use */
static const char *
current_model (Listing *listing)
{
  AgentChatWindow *self = listing->window;

  if (listing->profile != NULL &&
      g_strcmp0 (listing->profile, agent_chat_connection_get_profile_name (self->connection)) != 0)
    return NULL;
  return _agent_chat_window_chat_model (self);
}

static void
add_model (Listing        *listing,
           const char     *model,
           gboolean        current,
           AgentModelInfo *info)
{
  AgentChatWindow *self = listing->window;
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *label = gtk_label_new (model);
  GtkWidget *check = gtk_image_new_from_icon_name ("object-select-symbolic");
  GtkWidget *badges = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  AgentModelCapabilities capabilities = info ? agent_model_info_get_capabilities (info)
                                             : AGENT_MODEL_CAPABILITY_NONE;
  g_autofree char *described = agent_chat_model_capabilities_text (capabilities);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_widget_set_opacity (check, current ? 1 : 0);
  gtk_accessible_update_property (GTK_ACCESSIBLE (check), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Current Model"), -1);
  gtk_widget_set_visible (check, current);
  agent_chat_model_badges_fill (GTK_BOX (badges), capabilities);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), badges);
  gtk_box_append (GTK_BOX (box), check);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  g_object_set_data_full (G_OBJECT (row), "model", g_strdup (model), g_free);
  if (listing->profile != NULL)
    {
      /* Translators: a model's server, said by a screen reader with the
       * model in the header's list, as in "On Local Ollama"; then what the
       * model can do, if known */
      g_autofree char *server = g_strdup_printf (_("On %s"), listing->profile);
      char *with_server = *described != '\0' ? g_strconcat (server, ", ", described, NULL)
                                             : g_strdup (server);

      g_free (described);
      described = with_server;
    }
  /* The badges, to a screen reader, are the row's description */
  gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, model,
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, described, -1);
  gtk_accessible_update_state (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_STATE_SELECTED, current, -1);
  insert_row (self, row, listing->profile);
}

static void
on_models_listed (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(Listing) listing = user_data;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) models = agent_provider_list_models_finish (AGENT_PROVIDER (object), result,
                                                           &error);
  const char *current;
  gboolean listed = FALSE;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
      listing->window->connection == NULL)
    return;
  if (!listed_or_said (listing, models != NULL, error))
    return;
  current = current_model (listing);
  for (guint i = 0; models[i] != NULL; i++)
    {
      add_model (listing, models[i], g_strcmp0 (models[i], current) == 0, NULL);
      listed |= g_strcmp0 (models[i], current) == 0;
    }
  /* The chat's model, even when the server does not list it */
  if (!listed && current != NULL && *current != '\0')
    add_model (listing, current, TRUE, NULL);
  say_status (listing, models[0] == NULL ? _("The server lists no models") : NULL);
}

/* The manager's list: the models with what they can do */
static void
on_managed_models_listed (GObject      *object,
                          GAsyncResult *result,
                          gpointer      user_data)
{
  g_autoptr(Listing) listing = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GListModel) models = agent_model_manager_list_finish (AGENT_MODEL_MANAGER (object),
                                                                  result, &error);
  const char *current;
  gboolean listed = FALSE;
  guint n;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
      listing->window->connection == NULL)
    return;
  if (!listed_or_said (listing, models != NULL, error))
    return;
  current = current_model (listing);
  n = g_list_model_get_n_items (models);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AgentModelInfo) info = g_list_model_get_item (models, i);
      const char *name = agent_model_info_get_name (info);

      add_model (listing, name, g_strcmp0 (name, current) == 0, info);
      listed |= g_strcmp0 (name, current) == 0;
    }
  if (!listed && current != NULL && *current != '\0')
    add_model (listing, current, TRUE, NULL);
  say_status (listing,
              n == 0 ? _("The server has no models: get one with Get More Models…") : NULL);
}

/**
 * _agent_chat_window_keyed_provider:
 * @self: a #AgentChatWindow
 *
 * Returns: (transfer full) (nullable): a provider for the connection's
 *   server, with its key
 */
AgentProvider *
_agent_chat_window_keyed_provider (AgentChatWindow *self)
{
  AgentProvider *provider = agent_chat_connection_create_provider (self->connection, NULL);
  g_autofree char *key = NULL;
  AgentChatKeySource source;

  if (provider == NULL)
    return NULL;
  agent_chat_secret_store_peek (self->secrets, agent_chat_connection_get_provider (self->connection),
                                agent_chat_connection_get_base_url (self->connection), &key,
                                &source);
  agent_provider_set_api_key (provider, key);
  return provider;
}

/* Asks @provider (with its key) for the models of @listing's group */
static gboolean
ask_models (Listing       *listing,
            AgentProvider *provider)
{
  AgentChatWindow *self = listing->window;
  g_autoptr(AgentModelManager) manager = agent_model_manager_new (provider);
  gboolean managed = agent_model_manager_get_supported (manager);

  if (managed)
    agent_model_manager_list_async (manager, self->models_cancellable, on_managed_models_listed,
                                    listing);
  else
    agent_provider_list_models_async (provider, self->models_cancellable, on_models_listed,
                                      listing);
  return managed;
}

/* Another profile's key, then its models */
static void
on_profile_key (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  Listing *listing = user_data;
  AgentChatWindow *self = listing->window;
  g_autoptr(AgentProvider) provider = g_steal_pointer (&listing->provider);
  g_autofree char *key = NULL;
  AgentChatKeySource source;

  key = agent_chat_secret_store_lookup_finish (AGENT_CHAT_SECRET_STORE (object), result, &source,
                                               NULL);
  if (self->connection == NULL || g_cancellable_is_cancelled (self->models_cancellable) ||
      provider == NULL)
    {
      listing_free (listing);
      return;
    }
  agent_provider_set_api_key (provider, key);
  ask_models (listing, provider);
}

static void
list_profile (AgentChatWindow *self,
              AgentProfile    *profile)
{
  const char *name = agent_profile_get_name (profile);
  g_autoptr(AgentProvider) provider = NULL;
  g_autoptr(GError) error = NULL;
  Listing *listing;

  add_note (self, name, name, TRUE);
  if ((provider = agent_profile_create_provider (profile, &error)) == NULL)
    {
      g_autofree char *text = g_strdup_printf (_("The server's models could not be listed: %s"),
                                               error->message);

      add_note (self, name, text, FALSE);
      return;
    }
  add_note (self, name, _("Loading…"), FALSE);
  /* Each with its own key, on a provider of its own */
  listing = listing_new (self, name);
  listing->provider = g_steal_pointer (&provider);
  agent_chat_secret_store_lookup_async (self->secrets, agent_provider_get_name (listing->provider),
                                        agent_provider_get_base_url (listing->provider),
                                        self->models_cancellable, on_profile_key, listing);
}

static void
list_models (AgentChatWindow *self)
{
  g_autoptr(AgentProvider) provider = NULL;
  AgentProfileList *profiles = agent_chat_connection_get_profiles (self->connection);
  const char *in_use = agent_chat_connection_get_profile_name (self->connection);
  gboolean grouped = profiles != NULL && in_use != NULL &&
                     g_list_model_get_n_items (G_LIST_MODEL (profiles)) > 1;

  g_cancellable_cancel (self->models_cancellable);
  g_clear_object (&self->models_cancellable);
  clear_models (self);
  set_status (self, NULL);
  gtk_widget_set_visible (self->more_models_button, FALSE);
  self->models_cancellable = g_cancellable_new ();
  if (!grouped)
    {
      if ((provider = _agent_chat_window_keyed_provider (self)) == NULL)
        return;
      set_status (self, _("Loading…"));
      gtk_widget_set_visible (self->more_models_button,
                              ask_models (listing_new (self, NULL), provider));
      return;
    }

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (profiles)); i++)
    {
      g_autoptr(AgentProfile) profile = g_list_model_get_item (G_LIST_MODEL (profiles), i);

      if (g_strcmp0 (agent_profile_get_name (profile), in_use) != 0)
        {
          list_profile (self, profile);
          continue;
        }
      /* The one in use: as the window talks to it (options of the command
       * line included) */
      add_note (self, in_use, in_use, TRUE);
      g_clear_object (&provider);
      if ((provider = _agent_chat_window_keyed_provider (self)) == NULL)
        continue;
      add_note (self, in_use, _("Loading…"), FALSE);
      gtk_widget_set_visible (self->more_models_button,
                              ask_models (listing_new (self, in_use), provider));
    }
}

static void
on_popover_shown (AgentChatWindow *self)
{
  gtk_editable_set_text (GTK_EDITABLE (self->model_search), "");
  list_models (self);
  gtk_widget_grab_focus (GTK_WIDGET (self->model_search));
}

static gboolean
filter_row (GtkListBoxRow *row,
            gpointer       user_data)
{
  AgentChatWindow *self = user_data;
  const char *model = g_object_get_data (G_OBJECT (row), "model");
  g_autofree char *wanted = g_utf8_casefold (gtk_editable_get_text (GTK_EDITABLE (
                                               self->model_search)), -1);
  g_autofree char *folded = NULL;

  /* A group's name and notes stay */
  if (model == NULL)
    return TRUE;
  folded = g_utf8_casefold (model, -1);
  return strstr (folded, wanted) != NULL;
}

static void
on_search_changed (AgentChatWindow *self)
{
  gtk_list_box_invalidate_filter (self->model_list);
}

/* Enter in the search: the first model shown (a group's name is none) */
static void
on_search_activate (AgentChatWindow *self)
{
  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->model_list));
       row != NULL; row = gtk_widget_get_next_sibling (row))
    if (gtk_widget_get_child_visible (row) && g_object_get_data (G_OBJECT (row), "model") != NULL)
      {
        g_signal_emit_by_name (self->model_list, "row-activated", row);
        return;
      }
}

/* Escape in the search (which the search entry takes, as "stop-search",
 * before the popover sees it): the popover closes, search typed or not */
static void
on_search_stopped (AgentChatWindow *self)
{
  gtk_popover_popdown (self->models_popover);
}

/**
 * agent_chat_window_pick_model:
 * @self: a #AgentChatWindow
 * @model: a model of the server
 *
 * Uses @model for the chat shown, from its next turn, and keeps it with it.
 */
void
agent_chat_window_pick_model (AgentChatWindow *self,
                              const char      *model)
{
  g_autoptr(GError) error = NULL;

  g_return_if_fail (AGENT_CHAT_IS_WINDOW (self));

  if (!pick_model (self, model, &error))
    _agent_chat_window_show_error (self, error);
  _agent_chat_window_model_changed (self);
}

/**
 * agent_chat_window_pick_profile_model:
 * @self: a #AgentChatWindow
 * @profile: (nullable): the name of a profile; %NULL for the one in use
 * @model: a model of its server
 *
 * Uses @profile's server and @model for the chat shown, from its next
 * turn, and keeps both with it.
 */
void
agent_chat_window_pick_profile_model (AgentChatWindow *self,
                                      const char      *profile,
                                      const char      *model)
{
  g_autoptr(GError) error = NULL;

  g_return_if_fail (AGENT_CHAT_IS_WINDOW (self));
  g_return_if_fail (model != NULL);

  if (profile != NULL &&
      g_strcmp0 (profile, agent_chat_connection_get_profile_name (self->connection)) != 0)
    {
      if (!agent_chat_connection_use_profile (self->connection, profile))
        return;
      if (!_agent_chat_window_keep_profile (self, &error))
        {
          _agent_chat_window_show_error (self, error);
          g_clear_error (&error);
        }
    }
  agent_chat_window_pick_model (self, model);
}

static void
on_row_activated (AgentChatWindow *self,
                  GtkListBoxRow   *row)
{
  const char *model = g_object_get_data (G_OBJECT (row), "model");
  g_autofree char *picked = NULL;
  g_autofree char *profile = NULL;

  if (model == NULL)
    return;
  /* The row may go before they are used */
  picked = g_strdup (model);
  profile = g_strdup (row_profile (GTK_WIDGET (row)));
  gtk_popover_popdown (self->models_popover);
  agent_chat_window_pick_profile_model (self, profile, picked);
}

/* The Models window, one for the window, for its server */
static void
manage_models_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  AgentChatWindow *self = AGENT_CHAT_WINDOW (widget);
  g_autoptr(AgentProvider) provider = NULL;
  g_autofree char *url = NULL;

  gtk_popover_popdown (self->models_popover);
  if (self->models_window != NULL)
    {
      gtk_window_present (self->models_window);
      return;
    }
  if ((provider = _agent_chat_window_keyed_provider (self)) == NULL)
    return;
  url = agent_chat_connection_dup_shown_base_url (self->connection);
  self->models_window = agent_chat_models_window_new (provider, url);
  g_object_add_weak_pointer (G_OBJECT (self->models_window), (gpointer *) &self->models_window);
  gtk_window_set_application (self->models_window, gtk_window_get_application (GTK_WINDOW (self)));
  gtk_window_set_transient_for (self->models_window, GTK_WINDOW (self));
  gtk_window_present (self->models_window);
}

void
_agent_chat_window_class_init_models (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.manage-models", NULL, manage_models_action);
}

void
_agent_chat_window_init_models (AgentChatWindow *self)
{
  agent_chat_a11y_name_button (self->more_models_button);
  gtk_list_box_set_filter_func (self->model_list, filter_row, self, NULL);
  g_signal_connect_object (self->models_popover, "show", G_CALLBACK (on_popover_shown), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->model_search, "search-changed", G_CALLBACK (on_search_changed),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->model_search, "activate", G_CALLBACK (on_search_activate), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->model_search, "stop-search", G_CALLBACK (on_search_stopped),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->model_list, "row-activated", G_CALLBACK (on_row_activated), self,
                           G_CONNECT_SWAPPED);
}

void
_agent_chat_window_dispose_models (AgentChatWindow *self)
{
  g_cancellable_cancel (self->models_cancellable);
  g_clear_object (&self->models_cancellable);
  /* The Models window goes with the chat's (and the server it was for) */
  if (self->models_window != NULL)
    {
      g_object_remove_weak_pointer (G_OBJECT (self->models_window),
                                    (gpointer *) &self->models_window);
      gtk_window_destroy (g_steal_pointer (&self->models_window));
    }
}
