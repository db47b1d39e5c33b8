/* agent-profile-private.h — what the profile list shares with its profiles
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "profiles/agent-profile.h"
#include "profiles/agent-profile-list.h"

G_BEGIN_DECLS

/* agent-profile.c */
void          _agent_profile_set_name        (AgentProfile  *self,
                                              const char    *name);
void          _agent_profile_assign          (AgentProfile  *self,
                                              AgentProfile  *from);
gboolean      _agent_profile_check_name      (const char    *name,
                                              GError       **error);

/* agent-profile-file.c: the key file, read and written */
GPtrArray    *_agent_profile_file_read       (GKeyFile      *key_file,
                                              const char    *path,
                                              char         **default_name,
                                              GError       **error);
GKeyFile     *_agent_profile_file_write      (GKeyFile      *key_file,
                                               GListModel    *profiles,
                                               const char    *default_name);

G_END_DECLS
