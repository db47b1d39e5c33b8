/* agent-web-search.c — the web_search tool, on an AgentSearchBackend
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tools/agent-search-backend.h"
#include "agent-error.h"

#define DEFAULT_RESULTS 5
#define MAX_RESULTS     10

static JsonNode *
web_search_parameters (void)
{
  g_autoptr(JsonBuilder) builder = json_builder_new_immutable ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, "object");
  json_builder_set_member_name (builder, "properties");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "query");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, "string");
  json_builder_set_member_name (builder, "description");
  json_builder_add_string_value (builder, "What to search the web for");
  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "count");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, "integer");
  json_builder_set_member_name (builder, "description");
  json_builder_add_string_value (builder, "How many results, 1 to 10 (default 5)");
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "required");
  json_builder_begin_array (builder);
  json_builder_add_string_value (builder, "query");
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

static char *
web_search (AgentTool     *tool,
            JsonNode      *arguments,
            GCancellable  *cancellable,
            gpointer       user_data,
            GError       **error)
{
  AgentSearchBackend *backend = user_data;
  JsonObject *object = json_node_get_object (arguments);
  g_autoptr(JsonNode) results = NULL;
  guint count = DEFAULT_RESULTS;
  const char *query;
  JsonNode *node;

  node = json_object_get_member (object, "query");
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING || json_node_get_string (node)[0] == '\0')
    {
      g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_TOOL,
                           _("“query” must be a string, for example "
                             "{\"query\": \"GNOME 47 release notes\"}"));
      return NULL;
    }
  query = json_node_get_string (node);

  node = json_object_get_member (object, "count");
  if (node != NULL && !JSON_NODE_HOLDS_NULL (node))
    {
      if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64)
        {
          g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_TOOL,
                               _("“count” must be a whole number from 1 to 10"));
          return NULL;
        }
      count = (guint) CLAMP (json_node_get_int (node), 1, MAX_RESULTS);
    }

  results = agent_search_backend_search (backend, query, count, cancellable, error);
  if (results == NULL)
    return NULL;

  return json_to_string (results, FALSE);
}

/**
 * agent_web_search_tool_new:
 * @backend: the [class@Agent.SearchBackend] that answers the searches
 *
 * Creates the `web_search` tool: `{"query": "…", "count": 5}` returns a
 * JSON array of at most 10 results, each an object with `title`, `url`
 * and `snippet`. The tool needs a backend, so
 * [func@Agent.builtin_tool_new] does not create it; the query leaves the
 * computer, so each search needs the user's approval
 * ([property@Agent.Tool:requires-approval] is set). It runs in a worker
 * thread.
 *
 * Returns: (transfer full): a new [class@Agent.Tool]
 *
 * Since: 0.1
 */
AgentTool *
agent_web_search_tool_new (AgentSearchBackend *backend)
{
  g_autoptr(JsonNode) parameters = NULL;
  AgentTool *tool;

  g_return_val_if_fail (AGENT_IS_SEARCH_BACKEND (backend), NULL);

  parameters = web_search_parameters ();
  tool = agent_tool_new_blocking ("web_search",
                                  "Searches the web and returns the results as a JSON array of "
                                  "objects with title, url and snippet. Fetch a result's page "
                                  "with fetch_url to read it.",
                                  parameters, web_search, g_object_ref (backend), g_object_unref);
  agent_tool_set_requires_approval (tool, TRUE);

  return tool;
}
