/* agent-embeddings.h
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

#define AGENT_TYPE_EMBEDDINGS (agent_embeddings_get_type ())

AGENT_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AgentEmbeddings, agent_embeddings, AGENT, EMBEDDINGS, GObject)

AGENT_AVAILABLE_IN_ALL
AgentEmbeddings *agent_embeddings_new            (const char      *model,
                                                  guint            dimensions,
                                                  GBytes          *data,
                                                  GError         **error) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
const char      *agent_embeddings_get_model      (AgentEmbeddings *self);
AGENT_AVAILABLE_IN_ALL
guint            agent_embeddings_get_n_vectors  (AgentEmbeddings *self);
AGENT_AVAILABLE_IN_ALL
guint            agent_embeddings_get_dimensions (AgentEmbeddings *self);
AGENT_AVAILABLE_IN_ALL
const float     *agent_embeddings_get_vector     (AgentEmbeddings *self,
                                                  guint            index,
                                                  guint           *n_values);
AGENT_AVAILABLE_IN_ALL
GBytes          *agent_embeddings_get_data       (AgentEmbeddings *self);
AGENT_AVAILABLE_IN_ALL
double           agent_embeddings_similarity     (AgentEmbeddings *self,
                                                  guint            index,
                                                  AgentEmbeddings *other,
                                                  guint            other_index);

G_END_DECLS
