/* agent-partial-json.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGENT_INSIDE) && !defined(AGENT_COMPILATION)
# error "Only <agent.h> can be included directly."
#endif

#include <json-glib/json-glib.h>

#include "agent-version-macros.h"

G_BEGIN_DECLS

#define AGENT_TYPE_PARTIAL_JSON (agent_partial_json_get_type ())

typedef struct _AgentPartialJson AgentPartialJson;

AGENT_AVAILABLE_IN_ALL
GType             agent_partial_json_get_type     (void) G_GNUC_CONST;
AGENT_AVAILABLE_IN_ALL
AgentPartialJson *agent_partial_json_new          (void) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
AgentPartialJson *agent_partial_json_ref          (AgentPartialJson  *self);
AGENT_AVAILABLE_IN_ALL
void              agent_partial_json_unref        (AgentPartialJson  *self);
AGENT_AVAILABLE_IN_ALL
void              agent_partial_json_reset        (AgentPartialJson  *self);
AGENT_AVAILABLE_IN_ALL
gboolean          agent_partial_json_feed         (AgentPartialJson  *self,
                                                   const char        *text,
                                                   gssize             len,
                                                   GError           **error);
AGENT_AVAILABLE_IN_ALL
JsonNode         *agent_partial_json_get_value    (AgentPartialJson  *self);
AGENT_AVAILABLE_IN_ALL
guint             agent_partial_json_get_revision (AgentPartialJson  *self);
AGENT_AVAILABLE_IN_ALL
gboolean          agent_partial_json_is_complete  (AgentPartialJson  *self);
AGENT_AVAILABLE_IN_ALL
JsonNode         *agent_partial_json_finish       (AgentPartialJson  *self,
                                                   GError           **error) G_GNUC_WARN_UNUSED_RESULT;

AGENT_AVAILABLE_IN_ALL
JsonNode         *agent_json_parse_partial        (const char        *text,
                                                   gssize             len) G_GNUC_WARN_UNUSED_RESULT;

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AgentPartialJson, agent_partial_json_unref)

G_END_DECLS
