/* agent-gtk-composer-resources.c
 *
 * The composer's MCP servers (:mcp-servers), and their resources: while a
 * connected server offers resources, the paperclip is a menu, “File…”
 * first (the file chooser, as the plain paperclip opens), then “From
 * <server>…” for each such server, which opens the server's resources
 * (agent-gtk-resource-picker.c). The resource picked is attached as a
 * file is: a chip above the text, sent with the message.
 *
 * The composer follows the list and each server's state: the menu changes
 * as servers connect and go, and the prompts of "/" are listed again
 * (agent-gtk-composer-prompts.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "agent-gtk-config.h"

#include <glib/gi18n-lib.h>

#include "agent-gtk-composer-private.h"
#include "agent-gtk-resource-picker-private.h"

/* Whether @client is connected and says it has @capability (a member of
 * its `capabilities`: "resources", "prompts") */
gboolean
_agent_gtk_composer_server_offers (AgentMcpClient *client,
                                   const char     *capability)
{
  JsonNode *capabilities;

  if (agent_mcp_client_get_state (client) != AGENT_MCP_CLIENT_STATE_READY)
    return FALSE;
  capabilities = agent_mcp_client_get_capabilities (client);
  return capabilities != NULL && JSON_NODE_HOLDS_OBJECT (capabilities) &&
         json_object_has_member (json_node_get_object (capabilities), capability);
}

/* The server of that name among :mcp-servers */
AgentMcpClient *
_agent_gtk_composer_lookup_server (AgentGtkComposer *self,
                                   const char       *name)
{
  guint n = self->mcp_servers ? g_list_model_get_n_items (self->mcp_servers) : 0;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AgentMcpClient) client = g_list_model_get_item (self->mcp_servers, i);

      if (g_strcmp0 (agent_mcp_client_get_name (client), name) == 0)
        return client;  /* the list holds it */
    }
  return NULL;
}

/* The menu */

static void
update_menu (AgentGtkComposer *self)
{
  guint n = self->mcp_servers ? g_list_model_get_n_items (self->mcp_servers) : 0;

  g_menu_remove_all (self->server_menu);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AgentMcpClient) client = g_list_model_get_item (self->mcp_servers, i);
      g_autoptr(GMenuItem) item = NULL;
      g_autofree char *label = NULL;

      if (!_agent_gtk_composer_server_offers (client, "resources"))
        continue;
      /* Translators: an item of the attach menu; %s is an MCP server's name */
      label = g_strdup_printf (_("From %s…"), agent_mcp_client_get_name (client));
      item = g_menu_item_new (label, NULL);
      g_menu_item_set_action_and_target (item, "composer-attach.resource", "s",
                                         agent_mcp_client_get_name (client));
      g_menu_append_item (self->server_menu, item);
    }
  n = g_menu_model_get_n_items (G_MENU_MODEL (self->server_menu));
  gtk_widget_set_visible (self->attach_menu_button, n > 0);
  gtk_widget_set_visible (self->attach_button, n == 0);
}

static void
on_server_state_changed (AgentGtkComposer *self)
{
  update_menu (self);
  _agent_gtk_composer_update_prompts (self);
}

static void
unwatch (AgentGtkComposer *self)
{
  for (guint i = 0; self->watched != NULL && i < self->watched->len; i++)
    g_signal_handlers_disconnect_by_func (g_ptr_array_index (self->watched, i),
                                          on_server_state_changed, self);
  if (self->watched != NULL)
    g_ptr_array_set_size (self->watched, 0);
}

/* :mcp-servers changed, or its items did */
void
_agent_gtk_composer_mcp_servers_changed (AgentGtkComposer *self)
{
  guint n = self->mcp_servers ? g_list_model_get_n_items (self->mcp_servers) : 0;

  unwatch (self);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AgentMcpClient) client = g_list_model_get_item (self->mcp_servers, i);

      g_signal_connect_object (client, "notify::state", G_CALLBACK (on_server_state_changed),
                               self, G_CONNECT_SWAPPED);
      g_signal_connect_object (client, "prompts-changed", G_CALLBACK (on_server_state_changed),
                               self, G_CONNECT_SWAPPED);
      g_ptr_array_add (self->watched, g_steal_pointer (&client));
    }
  on_server_state_changed (self);
}

/* The picker */

static void
on_resource_attach (AgentGtkComposer *self,
                    GListModel       *parts)
{
  for (guint i = 0; self->attachments != NULL && i < g_list_model_get_n_items (parts); i++)
    {
      g_autoptr(AgentContentPart) part = g_list_model_get_item (parts, i);

      agent_gtk_composer_add_attachment (self, part);
    }
}

static void
on_picker_destroyed (AgentGtkComposer *self)
{
  self->resource_picker = NULL;
  if (self->text_view != NULL)
    gtk_widget_grab_focus (self->text_view);
}

static void
resource_action (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       user_data)
{
  AgentGtkComposer *self = user_data;
  AgentMcpClient *client = _agent_gtk_composer_lookup_server (self,
                                                              g_variant_get_string (parameter,
                                                                                    NULL));
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  if (client == NULL || self->resource_picker != NULL)
    return;
  self->resource_picker = agent_gtk_resource_picker_new (client,
                                                         GTK_IS_WINDOW (root) ? GTK_WINDOW (root)
                                                                              : NULL);
  g_signal_connect_object (self->resource_picker, "attach", G_CALLBACK (on_resource_attach), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->resource_picker, "destroy", G_CALLBACK (on_picker_destroyed),
                           self, G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (self->resource_picker));
}

static void
file_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  gtk_widget_activate_action (GTK_WIDGET (user_data), "composer.attach", NULL);
}

void
_agent_gtk_composer_init_resources (AgentGtkComposer *self)
{
  static const GActionEntry entries[] = {
    { .name = "file", .activate = file_action },
    { .name = "resource", .activate = resource_action, .parameter_type = "s" },
  };
  g_autoptr(GSimpleActionGroup) group = g_simple_action_group_new ();
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autoptr(GMenu) files = g_menu_new ();

  self->watched = g_ptr_array_new_with_free_func (g_object_unref);
  g_action_map_add_action_entries (G_ACTION_MAP (group), entries, G_N_ELEMENTS (entries), self);
  /* On the menu button itself: GTK 4.8 leaves a button of the template out
   * of the composer's actions (as agent-gtk-composer-attachments.c says of
   * the paperclip), and its menu's items would stay insensitive */
  gtk_widget_insert_action_group (self->attach_menu_button, "composer-attach",
                                  G_ACTION_GROUP (group));

  g_menu_append (files, _("_File…"), "composer-attach.file");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (files));
  self->server_menu = g_menu_new ();
  g_menu_append_section (menu, NULL, G_MENU_MODEL (self->server_menu));
  gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (self->attach_menu_button), G_MENU_MODEL (menu));
}

void
_agent_gtk_composer_dispose_resources (AgentGtkComposer *self)
{
  unwatch (self);
  g_clear_pointer (&self->watched, g_ptr_array_unref);
  if (self->mcp_servers != NULL)
    g_signal_handlers_disconnect_by_func (self->mcp_servers,
                                          _agent_gtk_composer_mcp_servers_changed, self);
  g_clear_object (&self->mcp_servers);
  if (self->resource_picker != NULL)
    {
      GtkWidget *picker = g_steal_pointer (&self->resource_picker);

      g_signal_handlers_disconnect_by_data (picker, self);
      gtk_window_destroy (GTK_WINDOW (picker));
    }
  g_clear_object (&self->server_menu);
}
