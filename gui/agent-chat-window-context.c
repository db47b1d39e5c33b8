/* agent-chat-window-context.c
 *
 * Long conversations: the Long Conversations settings made the session's
 * AgentContextPolicy, and its context window, before each turn; the
 * context meter beside the composer follows the session. A setting
 * changed between turns is applied at once.
 *
 * The window is the conversation's own (agent-chat-window-settings.c), or
 * the setting "context-window" when it is not 0, or the one of the server's
 * profile (AgentProfile:context-window); else, while long
 * conversations are handled (a strategy other than off) or the server is
 * Ollama (which runs the model with the window asked: num_ctx), the
 * server's model list says it where it does: asked once per server and
 * model, and the first turn waits for the answer, so that it already knows
 * the window (a list that says nothing, or fails, leaves it unknown: the
 * turn goes on). A refusal as too long that names the limit sets it too
 * (libagent).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "agent-chat-window-private.h"

static AgentContextStrategy
parse_strategy (const char *name)
{
  if (g_str_equal (name, "trim-tool-results"))
    return AGENT_CONTEXT_STRATEGY_TRIM_TOOL_RESULTS;
  if (g_str_equal (name, "keep-last"))
    return AGENT_CONTEXT_STRATEGY_KEEP_LAST;
  if (g_str_equal (name, "summarize"))
    return AGENT_CONTEXT_STRATEGY_SUMMARIZE;
  return AGENT_CONTEXT_STRATEGY_NONE;
}

/* What the model list is asked about: the server and the model */
static char *
window_key (AgentChatWindow *self)
{
  AgentProvider *provider = agent_session_get_provider (self->session);
  const char *base_url = agent_provider_get_base_url (provider);
  const char *model = agent_provider_get_model (provider);

  return g_strjoin ("\n", agent_provider_get_name (provider), base_url ? base_url : "",
                    model ? model : "", NULL);
}

static gboolean
is_ollama (AgentChatWindow *self)
{
  return g_str_equal (agent_provider_get_name (agent_session_get_provider (self->session)),
                      "ollama");
}

/* The window the server's profile sets, 0 for none */
static guint64
profile_window (AgentChatWindow *self)
{
  AgentProfile *profile = self->connection != NULL
                          ? agent_chat_connection_get_profile (self->connection) : NULL;

  return profile != NULL ? agent_profile_get_context_window (profile) : 0;
}

static void
apply_window (AgentChatWindow *self)
{
  guint64 window = _agent_chat_window_chat_context_window (self);

  if (window == 0)
    window = g_settings_get_uint (self->settings, "context-window");
  if (window == 0)
    window = profile_window (self);
  if (window == 0)
    window = self->listed_window;
  /* An unknown window leaves the session's: a refusal may have named the
   * limit. Only the window set here before is taken back. */
  if (window > 0 || agent_session_get_context_window (self->session) == self->applied_window)
    agent_session_set_context_window (self->session, window);
  self->applied_window = window;
}

/**
 * _agent_chat_window_configure_context:
 * @self: a #AgentChatWindow
 *
 * Applies the Long Conversations settings to the session: its policy
 * (none when off), and its context window.
 */
void
_agent_chat_window_configure_context (AgentChatWindow *self)
{
  g_autofree char *name = g_settings_get_string (self->settings, "context-strategy");
  AgentContextStrategy strategy = parse_strategy (name);
  AgentContextPolicy *policy = agent_session_get_context_policy (self->session);

  if (strategy == AGENT_CONTEXT_STRATEGY_NONE)
    agent_session_set_context_policy (self->session, NULL);
  else
    {
      g_autoptr(AgentContextPolicy) new_policy = NULL;

      if (policy == NULL)
        {
          new_policy = agent_context_policy_new (strategy);
          policy = new_policy;
        }
      agent_context_policy_set_strategy (policy, strategy);
      agent_context_policy_set_keep_turns (policy,
                                           g_settings_get_uint (self->settings,
                                                                "context-keep-turns"));
      agent_context_policy_set_auto_compact (policy,
                                             g_settings_get_boolean (self->settings,
                                                                     "context-auto-compact"));
      if (new_policy != NULL)
        agent_session_set_context_policy (self->session, new_policy);
    }
  apply_window (self);
}

static void
on_window_fetched (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(AgentChatWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  gint64 tokens;

  tokens = agent_provider_fetch_context_window_finish (AGENT_PROVIDER (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  g_clear_object (&self->context_cancellable);
  if (error != NULL)
    g_debug ("The model list says no context window: %s", error->message);
  self->listed_window = tokens > 0 ? (guint64) tokens : 0;
  if (self->session != NULL)
    apply_window (self);
  agent_gtk_chat_view_resume_turn (self->chat_view);
}

/**
 * _agent_chat_window_wait_for_context_window:
 * @self: a #AgentChatWindow, its session configured
 *
 * Asks the server's model list for the model's context window, once per
 * server and model, while long conversations are handled and no window is
 * set: the turn waits for the answer (on_window_fetched() resumes it).
 *
 * Returns: %TRUE if the turn must wait
 */
gboolean
_agent_chat_window_wait_for_context_window (AgentChatWindow *self)
{
  g_autofree char *strategy = g_settings_get_string (self->settings, "context-strategy");
  g_autofree char *key = NULL;

  if (self->context_cancellable != NULL)
    return TRUE;
  /* Ollama runs the model with the window the session says: it is asked
   * for even when long conversations are not handled */
  if ((g_str_equal (strategy, "off") && !is_ollama (self)) ||
      g_settings_get_uint (self->settings, "context-window") > 0 ||
      _agent_chat_window_chat_context_window (self) > 0 || profile_window (self) > 0)
    return FALSE;
  key = window_key (self);
  if (g_strcmp0 (key, self->listed_window_key) == 0)
    return FALSE;

  g_free (self->listed_window_key);
  self->listed_window_key = g_steal_pointer (&key);
  self->listed_window = 0;
  self->context_cancellable = g_cancellable_new ();
  agent_provider_fetch_context_window_async (agent_session_get_provider (self->session), NULL,
                                             self->context_cancellable, on_window_fetched,
                                             g_object_ref (self));
  return TRUE;
}

/* A setting changed: applied at once between turns (the meter shows the
 * new window), else by the next turn */
static void
on_setting_changed (AgentChatWindow *self,
                    const char      *key)
{
  if (!g_str_has_prefix (key, "context-") || self->session == NULL ||
      agent_session_get_busy (self->session))
    return;
  _agent_chat_window_configure_context (self);
}

void
_agent_chat_window_init_context (AgentChatWindow *self)
{
  g_signal_connect_object (self->settings, "changed", G_CALLBACK (on_setting_changed), self,
                           G_CONNECT_SWAPPED);
}

void
_agent_chat_window_dispose_context (AgentChatWindow *self)
{
  g_cancellable_cancel (self->context_cancellable);
  g_clear_object (&self->context_cancellable);
  g_clear_pointer (&self->listed_window_key, g_free);
}
