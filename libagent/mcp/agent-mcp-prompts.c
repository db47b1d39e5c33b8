/* agent-mcp-prompts.c — the prompts of an MCP server
 *
 *   prompts/list                       AgentMcpPrompt, page after page
 *   prompts/get                        AgentMessages, for a conversation's start
 *   notifications/prompts/list_changed ::prompts-changed
 *
 * A prompt's messages become AgentMessages of their role (user or
 * assistant): text as a text part, an image as an image part, an embedded
 * resource as resources/read makes it (agent-mcp-resources.c), a link to a
 * resource and audio described in words.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "messages/agent-message.h"
#include "mcp/agent-mcp-private.h"

static gboolean
check_offered (AgentMcpClient  *self,
               GError         **error)
{
  JsonNode *prompts;

  if (self->capabilities == NULL)
    return TRUE;

  prompts = json_object_get_member (json_node_get_object (self->capabilities), "prompts");
  if (prompts == NULL || !JSON_NODE_HOLDS_OBJECT (prompts))
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_UNSUPPORTED,
                   _("The MCP server “%s” offers no prompts"), self->name);
      return FALSE;
    }
  return TRUE;
}

static GObject *
make_prompt (JsonObject *definition)
{
  return (GObject *) _agent_mcp_prompt_new (definition);
}

/**
 * agent_mcp_client_list_prompts_async:
 * @self: a [class@Agent.McpClient]
 * @cancellable: (nullable): a [class@Gio.Cancellable]
 * @callback: (scope async): called with the prompts
 * @user_data: data for @callback
 *
 * Lists the server's prompts (`prompts/list`, page after page),
 * connecting first if needed.
 *
 * Since: 0.1
 */
void
agent_mcp_client_list_prompts_async (AgentMcpClient      *self,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  GError *error = NULL;

  g_return_if_fail (AGENT_IS_MCP_CLIENT (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  if (!check_offered (self, &error))
    {
      g_task_report_error (self, callback, user_data, agent_mcp_client_list_prompts_async,
                           error);
      return;
    }
  _agent_mcp_client_list_async (self, "prompts/list", "prompts", AGENT_TYPE_MCP_PROMPT,
                                make_prompt, agent_mcp_client_list_prompts_async,
                                cancellable, callback, user_data);
}

/**
 * agent_mcp_client_list_prompts_finish:
 * @self: a [class@Agent.McpClient]
 * @result: the result given to the callback
 * @error: return location for a [struct@GLib.Error]
 *
 * Finishes [method@Agent.McpClient.list_prompts_async]. A server that
 * offers no prompts fails with %AGENT_ERROR_UNSUPPORTED.
 *
 * Returns: (transfer full): a [iface@Gio.ListModel] of
 *   [class@Agent.McpPrompt], or %NULL with @error set
 *
 * Since: 0.1
 */
GListModel *
agent_mcp_client_list_prompts_finish (AgentMcpClient  *self,
                                      GAsyncResult    *result,
                                      GError         **error)
{
  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (self), NULL);
  return _agent_mcp_client_list_finish (self, result, agent_mcp_client_list_prompts_async,
                                        error);
}

/* Getting one */


/* The part of one content block of a prompt message, or NULL with @error */
static AgentContentPart *
make_part (AgentMcpClient  *self,
           JsonObject      *block,
           GError         **error)
{
  const char *type = _agent_mcp_string (block, "type");
  const char *data = _agent_mcp_string (block, "data");
  const char *name = _agent_mcp_string (block, "name");
  const char *uri = _agent_mcp_string (block, "uri");
  g_autofree char *words = NULL;

  if (g_strcmp0 (type, "text") == 0 && _agent_mcp_string (block, "text") != NULL)
    return agent_content_part_new_text (_agent_mcp_string (block, "text"));

  if (g_strcmp0 (type, "image") == 0 && _agent_mcp_string (block, "mimeType") != NULL &&
      data != NULL && _agent_mcp_is_base64 (data))
    {
      gsize len = 0;
      guchar *decoded = g_base64_decode (data, &len);
      g_autoptr(GBytes) bytes = g_bytes_new_take (decoded, len);

      return agent_content_part_new_image (_agent_mcp_string (block, "mimeType"), bytes);
    }

  if (g_strcmp0 (type, "resource") == 0 && json_object_has_member (block, "resource") &&
      JSON_NODE_HOLDS_OBJECT (json_object_get_member (block, "resource")))
    return _agent_mcp_contents_to_part (self, NULL,
                                        json_object_get_object_member (block, "resource"), error);

  /* Words for the model, not the user: not translated */
  if (g_strcmp0 (type, "resource_link") == 0)
    words = g_strdup_printf ("[Resource: %s <%s>]", name ? name : "", uri ? uri : "");
  else if (g_strcmp0 (type, "audio") == 0)
    words = g_strdup_printf ("[Audio: %s]", _agent_mcp_string (block, "mimeType") ?
                                            _agent_mcp_string (block, "mimeType") : "?");
  if (words != NULL)
    return agent_content_part_new_text (words);

  g_set_error (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL,
               _("The MCP server “%s” gave a prompt message of an unknown kind (“%s”)"),
               self->name, type ? type : "?");
  return NULL;
}

/* The messages of a prompts/get answer, or NULL with @error */
static GListStore *
make_messages (AgentMcpClient  *self,
               const char      *name,
               JsonObject      *answer,
               GError         **error)
{
  g_autoptr(GListStore) messages = g_list_store_new (AGENT_TYPE_MESSAGE);
  JsonNode *node = json_object_get_member (answer, "messages");
  JsonArray *array;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node) ||
      json_array_get_length (json_node_get_array (node)) == 0)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                   _("The MCP server “%s” gave no messages for the prompt “%s”"),
                   self->name, name);
      return NULL;
    }

  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonObject *message = JSON_NODE_HOLDS_OBJECT (json_array_get_element (array, i))
                            ? json_array_get_object_element (array, i) : NULL;
      const char *role = _agent_mcp_string (message, "role");
      JsonNode *content = message ? json_object_get_member (message, "content") : NULL;
      g_autoptr(AgentContentPart) part = NULL;
      g_autoptr(AgentMessage) made = NULL;

      if (g_strcmp0 (role, "user") != 0 && g_strcmp0 (role, "assistant") != 0)
        {
          g_set_error (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                       _("The MCP server “%s” gave a message of the prompt “%s” with the "
                         "role “%s”; it may be “user” or “assistant”"),
                       self->name, name, role ? role : "?");
          return NULL;
        }
      if (content == NULL || !JSON_NODE_HOLDS_OBJECT (content))
        {
          g_set_error (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                       _("The MCP server “%s” gave a message of the prompt “%s” without "
                         "content"), self->name, name);
          return NULL;
        }
      part = make_part (self, json_node_get_object (content), error);
      if (part == NULL)
        return NULL;

      made = agent_message_new_with_parts (g_str_equal (role, "user")
                                           ? AGENT_MESSAGE_ROLE_USER
                                           : AGENT_MESSAGE_ROLE_ASSISTANT, &part, 1);
      g_list_store_append (messages, made);
    }

  return g_steal_pointer (&messages);
}

static void
get_cb (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AgentMcpClient *self = AGENT_MCP_CLIENT (object);
  const char *name = g_task_get_task_data (task);
  g_autoptr(JsonNode) node = NULL;
  GError *error = NULL;
  GListStore *messages;

  node = _agent_mcp_client_request_finish (self, result, &error);
  if (node == NULL)
    {
      if (g_error_matches (error, AGENT_ERROR, AGENT_ERROR_FAILED))
        {
          GError *refused;

          refused = g_error_new (AGENT_ERROR, AGENT_ERROR_FAILED,
                                 _("The MCP server “%s” refused the prompt “%s”: %s"),
                                 self->name, name, error->message);

          g_error_free (error);
          error = refused;
        }
      g_task_return_error (task, error);
      return;
    }

  messages = make_messages (self, name, json_node_get_object (node), &error);
  if (messages == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, messages, g_object_unref);
}

/**
 * agent_mcp_client_get_prompt_async:
 * @self: a [class@Agent.McpClient]
 * @name: the prompt's name ([property@Agent.McpPrompt:name])
 * @arguments: (nullable) (element-type utf8 utf8): its arguments, names to
 *   values
 * @cancellable: (nullable): a [class@Gio.Cancellable]
 * @callback: (scope async): called with the messages
 * @user_data: data for @callback
 *
 * Gets a prompt's messages (`prompts/get`) with these arguments,
 * connecting first if needed: the start of a conversation, to append to a
 * session's memory or send.
 *
 * Since: 0.1
 */
void
agent_mcp_client_get_prompt_async (AgentMcpClient      *self,
                                   const char          *name,
                                   GHashTable          *arguments,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  GError *error = NULL;
  cJSON *params;

  g_return_if_fail (AGENT_IS_MCP_CLIENT (self));
  g_return_if_fail (name != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, agent_mcp_client_get_prompt_async);
  g_task_set_check_cancellable (task, FALSE);
  g_task_set_task_data (task, g_strdup (name), g_free);

  if (!check_offered (self, &error))
    {
      g_task_return_error (task, error);
      return;
    }

  params = cJSON_CreateObject ();
  cJSON_AddStringToObject (params, "name", name);
  if (arguments != NULL && g_hash_table_size (arguments) > 0)
    {
      cJSON *object = cJSON_AddObjectToObject (params, "arguments");
      GHashTableIter iter;
      gpointer key, value;

      g_hash_table_iter_init (&iter, arguments);
      while (g_hash_table_iter_next (&iter, &key, &value))
        cJSON_AddStringToObject (object, key, value ? value : "");
    }

  _agent_mcp_client_request_async (self, "prompts/get", params, cancellable, get_cb,
                                   g_steal_pointer (&task));
}

/**
 * agent_mcp_client_get_prompt_finish:
 * @self: a [class@Agent.McpClient]
 * @result: the result given to the callback
 * @error: return location for a [struct@GLib.Error]
 *
 * Finishes [method@Agent.McpClient.get_prompt_async]. A prompt the server
 * refuses (unknown, or arguments missing or wrong) fails with
 * %AGENT_ERROR_FAILED and the server's words; messages libagent cannot
 * make sense of with %AGENT_ERROR_PROTOCOL.
 *
 * Returns: (transfer full): a [iface@Gio.ListModel] of
 *   [class@Agent.Message] (user and assistant messages), or %NULL with
 *   @error set
 *
 * Since: 0.1
 */
GListModel *
agent_mcp_client_get_prompt_finish (AgentMcpClient  *self,
                                    GAsyncResult    *result,
                                    GError         **error)
{
  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        agent_mcp_client_get_prompt_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
