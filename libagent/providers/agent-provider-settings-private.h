/* agent-provider-settings-private.h — the request's settings, as each API
 * names them
 *
 * A request's AgentRequestSettings (the provider's, the session's and the
 * step's merged) written into the body each backend builds: sampling,
 * tool choice, Ollama's window and keep-alive (agent-provider-settings.c);
 * then the provider options merged over the body. A setting the API does
 * not define, or a value outside its range, fails the request before
 * anything is sent, naming the provider and the setting. Anthropic's
 * cache breakpoints are agent-anthropic-cache.c's.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "transport/agent-provider-private.h"

G_BEGIN_DECLS

gboolean _agent_settings_add_openai_chat      (cJSON               *root,
                                               const AgentRequest  *request,
                                               GError             **error);
gboolean _agent_settings_add_openai_responses (cJSON               *root,
                                               const AgentRequest  *request,
                                               GError             **error);
/* After the output schema's own tool_choice, if any; @thinking: extended
 * thinking is on */
gboolean _agent_settings_add_anthropic        (cJSON               *root,
                                               const AgentRequest  *request,
                                               gboolean             thinking,
                                               GError             **error);
/* @config: the generationConfig being built */
gboolean _agent_settings_add_gemini           (cJSON               *root,
                                               cJSON               *config,
                                               const AgentRequest  *request,
                                               GError             **error);
gboolean _agent_settings_add_ollama           (cJSON               *root,
                                               const AgentRequest  *request,
                                               GError             **error);

/* The provider options merged over the body, last: @conversation names
 * the members that carry the messages, which they may not set (besides
 * tools and stream) */
gboolean _agent_settings_merge_options        (cJSON               *root,
                                               const AgentRequest  *request,
                                               const char          *provider,
                                               const char          *conversation,
                                               GError             **error);

/* Anthropic's cache_control breakpoints (agent-anthropic-cache.c), on the
 * body once whole */
void     _agent_anthropic_add_cache_control   (cJSON               *root);

/* @object's member @name, an object: made (in place of another value) if
 * it is none */
cJSON   *_agent_json_object_member            (cJSON               *object,
                                               const char          *name);

G_END_DECLS
