/* agent-profile-list.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGENT_INSIDE) && !defined(AGENT_COMPILATION)
# error "Only <agent.h> can be included directly."
#endif

#include <gio/gio.h>

#include "agent-profile.h"
#include "agent-version-macros.h"

G_BEGIN_DECLS

#define AGENT_TYPE_PROFILE_LIST (agent_profile_list_get_type ())

AGENT_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AgentProfileList, agent_profile_list, AGENT, PROFILE_LIST, GObject)

AGENT_AVAILABLE_IN_ALL
char             *agent_profile_list_get_default_path (void) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
AgentProfileList *agent_profile_list_new              (const char        *path) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
const char       *agent_profile_list_get_path         (AgentProfileList  *self);
AGENT_AVAILABLE_IN_ALL
gboolean          agent_profile_list_load             (AgentProfileList  *self,
                                                       GError           **error);
AGENT_AVAILABLE_IN_ALL
gboolean          agent_profile_list_save             (AgentProfileList  *self,
                                                       GError           **error);
AGENT_AVAILABLE_IN_ALL
AgentProfile     *agent_profile_list_lookup           (AgentProfileList  *self,
                                                       const char        *name);
AGENT_AVAILABLE_IN_ALL
gboolean          agent_profile_list_add              (AgentProfileList  *self,
                                                       AgentProfile      *profile,
                                                       GError           **error);
AGENT_AVAILABLE_IN_ALL
gboolean          agent_profile_list_remove           (AgentProfileList  *self,
                                                       const char        *name);
AGENT_AVAILABLE_IN_ALL
gboolean          agent_profile_list_rename           (AgentProfileList  *self,
                                                       const char        *name,
                                                       const char        *new_name,
                                                       GError           **error);
AGENT_AVAILABLE_IN_ALL
const char       *agent_profile_list_get_default_name (AgentProfileList  *self);
AGENT_AVAILABLE_IN_ALL
void              agent_profile_list_set_default_name (AgentProfileList  *self,
                                                       const char        *name);

G_END_DECLS
