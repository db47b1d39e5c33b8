/* agent-chat-mcp-elicit.c
 *
 * An MCP server's requests for the user's input (elicitation) in the app.
 * One for each server of the app (AgentChatMcpServers keeps them, as it
 * keeps their sign-ins): it says the app can answer (handles-elicitation,
 * from the server's next connection; the app's capability, never written
 * to mcp.json) and shows each request in libagent-gtk's
 * AgentGtkElicitationForm, in a dialog over the window the user works in:
 * the active window if it is shown, else a shown window whose turn is
 * running (the request comes from one of its tool calls), else any shown
 * window. The form keeps the request until the user answers it or the
 * server withdraws it; closing the dialog cancels it. A request that comes
 * while no window is shown (the app runs in the background) is declined:
 * nobody could answer it, and the server should not wait for nobody.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <agent-gtk.h>

#include "agent-chat-mcp-elicit.h"
#include "agent-chat-window.h"

struct _AgentChatMcpElicit
{
  GObject         parent_instance;

  AgentMcpClient *client;
};

G_DEFINE_FINAL_TYPE (AgentChatMcpElicit, agent_chat_mcp_elicit, G_TYPE_OBJECT)

static gboolean
is_shown (GtkWindow *window)
{
  return window != NULL && gtk_widget_get_mapped (GTK_WIDGET (window));
}

static gboolean
is_running (GtkWindow *window)
{
  AgentSession *session;

  if (!AGENT_CHAT_IS_WINDOW (window))
    return FALSE;
  session = agent_chat_window_get_session (AGENT_CHAT_WINDOW (window));
  return session != NULL && agent_session_get_busy (session);
}

/**
 * agent_chat_mcp_elicit_pick_window:
 * @application: the app
 *
 * Returns: (transfer none) (nullable): the window a request for input is
 *   shown over: the active one if it is shown, else a shown one whose turn
 *   is running, else any shown one; %NULL when none is shown
 */
GtkWindow *
agent_chat_mcp_elicit_pick_window (GtkApplication *application)
{
  GtkWindow *active;
  GtkWindow *any = NULL;

  g_return_val_if_fail (application == NULL || GTK_IS_APPLICATION (application), NULL);

  if (application == NULL)
    return NULL;
  active = gtk_application_get_active_window (application);
  if (is_shown (active))
    return active;
  for (GList *l = gtk_application_get_windows (application); l != NULL; l = l->next)
    {
      GtkWindow *window = l->data;

      if (!is_shown (window))
        continue;
      if (is_running (window))
        return window;
      if (any == NULL)
        any = window;
    }
  return any;
}

static void
on_elicitation (AgentMcpClient      *client,
                AgentMcpElicitation *request,
                AgentChatMcpElicit  *self)
{
  GApplication *application = g_application_get_default ();
  GtkWindow *window = NULL;
  GtkWidget *form;

  if (GTK_IS_APPLICATION (application))
    window = agent_chat_mcp_elicit_pick_window (GTK_APPLICATION (application));
  if (window == NULL)
    {
      g_debug ("MCP server “%s” asked for input while no window is shown: declined",
               agent_mcp_elicitation_get_server_name (request));
      agent_mcp_elicitation_decline (request);
      return;
    }

  /* The form holds the request, and its dialog the form, until it is
   * answered or withdrawn */
  form = agent_gtk_elicitation_form_new (request);
  agent_gtk_elicitation_form_present (AGENT_GTK_ELICITATION_FORM (form), GTK_WIDGET (window));
}

static void
agent_chat_mcp_elicit_dispose (GObject *object)
{
  AgentChatMcpElicit *self = AGENT_CHAT_MCP_ELICIT (object);

  if (self->client != NULL)
    g_signal_handlers_disconnect_by_data (self->client, self);
  g_clear_object (&self->client);

  G_OBJECT_CLASS (agent_chat_mcp_elicit_parent_class)->dispose (object);
}

static void
agent_chat_mcp_elicit_class_init (AgentChatMcpElicitClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = agent_chat_mcp_elicit_dispose;
}

static void
agent_chat_mcp_elicit_init (AgentChatMcpElicit *self)
{
}

/**
 * agent_chat_mcp_elicit_new:
 * @client: one of the app's servers
 *
 * Makes @client declare that the app answers requests for input, from its
 * next connection, and shows them as they come.
 *
 * Returns: (transfer full): the handler of @client's requests
 */
AgentChatMcpElicit *
agent_chat_mcp_elicit_new (AgentMcpClient *client)
{
  AgentChatMcpElicit *self;

  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (client), NULL);

  self = g_object_new (AGENT_CHAT_TYPE_MCP_ELICIT, NULL);
  self->client = g_object_ref (client);
  agent_mcp_client_set_handles_elicitation (client, TRUE);
  g_signal_connect (client, "elicitation", G_CALLBACK (on_elicitation), self);
  return self;
}
