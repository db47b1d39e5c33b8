/* agent-store-codec.c — messages to rows and back
 *
 * Every field of a message is kept, so that a stored conversation is sent
 * back to the model exactly as it was: text, reasoning and refusal byte for
 * byte (lengths included), tool calls with their ids, types, arguments,
 * states and results, the provider's own data (signatures, encrypted
 * reasoning) and the usage's raw object as json-glib writes them, the
 * finish reason, the metrics and the times.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-enums.h"
#include "agent-error.h"
#include "json/agent-json.h"
#include "messages/agent-message-private.h"
#include "messages/agent-metrics-private.h"
#include "store/agent-store-private.h"
#include "messages/agent-tool-call-private.h"
#include "messages/agent-usage-private.h"
#include "json/agent-json-private.h"

/* Columns of STMT_SELECT_MESSAGES */
enum {
  MSG_ID, MSG_ROLE, MSG_STATE, MSG_CONTENT, MSG_REASONING, MSG_REFUSAL, MSG_TOOL_CALL_ID,
  MSG_TOOL_NAME, MSG_IS_ERROR, MSG_FINISH_REASON, MSG_RESPONSE_ID, MSG_MODEL, MSG_CREATED,
  MSG_USAGE, MSG_METRICS, MSG_TURN_METRICS, MSG_PROVIDER_DATA, MSG_POSITION, MSG_PARENT,
};

/* Columns of STMT_SELECT_TOOL_CALLS */
enum {
  CALL_MESSAGE_ID, CALL_ID, CALL_NAME, CALL_TYPE, CALL_ARGUMENTS, CALL_STATE, CALL_RESULT,
  CALL_IS_ERROR, CALL_DURATION, CALL_PROVIDER_DATA,
};

/* Enums are stored by their nicks ("assistant", "interrupted"): readable,
 * and stable whatever the numbers. */
const char *
_agent_store_enum_nick (GType type,
                        int   value)
{
  GEnumClass *klass = g_type_class_ref (type);
  GEnumValue *enum_value = g_enum_get_value (klass, value);

  g_type_class_unref (klass);
  return enum_value ? enum_value->value_nick : NULL;
}

static gboolean
enum_from_nick (GType       type,
                const char *nick,
                int        *value)
{
  GEnumClass *klass = g_type_class_ref (type);
  GEnumValue *enum_value = nick ? g_enum_get_value_by_nick (klass, nick) : NULL;

  g_type_class_unref (klass);
  if (enum_value == NULL)
    return FALSE;
  *value = enum_value->value;
  return TRUE;
}

GDateTime *
_agent_store_date_time_new (gint64 usec)
{
  g_autoptr(GDateTime) seconds = g_date_time_new_from_unix_utc (usec / G_USEC_PER_SEC);

  return g_date_time_add (seconds, usec % G_USEC_PER_SEC);
}

gint64
_agent_store_date_time_to_usec (GDateTime *date_time)
{
  return g_date_time_to_unix (date_time) * G_USEC_PER_SEC +
         g_date_time_get_microsecond (date_time);
}

/* JSON text (agent_json_node_to_string()); NULL for NULL */
char *
_agent_store_node_to_text (JsonNode *node)
{
  return node != NULL ? agent_json_node_to_string (node, FALSE) : NULL;
}

/* The store's record of usage and metrics is not their public JSON form
 * (agent_usage_to_json(), agent_metrics_to_json()): it keeps everything, the
 * raw usage, the cached tokens, the generation time and the times not known
 * (-1), so that the functions below read back what was written. */
JsonNode *
_agent_store_usage_to_node (AgentUsage *usage)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  JsonNode *raw;
  gint64 cached;

  if (usage == NULL)
    return NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "prompt-tokens");
  json_builder_add_int_value (builder, agent_usage_get_prompt_tokens (usage));
  json_builder_set_member_name (builder, "completion-tokens");
  json_builder_add_int_value (builder, agent_usage_get_completion_tokens (usage));
  json_builder_set_member_name (builder, "total-tokens");
  json_builder_add_int_value (builder, agent_usage_get_total_tokens (usage));
  json_builder_set_member_name (builder, "reasoning-tokens");
  json_builder_add_int_value (builder, agent_usage_get_reasoning_tokens (usage));
  /* The cache's counts only where the provider reported them (stores
   * written before had cached-tokens always) */
  if ((cached = _agent_usage_get_reported_cached_tokens (usage)) >= 0)
    {
      json_builder_set_member_name (builder, "cached-tokens");
      json_builder_add_int_value (builder, cached);
    }
  if ((cached = _agent_usage_get_reported_cache_creation_tokens (usage)) >= 0)
    {
      json_builder_set_member_name (builder, "cache-creation-tokens");
      json_builder_add_int_value (builder, cached);
    }
  if ((raw = agent_usage_get_raw (usage)) != NULL)
    {
      json_builder_set_member_name (builder, "raw");
      json_builder_add_value (builder, json_node_copy (raw));
    }
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

static AgentUsage *
usage_from_object (JsonObject *object)
{
  gint64 cache_creation;

  if (object == NULL)
    return NULL;

  cache_creation = json_object_get_int_member_with_default (object, "cache-creation-tokens", -1);
  return _agent_usage_new_full (json_object_get_int_member_with_default (object, "prompt-tokens", 0),
                                json_object_get_int_member_with_default (object, "completion-tokens", 0),
                                json_object_get_int_member_with_default (object, "total-tokens", 0),
                                json_object_get_int_member_with_default (object, "reasoning-tokens", 0),
                                json_object_get_int_member_with_default (object, "cached-tokens", -1),
                                cache_creation,
                                json_object_get_member (object, "raw"));
}

static void
add_int (JsonBuilder *builder,
         const char  *name,
         gint64       value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_int_value (builder, value);
}

JsonNode *
_agent_store_metrics_to_node (AgentMetrics *metrics)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  if (metrics == NULL)
    return NULL;

  json_builder_begin_object (builder);
  add_int (builder, "steps", metrics->steps);
  add_int (builder, "time-to-first-token-us", metrics->time_to_first_token);
  add_int (builder, "duration-us", metrics->duration);
  add_int (builder, "wait-us", metrics->wait_time);
  add_int (builder, "generation-us", metrics->generation_time);
  add_int (builder, "tool-calls", metrics->tool_calls);
  add_int (builder, "tool-time-us", metrics->tool_time);
  if (metrics->usage != NULL)
    {
      json_builder_set_member_name (builder, "usage");
      json_builder_add_value (builder, _agent_store_usage_to_node (metrics->usage));
    }
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

static AgentMetrics *
metrics_from_object (JsonObject *object)
{
  g_autoptr(AgentUsage) usage = NULL;
  AgentMetrics values = { 0 };
  JsonNode *usage_node;

  if (object == NULL)
    return NULL;

  if ((usage_node = json_object_get_member (object, "usage")) && JSON_NODE_HOLDS_OBJECT (usage_node))
    usage = usage_from_object (json_node_get_object (usage_node));

  values.steps = json_object_get_int_member_with_default (object, "steps", 0);
  values.time_to_first_token = json_object_get_int_member_with_default (object,
                                                                        "time-to-first-token-us",
                                                                        -1);
  values.duration = json_object_get_int_member_with_default (object, "duration-us", 0);
  values.wait_time = json_object_get_int_member_with_default (object, "wait-us", 0);
  values.generation_time = json_object_get_int_member_with_default (object, "generation-us", 0);
  values.tool_calls = json_object_get_int_member_with_default (object, "tool-calls", 0);
  values.tool_time = json_object_get_int_member_with_default (object, "tool-time-us", 0);
  values.usage = usage;

  return _agent_metrics_new (&values);
}

AgentUsage *
_agent_store_usage_from_node (JsonNode *node)
{
  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? usage_from_object (json_node_get_object (node))
                                                       : NULL;
}

AgentMetrics *
_agent_store_metrics_from_node (JsonNode *node)
{
  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) ?
         metrics_from_object (json_node_get_object (node)) : NULL;
}

/* Batching: the values are copied now, on the caller's thread */

static void
add_text (AgentStoreBatch *batch,
          const char      *text)
{
  _agent_store_batch_text (batch, text, -1);
}

/* A GString field: with its length, so that nothing is cut at a NUL */
static void
add_string (AgentStoreBatch *batch,
            GString         *string)
{
  if (string != NULL)
    _agent_store_batch_text (batch, string->str, string->len);
  else
    _agent_store_batch_text (batch, NULL, 0);
}

static void
add_json (AgentStoreBatch *batch,
          JsonNode        *node)
{
  _agent_store_batch_take_text (batch, node ? _agent_store_node_to_text (node) : NULL);
}

static void
add_owned_json (AgentStoreBatch *batch,
                JsonNode        *node)
{
  add_json (batch, node);
  g_clear_pointer (&node, json_node_unref);
}

static void
add_tool_call (AgentStoreBatch *batch,
               guint            position,
               AgentToolCall   *call)
{
  _agent_store_batch_add (batch, STMT_INSERT_TOOL_CALL);
  _agent_store_batch_message (batch);
  _agent_store_batch_int (batch, position);
  add_text (batch, call->id);
  add_text (batch, call->name ? call->name : "");
  add_text (batch, call->type);
  add_string (batch, call->arguments);
  add_text (batch, _agent_store_enum_nick (AGENT_TYPE_TOOL_CALL_STATE, call->state));
  add_text (batch, call->result);
  _agent_store_batch_int (batch, call->is_error);
  _agent_store_batch_int (batch, call->duration);
  add_json (batch, call->provider_data);
}

/* A summary (agent_message_new_summary()) keeps the range it replaces in
 * the provider data's column, as a member of its own ("agent-summary":
 * {"start", "end"}) that reading takes out again: no column for it, so the
 * schema stays as it is. */
#define SUMMARY_MEMBER "agent-summary"

static JsonNode *
provider_data_to_node (AgentMessage *message)
{
  g_autoptr(JsonBuilder) builder = NULL;

  if (!message->is_summary)
    return message->provider_data ? json_node_ref (message->provider_data) : NULL;

  builder = json_builder_new ();
  json_builder_begin_object (builder);
  if (message->provider_data != NULL && JSON_NODE_HOLDS_OBJECT (message->provider_data))
    {
      JsonObjectIter iter;
      const char *name;
      JsonNode *value;

      json_object_iter_init (&iter, json_node_get_object (message->provider_data));
      while (json_object_iter_next (&iter, &name, &value))
        {
          json_builder_set_member_name (builder, name);
          json_builder_add_value (builder, json_node_copy (value));
        }
    }
  json_builder_set_member_name (builder, SUMMARY_MEMBER);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "start");
  json_builder_add_int_value (builder, message->summary_start);
  json_builder_set_member_name (builder, "end");
  json_builder_add_int_value (builder, message->summary_end);
  json_builder_end_object (builder);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

/* Takes the summary's range out of the provider data read back */
static void
read_summary (AgentMessage *message)
{
  JsonObject *object;
  JsonObject *summary;
  JsonObjectIter iter;
  const char *name;
  JsonNode *value;
  g_autoptr(JsonBuilder) builder = NULL;
  guint n_others = 0;
  gint64 start, end;

  if (message->provider_data == NULL)
    return;
  object = json_node_get_object (message->provider_data);
  if (!json_object_has_member (object, SUMMARY_MEMBER) ||
      !(summary = json_object_get_object_member (object, SUMMARY_MEMBER)))
    return;

  start = json_object_get_int_member_with_default (summary, "start", 0);
  end = json_object_get_int_member_with_default (summary, "end", 0);
  if (start >= 0 && end >= start && end <= G_MAXUINT)
    _agent_message_set_summary (message, start, end);

  builder = json_builder_new ();
  json_builder_begin_object (builder);
  json_object_iter_init (&iter, object);
  while (json_object_iter_next (&iter, &name, &value))
    if (strcmp (name, SUMMARY_MEMBER) != 0)
      {
        json_builder_set_member_name (builder, name);
        json_builder_add_value (builder, json_node_copy (value));
        n_others++;
      }
  json_builder_end_object (builder);

  g_clear_pointer (&message->provider_data, json_node_unref);
  if (n_others > 0)
    {
      message->provider_data = json_builder_get_root (builder);
      json_node_seal (message->provider_data);
    }
}

/* Adds the insertion of @message, with its tool calls, as message @seq of
 * the batch's conversation, after message @parent. */
void
_agent_store_batch_add_message (AgentStoreBatch *batch,
                                guint            seq,
                                guint            parent,
                                AgentMessage    *message)
{
  guint n_calls = agent_message_get_n_tool_calls (message);

  _agent_store_batch_add (batch, STMT_INSERT_MESSAGE);
  _agent_store_batch_conversation (batch);
  _agent_store_batch_int (batch, seq);
  add_text (batch, _agent_store_enum_nick (AGENT_TYPE_MESSAGE_ROLE, message->role));
  add_text (batch, _agent_store_enum_nick (AGENT_TYPE_MESSAGE_STATE, message->state));
  add_string (batch, message->content);
  add_string (batch, message->reasoning);
  add_string (batch, message->refusal);
  add_text (batch, message->tool_call_id);
  add_text (batch, message->tool_name);
  _agent_store_batch_int (batch, message->is_error);
  add_text (batch, message->finish_reason);
  add_text (batch, message->response_id);
  add_text (batch, message->model);
  _agent_store_batch_int (batch, _agent_store_date_time_to_usec (message->created));
  add_owned_json (batch, _agent_store_usage_to_node (message->usage));
  add_owned_json (batch, _agent_store_metrics_to_node (message->metrics));
  add_owned_json (batch, _agent_store_metrics_to_node (message->turn_metrics));
  add_owned_json (batch, provider_data_to_node (message));
  if (parent == AGENT_MESSAGE_TREE_ROOT)
    add_text (batch, NULL);
  else
    _agent_store_batch_int (batch, parent);

  for (guint i = 0; i < n_calls; i++)
    add_tool_call (batch, i, agent_message_get_tool_call (message, i));

  _agent_store_batch_add_parts (batch, message);
}

void
_agent_store_batch_add_turn_metrics (AgentStoreBatch *batch,
                                     guint            position,
                                     AgentMetrics    *metrics)
{
  _agent_store_batch_add (batch, STMT_SET_TURN_METRICS);
  _agent_store_batch_conversation (batch);
  _agent_store_batch_int (batch, position);
  add_owned_json (batch, _agent_store_metrics_to_node (metrics));
}

/* Reading */

static char *
column_dup (sqlite3_stmt *row,
            int           column)
{
  const char *text = (const char *) sqlite3_column_text (row, column);

  return text ? g_strndup (text, sqlite3_column_bytes (row, column)) : NULL;
}

static GString *
column_string (sqlite3_stmt *row,
               int           column)
{
  const char *text = (const char *) sqlite3_column_text (row, column);

  return text ? g_string_new_len (text, sqlite3_column_bytes (row, column)) : NULL;
}

/* A sealed JSON node from a column, or NULL if the column is NULL or not
 * JSON of the expected kind (nor nested deeper than AGENT_JSON_MAX_DEPTH:
 * the file may come from anywhere). */
static JsonNode *
column_json (sqlite3_stmt *row,
             int           column)
{
  const char *text = (const char *) sqlite3_column_text (row, column);
  JsonNode *node;

  if (text == NULL || !(node = agent_json_parse (text, sqlite3_column_bytes (row, column), NULL)))
    return NULL;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      json_node_unref (node);
      return NULL;
    }
  json_node_seal (node);
  return node;
}

static AgentMessage *
message_from_row (sqlite3_stmt  *row,
                  GError       **error)
{
  g_autoptr(AgentMessage) message = g_object_new (AGENT_TYPE_MESSAGE, NULL);
  g_autoptr(JsonNode) usage = NULL;
  g_autoptr(JsonNode) metrics = NULL;
  g_autoptr(JsonNode) turn_metrics = NULL;
  int role, state;

  if (!enum_from_nick (AGENT_TYPE_MESSAGE_ROLE,
                       (const char *) sqlite3_column_text (row, MSG_ROLE), &role) ||
      !enum_from_nick (AGENT_TYPE_MESSAGE_STATE,
                       (const char *) sqlite3_column_text (row, MSG_STATE), &state))
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_STORAGE,
                   _("A stored message has an unknown role or state (“%s”, “%s”)"),
                   sqlite3_column_text (row, MSG_ROLE), sqlite3_column_text (row, MSG_STATE));
      return NULL;
    }

  message->role = role;
  message->state = state;
  message->content = column_string (row, MSG_CONTENT);
  message->reasoning = column_string (row, MSG_REASONING);
  message->refusal = column_string (row, MSG_REFUSAL);
  message->tool_call_id = column_dup (row, MSG_TOOL_CALL_ID);
  message->tool_name = column_dup (row, MSG_TOOL_NAME);
  message->is_error = sqlite3_column_int (row, MSG_IS_ERROR) != 0;
  message->finish_reason = column_dup (row, MSG_FINISH_REASON);
  message->response_id = column_dup (row, MSG_RESPONSE_ID);
  message->model = column_dup (row, MSG_MODEL);
  g_date_time_unref (message->created);
  message->created = _agent_store_date_time_new (sqlite3_column_int64 (row, MSG_CREATED));
  message->provider_data = column_json (row, MSG_PROVIDER_DATA);
  read_summary (message);

  if ((usage = column_json (row, MSG_USAGE)))
    message->usage = usage_from_object (json_node_get_object (usage));
  if ((metrics = column_json (row, MSG_METRICS)))
    message->metrics = metrics_from_object (json_node_get_object (metrics));
  if ((turn_metrics = column_json (row, MSG_TURN_METRICS)))
    message->turn_metrics = metrics_from_object (json_node_get_object (turn_metrics));

  return g_steal_pointer (&message);
}

static AgentToolCall *
tool_call_from_row (sqlite3_stmt *row)
{
  AgentToolCall *call;
  int state;

  call = agent_tool_call_new ((const char *) sqlite3_column_text (row, CALL_ID),
                              (const char *) sqlite3_column_text (row, CALL_NAME),
                              NULL);
  g_string_append_len (call->arguments,
                       (const char *) sqlite3_column_text (row, CALL_ARGUMENTS),
                       sqlite3_column_bytes (row, CALL_ARGUMENTS));
  call->type = column_dup (row, CALL_TYPE);
  if (enum_from_nick (AGENT_TYPE_TOOL_CALL_STATE,
                      (const char *) sqlite3_column_text (row, CALL_STATE), &state))
    call->state = state;
  call->result = column_dup (row, CALL_RESULT);
  call->is_error = sqlite3_column_int (row, CALL_IS_ERROR) != 0;
  call->duration = sqlite3_column_int64 (row, CALL_DURATION);
  call->provider_data = column_json (row, CALL_PROVIDER_DATA);

  return call;
}

static gboolean
finish_query (AgentStoreDb  *db,
              sqlite3_stmt  *statement,
              int            rc,
              GError       **error)
{
  sqlite3_reset (statement);
  if (rc == SQLITE_DONE)
    return TRUE;

  if (error != NULL && *error == NULL)
    _agent_store_db_set_error (db, error);
  return FALSE;
}

/* The active leaf of a conversation (AGENT_MESSAGE_TREE_ROOT: its newest) */
static gboolean
load_leaf (AgentStoreDb  *db,
           gint64         conversation_id,
           guint         *leaf,
           GError       **error)
{
  sqlite3_stmt *statement;
  int rc;

  *leaf = AGENT_MESSAGE_TREE_ROOT;
  if (!(statement = _agent_store_db_statement (db, STMT_SELECT_LEAF, error)))
    return FALSE;

  sqlite3_bind_int64 (statement, 1, conversation_id);
  if ((rc = sqlite3_step (statement)) == SQLITE_ROW)
    {
      if (sqlite3_column_type (statement, 0) == SQLITE_INTEGER &&
          sqlite3_column_int64 (statement, 0) >= 0 &&
          sqlite3_column_int64 (statement, 0) < AGENT_MESSAGE_TREE_ROOT)
        *leaf = (guint) sqlite3_column_int64 (statement, 0);
      rc = sqlite3_step (statement);
    }
  return finish_query (db, statement, rc, error);
}

/* The tree of @messages, each under its parent (a message whose parent is
 * gone, which this library never leaves, starts a branch of its own) */
static AgentMessageTree *
build_tree (AgentStoreDb *db,
            GPtrArray    *messages,
            GArray       *seqs,
            GArray       *parents,
            guint         leaf)
{
  AgentMessageTree *tree = _agent_message_tree_new ();

  for (guint i = 0; i < messages->len; i++)
    {
      guint seq = g_array_index (seqs, guint, i);
      guint parent = g_array_index (parents, guint, i);
      AgentMessage *message = g_ptr_array_index (messages, i);

      if (!_agent_message_tree_insert (tree, seq, parent, message))
        {
          g_warning ("In the conversation database %s: message %u follows message %u, which "
                     "is not there", db->path, seq, parent);
          _agent_message_tree_insert (tree, seq, AGENT_MESSAGE_TREE_ROOT, message);
        }
    }
  /* A branch begun and not answered (a crash while the new answer
   * streamed, or a quit before the edited question was sent): what was
   * there before, the newest branch under it */
  _agent_message_tree_set_leaf (tree, _agent_message_tree_newest_under (tree, leaf), NULL, NULL,
                                NULL);
  return tree;
}

/* The messages of a conversation, with their tool calls, as a tree: the
 * queries in one read transaction, so that they agree. */
AgentMessageTree *
_agent_store_load_tree (AgentStoreDb  *db,
                        gint64         conversation_id,
                        GError       **error)
{
  g_autoptr(GPtrArray) messages = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GArray) seqs = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) parents = g_array_new (FALSE, FALSE, sizeof (guint));
  sqlite3_stmt *statement;
  gboolean ok;
  guint next = 0;
  guint leaf;
  int rc;

  if (!_agent_store_db_exec (db, "BEGIN", error))
    return NULL;

  if (!(statement = _agent_store_db_statement (db, STMT_SELECT_MESSAGES, error)))
    goto fail;

  sqlite3_bind_int64 (statement, 1, conversation_id);
  while ((rc = sqlite3_step (statement)) == SQLITE_ROW)
    {
      AgentMessage *message = message_from_row (statement, error);
      gint64 id = sqlite3_column_int64 (statement, MSG_ID);
      guint seq = (guint) sqlite3_column_int64 (statement, MSG_POSITION);
      guint parent = sqlite3_column_type (statement, MSG_PARENT) == SQLITE_NULL
                     ? AGENT_MESSAGE_TREE_ROOT
                     : (guint) sqlite3_column_int64 (statement, MSG_PARENT);

      if (message == NULL)
        {
          g_prefix_error (error, _("In the conversation database %s: "), db->path);
          rc = SQLITE_ERROR;
          break;
        }
      g_ptr_array_add (messages, message);
      g_array_append_val (ids, id);
      g_array_append_val (seqs, seq);
      g_array_append_val (parents, parent);
    }
  if (!finish_query (db, statement, rc, error))
    goto fail;

  if (!(statement = _agent_store_db_statement (db, STMT_SELECT_TOOL_CALLS, error)))
    goto fail;

  /* Both queries are in message order: walk them side by side */
  sqlite3_bind_int64 (statement, 1, conversation_id);
  while ((rc = sqlite3_step (statement)) == SQLITE_ROW)
    {
      gint64 message_id = sqlite3_column_int64 (statement, CALL_MESSAGE_ID);
      g_autoptr(AgentToolCall) call = NULL;

      while (next < ids->len && g_array_index (ids, gint64, next) != message_id)
        next++;
      if (next == ids->len)
        {
          rc = SQLITE_CORRUPT;
          g_set_error (error, AGENT_ERROR, AGENT_ERROR_STORAGE,
                       _("In the conversation database %s: a stored tool call belongs to no "
                         "message"),
                       db->path);
          break;
        }

      call = tool_call_from_row (statement);
      agent_message_add_tool_call (g_ptr_array_index (messages, next), call);
    }
  ok = finish_query (db, statement, rc, error) &&
       _agent_store_load_parts (db, conversation_id, messages, ids, error) &&
       load_leaf (db, conversation_id, &leaf, error);
  _agent_store_db_exec (db, "COMMIT", NULL);

  return ok ? build_tree (db, messages, seqs, parents, leaf) : NULL;

fail:
  _agent_store_db_rollback (db);
  return NULL;
}
