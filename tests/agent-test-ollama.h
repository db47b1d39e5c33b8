/* agent-test-ollama.h
 *
 * A fake Ollama for tests: an AgentTestServer on 127.0.0.1 whose
 * responder answers Ollama's native API from a state it keeps (installed
 * models, running ones, a registry to pull from, the part of each layer
 * already downloaded), in the shapes of Ollama's docs/api.md and
 * server/routes.go. See agent-test-ollama.c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agent-test-server.h"

G_BEGIN_DECLS

typedef struct _AgentTestOllama AgentTestOllama;

/* How the next pull of a model goes */
typedef enum
{
  AGENT_TEST_PULL_OK,           /* every layer, then "success" */
  AGENT_TEST_PULL_WAIT,         /* half of the first layer, then waits for a release */
  AGENT_TEST_PULL_DROP,         /* half of the first layer, then the connection breaks */
  AGENT_TEST_PULL_NO_SPACE,     /* half of the first layer, then a "no space left" error line */
  AGENT_TEST_PULL_NO_REGISTRY,  /* "pulling manifest", then the registry cannot be reached */
} AgentTestPull;

AgentTestOllama *agent_test_ollama_new            (void);
void             agent_test_ollama_free           (AgentTestOllama *self);
AgentTestServer *agent_test_ollama_get_server     (AgentTestOllama *self);
const char      *agent_test_ollama_get_base_url   (AgentTestOllama *self);
/* @capabilities: Ollama's names, separated by commas ("completion,tools") */
void             agent_test_ollama_add_model      (AgentTestOllama *self,
                                                   const char      *name,
                                                   const char      *family,
                                                   const char      *parameter_size,
                                                   const char      *quantization,
                                                   guint64          size,
                                                   gint64           context_length,
                                                   const char      *capabilities);
gboolean         agent_test_ollama_has_model      (AgentTestOllama *self,
                                                   const char      *name);
void             agent_test_ollama_set_running    (AgentTestOllama *self,
                                                   const char      *name,
                                                   guint64          size_vram,
                                                   const char      *expires_at);
gboolean         agent_test_ollama_is_running     (AgentTestOllama *self,
                                                   const char      *name);
/* Makes @name pullable from the registry (3 layers) */
void             agent_test_ollama_add_to_registry (AgentTestOllama *self,
                                                    const char      *name);
void             agent_test_ollama_set_next_pull  (AgentTestOllama *self,
                                                   AgentTestPull    pull);
/* /api/show answers 500 for @name (a model the server fails to describe) */
void             agent_test_ollama_set_show_fails (AgentTestOllama *self,
                                                   const char      *name);
/* The requests it received on @path */
guint            agent_test_ollama_count          (AgentTestOllama *self,
                                                   const char      *path);
/* /api/show answers wait for agent_test_server_release() */
void             agent_test_ollama_set_hold_shows (AgentTestOllama *self,
                                                   gboolean         hold);
/* The next request on @path is read, then its connection closes with no
 * answer (libsoup sends an idempotent one again on a new connection) */
void             agent_test_ollama_set_hang_up    (AgentTestOllama *self,
                                                   const char      *path);
/* The answer /api/chat streams next (default: "OK.") */
void             agent_test_ollama_set_chat_text  (AgentTestOllama *self,
                                                   const char      *text);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AgentTestOllama, agent_test_ollama_free)

G_END_DECLS
