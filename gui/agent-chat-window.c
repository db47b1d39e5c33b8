/* agent-chat-window.c
 *
 * The main window: a header bar, the conversation (a GtkListView over the
 * session's transcript, tool results filtered out since their calls show
 * them, followed by the error of a failed turn, if any) and the composer.
 *
 * The conversations kept in the store, and the sidebar that lists them,
 * are in agent-chat-window-conversations.c.
 *
 * The window owns the AgentSession. Its provider, base URL and model come
 * from the window's AgentChatConnection (the settings, or the command line
 * that opened the window), its key from the secret store (looked up before
 * the first turn to a server), its system prompt and tools from the
 * settings; all are applied before each turn. The Show Tool-Call Chunks
 * setting is bound to the session's property, so flipping it acts at once,
 * even mid-stream. The subtitle says the model and the server's host.
 *
 * From Send until something of the answer shows, its row says that it is
 * awaited, or that the request is tried again and why (the session's
 * ::retry). What belongs to each chat (draft, edit, errors) is in
 * agent-chat-window-chats.c.
 *
 * The questions about tools, what is allowed without asking, and the
 * notifications of answers that come while the window is not in use are
 * in agent-chat-window-approvals.c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agent-chat-a11y.h"
#include "agent-chat-error-item.h"
#include "agent-chat-mcp-servers.h"
#include "agent-chat-message-row.h"
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

/* Scrolling: the view follows the end of the conversation (a streaming
 * answer, a new turn) until the user scrolls up; see agent-chat-autoscroll.c */

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

  agent_chat_autoscroll_set_following (self->autoscroll, TRUE);
}

static void
jump_to_bottom (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  agent_chat_window_scroll_to_bottom (AGENT_CHAT_WINDOW (widget));
}

static void
on_items_changed (AgentChatWindow *self)
{
  gboolean empty = g_list_model_get_n_items (G_LIST_MODEL (self->items)) == 0;

  gtk_stack_set_visible_child_name (self->stack, empty ? "empty" : "chat");
}

/* Session */

static void
clear_error (AgentChatWindow *self)
{
  g_list_store_remove_all (self->extras);
}

/**
 * _agent_chat_window_show_error:
 * @self: a #AgentChatWindow
 * @error: why a turn failed
 * @last: (nullable): the message the turn ended with
 *
 * Shows @error as a card after the conversation, with Retry (and
 * Preferences, when the fix is there).
 */
void
_agent_chat_window_show_error (AgentChatWindow *self,
                               const GError    *error,
                               AgentMessage    *last)
{
  g_autoptr(AgentChatErrorItem) item = NULL;
  AgentChatErrorFlags flags = AGENT_CHAT_ERROR_NONE;

  if (last != NULL && agent_message_get_state (last) == AGENT_MESSAGE_STATE_INTERRUPTED)
    flags |= AGENT_CHAT_ERROR_PARTIAL;
  if (self->session != NULL &&
      !agent_provider_get_has_api_key (agent_session_get_provider (self->session)))
    flags |= AGENT_CHAT_ERROR_NO_KEY;

  item = agent_chat_error_item_new (error, flags);
  clear_error (self);
  g_list_store_append (self->extras, item);
  agent_chat_window_scroll_to_bottom (self);
}

static void
show_error (AgentChatWindow *self,
            const GError    *error)
{
  _agent_chat_window_show_error (self, error, NULL);
}

/* Rows: what a row shows that its item does not say */

static void
apply_row_state (AgentChatWindow     *self,
                 AgentChatMessageRow *row)
{
  GObject *item = agent_chat_message_row_get_item (row);
  AgentMessage *message = AGENT_IS_MESSAGE (item) ? AGENT_MESSAGE (item) : NULL;
  gboolean current = message != NULL && self->session != NULL &&
                     message == agent_session_get_current_message (self->session);

  agent_chat_message_row_set_turn_error (row, _agent_chat_window_lookup_error (self, message));
  agent_chat_message_row_set_editing (row, message != NULL &&
                                           message == _agent_chat_window_get_editing (self));
  agent_chat_message_row_set_progress (row, current ? self->progress_title : NULL,
                                       current ? self->progress_detail : NULL);
}

/**
 * _agent_chat_window_update_rows:
 * @self: a #AgentChatWindow
 *
 * Tells the rows shown what changed outside their items: the errors, the
 * progress of the answer awaited.
 */
void
_agent_chat_window_update_rows (AgentChatWindow *self)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->list_view));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *row = gtk_widget_get_first_child (child);

      if (row != NULL && AGENT_CHAT_IS_MESSAGE_ROW (row))
        apply_row_state (self, AGENT_CHAT_MESSAGE_ROW (row));
    }
}

static void
set_progress (AgentChatWindow *self,
              const char      *title,
              const char      *detail)
{
  g_free (self->progress_title);
  g_free (self->progress_detail);
  self->progress_title = g_strdup (title);
  self->progress_detail = g_strdup (detail);
  _agent_chat_window_update_rows (self);
}

static void
on_retry (AgentSession    *session,
          guint            attempt,
          double           delay,
          const GError    *error,
          AgentChatWindow *self)
{
  guint max_retries = agent_provider_get_max_retries (agent_session_get_provider (session));
  /* Translators: the attempt about to be made, of how many at most */
  g_autofree char *title = g_strdup_printf (_("Retrying (%u of %u)…"), attempt + 1,
                                            max_retries + 1);

  set_progress (self, title, error ? error->message : NULL);
}

/* A new answer is awaited (or none): nothing was tried again for it yet */
static void
on_current_message_changed (AgentChatWindow *self)
{
  set_progress (self, NULL, NULL);
}

/**
 * _agent_chat_window_busy_changed:
 * @self: a #AgentChatWindow
 *
 * A turn runs or waits to start, or no longer: Send becomes Stop, and back.
 */
void
_agent_chat_window_busy_changed (AgentChatWindow *self)
{
  gboolean busy = (self->session != NULL && agent_session_get_busy (self->session)) ||
                  self->claim_source != 0;

  agent_chat_composer_set_busy (self->composer, busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.stop", busy);
}

static gboolean
keep_message (gpointer item,
              gpointer user_data)
{
  AgentMessageRole role = agent_message_get_role (item);

  return role == AGENT_MESSAGE_ROLE_USER || role == AGENT_MESSAGE_ROLE_ASSISTANT;
}

static void
detach_session (AgentChatWindow *self)
{
  if (self->session != NULL)
    {
      g_settings_unbind (self->session, "stream-tool-call-chunks");
      g_signal_handlers_disconnect_by_data (self->session, self);
      agent_chat_mcp_servers_move_session (GTK_WINDOW (self), self->session, NULL);
      g_clear_object (&self->session);
    }
}

static void
set_session (AgentChatWindow *self,
             AgentSession    *session)
{
  g_object_ref (session);
  detach_session (self);
  self->session = session;
  g_settings_bind (self->settings, "show-tool-call-chunks",
                   session, "stream-tool-call-chunks", G_SETTINGS_BIND_GET);
  g_signal_connect (session, "approve-tool-call", G_CALLBACK (_agent_chat_window_approve_tool_call),
                    self);
  g_signal_connect (session, "retry", G_CALLBACK (on_retry), self);
  g_signal_connect_swapped (session, "notify::current-message",
                            G_CALLBACK (on_current_message_changed), self);
  g_signal_connect_swapped (session, "notify::busy", G_CALLBACK (_agent_chat_window_busy_changed), self);
  gtk_filter_list_model_set_model (self->messages, agent_session_get_transcript (session));
  _agent_chat_window_busy_changed (self);
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
  agent_chat_mcp_servers_move_session (GTK_WINDOW (self), NULL, self->session);
  for (guint i = 0; enabled[i] != NULL; i++)
    {
      g_autoptr(AgentTool) tool = agent_builtin_tool_new (enabled[i], NULL);

      if (tool != NULL)
        agent_session_add_tool (self->session, tool);
    }
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
  configure_tools (self);
  return TRUE;
}

static void continue_turn (AgentChatWindow *self);
static void regenerate (AgentChatWindow *self,
                        AgentMessage    *message);
static void retry (AgentChatWindow *self);

/* Nothing waits to start any more */
static void
clear_pending (AgentChatWindow *self)
{
  g_clear_pointer (&self->pending_prompt, g_free);
  g_clear_object (&self->pending_regenerate);
  self->pending_continue = FALSE;
  self->pending_retry = FALSE;
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
  _agent_chat_window_resume (self);
}

/**
 * _agent_chat_window_resume:
 * @self: a #AgentChatWindow
 *
 * Goes on with the turn that waited (for the key, or for the conversation):
 * sends the prompt that waited, or continues the conversation.
 */
void
_agent_chat_window_resume (AgentChatWindow *self)
{
  g_autofree char *prompt = g_steal_pointer (&self->pending_prompt);
  g_autoptr(AgentMessage) answer = g_steal_pointer (&self->pending_regenerate);
  gboolean again = self->pending_continue;
  gboolean retrying = self->pending_retry;

  clear_pending (self);
  if (prompt != NULL)
    agent_chat_window_send (self, prompt);
  else if (answer != NULL)
    regenerate (self, answer);
  else if (retrying)
    retry (self);
  else if (again)
    continue_turn (self);
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

static void
turn_done (AgentChatWindow *self,
           AgentSession    *session,
           AgentMessage    *message,
           GError          *error)
{
  AgentMemory *memory = agent_session_get_memory (session);
  gboolean failed = error != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  gboolean recorded = failed && _agent_chat_window_record_error (self, memory, error);

  /* An Undo of an edit waited for the turn to stop */
  _agent_chat_window_turn_ended (self, memory);

  /* The turn of a session left for another conversation ended: its
   * conversation has what streamed, and the error; this window has moved
   * on. */
  if (session != self->session)
    return;
  g_clear_object (&self->cancellable);
  set_progress (self, NULL, NULL);
  if (recorded)
    _agent_chat_window_show_last_error (self);
  else if (failed)
    show_error (self, error);
  else if (error == NULL && message != NULL)
    {
      g_autofree char *body = _agent_chat_window_excerpt (agent_message_get_content (message));

      _agent_chat_window_notify_away (self, adw_window_title_get_title (self->window_title), body);
      _agent_chat_window_turn_answered (self, message);
    }
}

static void
on_send_done (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(AgentChatWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(AgentMessage) message = agent_session_send_finish (AGENT_SESSION (object), result,
                                                               &error);

  turn_done (self, AGENT_SESSION (object), message, error);
}

static void
on_continue_done (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(AgentChatWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(AgentMessage) message = agent_session_continue_finish (AGENT_SESSION (object), result,
                                                                   &error);

  turn_done (self, AGENT_SESSION (object), message, error);
}

static gboolean
begin_turn (AgentChatWindow *self)
{
  g_autoptr(GError) error = NULL;

  if (self->session != NULL && agent_session_get_busy (self->session))
    return FALSE;
  clear_error (self);
  _agent_chat_window_forget_error (self);
  set_progress (self, NULL, NULL);
  if (!configure_session (self, &error))
    {
      show_error (self, error);
      return FALSE;
    }
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  agent_chat_window_scroll_to_bottom (self);
  _agent_chat_window_turn_started (self);
  return TRUE;
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

  if (self->session != NULL && agent_session_get_busy (self->session))
    return;
  if (wait_for_key (self) || _agent_chat_window_wait_for_claim (self))
    {
      if (text != self->pending_prompt)
        {
          g_autofree char *prompt = g_strdup (text);

          clear_pending (self);
          self->pending_prompt = g_steal_pointer (&prompt);
        }
      return;
    }
  if (!begin_turn (self))
    return;
  /* The composer is emptied; an edit gives it back what it held before */
  agent_chat_composer_set_text (self->composer, NULL);
  if (!_agent_chat_window_apply_edit (self, text))
    {
      g_clear_object (&self->cancellable);
      return;
    }
  g_free (self->last_prompt);
  self->last_prompt = g_strdup (text);
  agent_session_send_async (self->session, text, self->cancellable, on_send_done,
                            g_object_ref (self));
}

static void
continue_turn (AgentChatWindow *self)
{
  if (self->session != NULL && agent_session_get_busy (self->session))
    return;
  if (wait_for_key (self) || _agent_chat_window_wait_for_claim (self))
    {
      clear_pending (self);
      self->pending_continue = TRUE;
      return;
    }
  if (!begin_turn (self))
    return;
  agent_session_continue_async (self->session, self->cancellable, on_continue_done,
                                g_object_ref (self));
}

/**
 * agent_chat_window_stop:
 * @self: a #AgentChatWindow
 *
 * Cancels the running turn: mid-stream, during a tool or while an approval
 * waits. What streamed stays, marked as stopped.
 */
void
agent_chat_window_stop (AgentChatWindow *self)
{
  g_return_if_fail (AGENT_CHAT_IS_WINDOW (self));

  /* A turn that waits for the conversation never starts; its text stays
   * in the composer */
  if (_agent_chat_window_stop_waiting (self))
    clear_pending (self);
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
}

static gboolean
cut_memory (AgentChatWindow *self,
            guint            n_items)
{
  g_autoptr(GError) error = NULL;

  if (!agent_memory_truncate (agent_session_get_memory (self->session), n_items, &error))
    {
      show_error (self, error);
      return FALSE;
    }
  return TRUE;
}

/* The conversation is cut back to the user's message @message answers,
 * and answered again: once the turn may start (the key looked up, the
 * conversation this program's), since the cut itself needs the
 * conversation */
static void
regenerate (AgentChatWindow *self,
            AgentMessage    *message)
{
  AgentMemory *memory;
  guint position;

  if (self->session == NULL || agent_session_get_busy (self->session))
    return;
  if (wait_for_key (self) || _agent_chat_window_wait_for_claim (self))
    {
      clear_pending (self);
      self->pending_regenerate = g_object_ref (message);
      return;
    }
  memory = agent_session_get_memory (self->session);
  position = _agent_chat_window_memory_position (memory, message);
  if (position == G_MAXUINT)
    return;
  /* Back to the user's message this answer answers. */
  while (position > 0)
    {
      g_autoptr(AgentMessage) item = g_list_model_get_item (G_LIST_MODEL (memory), position - 1);

      if (agent_message_get_role (item) == AGENT_MESSAGE_ROLE_USER)
        break;
      position--;
    }
  if (position > 0 && cut_memory (self, position))
    continue_turn (self);
}

static void
on_row_regenerate (AgentChatWindow *self,
                   AgentMessage    *message)
{
  regenerate (self, message);
}

/* Nothing is cut until the edited message is sent */
static void
on_row_edit (AgentChatWindow *self,
             AgentMessage    *message)
{
  if (self->session != NULL)
    _agent_chat_window_edit (self, message);
}

/* The failed turn again, once it may start (as regenerate()): an answer
 * cut short goes first */
static void
retry (AgentChatWindow *self)
{
  GListModel *memory;
  guint n;
  g_autoptr(AgentMessage) last = NULL;

  if (self->session == NULL)
    {
      if (self->last_prompt != NULL)
        agent_chat_window_send (self, self->last_prompt);
      return;
    }
  if (agent_session_get_busy (self->session))
    return;
  if (wait_for_key (self) || _agent_chat_window_wait_for_claim (self))
    {
      clear_pending (self);
      self->pending_retry = TRUE;
      return;
    }

  memory = G_LIST_MODEL (agent_session_get_memory (self->session));
  n = g_list_model_get_n_items (memory);
  last = n > 0 ? g_list_model_get_item (memory, n - 1) : NULL;
  /* The cut-short answer goes: a new one replaces it. */
  if (last != NULL && agent_message_get_role (last) == AGENT_MESSAGE_ROLE_ASSISTANT &&
      agent_message_get_state (last) == AGENT_MESSAGE_STATE_INTERRUPTED)
    {
      if (!cut_memory (self, n - 1))
        return;
      n--;
      g_clear_object (&last);
      last = n > 0 ? g_list_model_get_item (memory, n - 1) : NULL;
    }
  if (last != NULL && (agent_message_get_role (last) == AGENT_MESSAGE_ROLE_USER ||
                       agent_message_get_role (last) == AGENT_MESSAGE_ROLE_TOOL))
    continue_turn (self);
  else if (self->last_prompt != NULL)
    {
      g_autofree char *prompt = g_strdup (self->last_prompt);

      agent_chat_window_send (self, prompt);
    }
}

static void
on_row_retry (AgentChatWindow *self)
{
  retry (self);
}

static void
on_row_open_preferences (AgentChatWindow *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "app.preferences", NULL);
}

/* List items */

static void
on_setup_item (GtkSignalListItemFactory *factory,
               GtkListItem              *item,
               AgentChatWindow          *self)
{
  GtkWidget *row = agent_chat_message_row_new ();

  g_settings_bind (self->settings, "show-tool-call-chunks", row, "show-tool-call-chunks",
                   G_SETTINGS_BIND_GET);
  g_signal_connect_object (row, "edit", G_CALLBACK (on_row_edit), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (row, "regenerate", G_CALLBACK (on_row_regenerate), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (row, "retry", G_CALLBACK (on_row_retry), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (row, "open-preferences", G_CALLBACK (on_row_open_preferences), self,
                           G_CONNECT_SWAPPED);
  gtk_list_item_set_activatable (item, FALSE);
  gtk_list_item_set_selectable (item, FALSE);
  gtk_list_item_set_child (item, row);
}

static void
on_bind_item (GtkSignalListItemFactory *factory,
              GtkListItem              *item,
              AgentChatWindow          *self)
{
  AgentChatMessageRow *row = AGENT_CHAT_MESSAGE_ROW (gtk_list_item_get_child (item));

  agent_chat_message_row_set_item (row, gtk_list_item_get_item (item));
  apply_row_state (self, row);
}

static void
on_unbind_item (GtkSignalListItemFactory *factory,
                GtkListItem              *item,
                AgentChatWindow          *self)
{
  agent_chat_message_row_set_item (AGENT_CHAT_MESSAGE_ROW (gtk_list_item_get_child (item)), NULL);
}

/* Actions */

static void
on_composer_send (AgentChatWindow *self,
                  const char      *text)
{
  agent_chat_window_send (self, text);
}

static void
stop_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  agent_chat_window_stop (AGENT_CHAT_WINDOW (widget));
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
  clear_error (self);
  _agent_chat_window_leave_chat (self);
  /* A cancelled turn ends on a later main loop iteration, in its own
   * conversation: leave its session to it. */
  if (self->session != NULL && agent_session_get_busy (self->session))
    {
      detach_session (self);
      g_clear_object (&self->cancellable);
    }
  if (self->session == NULL && !configure_session (self, &error))
    {
      show_error (self, error);
      return;
    }
  agent_session_set_memory (self->session, memory);
  set_progress (self, NULL, NULL);
  _agent_chat_window_enter_chat (self);
  _agent_chat_window_busy_changed (self);
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
  agent_chat_composer_focus (self->composer);
}

static void
toast_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  AgentChatWindow *self = AGENT_CHAT_WINDOW (widget);
  AdwToast *toast = adw_toast_new (g_variant_get_string (parameter, NULL));

  adw_toast_set_timeout (toast, 2);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
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
  if (self->session != NULL && !agent_session_get_busy (self->session))
    agent_provider_set_model (agent_session_get_provider (self->session),
                              _agent_chat_window_chat_model (self));
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
  g_signal_connect_object (connection, "notify", G_CALLBACK (update_subtitle), self,
                           G_CONNECT_SWAPPED);
  update_subtitle (self);
  if (self->session != NULL && !agent_session_get_busy (self->session) &&
      !configure_session (self, &error))
    show_error (self, error);
}

/* GObject */

static void
agent_chat_window_constructed (GObject *object)
{
  AgentChatWindow *self = AGENT_CHAT_WINDOW (object);
  AgentChatApplication *app = _agent_chat_window_get_application (self);
  g_autoptr(GAction) chunks = NULL;
  g_autoptr(GError) error = NULL;

  G_OBJECT_CLASS (agent_chat_window_parent_class)->constructed (object);

  if (app != NULL)
    {
      self->settings = g_object_ref (agent_chat_application_get_settings (app));
      self->secrets = g_object_ref (agent_chat_application_get_secret_store (app));
    }
  else
    {
      self->settings = g_settings_new (AGENT_CHAT_SCHEMA_ID);
      /* A window of its own (in the tests): keys for the run only */
      self->secrets = agent_chat_secret_store_new (FALSE);
    }

  chunks = g_settings_create_action (self->settings, "show-tool-call-chunks");
  g_action_map_add_action (G_ACTION_MAP (self), chunks);
  g_settings_bind (self->settings, "window-width", self, "default-width", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "window-height", self, "default-height",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "window-maximized", self, "maximized", G_SETTINGS_BIND_DEFAULT);
  {
    g_autoptr(AgentChatConnection) connection = agent_chat_connection_new (self->settings, NULL,
                                                                          NULL, NULL);

    agent_chat_window_set_connection (self, connection);
  }

  g_signal_connect_object (self->factory, "setup", G_CALLBACK (on_setup_item), self, 0);
  g_signal_connect_object (self->factory, "bind", G_CALLBACK (on_bind_item), self, 0);
  g_signal_connect_object (self->factory, "unbind", G_CALLBACK (on_unbind_item), self, 0);

  if (!configure_session (self, &error))
    show_error (self, error);
  _agent_chat_window_init_conversations (self);
  agent_chat_composer_focus (self->composer);
}

static void
agent_chat_window_dispose (GObject *object)
{
  AgentChatWindow *self = AGENT_CHAT_WINDOW (object);

  agent_chat_window_stop (self);
  detach_session (self);
  _agent_chat_window_dispose_chats (self);
  _agent_chat_window_dispose_conversations (self);
  _agent_chat_window_dispose_models (self);
  g_clear_object (&self->autoscroll);
  gtk_widget_dispose_template (GTK_WIDGET (self), AGENT_CHAT_TYPE_WINDOW);
  g_clear_object (&self->items);
  g_clear_object (&self->messages);
  g_clear_object (&self->extras);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->secrets);
  if (self->connection != NULL)
    g_signal_handlers_disconnect_by_data (self->connection, self);
  g_clear_object (&self->connection);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->last_prompt, g_free);
  clear_pending (self);
  g_clear_pointer (&self->progress_title, g_free);
  g_clear_pointer (&self->progress_detail, g_free);

  G_OBJECT_CLASS (agent_chat_window_parent_class)->dispose (object);
}

static void
agent_chat_window_class_init (AgentChatWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = agent_chat_window_constructed;
  object_class->dispose = agent_chat_window_dispose;

  g_type_ensure (AGENT_CHAT_TYPE_COMPOSER);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/libagent/Chat/agent-chat-window.ui");
  gtk_widget_class_bind_template_child (widget_class, AgentChatWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, AgentChatWindow, leaflet);
  gtk_widget_class_bind_template_child (widget_class, AgentChatWindow, sidebar_pane);
  gtk_widget_class_bind_template_child (widget_class, AgentChatWindow, sidebar_separator);
  gtk_widget_class_bind_template_child (widget_class, AgentChatWindow, content_pane);
  gtk_widget_class_bind_template_child (widget_class, AgentChatWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, AgentChatWindow, menu_button);
  gtk_widget_class_bind_template_child (widget_class, AgentChatWindow, approvals_section);
  gtk_widget_class_bind_template_child (widget_class, AgentChatWindow, model_button);
  gtk_widget_class_bind_template_child (widget_class, AgentChatWindow, models_popover);
  gtk_widget_class_bind_template_child (widget_class, AgentChatWindow, model_search);
  gtk_widget_class_bind_template_child (widget_class, AgentChatWindow, model_list);
  gtk_widget_class_bind_template_child (widget_class, AgentChatWindow, models_status);
  gtk_widget_class_bind_template_child (widget_class, AgentChatWindow, empty_page);
  gtk_widget_class_bind_template_child (widget_class, AgentChatWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, AgentChatWindow, scroller);
  gtk_widget_class_bind_template_child (widget_class, AgentChatWindow, list_view);
  gtk_widget_class_bind_template_child (widget_class, AgentChatWindow, factory);
  gtk_widget_class_bind_template_child (widget_class, AgentChatWindow, jump_revealer);
  gtk_widget_class_bind_template_child (widget_class, AgentChatWindow, composer);

  gtk_widget_class_install_action (widget_class, "win.new-chat", NULL, new_chat_action);
  gtk_widget_class_install_action (widget_class, "win.stop", NULL, stop_action);
  gtk_widget_class_install_action (widget_class, "win.jump-to-bottom", NULL, jump_to_bottom);
  gtk_widget_class_install_action (widget_class, "win.toast", "s", toast_action);
  gtk_widget_class_install_action (widget_class, "win.revoke-approval", "s",
                                   _agent_chat_window_revoke_approvals);
  gtk_widget_class_install_action (widget_class, "win.revoke-approvals", NULL,
                                   _agent_chat_window_revoke_approvals);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "win.stop", NULL);
  _agent_chat_window_class_init_conversations (widget_class);
}

static void
agent_chat_window_init (AgentChatWindow *self)
{
  GtkCustomFilter *filter;
  GListStore *models;
  g_autoptr(GtkNoSelection) selection = NULL;

  gtk_widget_init_template (GTK_WIDGET (self));
  /* GTK 4.8 names a popover menu after its type */
  gtk_accessible_update_property (GTK_ACCESSIBLE (gtk_menu_button_get_popover (self->menu_button)),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Main Menu"), -1);
  agent_chat_a11y_name_status_page (self->empty_page);
  _agent_chat_window_init_models (self);
  agent_chat_a11y_name_toasts (self->toast_overlay);
  /* The development build's header bars are striped (libadwaita's style) */
  if (g_str_equal (AGENT_CHAT_PROFILE, "development"))
    gtk_widget_add_css_class (GTK_WIDGET (self), "devel");

  filter = gtk_custom_filter_new (keep_message, NULL, NULL);
  self->messages = gtk_filter_list_model_new (NULL, GTK_FILTER (filter));
  self->extras = g_list_store_new (G_TYPE_OBJECT);
  models = g_list_store_new (G_TYPE_LIST_MODEL);
  g_list_store_append (models, self->messages);
  g_list_store_append (models, self->extras);
  self->items = gtk_flatten_list_model_new (G_LIST_MODEL (models));
  selection = gtk_no_selection_new (g_object_ref (G_LIST_MODEL (self->items)));
  gtk_list_view_set_model (self->list_view, GTK_SELECTION_MODEL (selection));
  g_signal_connect_object (self->items, "items-changed", G_CALLBACK (on_items_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect (self, "notify::is-active", G_CALLBACK (_agent_chat_window_is_active_changed),
                    NULL);

  self->autoscroll = agent_chat_autoscroll_new (self->list_view);
  g_object_bind_property (self->autoscroll, "following", self->jump_revealer, "reveal-child",
                          G_BINDING_SYNC_CREATE | G_BINDING_INVERT_BOOLEAN);
  g_signal_connect_object (self->composer, "send", G_CALLBACK (on_composer_send), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->composer, "stop", G_CALLBACK (agent_chat_window_stop), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->composer, "cancel-edit",
                           G_CALLBACK (_agent_chat_window_cancel_edit), self, G_CONNECT_SWAPPED);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.stop", FALSE);
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

AgentChatComposer *
agent_chat_window_get_composer (AgentChatWindow *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_WINDOW (self), NULL);
  return self->composer;
}

GtkListView *
agent_chat_window_get_list_view (AgentChatWindow *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_WINDOW (self), NULL);
  return self->list_view;
}

/**
 * agent_chat_window_get_items:
 * @self: a #AgentChatWindow
 *
 * Returns: (transfer none): what the chat view shows: messages, then the
 *   error of the last turn
 */
GListModel *
agent_chat_window_get_items (AgentChatWindow *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_WINDOW (self), NULL);
  return G_LIST_MODEL (self->items);
}
