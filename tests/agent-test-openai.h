/* agent-test-openai.h
 *
 * Scripting OpenAI chat-completion streams on an AgentTestResponse: each
 * function adds one `data:` event holding a chat.completion.chunk, built
 * with json-glib so that every string is escaped as JSON wants.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <agent.h>

#include "agent-test-server.h"

G_BEGIN_DECLS

/* One fragment of a tool call: the first of each call carries its id and
 * name, the others leave them NULL. */
typedef struct
{
  guint       index;      /* the index on the wire */
  const char *id;
  const char *name;
  const char *arguments;  /* this fragment of the arguments; NULL for "" */
} AgentTestToolChunk;

void               agent_test_openai_add_role              (AgentTestResponse        *response,
                                                            const char               *content);
void               agent_test_openai_add_text              (AgentTestResponse        *response,
                                                            const char               *text);
void               agent_test_openai_add_reasoning         (AgentTestResponse        *response,
                                                            const char               *text);
void               agent_test_openai_add_tool_chunk        (AgentTestResponse        *response,
                                                            const AgentTestToolChunk *chunk);
void               agent_test_openai_add_tool_call         (AgentTestResponse        *response,
                                                            guint                     index,
                                                            const char               *id,
                                                            const char               *name,
                                                            const char               *arguments);
void               agent_test_openai_add_finish            (AgentTestResponse        *response,
                                                            const char               *finish_reason);
void               agent_test_openai_add_usage             (AgentTestResponse        *response,
                                                            gint64                    prompt_tokens,
                                                            gint64                    completion_tokens);
void               agent_test_openai_add_end               (AgentTestResponse        *response,
                                                            const char               *finish_reason,
                                                            gint64                    prompt_tokens,
                                                            gint64                    completion_tokens);

AgentProvider     *agent_test_openai_provider_new          (AgentTestServer          *server);

AgentTestResponse *agent_test_openai_begin                 (AgentTestServer          *server,
                                                            const char               *content);
AgentTestResponse *agent_test_openai_add_text_response     (AgentTestServer          *server,
                                                            const char * const       *deltas,
                                                            gint64                    prompt_tokens,
                                                            gint64                    completion_tokens);
AgentTestResponse *agent_test_openai_add_tool_response     (AgentTestServer          *server,
                                                            const AgentTestToolChunk *chunks,
                                                            guint                     n_chunks,
                                                            gint64                    prompt_tokens,
                                                            gint64                    completion_tokens);

JsonObject        *agent_test_openai_get_request           (AgentTestServer          *server,
                                                            guint                     index);
JsonArray         *agent_test_openai_get_messages          (AgentTestServer          *server,
                                                            guint                     index);
JsonObject        *agent_test_openai_get_message           (AgentTestServer          *server,
                                                            guint                     index,
                                                            guint                     nth);
const char        *agent_test_openai_get_message_string    (AgentTestServer          *server,
                                                            guint                     index,
                                                            guint                     nth,
                                                            const char               *member);
const char        *agent_test_openai_get_last_user_content (AgentTestServer          *server,
                                                            guint                     index);
JsonObject        *agent_test_openai_find_tool_message     (AgentTestServer          *server,
                                                            guint                     index,
                                                            const char               *call_id);
const char        *agent_test_openai_tool_message_content  (AgentTestServer          *server,
                                                            guint                     index,
                                                            const char               *call_id);
const char        *agent_test_openai_function_string       (JsonArray                *array,
                                                            guint                     nth,
                                                            const char               *member);

G_END_DECLS
