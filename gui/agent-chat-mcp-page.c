/* agent-chat-mcp-page.c
 *
 * The Tool Servers page of the preferences: the app's MCP servers, one
 * expander row each (AgentChatMcpRow), an Add Server button that opens
 * AgentChatMcpDialog, and where the configuration file is.
 *
 * Its actions do the changes, and say in a toast when the file could not
 * be written:
 *   mcp.add                 opens the Add Server dialog
 *   mcp.set-enabled (sb)    uses a server or not
 *   mcp.remove (s)          removes a server
 *   mcp.reconnect (s)       connects a failed server again
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agent-chat-mcp-dialog.h"
#include "agent-chat-mcp-page.h"

struct _AgentChatMcpPage
{
  AdwPreferencesPage   parent_instance;

  GtkListBox          *list_box;
  GtkLabel            *file_label;
  GtkLabel            *load_error_label;

  AgentChatMcpServers *servers;
};

G_DEFINE_FINAL_TYPE (AgentChatMcpPage, agent_chat_mcp_page, ADW_TYPE_PREFERENCES_PAGE)

static void
show_toast (AgentChatMcpPage *self,
            const char       *text)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  AdwToast *toast = adw_toast_new (text);

  if (ADW_IS_PREFERENCES_WINDOW (root))
    adw_preferences_window_add_toast (ADW_PREFERENCES_WINDOW (root), toast);
  else
    {
      g_message ("%s", text);
      g_object_unref (g_object_ref_sink (toast));
    }
}

static void
show_error (AgentChatMcpPage *self,
            const GError     *error)
{
  g_autofree char *text = g_strdup_printf (_("The servers could not be saved: %s"),
                                           error->message);

  show_toast (self, text);
}

static AgentMcpClient *
lookup (AgentChatMcpPage *self,
        GVariant         *parameter)
{
  const char *name = NULL;

  g_variant_get_child (parameter, 0, "&s", &name);
  return agent_mcp_server_list_lookup (agent_chat_mcp_servers_get_list (self->servers), name);
}

/**
 * agent_chat_mcp_page_add_server:
 * @self: a #AgentChatMcpPage
 *
 * Opens the Add Server dialog.
 *
 * Returns: (transfer none): the dialog
 */
GtkWidget *
agent_chat_mcp_page_add_server (AgentChatMcpPage *self)
{
  GtkRoot *root;
  GtkWidget *dialog;

  g_return_val_if_fail (AGENT_CHAT_IS_MCP_PAGE (self), NULL);

  root = gtk_widget_get_root (GTK_WIDGET (self));
  dialog = agent_chat_mcp_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                      self->servers);
  gtk_window_present (GTK_WINDOW (dialog));
  return dialog;
}

static void
add_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *parameter)
{
  agent_chat_mcp_page_add_server (AGENT_CHAT_MCP_PAGE (widget));
}

static void
set_enabled_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  AgentChatMcpPage *self = AGENT_CHAT_MCP_PAGE (widget);
  AgentMcpClient *client = lookup (self, parameter);
  g_autoptr(GError) error = NULL;
  gboolean enabled = FALSE;

  g_variant_get_child (parameter, 1, "b", &enabled);
  if (client != NULL &&
      !agent_chat_mcp_servers_set_enabled (self->servers, client, enabled, &error))
    show_error (self, error);
}

static void
remove_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  AgentChatMcpPage *self = AGENT_CHAT_MCP_PAGE (widget);
  const char *name = g_variant_get_string (parameter, NULL);
  g_autoptr(GError) error = NULL;

  if (!agent_chat_mcp_servers_remove (self->servers, name, &error))
    show_error (self, error);
  else
    {
      g_autofree char *text = g_strdup_printf (_("“%s” was removed"), name);

      show_toast (self, text);
    }
}

static void
reconnect_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  AgentChatMcpPage *self = AGENT_CHAT_MCP_PAGE (widget);
  AgentMcpServerList *list = agent_chat_mcp_servers_get_list (self->servers);
  AgentMcpClient *client = agent_mcp_server_list_lookup (list,
                                                         g_variant_get_string (parameter, NULL));

  if (client != NULL)
    agent_chat_mcp_servers_reconnect (self->servers, client);
}

static GtkWidget *
create_row (gpointer item,
            gpointer user_data)
{
  AgentChatMcpPage *self = user_data;

  return agent_chat_mcp_row_new (item, agent_chat_mcp_servers_get_sign_in (self->servers, item));
}

static void
agent_chat_mcp_page_dispose (GObject *object)
{
  AgentChatMcpPage *self = AGENT_CHAT_MCP_PAGE (object);

  if (self->list_box != NULL)
    gtk_list_box_bind_model (self->list_box, NULL, NULL, NULL, NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), AGENT_CHAT_TYPE_MCP_PAGE);
  g_clear_object (&self->servers);

  G_OBJECT_CLASS (agent_chat_mcp_page_parent_class)->dispose (object);
}

static void
agent_chat_mcp_page_class_init (AgentChatMcpPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = agent_chat_mcp_page_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/libagent/Chat/agent-chat-mcp-page.ui");
  gtk_widget_class_bind_template_child (widget_class, AgentChatMcpPage, list_box);
  gtk_widget_class_bind_template_child (widget_class, AgentChatMcpPage, file_label);
  gtk_widget_class_bind_template_child (widget_class, AgentChatMcpPage, load_error_label);

  gtk_widget_class_install_action (widget_class, "mcp.add", NULL, add_action);
  gtk_widget_class_install_action (widget_class, "mcp.set-enabled", "(sb)", set_enabled_action);
  gtk_widget_class_install_action (widget_class, "mcp.remove", "s", remove_action);
  gtk_widget_class_install_action (widget_class, "mcp.reconnect", "s", reconnect_action);
}

static void
agent_chat_mcp_page_init (AgentChatMcpPage *self)
{
  GtkWidget *placeholder;

  g_type_ensure (AGENT_CHAT_TYPE_MCP_ROW);
  gtk_widget_init_template (GTK_WIDGET (self));

  placeholder = gtk_label_new (_("No servers yet"));
  gtk_widget_add_css_class (placeholder, "dim-label");
  gtk_widget_set_margin_top (placeholder, 12);
  gtk_widget_set_margin_bottom (placeholder, 12);
  gtk_list_box_set_placeholder (self->list_box, placeholder);
}

/**
 * agent_chat_mcp_page_new:
 * @servers: the app's MCP servers
 *
 * Returns: (transfer floating): a preferences page that shows and changes
 *   @servers
 */
GtkWidget *
agent_chat_mcp_page_new (AgentChatMcpServers *servers)
{
  AgentChatMcpPage *self;
  const GError *load_error;
  g_autofree char *file = NULL;

  g_return_val_if_fail (AGENT_CHAT_IS_MCP_SERVERS (servers), NULL);

  self = g_object_new (AGENT_CHAT_TYPE_MCP_PAGE, NULL);
  self->servers = g_object_ref (servers);
  gtk_list_box_bind_model (self->list_box,
                           G_LIST_MODEL (agent_chat_mcp_servers_get_list (servers)),
                           create_row, self, NULL);

  file = g_strdup_printf (_("Kept in %s, in the “mcpServers” form other MCP clients read."),
                          agent_chat_mcp_servers_get_path (servers));
  gtk_label_set_text (self->file_label, file);
  if ((load_error = agent_chat_mcp_servers_get_load_error (servers)) != NULL)
    {
      g_autofree char *text = g_strdup_printf (_("The file could not be read, so it is left "
                                                 "alone: %s"), load_error->message);

      gtk_label_set_text (self->load_error_label, text);
      gtk_widget_set_visible (GTK_WIDGET (self->load_error_label), TRUE);
    }
  return GTK_WIDGET (self);
}

AgentChatMcpServers *
agent_chat_mcp_page_get_servers (AgentChatMcpPage *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_MCP_PAGE (self), NULL);
  return self->servers;
}

/**
 * agent_chat_mcp_page_find_row:
 * @self: a #AgentChatMcpPage
 * @name: a server's name
 *
 * Returns: (transfer none) (nullable): the row of that server
 */
AgentChatMcpRow *
agent_chat_mcp_page_find_row (AgentChatMcpPage *self,
                              const char       *name)
{
  g_return_val_if_fail (AGENT_CHAT_IS_MCP_PAGE (self), NULL);

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->list_box));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      AgentMcpClient *client;

      if (!AGENT_CHAT_IS_MCP_ROW (child))
        continue;
      client = agent_chat_mcp_row_get_client (AGENT_CHAT_MCP_ROW (child));
      if (g_strcmp0 (agent_mcp_client_get_name (client), name) == 0)
        return AGENT_CHAT_MCP_ROW (child);
    }
  return NULL;
}
