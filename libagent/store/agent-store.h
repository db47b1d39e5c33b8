/* agent-store.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGENT_INSIDE) && !defined(AGENT_COMPILATION)
# error "Only <agent.h> can be included directly."
#endif

#include <gio/gio.h>

#include "agent-conversation.h"
#include "agent-version-macros.h"

G_BEGIN_DECLS

#define AGENT_TYPE_STORE (agent_store_get_type ())

AGENT_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AgentStore, agent_store, AGENT, STORE, GObject)

AGENT_AVAILABLE_IN_ALL
AgentStore        *agent_store_new                     (const char         *path,
                                                        GError            **error) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
void               agent_store_new_async               (const char         *path,
                                                        GCancellable       *cancellable,
                                                        GAsyncReadyCallback callback,
                                                        gpointer            user_data);
AGENT_AVAILABLE_IN_ALL
AgentStore        *agent_store_new_finish              (GAsyncResult       *result,
                                                        GError            **error) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
char              *agent_store_dup_default_path        (void) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
const char        *agent_store_get_path                (AgentStore         *self);
AGENT_AVAILABLE_IN_ALL
GListModel        *agent_store_list_conversations      (AgentStore         *self);
AGENT_AVAILABLE_IN_ALL
AgentConversation *agent_store_create_conversation     (AgentStore         *self);
AGENT_AVAILABLE_IN_ALL
AgentConversation *agent_store_lookup_conversation     (AgentStore         *self,
                                                        gint64              id);
AGENT_AVAILABLE_IN_ALL
gboolean           agent_store_delete_conversation     (AgentStore         *self,
                                                        AgentConversation  *conversation,
                                                        GError            **error);
AGENT_AVAILABLE_IN_ALL
gboolean           agent_store_restore_conversation    (AgentStore         *self,
                                                        AgentConversation  *conversation,
                                                        GError            **error);
AGENT_AVAILABLE_IN_ALL
gboolean           agent_store_purge_deleted           (AgentStore         *self,
                                                        GError            **error);
AGENT_AVAILABLE_IN_ALL
GListModel        *agent_store_search                  (AgentStore         *self,
                                                        const char         *text,
                                                        GError            **error);
AGENT_AVAILABLE_IN_ALL
void               agent_store_search_async            (AgentStore         *self,
                                                        const char         *text,
                                                        GCancellable       *cancellable,
                                                        GAsyncReadyCallback callback,
                                                        gpointer            user_data);
AGENT_AVAILABLE_IN_ALL
GListModel        *agent_store_search_finish           (AgentStore         *self,
                                                        GAsyncResult       *result,
                                                        GError            **error) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
void               agent_store_flush_async             (AgentStore         *self,
                                                        GCancellable       *cancellable,
                                                        GAsyncReadyCallback callback,
                                                        gpointer            user_data);
AGENT_AVAILABLE_IN_ALL
gboolean           agent_store_flush_finish            (AgentStore         *self,
                                                        GAsyncResult       *result,
                                                        GError            **error);
AGENT_AVAILABLE_IN_ALL
gboolean           agent_store_check                   (AgentStore         *self,
                                                        GError            **error);
AGENT_AVAILABLE_IN_ALL
void               agent_store_import_conversation_async (AgentStore         *self,
                                                          GBytes             *json,
                                                          GCancellable       *cancellable,
                                                          GAsyncReadyCallback callback,
                                                          gpointer            user_data);
AGENT_AVAILABLE_IN_ALL
AgentConversation *agent_store_import_conversation_finish (AgentStore        *self,
                                                           GAsyncResult      *result,
                                                           GError           **error) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
