/* agent-chat-mcp-dialog.c
 *
 * The Add Server dialog: a name, then either a program (its command line,
 * split as a shell would, and its environment) or a web address (and its
 * headers). What is wrong is said below the form, naming the field and
 * line, never the value: a variable or header may hold a token.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "agent-chat-mcp-dialog.h"

enum { KIND_PROGRAM, KIND_WEB };

struct _AgentChatMcpDialog
{
  AdwWindow            parent_instance;

  AdwEntryRow         *name_row;
  AdwComboRow         *kind_row;
  GtkSwitch           *trusted_switch;
  GtkWidget           *program_group;
  GtkWidget           *env_group;
  AdwEntryRow         *command_row;
  GtkTextView         *env_view;
  GtkWidget           *web_group;
  GtkWidget           *headers_group;
  AdwEntryRow         *url_row;
  GtkTextView         *headers_view;
  GtkLabel            *error_label;

  AgentChatMcpServers *servers;
};

G_DEFINE_FINAL_TYPE (AgentChatMcpDialog, agent_chat_mcp_dialog, ADW_TYPE_WINDOW)

static char *
dup_trimmed (AdwEntryRow *row)
{
  return g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (row))));
}

static char *
dup_view_text (GtkTextView *view)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (view);
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

static gboolean
has_control (const char *text)
{
  for (const char *p = text; *p != '\0'; p++)
    if ((guchar) *p < 0x20 || *p == 0x7f)
      return TRUE;
  return FALSE;
}

static gboolean
is_env_name (const char *name,
             gsize       len)
{
  if (len == 0 || g_ascii_isdigit (name[0]))
    return FALSE;
  for (gsize i = 0; i < len; i++)
    if (!g_ascii_isalnum (name[i]) && name[i] != '_')
      return FALSE;
  return TRUE;
}

static gboolean
is_header_name (const char *name,
                gsize       len)
{
  if (len == 0)
    return FALSE;
  for (gsize i = 0; i < len; i++)
    if (!g_ascii_isalnum (name[i]) && strchr ("!#$%&'*+-.^_`|~", name[i]) == NULL)
      return FALSE;
  return TRUE;
}

/* One entry a line, blank lines and # comments skipped: NAME=value for
 * the environment, Name: value for headers. NULL with @error naming the
 * line when one is not. */
static GStrv
parse_lines (const char  *text,
             gboolean     headers,
             GError     **error)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *line = g_strstrip (lines[i]);
      const char *separator = strchr (line, headers ? ':' : '=');
      gsize name_len = separator ? (gsize) (separator - line) : 0;

      if (line[0] == '\0' || line[0] == '#')
        continue;
      if (!headers && separator != NULL && is_env_name (line, name_len) && !has_control (line))
        {
          g_strv_builder_add (builder, line);
          continue;
        }
      if (headers && separator != NULL && is_header_name (line, name_len) &&
          !has_control (line) && *g_strchug ((char *) separator + 1) != '\0')
        {
          g_autofree char *name = g_strndup (line, name_len);
          g_autofree char *header = g_strdup_printf ("%s: %s", name, separator + 1);

          g_strv_builder_add (builder, header);
          continue;
        }

      if (headers)
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                     _("Headers, line %u: write it as “Name: value”"), i + 1);
      else
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                     _("Environment, line %u: write it as “NAME=value”, the name made of "
                       "letters, digits and “_”"), i + 1);
      return NULL;
    }

  return g_strv_builder_end (builder);
}

static AgentMcpClient *
build_program (AgentChatMcpDialog  *self,
               const char          *name,
               GError             **error)
{
  g_autofree char *command = dup_trimmed (self->command_row);
  g_autofree char *env_text = dup_view_text (self->env_view);
  g_autofree char *program = NULL;
  g_auto(GStrv) argv = NULL;
  g_auto(GStrv) env = NULL;
  g_autoptr(GError) shell_error = NULL;
  AgentMcpClient *client;

  if (command[0] == '\0')
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("Give the command that starts the server"));
      return NULL;
    }
  if (!g_shell_parse_argv (command, NULL, &argv, &shell_error))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("The command could not be read: %s"), shell_error->message);
      return NULL;
    }
  program = strchr (argv[0], '/') != NULL ?
    (g_file_test (argv[0], G_FILE_TEST_IS_EXECUTABLE) ? g_strdup (argv[0]) : NULL) :
    g_find_program_in_path (argv[0]);
  if (program == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("There is no program “%s” on this computer"), argv[0]);
      return NULL;
    }
  if (!(env = parse_lines (env_text, FALSE, error)))
    return NULL;

  client = agent_mcp_client_new_stdio (name, argv[0], (const char * const *) argv + 1);
  if (env[0] != NULL)
    agent_mcp_client_set_env (client, (const char * const *) env);
  return client;
}

static AgentMcpClient *
build_web (AgentChatMcpDialog  *self,
           const char          *name,
           GError             **error)
{
  g_autofree char *url = dup_trimmed (self->url_row);
  g_autofree char *headers_text = dup_view_text (self->headers_view);
  g_autoptr(GUri) uri = NULL;
  g_auto(GStrv) headers = NULL;
  const char *scheme;
  AgentMcpClient *client;

  if (url[0] == '\0')
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("Give the server’s web address"));
      return NULL;
    }
  uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);
  scheme = uri ? g_uri_get_scheme (uri) : NULL;
  if (uri == NULL || g_uri_get_host (uri) == NULL || g_uri_get_host (uri)[0] == '\0' ||
      (g_ascii_strcasecmp (scheme, "http") != 0 && g_ascii_strcasecmp (scheme, "https") != 0))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("The web address must be a full http:// or https:// address, "
                             "such as https://example.com/mcp"));
      return NULL;
    }
  if (!(headers = parse_lines (headers_text, TRUE, error)))
    return NULL;

  client = agent_mcp_client_new_http (name, url);
  if (headers[0] != NULL)
    agent_mcp_client_set_headers (client, (const char * const *) headers);
  return client;
}

/**
 * agent_chat_mcp_dialog_build_client:
 * @self: a #AgentChatMcpDialog
 * @error: return location for a #GError
 *
 * Checks the form.
 *
 * Returns: (transfer full) (nullable): the server the form describes, or
 *   %NULL with @error set to what is wrong
 */
AgentMcpClient *
agent_chat_mcp_dialog_build_client (AgentChatMcpDialog  *self,
                                    GError             **error)
{
  g_autofree char *name = NULL;
  AgentMcpClient *client;

  g_return_val_if_fail (AGENT_CHAT_IS_MCP_DIALOG (self), NULL);

  name = dup_trimmed (self->name_row);
  if (name[0] == '\0' || has_control (name))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("Give the server a name"));
      return NULL;
    }
  if (agent_mcp_server_list_lookup (agent_chat_mcp_servers_get_list (self->servers), name))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS,
                   _("A server called “%s” exists already: choose another name"), name);
      return NULL;
    }

  if (adw_combo_row_get_selected (self->kind_row) == KIND_WEB)
    client = build_web (self, name, error);
  else
    client = build_program (self, name, error);
  if (client != NULL)
    agent_mcp_client_set_trusted (client, gtk_switch_get_active (self->trusted_switch));
  return client;
}

static void
set_error (AgentChatMcpDialog *self,
           const char         *message)
{
  gtk_label_set_text (self->error_label, message ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), message != NULL);
}

/**
 * agent_chat_mcp_dialog_add:
 * @self: a #AgentChatMcpDialog
 *
 * Adds the server the form describes (saved, and connecting) and closes
 * the dialog, or says what is wrong.
 *
 * Returns: whether the server was added
 */
gboolean
agent_chat_mcp_dialog_add (AgentChatMcpDialog *self)
{
  g_autoptr(AgentMcpClient) client = NULL;
  g_autoptr(GError) error = NULL;

  g_return_val_if_fail (AGENT_CHAT_IS_MCP_DIALOG (self), FALSE);

  if (!(client = agent_chat_mcp_dialog_build_client (self, &error)) ||
      !agent_chat_mcp_servers_add (self->servers, client, &error))
    {
      set_error (self, error->message);
      return FALSE;
    }
  set_error (self, NULL);
  gtk_window_close (GTK_WINDOW (self));
  return TRUE;
}

/**
 * agent_chat_mcp_dialog_get_error:
 * @self: a #AgentChatMcpDialog
 *
 * Returns: (nullable): what the dialog says is wrong, or %NULL
 */
const char *
agent_chat_mcp_dialog_get_error (AgentChatMcpDialog *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_MCP_DIALOG (self), NULL);

  if (!gtk_widget_get_visible (GTK_WIDGET (self->error_label)))
    return NULL;
  return gtk_label_get_text (self->error_label);
}

static void
add_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *parameter)
{
  agent_chat_mcp_dialog_add (AGENT_CHAT_MCP_DIALOG (widget));
}

static void
on_kind_selected (AgentChatMcpDialog *self)
{
  gboolean web = adw_combo_row_get_selected (self->kind_row) == KIND_WEB;

  gtk_widget_set_visible (self->program_group, !web);
  gtk_widget_set_visible (self->env_group, !web);
  gtk_widget_set_visible (self->web_group, web);
  gtk_widget_set_visible (self->headers_group, web);
  set_error (self, NULL);
}

static void
agent_chat_mcp_dialog_dispose (GObject *object)
{
  AgentChatMcpDialog *self = AGENT_CHAT_MCP_DIALOG (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), AGENT_CHAT_TYPE_MCP_DIALOG);
  g_clear_object (&self->servers);

  G_OBJECT_CLASS (agent_chat_mcp_dialog_parent_class)->dispose (object);
}

static void
agent_chat_mcp_dialog_class_init (AgentChatMcpDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = agent_chat_mcp_dialog_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/libagent/Chat/agent-chat-mcp-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, AgentChatMcpDialog, name_row);
  gtk_widget_class_bind_template_child (widget_class, AgentChatMcpDialog, kind_row);
  gtk_widget_class_bind_template_child (widget_class, AgentChatMcpDialog, trusted_switch);
  gtk_widget_class_bind_template_child (widget_class, AgentChatMcpDialog, program_group);
  gtk_widget_class_bind_template_child (widget_class, AgentChatMcpDialog, env_group);
  gtk_widget_class_bind_template_child (widget_class, AgentChatMcpDialog, command_row);
  gtk_widget_class_bind_template_child (widget_class, AgentChatMcpDialog, env_view);
  gtk_widget_class_bind_template_child (widget_class, AgentChatMcpDialog, web_group);
  gtk_widget_class_bind_template_child (widget_class, AgentChatMcpDialog, headers_group);
  gtk_widget_class_bind_template_child (widget_class, AgentChatMcpDialog, url_row);
  gtk_widget_class_bind_template_child (widget_class, AgentChatMcpDialog, headers_view);
  gtk_widget_class_bind_template_child (widget_class, AgentChatMcpDialog, error_label);

  gtk_widget_class_install_action (widget_class, "dialog.add", NULL, add_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
agent_chat_mcp_dialog_init (AgentChatMcpDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect_object (self->kind_row, "notify::selected", G_CALLBACK (on_kind_selected),
                           self, G_CONNECT_SWAPPED);
}

/**
 * agent_chat_mcp_dialog_new:
 * @parent: (nullable): the preferences window
 * @servers: where the server goes
 *
 * Returns: (transfer floating): the Add Server dialog
 */
GtkWidget *
agent_chat_mcp_dialog_new (GtkWindow           *parent,
                           AgentChatMcpServers *servers)
{
  AgentChatMcpDialog *self;

  g_return_val_if_fail (AGENT_CHAT_IS_MCP_SERVERS (servers), NULL);

  self = g_object_new (AGENT_CHAT_TYPE_MCP_DIALOG, "transient-for", parent, NULL);
  self->servers = g_object_ref (servers);
  return GTK_WIDGET (self);
}
