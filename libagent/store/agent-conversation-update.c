/* agent-conversation-update.c — what a conversation is held with
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "store/agent-conversation-private.h"
#include "agent-error.h"
#include "transport/agent-provider.h"
#include "tools/agent-tool.h"
#include "agent-util-private.h"

typedef enum
{
  COLUMN_TITLE = STMT_SET_TITLE,
  COLUMN_PROVIDER = STMT_SET_PROVIDER,
  COLUMN_MODEL = STMT_SET_MODEL,
  COLUMN_SETTINGS = STMT_SET_SETTINGS,
} Column;

/* Queues the writing of the columns, in one transaction. A conversation
 * whose row is not written (nor queued) yet keeps them for its first
 * write. */
static gboolean
update_columns (AgentConversation   *self,
                const Column        *columns,
                const char * const  *values,
                guint                n_columns,
                GError             **error)
{
  g_autoptr(AgentStoreBatch) batch = NULL;

  if (self->id == 0 && !self->row_queued)
    return TRUE;

  if (!_agent_conversation_check_writable (self, error))
    return FALSE;

  batch = _agent_store_batch_new (self->target);
  for (guint i = 0; i < n_columns; i++)
    {
      _agent_store_batch_add (batch, (AgentStoreStatement) columns[i]);
      _agent_store_batch_conversation (batch);
      _agent_store_batch_text (batch, values[i], -1);
    }
  _agent_conversation_queue (self, g_steal_pointer (&batch));
  return TRUE;
}

static void
replace_string (AgentConversation *self,
                char             **field,
                const char        *value,
                const char        *property)
{
  if (g_strcmp0 (*field, value) != 0)
    {
      g_free (*field);
      *field = g_strdup (value);
      g_object_notify (G_OBJECT (self), property);
    }
}

/**
 * agent_conversation_rename:
 * @self: a [class@Agent.Conversation]
 * @title: (nullable): the new title
 * @error: return location for a [struct@GLib.Error]
 *
 * Gives the conversation a title, and writes it (on the store's writer
 * thread: see [signal@Agent.Conversation::write-failed]).
 *
 * Returns: %TRUE if the title was given
 *
 * Since: 0.1
 */
gboolean
agent_conversation_rename (AgentConversation  *self,
                           const char         *title,
                           GError            **error)
{
  static const Column columns[] = { COLUMN_TITLE };
  g_autofree char *clean = NULL;

  g_return_val_if_fail (AGENT_IS_CONVERSATION (self), FALSE);

  if (title != NULL)
    {
      if (!g_utf8_validate (title, -1, NULL))
        {
          g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                               _("The title is not valid UTF-8"));
          return FALSE;
        }
      clean = g_strstrip (g_strdup (title));
      if (*clean == '\0')
        g_clear_pointer (&clean, g_free);
    }

  if (!update_columns (self, columns, (const char * const[]) { clean }, 1, error))
    return FALSE;

  replace_string (self, &self->title, clean, "title");
  return TRUE;
}

/**
 * agent_conversation_set_model:
 * @self: a [class@Agent.Conversation]
 * @provider: (nullable): the provider's name
 * @model: (nullable): the model's name
 * @error: return location for a [struct@GLib.Error]
 *
 * Records the provider and the model the conversation is held with (written
 * on the store's writer thread).
 *
 * Returns: %TRUE if they were recorded
 *
 * Since: 0.1
 */
gboolean
agent_conversation_set_model (AgentConversation  *self,
                              const char         *provider,
                              const char         *model,
                              GError            **error)
{
  static const Column columns[] = { COLUMN_PROVIDER, COLUMN_MODEL };

  g_return_val_if_fail (AGENT_IS_CONVERSATION (self), FALSE);

  if (!update_columns (self, columns, (const char * const[]) { provider, model }, 2, error))
    return FALSE;

  replace_string (self, &self->provider, provider, "provider");
  replace_string (self, &self->model, model, "model");
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

static const char *
find_secret (JsonNode *node)
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
          if ((found = find_secret (member)))
            return found;
        }
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          const char *found = find_secret (json_array_get_element (array, i));

          if (found)
            return found;
        }
    }
  return NULL;
}

/**
 * agent_conversation_set_settings:
 * @self: a [class@Agent.Conversation]
 * @settings: (nullable): a JSON object
 * @error: return location for a [struct@GLib.Error]
 *
 * Records the application's settings for the conversation (base URL,
 * system prompt, tools…), a sealed copy of @settings. Settings that hold a
 * credential (a member named like `api-key`, `authorization`, `token` or
 * `password`) are refused with %AGENT_ERROR_INVALID_ARGUMENT: API keys
 * belong in the keyring (see [func@Agent.secret_store_api_key_async]),
 * never in the database or an export.
 *
 * They are written on the store's writer thread.
 *
 * Returns: %TRUE if they were recorded
 *
 * Since: 0.1
 */
gboolean
agent_conversation_set_settings (AgentConversation  *self,
                                 JsonNode           *settings,
                                 GError            **error)
{
  static const Column columns[] = { COLUMN_SETTINGS };
  g_autofree char *text = NULL;
  const char *secret;

  g_return_val_if_fail (AGENT_IS_CONVERSATION (self), FALSE);
  g_return_val_if_fail (settings == NULL || JSON_NODE_HOLDS_OBJECT (settings), FALSE);

  if (settings != NULL && (secret = find_secret (settings)) != NULL)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("Conversation settings may not hold credentials (“%s”); keep API keys "
                     "in the keyring"),
                   secret);
      return FALSE;
    }

  text = _agent_store_node_to_text (settings);
  if (!update_columns (self, columns, (const char * const[]) { text }, 1, error))
    return FALSE;

  g_clear_pointer (&self->settings, json_node_unref);
  if (text != NULL)
    {
      self->settings = json_from_string (text, NULL);
      json_node_seal (self->settings);
    }
  g_object_notify (G_OBJECT (self), "settings");
  return TRUE;
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

/**
 * agent_conversation_export:
 * @self: a [class@Agent.Conversation]
 * @format: what to write
 * @error: return location for a [struct@GLib.Error]
 *
 * Writes the conversation as Markdown (for people: the title, then each
 * message under its author, tool calls and results in code blocks) or as
 * JSON (everything the store keeps: the conversation's fields and, for
 * each message, every field needed to continue it). API keys are never
 * part of a conversation, so never of an export.
 *
 * Returns: (transfer full): the text, or %NULL if the messages could not
 *   be read
 *
 * Since: 0.1
 */
char *
agent_conversation_export (AgentConversation  *self,
                           AgentExportFormat   format,
                           GError            **error)
{
  g_return_val_if_fail (AGENT_IS_CONVERSATION (self), NULL);

  if (!agent_conversation_load (self, error))
    return NULL;

  switch (format)
    {
    case AGENT_EXPORT_FORMAT_MARKDOWN:
      return _agent_conversation_to_markdown (self);

    case AGENT_EXPORT_FORMAT_JSON:
      return _agent_conversation_to_json (self);

    default:
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("Unknown export format %d"), format);
      return NULL;
    }
}
