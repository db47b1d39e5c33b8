/* agent-provider.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGENT_INSIDE) && !defined(AGENT_COMPILATION)
# error "Only <agent.h> can be included directly."
#endif

#include <gio/gio.h>

#include "agent-version-macros.h"

G_BEGIN_DECLS

#define AGENT_TYPE_PROVIDER (agent_provider_get_type ())

AGENT_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AgentProvider, agent_provider, AGENT, PROVIDER, GObject)

AGENT_AVAILABLE_IN_ALL
AgentProvider      *agent_provider_new                  (const char     *name,
                                                         GError        **error);
AGENT_AVAILABLE_IN_ALL
const char * const *agent_provider_list_names           (void);
AGENT_AVAILABLE_IN_ALL
const char         *agent_provider_get_name             (AgentProvider  *self);
AGENT_AVAILABLE_IN_ALL
const char         *agent_provider_get_display_name     (AgentProvider  *self);
AGENT_AVAILABLE_IN_ALL
const char         *agent_provider_get_base_url         (AgentProvider  *self);
AGENT_AVAILABLE_IN_ALL
void                agent_provider_set_base_url         (AgentProvider  *self,
                                                         const char     *base_url);
AGENT_AVAILABLE_IN_ALL
const char         *agent_provider_get_default_base_url (AgentProvider  *self);
AGENT_AVAILABLE_IN_ALL
const char         *agent_provider_get_api_key_variable (AgentProvider  *self);
AGENT_AVAILABLE_IN_ALL
const char         *agent_provider_get_model            (AgentProvider  *self);
AGENT_AVAILABLE_IN_ALL
void                agent_provider_set_model            (AgentProvider  *self,
                                                         const char     *model);
AGENT_AVAILABLE_IN_ALL
void                agent_provider_set_api_key          (AgentProvider  *self,
                                                         const char     *api_key);
AGENT_AVAILABLE_IN_ALL
gboolean            agent_provider_get_has_api_key      (AgentProvider  *self);
AGENT_AVAILABLE_IN_ALL
guint               agent_provider_get_max_concurrent_requests (AgentProvider *self);
AGENT_AVAILABLE_IN_ALL
void                agent_provider_set_max_concurrent_requests (AgentProvider *self,
                                                                guint          max_concurrent_requests);

G_END_DECLS
