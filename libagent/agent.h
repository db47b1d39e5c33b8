/* agent.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#define AGENT_INSIDE
# include "agent-version.h"
# include "agent-version-macros.h"
# include "agent-features.h"
# include "agent-enums.h"
# include "agent-builtin-tools.h"
# include "agent-content-part.h"
# include "agent-context-policy.h"
# include "agent-embeddings.h"
# include "agent-error.h"
# include "agent-json.h"
# include "agent-json-schema.h"
# include "agent-local-voice.h"
# include "agent-mcp-client.h"
# include "agent-mcp-elicitation.h"
# include "agent-mcp-prompt.h"
# include "agent-mcp-resource.h"
# include "agent-mcp-server-list.h"
# include "agent-mcp-tool.h"
# include "agent-memory.h"
# include "agent-message.h"
# include "agent-model-info.h"
# include "agent-model-manager.h"
# include "agent-partial-json.h"
# include "agent-profile.h"
# include "agent-profile-list.h"
# include "agent-metrics.h"
# include "agent-output-decision.h"
# include "agent-provider.h"
# include "agent-pull-progress.h"
# include "agent-request-settings.h"
# include "agent-search-backend.h"
# include "agent-session.h"
# include "agent-speech.h"
# include "agent-step-request.h"
# include "agent-tool.h"
# include "agent-tool-approval.h"
# include "agent-tool-call.h"
# include "agent-tool-decision.h"
# include "agent-tool-invocation.h"
# include "agent-transcription.h"
# include "agent-usage.h"
# if AGENT_HAS_STORE
#  include "agent-conversation.h"
#  include "agent-document-index.h"
#  include "agent-store.h"
#  include "agent-search-result.h"
# endif
# if AGENT_HAS_KEYRING
#  include "agent-secret.h"
# endif
#undef AGENT_INSIDE
