/* agent-chat-window.c
 *
 * The main window: a header bar, the conversation and the composer. The
 * conversation is libagent-gtk's AgentGtkChatView, which any application
 * can embed: it shows the session's transcript (Markdown, tool cards,
 * approval prompts, error cards with Retry), runs its turns (Send, Stop,
 * Retry, Regenerate, Edit and Resend) and keeps each conversation's draft,
 * edit and errors. The window is the shell around it: what the library
 * leaves to the application.
 *
 * The window owns the AgentSession. Its provider, base URL and model come
 * from the window's AgentChatConnection (the settings, or the command line
 * that opened the window), its key from the secret store, its system
 * prompt and tools from the settings, and the conversation's own settings
 * over them (agent-chat-window-settings.c): all are applied in the view's
 * ::prepare-turn, before each turn, which holds the turn while the key is
 * looked up (the first time, the keyring may want to be unlocked) or while
 * another program adds to the stored conversation (see
 * agent-chat-window-conversations.c); it starts once that is done, and
 * only then is the conversation cut for a Retry or a Regenerate. The Show
 * Tool-Call Chunks setting is bound to the view's property, so flipping it
 * acts at once, even mid-stream. The subtitle says the model and the
 * server's host.
 *
 * The conversations kept in the store, and the sidebar that lists them,
 * are in agent-chat-window-conversations.c; the panes in
 * agent-chat-window-split.c; the tools allowed for a conversation and the
 * notifications in agent-chat-window-approvals.c; the model picker in
 * agent-chat-window-models.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agent-chat-a11y.h"
#include "agent-chat-first-run.h"
#include "agent-chat-popover.h"
#include "agent-chat-window-private.h"

G_DEFINE_FINAL_TYPE (AgentChatWindow, agent_chat_window, ADW_TYPE_APPLICATION_WINDOW)

static void update_subtitle (AgentChatWindow *self);

/* The application; NULL for a window of its own (in the tests). GObject
 * sets the window's "application" only after constructed(): until then,
 * the process's application stands for it. */
AgentChatApplication *
_agent_chat_window_get_application (AgentChatWindow *self)
{
  GApplication *app = G_APPLICATION (gtk_window_get_application (GTK_WINDOW (self)));

  if (app == NULL)
    app = g_application_get_default ();
  return AGENT_CHAT_IS_APPLICATION (app) ? AGENT_CHAT_APPLICATION (app) : NULL;
}

/**
 * agent_chat_window_scroll_to_bottom:
 * @self: a #AgentChatWindow
 *
 * Brings the end of the conversation into view, and follows it from there.
 */
void
agent_chat_window_scroll_to_bottom (AgentChatWindow *self)
{
  g_return_if_fail (AGENT_CHAT_IS_WINDOW (self));

  agent_gtk_chat_view_scroll_to_end (self->chat_view);
}

/**
 * _agent_chat_window_show_error:
 * @self: a #AgentChatWindow
 * @error: what went wrong
 *
 * Shows @error as a card after the conversation, with Retry (and
 * Preferences, when the fix is there).
 */
void
_agent_chat_window_show_error (AgentChatWindow *self,
                               const GError    *error)
{
  agent_gtk_chat_view_show_error (self->chat_view, error);
}

/* Session */

static void
detach_session (AgentChatWindow *self)
{
  if (self->session == NULL)
    return;
  g_signal_handlers_disconnect_by_data (self->session, self);
  if (self->mcp_servers != NULL)
    agent_mcp_server_list_detach (self->mcp_servers, self->session);
  g_clear_object (&self->session);
}

static void
set_session (AgentChatWindow *self,
             AgentSession    *session)
{
  g_object_ref (session);
  detach_session (self);
  self->session = session;
  /* Before the view's own handler, which asks in an approval prompt */
  g_signal_connect (session, "approve-tool-call", G_CALLBACK (_agent_chat_window_approve_tool_call),
                    self);
  agent_gtk_chat_view_set_session (self->chat_view, session);
  agent_chat_context_meter_set_session (self->context_meter, session);
}

static void
configure_tools (AgentChatWindow *self)
{
  GListModel *tools = agent_session_get_tools (self->session);
  g_auto(GStrv) enabled = g_settings_get_strv (self->settings, "enabled-tools");

  /* The MCP servers' tools stay: they follow their servers */
  for (guint i = g_list_model_get_n_items (tools); i > 0; i--)
    {
      g_autoptr(AgentTool) tool = g_list_model_get_item (tools, i - 1);

      if (!AGENT_IS_MCP_TOOL (tool))
        agent_session_remove_tool (self->session, tool);
    }
  if (self->mcp_servers != NULL)
    agent_mcp_server_list_attach (self->mcp_servers, self->session);
  for (guint i = 0; enabled[i] != NULL; i++)
    {
      g_autoptr(AgentTool) tool = agent_builtin_tool_new (enabled[i], NULL);

      if (tool != NULL)
        agent_session_add_tool (self->session, tool);
    }
  _agent_chat_window_add_search_tools (self);
}

/* Applies the settings to the session, making a new one (with the same
 * memory) when the provider changed. */
static gboolean
configure_session (AgentChatWindow  *self,
                   GError          **error)
{
  const char *name = agent_chat_connection_get_provider (self->connection);
  g_autofree char *prompt = g_settings_get_string (self->settings, "system-prompt");
  g_autofree char *key = NULL;
  AgentChatKeySource source;
  AgentProvider *provider;

  if (self->session == NULL ||
      g_strcmp0 (agent_provider_get_name (agent_session_get_provider (self->session)), name) != 0)
    {
      g_autoptr(AgentProvider) new_provider = agent_chat_connection_create_provider (
        self->connection, error);
      g_autoptr(AgentSession) session = NULL;

      if (new_provider == NULL)
        return FALSE;
      session = agent_session_new (new_provider);
      if (self->session != NULL)
        agent_session_set_memory (session, agent_session_get_memory (self->session));
      set_session (self, session);
    }

  provider = agent_session_get_provider (self->session);
  agent_chat_connection_apply (self->connection, provider);
  /* The chat's own model, when one was picked for it */
  agent_provider_set_model (provider, _agent_chat_window_chat_model (self));
  /* Unknown until looked up: wait_for_key() does before a turn */
  agent_chat_secret_store_peek (self->secrets, name,
                                agent_chat_connection_get_base_url (self->connection),
                                &key, &source);
  agent_provider_set_api_key (provider, key);
  agent_session_set_system_prompt (self->session, *prompt ? prompt : NULL);
  _agent_chat_window_apply_chat_settings (self);
  g_object_set (self->session, "scale-images",
                g_settings_get_boolean (self->settings, "scale-images"), NULL);
  configure_tools (self);
  _agent_chat_window_configure_context (self);
  return TRUE;
}

static void
on_key_looked_up (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(AgentChatWindow) self = user_data;
  g_autofree char *key = NULL;
  AgentChatKeySource source;

  key = agent_chat_secret_store_lookup_finish (AGENT_CHAT_SECRET_STORE (object), result, &source,
                                               NULL);
  self->looking_up_key = FALSE;
  if (self->connection == NULL)  /* closed meanwhile */
    return;
  agent_gtk_chat_view_resume_turn (self->chat_view);
}

/* Whether the turn must wait for the key of the server in use: the first
 * time, the keyring is asked (it may want to be unlocked); then the turn
 * goes on from on_key_looked_up(). */
static gboolean
wait_for_key (AgentChatWindow *self)
{
  g_autofree char *key = NULL;
  AgentChatKeySource source;
  const char *provider = agent_chat_connection_get_provider (self->connection);
  const char *base_url = agent_chat_connection_get_base_url (self->connection);

  if (agent_chat_secret_store_peek (self->secrets, provider, base_url, &key, &source))
    return FALSE;
  if (!self->looking_up_key)
    {
      self->looking_up_key = TRUE;
      agent_chat_secret_store_lookup_async (self->secrets, provider, base_url, NULL,
                                            on_key_looked_up, g_object_ref (self));
    }
  return TRUE;
}

/* Before each turn of the view: the key, the conversation, then the
 * settings; TRUE holds the turn until the key or the conversation is
 * there (agent_gtk_chat_view_resume_turn()) */
static gboolean
on_prepare_turn (AgentChatWindow *self)
{
  g_autoptr(GError) error = NULL;

  if (wait_for_key (self) || _agent_chat_window_wait_for_search_key (self) ||
      _agent_chat_window_wait_for_claim (self))
    return TRUE;
  if (!configure_session (self, &error))
    {
      agent_gtk_chat_view_fail_turn (self->chat_view, error);
      return FALSE;
    }
  if (_agent_chat_window_refuse_images (self))
    return FALSE;
  if (_agent_chat_window_wait_for_context_window (self))
    return TRUE;
  _agent_chat_window_turn_started (self);
  return FALSE;
}

/**
 * _agent_chat_window_add_toast:
 * @self: a #AgentChatWindow
 * @toast: (transfer full): a toast
 *
 * Shows @toast over the conversation, above the message field, never over
 * it; over the sidebar while a narrow window shows the sidebar alone. Its
 * timeout is libadwaita's.
 */
void
_agent_chat_window_add_toast (AgentChatWindow *self,
                              AdwToast        *toast)
{
  AdwToastOverlay *overlay = self->toast_overlay;

#if AGENT_HAS_STORE
  if (self->sidebar_toast_overlay != NULL && !gtk_widget_get_mapped (self->content_pane) &&
      gtk_widget_get_mapped (self->sidebar_pane))
    overlay = self->sidebar_toast_overlay;
#endif
  adw_toast_overlay_add_toast (overlay, toast);
}

/* An attachment refused: a file or an MCP resource that cannot be read, or
 * one the provider cannot take; or a "/" prompt that cannot be got */
static void
show_attachment_error (AgentChatWindow *self,
                       const GError    *error)
{
  AdwToast *toast = adw_toast_new (error->message);

  adw_toast_set_priority (toast, ADW_TOAST_PRIORITY_HIGH);
  _agent_chat_window_add_toast (self, toast);
}

static void
on_turn_finished (AgentChatWindow *self,
                  AgentMessage    *message,
                  const GError    *error)
{
  g_autofree char *body = NULL;

  /* Refused for its attachments: the composer has them back, the toast
   * says why (the provider cannot take one, or one is too large) */
  if ((g_error_matches (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT) ||
       g_error_matches (error, AGENT_ERROR, AGENT_ERROR_LIMIT)) &&
      g_list_model_get_n_items (agent_gtk_composer_get_attachments (self->composer)) > 0)
    show_attachment_error (self, error);
  if (error != NULL || message == NULL)
    return;
  body = _agent_chat_window_excerpt (agent_message_get_content (message));
  _agent_chat_window_notify_away (self, adw_window_title_get_title (self->window_title), body);
  _agent_chat_window_turn_answered (self, message);
}

/* Stop, or the turn held started or was dropped: nothing waits for the
 * conversation any more */
static void
on_busy_changed (AgentChatWindow *self)
{
  gboolean busy = agent_gtk_chat_view_get_busy (self->chat_view);

  if (!busy)
    _agent_chat_window_stop_waiting (self);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.stop", busy);
}

/* Edit and Resend: Undo in a toast, while it can be undone */

static void
on_undo_clicked (AgentChatWindow *self)
{
  agent_gtk_chat_view_undo_edit (self->chat_view);
}

static void
on_edit_sent (AgentChatWindow *self)
{
  AdwToast *toast = adw_toast_new (_("Message edited"));

  adw_toast_set_button_label (toast, _("_Undo"));
  adw_toast_set_priority (toast, ADW_TOAST_PRIORITY_HIGH);
  g_signal_connect_object (toast, "button-clicked", G_CALLBACK (on_undo_clicked), self,
                           G_CONNECT_SWAPPED);
  if (self->undo_toast != NULL)
    adw_toast_dismiss (self->undo_toast);
  g_set_weak_pointer (&self->undo_toast, toast);
  _agent_chat_window_add_toast (self, toast);
}

static void
on_can_undo_edit_changed (AgentChatWindow *self)
{
  if (!agent_gtk_chat_view_get_can_undo_edit (self->chat_view) && self->undo_toast != NULL)
    adw_toast_dismiss (self->undo_toast);
}

static void
on_open_settings (AgentChatWindow *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "app.preferences", NULL);
}

/**
 * agent_chat_window_send:
 * @self: a #AgentChatWindow
 * @text: the user's message
 *
 * Starts a turn with @text, unless one runs.
 */
void
agent_chat_window_send (AgentChatWindow *self,
                        const char      *text)
{
  g_return_if_fail (AGENT_CHAT_IS_WINDOW (self));

  agent_gtk_chat_view_send (self->chat_view, text);
}

/**
 * agent_chat_window_stop:
 * @self: a #AgentChatWindow
 *
 * Cancels the running turn: mid-stream, during a tool or while an approval
 * waits. What streamed stays, marked as stopped. A turn that waits for the
 * conversation never starts; its text stays in the composer.
 */
void
agent_chat_window_stop (AgentChatWindow *self)
{
  g_return_if_fail (AGENT_CHAT_IS_WINDOW (self));

  agent_gtk_chat_view_stop (self->chat_view);
  _agent_chat_window_stop_waiting (self);
}

static void
stop_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  agent_chat_window_stop (AGENT_CHAT_WINDOW (widget));
}

/* Whether the text @widget (one with the keyboard) has somewhere to move
 * its cursor to, towards its start (@backward) or its end */
static gboolean
text_can_move (GtkWidget *widget,
               gboolean   backward)
{
  if (GTK_IS_TEXT_VIEW (widget))
    {
      GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (widget));
      GtkTextIter cursor;

      gtk_text_buffer_get_iter_at_mark (buffer, &cursor, gtk_text_buffer_get_insert (buffer));
      return gtk_text_buffer_get_has_selection (buffer) ||
             !(backward ? gtk_text_iter_is_start (&cursor) : gtk_text_iter_is_end (&cursor));
    }
  if (GTK_IS_EDITABLE (widget))
    {
      int position = gtk_editable_get_position (GTK_EDITABLE (widget));
      const char *text = gtk_editable_get_text (GTK_EDITABLE (widget));

      return gtk_editable_get_selection_bounds (GTK_EDITABLE (widget), NULL, NULL) ||
             (backward ? position > 0 : position < (int) g_utf8_strlen (text, -1));
    }
  return FALSE;
}

/* Ctrl+Home and Ctrl+End, from anywhere in the window: the first message
 * of the conversation, and the last. In a text with somewhere to move
 * (the message field's cursor not at its start), the text's own first:
 * pressed again there, they go on to the conversation. In the
 * conversation, they are its own (and its message takes the keyboard). */
static gboolean
on_key_pressed (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                AgentChatWindow       *self)
{
  gboolean home = keyval == GDK_KEY_Home || keyval == GDK_KEY_KP_Home;
  gboolean end = keyval == GDK_KEY_End || keyval == GDK_KEY_KP_End;
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));

  if (!(home || end) || (state & gtk_accelerator_get_default_mod_mask ()) != GDK_CONTROL_MASK ||
      (focus != NULL && (text_can_move (focus, home) ||
                         gtk_widget_is_ancestor (focus, GTK_WIDGET (self->chat_view)))))
    return GDK_EVENT_PROPAGATE;
  if (home)
    agent_gtk_chat_view_scroll_to_start (self->chat_view);
  else
    agent_gtk_chat_view_scroll_to_end (self->chat_view);
  return GDK_EVENT_STOP;
}

/* Ctrl+O wherever the focus is: the composer's Attach */
static void
attach_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  gtk_widget_activate_action (GTK_WIDGET (AGENT_CHAT_WINDOW (widget)->composer),
                              "composer.attach", NULL);
}

/**
 * agent_chat_window_set_memory:
 * @self: a #AgentChatWindow
 * @memory: the conversation to show and go on with
 *
 * Shows @memory (stopping the running turn first) and scrolls to its end.
 */
void
agent_chat_window_set_memory (AgentChatWindow *self,
                              AgentMemory     *memory)
{
  g_autoptr(GError) error = NULL;

  g_return_if_fail (AGENT_CHAT_IS_WINDOW (self));

  agent_chat_window_stop (self);
  /* A cancelled turn ends on a later main loop iteration, in its own
   * conversation: leave its session to it. */
  if (self->session != NULL && agent_session_get_busy (self->session))
    detach_session (self);
  if (self->session == NULL && !configure_session (self, &error))
    {
      _agent_chat_window_show_error (self, error);
      return;
    }
  agent_session_set_memory (self->session, memory);
  _agent_chat_window_memory_changed (self);
  _agent_chat_window_update_approvals (self);
  _agent_chat_window_model_changed (self);
  agent_chat_window_scroll_to_bottom (self);
}

static void
new_chat_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  AgentChatWindow *self = AGENT_CHAT_WINDOW (widget);
  g_autoptr(AgentMemory) memory = NULL;

  /* The chat shown is a new one already: it stays, with its draft */
  if (self->session == NULL || agent_session_get_busy (self->session) ||
      g_list_model_get_n_items (G_LIST_MODEL (agent_session_get_memory (self->session))) > 0)
    {
      memory = _agent_chat_window_new_memory (self);
      agent_chat_window_set_memory (self, memory);
    }
  _agent_chat_window_show_pane (self, TRUE);
  gtk_widget_grab_focus (GTK_WIDGET (self->composer));
}

static void
toast_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  AgentChatWindow *self = AGENT_CHAT_WINDOW (widget);
  _agent_chat_window_add_toast (self, adw_toast_new (g_variant_get_string (parameter, NULL)));
}

/* The header: the model and the server's host (or that it is the demo
 * server); the whole base URL in the tooltip */
static void
update_subtitle (AgentChatWindow *self)
{
  g_autofree char *subtitle = agent_chat_connection_dup_subtitle_for (
    self->connection, _agent_chat_window_chat_model (self));
  g_autofree char *url = agent_chat_connection_dup_shown_base_url (self->connection);
  /* Translators: the tooltip of the title: the model, then the server's URL */
  g_autofree char *tooltip = g_strdup_printf (_("Choose a model · %s"), url);

  adw_window_title_set_subtitle (self->window_title, subtitle);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->model_button), tooltip);
}

/**
 * _agent_chat_window_model_changed:
 * @self: a #AgentChatWindow
 *
 * The chat shown, or the model picked for it, changed: the subtitle says
 * which model, and the next turn uses it.
 */
void
_agent_chat_window_model_changed (AgentChatWindow *self)
{
  update_subtitle (self);
  _agent_chat_window_update_vision (self);
  if (self->session != NULL && !agent_session_get_busy (self->session))
    agent_provider_set_model (agent_session_get_provider (self->session),
                              _agent_chat_window_chat_model (self));
}

/* Another server: the session follows from its next turn */
static void
on_profile_changed (AgentChatWindow *self)
{
  g_autoptr(GError) error = NULL;

  if (self->session != NULL && !agent_session_get_busy (self->session) &&
      !configure_session (self, &error))
    _agent_chat_window_show_error (self, error);
  _agent_chat_window_model_changed (self);
}

/**
 * agent_chat_window_get_connection:
 * @self: a #AgentChatWindow
 *
 * Returns: (transfer none): the server the window talks to
 */
AgentChatConnection *
agent_chat_window_get_connection (AgentChatWindow *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_WINDOW (self), NULL);
  return self->connection;
}

/**
 * agent_chat_window_set_connection:
 * @self: a #AgentChatWindow
 * @connection: the server to talk to
 *
 * Talks to @connection's server from the next turn on.
 */
void
agent_chat_window_set_connection (AgentChatWindow     *self,
                                  AgentChatConnection *connection)
{
  g_autoptr(GError) error = NULL;

  g_return_if_fail (AGENT_CHAT_IS_WINDOW (self));
  g_return_if_fail (AGENT_CHAT_IS_CONNECTION (connection));

  if (self->connection == connection)
    return;
  if (self->connection != NULL)
    g_signal_handlers_disconnect_by_data (self->connection, self);
  g_set_object (&self->connection, connection);
  agent_chat_first_run_set_server_given (AGENT_CHAT_FIRST_RUN (self->first_run),
                                         agent_chat_connection_get_from_command_line (connection));
  g_signal_connect_object (connection, "notify", G_CALLBACK (update_subtitle), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (connection, "notify::profile", G_CALLBACK (on_profile_changed), self,
                           G_CONNECT_SWAPPED);
  update_subtitle (self);
  if (self->session != NULL && !agent_session_get_busy (self->session) &&
      !configure_session (self, &error))
    _agent_chat_window_show_error (self, error);
}

/* The first run: the empty chat offers servers to start with */
static void
on_first_run_visible (AgentChatWindow *self)
{
  if (gtk_widget_get_visible (self->first_run))
    {
      adw_status_page_set_title (self->empty_page, _("Welcome to Agent Chat"));
      adw_status_page_set_description (self->empty_page,
                                       _("Choose a model server to chat with. You can add more "
                                         "in Preferences."));
      return;
    }
  adw_status_page_set_title (self->empty_page, _("Start a Conversation"));
  adw_status_page_set_description (self->empty_page,
                                   _("Ask anything. Tools run only when the model asks for them, "
                                     "and you see each call."));
}

/* GObject */

static void
agent_chat_window_constructed (GObject *object)
{
  AgentChatWindow *self = AGENT_CHAT_WINDOW (object);
  AgentChatApplication *app = _agent_chat_window_get_application (self);
  g_autoptr(AgentChatConnection) connection = NULL;
  g_autoptr(GAction) chunks = NULL;
  g_autoptr(GError) error = NULL;

  G_OBJECT_CLASS (agent_chat_window_parent_class)->constructed (object);

  if (app != NULL)
    {
      self->settings = g_object_ref (agent_chat_application_get_settings (app));
      self->secrets = g_object_ref (agent_chat_application_get_secret_store (app));
      g_set_object (&self->mcp_servers, agent_chat_application_get_mcp_server_list (app));
      /* Their resources in the attach menu, their prompts as "/" commands */
      agent_gtk_composer_set_mcp_servers (self->composer, G_LIST_MODEL (self->mcp_servers));
    }
  else
    {
      self->settings = g_settings_new (AGENT_CHAT_SCHEMA_ID);
      /* A window of its own (in the tests): keys for the run only */
      self->secrets = agent_chat_secret_store_new (FALSE);
    }

  chunks = g_settings_create_action (self->settings, "show-tool-call-chunks");
  g_action_map_add_action (G_ACTION_MAP (self), chunks);
  g_settings_bind (self->settings, "show-tool-call-chunks", self->chat_view,
                   "show-tool-call-chunks", G_SETTINGS_BIND_GET);
  g_settings_bind (self->settings, "window-width", self, "default-width", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "window-height", self, "default-height",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "window-maximized", self, "maximized", G_SETTINGS_BIND_DEFAULT);
  if (app != NULL)
    connection = agent_chat_application_new_connection (app, NULL, NULL, NULL);
  else
    connection = agent_chat_connection_new (self->settings, NULL, NULL, NULL);
  agent_chat_window_set_connection (self, connection);

  if (app != NULL)
    {
      g_signal_connect_object (self->first_run, "notify::visible",
                               G_CALLBACK (on_first_run_visible), self, G_CONNECT_SWAPPED);
      agent_chat_first_run_set_profiles (AGENT_CHAT_FIRST_RUN (self->first_run),
                                         agent_chat_application_get_profiles (app));
    }

  if (!configure_session (self, &error))
    _agent_chat_window_show_error (self, error);
  _agent_chat_window_init_context (self);
  _agent_chat_window_init_conversations (self);
  _agent_chat_window_init_import (self);
#ifdef AGENT_CHAT_HAVE_GSTREAMER
  _agent_chat_window_init_voice (self);
#endif
  gtk_widget_grab_focus (GTK_WIDGET (self->composer));
}

static void
agent_chat_window_dispose (GObject *object)
{
  AgentChatWindow *self = AGENT_CHAT_WINDOW (object);

  if (self->chat_view != NULL)
    {
      agent_chat_window_stop (self);
      g_signal_handlers_disconnect_by_data (self->chat_view, self);
      agent_gtk_chat_view_set_session (self->chat_view, NULL);
    }
  detach_session (self);
  g_clear_object (&self->mcp_servers);
  _agent_chat_window_dispose_conversations (self);
  _agent_chat_window_dispose_models (self);
  _agent_chat_window_dispose_vision (self);
  _agent_chat_window_dispose_context (self);
  g_clear_object (&self->voice_reader);
  g_clear_weak_pointer (&self->undo_toast);
  gtk_widget_dispose_template (GTK_WIDGET (self), AGENT_CHAT_TYPE_WINDOW);
  g_clear_object (&self->secrets);
  if (self->connection != NULL)
    g_signal_handlers_disconnect_by_data (self->connection, self);
  g_clear_object (&self->connection);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (agent_chat_window_parent_class)->dispose (object);
}

static void
agent_chat_window_class_init (AgentChatWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = agent_chat_window_constructed;
  object_class->dispose = agent_chat_window_dispose;

  g_type_ensure (AGENT_GTK_TYPE_CHAT_VIEW);
  g_type_ensure (AGENT_GTK_TYPE_COMPOSER);
  g_type_ensure (AGENT_CHAT_TYPE_CONTEXT_METER);
  g_type_ensure (AGENT_CHAT_TYPE_FIRST_RUN);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/libagent/Chat/agent-chat-window.ui");
  gtk_widget_class_bind_template_child (widget_class, AgentChatWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, AgentChatWindow, sidebar_pane);
  gtk_widget_class_bind_template_child (widget_class, AgentChatWindow, sidebar_separator);
  gtk_widget_class_bind_template_child (widget_class, AgentChatWindow, sidebar_header);
  gtk_widget_class_bind_template_child (widget_class, AgentChatWindow, content_pane);
  gtk_widget_class_bind_template_child (widget_class, AgentChatWindow, content_header);
  gtk_widget_class_bind_template_child (widget_class, AgentChatWindow, back_button);
  gtk_widget_class_bind_template_child (widget_class, AgentChatWindow, content_new_button);
  gtk_widget_class_bind_template_child (widget_class, AgentChatWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, AgentChatWindow, menu_button);
  gtk_widget_class_bind_template_child (widget_class, AgentChatWindow, settings_button);
  gtk_widget_class_bind_template_child (widget_class, AgentChatWindow, approvals_section);
  gtk_widget_class_bind_template_child (widget_class, AgentChatWindow, model_button);
  gtk_widget_class_bind_template_child (widget_class, AgentChatWindow, models_popover);
  gtk_widget_class_bind_template_child (widget_class, AgentChatWindow, model_search);
  gtk_widget_class_bind_template_child (widget_class, AgentChatWindow, model_list);
  gtk_widget_class_bind_template_child (widget_class, AgentChatWindow, models_status);
  gtk_widget_class_bind_template_child (widget_class, AgentChatWindow, more_models_button);
  gtk_widget_class_bind_template_child (widget_class, AgentChatWindow, vision_warning);
  gtk_widget_class_bind_template_child (widget_class, AgentChatWindow, vision_label);
  gtk_widget_class_bind_template_child (widget_class, AgentChatWindow, empty_page);
  gtk_widget_class_bind_template_child (widget_class, AgentChatWindow, first_run);
  gtk_widget_class_bind_template_child (widget_class, AgentChatWindow, chat_view);
  gtk_widget_class_bind_template_child (widget_class, AgentChatWindow, composer);
  gtk_widget_class_bind_template_child (widget_class, AgentChatWindow, context_meter);

  gtk_widget_class_install_action (widget_class, "win.new-chat", NULL, new_chat_action);
  gtk_widget_class_install_action (widget_class, "win.stop", NULL, stop_action);
  gtk_widget_class_install_action (widget_class, "win.attach", NULL, attach_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK, "win.attach",
                                       NULL);
  gtk_widget_class_install_action (widget_class, "win.toast", "s", toast_action);
  gtk_widget_class_install_action (widget_class, "win.revoke-approval", "s",
                                   _agent_chat_window_revoke_approvals);
  gtk_widget_class_install_action (widget_class, "win.revoke-approvals", NULL,
                                   _agent_chat_window_revoke_approvals);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "win.stop", NULL);
  _agent_chat_window_class_init_conversations (widget_class);
  _agent_chat_window_class_init_import (widget_class);
  _agent_chat_window_class_init_models (widget_class);
}

static void
agent_chat_window_init (AgentChatWindow *self)
{
  GtkEventController *keys;

  gtk_widget_init_template (GTK_WIDGET (self));
  _agent_chat_window_init_split (self);
  /* GTK 4.8 names a popover menu after its type */
  gtk_accessible_update_property (GTK_ACCESSIBLE (gtk_menu_button_get_popover (self->menu_button)),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Main Menu"), -1);
  agent_chat_popover_forward_shortcuts (gtk_menu_button_get_popover (self->menu_button));
  agent_chat_popover_forward_shortcuts (self->models_popover);
  agent_chat_a11y_name_status_page (self->empty_page);
  _agent_chat_window_init_models (self);
  _agent_chat_window_init_vision (self);
  _agent_chat_window_init_chat_settings (self);
  agent_chat_a11y_name_toasts (self->toast_overlay);
  /* The development build's header bars are striped (libadwaita's style) */
  if (g_str_equal (AGENT_CHAT_PROFILE, "development"))
    gtk_widget_add_css_class (GTK_WIDGET (self), "devel");

  g_signal_connect_object (self->chat_view, "prepare-turn", G_CALLBACK (on_prepare_turn), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->chat_view, "turn-finished", G_CALLBACK (on_turn_finished), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->chat_view, "notify::busy", G_CALLBACK (on_busy_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->chat_view, "edit-sent", G_CALLBACK (on_edit_sent), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->chat_view, "notify::can-undo-edit",
                           G_CALLBACK (on_can_undo_edit_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->chat_view, "approval-answered",
                           G_CALLBACK (_agent_chat_window_approval_answered), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->chat_view, "open-settings", G_CALLBACK (on_open_settings), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->composer, "attachment-error", G_CALLBACK (show_attachment_error),
                           self, G_CONNECT_SWAPPED);
  /* A "/" prompt that cannot be got says why as an attachment does */
  g_signal_connect_object (self->composer, "prompt-error", G_CALLBACK (show_attachment_error),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect (self, "notify::is-active", G_CALLBACK (_agent_chat_window_is_active_changed),
                    NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.stop", FALSE);
  keys = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect_object (keys, "key-pressed", G_CALLBACK (on_key_pressed), self, 0);
  gtk_widget_add_controller (GTK_WIDGET (self), keys);
}

AgentChatWindow *
agent_chat_window_new (AgentChatApplication *application)
{
  return g_object_new (AGENT_CHAT_TYPE_WINDOW, "application", application, NULL);
}

AgentSession *
agent_chat_window_get_session (AgentChatWindow *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_WINDOW (self), NULL);
  return self->session;
}

AgentGtkComposer *
agent_chat_window_get_composer (AgentChatWindow *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_WINDOW (self), NULL);
  return self->composer;
}

/**
 * agent_chat_window_get_chat_view:
 * @self: a #AgentChatWindow
 *
 * Returns: (transfer none): the conversation, libagent-gtk's chat view
 */
AgentGtkChatView *
agent_chat_window_get_chat_view (AgentChatWindow *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_WINDOW (self), NULL);
  return self->chat_view;
}
