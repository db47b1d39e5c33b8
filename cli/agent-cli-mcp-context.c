/* agent-cli-mcp-context.c — what MCP servers give the first prompt
 *
 * --mcp-resource SERVER:URI (repeatable) reads the resource from the
 * server of that name in --mcp-config, once the servers started, and
 * attaches its contents to the first prompt as --attach does a file: text
 * as a text file named by its URI, binary data as an image or a file. A
 * server that is not configured or not ready, a resource it does not have
 * or cannot give: agent-cli says which and sends nothing.
 *
 * --mcp-prompt SERVER:NAME, with --mcp-arg K=V for each of its arguments,
 * gets the prompt's messages: they start the conversation. Given a PROMPT
 * too, they come before it; else the last of them (a user message) is the
 * first turn.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "agent-cli-mcp-context.h"

static char **opt_mcp_resources;
static char *opt_mcp_prompt;
static char **opt_mcp_args;

const GOptionEntry cli_mcp_context_entries[] = {
  { "mcp-resource", 0, 0, G_OPTION_ARG_STRING_ARRAY, &opt_mcp_resources,
    N_("Attach the resource URI of the MCP server SERVER to the first prompt (repeatable)"),
    N_("SERVER:URI") },
  { "mcp-prompt", 0, 0, G_OPTION_ARG_STRING, &opt_mcp_prompt,
    N_("Start the conversation with the prompt NAME of the MCP server SERVER"),
    N_("SERVER:NAME") },
  { "mcp-arg", 0, 0, G_OPTION_ARG_STRING_ARRAY, &opt_mcp_args,
    N_("An argument of --mcp-prompt (repeatable)"), N_("KEY=VALUE") },
  { NULL }
};

gboolean
cli_mcp_context_wanted (void)
{
  return opt_mcp_resources != NULL && opt_mcp_resources[0] != NULL;
}

gboolean
cli_mcp_context_prompt_wanted (void)
{
  return opt_mcp_prompt != NULL;
}

static void
done_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

/* The ready server named before the first ':' of @spec, and what follows */
static AgentMcpClient *
find_server (AgentMcpServerList  *servers,
             const char          *spec,
             const char          *option,
             const char         **rest,
             GError             **error)
{
  const char *colon = strchr (spec, ':');
  g_autofree char *name = colon ? g_strndup (spec, colon - spec) : NULL;
  AgentMcpClient *client;

  if (colon == NULL || colon == spec || colon[1] == '\0')
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("%s wants SERVER:%s, not “%s”"), option,
                   g_str_equal (option, "--mcp-resource") ? "URI" : "NAME", spec);
      return NULL;
    }

  client = servers ? agent_mcp_server_list_lookup (servers, name) : NULL;
  if (client == NULL)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("%s: no MCP server “%s” in --mcp-config"), option, name);
      return NULL;
    }
  if (agent_mcp_client_get_state (client) != AGENT_MCP_CLIENT_STATE_READY)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_NETWORK,
                   _("%s: the MCP server “%s” is not ready"), option, name);
      return NULL;
    }

  *rest = colon + 1;
  return client;
}

/* The parts of every --mcp-resource, in order; NULL with @error if one
 * cannot be read, or NULL without one if there are none */
GPtrArray *
cli_mcp_context_read_resources (AgentMcpServerList  *servers,
                                GCancellable        *cancellable,
                                GError             **error)
{
  g_autoptr(GPtrArray) parts = NULL;

  if (!cli_mcp_context_wanted ())
    return NULL;

  parts = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; opt_mcp_resources[i] != NULL; i++)
    {
      g_autoptr(GAsyncResult) result = NULL;
      g_autoptr(GListModel) contents = NULL;
      g_autoptr(GError) local_error = NULL;
      AgentMcpClient *client;
      const char *uri = NULL;

      client = find_server (servers, opt_mcp_resources[i], "--mcp-resource", &uri, error);
      if (client == NULL)
        return NULL;

      agent_mcp_client_read_resource_async (client, uri, cancellable, done_cb, &result);
      while (result == NULL)
        g_main_context_iteration (NULL, TRUE);

      contents = agent_mcp_client_read_resource_finish (client, result, &local_error);
      if (contents == NULL)
        {
          g_set_error (error, local_error->domain, local_error->code,
                       _("Could not read the resource “%s” of the MCP server “%s”: %s"),
                       uri, agent_mcp_client_get_name (client), local_error->message);
          return NULL;
        }
      for (guint j = 0; j < g_list_model_get_n_items (contents); j++)
        g_ptr_array_add (parts, g_list_model_get_item (contents, j));
    }

  return g_steal_pointer (&parts);
}

/* The messages of --mcp-prompt, or NULL with @error */
GListModel *
cli_mcp_context_get_prompt (AgentMcpServerList  *servers,
                            GCancellable        *cancellable,
                            GError             **error)
{
  g_autoptr(GHashTable) arguments = g_hash_table_new_full (g_str_hash, g_str_equal,
                                                           g_free, g_free);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) local_error = NULL;
  GListModel *messages;
  AgentMcpClient *client;
  const char *name = NULL;

  if (opt_mcp_args != NULL && opt_mcp_prompt == NULL)
    {
      g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                           _("--mcp-arg goes with --mcp-prompt"));
      return NULL;
    }

  for (guint i = 0; opt_mcp_args != NULL && opt_mcp_args[i] != NULL; i++)
    {
      const char *equals = strchr (opt_mcp_args[i], '=');

      if (equals == NULL || equals == opt_mcp_args[i])
        {
          g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                       _("--mcp-arg wants KEY=VALUE, not “%s”"), opt_mcp_args[i]);
          return NULL;
        }
      g_hash_table_insert (arguments, g_strndup (opt_mcp_args[i], equals - opt_mcp_args[i]),
                           g_strdup (equals + 1));
    }

  client = find_server (servers, opt_mcp_prompt, "--mcp-prompt", &name, error);
  if (client == NULL)
    return NULL;

  agent_mcp_client_get_prompt_async (client, name, arguments, cancellable, done_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);

  messages = agent_mcp_client_get_prompt_finish (client, result, &local_error);
  if (messages == NULL)
    g_propagate_error (error, g_steal_pointer (&local_error));
  return messages;
}
