/* agent-mcp-limits.c — what an MCP server may send: how many tools, how
 * large a tool result, how long a call may stay unanswered
 *
 * Three properties of AgentMcpClient, and the checks agent-mcp-rpc.c makes
 * of a listing page and of a call's result before they become JsonNodes:
 * a server that lists 100,000 tools or answers with a million content
 * blocks is refused with an error that says so, before the answer takes
 * the application's memory.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "mcp/agent-mcp-private.h"
#include "agent-util-private.h"

enum {
  PROP_MAX_TOOLS,
  PROP_MAX_RESULT_SIZE,
  PROP_CALL_TIMEOUT,
  N_LIMIT_PROPS
};

G_STATIC_ASSERT (N_LIMIT_PROPS == AGENT_MCP_N_LIMIT_PROPS);

static GParamSpec *properties[N_LIMIT_PROPS];
static guint first_prop_id;

void
_agent_mcp_client_init_limits (AgentMcpClient *self)
{
  self->max_tools = AGENT_MCP_DEFAULT_MAX_TOOLS;
  self->max_result_size = AGENT_MCP_DEFAULT_MAX_RESULT_SIZE;
  self->call_timeout = AGENT_MCP_DEFAULT_CALL_TIMEOUT;
}

void
_agent_mcp_client_class_add_limits (GObjectClass *object_class,
                                    guint         first_id)
{
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  first_prop_id = first_id;

  /**
   * AgentMcpClient:max-tools:
   *
   * The most tools the server may offer, or 0 for no limit. A server that
   * lists more fails to connect, with %AGENT_ERROR_LIMIT: no model chooses
   * well among so many, and each is sent with every request.
   *
   * Since: 0.1
   */
  properties[PROP_MAX_TOOLS] =
    g_param_spec_uint ("max-tools", NULL, NULL, 0, G_MAXUINT, AGENT_MCP_DEFAULT_MAX_TOOLS, flags);

  /**
   * AgentMcpClient:max-result-size:
   *
   * The most bytes of text a tool result may hold, or 0 for no limit. A
   * larger result is not given to the model: the call fails with
   * %AGENT_ERROR_LIMIT, and the model reads why. Whatever this says, no
   * message of a server may be larger than 16 MiB, nor a result have more
   * than 10,000 content blocks.
   *
   * Since: 0.1
   */
  properties[PROP_MAX_RESULT_SIZE] =
    g_param_spec_uint ("max-result-size", NULL, NULL, 0, G_MAXUINT,
                       AGENT_MCP_DEFAULT_MAX_RESULT_SIZE, flags);

  /**
   * AgentMcpClient:call-timeout:
   *
   * The most seconds a tool call may wait for the server's answer, or 0 for
   * no limit; each progress report the server sends starts it again. A
   * call that reaches it fails with %AGENT_ERROR_TIMEOUT, and the server is
   * told it was cancelled. The session's
   * [property@Agent.Session:tool-timeout] and a tool's
   * [property@Agent.Tool:timeout] still apply.
   *
   * Since: 0.1
   */
  properties[PROP_CALL_TIMEOUT] =
    g_param_spec_double ("call-timeout", NULL, NULL, 0, AGENT_MAX_TIMEOUT_SECONDS,
                         AGENT_MCP_DEFAULT_CALL_TIMEOUT, flags);

  for (guint i = 0; i < N_LIMIT_PROPS; i++)
    g_object_class_install_property (object_class, first_prop_id + i, properties[i]);
}

gboolean
_agent_mcp_client_get_limit_property (AgentMcpClient *self,
                                      guint           prop_id,
                                      GValue         *value)
{
  switch (prop_id - first_prop_id)
    {
    case PROP_MAX_TOOLS:
      g_value_set_uint (value, self->max_tools);
      return TRUE;

    case PROP_MAX_RESULT_SIZE:
      g_value_set_uint (value, self->max_result_size);
      return TRUE;

    case PROP_CALL_TIMEOUT:
      g_value_set_double (value, self->call_timeout);
      return TRUE;

    default:
      return FALSE;
    }
}

gboolean
_agent_mcp_client_set_limit_property (AgentMcpClient *self,
                                      guint           prop_id,
                                      const GValue   *value)
{
  switch (prop_id - first_prop_id)
    {
    case PROP_MAX_TOOLS:
      agent_mcp_client_set_max_tools (self, g_value_get_uint (value));
      return TRUE;

    case PROP_MAX_RESULT_SIZE:
      agent_mcp_client_set_max_result_size (self, g_value_get_uint (value));
      return TRUE;

    case PROP_CALL_TIMEOUT:
      agent_mcp_client_set_call_timeout (self, g_value_get_double (value));
      return TRUE;

    default:
      return FALSE;
    }
}

/* The checks */

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

/* Properties */

/**
 * agent_mcp_client_get_max_tools:
 * @self: a [class@Agent.McpClient]
 *
 * Gets [property@Agent.McpClient:max-tools].
 *
 * Returns: the most tools the server may offer, or 0 for no limit
 *
 * Since: 0.1
 */
guint
agent_mcp_client_get_max_tools (AgentMcpClient *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (self), 0);
  return self->max_tools;
}

/**
 * agent_mcp_client_set_max_tools:
 * @self: a [class@Agent.McpClient]
 * @max_tools: the most tools the server may offer, or 0 for no limit
 *
 * Sets [property@Agent.McpClient:max-tools], for the next listing.
 *
 * Since: 0.1
 */
void
agent_mcp_client_set_max_tools (AgentMcpClient *self,
                                guint           max_tools)
{
  g_return_if_fail (AGENT_IS_MCP_CLIENT (self));

  if (self->max_tools != max_tools)
    {
      self->max_tools = max_tools;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_TOOLS]);
    }
}

/**
 * agent_mcp_client_get_max_result_size:
 * @self: a [class@Agent.McpClient]
 *
 * Gets [property@Agent.McpClient:max-result-size].
 *
 * Returns: the most bytes of text a tool result may hold, or 0 for no limit
 *
 * Since: 0.1
 */
guint
agent_mcp_client_get_max_result_size (AgentMcpClient *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (self), 0);
  return self->max_result_size;
}

/**
 * agent_mcp_client_set_max_result_size:
 * @self: a [class@Agent.McpClient]
 * @max_result_size: the most bytes of text a tool result may hold, or 0 for
 *   no limit
 *
 * Sets [property@Agent.McpClient:max-result-size].
 *
 * Since: 0.1
 */
void
agent_mcp_client_set_max_result_size (AgentMcpClient *self,
                                      guint           max_result_size)
{
  g_return_if_fail (AGENT_IS_MCP_CLIENT (self));

  if (self->max_result_size != max_result_size)
    {
      self->max_result_size = max_result_size;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_RESULT_SIZE]);
    }
}

/**
 * agent_mcp_client_get_call_timeout:
 * @self: a [class@Agent.McpClient]
 *
 * Gets [property@Agent.McpClient:call-timeout].
 *
 * Returns: seconds, or 0 for no limit
 *
 * Since: 0.1
 */
double
agent_mcp_client_get_call_timeout (AgentMcpClient *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (self), 0);
  return self->call_timeout;
}

/**
 * agent_mcp_client_set_call_timeout:
 * @self: a [class@Agent.McpClient]
 * @call_timeout: seconds, or 0 for no limit
 *
 * Sets [property@Agent.McpClient:call-timeout], for the calls made from
 * now on.
 *
 * Since: 0.1
 */
void
agent_mcp_client_set_call_timeout (AgentMcpClient *self,
                                   double          call_timeout)
{
  g_return_if_fail (AGENT_IS_MCP_CLIENT (self));
  g_return_if_fail (AGENT_IS_VALID_TIMEOUT (call_timeout));

  if (self->call_timeout != call_timeout)
    {
      self->call_timeout = call_timeout;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CALL_TIMEOUT]);
    }
}
