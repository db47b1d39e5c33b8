/* agent-gtk-chat-state-private.h
 *
 * What belongs to a conversation rather than to the view that shows it
 * (agent-gtk-chat-state.c says what). The view asks it and tells it; it
 * knows nothing of views, composers or rows.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <agent.h>

G_BEGIN_DECLS

typedef struct _AgentGtkChatState AgentGtkChatState;
typedef struct _AgentGtkEditUndo  AgentGtkEditUndo;

guint              agent_gtk_chat_state_position          (AgentMemory        *memory,
                                                           AgentMessage       *message);

AgentGtkChatState *agent_gtk_chat_state_get               (AgentMemory        *memory);

void               agent_gtk_chat_state_save_draft        (AgentGtkChatState  *state,
                                                           char               *text,
                                                           GPtrArray          *parts);
char              *agent_gtk_chat_state_take_draft        (AgentGtkChatState  *state,
                                                           GPtrArray         **parts);

const GError      *agent_gtk_chat_state_lookup_error      (AgentGtkChatState  *state,
                                                           AgentMessage       *message);
const GError      *agent_gtk_chat_state_lookup_failed_turn (AgentGtkChatState *state,
                                                            AgentMessage      *message);
const GError      *agent_gtk_chat_state_last_error        (AgentGtkChatState  *state,
                                                           AgentMessage      **last);
gboolean           agent_gtk_chat_state_record_error      (AgentGtkChatState  *state,
                                                           const GError       *error);
void               agent_gtk_chat_state_forget_error      (AgentGtkChatState  *state);

AgentMessage      *agent_gtk_chat_state_get_editing       (AgentGtkChatState  *state);
AgentMessage      *agent_gtk_chat_state_start_edit        (AgentGtkChatState  *state,
                                                           AgentMessage       *message,
                                                           char               *before);
char              *agent_gtk_chat_state_end_edit          (AgentGtkChatState  *state,
                                                           AgentMessage      **editing);

AgentGtkEditUndo  *agent_gtk_chat_state_cut_edit          (AgentGtkChatState  *state,
                                                           AgentMessage       *editing,
                                                           const char         *text,
                                                           GError            **error);
AgentMemory       *agent_gtk_edit_undo_get_memory         (AgentGtkEditUndo   *undo);
const char        *agent_gtk_edit_undo_get_text           (AgentGtkEditUndo   *undo);
gboolean           agent_gtk_edit_undo_restore            (AgentGtkEditUndo   *undo,
                                                           gboolean            shown,
                                                           char               *composer_text,
                                                           GError            **error);
void               agent_gtk_edit_undo_free               (AgentGtkEditUndo   *undo);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AgentGtkEditUndo, agent_gtk_edit_undo_free)

G_END_DECLS
