/* agent-demo-util.h
 *
 * Small JSON and text helpers shared by the parts of the demo model server.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

gboolean    demo_json_holds              (JsonNode     *node,
                                          JsonNodeType  type);
gboolean    demo_json_holds_value        (JsonNode     *node,
                                          GType         type);
gboolean    demo_json_is_string          (JsonNode     *node);
gboolean    demo_json_is_null            (JsonNode     *node);
JsonNode   *demo_json_parse              (const char   *data,
                                          gssize        length,
                                          GError      **error);
const char *demo_json_get_string         (JsonObject   *object,
                                          const char   *member);
void        demo_json_set_string_or_null (JsonObject   *object,
                                          const char   *name,
                                          const char   *value);
char       *demo_json_object_to_string   (JsonObject   *object);
guint       demo_count_words             (const char   *text);

G_END_DECLS
