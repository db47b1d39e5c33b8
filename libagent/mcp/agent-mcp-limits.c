/* agent-mcp-limits.c — what an MCP server may send: how many tools, how
 * large a tool result
 *
 * The checks agent-mcp-rpc.c makes of a listing page and of a call's
 * result before they become JsonNodes, by the client's max-tools and
 * max-result-size (the properties, and call-timeout, are in
 * agent-mcp-client.c): a server that lists 100,000 tools or answers with
 * a million content blocks is refused with an error that says so, before
 * the answer takes the application's memory.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "mcp/agent-mcp-private.h"

static guint
count_elements (const AgentJson *array)
{
  AgentJsonIter iter;
  AgentJson element;
  guint n = 0;

  agent_json_iter_init (&iter, array);
  while (agent_json_iter_next (&iter, NULL, NULL, &element))
    n++;
  return n;
}

/* One page of tools/list: with the pages before it, at most max-tools */
GError *
_agent_mcp_check_tools_page (const AgentJson *result,
                             gpointer         user_data)
{
  AgentMcpClient *self = user_data;
  AgentJson tools = agent_json_member (result, "tools");
  guint listed = self->listing != NULL ? self->listing->len : 0;

  if (self->max_tools == 0 || !agent_json_is (&tools, AGENT_JSON_ARRAY))
    return NULL;

  if ((guint64) listed + count_elements (&tools) <= self->max_tools)
    return NULL;

  return g_error_new (AGENT_ERROR, AGENT_ERROR_LIMIT,
                      g_dngettext (GETTEXT_PACKAGE,
                                   "The MCP server “%s” offers more than %u tool (max-tools)",
                                   "The MCP server “%s” offers more than %u tools (max-tools)",
                                   self->max_tools),
                      self->name, self->max_tools);
}

/* The text of a content block, as _agent_mcp_result_to_text() takes it */
static gsize
block_text_size (const AgentJson *block)
{
  AgentJson resource = agent_json_member (block, "resource");
  gsize len = 0;

  if (agent_json_member_string (block, "text", &len) != NULL)
    return len;
  if (agent_json_member_string (&resource, "text", &len) != NULL)
    return len;
  return 0;
}

/* A tools/call result: at most AGENT_MCP_MAX_CONTENT_BLOCKS blocks, and
 * max-result-size bytes of text */
GError *
_agent_mcp_check_call_result (const AgentJson *result,
                              gpointer         user_data)
{
  AgentMcpClient *self = user_data;
  AgentJson content = agent_json_member (result, "content");
  AgentJsonIter iter;
  AgentJson block;
  guint64 size = 0;
  guint n_blocks = 0;

  if (!agent_json_is (&content, AGENT_JSON_ARRAY))
    return NULL;

  agent_json_iter_init (&iter, &content);
  while (agent_json_iter_next (&iter, NULL, NULL, &block))
    {
      if (++n_blocks > AGENT_MCP_MAX_CONTENT_BLOCKS)
        return g_error_new (AGENT_ERROR, AGENT_ERROR_LIMIT,
                            _("The MCP server “%s” answered with more than %u content blocks; "
                              "the result was not used"),
                            self->name, AGENT_MCP_MAX_CONTENT_BLOCKS);
      size += block_text_size (&block);
    }

  if (self->max_result_size > 0 && size > self->max_result_size)
    {
      g_autofree char *size_text = g_format_size_full (size, G_FORMAT_SIZE_IEC_UNITS);
      g_autofree char *limit = g_format_size_full (self->max_result_size,
                                                   G_FORMAT_SIZE_IEC_UNITS);

      return g_error_new (AGENT_ERROR, AGENT_ERROR_LIMIT,
                          _("The MCP server “%s” answered with %s of text, more than %s "
                            "(max-result-size); the result was not used"),
                          self->name, size_text, limit);
    }

  return NULL;
}
