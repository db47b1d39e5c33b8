/* agent-test-replay.h
 *
 * A response body decoded as the library decodes it, without HTTP:
 * agent_stream_decoder with a provider's backend (openai-chat unless said
 * otherwise) and an
 * accumulator, whose listener records everything it is told and notes
 * every broken promise of the listener contract.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <agent.h>

#include "wire/agent-accumulator-private.h"
#include "transport/agent-provider-private.h"
#include "wire/agent-stream-decoder-private.h"

G_BEGIN_DECLS

/* One tool_call_delta, with the call's index, id and name as known then. */
typedef struct
{
  AgentToolCall *call;   /* owned by the message */
  guint          index;
  char          *id;
  char          *name;
  char          *fragment;
  gsize          len;
} AgentTestToolDelta;

typedef struct
{
  AgentAccumulator   *accumulator;
  AgentStreamDecoder *decoder;

  /* What the listener heard */
  GString            *text;
  GString            *reasoning;
  GString            *refusal;
  guint               n_text;
  guint               n_reasoning;
  guint               n_refusal;
  guint               n_fragments;   /* tool-call deltas with a non-empty fragment */
  GArray             *tool_deltas;   /* AgentTestToolDelta, in order */
  GStringChunk       *strings;       /* the strings of tool_deltas */
  GHashTable         *fragments;     /* AgentToolCall → GString of its fragments */
  GHashTable         *known;         /* AgentToolCall → "id\nname" as last heard */
  GString            *log;           /* every listener call, one a line */
  GString            *problems;      /* the broken contracts, each on a line of its own */

  /* What the decoder said */
  GError             *error;         /* the first error of feed() */
  GError             *finish_error;
  gboolean            finish_ok;
} AgentTestReplay;

AgentTestReplay *agent_test_replay_new           (void);
AgentTestReplay *agent_test_replay_new_for_backend (const AgentProviderBackend *backend);
void             agent_test_replay_free          (AgentTestReplay  *self);
gboolean         agent_test_replay_feed          (gpointer          self,
                                                  const char       *data,
                                                  gsize             len,
                                                  GError          **error);
void             agent_test_replay_finish        (AgentTestReplay  *self);
AgentMessage    *agent_test_replay_get_message   (AgentTestReplay  *self);
const char      *agent_test_replay_get_fragments (AgentTestReplay  *self,
                                                  AgentToolCall    *call);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AgentTestReplay, agent_test_replay_free)

G_END_DECLS
