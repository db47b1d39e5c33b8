/* agent-json-schema-private.h
 *
 * What the check of a value against a schema (agent-json-schema.c) and
 * the check of a schema alone (agent-json-schema-check.c) share.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "json/agent-json-schema.h"

G_BEGIN_DECLS

/* $refs followed one after another without reaching into the value: more
 * is a circle, or as good as one */
#define AGENT_JSON_SCHEMA_MAX_REFS 32

/* The schemas that one value may be checked against, through anyOf,
 * oneOf, allOf and $ref, before it reaches into its members or items */
#define AGENT_JSON_SCHEMA_MAX_BRANCHES 10000

G_GNUC_PRINTF (3, 4)
gboolean    _agent_json_schema_unusable    (GError    **error,
                                            const char *location,
                                            const char *format,
                                            ...);
JsonNode   *_agent_json_schema_resolve_ref (JsonNode   *root,
                                            const char *ref);
const char *_agent_json_schema_string_of   (JsonNode   *node);

G_END_DECLS
