/* agent-gtk-approval-prompt.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGENT_GTK_INSIDE) && !defined(AGENT_GTK_COMPILATION)
# error "Only <agent-gtk.h> can be included directly."
#endif

#include <agent.h>
#include <gtk/gtk.h>

#include "agent-gtk-version-macros.h"

G_BEGIN_DECLS

/**
 * AgentGtkApprovalAnswer:
 * @AGENT_GTK_APPROVAL_ANSWER_DENY: the tool does not run
 * @AGENT_GTK_APPROVAL_ANSWER_ALLOW_ONCE: the tool runs, this time
 * @AGENT_GTK_APPROVAL_ANSWER_ALLOW_TOOL: the tool runs, and may run again
 *   in this conversation without asking (the application keeps that)
 * @AGENT_GTK_APPROVAL_ANSWER_ALLOW_SERVER: the tool runs, and every tool of
 *   its tool server (MCP) may run in this conversation without asking (the
 *   application keeps that)
 *
 * What the user answered to an [class@AgentGtk.ApprovalPrompt].
 *
 * Since: 0.1
 */
typedef enum
{
  AGENT_GTK_APPROVAL_ANSWER_DENY,
  AGENT_GTK_APPROVAL_ANSWER_ALLOW_ONCE,
  AGENT_GTK_APPROVAL_ANSWER_ALLOW_TOOL,
  AGENT_GTK_APPROVAL_ANSWER_ALLOW_SERVER,
} AgentGtkApprovalAnswer;

#define AGENT_GTK_TYPE_APPROVAL_ANSWER (agent_gtk_approval_answer_get_type ())

AGENT_GTK_AVAILABLE_IN_ALL
GType agent_gtk_approval_answer_get_type (void) G_GNUC_CONST;

#define AGENT_GTK_TYPE_APPROVAL_PROMPT (agent_gtk_approval_prompt_get_type ())

AGENT_GTK_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AgentGtkApprovalPrompt, agent_gtk_approval_prompt,
                      AGENT_GTK, APPROVAL_PROMPT, GtkWidget)

AGENT_GTK_AVAILABLE_IN_ALL
GtkWidget         *agent_gtk_approval_prompt_new                    (AgentToolApproval      *approval);
AGENT_GTK_AVAILABLE_IN_ALL
AgentToolApproval *agent_gtk_approval_prompt_get_approval           (AgentGtkApprovalPrompt *self);
AGENT_GTK_AVAILABLE_IN_ALL
gboolean           agent_gtk_approval_prompt_get_offer_conversation (AgentGtkApprovalPrompt *self);
AGENT_GTK_AVAILABLE_IN_ALL
void               agent_gtk_approval_prompt_set_offer_conversation (AgentGtkApprovalPrompt *self,
                                                                     gboolean                offer_conversation);
AGENT_GTK_AVAILABLE_IN_ALL
gboolean           agent_gtk_approval_prompt_get_pending            (AgentGtkApprovalPrompt *self);
AGENT_GTK_AVAILABLE_IN_ALL
void               agent_gtk_approval_prompt_present                (AgentGtkApprovalPrompt *self,
                                                                     GtkWidget              *parent);
AGENT_GTK_AVAILABLE_IN_ALL
void               agent_gtk_approval_prompt_answer                 (AgentGtkApprovalPrompt *self,
                                                                     AgentGtkApprovalAnswer  answer);

G_END_DECLS
