/* agent-profile.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGENT_INSIDE) && !defined(AGENT_COMPILATION)
# error "Only <agent.h> can be included directly."
#endif

#include <gio/gio.h>

#include "agent-provider.h"
#include "agent-request-settings.h"
#include "agent-search-backend.h"
#include "agent-version-macros.h"

G_BEGIN_DECLS

#define AGENT_TYPE_PROFILE (agent_profile_get_type ())

AGENT_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AgentProfile, agent_profile, AGENT, PROFILE, GObject)

AGENT_AVAILABLE_IN_ALL
AgentProfile         *agent_profile_new                    (const char           *name,
                                                            const char           *provider) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
const char           *agent_profile_get_name               (AgentProfile         *self);
AGENT_AVAILABLE_IN_ALL
const char           *agent_profile_get_provider           (AgentProfile         *self);
AGENT_AVAILABLE_IN_ALL
const char           *agent_profile_get_base_url           (AgentProfile         *self);
AGENT_AVAILABLE_IN_ALL
void                  agent_profile_set_base_url           (AgentProfile         *self,
                                                            const char           *base_url);
AGENT_AVAILABLE_IN_ALL
const char           *agent_profile_get_model              (AgentProfile         *self);
AGENT_AVAILABLE_IN_ALL
void                  agent_profile_set_model              (AgentProfile         *self,
                                                            const char           *model);
AGENT_AVAILABLE_IN_ALL
guint64               agent_profile_get_context_window     (AgentProfile         *self);
AGENT_AVAILABLE_IN_ALL
void                  agent_profile_set_context_window     (AgentProfile         *self,
                                                            guint64               context_window);
AGENT_AVAILABLE_IN_ALL
const char           *agent_profile_get_search_provider    (AgentProfile         *self);
AGENT_AVAILABLE_IN_ALL
void                  agent_profile_set_search_provider    (AgentProfile         *self,
                                                            const char           *search_provider);
AGENT_AVAILABLE_IN_ALL
const char           *agent_profile_get_search_url         (AgentProfile         *self);
AGENT_AVAILABLE_IN_ALL
void                  agent_profile_set_search_url         (AgentProfile         *self,
                                                            const char           *search_url);
AGENT_AVAILABLE_IN_ALL
AgentRequestSettings *agent_profile_get_settings           (AgentProfile         *self);
AGENT_AVAILABLE_IN_ALL
AgentProvider        *agent_profile_create_provider        (AgentProfile         *self,
                                                            GError              **error) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
void                  agent_profile_create_provider_async  (AgentProfile         *self,
                                                            GCancellable         *cancellable,
                                                            GAsyncReadyCallback   callback,
                                                            gpointer              user_data);
AGENT_AVAILABLE_IN_ALL
AgentProvider        *agent_profile_create_provider_finish (AgentProfile         *self,
                                                            GAsyncResult         *result,
                                                            GError              **error) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
AgentSearchBackend   *agent_profile_create_search_backend  (AgentProfile         *self,
                                                            GError              **error) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
void                  agent_profile_create_search_backend_async
                                                           (AgentProfile         *self,
                                                            GCancellable         *cancellable,
                                                            GAsyncReadyCallback   callback,
                                                            gpointer              user_data);
AGENT_AVAILABLE_IN_ALL
AgentSearchBackend   *agent_profile_create_search_backend_finish
                                                           (AgentProfile         *self,
                                                            GAsyncResult         *result,
                                                            GError              **error) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
