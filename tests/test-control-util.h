/* test-control-util.h — the fixture of the loop-control tests
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <agent.h>

#include "agent-test-server.h"
#include "agent-test-turn.h"

G_BEGIN_DECLS

typedef struct
{
  AgentTestServer *server;
  AgentProvider   *provider;
  AgentSession    *session;
  AgentTestTurn    turn;
  GPtrArray       *finished;   /* ids of the calls, in tool-finished order */
} Fixture;

void          fixture_setup            (Fixture       *f,
                                        gconstpointer  data);
void          fixture_teardown         (Fixture       *f,
                                        gconstpointer  data);
guint         memory_length            (Fixture       *f);
AgentMessage *memory_message           (Fixture       *f,
                                        guint          index);
void          assert_memory_consistent (Fixture       *f);
void          add_answer               (Fixture       *f,
                                        const char    *text);
void          add_calls                (Fixture       *f,
                                        const char    *name,
                                        const char    *arguments,
                                        guint          n);
const char   *tool_message             (Fixture       *f,
                                        guint          request,
                                        const char    *call_id);

/* Registers @func as a test of this fixture */
#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)

G_END_DECLS
