/* agent-chat-window-conversations.c
 *
 * The window's stored conversations: every chat is an AgentConversation of
 * the application's AgentStore (the database agent-cli uses too), given to
 * the session as its memory, so that each turn is written as it goes. The
 * sidebar lists them; the one shown last is remembered in the settings
 * (by id: nothing of its content goes there) and opened again at start.
 *
 * A window of its own (no application: in the tests and benchmarks) keeps
 * conversations only when given a store (its "store" property).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agent-chat-a11y.h"
#include "agent-chat-approvals.h"
#include "agent-chat-sidebar.h"
#include "agent-chat-title.h"
#include "agent-chat-window-private.h"
#include "agent-trace-private.h"

enum {
  PROP_0,
  PROP_STORE,
  PROP_LOADING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
update_title (AgentChatWindow *self)
{
  const char *title = self->conversation ? agent_conversation_get_title (self->conversation) : NULL;

  adw_window_title_set_title (self->window_title,
                              title != NULL && *title != '\0' ? title : _("Agent Chat"));
}

/* The conversation got its id (with its first message), or is opened */
static void
remember (AgentChatWindow *self)
{
  gint64 id = self->conversation ? agent_conversation_get_id (self->conversation) : 0;

  if (id != 0)
    g_settings_set_int64 (self->settings, "last-conversation", id);
  agent_chat_sidebar_set_conversation (AGENT_CHAT_SIDEBAR (self->sidebar), self->conversation);
}

static void
unwatch (AgentChatWindow *self)
{
  if (self->conversation != NULL)
    g_signal_handlers_disconnect_by_data (self->conversation, self);
  g_clear_object (&self->conversation);
}

/* The conversation's server: the profile it was held with; the default
 * one for an older conversation (or one whose profile went); a new chat
 * stays with the one in use until its first turn records it */
static void
follow_profile (AgentChatWindow *self)
{
  const char *profile;

  if (self->conversation == NULL || agent_chat_connection_get_profiles (self->connection) == NULL)
    return;
  profile = agent_conversation_get_profile (self->conversation);
  if (profile != NULL && agent_chat_connection_use_profile (self->connection, profile))
    return;
  if (g_list_model_get_n_items (G_LIST_MODEL (self->conversation)) > 0)
    agent_chat_connection_use_profile (self->connection, NULL);
}

/**
 * _agent_chat_window_memory_changed:
 * @self: a #AgentChatWindow
 *
 * The session was given another memory: follow it, when it is a stored
 * conversation.
 */
void
_agent_chat_window_memory_changed (AgentChatWindow *self)
{
  AgentMemory *memory = agent_session_get_memory (self->session);

  unwatch (self);
  if (AGENT_IS_CONVERSATION (memory))
    {
      self->conversation = g_object_ref (AGENT_CONVERSATION (memory));
      g_signal_connect_object (self->conversation, "notify::id", G_CALLBACK (remember), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (self->conversation, "notify::title", G_CALLBACK (update_title),
                               self, G_CONNECT_SWAPPED);
      /* What it may run without asking, given back elsewhere (the sidebar) */
      g_signal_connect_object (self->conversation, "notify::settings",
                               G_CALLBACK (_agent_chat_window_update_approvals), self,
                               G_CONNECT_SWAPPED);
    }
  if (self->sidebar != NULL)
    remember (self);
  update_title (self);
  follow_profile (self);
}

/**
 * _agent_chat_window_new_memory:
 * @self: a #AgentChatWindow
 *
 * Returns: (transfer full): the memory of a new chat: a conversation of the
 *   store, written with its first message, or one in memory without a store
 */
AgentMemory *
_agent_chat_window_new_memory (AgentChatWindow *self)
{
  if (self->store != NULL)
    return AGENT_MEMORY (agent_store_create_conversation (self->store));
  return agent_simple_memory_new ();
}

/**
 * _agent_chat_window_turn_started:
 * @self: a #AgentChatWindow
 *
 * Records what the conversation is held with, before its turn.
 */
void
_agent_chat_window_turn_started (AgentChatWindow *self)
{
  /* The app's own members of the settings */
  static const char * const members[] = { AGENT_CHAT_APPROVALS_MEMBER, "picked-model",
                                          "title-asked", "chat-settings" };
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) before = NULL;
  g_autoptr(JsonNode) after = NULL;
  JsonNode *recorded;
  gboolean lost = FALSE;

  if (self->conversation == NULL)
    return;
  if (!_agent_chat_window_keep_profile (self, &error))
    {
      g_warning ("The conversation's server could not be recorded: %s", error->message);
      g_clear_error (&error);
    }
  if (agent_conversation_get_settings (self->conversation) != NULL)
    before = json_node_copy (agent_conversation_get_settings (self->conversation));
  if (!agent_conversation_record_session (self->conversation, self->session, &error))
    {
      g_warning ("What the conversation is held with could not be recorded: %s", error->message);
      return;
    }

  /* Recording replaces the settings: what is allowed, the model picked, go
   * back in */
  recorded = agent_conversation_get_settings (self->conversation);
  if (before == NULL || !JSON_NODE_HOLDS_OBJECT (before) || recorded == NULL ||
      !JSON_NODE_HOLDS_OBJECT (recorded))
    return;
  after = json_node_copy (recorded);
  for (guint i = 0; i < G_N_ELEMENTS (members); i++)
    {
      JsonNode *member = json_object_get_member (json_node_get_object (before), members[i]);

      if (member != NULL && !json_object_has_member (json_node_get_object (after), members[i]))
        {
          json_object_set_member (json_node_get_object (after), members[i],
                                  json_node_copy (member));
          lost = TRUE;
        }
    }
  if (lost && !agent_conversation_set_settings (self->conversation, after, &error))
    g_warning ("The conversation's settings could not be kept: %s", error->message);
}

/**
 * _agent_chat_window_keep_profile:
 * @self: a #AgentChatWindow
 * @error: return location for a #GError
 *
 * Records the profile in use with the conversation shown, if it is a
 * stored one.
 *
 * Returns: whether it is recorded (or there is nothing to record)
 */
gboolean
_agent_chat_window_keep_profile (AgentChatWindow  *self,
                                 GError          **error)
{
  const char *name = agent_chat_connection_get_profile_name (self->connection);

  if (self->conversation == NULL || name == NULL ||
      g_strcmp0 (agent_conversation_get_profile (self->conversation), name) == 0)
    return TRUE;
  return agent_conversation_set_profile (self->conversation, name, error);
}

/* Waiting for the conversation: agent-cli (or another store of the same
 * file) adds to it. The turn starts once it is done; the claim is asked
 * for again every CLAIM_INTERVAL ms, without blocking the main loop. */
#define CLAIM_INTERVAL 100

static gboolean
retry_claim (gpointer user_data)
{
  AgentChatWindow *self = user_data;
  g_autoptr(GError) error = NULL;

  if (self->conversation != NULL && !agent_conversation_claim (self->conversation, &error) &&
      g_error_matches (error, AGENT_ERROR, AGENT_ERROR_BUSY))
    return G_SOURCE_CONTINUE;

  /* Claimed (or failed otherwise: the turn says why) */
  self->claim_source = 0;
  agent_gtk_composer_set_status (self->composer, NULL);
  agent_gtk_chat_view_resume_turn (self->chat_view);
  return G_SOURCE_REMOVE;
}

/**
 * _agent_chat_window_wait_for_claim:
 * @self: a #AgentChatWindow
 *
 * Claims the conversation shown for the turn about to start. While another
 * program adds to it, says so and tries again later: the turn goes on
 * once it is this program's (agent_gtk_chat_view_resume_turn()).
 *
 * Returns: whether the turn must wait
 */
gboolean
_agent_chat_window_wait_for_claim (AgentChatWindow *self)
{
  g_autoptr(GError) error = NULL;

  if (self->claim_source != 0)
    return TRUE;
  if (self->conversation == NULL ||
      agent_conversation_claim (self->conversation, &error) ||
      !g_error_matches (error, AGENT_ERROR, AGENT_ERROR_BUSY))
    return FALSE;

  self->claim_source = g_timeout_add (CLAIM_INTERVAL, retry_claim, self);
  agent_gtk_composer_set_status (self->composer,
                                 _("Waiting for another program using this conversation…"));
  return TRUE;
}

/**
 * _agent_chat_window_stop_waiting:
 * @self: a #AgentChatWindow
 *
 * Gives up waiting for the conversation (Stop, or another chat shown).
 *
 * Returns: whether a turn was waiting
 */
gboolean
_agent_chat_window_stop_waiting (AgentChatWindow *self)
{
  if (self->claim_source == 0)
    return FALSE;
  g_clear_handle_id (&self->claim_source, g_source_remove);
  agent_gtk_composer_set_status (self->composer, NULL);
  return TRUE;
}

/* A title from the model, after the first answer */

typedef struct
{
  AgentConversation *conversation;
  char              *title;  /* the title when asked: a new one given meanwhile stays */
} TitleRequest;

static void
title_request_free (TitleRequest *request)
{
  g_object_unref (request->conversation);
  g_free (request->title);
  g_free (request);
}

static void
on_title_generated (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  TitleRequest *request = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *title = agent_chat_title_generate_finish (result, &error);

  if (title == NULL)
    g_debug ("No title: %s", error->message);
  else if (g_strcmp0 (agent_conversation_get_title (request->conversation), request->title) == 0 &&
           !agent_conversation_rename (request->conversation, title, &error))
    g_warning ("The title could not be written: %s", error->message);
  title_request_free (request);
}

/* Whether the conversation's title was asked for already: it is asked once */
static gboolean
mark_title_asked (AgentConversation *conversation)
{
  JsonNode *settings = agent_conversation_get_settings (conversation);
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;

  if (settings != NULL && JSON_NODE_HOLDS_OBJECT (settings) &&
      json_object_has_member (json_node_get_object (settings), "title-asked"))
    return TRUE;
  node = settings && JSON_NODE_HOLDS_OBJECT (settings) ? json_node_copy (settings)
                                                       : json_node_new (JSON_NODE_OBJECT);
  if (json_node_get_object (node) == NULL)
    json_node_take_object (node, json_object_new ());
  json_object_set_boolean_member (json_node_get_object (node), "title-asked", TRUE);
  if (!agent_conversation_set_settings (conversation, node, &error))
    g_warning ("The conversation's settings could not be written: %s", error->message);
  return FALSE;
}

/**
 * _agent_chat_window_turn_answered:
 * @self: a #AgentChatWindow
 * @answer: the answer the turn ended with
 *
 * After the first answer of a conversation, asks the model for a short
 * title (unless the settings say not to).
 */
void
_agent_chat_window_turn_answered (AgentChatWindow *self,
                                  AgentMessage    *answer)
{
  GListModel *messages;
  g_autoptr(AgentMessage) first = NULL;
  g_autoptr(AgentProvider) provider = NULL;
  g_autofree char *key = NULL;
  AgentChatKeySource source;
  TitleRequest *request;
  guint n_questions = 0;

  if (self->conversation == NULL || !g_settings_get_boolean (self->settings, "generate-titles"))
    return;
  messages = G_LIST_MODEL (self->conversation);
  for (guint i = 0; i < g_list_model_get_n_items (messages); i++)
    {
      g_autoptr(AgentMessage) message = g_list_model_get_item (messages, i);

      if (agent_message_get_role (message) == AGENT_MESSAGE_ROLE_USER)
        {
          if (first == NULL)
            first = g_object_ref (message);
          n_questions++;
        }
    }
  if (n_questions != 1 || mark_title_asked (self->conversation) ||
      !(provider = agent_chat_connection_create_provider (self->connection, NULL)))
    return;

  agent_provider_set_model (provider, _agent_chat_window_chat_model (self));
  agent_chat_secret_store_peek (self->secrets, agent_chat_connection_get_provider (self->connection),
                                agent_chat_connection_get_base_url (self->connection), &key,
                                &source);
  agent_provider_set_api_key (provider, key);
  request = g_new0 (TitleRequest, 1);
  request->conversation = g_object_ref (self->conversation);
  request->title = g_strdup (agent_conversation_get_title (self->conversation));
  agent_chat_title_generate_async (provider, agent_message_get_content (first),
                                   agent_message_get_content (answer), NULL, on_title_generated,
                                   request);
}

/* Opening a conversation: its messages are read on a thread of the
 * store's, and shown when they are all there. The last one asked for
 * wins: opening another cancels the one still being read. */

typedef struct
{
  AgentChatWindow *window;
  GCancellable    *cancellable;
  gint64           trace_begin;   /* Sysprof, 0: not traced */
  guint            activate : 1;  /* picked: the chat pane takes the keyboard */
  guint            at_start : 1;  /* the last one, opened again at start */
} Opening;

static void
set_opening (AgentChatWindow *self,
             GCancellable    *cancellable)
{
  gboolean was_loading = self->opening != NULL;

  if (self->opening != NULL)
    g_cancellable_cancel (self->opening);
  g_set_object (&self->opening, cancellable);
  if (was_loading != (cancellable != NULL))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
}

/* At start, the chat shown until the last one is read is a new, empty
 * one: it gives way only if nothing was begun in it meanwhile */
static gboolean
untouched (AgentChatWindow *self)
{
  AgentMemory *memory = agent_session_get_memory (self->session);
  g_autofree char *draft = agent_gtk_composer_dup_text (self->composer);

  return !agent_session_get_busy (self->session) &&
         (memory == NULL || g_list_model_get_n_items (G_LIST_MODEL (memory)) == 0) &&
         (draft == NULL || *draft == '\0');
}

/* @conversation is read: it is the one shown */
static void
shown (AgentChatWindow   *self,
       AgentConversation *conversation,
       gboolean           activate,
       gboolean           at_start)
{
  G_GNUC_UNUSED gint64 trace_begin;

  if (at_start && !untouched (self))
    return;
  trace_begin = _agent_trace_begin ();
  if (AGENT_MEMORY (conversation) != agent_session_get_memory (self->session))
    agent_chat_window_set_memory (self, AGENT_MEMORY (conversation));
  _agent_trace_end (trace_begin, "agent-chat", "show conversation", "%u messages",
                    g_list_model_get_n_items (G_LIST_MODEL (conversation)));
  if (activate)
    {
      _agent_chat_window_show_pane (self, TRUE);
      gtk_widget_grab_focus (GTK_WIDGET (self->composer));
    }
}

static void
on_conversation_loaded (GObject      *source,
                        GAsyncResult *result,
                        gpointer      data)
{
  AgentConversation *conversation = AGENT_CONVERSATION (source);
  Opening *opening = data;
  AgentChatWindow *self = opening->window;
  g_autoptr(GError) error = NULL;
  gboolean loaded = agent_conversation_load_finish (conversation, result, &error);

  _agent_trace_end (opening->trace_begin, "agent-chat", "load conversation", "%s%s",
                    loaded ? "loaded" : "failed: ", loaded ? "" : error->message);

  /* Another was asked for since, or the window went */
  if (g_cancellable_is_cancelled (opening->cancellable))
    goto out;
  set_opening (self, NULL);

  if (loaded)
    shown (self, conversation, opening->activate, opening->at_start);
  else
    {
      g_autofree char *text = g_markup_printf_escaped (_("Could not open the conversation: %s"),
                                                       error->message);

      _agent_chat_window_add_toast (self, adw_toast_new (text));
    }

out:
  g_object_unref (opening->cancellable);
  g_object_unref (opening->window);
  g_free (opening);
}

static void
show_conversation (AgentChatWindow   *self,
                   AgentConversation *conversation,
                   gboolean           activate,
                   gboolean           at_start)
{
  Opening *opening;

  /* In memory already (shown before, or by another window): at once */
  if (agent_conversation_is_loaded (conversation))
    {
      set_opening (self, NULL);
      shown (self, conversation, activate, at_start);
      return;
    }

  opening = g_new0 (Opening, 1);
  opening->window = g_object_ref (self);
  opening->cancellable = g_cancellable_new ();
  opening->activate = activate;
  opening->at_start = at_start;
  opening->trace_begin = _agent_trace_begin ();
  set_opening (self, opening->cancellable);
  agent_conversation_load_async (conversation, opening->cancellable, on_conversation_loaded,
                                 opening);
}

/* Shows @conversation, as a click on its row does */
void
_agent_chat_window_open_conversation (AgentChatWindow   *self,
                                      AgentConversation *conversation)
{
  show_conversation (self, conversation, TRUE, FALSE);
}

static void
on_conversation_activated (AgentChatWindow   *self,
                           AgentConversation *conversation)
{
  show_conversation (self, conversation, TRUE, FALSE);
}

/* The keys moved through the sidebar: the keyboard stays there (and,
 * folded, so does the sidebar, until Enter) */
static void
on_conversation_selected (AgentChatWindow   *self,
                          AgentConversation *conversation)
{
  show_conversation (self, conversation, FALSE, FALSE);
}

/* The sidebar's toasts go where the window's go */
static gboolean
on_sidebar_toast (AgentChatWindow *self,
                  AdwToast        *toast)
{
  _agent_chat_window_add_toast (self, g_object_ref (toast));
  return TRUE;
}

/* The conversation shown is being deleted: a new chat takes its place */
static void
on_conversation_deleted (AgentChatWindow   *self,
                         AgentConversation *conversation)
{
  if (conversation == self->conversation)
    gtk_widget_activate_action (GTK_WIDGET (self), "win.new-chat", NULL);
}

static void
show_sidebar_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  AgentChatWindow *self = AGENT_CHAT_WINDOW (widget);

  _agent_chat_window_show_pane (self, FALSE);
}

static void
search_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  AgentChatWindow *self = AGENT_CHAT_WINDOW (widget);

  if (self->sidebar == NULL)
    return;
  _agent_chat_window_show_pane (self, FALSE);
  agent_chat_sidebar_focus_search (AGENT_CHAT_SIDEBAR (self->sidebar));
}

static void
agent_chat_window_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  AgentChatWindow *self = AGENT_CHAT_WINDOW (object);

  switch (prop_id)
    {
    case PROP_STORE:
      g_value_set_object (value, self->store);
      break;

    case PROP_LOADING:
      g_value_set_boolean (value, self->opening != NULL);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_chat_window_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  AgentChatWindow *self = AGENT_CHAT_WINDOW (object);

  switch (prop_id)
    {
    case PROP_STORE:
      g_set_object (&self->store, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

void
_agent_chat_window_class_init_conversations (GtkWidgetClass *widget_class)
{
  GObjectClass *object_class = G_OBJECT_CLASS (widget_class);

  object_class->get_property = agent_chat_window_get_property;
  object_class->set_property = agent_chat_window_set_property;

  /**
   * AgentChatWindow:store:
   *
   * Where the window keeps its conversations; %NULL for the application's
   * (none without an application).
   */
  properties[PROP_STORE] =
    g_param_spec_object ("store", NULL, NULL, AGENT_TYPE_STORE,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentChatWindow:loading:
   *
   * Whether a stored conversation is being read, to be shown once it is.
   */
  properties[PROP_LOADING] =
    g_param_spec_boolean ("loading", NULL, NULL, FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_install_action (widget_class, "win.show-sidebar", NULL, show_sidebar_action);
  gtk_widget_class_install_action (widget_class, "win.search", NULL, search_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, "win.search",
                                       NULL);
}

/**
 * _agent_chat_window_init_conversations:
 * @self: a #AgentChatWindow
 *
 * Shows the store's conversations in the sidebar and opens the last one, or
 * a new one; without a store (none given, or the application's could not be
 * opened), hides the sidebar.
 */
void
_agent_chat_window_init_conversations (AgentChatWindow *self)
{
  AgentChatApplication *app = _agent_chat_window_get_application (self);
  g_autoptr(AgentConversation) last = NULL;
  g_autoptr(AgentMemory) memory = NULL;

  if (self->store == NULL && app != NULL)
    g_set_object (&self->store, agent_chat_application_get_store (app));
  if (self->store == NULL)
    {
      _agent_chat_window_hide_sidebar (self);
      return;
    }

  self->sidebar = agent_chat_sidebar_new (self->store);
  /* Toasts show over the sidebar while a narrow window shows it alone
   * (_agent_chat_window_add_toast()) */
  self->sidebar_toast_overlay = ADW_TOAST_OVERLAY (adw_toast_overlay_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (self->sidebar_toast_overlay), TRUE);
  adw_toast_overlay_set_child (self->sidebar_toast_overlay, self->sidebar);
  agent_chat_a11y_name_toasts (self->sidebar_toast_overlay);
  gtk_box_append (GTK_BOX (self->sidebar_pane), GTK_WIDGET (self->sidebar_toast_overlay));
  g_signal_connect_object (self->sidebar, "conversation-activated",
                           G_CALLBACK (on_conversation_activated), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->sidebar, "conversation-selected",
                           G_CALLBACK (on_conversation_selected), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->sidebar, "conversation-deleted",
                           G_CALLBACK (on_conversation_deleted), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->sidebar, "show-toast", G_CALLBACK (on_sidebar_toast), self,
                           G_CONNECT_SWAPPED);
  _agent_chat_window_show_pane (self, TRUE);

  /* A new chat at once, and the last one in its place once it is read (a
   * long one takes a while, which the window does not wait for) */
  memory = _agent_chat_window_new_memory (self);
  agent_chat_window_set_memory (self, memory);
  last = agent_store_lookup_conversation (self->store,
                                          g_settings_get_int64 (self->settings,
                                                                "last-conversation"));
  if (last != NULL)
    show_conversation (self, last, FALSE, TRUE);
}

void
_agent_chat_window_dispose_conversations (AgentChatWindow *self)
{
  g_clear_handle_id (&self->claim_source, g_source_remove);
  if (self->opening != NULL)
    g_cancellable_cancel (self->opening);
  g_clear_object (&self->opening);
  unwatch (self);
  self->sidebar = NULL;  /* a child of the template's sidebar pane */
  g_clear_object (&self->store);
}

/**
 * agent_chat_window_get_sidebar:
 * @self: a #AgentChatWindow
 *
 * Returns: (transfer none) (nullable): the sidebar of stored conversations,
 *   or %NULL without a store
 */
GtkWidget *
agent_chat_window_get_sidebar (AgentChatWindow *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_WINDOW (self), NULL);
  return self->sidebar;
}

/**
 * agent_chat_window_open_conversation:
 * @self: a #AgentChatWindow
 * @id: a stored conversation's id
 *
 * Shows the conversation @id (as picked in the sidebar), once its messages
 * are read (#AgentChatWindow:loading).
 *
 * Returns: whether there is one
 */
gboolean
agent_chat_window_open_conversation (AgentChatWindow *self,
                                     gint64           id)
{
  g_autoptr(AgentConversation) conversation = NULL;

  g_return_val_if_fail (AGENT_CHAT_IS_WINDOW (self), FALSE);

  if (self->store == NULL || !(conversation = agent_store_lookup_conversation (self->store, id)))
    return FALSE;
  on_conversation_activated (self, conversation);
  return TRUE;
}

/**
 * agent_chat_window_search:
 * @self: a #AgentChatWindow
 * @text: what to look for
 *
 * Shows the sidebar with the conversations that hold @text.
 */
void
agent_chat_window_search (AgentChatWindow *self,
                          const char      *text)
{
  g_return_if_fail (AGENT_CHAT_IS_WINDOW (self));

  if (self->sidebar == NULL)
    return;
  gtk_widget_activate_action (GTK_WIDGET (self), "win.search", NULL);
  gtk_editable_set_text (GTK_EDITABLE (agent_chat_sidebar_get_search_entry (
                           AGENT_CHAT_SIDEBAR (self->sidebar))), text);
}
