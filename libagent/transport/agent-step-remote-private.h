/* agent-step-remote-private.h
 *
 * A step whose model request runs elsewhere: the desktop service's
 * RunStep (docs/desktop-service.md), over D-Bus instead of HTTP. The
 * request is written as the method's arguments at once; the answer streams
 * back as signals, fed to the step's accumulator as a decoder would feed it.
 *
 * The service, which links libagent's internal library, reads the same
 * arguments back with the functions of the second part.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "transport/agent-step-private.h"

G_BEGIN_DECLS

#define AGENT_DESKTOP_BUS_NAME    "io.github.libagent.Assistant"
#define AGENT_DESKTOP_OBJECT_PATH "/io/github/libagent/Assistant"
#define AGENT_DESKTOP_INTERFACE   "io.github.libagent.Assistant1"
#define AGENT_DESKTOP_ERROR_PREFIX AGENT_DESKTOP_INTERFACE ".Error."

typedef struct _AgentStepRemote AgentStepRemote;

/* agent-step.c's hooks (AgentProviderBackend's build_remote and run_remote) */
gboolean              _agent_step_remote_build          (AgentStep             *self,
                                                         const AgentRequest    *request,
                                                         GError               **error);
void                  _agent_step_remote_send           (AgentStep             *self);
void                  _agent_step_remote_stop           (AgentStep             *self);
void                  _agent_step_remote_free           (AgentStepRemote       *remote);

/* A D-Bus error of the service (or of the bus, reaching it) as the user
 * reads it, an AGENT_ERROR (G_IO_ERROR_CANCELLED for Cancelled). Takes @error. */
GError               *_agent_desktop_error_from_dbus    (GError                *error);

/* providers/agent-desktop.c: agent_provider_list_models_async()'s
 * answer, the names of the service's profiles (a strv returned by @task) */
void                  _agent_desktop_list_profiles      (GTask                 *task);

/* RunStep's arguments */
/* AgentReasoningEffort's values by name, as RunStep's "reasoning-effort" */
extern const char * const _agent_reasoning_effort_names[];
GVariant             *_agent_request_settings_to_variant (AgentRequestSettings *settings);
AgentRequestSettings *_agent_request_settings_new_from_variant (GVariant       *variant,
                                                                GError        **error);
GVariant             *_agent_tools_to_variant           (GListModel            *tools);

G_END_DECLS
