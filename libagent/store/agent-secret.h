/* agent-secret.h
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

/**
 * AGENT_SECRET_SCHEMA_NAME:
 *
 * The name of the libsecret schema under which API keys are kept, with the
 * attributes `provider` and `base-url`.
 *
 * Since: 0.1
 */
#define AGENT_SECRET_SCHEMA_NAME "io.github.libagent.ApiKey"

AGENT_AVAILABLE_IN_ALL
void     agent_secret_store_api_key_async   (const char           *provider,
                                             const char           *base_url,
                                             const char           *api_key,
                                             GCancellable         *cancellable,
                                             GAsyncReadyCallback   callback,
                                             gpointer              user_data);
AGENT_AVAILABLE_IN_ALL
gboolean agent_secret_store_api_key_finish  (GAsyncResult         *result,
                                             GError              **error);
AGENT_AVAILABLE_IN_ALL
void     agent_secret_lookup_api_key_async  (const char           *provider,
                                             const char           *base_url,
                                             GCancellable         *cancellable,
                                             GAsyncReadyCallback   callback,
                                             gpointer              user_data);
AGENT_AVAILABLE_IN_ALL
char    *agent_secret_lookup_api_key_finish (GAsyncResult         *result,
                                             GError              **error) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
void     agent_secret_clear_api_key_async   (const char           *provider,
                                             const char           *base_url,
                                             GCancellable         *cancellable,
                                             GAsyncReadyCallback   callback,
                                             gpointer              user_data);
AGENT_AVAILABLE_IN_ALL
gboolean agent_secret_clear_api_key_finish  (GAsyncResult         *result,
                                             GError              **error);

G_END_DECLS
