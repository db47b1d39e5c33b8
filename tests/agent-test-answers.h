/* agent-test-answers.h
 *
 * Whole answers in the stream format of each API, scripted on the
 * in-process server: a text, or one tool call, for the provider of that
 * name (openai, openai-responses, anthropic, gemini, ollama). For the
 * tests that look at what a session sends rather than at how a stream
 * is read (the corpus is for that); a turn that must succeed, and the
 * body of a request received.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <agent.h>

#include "agent-test-provider.h"
#include "agent-test-server.h"

G_BEGIN_DECLS

/* The counts an answer reports, where its API has them; -1: left out */
typedef struct
{
  gint64 input;
  gint64 output;
  gint64 cache_read;
  gint64 cache_creation;
} AgentTestAnswerUsage;

AgentTestResponse *agent_test_add_text_answer (AgentTestServer            *server,
                                               const char                 *provider,
                                               const char                 *text,
                                               const AgentTestAnswerUsage *usage);
AgentTestResponse *agent_test_add_call_answer (AgentTestServer            *server,
                                               const char                 *provider,
                                               const char                 *id,
                                               const char                 *name,
                                               const char                 *arguments);

JsonObject        *agent_test_request_object  (AgentTestServer            *server,
                                               guint                       index);
void               agent_test_run_turn        (AgentTestSession           *session,
                                               const char                 *text);

G_END_DECLS
