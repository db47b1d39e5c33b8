/* agent-conversation-export.c — a conversation as Markdown or JSON
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "store/agent-conversation-private.h"
#include "agent-error.h"
#include "agent-enums.h"
#include "messages/agent-message-private.h"
#include "messages/agent-tool-call-private.h"
#include "json/agent-json-private.h"

/* JSON */

static void
add_string (JsonBuilder *builder,
            const char  *name,
            const char  *value)
{
  if (value != NULL)
    {
      json_builder_set_member_name (builder, name);
      json_builder_add_string_value (builder, value);
    }
}

static void
add_node (JsonBuilder *builder,
          const char  *name,
          JsonNode    *node)
{
  if (node != NULL)
    {
      json_builder_set_member_name (builder, name);
      json_builder_add_value (builder, node);
    }
}

static void
add_time (JsonBuilder *builder,
          const char  *name,
          GDateTime   *date_time)
{
  g_autofree char *text = g_date_time_format_iso8601 (date_time);

  add_string (builder, name, text);
}

static void
add_tool_call (JsonBuilder   *builder,
               AgentToolCall *call)
{
  json_builder_begin_object (builder);
  add_string (builder, "id", call->id);
  add_string (builder, "name", call->name);
  add_string (builder, "type", call->type);
  add_string (builder, "arguments", call->arguments->str);
  add_string (builder, "state", _agent_store_enum_nick (AGENT_TYPE_TOOL_CALL_STATE, call->state));
  add_string (builder, "result", call->result);
  json_builder_set_member_name (builder, "is-error");
  json_builder_add_boolean_value (builder, call->is_error);
  json_builder_set_member_name (builder, "duration-us");
  json_builder_add_int_value (builder, call->duration);
  add_node (builder, "provider-data", call->provider_data ? json_node_copy (call->provider_data)
                                                          : NULL);
  json_builder_end_object (builder);
}

/* @seq: its id; @parent: AGENT_MESSAGE_TREE_ROOT for a first message */
static void
add_message (JsonBuilder  *builder,
             guint         seq,
             guint         parent,
             AgentMessage *message,
             const GError *error)
{
  guint n_calls = agent_message_get_n_tool_calls (message);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "id");
  json_builder_add_int_value (builder, seq);
  json_builder_set_member_name (builder, "parent");
  if (parent == AGENT_MESSAGE_TREE_ROOT)
    json_builder_add_null_value (builder);
  else
    json_builder_add_int_value (builder, parent);
  add_string (builder, "role", _agent_store_enum_nick (AGENT_TYPE_MESSAGE_ROLE, message->role));
  add_string (builder, "state", _agent_store_enum_nick (AGENT_TYPE_MESSAGE_STATE, message->state));
  add_string (builder, "content", agent_message_get_content (message));
  add_string (builder, "reasoning", agent_message_get_reasoning (message));
  add_string (builder, "refusal", agent_message_get_refusal (message));
  _agent_store_export_attachments_json (builder, message);
  if (n_calls > 0)
    {
      json_builder_set_member_name (builder, "tool-calls");
      json_builder_begin_array (builder);
      for (guint i = 0; i < n_calls; i++)
        add_tool_call (builder, agent_message_get_tool_call (message, i));
      json_builder_end_array (builder);
    }
  add_string (builder, "tool-call-id", message->tool_call_id);
  add_string (builder, "tool-name", message->tool_name);
  if (message->role == AGENT_MESSAGE_ROLE_TOOL)
    {
      json_builder_set_member_name (builder, "is-error");
      json_builder_add_boolean_value (builder, message->is_error);
    }
  add_string (builder, "finish-reason", message->finish_reason);
  add_string (builder, "response-id", message->response_id);
  add_string (builder, "model", message->model);
  add_time (builder, "created", message->created);
  add_node (builder, "usage", _agent_store_usage_to_node (message->usage));
  add_node (builder, "metrics", _agent_store_metrics_to_node (message->metrics));
  add_node (builder, "turn-metrics", _agent_store_metrics_to_node (message->turn_metrics));
  add_node (builder, "provider-data", message->provider_data ? json_node_copy (message->provider_data)
                                                             : NULL);
  if (message->is_summary)
    {
      json_builder_set_member_name (builder, "summary");
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "start");
      json_builder_add_int_value (builder, message->summary_start);
      json_builder_set_member_name (builder, "end");
      json_builder_add_int_value (builder, message->summary_end);
      json_builder_end_object (builder);
    }
  add_node (builder, "error", _agent_conversation_error_to_node (error));
  json_builder_end_object (builder);
}

static const GError *
lookup_error (AgentConversation *self,
              guint              seq)
{
  return self->errors ? g_hash_table_lookup (self->errors, GUINT_TO_POINTER (seq)) : NULL;
}

/* "messages": the active path, as a reader of version 1 of the format
 * reads it; "branches": every other message, in the order they came;
 * "leaf": the id of the path's last message. Each message has its "id"
 * and its "parent". */
static void
add_messages (JsonBuilder       *builder,
              AgentConversation *self)
{
  guint leaf = _agent_message_tree_get_leaf (self->tree);
  guint next = _agent_message_tree_get_next_seq (self->tree);

  json_builder_set_member_name (builder, "messages");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->messages->len; i++)
    {
      guint seq = _agent_message_tree_get_seq (self->tree, i);

      add_message (builder, seq, _agent_message_tree_get_parent (self->tree, seq),
                   g_ptr_array_index (self->messages, i), lookup_error (self, seq));
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "branches");
  json_builder_begin_array (builder);
  for (guint seq = 0; seq < next; seq++)
    {
      AgentMessage *message = _agent_message_tree_lookup (self->tree, seq);

      if (message != NULL && _agent_message_tree_find (self->tree, seq) < 0)
        add_message (builder, seq, _agent_message_tree_get_parent (self->tree, seq), message,
                     lookup_error (self, seq));
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "leaf");
  if (leaf == AGENT_MESSAGE_TREE_ROOT)
    json_builder_add_null_value (builder);
  else
    json_builder_add_int_value (builder, leaf);
}

char *
_agent_conversation_to_json (AgentConversation *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  GDateTime *created = agent_conversation_get_created (self);
  GDateTime *updated = agent_conversation_get_updated (self);

  json_builder_begin_object (builder);
  add_string (builder, "format", "libagent-conversation");
  json_builder_set_member_name (builder, "version");
  json_builder_add_int_value (builder, 1);
  json_builder_set_member_name (builder, "id");
  json_builder_add_int_value (builder, self->id);
  add_string (builder, "title", self->title);
  add_time (builder, "created", created);
  add_time (builder, "updated", updated);
  add_string (builder, "provider", self->provider);
  add_string (builder, "model", self->model);
  add_string (builder, "profile", self->profile);
  add_node (builder, "settings", self->settings ? json_node_copy (self->settings) : NULL);
  add_messages (builder, self);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  return agent_json_node_to_string (root, TRUE);
}

/* Markdown */

/* A code block whose fence is longer than any run of backticks in @text */
static void
append_code_block (GString    *out,
                   const char *info,
                   const char *text)
{
  guint longest = 0, run = 0;

  for (const char *p = text; *p; p++)
    {
      run = *p == '`' ? run + 1 : 0;
      longest = MAX (longest, run);
    }

  for (guint i = 0; i < MAX (3, longest + 1); i++)
    g_string_append_c (out, '`');
  g_string_append_printf (out, "%s\n%s%s", info, text,
                          *text && !g_str_has_suffix (text, "\n") ? "\n" : "");
  for (guint i = 0; i < MAX (3, longest + 1); i++)
    g_string_append_c (out, '`');
  g_string_append (out, "\n\n");
}

static void
append_quoted (GString    *out,
               const char *title,
               const char *text)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  g_string_append_printf (out, "> **%s**\n>\n", title);
  for (guint i = 0; lines[i] != NULL; i++)
    g_string_append_printf (out, ">%s%s\n", *lines[i] ? " " : "", lines[i]);
  g_string_append_c (out, '\n');
}

static const char *
author (AgentMessage *message)
{
  switch (agent_message_get_role (message))
    {
    case AGENT_MESSAGE_ROLE_SYSTEM:
      return _("System");
    case AGENT_MESSAGE_ROLE_USER:
      return _("You");
    case AGENT_MESSAGE_ROLE_TOOL:
      return _("Tool result");
    case AGENT_MESSAGE_ROLE_ASSISTANT:
    default:
      return _("Assistant");
    }
}

static void
append_message (GString      *out,
                AgentMessage *message,
                const GError *error)
{
  const char *content = agent_message_get_content (message);
  const char *reasoning = agent_message_get_reasoning (message);
  const char *refusal = agent_message_get_refusal (message);
  guint n_calls = agent_message_get_n_tool_calls (message);

  g_string_append_printf (out, "## %s", author (message));
  if (message->role == AGENT_MESSAGE_ROLE_TOOL && message->tool_name != NULL)
    g_string_append_printf (out, ": `%s`", message->tool_name);
  g_string_append (out, "\n\n");

  if (reasoning != NULL && *reasoning)
    append_quoted (out, _("Reasoning"), reasoning);

  if (message->role == AGENT_MESSAGE_ROLE_TOOL)
    {
      if (message->is_error)
        g_string_append_printf (out, "**%s**\n\n", _("Error"));
      append_code_block (out, "", content ? content : "");
    }
  else if (content != NULL && *content)
    g_string_append_printf (out, "%s\n\n", content);

  _agent_store_export_attachments_markdown (out, message);

  if (refusal != NULL && *refusal)
    append_quoted (out, _("Refusal"), refusal);

  for (guint i = 0; i < n_calls; i++)
    {
      AgentToolCall *call = agent_message_get_tool_call (message, i);

      g_string_append_printf (out, "**%s** `%s`\n\n", _("Tool call"), call->name);
      append_code_block (out, "json", call->arguments->str);
    }

  if (message->state == AGENT_MESSAGE_STATE_INTERRUPTED)
    g_string_append_printf (out, "*%s*\n\n", _("This answer was interrupted."));
  if (error != NULL)
    append_quoted (out, _("The turn failed"), error->message);
}

char *
_agent_conversation_to_markdown (AgentConversation *self)
{
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GDateTime) local = g_date_time_to_local (agent_conversation_get_created (self));
  g_autofree char *date = g_date_time_format (local, "%Y-%m-%d %H:%M");

  g_string_append_printf (out, "# %s\n\n", self->title ? self->title : _("Untitled conversation"));
  g_string_append_printf (out, "*%s", date);
  if (self->provider != NULL)
    g_string_append_printf (out, " · %s", self->provider);
  if (self->model != NULL)
    g_string_append_printf (out, " · %s", self->model);
  g_string_append (out, "*\n\n");

  for (guint i = 0; i < self->messages->len; i++)
    append_message (out, g_ptr_array_index (self->messages, i),
                    agent_conversation_get_error (self, i));

  /* One newline at the end */
  while (out->len > 1 && out->str[out->len - 1] == '\n' && out->str[out->len - 2] == '\n')
    g_string_truncate (out, out->len - 1);

  return g_string_free (g_steal_pointer (&out), FALSE);
}

/**
 * agent_conversation_export:
 * @self: a [class@Agent.Conversation]
 * @format: what to write
 * @error: return location for a [struct@GLib.Error]
 *
 * Writes the conversation as Markdown (for people: the title, then each
 * message of the active branch under its author, tool calls and results in
 * code blocks) or as JSON (everything the store keeps: the conversation's
 * fields and, for each message of every branch, its id, its parent and
 * every field needed to continue it; "messages" is the active branch,
 * "branches" the other messages and "leaf" the id of the active branch's
 * last message). API keys are never part of a conversation, so never of
 * an export.
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
