/* agent-chat-window-settings.c
 *
 * The settings of the conversation shown (the header's Conversation
 * Settings, a popover: agent-chat-conversation-settings.c): its system
 * prompt, temperature, top-p, seed and context window. They are kept with
 * the conversation — in a stored one's settings, member "chat-settings";
 * in memory for one that is not — and applied to the session before each
 * turn (and at once between turns), over the defaults of Preferences: a
 * setting the conversation leaves to its default is Preferences' (its
 * system prompt, default-temperature, default-top-p, default-seed,
 * context-window), and one Preferences leave too is the server's.
 *
 * The context window is the one libagent counts with and, for Ollama, the
 * window the model runs with (num_ctx): agent-chat-window-context.c asks
 * for it here first.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "agent-chat-conversation-settings.h"
#include "agent-chat-window-private.h"

#define MEMBER "chat-settings"
#define DATA_KEY "agent-chat-chat-settings"

/* The settings of the conversation shown, or NULL */
static JsonObject *
chat_values (AgentChatWindow *self)
{
  AgentMemory *memory = self->session != NULL ? agent_session_get_memory (self->session) : NULL;

  if (memory == NULL)
    return NULL;
#if AGENT_HAS_STORE
  if (AGENT_IS_CONVERSATION (memory))
    {
      JsonNode *settings = agent_conversation_get_settings (AGENT_CONVERSATION (memory));
      JsonObject *object = settings != NULL && JSON_NODE_HOLDS_OBJECT (settings)
                           ? json_node_get_object (settings) : NULL;
      JsonNode *member = object != NULL ? json_object_get_member (object, MEMBER) : NULL;

      return member != NULL && JSON_NODE_HOLDS_OBJECT (member) ? json_node_get_object (member)
                                                               : NULL;
    }
#endif
  return g_object_get_data (G_OBJECT (memory), DATA_KEY);
}

static gboolean
store_values (AgentChatWindow  *self,
              JsonObject       *values,
              GError          **error)
{
  AgentMemory *memory = agent_session_get_memory (self->session);

#if AGENT_HAS_STORE
  if (AGENT_IS_CONVERSATION (memory))
    {
      JsonNode *settings = agent_conversation_get_settings (AGENT_CONVERSATION (memory));
      g_autoptr(JsonNode) node = settings != NULL && JSON_NODE_HOLDS_OBJECT (settings)
                                 ? json_node_copy (settings) : json_node_new (JSON_NODE_OBJECT);

      if (json_node_get_object (node) == NULL)
        json_node_take_object (node, json_object_new ());
      if (json_object_get_size (values) > 0)
        json_object_set_object_member (json_node_get_object (node), MEMBER,
                                       json_object_ref (values));
      else
        json_object_remove_member (json_node_get_object (node), MEMBER);
      return agent_conversation_set_settings (AGENT_CONVERSATION (memory), node, error);
    }
#endif
  g_object_set_data_full (G_OBJECT (memory), DATA_KEY, json_object_ref (values),
                          (GDestroyNotify) json_object_unref);
  return TRUE;
}

/* The conversation's number @member, else Preferences' @key, when either
 * is set (not negative); FALSE: left to the server */
static gboolean
pick_number (AgentChatWindow *self,
             JsonObject      *values,
             const char      *member,
             const char      *key,
             double          *value)
{
  JsonNode *node = values != NULL ? json_object_get_member (values, member) : NULL;
  g_autoptr(GVariant) setting = NULL;

  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
      (json_node_get_value_type (node) == G_TYPE_DOUBLE ||
       json_node_get_value_type (node) == G_TYPE_INT64) &&
      json_node_get_double (node) >= 0)
    {
      *value = json_node_get_double (node);
      return TRUE;
    }

  setting = g_settings_get_value (self->settings, key);
  *value = g_variant_is_of_type (setting, G_VARIANT_TYPE_DOUBLE)
           ? g_variant_get_double (setting) : (double) g_variant_get_int64 (setting);
  return *value >= 0;
}

/**
 * _agent_chat_window_apply_chat_settings:
 * @self: a #AgentChatWindow with a session
 *
 * Applies the conversation's settings over Preferences': its system
 * prompt, and the temperature, top-p and seed of the session's requests.
 */
void
_agent_chat_window_apply_chat_settings (AgentChatWindow *self)
{
  AgentRequestSettings *settings = agent_session_get_settings (self->session);
  JsonObject *values = chat_values (self);
  const char *prompt = values != NULL
                       ? json_object_get_string_member_with_default (values, "system-prompt", NULL)
                       : NULL;
  double value;

  if (prompt != NULL && *prompt != '\0')
    agent_session_set_system_prompt (self->session, prompt);

  if (pick_number (self, values, "temperature", "default-temperature", &value))
    agent_request_settings_set_temperature (settings, value);
  else
    agent_request_settings_unset (settings, "temperature");
  if (pick_number (self, values, "top-p", "default-top-p", &value))
    agent_request_settings_set_top_p (settings, MIN (value, 1));
  else
    agent_request_settings_unset (settings, "top-p");
  if (pick_number (self, values, "seed", "default-seed", &value))
    agent_request_settings_set_seed (settings, (gint64) value);
  else
    agent_request_settings_unset (settings, "seed");
}

/**
 * _agent_chat_window_chat_context_window:
 * @self: a #AgentChatWindow
 *
 * Returns: the context window set for the conversation shown, in tokens,
 *   or 0 when it is left to Preferences and the server
 */
guint64
_agent_chat_window_chat_context_window (AgentChatWindow *self)
{
  JsonObject *values = chat_values (self);
  gint64 tokens = values != NULL
                  ? json_object_get_int_member_with_default (values, "context-window", 0) : 0;

  return tokens > 0 ? (guint64) tokens : 0;
}

static void
on_changed (AgentChatWindow               *self,
            AgentChatConversationSettings *popover)
{
  g_autoptr(JsonObject) values = agent_chat_conversation_settings_dup_values (popover);
  g_autoptr(GError) error = NULL;
  g_autofree char *prompt = NULL;

  if (self->session == NULL)
    return;
  if (!store_values (self, values, &error))
    {
      _agent_chat_window_show_error (self, error);
      return;
    }

  /* At once between turns (the meter shows the window); else by the next */
  if (agent_session_get_busy (self->session))
    return;
  prompt = g_settings_get_string (self->settings, "system-prompt");
  agent_session_set_system_prompt (self->session, *prompt ? prompt : NULL);
  _agent_chat_window_apply_chat_settings (self);
  _agent_chat_window_configure_context (self);
}

/* Opened: the settings of the conversation shown */
static void
on_visible (AgentChatWindow               *self,
            GParamSpec                    *pspec,
            AgentChatConversationSettings *popover)
{
  if (gtk_widget_get_visible (GTK_WIDGET (popover)))
    agent_chat_conversation_settings_set_values (popover, chat_values (self));
}

void
_agent_chat_window_init_chat_settings (AgentChatWindow *self)
{
  GtkWidget *popover = agent_chat_conversation_settings_new ();

  gtk_menu_button_set_popover (self->settings_button, popover);
  g_signal_connect_object (popover, "changed", G_CALLBACK (on_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (popover, "notify::visible", G_CALLBACK (on_visible), self,
                           G_CONNECT_SWAPPED);
}
