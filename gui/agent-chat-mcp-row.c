/* agent-chat-mcp-row.c
 *
 * One MCP server in the preferences: its name, where it stands
 * (connecting, connected with N tools, failed and why, disabled; for a
 * server that requires OAuth: sign-in required, signing in, signed in, or
 * the step that failed) and its command or URL, a switch to use it, a
 * button to remove it, Sign In or Cancel while it waits for the browser,
 * and, expanded, the tools it offers (name and description) or its full
 * error with Retry, and Sign Out.
 *
 * The row changes nothing itself: it activates the page's actions
 * (mcp.set-enabled, mcp.remove, mcp.reconnect), which save the file, and
 * asks the server's AgentChatMcpSignIn to sign in or out.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agent-chat-mcp-row.h"
#include "agent-chat-mcp-servers.h"

/* How much of an error the row's subtitle shows */
#define MAX_STATUS_CHARS 120

struct _AgentChatMcpRow
{
  AdwExpanderRow  parent_instance;

  GtkSpinner     *spinner;
  GtkWidget      *error_icon;
  GtkSwitch      *enabled_switch;
  GtkWidget      *remove_button;
  GtkWidget      *sign_in_button;
  GtkWidget      *cancel_button;
  AdwActionRow   *error_row;
  GtkWidget      *account_row;
  GtkWidget      *sign_out_button;
  GtkWidget      *no_tools_row;

  AgentMcpClient *client;
  AgentChatMcpSignIn *sign_in;  /* or NULL */
  GPtrArray      *tool_rows;   /* of AdwActionRow, in the expander */
  guint           syncing : 1;
};

G_DEFINE_FINAL_TYPE (AgentChatMcpRow, agent_chat_mcp_row, ADW_TYPE_EXPANDER_ROW)

static void
update_tools (AgentChatMcpRow *self)
{
  GListModel *tools = agent_mcp_client_get_tools (self->client);
  gboolean ready = agent_mcp_client_get_state (self->client) == AGENT_MCP_CLIENT_STATE_READY;
  guint n = g_list_model_get_n_items (tools);

  for (guint i = 0; i < self->tool_rows->len; i++)
    adw_expander_row_remove (ADW_EXPANDER_ROW (self), g_ptr_array_index (self->tool_rows, i));
  g_ptr_array_set_size (self->tool_rows, 0);

  /* The tools of a server that went away stay listed (calling one starts
   * it again), but they show only while it is connected. */
  if (ready)
    for (guint i = 0; i < n; i++)
      {
        g_autoptr(AgentTool) tool = g_list_model_get_item (tools, i);
        GtkWidget *row = adw_action_row_new ();

        adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
        adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), agent_tool_get_name (tool));
        adw_action_row_set_subtitle (ADW_ACTION_ROW (row), agent_tool_get_description (tool));
        adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 3);
        adw_expander_row_add_row (ADW_EXPANDER_ROW (self), row);
        g_ptr_array_add (self->tool_rows, row);
      }
  gtk_widget_set_visible (self->no_tools_row, ready && n == 0);
}

/* Where the sign-in stands, in the row's status line; NULL: as the
 * connection says */
static char *
describe_sign_in (AgentChatMcpRow         *self,
                  AgentChatMcpSignInPhase  phase)
{
  g_autofree char *connection = NULL;
  const char *message;

  switch (phase)
    {
    case AGENT_CHAT_MCP_SIGN_IN_REQUIRED:
      return g_strdup (_("Sign In Required"));
    case AGENT_CHAT_MCP_SIGN_IN_WAITING:
      message = agent_chat_mcp_sign_in_get_message (self->sign_in);
      return g_strdup (message ? message : _("Signing In… Finish in your browser"));
    case AGENT_CHAT_MCP_SIGN_IN_FAILED:
      message = agent_chat_mcp_sign_in_get_message (self->sign_in);
      return g_strdup_printf (_("Signing in failed: %s"), message ? message : _("unknown error"));
    case AGENT_CHAT_MCP_SIGN_IN_SIGNED_IN:
      connection = agent_chat_mcp_describe_state (self->client);
      /* TRANSLATORS: "Signed In" and where the connection stands */
      return g_strdup_printf (_("Signed In · %s"), connection);
    case AGENT_CHAT_MCP_SIGN_IN_NONE:
    default:
      return NULL;
    }
}

static void
update (AgentChatMcpRow *self)
{
  AgentMcpClientState state = agent_mcp_client_get_state (self->client);
  gboolean enabled = agent_mcp_client_get_enabled (self->client);
  const GError *error = agent_mcp_client_get_error (self->client);
  AgentChatMcpSignInPhase phase = self->sign_in ? agent_chat_mcp_sign_in_get_phase (self->sign_in)
                                                : AGENT_CHAT_MCP_SIGN_IN_NONE;
  g_autofree char *transport = agent_chat_mcp_describe_transport (self->client);
  g_autofree char *status = NULL;
  g_autofree char *subtitle = NULL;
  gboolean asking = enabled && (phase == AGENT_CHAT_MCP_SIGN_IN_REQUIRED ||
                                phase == AGENT_CHAT_MCP_SIGN_IN_WAITING);
  gboolean sign_in_failed = enabled && phase == AGENT_CHAT_MCP_SIGN_IN_FAILED;
  gboolean failed = enabled && (sign_in_failed || (!asking &&
                                                   state == AGENT_MCP_CLIENT_STATE_FAILED));
  gboolean connecting = enabled && ((state == AGENT_MCP_CLIENT_STATE_CONNECTING && !asking) ||
                                    phase == AGENT_CHAT_MCP_SIGN_IN_WAITING);

  if (enabled)
    status = describe_sign_in (self, phase);
  if (status == NULL)
    status = agent_chat_mcp_describe_state (self->client);

  /* The start of a long error here; all of it below */
  if (failed && g_utf8_strlen (status, -1) > MAX_STATUS_CHARS)
    {
      const char *end = g_utf8_offset_to_pointer (status, MAX_STATUS_CHARS);
      char *cut = g_strdup_printf ("%.*s…", (int) (end - status), status);

      g_free (status);
      status = cut;
    }
  subtitle = g_strdup_printf ("%s\n%s", status, transport);
  adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (self), subtitle);

  gtk_widget_set_visible (GTK_WIDGET (self->spinner), connecting);
  gtk_spinner_set_spinning (self->spinner, connecting);
  gtk_widget_set_visible (self->error_icon, failed);
  gtk_widget_set_visible (GTK_WIDGET (self->error_row), failed);
  if (sign_in_failed && agent_chat_mcp_sign_in_get_message (self->sign_in) != NULL)
    adw_action_row_set_subtitle (self->error_row,
                                 agent_chat_mcp_sign_in_get_message (self->sign_in));
  else
    adw_action_row_set_subtitle (self->error_row, failed && error ? error->message : "");
  gtk_widget_set_visible (self->sign_in_button,
                          enabled && (phase == AGENT_CHAT_MCP_SIGN_IN_REQUIRED || sign_in_failed));
  gtk_widget_set_visible (self->cancel_button, enabled && phase == AGENT_CHAT_MCP_SIGN_IN_WAITING);
  gtk_widget_set_visible (self->account_row, phase == AGENT_CHAT_MCP_SIGN_IN_SIGNED_IN);

  self->syncing = TRUE;
  gtk_switch_set_active (self->enabled_switch, enabled);
  self->syncing = FALSE;

  update_tools (self);
}

static void
on_switch_active (AgentChatMcpRow *self)
{
  if (self->syncing)
    return;
  gtk_widget_activate_action (GTK_WIDGET (self), "mcp.set-enabled", "(sb)",
                              agent_mcp_client_get_name (self->client),
                              gtk_switch_get_active (self->enabled_switch));
  /* The page refused (the file could not be written): show the truth. */
  update (self);
}

static void
on_remove_clicked (AgentChatMcpRow *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "mcp.remove", "s",
                              agent_mcp_client_get_name (self->client));
}

static void
on_retry_clicked (AgentChatMcpRow *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "mcp.reconnect", "s",
                              agent_mcp_client_get_name (self->client));
}

static GtkWindow *
get_window (AgentChatMcpRow *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  return GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL;
}

static void
on_sign_in_clicked (AgentChatMcpRow *self)
{
  if (self->sign_in != NULL)
    agent_chat_mcp_sign_in_start (self->sign_in, get_window (self));
}

static void
on_cancel_clicked (AgentChatMcpRow *self)
{
  if (self->sign_in != NULL)
    agent_chat_mcp_sign_in_cancel (self->sign_in);
}

static void
on_sign_out_clicked (AgentChatMcpRow *self)
{
  if (self->sign_in != NULL)
    agent_chat_mcp_sign_in_sign_out (self->sign_in);
}

static void
agent_chat_mcp_row_dispose (GObject *object)
{
  AgentChatMcpRow *self = AGENT_CHAT_MCP_ROW (object);

  if (self->sign_in != NULL)
    g_signal_handlers_disconnect_by_data (self->sign_in, self);
  g_clear_object (&self->sign_in);

  if (self->client != NULL)
    {
      g_signal_handlers_disconnect_by_data (agent_mcp_client_get_tools (self->client), self);
      g_signal_handlers_disconnect_by_data (self->client, self);
    }
  gtk_widget_dispose_template (GTK_WIDGET (self), AGENT_CHAT_TYPE_MCP_ROW);
  g_clear_object (&self->client);
  g_clear_pointer (&self->tool_rows, g_ptr_array_unref);

  G_OBJECT_CLASS (agent_chat_mcp_row_parent_class)->dispose (object);
}

static void
agent_chat_mcp_row_class_init (AgentChatMcpRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = agent_chat_mcp_row_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/libagent/Chat/agent-chat-mcp-row.ui");
  gtk_widget_class_bind_template_child (widget_class, AgentChatMcpRow, spinner);
  gtk_widget_class_bind_template_child (widget_class, AgentChatMcpRow, error_icon);
  gtk_widget_class_bind_template_child (widget_class, AgentChatMcpRow, enabled_switch);
  gtk_widget_class_bind_template_child (widget_class, AgentChatMcpRow, remove_button);
  gtk_widget_class_bind_template_child (widget_class, AgentChatMcpRow, sign_in_button);
  gtk_widget_class_bind_template_child (widget_class, AgentChatMcpRow, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, AgentChatMcpRow, error_row);
  gtk_widget_class_bind_template_child (widget_class, AgentChatMcpRow, account_row);
  gtk_widget_class_bind_template_child (widget_class, AgentChatMcpRow, sign_out_button);
  gtk_widget_class_bind_template_child (widget_class, AgentChatMcpRow, no_tools_row);
  gtk_widget_class_bind_template_callback (widget_class, on_remove_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_retry_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_sign_in_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_cancel_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_sign_out_clicked);
}

static void
agent_chat_mcp_row_init (AgentChatMcpRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->tool_rows = g_ptr_array_new ();
}

/**
 * agent_chat_mcp_row_new:
 * @client: a server
 * @sign_in: (nullable): its sign-in
 *
 * Returns: (transfer floating): a row that shows @client and follows it
 */
GtkWidget *
agent_chat_mcp_row_new (AgentMcpClient     *client,
                        AgentChatMcpSignIn *sign_in)
{
  AgentChatMcpRow *self;
  const char *name;

  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (client), NULL);
  g_return_val_if_fail (!sign_in || AGENT_CHAT_IS_MCP_SIGN_IN (sign_in), NULL);

  self = g_object_new (AGENT_CHAT_TYPE_MCP_ROW, NULL);
  self->client = g_object_ref (client);
  self->sign_in = sign_in ? g_object_ref (sign_in) : NULL;
  name = agent_mcp_client_get_name (client);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self), name);
  {
    g_autofree char *use = g_strdup_printf (_("Use “%s”"), name);
    g_autofree char *remove = g_strdup_printf (_("Remove “%s”"), name);

    gtk_accessible_update_property (GTK_ACCESSIBLE (self->enabled_switch),
                                    GTK_ACCESSIBLE_PROPERTY_LABEL, use, -1);
    gtk_accessible_update_property (GTK_ACCESSIBLE (self->remove_button),
                                    GTK_ACCESSIBLE_PROPERTY_LABEL, remove, -1);

  }

  g_signal_connect_swapped (client, "notify::state", G_CALLBACK (update), self);
  g_signal_connect_swapped (client, "notify::error", G_CALLBACK (update), self);
  g_signal_connect_swapped (client, "notify::enabled", G_CALLBACK (update), self);
  g_signal_connect_swapped (agent_mcp_client_get_tools (client), "items-changed",
                            G_CALLBACK (update), self);
  g_signal_connect_swapped (self->enabled_switch, "notify::active",
                            G_CALLBACK (on_switch_active), self);
  if (sign_in != NULL)
    {
      g_signal_connect_swapped (sign_in, "notify::phase", G_CALLBACK (update), self);
      g_signal_connect_swapped (sign_in, "notify::message", G_CALLBACK (update), self);
    }
  update (self);
  return GTK_WIDGET (self);
}

AgentMcpClient *
agent_chat_mcp_row_get_client (AgentChatMcpRow *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_MCP_ROW (self), NULL);
  return self->client;
}

/**
 * agent_chat_mcp_row_list_tools:
 * @self: a #AgentChatMcpRow
 *
 * Returns: (transfer container) (element-type AdwActionRow): the rows of
 *   the tools shown
 */
GPtrArray *
agent_chat_mcp_row_list_tools (AgentChatMcpRow *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_MCP_ROW (self), NULL);
  return g_ptr_array_copy (self->tool_rows, NULL, NULL);
}
