/* agent-chat-approvals.c
 *
 * The tools a conversation may run without asking: "Allow for This
 * Conversation" of a tool, or of every tool of an MCP server. They are kept
 * with the conversation, in its settings (a stored conversation's
 * agent_conversation_get_settings(), member "allowed-tools": keys
 * "tool:NAME" for a built-in tool, "mcp:SERVER/TOOL" for a tool of an MCP
 * server, "server:SERVER" for all the tools of one), so they come back with
 * it after a restart and go with it when it is deleted. A chat that is not
 * stored keeps them in memory. They are given back one by one, or all at
 * once, from the conversation's menu.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "agent-chat-approvals.h"
#include "agent-chat-names.h"

#define DATA_KEY "agent-chat-allowed-tools"

/* The keys that allow @tool: its own, and its server's */
static void
tool_keys (AgentTool  *tool,
           char      **own,
           char      **server)
{
  *server = NULL;
  if (AGENT_IS_MCP_TOOL (tool))
    {
      g_autoptr(AgentMcpClient) client = agent_mcp_tool_dup_client (AGENT_MCP_TOOL (tool));
      const char *name = client != NULL ? agent_mcp_client_get_name (client) : NULL;

      if (name != NULL)
        {
          *own = g_strdup_printf ("mcp:%s/%s", name,
                                  agent_mcp_tool_get_remote_name (AGENT_MCP_TOOL (tool)));
          *server = g_strdup_printf ("server:%s", name);
          return;
        }
    }
  *own = g_strdup_printf ("tool:%s", agent_tool_get_name (tool));
}

/**
 * agent_chat_approvals_list:
 * @memory: a conversation
 *
 * Returns: (transfer full): the keys of what @memory may run without asking
 */
char **
agent_chat_approvals_list (AgentMemory *memory)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

#if AGENT_HAS_STORE
  if (AGENT_IS_CONVERSATION (memory))
    {
      JsonNode *settings = agent_conversation_get_settings (AGENT_CONVERSATION (memory));
      JsonObject *object = settings && JSON_NODE_HOLDS_OBJECT (settings)
                           ? json_node_get_object (settings) : NULL;
      JsonNode *member = object ? json_object_get_member (object, AGENT_CHAT_APPROVALS_MEMBER)
                                : NULL;

      if (member != NULL && JSON_NODE_HOLDS_ARRAY (member))
        {
          JsonArray *array = json_node_get_array (member);

          for (guint i = 0; i < json_array_get_length (array); i++)
            {
              JsonNode *element = json_array_get_element (array, i);

              if (JSON_NODE_HOLDS_VALUE (element) &&
                  json_node_get_value_type (element) == G_TYPE_STRING)
                g_strv_builder_add (builder, json_node_get_string (element));
            }
        }
      return g_strv_builder_end (builder);
    }
#endif
  {
    char **kept = g_object_get_data (G_OBJECT (memory), DATA_KEY);

    if (kept != NULL)
      g_strv_builder_addv (builder, (const char **) kept);
  }
  return g_strv_builder_end (builder);
}

/**
 * agent_chat_approvals_keep:
 * @memory: a conversation
 * @keys: (nullable): what it may run without asking
 * @error: return location for a #GError
 *
 * Keeps @keys with @memory, in place of what was.
 *
 * Returns: whether they were written
 */
gboolean
agent_chat_approvals_keep (AgentMemory  *memory,
                           char        **keys,
                           GError      **error)
{
#if AGENT_HAS_STORE
  if (AGENT_IS_CONVERSATION (memory))
    {
      JsonNode *settings = agent_conversation_get_settings (AGENT_CONVERSATION (memory));
      g_autoptr(JsonNode) node = settings && JSON_NODE_HOLDS_OBJECT (settings)
                                 ? json_node_copy (settings) : json_node_new (JSON_NODE_OBJECT);
      g_autoptr(JsonObject) fresh = NULL;
      JsonObject *object;

      if (json_node_get_object (node) == NULL)
        {
          fresh = json_object_new ();
          json_node_set_object (node, fresh);
        }
      object = json_node_get_object (node);
      if (keys == NULL || keys[0] == NULL)
        {
          if (!json_object_has_member (object, AGENT_CHAT_APPROVALS_MEMBER))
            return TRUE;
          json_object_remove_member (object, AGENT_CHAT_APPROVALS_MEMBER);
        }
      else
        {
          JsonArray *array = json_array_new ();

          for (guint i = 0; keys[i] != NULL; i++)
            json_array_add_string_element (array, keys[i]);
          json_object_set_array_member (object, AGENT_CHAT_APPROVALS_MEMBER, array);
        }
      return agent_conversation_set_settings (AGENT_CONVERSATION (memory), node, error);
    }
#endif
  g_object_set_data_full (G_OBJECT (memory), DATA_KEY,
                          keys && keys[0] ? g_strdupv (keys) : NULL, (GDestroyNotify) g_strfreev);
  return TRUE;
}

/**
 * agent_chat_approvals_allows:
 * @memory: a conversation
 * @tool: a tool that asks before it runs
 *
 * Returns: whether @tool may run in @memory without asking
 */
gboolean
agent_chat_approvals_allows (AgentMemory *memory,
                             AgentTool   *tool)
{
  g_auto(GStrv) keys = agent_chat_approvals_list (memory);
  g_autofree char *own = NULL;
  g_autofree char *server = NULL;

  tool_keys (tool, &own, &server);
  return g_strv_contains ((const char * const *) keys, own) ||
         (server != NULL && g_strv_contains ((const char * const *) keys, server));
}

/**
 * agent_chat_approvals_add:
 * @memory: a conversation
 * @tool: a tool the user allowed
 * @scope: whether the tool is allowed, or every tool of its MCP server
 * @error: return location for a #GError
 *
 * Lets @tool (or its server's tools) run in @memory without asking.
 *
 * Returns: whether it was written
 */
gboolean
agent_chat_approvals_add (AgentMemory          *memory,
                          AgentTool            *tool,
                          AgentChatAllowScope   scope,
                          GError              **error)
{
  g_auto(GStrv) keys = agent_chat_approvals_list (memory);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) result = NULL;
  g_autofree char *own = NULL;
  g_autofree char *server = NULL;
  const char *key;

  tool_keys (tool, &own, &server);
  key = scope == AGENT_CHAT_ALLOW_SERVER && server != NULL ? server : own;
  if (g_strv_contains ((const char * const *) keys, key))
    return TRUE;
  g_strv_builder_addv (builder, (const char **) keys);
  g_strv_builder_add (builder, key);
  result = g_strv_builder_end (builder);
  return agent_chat_approvals_keep (memory, result, error);
}

/**
 * agent_chat_approvals_revoke:
 * @memory: a conversation
 * @key: (nullable): what to ask for again, or %NULL for everything
 * @error: return location for a #GError
 *
 * Returns: whether it was written
 */
gboolean
agent_chat_approvals_revoke (AgentMemory  *memory,
                             const char   *key,
                             GError      **error)
{
  g_auto(GStrv) keys = agent_chat_approvals_list (memory);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) result = NULL;

  for (guint i = 0; key != NULL && keys[i] != NULL; i++)
    if (!g_str_equal (keys[i], key))
      g_strv_builder_add (builder, keys[i]);
  result = g_strv_builder_end (builder);
  return agent_chat_approvals_keep (memory, result, error);
}

/**
 * agent_chat_approvals_describe:
 * @key: a key of agent_chat_approvals_list()
 *
 * Returns: (transfer full): what it allows, for a menu
 */
char *
agent_chat_approvals_describe (const char *key)
{
  if (g_str_has_prefix (key, "tool:"))
    /* Translators: a menu item; %s is a tool */
    return g_strdup_printf (_("Ask Again Before “%s”"), agent_chat_tool_title (key + 5));
  if (g_str_has_prefix (key, "server:"))
    /* Translators: a menu item; %s is a tool server (MCP) */
    return g_strdup_printf (_("Ask Again Before the Tools of “%s”"), key + 7);
  if (g_str_has_prefix (key, "mcp:") && strchr (key, '/') != NULL)
    {
      g_autofree char *server = g_strndup (key + 4, strchr (key, '/') - key - 4);

      /* Translators: a menu item; a tool, then its tool server (MCP) */
      return g_strdup_printf (_("Ask Again Before “%s” of “%s”"), strchr (key, '/') + 1, server);
    }
  return g_strdup (key);
}
