/* agent-models-private.h
 *
 * What the model manager's files share: building an AgentModelInfo from
 * the JSON of Ollama's /api/tags, /api/show and /api/ps, and updating an
 * AgentPullProgress from one line of /api/pull.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "json/agent-json-private.h"
#include "models/agent-model-info.h"
#include "models/agent-pull-progress.h"

G_BEGIN_DECLS

AgentModelInfo         *_agent_model_info_new              (const char        *name);
/* An entry of /api/tags' or /api/ps' "models" (NULL: it has no name) */
AgentModelInfo         *_agent_model_info_new_from_entry   (const AgentJson   *entry);
/* /api/show's answer: details, model_info's context length, capabilities */
void                    _agent_model_info_apply_show       (AgentModelInfo    *self,
                                                            const AgentJson   *root);
/* /api/show's "model_info": {"<architecture>.context_length": N, …}, or 0 */
guint64                 _agent_model_context_length_from_show (const AgentJson *root);
AgentModelCapabilities  _agent_model_capabilities_from_json (const AgentJson  *array);

AgentPullProgress      *_agent_pull_progress_new           (const char        *model);
/* One status line of /api/pull: notifies what changed */
void                    _agent_pull_progress_update        (AgentPullProgress *self,
                                                            const char        *status,
                                                            const char        *digest,
                                                            gint64             completed,
                                                            gint64             total);

/* agent-model-errors.c: what Ollama's {"error": "…"} means, with a
 * stable code. @message is the server's text, redacted; @model the model
 * asked for. NULL when the text is none of the known ones. */
GError                 *_agent_model_error_from_ollama     (const char        *message,
                                                            const char        *model);
/* A 404 whose body is Ollama's {"error": "model 'x' not found"}: *error
 * becomes %AGENT_ERROR_MODEL_NOT_FOUND pointing to the pull (the HTTP
 * status kept); any other error is left as it is */
void                    _agent_model_error_refine_http     (GError           **error,
                                                            guint              status,
                                                            const char        *body,
                                                            gsize              len);
/* The error of a model that is not installed, pointing to the pull */
GError                 *_agent_model_error_not_installed   (const char        *model);

G_END_DECLS
