/* agent-search-documents-tool.c — the search_documents tool
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "documents/agent-document-index.h"
#include "tools/agent-tool-invocation.h"

#define DEFAULT_RESULTS 5
#define MAX_RESULTS     20

static const char parameters_schema[] =
  "{\"type\": \"object\","
  " \"properties\": {"
  "  \"query\": {\"type\": \"string\","
  "   \"description\": \"What to look for, in words close to those the documents would use\"},"
  "  \"max_results\": {\"type\": \"integer\", \"minimum\": 1, \"maximum\": 20,"
  "   \"description\": \"How many passages at most (5 unless given)\"}},"
  " \"required\": [\"query\"]}";

static void
searched_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(AgentToolInvocation) invocation = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) hits = agent_document_index_search_finish (AGENT_DOCUMENT_INDEX (object),
                                                                 result, &error);

  if (agent_tool_invocation_is_completed (invocation))
    return;   /* timed out or cancelled meanwhile */
  if (hits == NULL)
    agent_tool_invocation_return_error (invocation, error);
  else
    agent_tool_invocation_return_json (invocation, hits);
}

static gboolean
search_documents (AgentTool            *tool,
                  AgentToolInvocation  *invocation,
                  gpointer              user_data,
                  GError              **error)
{
  AgentDocumentIndex *index = user_data;
  JsonObject *arguments = json_node_get_object (agent_tool_invocation_get_arguments (invocation));
  JsonNode *query = json_object_get_member (arguments, "query");
  JsonNode *max = json_object_get_member (arguments, "max_results");
  gint64 max_results = DEFAULT_RESULTS;

  if (query == NULL || !JSON_NODE_HOLDS_VALUE (query) ||
      json_node_get_value_type (query) != G_TYPE_STRING ||
      json_node_get_string (query)[0] == '\0')
    {
      g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_TOOL,
                           _("“query” must be a string that is not empty, for example "
                             "{\"query\": \"how to renew a passport\"}"));
      return FALSE;
    }
  if (max != NULL && !JSON_NODE_HOLDS_NULL (max))
    {
      if (!JSON_NODE_HOLDS_VALUE (max) ||
          (json_node_get_value_type (max) != G_TYPE_INT64 &&
           json_node_get_value_type (max) != G_TYPE_DOUBLE) ||
          json_node_get_double (max) != (double) (gint64) json_node_get_double (max) ||
          json_node_get_double (max) < 1 || json_node_get_double (max) > MAX_RESULTS)
        {
          g_set_error (error, AGENT_ERROR, AGENT_ERROR_TOOL,
                       _("“max_results” must be a whole number from 1 to %d"), MAX_RESULTS);
          return FALSE;
        }
      max_results = (gint64) json_node_get_double (max);
    }

  agent_document_index_search_async (index, json_node_get_string (query), max_results,
                                     agent_tool_invocation_get_cancellable (invocation),
                                     searched_cb, g_object_ref (invocation));
  return TRUE;
}

/**
 * agent_search_documents_tool_new:
 * @index: the index to search
 *
 * Creates the `search_documents` tool: `{"query": "…", "max_results": 5}`
 * gives the passages of the indexed files closest in meaning to the query,
 * as [method@Agent.DocumentIndex.search_async] does (a JSON array of
 * `path`, `start`, `end`, `first_line`, `last_line`, `text` and `score`);
 * `max_results` is 1 to 20, 5 when left out.
 *
 * It reads only the index, whose folders the user chose, and needs no
 * approval ([property@Agent.Tool:requires-approval] is unset; `read_file`,
 * which can read any file, needs it). Update the index before a turn with
 * [method@Agent.DocumentIndex.update_async]: the tool does not.
 *
 * Returns: (transfer full): a new [class@Agent.Tool]
 *
 * Since: 0.1
 */
AgentTool *
agent_search_documents_tool_new (AgentDocumentIndex *index)
{
  g_autoptr(JsonNode) parameters = NULL;

  g_return_val_if_fail (AGENT_IS_DOCUMENT_INDEX (index), NULL);

  parameters = agent_tool_parse_parameters (parameters_schema, NULL);
  return agent_tool_new ("search_documents",
                         "Searches the user's own documents (the folders they indexed) by "
                         "meaning, and returns the passages closest to the query, best first, "
                         "each with its file's path, its lines and a score from 0 to 1.",
                         parameters, search_documents, g_object_ref (index), g_object_unref);
}
