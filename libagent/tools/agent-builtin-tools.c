/* agent-builtin-tools.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tools/agent-builtin-tools.h"
#include "agent-error.h"

static const struct {
  const char *name;
  AgentTool *(*create) (void);
} builtin_tools[] = {
  { "calculator", agent_calculator_tool_new },
  { "read_file", agent_read_file_tool_new },
  { "fetch_url", agent_fetch_url_tool_new },
};

/**
 * agent_builtin_tool_list_names:
 *
 * Lists the tools that come with libagent.
 *
 * Returns: (transfer none) (array zero-terminated=1): the names of the built-in tools
 *
 * Since: 0.1
 */
const char * const *
agent_builtin_tool_list_names (void)
{
  static const char * const names[] = { "calculator", "read_file", "fetch_url", NULL };

  G_STATIC_ASSERT (G_N_ELEMENTS (names) == G_N_ELEMENTS (builtin_tools) + 1);

  return names;
}

/**
 * agent_builtin_tool_new:
 * @name: the name of a built-in tool, such as `"calculator"`
 * @error: return location for a [struct@GLib.Error]
 *
 * Creates one of the tools that come with libagent.
 *
 * Returns: (transfer full): a new [class@Agent.Tool], or %NULL with
 *   %AGENT_ERROR_INVALID_ARGUMENT if there is no such tool
 *
 * Since: 0.1
 */
AgentTool *
agent_builtin_tool_new (const char  *name,
                        GError     **error)
{
  g_autofree char *known = NULL;

  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (builtin_tools); i++)
    if (g_str_equal (name, builtin_tools[i].name))
      return builtin_tools[i].create ();

  if (g_str_equal (name, "web_search"))
    {
      g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                           _("The web_search tool needs a search backend: create it with "
                             "agent_web_search_tool_new()"));
      return NULL;
    }

  known = g_strjoinv (", ", (char **)agent_builtin_tool_list_names ());
  g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
               _("There is no built-in tool named “%s” (known tools: %s)"), name, known);
  return NULL;
}
