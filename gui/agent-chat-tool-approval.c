/* agent-chat-tool-approval.c
 *
 * The question of ApproveToolCall (agent-chat-consent.c): may an
 * application of the desktop service run its own tool, called by the model
 * of one of its conversations? A dialog naming the application and the
 * tool, with the tool's description (the application's words) and the
 * call's arguments as pretty JSON in a scrollable monospace view, cut after
 * MAX_SHOWN_CHARS. Its responses: Deny (the default, and Escape), Allow
 * Once, Always Allow (the service remembers the tool for the application).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "agent-chat-tool-approval.h"

/* The arguments shown: enough to judge, not a wall of text */
#define MAX_SHOWN_CHARS 8192

struct _AgentChatToolApproval
{
  AdwMessageDialog  parent_instance;

  GtkWidget        *arguments_label;
};

G_DEFINE_FINAL_TYPE (AgentChatToolApproval, agent_chat_tool_approval, ADW_TYPE_MESSAGE_DIALOG)

static void
agent_chat_tool_approval_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), AGENT_CHAT_TYPE_TOOL_APPROVAL);

  G_OBJECT_CLASS (agent_chat_tool_approval_parent_class)->dispose (object);
}

static void
agent_chat_tool_approval_class_init (AgentChatToolApprovalClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = agent_chat_tool_approval_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/libagent/Chat/"
                                               "agent-chat-tool-approval.ui");
  gtk_widget_class_bind_template_child (widget_class, AgentChatToolApproval, arguments_label);
}

static void
agent_chat_tool_approval_init (AgentChatToolApproval *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/* @arguments as pretty JSON (as they are when they are not JSON), cut */
static char *
dup_shown_arguments (const char *arguments)
{
  g_autoptr(JsonNode) node = json_from_string (arguments, NULL);
  g_autofree char *text = node ? json_to_string (node, TRUE) : g_strdup (arguments);

  if (!g_utf8_validate (text, -1, NULL))
    return g_utf8_make_valid (text, -1);
  if (g_utf8_strlen (text, -1) > MAX_SHOWN_CHARS)
    {
      g_autofree char *cut = g_utf8_substring (text, 0, MAX_SHOWN_CHARS);

      return g_strconcat (cut, "\n…", NULL);
    }
  return g_steal_pointer (&text);
}

/**
 * agent_chat_tool_approval_new:
 * @parent: (nullable): the window it shows over
 * @app_id: the application's id, a Flatpak id or a program's path
 * @app_name: the application's name, to show
 * @tool_name: the tool the model calls
 * @description: the tool's description, from the application ("" for none)
 * @arguments: the call's arguments, JSON
 *
 * Returns: (transfer floating): the question, not shown yet
 */
GtkWidget *
agent_chat_tool_approval_new (GtkWindow  *parent,
                              const char *app_id,
                              const char *app_name,
                              const char *tool_name,
                              const char *description,
                              const char *arguments)
{
  AgentChatToolApproval *self = g_object_new (AGENT_CHAT_TYPE_TOOL_APPROVAL,
                                              "transient-for", parent, NULL);
  g_autofree char *heading = NULL;
  g_autofree char *body = NULL;
  g_autofree char *shown = dup_shown_arguments (arguments);

  /* Translators: the first %s is an application's name, the second the
   * name of one of its tools */
  heading = g_strdup_printf (_("Allow “%s” to run “%s”?"), app_name, tool_name);
  if (description != NULL && description[0] != '\0')
    /* Translators: the first %s is an application's id (a Flatpak id or a
     * program's path), the second its own description of the tool */
    body = g_strdup_printf (_("The model of a conversation of %s wants to run this tool of the "
                              "application, with the arguments below. The application "
                              "describes it as: %s"), app_id, description);
  else
    /* Translators: %s is an application's id (a Flatpak id or a program's path) */
    body = g_strdup_printf (_("The model of a conversation of %s wants to run this tool of the "
                              "application, with the arguments below."), app_id);
  adw_message_dialog_set_heading (ADW_MESSAGE_DIALOG (self), heading);
  adw_message_dialog_set_body (ADW_MESSAGE_DIALOG (self), body);
  gtk_label_set_text (GTK_LABEL (self->arguments_label), shown);
  return GTK_WIDGET (self);
}

/**
 * agent_chat_tool_approval_answer:
 * @response: the dialog's response
 *
 * Returns: (transfer floating): ApproveToolCall's answer to @response,
 *   (allowed, remember)
 */
GVariant *
agent_chat_tool_approval_answer (const char *response)
{
  gboolean once = g_strcmp0 (response, "once") == 0;
  gboolean always = g_strcmp0 (response, "always") == 0;

  return g_variant_new ("(bb)", once || always, always);
}
