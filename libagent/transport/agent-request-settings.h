/* agent-request-settings.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGENT_INSIDE) && !defined(AGENT_COMPILATION)
# error "Only <agent.h> can be included directly."
#endif

#include <json-glib/json-glib.h>

#include "agent-version-macros.h"

G_BEGIN_DECLS

/**
 * AgentToolChoice:
 * @AGENT_TOOL_CHOICE_DEFAULT: nothing is asked: the API's default (the
 *   model decides, where tools are offered)
 * @AGENT_TOOL_CHOICE_AUTO: the model decides whether to call tools
 * @AGENT_TOOL_CHOICE_NONE: the model must not call a tool
 * @AGENT_TOOL_CHOICE_REQUIRED: the model must call at least one tool
 * @AGENT_TOOL_CHOICE_TOOL: the model must call the tool named by
 *   [property@Agent.RequestSettings:tool-choice-name]
 *
 * Whether and which tools the model must call, as
 * [property@Agent.RequestSettings:tool-choice] says it. Each provider maps
 * it to its API's own field.
 *
 * Since: 0.1
 */
typedef enum
{
  AGENT_TOOL_CHOICE_DEFAULT,
  AGENT_TOOL_CHOICE_AUTO,
  AGENT_TOOL_CHOICE_NONE,
  AGENT_TOOL_CHOICE_REQUIRED,
  AGENT_TOOL_CHOICE_TOOL,
} AgentToolChoice;

#define AGENT_TYPE_REQUEST_SETTINGS (agent_request_settings_get_type ())

AGENT_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AgentRequestSettings, agent_request_settings, AGENT, REQUEST_SETTINGS, GObject)

AGENT_AVAILABLE_IN_ALL
AgentRequestSettings *agent_request_settings_new                   (void) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
AgentRequestSettings *agent_request_settings_copy                  (AgentRequestSettings *self) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
gboolean              agent_request_settings_is_set                (AgentRequestSettings *self,
                                                                    const char           *name);
AGENT_AVAILABLE_IN_ALL
void                  agent_request_settings_unset                 (AgentRequestSettings *self,
                                                                    const char           *name);
AGENT_AVAILABLE_IN_ALL
void                  agent_request_settings_unset_all             (AgentRequestSettings *self);
AGENT_AVAILABLE_IN_ALL
double                agent_request_settings_get_temperature       (AgentRequestSettings *self);
AGENT_AVAILABLE_IN_ALL
void                  agent_request_settings_set_temperature       (AgentRequestSettings *self,
                                                                    double                temperature);
AGENT_AVAILABLE_IN_ALL
double                agent_request_settings_get_top_p             (AgentRequestSettings *self);
AGENT_AVAILABLE_IN_ALL
void                  agent_request_settings_set_top_p             (AgentRequestSettings *self,
                                                                    double                top_p);
AGENT_AVAILABLE_IN_ALL
guint                 agent_request_settings_get_top_k             (AgentRequestSettings *self);
AGENT_AVAILABLE_IN_ALL
void                  agent_request_settings_set_top_k             (AgentRequestSettings *self,
                                                                    guint                 top_k);
AGENT_AVAILABLE_IN_ALL
gint64                agent_request_settings_get_seed              (AgentRequestSettings *self);
AGENT_AVAILABLE_IN_ALL
void                  agent_request_settings_set_seed              (AgentRequestSettings *self,
                                                                    gint64                seed);
AGENT_AVAILABLE_IN_ALL
const char * const   *agent_request_settings_get_stop              (AgentRequestSettings *self);
AGENT_AVAILABLE_IN_ALL
void                  agent_request_settings_set_stop              (AgentRequestSettings *self,
                                                                    const char * const   *stop);
AGENT_AVAILABLE_IN_ALL
double                agent_request_settings_get_presence_penalty  (AgentRequestSettings *self);
AGENT_AVAILABLE_IN_ALL
void                  agent_request_settings_set_presence_penalty  (AgentRequestSettings *self,
                                                                    double                penalty);
AGENT_AVAILABLE_IN_ALL
double                agent_request_settings_get_frequency_penalty (AgentRequestSettings *self);
AGENT_AVAILABLE_IN_ALL
void                  agent_request_settings_set_frequency_penalty (AgentRequestSettings *self,
                                                                    double                penalty);
AGENT_AVAILABLE_IN_ALL
AgentToolChoice       agent_request_settings_get_tool_choice       (AgentRequestSettings *self);
AGENT_AVAILABLE_IN_ALL
const char           *agent_request_settings_get_tool_choice_name  (AgentRequestSettings *self);
AGENT_AVAILABLE_IN_ALL
void                  agent_request_settings_set_tool_choice       (AgentRequestSettings *self,
                                                                    AgentToolChoice       choice,
                                                                    const char           *tool_name);
AGENT_AVAILABLE_IN_ALL
gboolean              agent_request_settings_get_parallel_tool_calls (AgentRequestSettings *self);
AGENT_AVAILABLE_IN_ALL
void                  agent_request_settings_set_parallel_tool_calls (AgentRequestSettings *self,
                                                                      gboolean              parallel);
AGENT_AVAILABLE_IN_ALL
JsonNode             *agent_request_settings_get_provider_options  (AgentRequestSettings *self);
AGENT_AVAILABLE_IN_ALL
void                  agent_request_settings_set_provider_options  (AgentRequestSettings *self,
                                                                    JsonNode             *options);
AGENT_AVAILABLE_IN_ALL
void                  agent_request_settings_set_provider_option   (AgentRequestSettings *self,
                                                                    const char           *path,
                                                                    JsonNode             *value);
AGENT_AVAILABLE_IN_ALL
const char           *agent_request_settings_get_header            (AgentRequestSettings *self,
                                                                    const char           *name);
AGENT_AVAILABLE_IN_ALL
void                  agent_request_settings_set_header            (AgentRequestSettings *self,
                                                                    const char           *name,
                                                                    const char           *value);
AGENT_AVAILABLE_IN_ALL
char                **agent_request_settings_list_headers          (AgentRequestSettings *self) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
