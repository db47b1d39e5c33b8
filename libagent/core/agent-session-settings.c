/* agent-session-settings.c — what the session's requests ask
 *
 * The settings property of AgentSession, kept apart from those of
 * agent-session.c, and the settings of one request made from it: the
 * provider's, with the session's over them. The turn gives them to
 * prepare-step (agent-turn.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "core/agent-request-settings-private.h"
#include "core/agent-session-private.h"

enum {
  PROP_SETTINGS,
  N_SETTINGS_PROPS
};

G_STATIC_ASSERT (N_SETTINGS_PROPS == AGENT_SESSION_N_SETTINGS_PROPS);

static GParamSpec *properties[N_SETTINGS_PROPS];
static guint first_prop_id;

void
_agent_session_class_add_settings (GObjectClass *object_class,
                                   guint         first_id)
{
  first_prop_id = first_id;

  /**
   * AgentSession:settings:
   *
   * What the session's requests ask (temperature, top-p, tool choice,
   * options and headers, …) over the provider's
   * [property@Agent.Provider:settings]: a setting set here wins, one left
   * unset is the provider's. See [class@Agent.RequestSettings];
   * [signal@Agent.Session::prepare-step] sees both merged, and may change
   * them for one request.
   *
   * Since: 0.1
   */
  properties[PROP_SETTINGS] =
    g_param_spec_object ("settings", NULL, NULL, AGENT_TYPE_REQUEST_SETTINGS,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  for (guint i = 0; i < N_SETTINGS_PROPS; i++)
    g_object_class_install_property (object_class, first_prop_id + i, properties[i]);
}

gboolean
_agent_session_get_settings_property (AgentSession *self,
                                      guint         prop_id,
                                      GValue       *value)
{
  switch (prop_id - first_prop_id)
    {
    case PROP_SETTINGS:
      g_value_set_object (value, self->settings);
      return TRUE;

    default:
      return FALSE;
    }
}

/**
 * agent_session_get_settings:
 * @self: a [class@Agent.Session]
 *
 * Gets [property@Agent.Session:settings], to change: what the session's
 * requests ask over the provider's settings.
 *
 * Returns: (transfer none): the session's request settings
 *
 * Since: 0.1
 */
AgentRequestSettings *
agent_session_get_settings (AgentSession *self)
{
  g_return_val_if_fail (AGENT_IS_SESSION (self), NULL);
  return self->settings;
}

/* The settings of the session's next request: the provider's, the
 * session's over them (a new object) */
AgentRequestSettings *
_agent_session_dup_request_settings (AgentSession *self)
{
  AgentRequestSettings *settings;

  settings = agent_request_settings_copy (agent_provider_get_settings (self->provider));
  _agent_request_settings_merge (settings, self->settings);
  return settings;
}
