/* agent-conversation.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGENT_INSIDE) && !defined(AGENT_COMPILATION)
# error "Only <agent.h> can be included directly."
#endif

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "agent-memory.h"
#include "agent-session.h"
#include "agent-version-macros.h"

G_BEGIN_DECLS

/**
 * AgentExportFormat:
 * @AGENT_EXPORT_FORMAT_MARKDOWN: Markdown, for people to read
 * @AGENT_EXPORT_FORMAT_JSON: JSON, with everything needed to continue the
 *   conversation
 *
 * What [method@Agent.Conversation.export] writes.
 *
 * Since: 0.1
 */
typedef enum
{
  AGENT_EXPORT_FORMAT_MARKDOWN,
  AGENT_EXPORT_FORMAT_JSON,
} AgentExportFormat;

#define AGENT_TYPE_CONVERSATION (agent_conversation_get_type ())

AGENT_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AgentConversation, agent_conversation, AGENT, CONVERSATION, GObject)

AGENT_AVAILABLE_IN_ALL
gint64      agent_conversation_get_id       (AgentConversation  *self);
AGENT_AVAILABLE_IN_ALL
const char *agent_conversation_get_title    (AgentConversation  *self);
AGENT_AVAILABLE_IN_ALL
gboolean    agent_conversation_rename       (AgentConversation  *self,
                                             const char         *title,
                                             GError            **error);
AGENT_AVAILABLE_IN_ALL
GDateTime  *agent_conversation_get_created  (AgentConversation  *self);
AGENT_AVAILABLE_IN_ALL
GDateTime  *agent_conversation_get_updated  (AgentConversation  *self);
AGENT_AVAILABLE_IN_ALL
const char *agent_conversation_get_provider (AgentConversation  *self);
AGENT_AVAILABLE_IN_ALL
const char *agent_conversation_get_model    (AgentConversation  *self);
AGENT_AVAILABLE_IN_ALL
gboolean    agent_conversation_set_model    (AgentConversation  *self,
                                             const char         *provider,
                                             const char         *model,
                                             GError            **error);
AGENT_AVAILABLE_IN_ALL
const char *agent_conversation_get_profile  (AgentConversation  *self);
AGENT_AVAILABLE_IN_ALL
gboolean    agent_conversation_set_profile  (AgentConversation  *self,
                                             const char         *profile,
                                             GError            **error);
AGENT_AVAILABLE_IN_ALL
JsonNode   *agent_conversation_get_settings (AgentConversation  *self);
AGENT_AVAILABLE_IN_ALL
gboolean    agent_conversation_set_settings (AgentConversation  *self,
                                             JsonNode           *settings,
                                             GError            **error);
AGENT_AVAILABLE_IN_ALL
gboolean    agent_conversation_record_session (AgentConversation *self,
                                               AgentSession      *session,
                                               GError           **error);
AGENT_AVAILABLE_IN_ALL
const GError *agent_conversation_get_error  (AgentConversation  *self,
                                             guint               position);
AGENT_AVAILABLE_IN_ALL
gboolean    agent_conversation_set_error    (AgentConversation  *self,
                                             guint               position,
                                             const GError       *turn_error,
                                             GError            **error);

AGENT_AVAILABLE_IN_ALL
gint64        agent_conversation_get_message_id    (AgentConversation  *self,
                                                    guint               position);
AGENT_AVAILABLE_IN_ALL
AgentMessage *agent_conversation_lookup_message    (AgentConversation  *self,
                                                    gint64              message_id);
AGENT_AVAILABLE_IN_ALL
gint64       *agent_conversation_dup_following     (AgentConversation  *self,
                                                    gint64              message_id,
                                                    gsize              *n_ids)
                                                    G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
gboolean      agent_conversation_select_message    (AgentConversation  *self,
                                                    gint64              message_id,
                                                    GError            **error);
AGENT_AVAILABLE_IN_ALL
gboolean    agent_conversation_get_attachments_size (AgentConversation *self,
                                                     guint64           *size,
                                                     GError           **error);
AGENT_AVAILABLE_IN_ALL
gboolean    agent_conversation_load         (AgentConversation  *self,
                                             GError            **error);
AGENT_AVAILABLE_IN_ALL
gboolean    agent_conversation_is_loaded    (AgentConversation  *self);
AGENT_AVAILABLE_IN_ALL
void        agent_conversation_load_async   (AgentConversation  *self,
                                             GCancellable       *cancellable,
                                             GAsyncReadyCallback callback,
                                             gpointer            user_data);
AGENT_AVAILABLE_IN_ALL
gboolean    agent_conversation_load_finish  (AgentConversation  *self,
                                             GAsyncResult       *result,
                                             GError            **error);
AGENT_AVAILABLE_IN_ALL
void        agent_conversation_flush_async  (AgentConversation  *self,
                                             GCancellable       *cancellable,
                                             GAsyncReadyCallback callback,
                                             gpointer            user_data);
AGENT_AVAILABLE_IN_ALL
gboolean    agent_conversation_flush_finish (AgentConversation  *self,
                                             GAsyncResult       *result,
                                             GError            **error);
AGENT_AVAILABLE_IN_ALL
gboolean    agent_conversation_claim        (AgentConversation  *self,
                                             GError            **error);
AGENT_AVAILABLE_IN_ALL
void        agent_conversation_release      (AgentConversation  *self);
AGENT_AVAILABLE_IN_ALL
char       *agent_conversation_export       (AgentConversation  *self,
                                             AgentExportFormat   format,
                                             GError            **error);

G_END_DECLS
