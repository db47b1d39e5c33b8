/* agent-json-private.h
 *
 * JSON in libagent, read and written.
 *
 * Reading (agent-json-read.cpp): the JSON reader of the hot path, one parse
 * per streamed event.
 *
 * A thin C view of simdjson's DOM (a reused parser, no allocation per
 * document once warmed up; about 0.2 µs for a typical 270-byte chunk, where
 * cJSON takes 0.8 µs and json-glib several). Values are read-only views
 * into the parser's last document, valid until the next parse.
 *
 * Strings come with their length and are NUL-terminated. JSON that is
 * valid but not representable as UTF-8 C strings is repaired, not refused:
 * invalid UTF-8 bytes, unpaired surrogate escapes and escaped NULs become
 * U+FFFD, as a browser's decoder would show them.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <cjson/cJSON.h>
#include <json-glib/json-glib.h>

#include "json/agent-json.h"

G_BEGIN_DECLS

typedef enum
{
  AGENT_JSON_ABSENT,   /* no such member or element */
  AGENT_JSON_NULL,
  AGENT_JSON_BOOLEAN,
  AGENT_JSON_NUMBER,
  AGENT_JSON_STRING,
  AGENT_JSON_ARRAY,
  AGENT_JSON_OBJECT,
} AgentJsonKind;

/* A value: an opaque view into the parser's current document. */
typedef struct
{
  /*< private >*/
  guint64 opaque[2];
} AgentJson;

/* Walks the members of an object, or the elements of an array. */
typedef struct
{
  /*< private >*/
  guint64 opaque[4];
  guint   is_object : 1;
} AgentJsonIter;

typedef struct _AgentJsonParser AgentJsonParser;

const char      *agent_json_library_version (void);
AgentJsonParser *agent_json_parser_new      (void);
void             agent_json_parser_free     (AgentJsonParser  *self);
gboolean         agent_json_parser_parse    (AgentJsonParser  *self,
                                             const char       *text,
                                             gsize             len,
                                             AgentJson        *root,
                                             GError          **error);

AgentJsonKind    agent_json_kind            (const AgentJson  *value);
AgentJson        agent_json_member          (const AgentJson  *object,
                                             const char       *name);
const char      *agent_json_string          (const AgentJson  *value,
                                             gsize            *len);
gboolean         agent_json_int             (const AgentJson  *value,
                                             gint64           *out);
gboolean         agent_json_double          (const AgentJson  *value,
                                             double           *out);
gboolean         agent_json_boolean         (const AgentJson  *value);
void             agent_json_iter_init       (AgentJsonIter    *iter,
                                             const AgentJson  *container);
gboolean         agent_json_iter_next       (AgentJsonIter    *iter,
                                             const char      **name,
                                             gsize            *name_len,
                                             AgentJson        *value);
JsonNode        *agent_json_to_node         (const AgentJson  *value);
char            *agent_json_serialize       (const AgentJson  *value);

/* The member's string, or NULL if absent or not a string. */
static inline const char *
agent_json_member_string (const AgentJson *object,
                          const char      *name,
                          gsize           *len)
{
  AgentJson member = agent_json_member (object, name);

  return agent_json_string (&member, len);
}

static inline gboolean
agent_json_is (const AgentJson *value,
               AgentJsonKind    kind)
{
  return agent_json_kind (value) == kind;
}

/* Present and not JSON null. */
static inline gboolean
agent_json_exists (const AgentJson *value)
{
  AgentJsonKind kind = agent_json_kind (value);

  return kind != AGENT_JSON_ABSENT && kind != AGENT_JSON_NULL;
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AgentJsonParser, agent_json_parser_free)

/* The bound of every reader (agent-json-parse.c): AGENT_JSON_MAX_DEPTH of
 * agent-json.h. Too deep is AGENT_ERROR_LIMIT, with a message that says
 * so and where. */
gboolean _agent_json_check_depth      (const char    *text,
                                       gsize          len,
                                       GError       **error);
void     _agent_json_set_too_deep     (GError       **error,
                                       gsize          at);
gboolean _agent_json_error_is_too_deep (const GError *error);
cJSON   *_agent_json_parse_cjson      (const char    *text);
gboolean _agent_json_find_top_level_int (const char  *text,
                                         gsize        len,
                                         const char  *name,
                                         gint64      *out);

/* Writing (agent-json-write.c): request bodies are built with cJSON, which
 * prints large documents fast (a 10,000-message history in milliseconds). */

G_DEFINE_AUTOPTR_CLEANUP_FUNC (cJSON, cJSON_Delete)

cJSON    *agent_node_to_cjson           (JsonNode   *node);
/* @node as JSON text (on one line, or indented as json-glib does when @pretty),
 * for json_to_string(): json-glib 1.6 writes a double such as 1e20 as
 * "1e+20.0", which no parser reads, and inf and NaN as they are; here they
 * are 1e+20 and null. As deep as @node. */
char     *agent_json_node_to_string     (JsonNode   *node,
                                         gboolean    pretty);
void      _agent_json_pointer_append    (GString    *pointer,
                                         const char *name);
GBytes   *_agent_json_print_body        (cJSON      *root,
                                         GError    **error);
/* @text as a raw item, printed byte for byte, when it is one JSON object
 * (cJSON's strict reading, valid UTF-8); NULL otherwise. A tool call's
 * arguments go on so: parsed and printed again, cJSON's doubles would
 * change the digits of an integer beyond 2^53, or of 1e400. */
cJSON    *_agent_json_raw_object        (const char *text);
JsonNode *_agent_json_node_sealed_copy  (JsonNode   *node);
JsonNode *_agent_provider_data_get      (JsonNode   *provider_data,
                                         const char *provider);
JsonNode *_agent_provider_data_with     (JsonNode   *provider_data,
                                         const char *provider,
                                         JsonNode   *value);

G_END_DECLS
