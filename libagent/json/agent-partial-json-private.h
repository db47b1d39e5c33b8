/* agent-partial-json-private.h
 *
 * AgentPartialJson's state, shared by agent-partial-json.c (the values:
 * containers, numbers, literals, the public API),
 * agent-partial-json-string.c (the text of strings: escapes, surrogate
 * pairs, UTF-8 held back until whole, shown in their node as they grow)
 * and agent-partial-json-changes.c (what changed since the last look, for
 * object-delta; a value that a reader of it sealed, taken back).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "json/agent-json-private.h"
#include "json/agent-partial-json.h"

G_BEGIN_DECLS

#define LONG_STRING 1024

typedef enum
{
  EXPECT_VALUE,
  EXPECT_FIRST_VALUE_OR_END,  /* after [ */
  EXPECT_FIRST_KEY_OR_END,    /* after { */
  EXPECT_KEY,                 /* after , in an object */
  EXPECT_COLON,
  EXPECT_NEXT,                /* after a value in a container: , or the end */
  EXPECT_NOTHING,             /* the document is whole */
} Expect;

typedef enum
{
  LEX_NONE,
  LEX_STRING,
  LEX_ESCAPE,
  LEX_UNICODE,
  LEX_NUMBER,
  LEX_LITERAL,
  LEX_FENCE,
} Lex;

typedef struct
{
  JsonNode *node;          /* the container: the tree's */
  char     *key;           /* an object's member waiting for its value */
  /* While changes are tracked: */
  char     *segment;       /* its name in its parent, for a JSON pointer (NULL: the root) */
  guint     batch;         /* the batch of changes it came in */
  guint     change_batch;  /* the batch of changes[change], if any */
  guint     change;
} Frame;

struct _AgentPartialJson
{
  JsonNode *root;
  GArray   *frames;
  GString  *buffer;        /* the token being read: a string's text, a number, a literal */
  JsonNode *string_node;   /* the string value being read, in the tree */
  GError   *error;         /* sticky */
  gsize     offset;        /* bytes fed before this piece */
  gsize     synced;        /* bytes of buffer in string_node, valid UTF-8 */
  gunichar  code_unit;
  gunichar  high_surrogate;
  guint     n_digits;
  guint     revision;
  guint     n_replaced;    /* members named again, which replaced the one before */
  Expect    expect;
  Lex       lex;
  guint     string_is_key : 1;
  guint     tracking : 1;

  /* What changed since the last _agent_partial_json_take_changes() */
  GPtrArray *changes;      /* Change, in the order first touched */
  guint      batch;        /* counts the takes */
  gsize      path_bytes;   /* of the changes' JSON pointers */
  gsize      taken_at;     /* the offset of the last take */
  char      *string_segment;  /* the string being read: its name in its container */
  guint      string_batch;
  guint      string_change_batch;
  guint      string_change;
};

gboolean _agent_partial_json_fail                 (AgentPartialJson *self,
                                                   gsize             at,
                                                   const char       *what);
void     _agent_partial_json_flush_high_surrogate (AgentPartialJson *self);
void     _agent_partial_json_add_code_unit        (AgentPartialJson *self,
                                                   gunichar          unit);
gsize    _agent_partial_json_validate             (AgentPartialJson *self,
                                                   gsize             from,
                                                   gboolean          whole);
void     _agent_partial_json_sync_string          (AgentPartialJson *self,
                                                   gboolean          whole);
gboolean _agent_partial_json_escape               (AgentPartialJson *self,
                                                   guchar            c,
                                                   gsize             at);

/* agent-partial-json-changes.c */
void      _agent_partial_json_track_changes  (AgentPartialJson *self);
char     *_agent_partial_json_segment        (AgentPartialJson *self);
void      _agent_partial_json_note_attach    (AgentPartialJson *self,
                                              JsonNode         *node);
void      _agent_partial_json_note_string    (AgentPartialJson *self,
                                              gsize             before);
void      _agent_partial_json_clear_changes  (AgentPartialJson *self);
void      _agent_partial_json_unseal         (AgentPartialJson *self);
JsonNode *_agent_partial_json_take_changes   (AgentPartialJson *self,
                                              gboolean          force);

static inline int
hex_value (guchar c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

G_END_DECLS
