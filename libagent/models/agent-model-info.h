/* agent-model-info.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGENT_INSIDE) && !defined(AGENT_COMPILATION)
# error "Only <agent.h> can be included directly."
#endif

#include <gio/gio.h>

#include "agent-version-macros.h"

G_BEGIN_DECLS

/**
 * AgentModelCapabilities:
 * @AGENT_MODEL_CAPABILITY_NONE: nothing is known of the model
 * @AGENT_MODEL_CAPABILITY_COMPLETION: it writes text (a chat or completion model)
 * @AGENT_MODEL_CAPABILITY_TOOLS: it calls tools
 * @AGENT_MODEL_CAPABILITY_VISION: it reads images
 * @AGENT_MODEL_CAPABILITY_THINKING: it thinks before it answers, and the
 *   thinking can be switched on and off
 * @AGENT_MODEL_CAPABILITY_EMBEDDING: it makes embeddings
 * @AGENT_MODEL_CAPABILITY_INSERT: it fills in the middle (code completion)
 *
 * What a model can do, as its server states it (Ollama's `capabilities`
 * of `/api/show`).
 *
 * Since: 0.1
 */
typedef enum /*< flags >*/
{
  AGENT_MODEL_CAPABILITY_NONE       = 0,
  AGENT_MODEL_CAPABILITY_COMPLETION = 1 << 0,
  AGENT_MODEL_CAPABILITY_TOOLS      = 1 << 1,
  AGENT_MODEL_CAPABILITY_VISION     = 1 << 2,
  AGENT_MODEL_CAPABILITY_THINKING   = 1 << 3,
  AGENT_MODEL_CAPABILITY_EMBEDDING  = 1 << 4,
  AGENT_MODEL_CAPABILITY_INSERT     = 1 << 5,
} AgentModelCapabilities;

#define AGENT_TYPE_MODEL_INFO (agent_model_info_get_type ())

AGENT_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AgentModelInfo, agent_model_info, AGENT, MODEL_INFO, GObject)

AGENT_AVAILABLE_IN_ALL
const char             *agent_model_info_get_name             (AgentModelInfo *self);
AGENT_AVAILABLE_IN_ALL
guint64                 agent_model_info_get_size             (AgentModelInfo *self);
AGENT_AVAILABLE_IN_ALL
const char             *agent_model_info_get_digest           (AgentModelInfo *self);
AGENT_AVAILABLE_IN_ALL
const char             *agent_model_info_get_family           (AgentModelInfo *self);
AGENT_AVAILABLE_IN_ALL
const char             *agent_model_info_get_parameter_size   (AgentModelInfo *self);
AGENT_AVAILABLE_IN_ALL
const char             *agent_model_info_get_quantization     (AgentModelInfo *self);
AGENT_AVAILABLE_IN_ALL
guint64                 agent_model_info_get_context_length   (AgentModelInfo *self);
AGENT_AVAILABLE_IN_ALL
AgentModelCapabilities  agent_model_info_get_capabilities     (AgentModelInfo *self);
AGENT_AVAILABLE_IN_ALL
gboolean                agent_model_info_has_capabilities     (AgentModelInfo         *self,
                                                               AgentModelCapabilities  capabilities);
AGENT_AVAILABLE_IN_ALL
gboolean                agent_model_info_get_details_known    (AgentModelInfo *self);
AGENT_AVAILABLE_IN_ALL
GDateTime              *agent_model_info_get_modified_at      (AgentModelInfo *self);
AGENT_AVAILABLE_IN_ALL
guint64                 agent_model_info_get_size_vram        (AgentModelInfo *self);
AGENT_AVAILABLE_IN_ALL
GDateTime              *agent_model_info_get_expires_at       (AgentModelInfo *self);
AGENT_AVAILABLE_IN_ALL
char                   *agent_model_capabilities_to_string    (AgentModelCapabilities  capabilities) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
