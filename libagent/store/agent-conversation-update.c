/* agent-conversation-update.c — what a conversation is held with, written:
 * the columns of its row (the setters of agent-conversation.c queue them),
 * the settings checked for credentials, and what a session holds it with
 * (agent_conversation_record_session())
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "store/agent-conversation-private.h"
#include "transport/agent-provider.h"
#include "tools/agent-tool.h"
#include "agent-util-private.h"

/* Documented in agent-conversation-private.h */
gboolean
_agent_conversation_update_columns (AgentConversation          *self,
                                    const AgentStoreStatement  *columns,
                                    const char * const         *values,
                                    guint                       n_columns,
                                    GError                    **error)
{
  g_autoptr(AgentStoreBatch) batch = NULL;

  if (self->id == 0 && !self->row_queued)
    return TRUE;

  if (!_agent_conversation_check_writable (self, error))
    return FALSE;

  batch = _agent_store_batch_new (self->target);
  for (guint i = 0; i < n_columns; i++)
    {
      _agent_store_batch_add (batch, columns[i]);
      _agent_store_batch_conversation (batch);
      _agent_store_batch_text (batch, values[i], -1);
    }
  _agent_conversation_queue (self, g_steal_pointer (&batch));
  return TRUE;
}

/* Member names that hold credentials, compared without case, '-' or '_' */
static gboolean
is_secret_name (const char *name)
{
  static const char * const secrets[] = {
    "apikey", "xapikey", "xgoogapikey", "authorization", "token", "accesstoken",
    "bearertoken", "secret", "clientsecret", "password", NULL
  };
  g_autoptr(GString) folded = g_string_new (NULL);

  for (const char *p = name; *p; p++)
    if (*p != '-' && *p != '_')
      g_string_append_c (folded, g_ascii_tolower (*p));

  return g_strv_contains (secrets, folded->str);
}

/* Documented in agent-conversation-private.h */
const char *
_agent_conversation_find_secret (JsonNode *node)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObjectIter iter;
      const char *name;
      JsonNode *member;

      json_object_iter_init (&iter, json_node_get_object (node));
      while (json_object_iter_next (&iter, &name, &member))
        {
          const char *found;

          if (is_secret_name (name))
            return name;
          if ((found = _agent_conversation_find_secret (member)))
            return found;
        }
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          const char *found = _agent_conversation_find_secret (json_array_get_element (array, i));

          if (found)
            return found;
        }
    }
  return NULL;
}

/**
 * agent_conversation_record_session:
 * @self: a [class@Agent.Conversation]
 * @session: the session that holds the conversation
 * @error: return location for a [struct@GLib.Error]
 *
 * Records what @session holds the conversation with, so that it can be
 * continued the same way later (agent-cli's `--continue` reads it back):
 * its provider's name and model ([method@Agent.Conversation.set_model]),
 * and in its settings the `base-url` (without user information: a
 * password in it is a secret), the `system-prompt` and the names of its
 * `tools`; the settings' other members (the application's own) are kept.
 * Nothing is written when nothing changed. From then on, each
 * turn of @session, once over, releases the conversation for other
 * programs (see [method@Agent.Conversation.claim]).
 *
 * Returns: %TRUE on success, also when nothing had to be written
 *
 * Since: 0.1
 */
gboolean
agent_conversation_record_session (AgentConversation  *self,
                                   AgentSession       *session,
                                   GError            **error)
{
  AgentProvider *provider;
  const char *name;
  const char *model;
  const char *system_prompt;
  GListModel *tools;
  g_autofree char *base_url = NULL;
  g_autoptr(JsonObject) object = json_object_new ();
  g_autoptr(JsonArray) names = json_array_new ();
  g_autoptr(JsonNode) settings = json_node_new (JSON_NODE_OBJECT);
  JsonObjectIter iter;
  const char *member_name;
  JsonNode *member;

  g_return_val_if_fail (AGENT_IS_CONVERSATION (self), FALSE);
  g_return_val_if_fail (AGENT_IS_SESSION (session), FALSE);

  /* Each turn of the session, once over, lets other programs go on */
  _agent_conversation_follow_turns (self, session);

  provider = agent_session_get_provider (session);
  name = agent_provider_get_name (provider);
  model = agent_provider_get_model (provider);
  system_prompt = agent_session_get_system_prompt (session);
  tools = agent_session_get_tools (session);

  if ((g_strcmp0 (self->provider, name) != 0 || g_strcmp0 (self->model, model) != 0) &&
      !agent_conversation_set_model (self, name, model, error))
    return FALSE;

  for (guint i = 0; i < g_list_model_get_n_items (tools); i++)
    {
      g_autoptr(AgentTool) tool = g_list_model_get_item (tools, i);

      json_array_add_string_element (names, agent_tool_get_name (tool));
    }
  /* The application's own members (agent-chat keeps the tools allowed,
   * the model picked, …) stay as they are: only ours are replaced */
  if (self->settings != NULL && JSON_NODE_HOLDS_OBJECT (self->settings))
    {
      json_object_iter_init (&iter, json_node_get_object (self->settings));
      while (json_object_iter_next (&iter, &member_name, &member))
        json_object_set_member (object, member_name, json_node_copy (member));
    }
  json_object_remove_member (object, "system-prompt");

  /* A password in the base URL is a secret: it is not kept */
  base_url = _agent_url_hide_userinfo (agent_provider_get_base_url (provider));
  json_object_set_string_member (object, "base-url", base_url);
  if (system_prompt != NULL)
    json_object_set_string_member (object, "system-prompt", system_prompt);
  json_object_set_array_member (object, "tools", g_steal_pointer (&names));
  json_node_set_object (settings, object);

  if (self->settings != NULL && json_node_equal (self->settings, settings))
    return TRUE;
  return agent_conversation_set_settings (self, settings, error);
}
