/* agent-store-import.c — a conversation read back from the JSON that
 * agent_conversation_export() writes
 *
 * The file is untrusted: it is read with the JSON reader of the hot path
 * (simdjson: a bounded depth, invalid UTF-8 repaired), on a thread, and
 * every member is checked for its type and its range before anything is
 * written; the first thing wrong fails the import with an error that names
 * where it is ("message 3, attachment 1: its data does not match its
 * sha256"), and nothing is written. An attachment's base64 is checked
 * letter by letter, its size and its checksum against what the file says.
 * What is whole is written as a new conversation in one transaction, as
 * the messages of a turn are: its title, its times, its model and
 * settings, its messages with their attachments, tool calls, usage and
 * metrics, and the errors kept with them.
 *
 * A conversation is a tree of branches: "messages" is the active branch
 * (all a file written before branches has, imported as one branch),
 * "branches" the other messages, each with its "id" and "parent", and
 * "leaf" the id of the active branch's last message. The tree is checked
 * whole (every parent in the file, no cycle, a parent before its child,
 * "messages" a path that ends at the leaf) and renumbered in the order of
 * the ids, so it is rebuilt as it was.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-enums.h"
#include "agent-error.h"
#include "json/agent-json-private.h"
#include "messages/agent-content-part-private.h"
#include "messages/agent-message-private.h"
#include "messages/agent-tool-call-private.h"
#include "store/agent-conversation-private.h"
#include "store/agent-store-import-private.h"

#define invalid _agent_store_import_invalid

/* The version of the format agent_conversation_export() writes */
#define FORMAT_NAME    "libagent-conversation"
#define FORMAT_VERSION 1


static void
import_free (AgentStoreImport *import)
{
  g_bytes_unref (import->json);
  g_free (import->title);
  g_free (import->provider);
  g_free (import->model);
  g_free (import->profile);
  g_clear_pointer (&import->settings, json_node_unref);
  g_clear_pointer (&import->messages, g_ptr_array_unref);
  g_clear_pointer (&import->errors, g_hash_table_unref);
  g_clear_pointer (&import->ids, g_array_unref);
  g_clear_pointer (&import->parents, g_array_unref);
  g_clear_pointer (&import->seq_parents, g_array_unref);
  g_free (import);
}

/* Reading, each value checked */

/* Documented in agent-store-import-private.h */
gboolean
_agent_store_import_invalid (GError    **error,
                             const char *where,
                             const char *format,
                             ...)
{
  g_autofree char *what = NULL;
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);
  if (where != NULL)
    /* TRANSLATORS: where in the file (“message 3, attachment 1”), then what is wrong there */
    g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT, _("%s: %s"), where, what);
  else
    g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT, what);
  return FALSE;
}

static gboolean
present (const AgentJson *value)
{
  return agent_json_exists (value);
}

/* The string member @name of @object (NULL if absent or null), or FALSE
 * with @error set if it is something else, or absent and @required */
static gboolean
read_string (const AgentJson  *object,
             const char       *name,
             gboolean          required,
             const char       *where,
             char            **out,
             GError          **error)
{
  AgentJson member = agent_json_member (object, name);
  gsize len;
  const char *text;

  *out = NULL;
  if (!present (&member))
    return !required || invalid (error, where, _("“%s” is missing"), name);
  if ((text = agent_json_string (&member, &len)) == NULL)
    return invalid (error, where, _("“%s” is not a string"), name);
  *out = g_strndup (text, len);
  return TRUE;
}

static gboolean
read_int (const AgentJson *object,
          const char      *name,
          gint64           minimum,
          gint64           fallback,
          const char      *where,
          gint64          *out,
          GError         **error)
{
  AgentJson member = agent_json_member (object, name);

  *out = fallback;
  if (!present (&member))
    return TRUE;
  if (!agent_json_int (&member, out) || *out < minimum)
    return invalid (error, where, _("“%s” is not a whole number of at least %lld"),
                    name, (long long) minimum);
  return TRUE;
}

static gboolean
read_boolean (const AgentJson *object,
              const char      *name,
              const char      *where,
              gboolean        *out,
              GError         **error)
{
  AgentJson member = agent_json_member (object, name);

  *out = FALSE;
  if (!present (&member))
    return TRUE;
  if (!agent_json_is (&member, AGENT_JSON_BOOLEAN))
    return invalid (error, where, _("“%s” is not true or false"), name);
  *out = agent_json_boolean (&member);
  return TRUE;
}

/* The nicks of @type, for an error: "system, user, assistant, tool" */
static char *
list_nicks (GType type)
{
  g_autoptr(GEnumClass) klass = g_type_class_ref (type);
  g_autoptr(GPtrArray) nicks = g_ptr_array_new ();

  for (guint i = 0; i < klass->n_values; i++)
    g_ptr_array_add (nicks, (gpointer) klass->values[i].value_nick);
  g_ptr_array_add (nicks, NULL);
  return g_strjoinv (", ", (char **) nicks->pdata);
}

static gboolean
read_enum (const AgentJson *object,
           const char      *name,
           GType            type,
           int              fallback,
           const char      *where,
           int             *out,
           GError         **error)
{
  g_autoptr(GEnumClass) klass = NULL;
  g_autofree char *nick = NULL;
  g_autofree char *nicks = NULL;
  GEnumValue *value;

  *out = fallback;
  if (!read_string (object, name, fallback < 0, where, &nick, error))
    return FALSE;
  if (nick == NULL)
    return TRUE;
  klass = g_type_class_ref (type);
  if ((value = g_enum_get_value_by_nick (klass, nick)) == NULL)
    {
      nicks = list_nicks (type);
      return invalid (error, where, _("“%s” is “%s”, not one of %s"), name, nick, nicks);
    }
  *out = value->value;
  return TRUE;
}

/* A date as agent_conversation_export() writes it (ISO 8601) */
static gboolean
read_time (const AgentJson  *object,
           const char       *name,
           const char       *where,
           GDateTime       **out,
           GError          **error)
{
  g_autofree char *text = NULL;

  *out = NULL;
  if (!read_string (object, name, FALSE, where, &text, error))
    return FALSE;
  if (text != NULL && (*out = g_date_time_new_from_iso8601 (text, NULL)) == NULL)
    return invalid (error, where, _("“%s” is not a date (ISO 8601): “%s”"), name, text);
  return TRUE;
}

/* An object member as a sealed JsonNode (NULL if absent or null) */
static gboolean
read_object (const AgentJson  *object,
             const char       *name,
             const char       *where,
             JsonNode        **out,
             GError          **error)
{
  AgentJson member = agent_json_member (object, name);

  *out = NULL;
  if (!present (&member))
    return TRUE;
  if (!agent_json_is (&member, AGENT_JSON_OBJECT))
    return invalid (error, where, _("“%s” is not an object"), name);
  *out = agent_json_to_node (&member);
  json_node_seal (*out);
  return TRUE;
}

/* An array member's elements (an empty array if absent) */
static gboolean
check_array (const AgentJson *object,
             const char      *name,
             const char      *where,
             AgentJson       *out,
             GError         **error)
{
  *out = agent_json_member (object, name);
  if (present (out) && !agent_json_is (out, AGENT_JSON_ARRAY))
    return invalid (error, where, _("“%s” is not a list"), name);
  return TRUE;
}

/* base64 as g_base64_encode() writes it: no other letter */
static gboolean
is_base64 (const char *text,
           gsize       len)
{
  gsize padding = 0;

  if (len % 4 != 0)
    return FALSE;
  for (gsize i = 0; i < len; i++)
    {
      char c = text[i];

      if (c == '=')
        padding++;
      else if (padding > 0 || !(g_ascii_isalnum (c) || c == '+' || c == '/'))
        return FALSE;
    }
  return padding <= 2;
}

/* Attachment @index of @message, from @value */
static gboolean
read_attachment (const AgentJson  *value,
                 AgentMessage     *message,
                 const char       *message_where,
                 guint             index,
                 GError          **error)
{
  g_autofree char *where = g_strdup_printf (_("%s, attachment %u"), message_where, index + 1);
  g_autofree char *mime_type = NULL;
  g_autofree char *name = NULL;
  g_autofree char *uri = NULL;
  g_autofree char *sha256 = NULL;
  g_autoptr(GBytes) data = NULL;
  g_autoptr(AgentContentPart) part = NULL;
  AgentJson member;
  gsize content_len = message->content != NULL ? message->content->len : 0;
  gint64 offset, size;
  int kind;

  if (!agent_json_is (value, AGENT_JSON_OBJECT))
    return invalid (error, where, _("it is not an object"));
  if (!read_enum (value, "kind", AGENT_TYPE_CONTENT_PART_KIND, -1, where, &kind, error) ||
      !read_string (value, "mime-type", TRUE, where, &mime_type, error) ||
      !read_string (value, "name", FALSE, where, &name, error) ||
      !read_string (value, "uri", FALSE, where, &uri, error) ||
      !read_string (value, "sha256", FALSE, where, &sha256, error) ||
      !read_int (value, "offset", 0, 0, where, &offset, error) ||
      !read_int (value, "size", 0, -1, where, &size, error))
    return FALSE;
  if (kind == AGENT_CONTENT_PART_KIND_TEXT)
    return invalid (error, where, _("“kind” is “text”: text is the message's content"));
  if ((gsize) offset > content_len)
    return invalid (error, where,
                    _("“offset” %lld is past the end of the message's text (%lld bytes)"),
                    (long long) offset, (long long) content_len);

  member = agent_json_member (value, "data");
  if (present (&member))
    {
      gsize len, decoded_len;
      const char *base64 = agent_json_string (&member, &len);
      guchar *decoded;

      if (base64 == NULL || !is_base64 (base64, len))
        return invalid (error, where, _("its “data” is not base64"));
      decoded = g_base64_decode (base64, &decoded_len);
      data = g_bytes_new_take (decoded, decoded_len);
      if (size >= 0 && (guint64) size != decoded_len)
        return invalid (error, where,
                        _("its data is %lld bytes, not the %lld its “size” says"),
                        (long long) decoded_len, (long long) size);
      g_clear_pointer (&uri, g_free);
    }
  else if (uri == NULL)
    return invalid (error, where, _("it has neither “data” nor “uri”"));
  else if (!g_str_has_prefix (uri, "https://") && !g_str_has_prefix (uri, "http://"))
    return invalid (error, where, _("its “uri” is not an http: or https: address"));

  part = _agent_content_part_new (kind, mime_type, data, uri, name);
  if (data != NULL && sha256 != NULL)
    {
      g_autofree char *checksum = agent_content_part_dup_checksum (part);

      if (g_ascii_strcasecmp (checksum, sha256) != 0)
        return invalid (error, where, _("its data does not match its sha256"));
    }
  _agent_message_add_attachment_at (message, offset, part);
  return TRUE;
}

static gboolean
read_tool_call (const AgentJson  *value,
                AgentMessage     *message,
                const char       *message_where,
                guint             index,
                GError          **error)
{
  g_autofree char *where = g_strdup_printf (_("%s, tool call %u"), message_where, index + 1);
  g_autofree char *id = NULL;
  g_autofree char *name = NULL;
  g_autofree char *arguments = NULL;
  g_autoptr(AgentToolCall) call = NULL;
  g_autoptr(JsonNode) provider_data = NULL;
  gboolean is_error;
  gint64 duration;
  int state;

  if (!agent_json_is (value, AGENT_JSON_OBJECT))
    return invalid (error, where, _("it is not an object"));
  if (!read_string (value, "id", FALSE, where, &id, error) ||
      !read_string (value, "name", TRUE, where, &name, error) ||
      !read_string (value, "arguments", FALSE, where, &arguments, error) ||
      !read_enum (value, "state", AGENT_TYPE_TOOL_CALL_STATE, AGENT_TOOL_CALL_STATE_READY,
                  where, &state, error) ||
      !read_boolean (value, "is-error", where, &is_error, error) ||
      !read_int (value, "duration-us", -1, -1, where, &duration, error) ||
      !read_object (value, "provider-data", where, &provider_data, error))
    return FALSE;

  call = agent_tool_call_new (id, name, NULL);
  g_string_append (call->arguments, arguments ? arguments : "");
  if (!read_string (value, "type", FALSE, where, &call->type, error) ||
      !read_string (value, "result", FALSE, where, &call->result, error))
    return FALSE;
  call->state = state;
  call->is_error = is_error;
  call->duration = duration;
  call->provider_data = g_steal_pointer (&provider_data);
  agent_message_add_tool_call (message, call);
  return TRUE;
}

static gboolean
read_text (const AgentJson  *object,
           const char       *name,
           const char       *where,
           GString         **out,
           GError          **error)
{
  g_autofree char *text = NULL;

  if (!read_string (object, name, FALSE, where, &text, error))
    return FALSE;
  if (text != NULL)
    *out = g_string_new (text);
  return TRUE;
}

/* Documented in agent-store-import-private.h */
char *
_agent_store_import_where (AgentStoreImport *import,
                           guint             index)
{
  if (index < import->n_path)
    return g_strdup_printf (_("message %u"), index + 1);
  /* TRANSLATORS: “branches” is the name of a member of the file, do not translate it */
  return g_strdup_printf (_("“branches”, message %u"), index - import->n_path + 1);
}

/* Its "id" and "parent" */
static gboolean
read_place (const AgentJson   *value,
            const char        *where,
            AgentStoreImport  *import,
            GError           **error)
{
  AgentJson member = agent_json_member (value, "parent");
  gint64 id, parent = -1;

  if (!read_int (value, "id", 0, -1, where, &id, error))
    return FALSE;
  if (present (&member) && (!agent_json_int (&member, &parent) || parent < 0))
    return invalid (error, where, _("“parent” is not the id of a message"));
  if (present (&member) && id < 0)
    return invalid (error, where, _("“id” is missing (it has a “parent”)"));
  g_array_append_val (import->ids, id);
  g_array_append_val (import->parents, parent);
  return TRUE;
}

/* Message @index, from @value, into @import; @position: its place on its
 * branch, if known (G_MAXUINT if not) */
static gboolean
read_message (const AgentJson   *value,
              guint              index,
              guint              position,
              AgentStoreImport  *import,
              GError           **error)
{
  g_autofree char *where = _agent_store_import_where (import, index);
  g_autoptr(AgentMessage) message = g_object_new (AGENT_TYPE_MESSAGE, NULL);
  g_autoptr(GDateTime) created = NULL;
  g_autoptr(JsonNode) usage = NULL;
  g_autoptr(JsonNode) metrics = NULL;
  g_autoptr(JsonNode) turn_metrics = NULL;
  g_autoptr(JsonNode) turn_error = NULL;
  AgentJsonIter iter;
  AgentJson list, item, summary;
  gboolean is_error;
  int role, state;
  guint i;

  if (!agent_json_is (value, AGENT_JSON_OBJECT))
    return invalid (error, where, _("it is not an object"));
  if (!read_place (value, where, import, error) ||
      !read_enum (value, "role", AGENT_TYPE_MESSAGE_ROLE, -1, where, &role, error) ||
      !read_enum (value, "state", AGENT_TYPE_MESSAGE_STATE, AGENT_MESSAGE_STATE_COMPLETE, where,
                  &state, error) ||
      !read_text (value, "content", where, &message->content, error) ||
      !read_text (value, "reasoning", where, &message->reasoning, error) ||
      !read_text (value, "refusal", where, &message->refusal, error) ||
      !read_string (value, "tool-call-id", FALSE, where, &message->tool_call_id, error) ||
      !read_string (value, "tool-name", FALSE, where, &message->tool_name, error) ||
      !read_boolean (value, "is-error", where, &is_error, error) ||
      !read_string (value, "finish-reason", FALSE, where, &message->finish_reason, error) ||
      !read_string (value, "response-id", FALSE, where, &message->response_id, error) ||
      !read_string (value, "model", FALSE, where, &message->model, error) ||
      !read_time (value, "created", where, &created, error) ||
      !read_object (value, "usage", where, &usage, error) ||
      !read_object (value, "metrics", where, &metrics, error) ||
      !read_object (value, "turn-metrics", where, &turn_metrics, error) ||
      !read_object (value, "provider-data", where, &message->provider_data, error) ||
      !read_object (value, "error", where, &turn_error, error))
    return FALSE;
  /* A streaming message is never kept: the export of one cut short says
   * interrupted */
  if (state == AGENT_MESSAGE_STATE_STREAMING)
    state = AGENT_MESSAGE_STATE_INTERRUPTED;
  message->role = role;
  message->state = state;
  message->is_error = is_error;
  if (created != NULL)
    {
      g_date_time_unref (message->created);
      message->created = g_steal_pointer (&created);
    }
  message->usage = _agent_store_usage_from_node (usage);
  message->metrics = _agent_store_metrics_from_node (metrics);
  message->turn_metrics = _agent_store_metrics_from_node (turn_metrics);

  summary = agent_json_member (value, "summary");
  if (present (&summary))
    {
      gint64 start, end;

      if (!agent_json_is (&summary, AGENT_JSON_OBJECT) ||
          !read_int (&summary, "start", 0, 0, where, &start, error) ||
          !read_int (&summary, "end", start, start, where, &end, error) ||
          (guint64) end > position)
        return invalid (error, where, _("its “summary” is not the range of messages before it"));
      _agent_message_set_summary (message, start, end);
    }

  if (!check_array (value, "attachments", where, &list, error))
    return FALSE;
  agent_json_iter_init (&iter, &list);
  for (i = 0; agent_json_iter_next (&iter, NULL, NULL, &item); i++)
    if (!read_attachment (&item, message, where, i, error))
      return FALSE;

  if (!check_array (value, "tool-calls", where, &list, error))
    return FALSE;
  agent_json_iter_init (&iter, &list);
  for (i = 0; agent_json_iter_next (&iter, NULL, NULL, &item); i++)
    if (!read_tool_call (&item, message, where, i, error))
      return FALSE;

  if (turn_error != NULL)
    {
      GError *kept = _agent_conversation_error_from_node (turn_error);

      if (kept == NULL)
        return invalid (error, where, _("its “error” has no “domain”"));
      if (import->errors == NULL)
        import->errors = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_error_free);
      g_hash_table_insert (import->errors, GUINT_TO_POINTER (index), kept);
    }

  g_ptr_array_add (import->messages, g_steal_pointer (&message));
  return TRUE;
}

/* Reads @import->json into @import */
static gboolean
read_conversation (AgentStoreImport  *import,
                   GError           **error)
{
  g_autoptr(AgentJsonParser) parser = agent_json_parser_new ();
  g_autoptr(GError) parse_error = NULL;
  g_autoptr(GDateTime) created = NULL;
  g_autofree char *format = NULL;
  AgentJsonIter iter;
  AgentJson root, messages, branches, item, leaf;
  gsize len;
  const char *text = g_bytes_get_data (import->json, &len);
  gint64 version;
  guint i;

  if (!agent_json_parser_parse (parser, text != NULL ? text : "", len, &root, &parse_error))
    return invalid (error, NULL, _("It is not JSON (%s)"), parse_error->message);
  if (!agent_json_is (&root, AGENT_JSON_OBJECT))
    return invalid (error, NULL, _("It is not a conversation exported as JSON: not an object"));
  if (!read_string (&root, "format", FALSE, NULL, &format, error))
    return FALSE;
  if (g_strcmp0 (format, FORMAT_NAME) != 0)
    return invalid (error, NULL, _("It is not a conversation exported as JSON: its “format” is "
                                   "not “%s”"), FORMAT_NAME);
  if (!read_int (&root, "version", 1, -1, NULL, &version, error))
    return FALSE;
  if (version < 0)
    return invalid (error, NULL, _("“version” is missing"));
  if (version > FORMAT_VERSION)
    return invalid (error, NULL,
                    _("It was exported by a newer version of libagent (version %lld of the "
                      "format; this one reads version %d)"),
                    (long long) version, FORMAT_VERSION);

  if (!read_string (&root, "title", FALSE, NULL, &import->title, error) ||
      !read_time (&root, "created", NULL, &created, error) ||
      !read_string (&root, "provider", FALSE, NULL, &import->provider, error) ||
      !read_string (&root, "model", FALSE, NULL, &import->model, error) ||
      !read_string (&root, "profile", FALSE, NULL, &import->profile, error) ||
      !read_object (&root, "settings", NULL, &import->settings, error) ||
      !check_array (&root, "messages", NULL, &messages, error) ||
      !check_array (&root, "branches", NULL, &branches, error))
    return FALSE;
  leaf = agent_json_member (&root, "leaf");
  import->leaf = -1;
  if (present (&leaf) && (!agent_json_int (&leaf, &import->leaf) || import->leaf < 0))
    return invalid (error, NULL, _("“leaf” is not the id of a message"));
  if (created != NULL)
    import->created = _agent_store_date_time_to_usec (created);

  import->messages = g_ptr_array_new_with_free_func (g_object_unref);
  import->ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  import->parents = g_array_new (FALSE, FALSE, sizeof (gint64));
  import->n_path = G_MAXUINT;
  agent_json_iter_init (&iter, &messages);
  for (i = 0; agent_json_iter_next (&iter, NULL, NULL, &item); i++)
    if (!read_message (&item, i, i, import, error))
      return FALSE;
  import->n_path = i;
  agent_json_iter_init (&iter, &branches);
  for (; agent_json_iter_next (&iter, NULL, NULL, &item); i++)
    if (!read_message (&item, i, G_MAXUINT, import, error))
      return FALSE;
  if (import->messages->len == 0)
    return invalid (error, NULL, _("It has no messages"));
  return _agent_store_import_build_tree (import, error);
}

static void
read_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  AgentStoreImport *import = task_data;
  GError *error = NULL;

  if (read_conversation (import, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
written_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  if (!agent_conversation_flush_finish (AGENT_CONVERSATION (object), result, &error))
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, g_object_ref (object), g_object_unref);
}

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AgentStore *self = g_task_get_source_object (task);
  AgentStoreImport *import = g_task_get_task_data (task);
  g_autoptr(AgentConversation) conversation = NULL;
  GCancellable *cancellable;
  GError *error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      g_task_return_error (task, error);
      return;
    }

  cancellable = g_task_get_cancellable (task);
  conversation = agent_store_create_conversation (self);
  _agent_conversation_take_imported (conversation, import->title, import->created,
                                     import->provider, import->model, import->profile,
                                     import->settings,
                                     g_steal_pointer (&import->messages),
                                     import->seq_parents, import->leaf_seq,
                                     g_steal_pointer (&import->errors));
  agent_conversation_flush_async (conversation, cancellable, written_cb, g_steal_pointer (&task));
}

/**
 * agent_store_import_conversation_async:
 * @self: a [class@Agent.Store]
 * @json: the JSON that [method@Agent.Conversation.export] writes
 *   (%AGENT_EXPORT_FORMAT_JSON)
 * @cancellable: (nullable): a [class@Gio.Cancellable]
 * @callback: (scope async): called when the conversation is written
 * @user_data: data for @callback
 *
 * Imports a conversation that was exported as JSON, as a new conversation
 * of the store: its title, its creation time, its provider, model, profile and
 * settings, its messages on every branch with their attachments, tool
 * calls, usage and metrics, the active branch, and the errors kept with
 * them; a file exported before conversations had branches is one branch.
 * The file is read on a thread and
 * checked whole before anything is written: the first thing wrong fails
 * the import with %AGENT_ERROR_INVALID_ARGUMENT and a message that says
 * where it is ("message 3, attachment 1: its data does not match its
 * sha256"), and the store is left as it was.
 *
 * Since: 0.1
 */
void
agent_store_import_conversation_async (AgentStore          *self,
                                       GBytes              *json,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GTask) reader = NULL;
  AgentStoreImport *import;

  g_return_if_fail (AGENT_IS_STORE (self));
  g_return_if_fail (json != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, agent_store_import_conversation_async);
  import = g_new0 (AgentStoreImport, 1);
  import->json = g_bytes_ref (json);
  g_task_set_task_data (task, import, (GDestroyNotify) import_free);

  /* The reading on a thread; its task shares the import, and holds no
   * reference to the store (the thread may drop it after the callback) */
  reader = g_task_new (NULL, cancellable, read_cb, g_steal_pointer (&task));
  g_task_set_source_tag (reader, read_thread);
  g_task_set_task_data (reader, import, NULL);
  g_task_run_in_thread (reader, read_thread);
}

/**
 * agent_store_import_conversation_finish:
 * @self: a [class@Agent.Store]
 * @result: the result given to the callback
 * @error: return location for a [struct@GLib.Error]
 *
 * Finishes [method@Agent.Store.import_conversation_async].
 *
 * Returns: (transfer full): the conversation imported, written and in
 *   [method@Agent.Store.list_conversations], or %NULL with @error set
 *
 * Since: 0.1
 */
AgentConversation *
agent_store_import_conversation_finish (AgentStore    *self,
                                        GAsyncResult  *result,
                                        GError       **error)
{
  g_return_val_if_fail (AGENT_IS_STORE (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        agent_store_import_conversation_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
