/* agent-gtk-approval-prompt.c
 *
 * Asks whether a tool may run, as a widget (not a dialog): the chat view
 * shows it under the conversation, where the turn waits, and an application
 * that wants a dialog puts it in one. It says which tool (and which tool
 * server, for a tool of an MCP server) and shows the call's arguments as
 * pretty JSON; its answers are Deny, Allow Once (the suggested one), and —
 * when the application keeps such choices, offer-conversation — Allow in
 * This Conversation, and for a tool of an MCP server, Allow All Tools of
 * its server in this conversation. Escape denies.
 *
 * The prompt answers the AgentToolApproval itself, then emits ::answered:
 * what is allowed for a conversation is the application's to keep. It stops
 * waiting (pending goes FALSE) once answered, here or elsewhere, or when the
 * turn is stopped while it waits.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "agent-gtk-config.h"

#include <glib/gi18n-lib.h>

#include "agent-gtk-approval-prompt.h"
#include "agent-gtk-dialog-private.h"
#include "agent-gtk-private.h"
#include "agent-gtk-tool-card-private.h"

/**
 * AgentGtkApprovalPrompt:
 *
 * Asks whether a tool may run: which tool (and which tool server), the
 * call's arguments, and Deny, Allow Once and — with
 * [property@AgentGtk.ApprovalPrompt:offer-conversation] — Allow in This
 * Conversation. It answers its [class@Agent.ToolApproval] itself, then
 * emits [signal@AgentGtk.ApprovalPrompt::answered]. A
 * [class@AgentGtk.ChatView] shows one under the conversation for each
 * question; an application that prefers a dialog puts one in its own.
 *
 * Since: 0.1
 */
struct _AgentGtkApprovalPrompt
{
  GtkWidget          parent_instance;

  GtkWidget         *box;
  GtkWidget         *heading_label;
  GtkWidget         *body_label;
  GtkWidget         *arguments_label;
  GtkWidget         *deny_button;
  GtkWidget         *server_button;
  GtkWidget         *server_label;
  GtkWidget         *conversation_button;
  GtkWidget         *once_button;

  AgentToolApproval *approval;
  char              *server;             /* the tool's MCP server, if any */
  gulong             cancelled_id;
  guint              offer_conversation : 1;
  guint              pending : 1;
};

enum {
  PROP_0,
  PROP_APPROVAL,
  PROP_OFFER_CONVERSATION,
  PROP_PENDING,
  N_PROPS
};

enum {
  ANSWERED,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (AgentGtkApprovalPrompt, agent_gtk_approval_prompt, GTK_TYPE_WIDGET)

G_DEFINE_ENUM_TYPE (AgentGtkApprovalAnswer, agent_gtk_approval_answer,
                    G_DEFINE_ENUM_VALUE (AGENT_GTK_APPROVAL_ANSWER_DENY, "deny"),
                    G_DEFINE_ENUM_VALUE (AGENT_GTK_APPROVAL_ANSWER_ALLOW_ONCE, "allow-once"),
                    G_DEFINE_ENUM_VALUE (AGENT_GTK_APPROVAL_ANSWER_ALLOW_TOOL, "allow-tool"),
                    G_DEFINE_ENUM_VALUE (AGENT_GTK_APPROVAL_ANSWER_ALLOW_SERVER, "allow-server"))

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
disconnect_approval (AgentGtkApprovalPrompt *self)
{
  if (self->approval == NULL)
    return;
  if (self->cancelled_id != 0)
    g_cancellable_disconnect (agent_tool_approval_get_cancellable (self->approval),
                              self->cancelled_id);
  self->cancelled_id = 0;
  g_signal_handlers_disconnect_by_data (self->approval, self);
}

static void
set_pending (AgentGtkApprovalPrompt *self,
             gboolean                pending)
{
  if (self->pending == !!pending)
    return;
  self->pending = !!pending;
  gtk_widget_set_sensitive (self->box, self->pending);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PENDING]);
}

/* Answered (here or elsewhere), or stopped: on the main context, whatever
 * thread cancelled the turn */
static gboolean
stop_waiting (gpointer data)
{
  AgentGtkApprovalPrompt *self = data;

  disconnect_approval (self);
  set_pending (self, FALSE);
  return G_SOURCE_REMOVE;
}

static void
on_cancelled (GCancellable           *cancellable,
              AgentGtkApprovalPrompt *self)
{
  g_idle_add_full (G_PRIORITY_DEFAULT, stop_waiting, g_object_ref (self), g_object_unref);
}

static void
on_answered (AgentGtkApprovalPrompt *self)
{
  if (agent_tool_approval_is_answered (self->approval))
    stop_waiting (self);
}

/**
 * agent_gtk_approval_prompt_answer:
 * @self: an approval prompt
 * @answer: the answer
 *
 * Answers the question as the user would with the prompt's buttons: the
 * approval is allowed or denied, then
 * [signal@AgentGtk.ApprovalPrompt::answered] is emitted. Does nothing once
 * the question no longer waits ([property@AgentGtk.ApprovalPrompt:pending]).
 *
 * Since: 0.1
 */
void
agent_gtk_approval_prompt_answer (AgentGtkApprovalPrompt *self,
                                  AgentGtkApprovalAnswer  answer)
{
  g_return_if_fail (AGENT_GTK_IS_APPROVAL_PROMPT (self));

  if (!self->pending || agent_tool_approval_is_answered (self->approval))
    return;

  g_object_ref (self);
  disconnect_approval (self);
  if (answer == AGENT_GTK_APPROVAL_ANSWER_DENY)
    agent_tool_approval_deny (self->approval, _("The user denied it"));
  else
    agent_tool_approval_allow (self->approval);
  /* ::answered first: a prompt no longer pending is taken away (the chat
   * view's), and its handlers with it */
  g_signal_emit (self, signals[ANSWERED], 0, answer);
  set_pending (self, FALSE);
  g_object_unref (self);
}

static void
on_deny_clicked (AgentGtkApprovalPrompt *self)
{
  agent_gtk_approval_prompt_answer (self, AGENT_GTK_APPROVAL_ANSWER_DENY);
}

static void
on_once_clicked (AgentGtkApprovalPrompt *self)
{
  agent_gtk_approval_prompt_answer (self, AGENT_GTK_APPROVAL_ANSWER_ALLOW_ONCE);
}

static void
on_conversation_clicked (AgentGtkApprovalPrompt *self)
{
  agent_gtk_approval_prompt_answer (self, AGENT_GTK_APPROVAL_ANSWER_ALLOW_TOOL);
}

static void
on_server_clicked (AgentGtkApprovalPrompt *self)
{
  agent_gtk_approval_prompt_answer (self, AGENT_GTK_APPROVAL_ANSWER_ALLOW_SERVER);
}

static void
deny_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  on_deny_clicked (AGENT_GTK_APPROVAL_PROMPT (widget));
}

/* What the prompt says of the call, and which answers it offers */
static void
update (AgentGtkApprovalPrompt *self)
{
  AgentToolCall *call = agent_tool_approval_get_tool_call (self->approval);
  AgentTool *tool = agent_tool_approval_get_tool (self->approval);
  g_autofree char *body = NULL;
  g_autofree char *arguments = NULL;

  g_clear_pointer (&self->server, g_free);
  if (AGENT_IS_MCP_TOOL (tool))
    {
      g_autoptr(AgentMcpClient) client = agent_mcp_tool_dup_client (AGENT_MCP_TOOL (tool));

      self->server = client != NULL ? g_strdup (agent_mcp_client_get_name (client)) : NULL;
      /* Translators: the second %s is the name of a tool server (MCP) */
      body = g_strdup_printf (_("The model wants to run the tool “%s” of the tool server “%s” "
                                "with these arguments."),
                              agent_tool_call_get_name (call),
                              self->server != NULL ? self->server : "?");
    }
  else
    body = g_strdup_printf (_("The model wants to run the tool “%s” with these arguments."),
                            agent_tool_call_get_name (call));
  gtk_label_set_text (GTK_LABEL (self->body_label), body);
  arguments = _agent_gtk_pretty_json (agent_tool_call_get_arguments (call));
  gtk_label_set_text (GTK_LABEL (self->arguments_label), arguments);

  if (self->server != NULL)
    {
      /* Underscores are mnemonics in a button's label */
      g_auto(GStrv) parts = g_strsplit (self->server, "_", -1);
      g_autofree char *name = g_strjoinv ("__", parts);
      /* Translators: a button; %s is the name of a tool server (MCP) */
      g_autofree char *label = g_strdup_printf (_("Allow All Tools of “%s” in This "
                                                  "Conversation"), name);

      gtk_label_set_text_with_mnemonic (GTK_LABEL (self->server_label), label);
    }
  gtk_widget_set_visible (self->conversation_button, self->offer_conversation);
  gtk_widget_set_visible (self->server_button, self->offer_conversation && self->server != NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  body, -1);
}

static gboolean
agent_gtk_approval_prompt_grab_focus (GtkWidget *widget)
{
  AgentGtkApprovalPrompt *self = AGENT_GTK_APPROVAL_PROMPT (widget);

  return gtk_widget_grab_focus (self->once_button);
}

static void
agent_gtk_approval_prompt_constructed (GObject *object)
{
  AgentGtkApprovalPrompt *self = AGENT_GTK_APPROVAL_PROMPT (object);

  G_OBJECT_CLASS (agent_gtk_approval_prompt_parent_class)->constructed (object);

  g_return_if_fail (AGENT_IS_TOOL_APPROVAL (self->approval));

  update (self);
  if (agent_tool_approval_is_answered (self->approval) ||
      g_cancellable_is_cancelled (agent_tool_approval_get_cancellable (self->approval)))
    {
      set_pending (self, FALSE);
      return;
    }
  g_signal_connect_object (self->approval, "notify::answered", G_CALLBACK (on_answered), self,
                           G_CONNECT_SWAPPED);
  self->cancelled_id = g_cancellable_connect (agent_tool_approval_get_cancellable (self->approval),
                                              G_CALLBACK (on_cancelled), self, NULL);
}

static void
agent_gtk_approval_prompt_dispose (GObject *object)
{
  AgentGtkApprovalPrompt *self = AGENT_GTK_APPROVAL_PROMPT (object);

  disconnect_approval (self);
  gtk_widget_dispose_template (GTK_WIDGET (self), AGENT_GTK_TYPE_APPROVAL_PROMPT);

  G_OBJECT_CLASS (agent_gtk_approval_prompt_parent_class)->dispose (object);
}

static void
agent_gtk_approval_prompt_finalize (GObject *object)
{
  AgentGtkApprovalPrompt *self = AGENT_GTK_APPROVAL_PROMPT (object);

  g_clear_object (&self->approval);
  g_free (self->server);

  G_OBJECT_CLASS (agent_gtk_approval_prompt_parent_class)->finalize (object);
}

static void
agent_gtk_approval_prompt_get_property (GObject    *object,
                                        guint       prop_id,
                                        GValue     *value,
                                        GParamSpec *pspec)
{
  AgentGtkApprovalPrompt *self = AGENT_GTK_APPROVAL_PROMPT (object);

  switch (prop_id)
    {
    case PROP_APPROVAL:
      g_value_set_object (value, self->approval);
      break;
    case PROP_OFFER_CONVERSATION:
      g_value_set_boolean (value, self->offer_conversation);
      break;
    case PROP_PENDING:
      g_value_set_boolean (value, self->pending);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_gtk_approval_prompt_set_property (GObject      *object,
                                        guint         prop_id,
                                        const GValue *value,
                                        GParamSpec   *pspec)
{
  AgentGtkApprovalPrompt *self = AGENT_GTK_APPROVAL_PROMPT (object);

  switch (prop_id)
    {
    case PROP_APPROVAL:
      self->approval = g_value_dup_object (value);
      break;
    case PROP_OFFER_CONVERSATION:
      agent_gtk_approval_prompt_set_offer_conversation (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_gtk_approval_prompt_class_init (AgentGtkApprovalPromptClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = agent_gtk_approval_prompt_constructed;
  object_class->dispose = agent_gtk_approval_prompt_dispose;
  object_class->finalize = agent_gtk_approval_prompt_finalize;
  object_class->get_property = agent_gtk_approval_prompt_get_property;
  object_class->set_property = agent_gtk_approval_prompt_set_property;
  widget_class->grab_focus = agent_gtk_approval_prompt_grab_focus;

  /**
   * AgentGtkApprovalPrompt:approval:
   *
   * The question the prompt asks: which tool, with which call, and the
   * cancellable of the turn that waits for it.
   *
   * Since: 0.1
   */
  properties[PROP_APPROVAL] =
    g_param_spec_object ("approval", NULL, NULL, AGENT_TYPE_TOOL_APPROVAL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * AgentGtkApprovalPrompt:offer-conversation:
   *
   * Whether the prompt offers to allow the tool (and, for a tool of an MCP
   * server, all the tools of its server) for the rest of the conversation:
   * only an application that keeps that choice turns it on, reading it from
   * [signal@AgentGtk.ApprovalPrompt::answered].
   *
   * Since: 0.1
   */
  properties[PROP_OFFER_CONVERSATION] =
    g_param_spec_boolean ("offer-conversation", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * AgentGtkApprovalPrompt:pending:
   *
   * Whether the question waits for an answer: it no longer does once
   * answered (here or elsewhere), or when its turn was stopped.
   *
   * Since: 0.1
   */
  properties[PROP_PENDING] =
    g_param_spec_boolean ("pending", NULL, NULL, TRUE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * AgentGtkApprovalPrompt::answered:
   * @self: the prompt
   * @answer: what the user answered
   *
   * The user answered, and the prompt allowed or denied the approval
   * accordingly. An answer for the conversation
   * ([enum@AgentGtk.ApprovalAnswer]) is the application's to keep.
   *
   * Since: 0.1
   */
  signals[ANSWERED] = g_signal_new ("answered", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                    NULL, NULL, NULL, G_TYPE_NONE, 1,
                                    AGENT_GTK_TYPE_APPROVAL_ANSWER);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/libagent/Gtk/agent-gtk-approval-prompt.ui");
  gtk_widget_class_bind_template_child (widget_class, AgentGtkApprovalPrompt, box);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkApprovalPrompt, heading_label);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkApprovalPrompt, body_label);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkApprovalPrompt, arguments_label);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkApprovalPrompt, deny_button);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkApprovalPrompt, server_button);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkApprovalPrompt, server_label);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkApprovalPrompt, conversation_button);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkApprovalPrompt, once_button);
  gtk_widget_class_bind_template_callback (widget_class, on_deny_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_once_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_conversation_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_server_clicked);
  gtk_widget_class_install_action (widget_class, "approval.deny", NULL, deny_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "approval.deny", NULL);
  gtk_widget_class_set_css_name (widget_class, "approvalprompt");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
agent_gtk_approval_prompt_init (AgentGtkApprovalPrompt *self)
{
  AGENT_GTK_INSTANCE_INIT ();
  self->pending = TRUE;
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_widget_set_visible (self->conversation_button, FALSE);
}

/**
 * agent_gtk_approval_prompt_new:
 * @approval: the question: a tool that wants to run, from
 *   [signal@Agent.Session::approve-tool-call]
 *
 * Creates a prompt that asks whether a tool may run. The chat view shows
 * one for each question by itself; put one in a dialog, or anywhere,
 * to ask elsewhere.
 *
 * Returns: (transfer floating): a new approval prompt
 *
 * Since: 0.1
 */
GtkWidget *
agent_gtk_approval_prompt_new (AgentToolApproval *approval)
{
  g_return_val_if_fail (AGENT_IS_TOOL_APPROVAL (approval), NULL);

  return g_object_new (AGENT_GTK_TYPE_APPROVAL_PROMPT, "approval", approval, NULL);
}

/**
 * agent_gtk_approval_prompt_get_approval:
 * @self: an approval prompt
 *
 * Gets the question the prompt asks.
 *
 * Returns: (transfer none): the approval
 *
 * Since: 0.1
 */
AgentToolApproval *
agent_gtk_approval_prompt_get_approval (AgentGtkApprovalPrompt *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_APPROVAL_PROMPT (self), NULL);
  return self->approval;
}

/**
 * agent_gtk_approval_prompt_get_offer_conversation:
 * @self: an approval prompt
 *
 * Gets whether the prompt offers to allow the tool for the conversation.
 *
 * Returns: whether the answers for the conversation are offered
 *
 * Since: 0.1
 */
gboolean
agent_gtk_approval_prompt_get_offer_conversation (AgentGtkApprovalPrompt *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_APPROVAL_PROMPT (self), FALSE);
  return self->offer_conversation;
}

/**
 * agent_gtk_approval_prompt_set_offer_conversation:
 * @self: an approval prompt
 * @offer_conversation: whether to offer the answers for the conversation
 *
 * Sets [property@AgentGtk.ApprovalPrompt:offer-conversation].
 *
 * Since: 0.1
 */
void
agent_gtk_approval_prompt_set_offer_conversation (AgentGtkApprovalPrompt *self,
                                                  gboolean                offer_conversation)
{
  g_return_if_fail (AGENT_GTK_IS_APPROVAL_PROMPT (self));

  offer_conversation = !!offer_conversation;
  if (self->offer_conversation == offer_conversation)
    return;
  self->offer_conversation = offer_conversation;
  gtk_widget_set_visible (self->conversation_button, offer_conversation);
  gtk_widget_set_visible (self->server_button, offer_conversation && self->server != NULL);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OFFER_CONVERSATION]);
}

/**
 * agent_gtk_approval_prompt_get_pending:
 * @self: an approval prompt
 *
 * Gets whether the question still waits for an answer.
 *
 * Returns: whether the question waits
 *
 * Since: 0.1
 */
gboolean
agent_gtk_approval_prompt_get_pending (AgentGtkApprovalPrompt *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_APPROVAL_PROMPT (self), FALSE);
  return self->pending;
}

/* The prompt in a dialog (agent-gtk-dialog.c): closing it denies the
 * tool; it goes once the question is answered or the turn stopped */
static gboolean
on_dialog_closed (AgentGtkApprovalPrompt *self)
{
  agent_gtk_approval_prompt_answer (self, AGENT_GTK_APPROVAL_ANSWER_DENY);
  return FALSE;
}

/**
 * agent_gtk_approval_prompt_present:
 * @self: an approval prompt, not in a parent yet
 * @parent: (nullable): a widget of the window the question is about
 *
 * Shows the prompt in a dialog over @parent's window, for an application
 * that asks in a dialog rather than in its chat view (an
 * [class@Adw.Dialog] where libadwaita is 1.5 or later, a modal window
 * before, no wider than @parent's window). The dialog goes once the
 * question is answered, in it or elsewhere, or once its turn is stopped;
 * closing it denies the tool.
 *
 * Since: 0.1
 */
void
agent_gtk_approval_prompt_present (AgentGtkApprovalPrompt *self,
                                   GtkWidget              *parent)
{
  g_return_if_fail (AGENT_GTK_IS_APPROVAL_PROMPT (self));
  g_return_if_fail (gtk_widget_get_parent (GTK_WIDGET (self)) == NULL);
  g_return_if_fail (parent == NULL || GTK_IS_WIDGET (parent));

  _agent_gtk_dialog_present (GTK_WIDGET (self), parent, _("Allow This Tool?"), NULL,
                             G_CALLBACK (on_dialog_closed));
}
