/* agent-test-embedder.h
 *
 * A loopback OpenAI-style embedding server for the document index's tests:
 * POST {base}/embeddings {"model", "input": […]} answers each text with a
 * fixed vector, its words (less a few common ones) hashed into
 * AGENT_TEST_EMBEDDER_DIMS counts, so that a question about a topic lies
 * nearest the text about it. It counts the requests and their sizes, and
 * can fail them: always (HTTP 500) for a text holding a word, or the next
 * few with HTTP 503 (a passing error). Other paths go to a second
 * responder, for a model's chat in the same server.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agent-test-server.h"

G_BEGIN_DECLS

#define AGENT_TEST_EMBEDDER_DIMS 256

typedef struct _AgentTestEmbedder AgentTestEmbedder;

/* Called for each embedding request, before it is answered */
typedef void (*AgentTestEmbedderHook) (AgentTestEmbedder *embedder,
                                       JsonArray         *texts,
                                       gpointer           user_data);

struct _AgentTestEmbedder
{
  AgentTestServer       *server;
  guint                  n_requests;   /* embedding requests */
  GArray                *batch_sizes;  /* of guint, one per request */
  GPtrArray             *texts;        /* every text asked about, in order */
  char                  *fail_word;    /* a request with a text holding it: 500 */
  guint                  n_transient;  /* the next requests answered 503 */
  AgentTestEmbedderHook  hook;
  gpointer               hook_data;
  AgentTestResponder     chat;         /* for the other paths */
  gpointer               chat_data;
};

AgentTestEmbedder *agent_test_embedder_new    (void);
void               agent_test_embedder_free   (AgentTestEmbedder *self);
AgentProvider     *agent_test_embedder_provider_new (AgentTestEmbedder *self);
void               agent_test_embedder_vector (const char        *text,
                                               float             *out);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AgentTestEmbedder, agent_test_embedder_free)

G_END_DECLS
