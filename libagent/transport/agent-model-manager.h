/* agent-model-manager.h
 *
 * Managing the models of a server that has a manager (Ollama's native
 * API): list the installed ones with what they can do, the running ones,
 * pull one with progress, delete one, unload one now. Each call is one
 * GTask pair with a GCancellable; progress is a signal carrying an
 * AgentPullProgress, the same object for one pull, updated in place.
 * Servers without a manager (OpenAI-compatible ones only list their
 * models) make a manager whose :supported is FALSE and whose calls fail
 * with AGENT_ERROR_UNSUPPORTED naming the provider.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGENT_INSIDE) && !defined(AGENT_COMPILATION)
# error "Only <agent.h> can be included directly."
#endif

#include <gio/gio.h>

#include "agent-model-info.h"
#include "agent-provider.h"
#include "agent-pull-progress.h"
#include "agent-version-macros.h"

G_BEGIN_DECLS

#define AGENT_TYPE_MODEL_MANAGER (agent_model_manager_get_type ())

AGENT_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AgentModelManager, agent_model_manager, AGENT, MODEL_MANAGER, GObject)

AGENT_AVAILABLE_IN_ALL
AgentModelManager *agent_model_manager_new                 (AgentProvider        *provider) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
AgentProvider     *agent_model_manager_get_provider        (AgentModelManager    *self);
AGENT_AVAILABLE_IN_ALL
gboolean           agent_model_manager_get_supported       (AgentModelManager    *self);

AGENT_AVAILABLE_IN_ALL
void               agent_model_manager_list_async          (AgentModelManager    *self,
                                                            GCancellable         *cancellable,
                                                            GAsyncReadyCallback   callback,
                                                            gpointer              user_data);
AGENT_AVAILABLE_IN_ALL
GListModel        *agent_model_manager_list_finish         (AgentModelManager    *self,
                                                            GAsyncResult         *result,
                                                            GError              **error) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
void               agent_model_manager_show_async          (AgentModelManager    *self,
                                                            const char           *model,
                                                            GCancellable         *cancellable,
                                                            GAsyncReadyCallback   callback,
                                                            gpointer              user_data);
AGENT_AVAILABLE_IN_ALL
AgentModelInfo    *agent_model_manager_show_finish         (AgentModelManager    *self,
                                                            GAsyncResult         *result,
                                                            GError              **error) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
void               agent_model_manager_list_running_async  (AgentModelManager    *self,
                                                            GCancellable         *cancellable,
                                                            GAsyncReadyCallback   callback,
                                                            gpointer              user_data);
AGENT_AVAILABLE_IN_ALL
GListModel        *agent_model_manager_list_running_finish (AgentModelManager    *self,
                                                            GAsyncResult         *result,
                                                            GError              **error) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
void               agent_model_manager_pull_async          (AgentModelManager    *self,
                                                            const char           *model,
                                                            GCancellable         *cancellable,
                                                            GAsyncReadyCallback   callback,
                                                            gpointer              user_data);
AGENT_AVAILABLE_IN_ALL
gboolean           agent_model_manager_pull_finish         (AgentModelManager    *self,
                                                            GAsyncResult         *result,
                                                            GError              **error);
AGENT_AVAILABLE_IN_ALL
void               agent_model_manager_delete_async        (AgentModelManager    *self,
                                                            const char           *model,
                                                            GCancellable         *cancellable,
                                                            GAsyncReadyCallback   callback,
                                                            gpointer              user_data);
AGENT_AVAILABLE_IN_ALL
gboolean           agent_model_manager_delete_finish       (AgentModelManager    *self,
                                                            GAsyncResult         *result,
                                                            GError              **error);
AGENT_AVAILABLE_IN_ALL
void               agent_model_manager_unload_async        (AgentModelManager    *self,
                                                            const char           *model,
                                                            GCancellable         *cancellable,
                                                            GAsyncReadyCallback   callback,
                                                            gpointer              user_data);
AGENT_AVAILABLE_IN_ALL
gboolean           agent_model_manager_unload_finish       (AgentModelManager    *self,
                                                            GAsyncResult         *result,
                                                            GError              **error);

G_END_DECLS
