/* agent-local-voice.h
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

#define AGENT_TYPE_LOCAL_VOICE (agent_local_voice_get_type ())

AGENT_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AgentLocalVoice, agent_local_voice, AGENT, LOCAL_VOICE, GObject)

AGENT_AVAILABLE_IN_ALL
AgentLocalVoice *agent_local_voice_new                (void) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
const char      *agent_local_voice_get_voice          (AgentLocalVoice     *self);
AGENT_AVAILABLE_IN_ALL
void             agent_local_voice_set_voice          (AgentLocalVoice     *self,
                                                       const char          *voice);
AGENT_AVAILABLE_IN_ALL
gboolean         agent_local_voice_get_available      (void);
AGENT_AVAILABLE_IN_ALL
char           **agent_local_voice_list_voices        (GError             **error) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
void             agent_local_voice_synthesize_async   (AgentLocalVoice     *self,
                                                       const char          *text,
                                                       GCancellable        *cancellable,
                                                       GAsyncReadyCallback  callback,
                                                       gpointer             user_data);
AGENT_AVAILABLE_IN_ALL
GBytes          *agent_local_voice_synthesize_finish  (AgentLocalVoice     *self,
                                                       GAsyncResult        *result,
                                                       GError             **error) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
