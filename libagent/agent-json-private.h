/* agent-json-private.h
 *
 * Helpers around cJSON, the parser of the hot path (one parse per streamed
 * event). json-glib's types stay at the public API; these convert.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <cjson/cJSON.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

G_DEFINE_AUTOPTR_CLEANUP_FUNC (cJSON, cJSON_Delete)

cJSON      *agent_cjson_parse          (const char  *text,
                                        gsize        len);
JsonNode   *agent_cjson_to_node        (const cJSON *item);
cJSON      *agent_node_to_cjson        (JsonNode    *node);
char       *agent_cjson_print          (const cJSON *item);

/* The member's string value, or NULL if absent or not a string. */
static inline const char *
agent_cjson_get_string (const cJSON *object,
                        const char  *name)
{
  const cJSON *item = cJSON_GetObjectItemCaseSensitive (object, name);

  return cJSON_IsString (item) ? item->valuestring : NULL;
}

/* The member, or NULL if absent or JSON null. */
static inline cJSON *
agent_cjson_get (const cJSON *object,
                 const char  *name)
{
  cJSON *item = cJSON_GetObjectItemCaseSensitive (object, name);

  return (item == NULL || cJSON_IsNull (item)) ? NULL : item;
}

G_END_DECLS
