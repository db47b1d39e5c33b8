/* agent-json-write-private.h
 *
 * Writing JSON: request bodies are built with cJSON, which prints large
 * documents fast (a 10,000-message history in milliseconds). Reading goes
 * through agent-json.h.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <cjson/cJSON.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

G_DEFINE_AUTOPTR_CLEANUP_FUNC (cJSON, cJSON_Delete)

cJSON    *agent_node_to_cjson           (JsonNode   *node);
GBytes   *_agent_json_print_body        (cJSON      *root,
                                         GError    **error);
JsonNode *_agent_json_node_sealed_copy  (JsonNode   *node);
JsonNode *_agent_provider_data_get      (JsonNode   *provider_data,
                                         const char *provider);
JsonNode *_agent_provider_data_with     (JsonNode   *provider_data,
                                         const char *provider,
                                         JsonNode   *value);

G_END_DECLS
