/* agent-cli-mcp.c — agent-cli's MCP servers
 *
 * --mcp-config FILE reads the mcpServers JSON that desktop MCP clients
 * share, starts every enabled server before the first prompt and offers
 * their tools to the model. A server that fails is reported (an
 * "mcp-server" line with --json) and left out; the others work. Their
 * tools ask for approval like read_file does, unless the configuration
 * says "trusted": true or --yes is given. The servers are closed on exit,
 * and when Ctrl-C or SIGTERM stops agent-cli while they start; should
 * agent-cli die without closing them, the kernel ends them
 * (PR_SET_PDEATHSIG, see agent-mcp-stdio.c). A tool a server defines anew
 * while agent-cli runs (its description, schemas or hints changed) is
 * reported on the terminal, or as an "mcp-tool-changed" line with --json.
 * What a server asks the user (elicitation) is asked on the terminal
 * (agent-cli-elicit.c).
 *
 * An HTTP server that requires OAuth: the URL to open is printed on
 * stderr (and, with --json, as an "mcp-authorize" line) and opened in the
 * browser when there is a display; agent-cli waits for the browser to come
 * back, and Ctrl-C stops the wait. --mcp-sign-out SERVER forgets the
 * server's tokens (they are kept in the keyring).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include <glib/gi18n.h>

#include "agent-cli-elicit.h"
#include "agent-cli-mcp.h"

/* At most this long to close the servers on exit: a server gets SIGTERM
 * after 2 s and SIGKILL 2 s later. */
#define CLOSE_WAIT_SECONDS 6

struct _CliMcp
{
  AgentMcpServerList *list;
  AgentSession       *session;
  CliOutput          *output;
  CliElicitor        *elicitor;
  gboolean            json;
};

static char *opt_mcp_config;
static char *opt_mcp_sign_out;
static gboolean opt_mcp_json;

const GOptionEntry cli_mcp_entries[] = {
  { "mcp-config", 0, 0, G_OPTION_ARG_FILENAME, &opt_mcp_config,
    N_("Offer the tools of the MCP servers FILE configures (the “mcpServers” JSON of desktop "
       "MCP clients)"), N_("FILE") },
  { "mcp-sign-out", 0, 0, G_OPTION_ARG_STRING, &opt_mcp_sign_out,
    N_("Forget the authorization of the HTTP MCP server SERVER of --mcp-config (its tokens in "
       "the keyring)"), N_("SERVER") },
  { NULL }
};

/* Waiting for a callback; one that comes after the wait gave up frees
 * the waiter. */
typedef struct
{
  GAsyncResult *result;
  gboolean      abandoned;
} Waiter;

static void
done_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Waiter *waiter = user_data;

  if (waiter->abandoned)
    g_free (waiter);
  else
    waiter->result = g_object_ref (result);
}

static gboolean
timed_out_cb (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Runs the main context until @waiter has its result, or @seconds passed
 * (0: no limit); the result, or NULL */
static GAsyncResult *
wait_for (Waiter *waiter,
          guint   seconds)
{
  gboolean timed_out = FALSE;
  guint id = seconds ? g_timeout_add_seconds (seconds, timed_out_cb, &timed_out) : 0;
  GAsyncResult *result;

  while (waiter->result == NULL && !timed_out)
    g_main_context_iteration (NULL, TRUE);

  if (id != 0 && !timed_out)
    g_source_remove (id);

  if ((result = waiter->result) == NULL)
    waiter->abandoned = TRUE;
  else
    g_free (waiter);
  return result;
}

static void
close_list (AgentMcpServerList *list)
{
  g_autoptr(GAsyncResult) closed = NULL;
  Waiter *waiter = g_new0 (Waiter, 1);

  agent_mcp_server_list_close_async (list, NULL, done_cb, waiter);
  closed = wait_for (waiter, CLOSE_WAIT_SECONDS);
}

static gboolean
has_display (void)
{
  return g_getenv ("DISPLAY") != NULL || g_getenv ("WAYLAND_DISPLAY") != NULL;
}

/* A server asks the user to sign in: the URL on stderr (never a token: it
 * carries only the client's id and the PKCE challenge), in the browser if
 * there is one */
static void
authorize_cb (AgentMcpClient *client,
              const char     *uri,
              gpointer        user_data)
{
  g_autoptr(GError) error = NULL;

  if (opt_mcp_json)
    {
      g_autoptr(JsonBuilder) builder = json_builder_new_immutable ();
      g_autoptr(JsonNode) root = NULL;
      g_autofree char *line = NULL;

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "type");
      json_builder_add_string_value (builder, "mcp-authorize");
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, agent_mcp_client_get_name (client));
      json_builder_set_member_name (builder, "url");
      json_builder_add_string_value (builder, uri);
      json_builder_end_object (builder);
      root = json_builder_get_root (builder);
      line = json_to_string (root, FALSE);
      printf ("%s\n", line);
      fflush (stdout);
    }

  g_printerr (_("Open this URL to authorize %s: %s\n"), agent_mcp_client_get_name (client), uri);
  if (has_display () && !g_app_info_launch_default_for_uri (uri, NULL, &error))
    g_printerr ("agent-cli: %s\n", error->message);
  g_printerr (_("Waiting for the browser (Ctrl-C stops)…\n"));
}

/* Starts the servers; @cancellable (Ctrl-C) stops the wait, and the
 * servers that started leave again. */
static AgentMcpServerList *
load_and_connect (CliElicitor   *elicitor,
                  GCancellable  *cancellable,
                  GError       **error)
{
  g_autoptr(AgentMcpServerList) list = agent_mcp_server_list_new ();
  g_autoptr(GAsyncResult) result = NULL;
  Waiter *waiter = g_new0 (Waiter, 1);

  if (!agent_mcp_server_list_load_file (list, opt_mcp_config, error))
    {
      g_free (waiter);
      return NULL;
    }
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (list)); i++)
    {
      g_autoptr(AgentMcpClient) client = g_list_model_get_item (G_LIST_MODEL (list), i);

      g_signal_connect (client, "authorize", G_CALLBACK (authorize_cb), NULL);
      if (elicitor != NULL)
        cli_elicitor_attach (elicitor, client);
    }

  /* Each server's failure is in its state */
  agent_mcp_server_list_connect_async (list, cancellable, done_cb, waiter);
  result = wait_for (waiter, 0);
  if (!agent_mcp_server_list_connect_finish (list, result, NULL) ||
      g_cancellable_is_cancelled (cancellable))
    {
      close_list (list);
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                           _("Interrupted while the MCP servers started"));
      return NULL;
    }

  return g_steal_pointer (&list);
}

static const char *
state_name (AgentMcpClient *client)
{
  if (!agent_mcp_client_get_enabled (client))
    return "disabled";

  switch (agent_mcp_client_get_state (client))
    {
    case AGENT_MCP_CLIENT_STATE_READY:
      return "ready";
    case AGENT_MCP_CLIENT_STATE_FAILED:
      return "failed";
    case AGENT_MCP_CLIENT_STATE_CONNECTING:
    case AGENT_MCP_CLIENT_STATE_DISCONNECTED:
    default:
      return "disconnected";
    }
}

/* --json: {"type":"mcp-server","name":…,"state":"ready","protocol":…,
 * "tools":[…]} or {…,"state":"failed","code":…,"message":…} */
static void
print_json (AgentMcpClient *client)
{
  g_autoptr(JsonBuilder) builder = json_builder_new_immutable ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *line = NULL;
  const GError *error = agent_mcp_client_get_error (client);
  GListModel *tools = agent_mcp_client_get_tools (client);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, "mcp-server");
  json_builder_set_member_name (builder, "name");
  json_builder_add_string_value (builder, agent_mcp_client_get_name (client));
  json_builder_set_member_name (builder, "state");
  json_builder_add_string_value (builder, state_name (client));
  if (agent_mcp_client_get_state (client) == AGENT_MCP_CLIENT_STATE_READY)
    {
      /* The revision the server and libagent agreed on */
      json_builder_set_member_name (builder, "protocol");
      json_builder_add_string_value (builder, agent_mcp_client_get_protocol_version (client));
      json_builder_set_member_name (builder, "tools");
      json_builder_begin_array (builder);
      for (guint i = 0; i < g_list_model_get_n_items (tools); i++)
        {
          g_autoptr(AgentTool) tool = g_list_model_get_item (tools, i);

          json_builder_add_string_value (builder, agent_tool_get_name (tool));
        }
      json_builder_end_array (builder);
    }
  if (error != NULL && agent_mcp_client_get_enabled (client))
    {
      json_builder_set_member_name (builder, "code");
      json_builder_add_string_value (builder, agent_error_get_code (error));
      json_builder_set_member_name (builder, "message");
      json_builder_add_string_value (builder, error->message);
    }
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  line = json_to_string (root, FALSE);
  printf ("%s\n", line);
  fflush (stdout);
}

static void
report (AgentMcpServerList *list,
        CliOutput          *output,
        gboolean            json)
{
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (list)); i++)
    {
      g_autoptr(AgentMcpClient) client = g_list_model_get_item (G_LIST_MODEL (list), i);
      const char *name = agent_mcp_client_get_name (client);
      g_autofree char *text = NULL;
      guint n;

      if (json)
        {
          print_json (client);
          continue;
        }

      if (!agent_mcp_client_get_enabled (client))
        continue;

      n = g_list_model_get_n_items (agent_mcp_client_get_tools (client));
      if (agent_mcp_client_get_state (client) == AGENT_MCP_CLIENT_STATE_READY)
        text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "MCP server “%s”: %u tool",
                                             "MCP server “%s”: %u tools", n), name, n);
      else
        text = g_strdup_printf (_("MCP server “%s” is left out: %s"), name,
                                agent_mcp_client_get_error (client)->message);
      cli_output_notice (output, text);
    }
}

/* --mcp-sign-out SERVER: -1 without it, else the exit status */
int
cli_mcp_sign_out (void)
{
  g_autoptr(AgentMcpServerList) list = agent_mcp_server_list_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  AgentMcpClient *client;
  Waiter *waiter;

  if (opt_mcp_sign_out == NULL)
    return -1;

  if (opt_mcp_config == NULL)
    {
      g_printerr ("agent-cli: %s\n", _("--mcp-sign-out needs the --mcp-config that names the "
                                       "server"));
      return EXIT_FAILURE;
    }
  if (!agent_mcp_server_list_load_file (list, opt_mcp_config, &error))
    {
      g_printerr ("agent-cli: %s\n", error->message);
      return EXIT_FAILURE;
    }
  if ((client = agent_mcp_server_list_lookup (list, opt_mcp_sign_out)) == NULL ||
      agent_mcp_client_get_url (client) == NULL)
    {
      g_printerr (_("agent-cli: %s names no HTTP MCP server “%s”\n"), opt_mcp_config,
                  opt_mcp_sign_out);
      return EXIT_FAILURE;
    }

  waiter = g_new0 (Waiter, 1);
  agent_mcp_client_sign_out_async (client, NULL, done_cb, waiter);
  result = wait_for (waiter, 0);
  if (!agent_mcp_client_sign_out_finish (client, result, &error))
    {
      g_printerr ("agent-cli: %s\n", error->message);
      return EXIT_FAILURE;
    }
  g_printerr (_("Signed out of the MCP server “%s”\n"), opt_mcp_sign_out);
  return EXIT_SUCCESS;
}

/* --list-tools with --mcp-config: the servers' tools, after the built-in
 * ones. -1 without --mcp-config, else the exit status. */
int
cli_mcp_list_tools (GCancellable *cancellable)
{
  g_autoptr(AgentMcpServerList) list = NULL;
  g_autoptr(GError) error = NULL;
  int status = EXIT_SUCCESS;

  if (opt_mcp_config == NULL)
    return -1;

  if (!(list = load_and_connect (NULL, cancellable, &error)))
    {
      g_printerr ("agent-cli: %s\n", error->message);
      return EXIT_FAILURE;
    }

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (list)); i++)
    {
      g_autoptr(AgentMcpClient) client = g_list_model_get_item (G_LIST_MODEL (list), i);
      GListModel *tools = agent_mcp_client_get_tools (client);

      if (!agent_mcp_client_get_enabled (client))
        continue;
      if (agent_mcp_client_get_state (client) != AGENT_MCP_CLIENT_STATE_READY)
        {
          g_printerr ("agent-cli: %s\n", agent_mcp_client_get_error (client)->message);
          status = EXIT_FAILURE;
          continue;
        }
      for (guint j = 0; j < g_list_model_get_n_items (tools); j++)
        {
          g_autoptr(AgentTool) tool = g_list_model_get_item (tools, j);

          g_print ("%s\n", agent_tool_get_name (tool));
        }
    }

  close_list (list);
  return status;
}

/* The names of @changes, for --json */
static GStrv
change_names (AgentMcpToolChanges changes)
{
  g_autoptr(GFlagsClass) klass = g_type_class_ref (AGENT_TYPE_MCP_TOOL_CHANGES);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  for (guint i = 0; i < klass->n_values; i++)
    if (klass->values[i].value != 0 && (changes & klass->values[i].value) != 0)
      g_strv_builder_add (builder, klass->values[i].value_nick);
  return g_strv_builder_end (builder);
}

static void
tool_changed_cb (AgentMcpClient      *client,
                 AgentMcpTool        *tool,
                 AgentMcpTool        *previous,
                 AgentMcpToolChanges  changes,
                 CliMcp              *self)
{
  g_auto(GStrv) names = change_names (changes);

  if (self->json)
    {
      g_autoptr(JsonBuilder) builder = json_builder_new_immutable ();
      g_autoptr(JsonNode) root = NULL;
      g_autofree char *line = NULL;

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "type");
      json_builder_add_string_value (builder, "mcp-tool-changed");
      /* The server's name in "name", as in the other mcp-* lines; "server"
       * too, for the scripts that read it before */
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, agent_mcp_client_get_name (client));
      json_builder_set_member_name (builder, "server");
      json_builder_add_string_value (builder, agent_mcp_client_get_name (client));
      json_builder_set_member_name (builder, "tool");
      json_builder_add_string_value (builder, agent_tool_get_name (AGENT_TOOL (tool)));
      json_builder_set_member_name (builder, "changes");
      json_builder_begin_array (builder);
      for (guint i = 0; names[i] != NULL; i++)
        json_builder_add_string_value (builder, names[i]);
      json_builder_end_array (builder);
      json_builder_set_member_name (builder, "description");
      json_builder_add_string_value (builder, agent_tool_get_description (AGENT_TOOL (tool)));
      json_builder_end_object (builder);

      root = json_builder_get_root (builder);
      line = json_to_string (root, FALSE);
      printf ("%s\n", line);
      fflush (stdout);
    }
  else
    {
      g_autofree char *text = NULL;

      /* Translators: a server changed a tool while agent-cli ran; its new
       * description may ask the model for something else than before */
      text = g_strdup_printf ((changes & AGENT_MCP_TOOL_CHANGE_DESCRIPTION) != 0
                              ? _("The MCP server “%s” changed the description of its tool "
                                  "“%s”; check what it does now before you allow it")
                              : _("The MCP server “%s” changed the definition of its tool "
                                  "“%s”; check what it does now before you allow it"),
                              agent_mcp_client_get_name (client),
                              agent_tool_get_name (AGENT_TOOL (tool)));
      cli_output_notice (self->output, text);
    }
}

/* Starts the servers and offers their tools to @session: -1 to go on, or
 * the exit status when the configuration cannot be used. */
int
cli_mcp_attach (CliMcp       **mcp,
                AgentSession  *session,
                CliOutput     *output,
                gboolean       json,
                GCancellable  *cancellable)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CliElicitor) elicitor = NULL;
  AgentMcpServerList *list;

  if (opt_mcp_config == NULL)
    return -1;

  opt_mcp_json = json;
  elicitor = cli_elicitor_new (json);
  if (!(list = load_and_connect (elicitor, cancellable, &error)))
    {
      cli_output_error (output, error);
      return EXIT_FAILURE;
    }

  report (list, output, json);
  agent_mcp_server_list_attach (list, session);

  *mcp = g_new0 (CliMcp, 1);
  (*mcp)->list = list;
  (*mcp)->session = g_object_ref (session);
  (*mcp)->output = output;
  (*mcp)->elicitor = g_steal_pointer (&elicitor);
  (*mcp)->json = json;
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (list)); i++)
    {
      g_autoptr(AgentMcpClient) client = g_list_model_get_item (G_LIST_MODEL (list), i);

      g_signal_connect (client, "tool-changed", G_CALLBACK (tool_changed_cb), *mcp);
    }
  return -1;
}

/* The servers of --mcp-config, or NULL without it */
AgentMcpServerList *
cli_mcp_get_servers (CliMcp *self)
{
  return self ? self->list : NULL;
}

void
cli_mcp_free (CliMcp *self)
{
  if (self == NULL)
    return;

  /* The servers leave before agent-cli does */
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->list)); i++)
    {
      g_autoptr(AgentMcpClient) client = g_list_model_get_item (G_LIST_MODEL (self->list), i);

      g_signal_handlers_disconnect_by_data (client, self);
      g_signal_handlers_disconnect_by_data (client, self->elicitor);
    }
  agent_mcp_server_list_detach (self->list, self->session);
  close_list (self->list);
  g_clear_pointer (&self->elicitor, cli_elicitor_free);

  g_clear_object (&self->list);
  g_clear_object (&self->session);
  g_free (self);
}
