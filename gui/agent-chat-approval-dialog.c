/* agent-chat-approval-dialog.c
 *
 * Asks whether a tool may run: its name and its arguments as pretty JSON;
 * Deny, Allow Once, Allow in This Conversation (the tool), and for a tool of
 * an MCP server, Allow its server's tools in this conversation: what is
 * allowed for the conversation is the window's to keep (it reads the
 * response). The dialog is not modal — the conversation stays usable
 * (and Stop works) while it waits — and it closes by itself when the turn
 * is cancelled.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agent-chat-approval-dialog.h"
#include "agent-chat-tool-card.h"

struct _AgentChatApprovalDialog
{
  AdwMessageDialog   parent_instance;

  GtkWidget         *arguments_label;

  AgentToolApproval *approval;
  gulong             cancelled_id;
};

G_DEFINE_FINAL_TYPE (AgentChatApprovalDialog, agent_chat_approval_dialog, ADW_TYPE_MESSAGE_DIALOG)

static void
disconnect_cancellable (AgentChatApprovalDialog *self)
{
  if (self->approval != NULL && self->cancelled_id != 0)
    g_cancellable_disconnect (agent_tool_approval_get_cancellable (self->approval),
                              self->cancelled_id);
  self->cancelled_id = 0;
}

static void
agent_chat_approval_dialog_response (AdwMessageDialog *dialog,
                                     const char       *response)
{
  AgentChatApprovalDialog *self = AGENT_CHAT_APPROVAL_DIALOG (dialog);

  if (self->approval != NULL && !agent_tool_approval_is_answered (self->approval))
    {
      if (g_strcmp0 (response, "allow") == 0 ||
          g_strcmp0 (response, "allow-conversation") == 0 ||
          g_strcmp0 (response, "allow-server") == 0)
        agent_tool_approval_allow (self->approval);
      else
        agent_tool_approval_deny (self->approval, _("The user denied it"));
    }
  disconnect_cancellable (self);
}

static gboolean
close_idle (gpointer user_data)
{
  if (gtk_widget_get_visible (GTK_WIDGET (user_data)))
    gtk_window_destroy (GTK_WINDOW (user_data));
  return G_SOURCE_REMOVE;
}

/* The turn was stopped while the question waited: nothing to answer. */
static void
on_cancelled (GCancellable            *cancellable,
              AgentChatApprovalDialog *self)
{
  g_idle_add_full (G_PRIORITY_DEFAULT, close_idle, g_object_ref (self), g_object_unref);
}

static void
agent_chat_approval_dialog_dispose (GObject *object)
{
  AgentChatApprovalDialog *self = AGENT_CHAT_APPROVAL_DIALOG (object);

  disconnect_cancellable (self);
  g_clear_object (&self->approval);
  gtk_widget_dispose_template (GTK_WIDGET (self), AGENT_CHAT_TYPE_APPROVAL_DIALOG);

  G_OBJECT_CLASS (agent_chat_approval_dialog_parent_class)->dispose (object);
}

static void
agent_chat_approval_dialog_class_init (AgentChatApprovalDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  AdwMessageDialogClass *dialog_class = ADW_MESSAGE_DIALOG_CLASS (klass);

  object_class->dispose = agent_chat_approval_dialog_dispose;
  dialog_class->response = agent_chat_approval_dialog_response;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/libagent/Chat/agent-chat-approval-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, AgentChatApprovalDialog, arguments_label);
}

static void
agent_chat_approval_dialog_init (AgentChatApprovalDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * agent_chat_approval_dialog_get_approval:
 * @self: a #AgentChatApprovalDialog
 *
 * Returns: (transfer none): the question the dialog answers
 */
AgentToolApproval *
agent_chat_approval_dialog_get_approval (AgentChatApprovalDialog *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_APPROVAL_DIALOG (self), NULL);
  return self->approval;
}

/**
 * agent_chat_approval_dialog_new:
 * @parent: (nullable): the window the question is about
 * @approval: the question
 *
 * Returns: (transfer floating): a dialog that answers @approval
 */
GtkWidget *
agent_chat_approval_dialog_new (GtkWindow         *parent,
                                AgentToolApproval *approval)
{
  AgentChatApprovalDialog *self;
  AgentToolCall *call;
  AgentTool *tool;
  g_autofree char *body = NULL;
  g_autofree char *arguments = NULL;

  g_return_val_if_fail (AGENT_IS_TOOL_APPROVAL (approval), NULL);

  self = g_object_new (AGENT_CHAT_TYPE_APPROVAL_DIALOG,
                       "transient-for", parent,
                       NULL);
  self->approval = g_object_ref (approval);
  call = agent_tool_approval_get_tool_call (approval);

  tool = agent_tool_approval_get_tool (approval);
  if (AGENT_IS_MCP_TOOL (tool))
    {
      g_autoptr(AgentMcpClient) client = agent_mcp_tool_dup_client (AGENT_MCP_TOOL (tool));

      /* Translators: the second %s is the name of a tool server (MCP) */
      body = g_strdup_printf (_("The model wants to run the tool “%s” of the tool server “%s” "
                                "with these arguments."),
                              agent_tool_call_get_name (call),
                              client != NULL ? agent_mcp_client_get_name (client) : "?");
      if (client != NULL)
        {
          /* Underscores are mnemonics in a response's label */
          g_auto(GStrv) parts = g_strsplit (agent_mcp_client_get_name (client), "_", -1);
          g_autofree char *name = g_strjoinv ("__", parts);
          /* Translators: a button; %s is the name of a tool server (MCP) */
          g_autofree char *label = g_strdup_printf (_("Allow All Tools of “%s” in This "
                                                      "Conversation"), name);

          adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (self), "allow-server", label);
        }
    }
  else
    body = g_strdup_printf (_("The model wants to run the tool “%s” with these arguments."),
                            agent_tool_call_get_name (call));
  adw_message_dialog_set_body (ADW_MESSAGE_DIALOG (self), body);
  arguments = agent_chat_pretty_json (agent_tool_call_get_arguments (call));
  gtk_label_set_text (GTK_LABEL (self->arguments_label), arguments);

  self->cancelled_id = g_cancellable_connect (agent_tool_approval_get_cancellable (approval),
                                              G_CALLBACK (on_cancelled), self, NULL);
  return GTK_WIDGET (self);
}
