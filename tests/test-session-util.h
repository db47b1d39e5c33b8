/* test-session-util.h — the fixture of the tool-loop tests: a session on a
 * real HTTP server, the signals it emitted, and the model's scripted answers
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
  GString         *text;          /* every text-delta, concatenated */
  GPtrArray       *events;        /* "signal:detail" in emission order */
  AgentTestTurn    turn;
} Fixture;

void          fixture_setup            (Fixture       *f,
                                        gconstpointer  data);
void          fixture_teardown         (Fixture       *f,
                                        gconstpointer  data);
void          add_calculator_call      (Fixture       *f,
                                        const char    *id,
                                        const char    *expression);
void          add_answer               (Fixture       *f,
                                        const char    *text);
AgentMessage *memory_message           (Fixture       *f,
                                        guint          index);
guint         memory_length            (Fixture       *f);
const char   *sent_arguments           (Fixture       *f,
                                        guint          request,
                                        guint          nth);
gboolean      has_event                (Fixture       *f,
                                        const char    *event);
void          assert_memory_consistent (Fixture       *f);

/* Registers @func as a test of this fixture */
#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)

G_END_DECLS
