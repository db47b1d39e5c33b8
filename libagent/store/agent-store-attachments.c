/* agent-store-attachments.c — the images and documents of stored messages
 *
 * An attachment's bytes are kept once, in `attachments`, under their
 * SHA-256; `message_parts` says which message carries which, in order and
 * at which offset of its text. Both are written in the transaction that
 * writes the message, the attachment first: a message never points at a
 * missing attachment, whenever the process dies (the store's writer
 * thread runs them, as one batch). A trigger removes an
 * attachment with the last part that refers to it (schema 5).
 *
 * What a provider's rule sends of an image (scaled down, in base64:
 * messages/agent-content-part-cache.c) is kept in `attachment_variants`
 * (schema 6), written when the session syncs the conversation before a
 * request (after the turn made it) and read with the parts: an image is
 * scaled once, not once per restart. It goes with its attachment.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "agent-enums.h"
#include "agent-error.h"
#include "messages/agent-content-part-private.h"
#include "messages/agent-message-private.h"
#include "store/agent-conversation-private.h"
#include "store/agent-store-private.h"

static sqlite3_stmt *
prepare (AgentStoreDb  *db,
         const char    *sql,
         GError       **error)
{
  sqlite3_stmt *statement = NULL;

  if (sqlite3_prepare_v2 (db->db, sql, -1, &statement, NULL) != SQLITE_OK)
    {
      _agent_store_db_set_error (db, error);
      return NULL;
    }

  return statement;
}

/* Adds the insertion of the attachments of @message to the batch, after
 * the message's own (so that they are written in its transaction: the
 * bytes first, once, then the parts that refer to them). */
void
_agent_store_batch_add_parts (AgentStoreBatch *batch,
                              AgentMessage    *message)
{
  guint n = agent_message_get_n_attachments (message);

  for (guint i = 0; i < n; i++)
    {
      AgentContentPart *part = agent_message_get_attachment (message, i);
      GBytes *data = agent_content_part_get_data (part);
      g_autofree char *checksum = agent_content_part_dup_checksum (part);

      if (data != NULL)
        {
          _agent_store_batch_add (batch, STMT_INSERT_ATTACHMENT);
          _agent_store_batch_text (batch, checksum, -1);
          _agent_store_batch_text (batch, agent_content_part_get_mime_type (part), -1);
          _agent_store_batch_int (batch, g_bytes_get_size (data));
          _agent_store_batch_bytes (batch, data);
        }

      _agent_store_batch_add (batch, STMT_INSERT_PART);
      _agent_store_batch_message (batch);
      _agent_store_batch_int (batch, i);
      _agent_store_batch_text (batch, _agent_store_enum_nick (AGENT_TYPE_CONTENT_PART_KIND,
                                                             agent_content_part_get_kind (part)),
                               -1);
      _agent_store_batch_int (batch, _agent_message_get_attachment_offset (message, i));
      _agent_store_batch_text (batch, agent_content_part_get_mime_type (part), -1);
      _agent_store_batch_text (batch, agent_content_part_get_name (part), -1);
      _agent_store_batch_text (batch, checksum, -1);
      _agent_store_batch_text (batch, data == NULL ? agent_content_part_get_uri (part) : NULL, -1);
    }
}

typedef struct
{
  AgentStoreBatch *batch;
  const char      *checksum;
} VariantWrite;

static void
add_variant_row (const char *rule,
                 const char *mime_type,
                 int         width,
                 int         height,
                 const char *base64,
                 gpointer    user_data)
{
  VariantWrite *write = user_data;

  _agent_store_batch_add (write->batch, STMT_INSERT_VARIANT);
  _agent_store_batch_text (write->batch, write->checksum, -1);
  _agent_store_batch_text (write->batch, rule, -1);
  _agent_store_batch_text (write->batch, mime_type, -1);
  _agent_store_batch_int (write->batch, width);
  _agent_store_batch_int (write->batch, height);
  _agent_store_batch_text (write->batch, base64, -1);
}

/* Queues the variants the turn made of the attachments of the messages
 * written (the others go with their message), in one transaction */
void
_agent_conversation_queue_variants (AgentConversation *self)
{
  g_autoptr(AgentStoreBatch) batch = NULL;

  if (self->messages == NULL || !_agent_conversation_check_writable (self, NULL))
    return;

  batch = _agent_store_batch_new (self->target);
  for (guint i = 0; i < self->n_saved; i++)
    {
      AgentMessage *message = g_ptr_array_index (self->messages, i);
      guint n = agent_message_get_n_attachments (message);

      for (guint j = 0; j < n; j++)
        {
          AgentContentPart *part = agent_message_get_attachment (message, j);
          g_autofree char *checksum = NULL;
          VariantWrite write;

          if (agent_content_part_get_kind (part) != AGENT_CONTENT_PART_KIND_IMAGE ||
              agent_content_part_get_data (part) == NULL)
            continue;
          checksum = agent_content_part_dup_checksum (part);
          write.batch = batch;
          write.checksum = checksum;
          _agent_content_part_foreach_unsaved (part, add_variant_row, &write);
        }
    }
  if (!_agent_store_batch_is_empty (batch))
    _agent_conversation_queue (self, g_steal_pointer (&batch));
}

/* Gives the parts of @by_checksum (checksum → GPtrArray of parts) the
 * variants kept of their attachments */
static gboolean
load_variants (AgentStoreDb  *db,
               gint64         conversation_id,
               GHashTable    *by_checksum,
               GError       **error)
{
  sqlite3_stmt *statement;
  int rc;

  if (g_hash_table_size (by_checksum) == 0)
    return TRUE;

  statement = prepare (db,
                       "SELECT v.sha256, v.rule, v.mime_type, v.width, v.height, v.base64 "
                       "FROM attachment_variants v WHERE v.sha256 IN "
                       "(SELECT p.sha256 FROM message_parts p JOIN messages m ON m.id = p.message_id "
                       " WHERE m.conversation_id = ?1)",
                       error);
  if (statement == NULL)
    return FALSE;

  sqlite3_bind_int64 (statement, 1, conversation_id);
  while ((rc = sqlite3_step (statement)) == SQLITE_ROW)
    {
      GPtrArray *parts = g_hash_table_lookup (by_checksum, sqlite3_column_text (statement, 0));

      for (guint i = 0; parts != NULL && i < parts->len; i++)
        _agent_content_part_add_variant (g_ptr_array_index (parts, i),
                                         (const char *) sqlite3_column_text (statement, 1),
                                         (const char *) sqlite3_column_text (statement, 2),
                                         sqlite3_column_int (statement, 3),
                                         sqlite3_column_int (statement, 4),
                                         (const char *) sqlite3_column_text (statement, 5));
    }

  if (rc != SQLITE_DONE)
    _agent_store_db_set_error (db, error);
  sqlite3_finalize (statement);
  return rc == SQLITE_DONE;
}

/* Columns of the query below */
enum {
  PART_MESSAGE_ID, PART_KIND, PART_OFFSET, PART_MIME_TYPE, PART_NAME, PART_URI, PART_DATA,
  PART_SHA256,
};

/* Adds their attachments to @messages, the messages of @conversation_id
 * whose ids are @ids, in the read transaction of the caller. */
gboolean
_agent_store_load_parts (AgentStoreDb  *db,
                         gint64         conversation_id,
                         GPtrArray     *messages,
                         GArray        *ids,
                         GError       **error)
{
  g_autoptr(GHashTable) by_checksum = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                            (GDestroyNotify) g_ptr_array_unref);
  sqlite3_stmt *statement;
  guint next = 0;
  int rc;

  statement = prepare (db,
                       "SELECT p.message_id, p.kind, p.text_offset, p.mime_type, p.name, p.uri, "
                       "a.data, p.sha256 "
                       "FROM message_parts p JOIN messages m ON m.id = p.message_id "
                       "LEFT JOIN attachments a ON a.sha256 = p.sha256 "
                       "WHERE m.conversation_id = ?1 ORDER BY m.position, p.position",
                       error);
  if (statement == NULL)
    return FALSE;

  sqlite3_bind_int64 (statement, 1, conversation_id);
  while ((rc = sqlite3_step (statement)) == SQLITE_ROW)
    {
      gint64 message_id = sqlite3_column_int64 (statement, PART_MESSAGE_ID);
      const char *kind_nick = (const char *) sqlite3_column_text (statement, PART_KIND);
      const char *uri = (const char *) sqlite3_column_text (statement, PART_URI);
      g_autoptr(AgentContentPart) part = NULL;
      g_autoptr(GBytes) data = NULL;
      GEnumClass *klass;
      GEnumValue *kind;

      while (next < ids->len && g_array_index (ids, gint64, next) != message_id)
        next++;

      klass = g_type_class_ref (AGENT_TYPE_CONTENT_PART_KIND);
      kind = kind_nick != NULL ? g_enum_get_value_by_nick (klass, kind_nick) : NULL;
      g_type_class_unref (klass);

      if (next == ids->len || kind == NULL || kind->value == AGENT_CONTENT_PART_KIND_TEXT ||
          (uri == NULL && sqlite3_column_type (statement, PART_DATA) == SQLITE_NULL))
        {
          g_set_error (error, AGENT_ERROR, AGENT_ERROR_STORAGE,
                       _("In the conversation database %s: a stored attachment is missing or "
                         "belongs to no message"),
                       db->path);
          sqlite3_finalize (statement);
          return FALSE;
        }

      if (uri == NULL)
        data = g_bytes_new (sqlite3_column_blob (statement, PART_DATA),
                            sqlite3_column_bytes (statement, PART_DATA));
      part = _agent_content_part_new (kind->value,
                                      (const char *) sqlite3_column_text (statement, PART_MIME_TYPE),
                                      data, uri,
                                      (const char *) sqlite3_column_text (statement, PART_NAME));
      _agent_message_add_attachment_at (g_ptr_array_index (messages, next),
                                        sqlite3_column_int64 (statement, PART_OFFSET), part);
      if (data != NULL && kind->value == AGENT_CONTENT_PART_KIND_IMAGE)
        {
          const char *checksum = (const char *) sqlite3_column_text (statement, PART_SHA256);
          GPtrArray *parts = g_hash_table_lookup (by_checksum, checksum);

          if (parts == NULL)
            {
              parts = g_ptr_array_new_with_free_func (g_object_unref);
              g_hash_table_insert (by_checksum, g_strdup (checksum), parts);
            }
          g_ptr_array_add (parts, g_object_ref (part));
        }
    }

  if (rc != SQLITE_DONE)
    {
      _agent_store_db_set_error (db, error);
      sqlite3_finalize (statement);
      return FALSE;
    }

  sqlite3_finalize (statement);
  return load_variants (db, conversation_id, by_checksum, error);
}

/* The bytes of the distinct attachments of @conversation_id */
gboolean
_agent_store_attachments_size (AgentStoreDb  *db,
                               gint64         conversation_id,
                               guint64       *size,
                               GError       **error)
{
  sqlite3_stmt *statement;
  int rc;

  statement = prepare (db,
                       "SELECT coalesce (sum (a.size), 0) FROM attachments a WHERE a.sha256 IN "
                       "(SELECT p.sha256 FROM message_parts p JOIN messages m ON m.id = p.message_id "
                       " WHERE m.conversation_id = ?1)",
                       error);
  if (statement == NULL)
    return FALSE;

  sqlite3_bind_int64 (statement, 1, conversation_id);
  rc = sqlite3_step (statement);
  *size = rc == SQLITE_ROW ? (guint64) sqlite3_column_int64 (statement, 0) : 0;
  if (rc != SQLITE_ROW)
    _agent_store_db_set_error (db, error);
  sqlite3_finalize (statement);

  return rc == SQLITE_ROW;
}

/**
 * agent_conversation_get_attachments_size:
 * @self: a [class@Agent.Conversation]
 * @size: (out): return location for the size in bytes
 * @error: return location for a [struct@GLib.Error]
 *
 * Gets how many bytes the images and documents of the conversation's
 * stored messages take, each counted once however many messages carry
 * it. With the text, it is what deleting the conversation frees (an
 * attachment another conversation also carries stays for that one).
 *
 * Returns: %TRUE with @size set, %FALSE with @error set if the database
 *   could not be read
 *
 * Since: 0.1
 */
gboolean
agent_conversation_get_attachments_size (AgentConversation  *self,
                                         guint64            *size,
                                         GError            **error)
{
  g_return_val_if_fail (AGENT_IS_CONVERSATION (self), FALSE);
  g_return_val_if_fail (size != NULL, FALSE);

  *size = 0;
  if (self->id == 0)
    return TRUE;

  return _agent_store_attachments_size (self->db, self->id, size, error);
}

/* Exports */

/* "attachments": [{kind, mime-type, name, offset, size, sha256, data}]:
 * the bytes in base64, or the URI the part refers to */
void
_agent_store_export_attachments_json (JsonBuilder  *builder,
                                      AgentMessage *message)
{
  guint n = agent_message_get_n_attachments (message);

  if (n == 0)
    return;

  json_builder_set_member_name (builder, "attachments");
  json_builder_begin_array (builder);
  for (guint i = 0; i < n; i++)
    {
      AgentContentPart *part = agent_message_get_attachment (message, i);
      const char *name = agent_content_part_get_name (part);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "kind");
      json_builder_add_string_value (builder,
                                     _agent_store_enum_nick (AGENT_TYPE_CONTENT_PART_KIND,
                                                             agent_content_part_get_kind (part)));
      json_builder_set_member_name (builder, "mime-type");
      json_builder_add_string_value (builder, agent_content_part_get_mime_type (part));
      json_builder_set_member_name (builder, "name");
      if (name != NULL)
        json_builder_add_string_value (builder, name);
      else
        json_builder_add_null_value (builder);
      json_builder_set_member_name (builder, "offset");
      json_builder_add_int_value (builder, _agent_message_get_attachment_offset (message, i));
      json_builder_set_member_name (builder, "size");
      json_builder_add_int_value (builder, agent_content_part_get_size (part));
      if (agent_content_part_get_data (part) != NULL)
        {
          g_autofree char *checksum = agent_content_part_dup_checksum (part);
          const char *base64 = _agent_content_part_get_base64 (part);

          json_builder_set_member_name (builder, "sha256");
          json_builder_add_string_value (builder, checksum);
          json_builder_set_member_name (builder, "data");
          json_builder_add_string_value (builder, base64);
        }
      else
        {
          json_builder_set_member_name (builder, "uri");
          json_builder_add_string_value (builder, agent_content_part_get_uri (part));
        }
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

/* Markdown: images embedded (a data: URL), documents as links to their
 * bytes, parts with a URI as links to it; each with its type and size */
void
_agent_store_export_attachments_markdown (GString      *out,
                                          AgentMessage *message)
{
  guint n = agent_message_get_n_attachments (message);

  for (guint i = 0; i < n; i++)
    {
      AgentContentPart *part = agent_message_get_attachment (message, i);
      const char *name = agent_content_part_get_name (part);
      const char *mime_type = agent_content_part_get_mime_type (part);
      gboolean image = agent_content_part_get_kind (part) == AGENT_CONTENT_PART_KIND_IMAGE;
      g_autofree char *size = g_format_size (agent_content_part_get_size (part));
      g_autofree char *target = agent_content_part_get_data (part) != NULL ?
                                _agent_content_part_dup_data_url (part) :
                                g_strdup (agent_content_part_get_uri (part));
      g_autofree char *label = NULL;
      GString *escaped = g_string_new (name ? name : (image ? _("Image") : _("File")));

      /* The label may not close the brackets */
      g_string_replace (escaped, "[", "\\[", 0);
      g_string_replace (escaped, "]", "\\]", 0);
      label = g_string_free (escaped, FALSE);

      g_string_append_printf (out, "%s[%s](%s)\n\n*%s, %s*\n\n",
                              image ? "!" : "", label, target, mime_type, size);
    }
}
