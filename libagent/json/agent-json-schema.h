/* agent-json-schema.h
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

AGENT_AVAILABLE_IN_ALL
gboolean agent_json_schema_validate (JsonNode  *schema,
                                     JsonNode  *instance,
                                     GError   **error);
AGENT_AVAILABLE_IN_ALL
gboolean agent_json_schema_check    (JsonNode  *schema,
                                     GError   **error);

G_END_DECLS
