/* agent-store-import-tree.c — the tree of branches an imported
 * conversation makes, checked whole and numbered
 *
 * "messages" is the active branch, "branches" the other messages, each
 * with its "id" and its "parent" (agent-conversation-export.c). What a
 * store keeps is a tree whose parents come before their children: every
 * parent in the file, every id once, a parent's id below its child's (so
 * no cycle; one is named as such), "messages" a path from a first message
 * to "leaf". The messages are numbered again in the order of their ids.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "store/agent-store-import-private.h"

#define invalid _agent_store_import_invalid

static int
compare_int64 (gconstpointer a,
               gconstpointer b)
{
  gint64 first = *(const gint64 *) a, second = *(const gint64 *) b;

  return first < second ? -1 : first > second;
}

/* The index of the message whose "id" is @id, or -1 */
static int
find_id (GHashTable *by_id,
         gint64      id)
{
  gpointer index;

  return g_hash_table_lookup_extended (by_id, &id, NULL, &index) ? GPOINTER_TO_INT (index) : -1;
}

/* Documented in agent-store-import-private.h */
gboolean
_agent_store_import_build_tree (AgentStoreImport  *import,
                                GError           **error)
{
  g_autoptr(GHashTable) by_id = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autoptr(GArray) order = NULL;
  g_autoptr(GArray) seqs = NULL;
  g_autoptr(GPtrArray) messages = NULL;
  guint n = import->messages->len, n_ids = 0;

  for (guint i = 0; i < n; i++)
    if (g_array_index (import->ids, gint64, i) >= 0)
      n_ids++;

  if (n_ids == 0)
    {
      /* Written before branches: one branch, in order */
      if (n > import->n_path)
        return invalid (error, NULL, _("The messages of “branches” have no “id”"));
      for (guint i = 0; i < n; i++)
        {
          g_array_index (import->ids, gint64, i) = i;
          g_array_index (import->parents, gint64, i) = (gint64) i - 1;
        }
    }
  else if (n_ids < n)
    {
      for (guint i = 0; i < n; i++)
        if (g_array_index (import->ids, gint64, i) < 0)
          {
            g_autofree char *where = _agent_store_import_where (import, i);

            return invalid (error, where, _("“id” is missing (the other messages have one)"));
          }
    }

  for (guint i = 0; i < n; i++)
    {
      gint64 *id = &g_array_index (import->ids, gint64, i);
      gpointer other;

      if (g_hash_table_lookup_extended (by_id, id, NULL, &other))
        {
          g_autofree char *where = _agent_store_import_where (import, i);
          g_autofree char *first = _agent_store_import_where (import, GPOINTER_TO_UINT (other));

          return invalid (error, where, _("its “id” %lld is that of %s too"),
                          (long long) *id, first);
        }
      g_hash_table_insert (by_id, id, GUINT_TO_POINTER (i));
    }

  for (guint i = 0; i < n; i++)
    {
      gint64 parent = g_array_index (import->parents, gint64, i);

      if (parent >= 0 && find_id (by_id, parent) < 0)
        {
          g_autofree char *where = _agent_store_import_where (import, i);

          return invalid (error, where, _("its “parent” %lld is not the id of a message in the "
                                          "file"), (long long) parent);
        }
    }

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *where = _agent_store_import_where (import, i);
      gint64 id = g_array_index (import->ids, gint64, i);
      gint64 parent = g_array_index (import->parents, gint64, i);
      gint64 up = parent;
      guint steps;

      /* Parents before children: no cycle. A parent after its child may
       * be one: up from it, in at most n steps, back to the child? */
      if (parent >= id)
        {
          for (steps = 0; up >= 0 && up != id && steps <= n; steps++)
            up = g_array_index (import->parents, gint64, find_id (by_id, up));
          if (up == id)
            return invalid (error, where, _("its “parent” %lld leads back to it: the messages "
                                            "make a cycle, not a tree"), (long long) parent);
          return invalid (error, where, _("its “parent” %lld comes after it (the ids number "
                                          "the messages in the order they came)"),
                          (long long) parent);
        }
      if (i < import->n_path &&
          parent != (i == 0 ? -1 : g_array_index (import->ids, gint64, i - 1)))
        return invalid (error, where, _("its “parent” is not the message before it "
                                        "(“messages” is the active branch, in order)"));
    }

  if (import->leaf >= 0 && find_id (by_id, import->leaf) < 0)
    return invalid (error, NULL, _("“leaf” %lld is not the id of a message in the file"),
                    (long long) import->leaf);
  if (import->leaf >= 0 &&
      (import->n_path == 0 ||
       import->leaf != g_array_index (import->ids, gint64, import->n_path - 1)))
    return invalid (error, NULL, _("“leaf” %lld is not the last of “messages”, the active "
                                   "branch"), (long long) import->leaf);

  /* Numbered in the order of the ids: a parent comes before its children */
  order = g_array_sized_new (FALSE, FALSE, sizeof (gint64), n);
  g_array_append_vals (order, import->ids->data, n);
  g_array_sort (order, compare_int64);
  seqs = g_array_sized_new (FALSE, FALSE, sizeof (guint), n);
  g_array_set_size (seqs, n);
  for (guint seq = 0; seq < n; seq++)
    g_array_index (seqs, guint, find_id (by_id, g_array_index (order, gint64, seq))) = seq;

  messages = g_ptr_array_new_full (n, g_object_unref);
  g_ptr_array_set_size (messages, n);
  import->seq_parents = g_array_sized_new (FALSE, FALSE, sizeof (guint), n);
  g_array_set_size (import->seq_parents, n);
  for (guint i = 0; i < n; i++)
    {
      guint seq = g_array_index (seqs, guint, i);
      gint64 parent = g_array_index (import->parents, gint64, i);

      g_ptr_array_index (messages, seq) = g_object_ref (g_ptr_array_index (import->messages, i));
      g_array_index (import->seq_parents, guint, seq) =
        parent < 0 ? AGENT_MESSAGE_TREE_ROOT
                   : g_array_index (seqs, guint, find_id (by_id, parent));
    }
  import->leaf_seq = import->n_path > 0 ? g_array_index (seqs, guint, import->n_path - 1)
                                        : AGENT_MESSAGE_TREE_ROOT;

  if (import->errors != NULL)
    {
      GHashTable *errors = g_hash_table_new_full (NULL, NULL, NULL,
                                                  (GDestroyNotify) g_error_free);
      GHashTableIter iter;
      gpointer key, value;

      g_hash_table_iter_init (&iter, import->errors);
      while (g_hash_table_iter_next (&iter, &key, &value))
        {
          guint seq = g_array_index (seqs, guint, GPOINTER_TO_UINT (key));

          g_hash_table_insert (errors, GUINT_TO_POINTER (seq), value);
          g_hash_table_iter_steal (&iter);
        }
      g_hash_table_unref (import->errors);
      import->errors = errors;
    }

  g_ptr_array_unref (import->messages);
  import->messages = g_steal_pointer (&messages);
  return TRUE;
}
