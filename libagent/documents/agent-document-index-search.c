/* agent-document-index-search.c — the chunks closest to a question
 *
 * The question is embedded on the main context; the scan of the vectors
 * runs on a worker thread, under the index's db_lock. A hit whose file still
 * holds the chunk's text at its bytes gets its line numbers too: that costs
 * reading the file up to the chunk, which is cheap for files the index
 * accepts, and it is left out when the file changed since.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "documents/agent-document-index-private.h"

typedef struct
{
  AgentEmbeddings *query;
  guint            max_results;
  guint64          max_file_size;
} Search;

static void
search_free (gpointer data)
{
  Search *search = data;

  g_clear_object (&search->query);
  g_free (search);
}

static guint
count_lines (const char *text,
             gsize       len)
{
  guint n = 0;

  for (const char *p = text; (p = memchr (p, '\n', text + len - p)) != NULL; p++)
    n++;
  return n;
}

/* The lines of @hit, 1-based, if its file still holds its text there */
static gboolean
hit_lines (AgentDocumentHit *hit,
           guint64           max_file_size,
           guint            *first,
           guint            *last)
{
  g_autofree char *contents = NULL;
  gsize len = 0;
  gsize text_len = strlen (hit->text);

  if (hit->end < hit->start || (guint64) hit->end > max_file_size ||
      (gsize) (hit->end - hit->start) != text_len ||
      !g_file_get_contents (hit->path, &contents, &len, NULL) ||
      (gsize) hit->end > len || memcmp (contents + hit->start, hit->text, text_len) != 0)
    return FALSE;
  *first = count_lines (contents, hit->start) + 1;
  /* A chunk that ends with its line's break ends on that line */
  *last = *first + count_lines (hit->text, text_len > 0 && hit->text[text_len - 1] == '\n'
                                             ? text_len - 1 : text_len);
  return TRUE;
}

static void
search_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  AgentDocumentIndex *self = source_object;
  Search *search = task_data;
  g_autoptr(JsonBuilder) builder = json_builder_new_immutable ();
  g_autoptr(GPtrArray) hits = NULL;
  GError *error = NULL;

  g_mutex_lock (&self->db_lock);
  hits = _agent_document_db_search (self->db, search->query, search->max_results, &error);
  g_mutex_unlock (&self->db_lock);
  if (hits == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  json_builder_begin_array (builder);
  for (guint i = 0; i < hits->len; i++)
    {
      AgentDocumentHit *hit = hits->pdata[i];
      guint first = 0, last = 0;

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "path");
      json_builder_add_string_value (builder, hit->path);
      json_builder_set_member_name (builder, "start");
      json_builder_add_int_value (builder, hit->start);
      json_builder_set_member_name (builder, "end");
      json_builder_add_int_value (builder, hit->end);
      if (!g_cancellable_is_cancelled (cancellable) &&
          hit_lines (hit, search->max_file_size, &first, &last))
        {
          json_builder_set_member_name (builder, "first_line");
          json_builder_add_int_value (builder, first);
          json_builder_set_member_name (builder, "last_line");
          json_builder_add_int_value (builder, last);
        }
      json_builder_set_member_name (builder, "text");
      json_builder_add_string_value (builder, hit->text);
      json_builder_set_member_name (builder, "score");
      json_builder_add_double_value (builder, hit->score);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  g_task_return_pointer (task, json_builder_get_root (builder),
                         (GDestroyNotify) json_node_unref);
}

static void
query_embedded_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Search *search = g_task_get_task_data (task);
  GError *error = NULL;

  if (!(search->query = agent_provider_embed_finish (AGENT_PROVIDER (object), result, &error)))
    {
      g_prefix_error (&error, _("The question could not be embedded: "));
      g_task_return_error (task, error);
      return;
    }
  if (agent_embeddings_get_n_vectors (search->query) != 1)
    {
      g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                               _("The question could not be embedded: the server gave no "
                                 "vector"));
      return;
    }
  g_task_run_in_thread (task, search_thread);
}

/**
 * agent_document_index_search_async:
 * @self: a [class@Agent.DocumentIndex]
 * @query: the question, or the words to look for
 * @max_results: how many chunks at most (at least 1)
 * @cancellable: (nullable): a [class@Gio.Cancellable]
 * @callback: (scope async): called with the chunks found
 * @user_data: data for @callback
 *
 * Looks for the chunks closest in meaning to @query: the query is embedded
 * by the index's model, and compared with each chunk's vector (cosine
 * similarity), on a worker thread.
 *
 * Since: 0.1
 */
void
agent_document_index_search_async (AgentDocumentIndex  *self,
                                   const char          *query,
                                   guint                max_results,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *stripped = NULL;
  const char *texts[] = { query, NULL };
  Search *search;

  g_return_if_fail (AGENT_IS_DOCUMENT_INDEX (self));
  g_return_if_fail (query != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, agent_document_index_search_async);
  stripped = g_strstrip (g_strdup (query));
  if (max_results == 0 || stripped[0] == '\0')
    {
      g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                               max_results == 0
                                 ? _("A search of the documents needs at least one result")
                                 : _("A search of the documents needs a question"));
      return;
    }

  search = g_new0 (Search, 1);
  search->max_results = max_results;
  search->max_file_size = self->max_file_size;
  g_task_set_task_data (task, search, search_free);
  agent_provider_embed_async (self->provider, texts, self->model, cancellable,
                              query_embedded_cb, g_steal_pointer (&task));
}

/**
 * agent_document_index_search_finish:
 * @self: a [class@Agent.DocumentIndex]
 * @result: the result given to the callback
 * @error: return location for a [struct@GLib.Error]
 *
 * Finishes [method@Agent.DocumentIndex.search_async]: the chunks found,
 * best first, as a JSON array of objects with the file's `path`, the
 * chunk's bytes in it (`start` and `end`), its `text`, its `score` (the
 * cosine similarity, at most 1), and `first_line` and `last_line` (from 1)
 * when the file still holds that text there. An empty index gives an empty
 * array.
 *
 * Returns: (transfer full) (nullable): the chunks, or %NULL with @error set
 *
 * Since: 0.1
 */
JsonNode *
agent_document_index_search_finish (AgentDocumentIndex  *self,
                                    GAsyncResult        *result,
                                    GError             **error)
{
  g_return_val_if_fail (AGENT_IS_DOCUMENT_INDEX (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        agent_document_index_search_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
