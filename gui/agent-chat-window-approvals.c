/* agent-chat-window-approvals.c
 *
 * The window's questions about tools, and its notifications:
 *
 * - a tool that asks first (read_file, an untrusted MCP server's tools)
 *   runs once allowed in the chat view's approval prompt (libagent-gtk's):
 *   once, or for the conversation (the tool, or all the tools of its MCP server), which is
 *   kept with the conversation (agent-chat-approvals.c) and given back from
 *   the main menu's Allowed Tools;
 * - an answer, or a question about a tool, that comes while the window is
 *   not the active one (having been it) is told in a desktop notification
 *   (GNotification);
 *   clicking it brings the window forward (app.present-window), and it goes
 *   once the window is active again.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agent-chat-approvals.h"
#include "agent-chat-window-private.h"

/* Notifications, while the window is not the one in use */

/* Whether the window, or a dialog of its own, has the keyboard */
static gboolean
in_use (AgentChatWindow *self)
{
  g_autoptr(GList) toplevels = gtk_window_list_toplevels ();

  for (GList *l = toplevels; l != NULL; l = l->next)
    if (gtk_window_is_active (l->data) &&
        (l->data == (gpointer) self ||
         gtk_window_get_transient_for (l->data) == GTK_WINDOW (self)))
      return TRUE;
  return FALSE;
}

void
_agent_chat_window_notify_away (AgentChatWindow *self,
                                const char      *title,
                                const char      *body)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  g_autoptr(GNotification) notification = NULL;
  g_autofree char *id = NULL;
  guint window_id;

  /* Not in use: another window has the keyboard, after this one had it (a
   * window that never had it, as with no window manager, says nothing) */
  if (app == NULL || in_use (self) || !self->was_active)
    return;
  window_id = gtk_application_window_get_id (GTK_APPLICATION_WINDOW (self));
  notification = g_notification_new (title);
  if (body != NULL)
    g_notification_set_body (notification, body);
  g_notification_set_default_action_and_target (notification, "app.present-window", "u",
                                                window_id);
  id = g_strdup_printf ("window-%u", window_id);
  g_application_send_notification (G_APPLICATION (app), id, notification);
  self->notified = TRUE;
}

void
_agent_chat_window_is_active_changed (AgentChatWindow *self)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  g_autofree char *id = NULL;

  if (gtk_window_is_active (GTK_WINDOW (self)))
    self->was_active = TRUE;
  if (!self->notified || app == NULL || !gtk_window_is_active (GTK_WINDOW (self)))
    return;
  id = g_strdup_printf ("window-%u", gtk_application_window_get_id (GTK_APPLICATION_WINDOW (self)));
  g_application_withdraw_notification (G_APPLICATION (app), id);
  self->notified = FALSE;
}

/* The start of an answer, on one line */
char *
_agent_chat_window_excerpt (const char *text)
{
  g_autofree char *line = g_strdup (text ? text : "");
  const char *end;

  g_strdelimit (line, "\n\t", ' ');
  g_strstrip (line);
  if (g_utf8_strlen (line, -1) <= 140)
    return g_steal_pointer (&line);
  end = g_utf8_offset_to_pointer (line, 140);
  return g_strdup_printf ("%.*s…", (int) (end - line), line);
}

/* Tools allowed for the conversation: asked once, kept with it, given
 * back from the main menu (see agent-chat-approvals.c) */

/**
 * _agent_chat_window_update_approvals:
 * @self: a #AgentChatWindow
 *
 * The main menu lists what the conversation shown may run without asking,
 * each to give back, and all at once.
 */
void
_agent_chat_window_update_approvals (AgentChatWindow *self)
{
  AgentMemory *memory = self->session ? agent_session_get_memory (self->session) : NULL;
  g_auto(GStrv) keys = memory ? agent_chat_approvals_list (memory) : g_new0 (char *, 1);
  g_autoptr(GMenu) submenu = NULL;
  g_autoptr(GMenu) each = NULL;
  g_autoptr(GMenu) all = NULL;

  g_menu_remove_all (self->approvals_section);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.revoke-approvals", keys[0] != NULL);
  if (keys[0] == NULL)
    return;

  submenu = g_menu_new ();
  each = g_menu_new ();
  all = g_menu_new ();
  for (guint i = 0; keys[i] != NULL; i++)
    {
      g_autofree char *label = agent_chat_approvals_describe (keys[i]);
      g_autoptr(GMenuItem) item = g_menu_item_new (label, NULL);

      g_menu_item_set_action_and_target_value (item, "win.revoke-approval",
                                               g_variant_new_string (keys[i]));
      g_menu_append_item (each, item);
    }
  g_menu_append (all, _("Ask Again Before _Every Tool"), "win.revoke-approvals");
  g_menu_append_section (submenu, NULL, G_MENU_MODEL (each));
  g_menu_append_section (submenu, NULL, G_MENU_MODEL (all));
  g_menu_append_submenu (self->approvals_section, _("_Allowed Tools"), G_MENU_MODEL (submenu));
}

void
_agent_chat_window_revoke_approvals (GtkWidget  *widget,
                                     const char *action_name,
                                     GVariant   *parameter)
{
  AgentChatWindow *self = AGENT_CHAT_WINDOW (widget);
  AgentMemory *memory = self->session ? agent_session_get_memory (self->session) : NULL;
  g_autoptr(GError) error = NULL;

  if (memory != NULL &&
      !agent_chat_approvals_revoke (memory, parameter ? g_variant_get_string (parameter, NULL)
                                                      : NULL,
                                    &error))
    _agent_chat_window_show_error (self, error);
  _agent_chat_window_update_approvals (self);
}

/* An answer in the view's approval prompt: one for the conversation is
 * kept with it */
void
_agent_chat_window_approval_answered (AgentChatWindow        *self,
                                      AgentToolApproval      *approval,
                                      AgentGtkApprovalAnswer  answer)
{
  AgentMemory *memory = self->session ? agent_session_get_memory (self->session) : NULL;
  AgentTool *tool = agent_tool_approval_get_tool (approval);
  g_autoptr(GError) error = NULL;
  AgentChatAllowScope scope;

  if (answer == AGENT_GTK_APPROVAL_ANSWER_ALLOW_TOOL)
    scope = AGENT_CHAT_ALLOW_TOOL;
  else if (answer == AGENT_GTK_APPROVAL_ANSWER_ALLOW_SERVER)
    scope = AGENT_CHAT_ALLOW_SERVER;
  else
    return;
  if (memory == NULL || tool == NULL)
    return;
  if (!agent_chat_approvals_add (memory, tool, scope, &error))
    _agent_chat_window_show_error (self, error);
  _agent_chat_window_update_approvals (self);
}

/* Before the chat view's handler: a tool allowed for the conversation runs
 * without a question; otherwise the view asks, in its approval prompt */
gboolean
_agent_chat_window_approve_tool_call (AgentSession      *session,
                                      AgentToolCall     *call,
                                      AgentToolApproval *approval,
                                      AgentChatWindow   *self)
{
  AgentMemory *memory = agent_session_get_memory (session);
  AgentTool *tool = agent_tool_approval_get_tool (approval);
  /* Translators: a notification's text; %s is a tool */
  g_autofree char *body = g_strdup_printf (_("The model wants to run “%s”."),
                                           agent_tool_call_get_name (call));

  if (memory != NULL && tool != NULL && agent_chat_approvals_allows (memory, tool))
    {
      agent_tool_approval_allow (approval);
      return TRUE;
    }
  _agent_chat_window_notify_away (self, _("A Tool Waits for Your Approval"), body);
  return FALSE;
}
