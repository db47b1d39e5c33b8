/* agent-transcript-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "core/agent-session.h"

G_BEGIN_DECLS

#define AGENT_TYPE_TRANSCRIPT (agent_transcript_get_type ())

G_DECLARE_FINAL_TYPE (AgentTranscript, agent_transcript, AGENT, TRANSCRIPT, GObject)

AgentTranscript *_agent_transcript_new (AgentSession *session);

G_END_DECLS
