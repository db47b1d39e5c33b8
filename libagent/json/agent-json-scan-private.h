/* agent-json-scan-private.h
 *
 * A forward-only reader of one JSON document, for the hot path's usual
 * events (agent-json-scan.c).
 *
 * The DOM reader (agent-json-private.h) builds a tree of the whole event,
 * then the decoder walks it: for a 270-byte OpenAI chunk that is most of
 * the library's time per event. A scan reads the text once, in order, and
 * the caller takes or skips each value as it comes: strings are copied out
 * (unescaped, NUL-terminated) only when asked for.
 *
 * A scan checks everything it passes, skipped values included, and fails
 * on any text that is not JSON, but it is not a general reader: it also
 * fails on valid JSON it leaves to the DOM reader, which repairs what it
 * can and names what is wrong —
 *
 *  - a key with an escape in it,
 *  - a string it is asked for that holds invalid UTF-8, an escaped NUL or
 *    an unpaired surrogate escape (the DOM reader turns them into U+FFFD),
 *  - an integer it is asked for that is not a plain one of at most 18
 *    digits,
 *  - raw control characters in a string (an error or a repair, to the DOM),
 *  - nesting deeper than AGENT_JSON_SCAN_MAX_DEPTH.
 *
 * So a caller scans first and acts only once the scan ended well
 * (agent_json_scan_end()); on failure it reads the same text with the DOM
 * reader instead. Once a scan failed, every call returns the failure and
 * moves no further.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "json/agent-json-private.h"

G_BEGIN_DECLS

#define AGENT_JSON_SCAN_MAX_DEPTH 64

typedef struct
{
  /*< private >*/
  const char *start;
  const char *p;        /* the next byte to read */
  const char *end;
  char       *out;      /* where the next string taken goes */
  guint64     first;    /* bit n: the container at depth n has no member read yet */
  guint       depth;
  gboolean    failed;
} AgentJsonScan;

void            agent_json_scan_init     (AgentJsonScan  *scan,
                                          const char     *text,
                                          gsize           len,
                                          GString        *scratch);
gboolean        agent_json_scan_object   (AgentJsonScan  *scan);
gboolean        agent_json_scan_member   (AgentJsonScan  *scan,
                                          const char    **key,
                                          gsize          *key_len);
gboolean        agent_json_scan_array    (AgentJsonScan  *scan);
gboolean        agent_json_scan_element  (AgentJsonScan  *scan);
const char     *agent_json_scan_string   (AgentJsonScan  *scan,
                                          gsize          *len);
gboolean        agent_json_scan_int      (AgentJsonScan  *scan,
                                          gint64         *value);
gboolean        agent_json_scan_skip     (AgentJsonScan  *scan);
gboolean        agent_json_scan_end      (AgentJsonScan  *scan);
gsize           agent_json_scan_offset   (const AgentJsonScan *scan);
void            agent_json_scan_resume_string (AgentJsonScan *scan,
                                               gsize          offset);

extern const guint8 _agent_json_scan_kinds[256];

static inline void
_agent_json_scan_skip_space (AgentJsonScan *scan)
{
  while (scan->p < scan->end && (guint8) *scan->p <= ' ' &&
         (*scan->p == ' ' || *scan->p == '\n' || *scan->p == '\r' || *scan->p == '\t'))
    scan->p++;
}

/* The next byte after white space, or 0 at the end */
static inline char
_agent_json_scan_next_byte (AgentJsonScan *scan)
{
  _agent_json_scan_skip_space (scan);
  return scan->p < scan->end ? *scan->p : '\0';
}

/* What the next value is, from its first byte (AGENT_JSON_ABSENT if
 * none can begin there); it is not checked until read or skipped. */
static inline AgentJsonKind
agent_json_scan_peek (AgentJsonScan *scan)
{
  if G_UNLIKELY (scan->failed)
    return AGENT_JSON_ABSENT;
  return (AgentJsonKind) _agent_json_scan_kinds[(guint8) _agent_json_scan_next_byte (scan)];
}

/* The scan failed (or was made to: agent_json_scan_fail()). */
static inline gboolean
agent_json_scan_failed (const AgentJsonScan *scan)
{
  return scan->failed;
}

/* Valid JSON the caller leaves to the DOM reader */
static inline gboolean
agent_json_scan_fail (AgentJsonScan *scan)
{
  scan->failed = TRUE;
  return FALSE;
}

G_END_DECLS
