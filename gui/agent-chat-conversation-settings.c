/* agent-chat-conversation-settings.c
 *
 * The settings of one conversation, in a popover of the header: its system
 * prompt, temperature, top-p, seed and context window (for Ollama, the
 * window the model runs with: num_ctx). Each may be left to its default
 * (the spin buttons say "Default" or "Automatic", an empty prompt is the
 * one in Preferences): then Preferences decide, or the server.
 *
 * The popover shows values given as a JSON object and says when the user
 * changed one ("changed"); the window keeps them with the conversation
 * (agent-chat-window-settings.c). Members: "system-prompt" (a string),
 * "temperature" and "top-p" (numbers), "seed" and "context-window"
 * (integers); a member left out is a setting left to its default.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agent-chat-conversation-settings.h"
#include "agent-chat-default-spin.h"

struct _AgentChatConversationSettings
{
  GtkPopover     parent_instance;

  GtkTextView   *system_prompt_view;
  GtkSpinButton *temperature_spin;
  GtkSpinButton *top_p_spin;
  GtkSpinButton *seed_spin;
  GtkSpinButton *window_spin;

  guint          filling : 1;   /* set_values() at work: no "changed" */
};

enum {
  CHANGED,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (AgentChatConversationSettings, agent_chat_conversation_settings,
                     GTK_TYPE_POPOVER)

static guint signals[N_SIGNALS];

static void
changed (AgentChatConversationSettings *self)
{
  if (!self->filling)
    g_signal_emit (self, signals[CHANGED], 0);
}

static void
on_reset_clicked (AgentChatConversationSettings *self)
{
  agent_chat_conversation_settings_set_values (self, NULL);
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
agent_chat_conversation_settings_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), AGENT_CHAT_TYPE_CONVERSATION_SETTINGS);

  G_OBJECT_CLASS (agent_chat_conversation_settings_parent_class)->dispose (object);
}

static void
agent_chat_conversation_settings_class_init (AgentChatConversationSettingsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = agent_chat_conversation_settings_dispose;

  /**
   * AgentChatConversationSettings::changed:
   *
   * The user changed a value (not set_values()).
   */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                   NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/libagent/Chat/"
                                               "agent-chat-conversation-settings.ui");
  gtk_widget_class_bind_template_child (widget_class, AgentChatConversationSettings,
                                        system_prompt_view);
  gtk_widget_class_bind_template_child (widget_class, AgentChatConversationSettings,
                                        temperature_spin);
  gtk_widget_class_bind_template_child (widget_class, AgentChatConversationSettings, top_p_spin);
  gtk_widget_class_bind_template_child (widget_class, AgentChatConversationSettings, seed_spin);
  gtk_widget_class_bind_template_child (widget_class, AgentChatConversationSettings, window_spin);
  gtk_widget_class_bind_template_callback (widget_class, on_reset_clicked);
}

static void
agent_chat_conversation_settings_init (AgentChatConversationSettings *self)
{
  GtkSpinButton *spins[4];

  gtk_widget_init_template (GTK_WIDGET (self));
  spins[0] = self->temperature_spin;
  spins[1] = self->top_p_spin;
  spins[2] = self->seed_spin;
  spins[3] = self->window_spin;

  /* Translators: a setting left to the default of Preferences, or the server's */
  agent_chat_default_spin_init (self->temperature_spin, C_("setting", "Default"));
  agent_chat_default_spin_init (self->top_p_spin, C_("setting", "Default"));
  /* Translators: no seed: the server samples at random */
  agent_chat_default_spin_init (self->seed_spin, C_("setting", "Random"));
  /* Translators: the context window of Preferences, or the server's model list's */
  agent_chat_default_spin_init (self->window_spin, C_("setting", "Automatic"));

  for (guint i = 0; i < G_N_ELEMENTS (spins); i++)
    g_signal_connect_object (gtk_spin_button_get_adjustment (spins[i]), "value-changed",
                             G_CALLBACK (changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (gtk_text_view_get_buffer (self->system_prompt_view), "changed",
                           G_CALLBACK (changed), self, G_CONNECT_SWAPPED);
}

GtkWidget *
agent_chat_conversation_settings_new (void)
{
  return g_object_new (AGENT_CHAT_TYPE_CONVERSATION_SETTINGS, NULL);
}

/* @member of @values, or the spin's "not set" */
static void
set_spin (GtkSpinButton *spin,
          JsonObject    *values,
          const char    *member)
{
  GtkAdjustment *adjustment = gtk_spin_button_get_adjustment (spin);
  JsonNode *node = values != NULL ? json_object_get_member (values, member) : NULL;
  double value = gtk_adjustment_get_lower (adjustment);

  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
      (json_node_get_value_type (node) == G_TYPE_DOUBLE ||
       json_node_get_value_type (node) == G_TYPE_INT64))
    value = json_node_get_double (node);
  gtk_adjustment_set_value (adjustment, value);
}

/**
 * agent_chat_conversation_settings_set_values:
 * @self: the popover
 * @values: (nullable): the conversation's settings; %NULL: all defaults
 *
 * Shows @values, without "changed".
 */
void
agent_chat_conversation_settings_set_values (AgentChatConversationSettings *self,
                                             JsonObject                    *values)
{
  const char *prompt = values != NULL
                       ? json_object_get_string_member_with_default (values, "system-prompt", "")
                       : "";

  g_return_if_fail (AGENT_CHAT_IS_CONVERSATION_SETTINGS (self));

  self->filling = TRUE;
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->system_prompt_view), prompt, -1);
  set_spin (self->temperature_spin, values, "temperature");
  set_spin (self->top_p_spin, values, "top-p");
  set_spin (self->seed_spin, values, "seed");
  set_spin (self->window_spin, values, "context-window");
  self->filling = FALSE;
}

/* The spin's value, into @values unless it is "not set" */
static void
add_number (JsonObject    *values,
            const char    *member,
            GtkSpinButton *spin,
            gboolean       integer)
{
  GtkAdjustment *adjustment = gtk_spin_button_get_adjustment (spin);
  double value = gtk_adjustment_get_value (adjustment);
  char shown[G_ASCII_DTOSTR_BUF_SIZE];

  if (value <= gtk_adjustment_get_lower (adjustment))
    return;
  if (integer)
    {
      json_object_set_int_member (values, member, (gint64) value);
      return;
    }
  /* As shown: 0.3, not 0.30000000000000004 */
  g_ascii_formatd (shown, sizeof shown, "%.2f", value);
  json_object_set_double_member (values, member, g_ascii_strtod (shown, NULL));
}

/**
 * agent_chat_conversation_settings_dup_values:
 * @self: the popover
 *
 * Returns: (transfer full): what it shows: the settings set, each a member
 */
JsonObject *
agent_chat_conversation_settings_dup_values (AgentChatConversationSettings *self)
{
  JsonObject *values = json_object_new ();
  GtkTextBuffer *buffer;
  GtkTextIter start, end;
  g_autofree char *prompt = NULL;

  g_return_val_if_fail (AGENT_CHAT_IS_CONVERSATION_SETTINGS (self), values);

  buffer = gtk_text_view_get_buffer (self->system_prompt_view);
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  prompt = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  if (*g_strstrip (prompt) != '\0')
    json_object_set_string_member (values, "system-prompt", prompt);
  add_number (values, "temperature", self->temperature_spin, FALSE);
  add_number (values, "top-p", self->top_p_spin, FALSE);
  add_number (values, "seed", self->seed_spin, TRUE);
  add_number (values, "context-window", self->window_spin, TRUE);
  return values;
}
