/* agent-desktop-profile.h — the user's profile an application asks for
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <agent.h>

G_BEGIN_DECLS

gboolean      agent_desktop_profile_is_usable (AgentProfile      *profile);
AgentProfile *agent_desktop_profile_lookup    (AgentProfileList  *profiles,
                                               const char        *name,
                                               GError           **error);

G_END_DECLS
