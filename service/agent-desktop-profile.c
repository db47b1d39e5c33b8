/* agent-desktop-profile.c — the user's profile an application asks for
 *
 * A profile whose provider is `desktop` would have the service ask itself
 * for each request, round and round until its limits stop it: the service
 * neither lists nor uses one.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agent-desktop-error.h"
#include "agent-desktop-profile.h"

gboolean
agent_desktop_profile_is_usable (AgentProfile *profile)
{
  return g_strcmp0 (agent_profile_get_provider (profile), "desktop") != 0;
}

/* (transfer none): the profile @name ("" for the default), or NULL with an
 * AGENT_DESKTOP_ERROR_NO_SUCH_PROFILE naming it */
AgentProfile *
agent_desktop_profile_lookup (AgentProfileList  *profiles,
                              const char        *name,
                              GError           **error)
{
  AgentProfile *profile = NULL;

  if (name[0] == '\0')
    name = agent_profile_list_get_default_name (profiles);
  if (name != NULL)
    profile = agent_profile_list_lookup (profiles, name);
  if (profile == NULL)
    {
      if (name == NULL)
        g_set_error_literal (error, AGENT_DESKTOP_ERROR, AGENT_DESKTOP_ERROR_NO_SUCH_PROFILE,
                             _("No profile is the default"));
      else
        g_set_error (error, AGENT_DESKTOP_ERROR, AGENT_DESKTOP_ERROR_NO_SUCH_PROFILE,
                     _("No profile is named “%s”"), name);
      return NULL;
    }
  if (!agent_desktop_profile_is_usable (profile))
    {
      g_set_error (error, AGENT_DESKTOP_ERROR, AGENT_DESKTOP_ERROR_NO_SUCH_PROFILE,
                   _("Profile “%s” uses the desktop assistant itself: it cannot be used "
                     "through the desktop assistant"), name);
      return NULL;
    }
  return profile;
}
