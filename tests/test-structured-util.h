/* test-structured-util.h — what test-structured-output and
 * test-structured-providers share: a session fixture that records the
 * object-delta and object-finished signals, and sends for an object
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <agent.h>

#include "agent-test-provider.h"

G_BEGIN_DECLS

extern const char dates_schema[];
extern const char dates_answer[];

typedef struct
{
  AgentTestSession  s;
  GPtrArray        *deltas;     /* JsonNode: a copy of each object-delta */
  JsonNode         *built;      /* the object-deltas' changes, applied */
  AgentMessage     *message;    /* the answer they belong to */
  JsonNode         *finished;   /* object-finished's */
  JsonNode         *object;     /* send_for_object_finish's */
  GError           *error;
  gboolean          done;
} Fixture;

void          fixture_setup    (Fixture       *f,
                                gconstpointer  data);
void          fixture_teardown (Fixture       *f,
                                gconstpointer  data);
void          run_for_object   (Fixture       *f,
                                const char    *text,
                                const char    *schema_text);
void          assert_deltas    (Fixture       *f,
                                JsonNode      *object,
                                guint          at_least);
void          assert_object    (Fixture       *f,
                                const char    *expected);
char         *json_string      (const char    *text);
GPtrArray    *pieces           (const char    *text);
GListModel   *memory           (Fixture       *f);
AgentMessage *memory_item      (Fixture       *f,
                                guint          index);

G_END_DECLS
