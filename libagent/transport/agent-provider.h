/* agent-provider.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGENT_INSIDE) && !defined(AGENT_COMPILATION)
# error "Only <agent.h> can be included directly."
#endif

#include <gio/gio.h>

#include "agent-embeddings.h"
#include "agent-request-settings.h"
#include "agent-version-macros.h"

G_BEGIN_DECLS

/**
 * AgentReasoningEffort:
 * @AGENT_REASONING_EFFORT_DEFAULT: whatever the provider and model do by
 *   default; nothing is sent
 * @AGENT_REASONING_EFFORT_NONE: ask the model not to think (where it can)
 * @AGENT_REASONING_EFFORT_LOW: think a little
 * @AGENT_REASONING_EFFORT_MEDIUM: think more
 * @AGENT_REASONING_EFFORT_HIGH: think the most
 *
 * How much a reasoning model should think before it answers. Each provider
 * maps it to its own option (`reasoning_effort`, a thinking budget,
 * `think`, …).
 *
 * Since: 0.1
 */
typedef enum
{
  AGENT_REASONING_EFFORT_DEFAULT,
  AGENT_REASONING_EFFORT_NONE,
  AGENT_REASONING_EFFORT_LOW,
  AGENT_REASONING_EFFORT_MEDIUM,
  AGENT_REASONING_EFFORT_HIGH,
} AgentReasoningEffort;

#define AGENT_TYPE_PROVIDER (agent_provider_get_type ())

AGENT_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AgentProvider, agent_provider, AGENT, PROVIDER, GObject)

AGENT_AVAILABLE_IN_ALL
AgentProvider      *agent_provider_new                  (const char     *name,
                                                         GError        **error) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
const char * const *agent_provider_list_names           (void);
AGENT_AVAILABLE_IN_ALL
const char         *agent_provider_get_name             (AgentProvider  *self);
AGENT_AVAILABLE_IN_ALL
const char         *agent_provider_get_display_name     (AgentProvider  *self);
AGENT_AVAILABLE_IN_ALL
const char         *agent_provider_get_base_url         (AgentProvider  *self);
AGENT_AVAILABLE_IN_ALL
void                agent_provider_set_base_url         (AgentProvider  *self,
                                                         const char     *base_url);
AGENT_AVAILABLE_IN_ALL
const char         *agent_provider_get_default_base_url (AgentProvider  *self);
AGENT_AVAILABLE_IN_ALL
const char         *agent_provider_get_api_key_variable (AgentProvider  *self);
AGENT_AVAILABLE_IN_ALL
const char         *agent_provider_get_model            (AgentProvider  *self);
AGENT_AVAILABLE_IN_ALL
void                agent_provider_set_model            (AgentProvider  *self,
                                                         const char     *model);
AGENT_AVAILABLE_IN_ALL
void                agent_provider_set_api_key          (AgentProvider  *self,
                                                         const char     *api_key);
AGENT_AVAILABLE_IN_ALL
gboolean            agent_provider_get_has_api_key      (AgentProvider  *self);
AGENT_AVAILABLE_IN_ALL
double              agent_provider_get_connect_timeout  (AgentProvider  *self);
AGENT_AVAILABLE_IN_ALL
void                agent_provider_set_connect_timeout  (AgentProvider  *self,
                                                         double          seconds);
AGENT_AVAILABLE_IN_ALL
double              agent_provider_get_first_byte_timeout (AgentProvider *self);
AGENT_AVAILABLE_IN_ALL
void                agent_provider_set_first_byte_timeout (AgentProvider *self,
                                                           double         seconds);
AGENT_AVAILABLE_IN_ALL
double              agent_provider_get_idle_timeout     (AgentProvider  *self);
AGENT_AVAILABLE_IN_ALL
void                agent_provider_set_idle_timeout     (AgentProvider  *self,
                                                         double          seconds);
AGENT_AVAILABLE_IN_ALL
guint               agent_provider_get_max_retries      (AgentProvider  *self);
AGENT_AVAILABLE_IN_ALL
void                agent_provider_set_max_retries      (AgentProvider  *self,
                                                         guint           max_retries);
AGENT_AVAILABLE_IN_ALL
guint64             agent_provider_get_max_response_size (AgentProvider *self);
AGENT_AVAILABLE_IN_ALL
void                agent_provider_set_max_response_size (AgentProvider *self,
                                                          guint64        max_response_size);
AGENT_AVAILABLE_IN_ALL
const char         *agent_provider_get_tls_ca_file      (AgentProvider  *self);
AGENT_AVAILABLE_IN_ALL
void                agent_provider_set_tls_ca_file      (AgentProvider  *self,
                                                         const char     *path);
AGENT_AVAILABLE_IN_ALL
guint               agent_provider_get_max_tokens       (AgentProvider  *self);
AGENT_AVAILABLE_IN_ALL
void                agent_provider_set_max_tokens       (AgentProvider  *self,
                                                         guint           max_tokens);
AGENT_AVAILABLE_IN_ALL
AgentReasoningEffort agent_provider_get_reasoning_effort (AgentProvider *self);
AGENT_AVAILABLE_IN_ALL
void                agent_provider_set_reasoning_effort (AgentProvider        *self,
                                                         AgentReasoningEffort  effort);
AGENT_AVAILABLE_IN_ALL
AgentRequestSettings *agent_provider_get_settings       (AgentProvider        *self);
AGENT_AVAILABLE_IN_ALL
gboolean            agent_provider_get_prompt_cache     (AgentProvider        *self);
AGENT_AVAILABLE_IN_ALL
void                agent_provider_set_prompt_cache     (AgentProvider        *self,
                                                         gboolean              prompt_cache);
AGENT_AVAILABLE_IN_ALL
const char         *agent_provider_get_keep_alive       (AgentProvider        *self);
AGENT_AVAILABLE_IN_ALL
gboolean            agent_provider_set_keep_alive       (AgentProvider        *self,
                                                         const char           *duration,
                                                         GError              **error);
AGENT_AVAILABLE_IN_ALL
guint64             agent_provider_get_max_context_window (AgentProvider      *self);
AGENT_AVAILABLE_IN_ALL
void                agent_provider_set_max_context_window (AgentProvider      *self,
                                                           guint64             tokens);
AGENT_AVAILABLE_IN_ALL
void                agent_provider_list_models_async    (AgentProvider        *self,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
AGENT_AVAILABLE_IN_ALL
char              **agent_provider_list_models_finish   (AgentProvider        *self,
                                                         GAsyncResult         *result,
                                                         GError              **error) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
guint               agent_provider_get_max_concurrent_requests (AgentProvider *self);
AGENT_AVAILABLE_IN_ALL
void                agent_provider_set_max_concurrent_requests (AgentProvider *self,
                                                                guint          max_concurrent_requests);
AGENT_AVAILABLE_IN_ALL
void                agent_provider_fetch_context_window_async  (AgentProvider        *self,
                                                                const char           *model,
                                                                GCancellable         *cancellable,
                                                                GAsyncReadyCallback   callback,
                                                                gpointer              user_data);
AGENT_AVAILABLE_IN_ALL
gint64              agent_provider_fetch_context_window_finish (AgentProvider        *self,
                                                                GAsyncResult         *result,
                                                                GError              **error);
AGENT_AVAILABLE_IN_ALL
void                agent_provider_embed_async          (AgentProvider        *self,
                                                         const char * const   *texts,
                                                         const char           *model,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
AGENT_AVAILABLE_IN_ALL
AgentEmbeddings    *agent_provider_embed_finish         (AgentProvider        *self,
                                                         GAsyncResult         *result,
                                                         GError              **error) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
