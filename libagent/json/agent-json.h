/* agent-json.h
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

/**
 * AGENT_JSON_MAX_DEPTH:
 *
 * How deeply arrays and objects may nest in the JSON that libagent reads:
 * 512. The same bound holds for every JSON it reads from outside the
 * program — servers' events and error bodies, tool calls' arguments
 * ([method@Agent.ToolCall.parse_arguments]), MCP messages, stored
 * conversations, schemas, answers that follow a schema
 * ([struct@Agent.PartialJson]) — and for [func@Agent.json_parse]. Text
 * nested deeper is refused with an error that says so, before anything is
 * built from it, so that no reader (nor any code walking what it built,
 * such as a binding's conversion to native values) recurses without
 * bound.
 *
 * Since: 0.1
 */
#define AGENT_JSON_MAX_DEPTH 512

AGENT_AVAILABLE_IN_ALL
JsonNode *agent_json_parse (const char  *text,
                            gssize       length,
                            GError     **error) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
