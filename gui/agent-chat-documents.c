/* agent-chat-documents.c
 *
 * The app's documents: the folders of Preferences › Documents
 * (document-folders), indexed in one SQLite file of the app's data
 * ($XDG_DATA_HOME/agent-chat/documents.db) by libagent's AgentDocumentIndex,
 * with the embeddings of the default server (its provider, address and key)
 * and the model set (embedding-model; empty: the server's). Sessions get the
 * search_documents tool over the index while there are folders.
 *
 * An update walks the folders again: at start-up (once the window shows, at
 * idle priority: start-up never waits for it), when the folders or the model
 * change, and on Index Now. Each update makes the index anew from the
 * settings of the moment (the file stays, and the files already indexed
 * with the same model stay current). While it runs, files-done and
 * files-total say how far it is; then the status says what the index holds
 * ("12 files, 40 chunks") or why the update failed, and the failures list
 * the files that could not be indexed, each with its reason.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gtk/gtk.h>
#include <glib/gi18n.h>

#include "agent-chat-connection.h"
#include "agent-chat-documents.h"

struct _AgentChatDocuments
{
  GObject               parent_instance;

  GSettings            *settings;
  AgentChatSecretStore *secrets;
  AgentProfileList     *profiles;     /* nullable */
  char                 *path;
  AgentChatConnection  *connection;   /* the server of the update under way */
  AgentDocumentIndex   *index;        /* NULL without folders */
  GCancellable         *cancellable;  /* the update under way */
  GtkStringList        *failures;
  char                 *status;
  guint                 idle_id;
  guint                 indexing : 1;
};

G_DEFINE_FINAL_TYPE (AgentChatDocuments, agent_chat_documents, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_INDEX,
  PROP_INDEXING,
  PROP_FILES_DONE,
  PROP_FILES_TOTAL,
  PROP_STATUS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
set_status (AgentChatDocuments *self,
            const char         *status)
{
  if (g_strcmp0 (self->status, status) == 0)
    return;
  g_free (self->status);
  self->status = g_strdup (status);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATUS]);
}

static void
set_indexing (AgentChatDocuments *self,
              gboolean            indexing)
{
  if (self->indexing == !!indexing)
    return;
  self->indexing = !!indexing;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_INDEXING]);
}

static void
on_progress (AgentChatDocuments *self,
             GParamSpec         *pspec)
{
  if (g_str_equal (pspec->name, "files-done"))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILES_DONE]);
  else
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILES_TOTAL]);
}

static void
on_file_failed (AgentChatDocuments *self,
                const char         *path,
                const GError       *error)
{
  /* Translators: a file that could not be indexed, and why */
  g_autofree char *text = g_strdup_printf (_("%s: %s"), path, error->message);

  gtk_string_list_append (self->failures, text);
}

static void
set_index (AgentChatDocuments *self,
           AgentDocumentIndex *index)
{
  if (self->index == index)
    return;
  if (self->index != NULL)
    g_signal_handlers_disconnect_by_data (self->index, self);
  g_set_object (&self->index, index);
  if (index != NULL)
    {
      g_signal_connect_object (index, "notify::files-done", G_CALLBACK (on_progress), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (index, "notify::files-total", G_CALLBACK (on_progress), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (index, "file-failed", G_CALLBACK (on_file_failed), self,
                               G_CONNECT_SWAPPED);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_INDEX]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILES_DONE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILES_TOTAL]);
}

static void
fail (AgentChatDocuments *self,
      const GError       *error)
{
  /* Translators: %s says why, as the library or the server put it */
  g_autofree char *text = g_strdup_printf (_("Indexing failed: %s"), error->message);

  set_status (self, text);
  set_indexing (self, FALSE);
}

static void
on_updated (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(AgentChatDocuments) self = user_data;
  AgentDocumentIndex *index = AGENT_DOCUMENT_INDEX (object);
  g_autoptr(GError) error = NULL;
  g_autofree char *files = NULL;
  g_autofree char *text = NULL;
  guint n_files, n_chunks;

  if (!agent_document_index_update_finish (index, result, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        fail (self, error);
      return;  /* cancelled: another update is under way, or the app leaves */
    }
  n_files = agent_document_index_get_n_files (index);
  n_chunks = agent_document_index_get_n_chunks (index);
  /* Translators: what the index holds: "12 files, 40 chunks" */
  files = g_strdup_printf (ngettext ("%u file", "%u files", n_files), n_files);
  text = g_strdup_printf (ngettext ("%s, %u chunk", "%s, %u chunks", n_chunks), files, n_chunks);
  set_status (self, text);
  set_indexing (self, FALSE);
}

static void
on_key_looked_up (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(AgentChatDocuments) self = user_data;
  g_autoptr(GError) error = NULL;
  AgentChatKeySource source;
  g_autofree char *key = agent_chat_secret_store_lookup_finish (AGENT_CHAT_SECRET_STORE (object),
                                                                result, &source, &error);
  g_autoptr(AgentProvider) provider = NULL;
  g_autoptr(AgentDocumentIndex) index = NULL;
  g_autofree char *model = NULL;
  g_auto(GStrv) folders = NULL;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || self->connection == NULL)
    return;
  g_clear_error (&error);
  provider = agent_chat_connection_create_provider (self->connection, &error);
  if (provider == NULL)
    {
      fail (self, error);
      return;
    }
  agent_provider_set_api_key (provider, key);
  model = g_settings_get_string (self->settings, "embedding-model");
  index = agent_document_index_new (self->path, provider, *model != '\0' ? model : NULL, &error);
  if (index == NULL)
    {
      fail (self, error);
      return;
    }
  folders = g_settings_get_strv (self->settings, "document-folders");
  agent_document_index_set_folders (index, (const char * const *) folders);
  set_index (self, index);
  agent_document_index_update_async (index, self->cancellable, on_updated, g_object_ref (self));
}

/**
 * agent_chat_documents_update:
 * @self: a #AgentChatDocuments
 *
 * Walks the folders again, in place of an update under way: new and
 * changed files are indexed, files gone are dropped.
 */
void
agent_chat_documents_update (AgentChatDocuments *self)
{
  g_auto(GStrv) folders = NULL;

  g_return_if_fail (AGENT_CHAT_IS_DOCUMENTS (self));

  g_clear_handle_id (&self->idle_id, g_source_remove);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->connection);
  gtk_string_list_splice (self->failures, 0,
                          g_list_model_get_n_items (G_LIST_MODEL (self->failures)), NULL);

  folders = g_settings_get_strv (self->settings, "document-folders");
  if (folders[0] == NULL)
    {
      set_index (self, NULL);
      set_status (self, _("No folders"));
      set_indexing (self, FALSE);
      return;
    }

  self->cancellable = g_cancellable_new ();
  self->connection = self->profiles != NULL
                     ? agent_chat_connection_new_for_profile (self->settings, self->profiles,
                                                              NULL, NULL, NULL, NULL)
                     : agent_chat_connection_new (self->settings, NULL, NULL, NULL);
  set_status (self, _("Looking for files…"));
  set_indexing (self, TRUE);
  agent_chat_secret_store_lookup_async (self->secrets,
                                        agent_chat_connection_get_provider (self->connection),
                                        agent_chat_connection_get_base_url (self->connection),
                                        self->cancellable, on_key_looked_up,
                                        g_object_ref (self));
}

static gboolean
update_cb (gpointer user_data)
{
  AgentChatDocuments *self = user_data;

  self->idle_id = 0;
  agent_chat_documents_update (self);
  return G_SOURCE_REMOVE;
}

/**
 * agent_chat_documents_update_when_idle:
 * @self: a #AgentChatDocuments
 *
 * Updates the index once the main loop has nothing else to do: after the
 * window is drawn, at start-up; once for several settings changed at once.
 */
void
agent_chat_documents_update_when_idle (AgentChatDocuments *self)
{
  g_return_if_fail (AGENT_CHAT_IS_DOCUMENTS (self));

  if (self->idle_id == 0)
    self->idle_id = g_idle_add_full (G_PRIORITY_LOW, update_cb, self, NULL);
}

/**
 * agent_chat_documents_shutdown:
 * @self: a #AgentChatDocuments
 *
 * Stops the update under way, as the app leaves.
 */
void
agent_chat_documents_shutdown (AgentChatDocuments *self)
{
  g_return_if_fail (AGENT_CHAT_IS_DOCUMENTS (self));

  g_clear_handle_id (&self->idle_id, g_source_remove);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->connection);
}

/**
 * agent_chat_documents_get_index:
 * @self: a #AgentChatDocuments
 *
 * Returns: (transfer none) (nullable): the index, or %NULL while there are
 *   no folders (or before the first update)
 */
AgentDocumentIndex *
agent_chat_documents_get_index (AgentChatDocuments *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_DOCUMENTS (self), NULL);

  return self->index;
}

gboolean
agent_chat_documents_get_indexing (AgentChatDocuments *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_DOCUMENTS (self), FALSE);

  return self->indexing;
}

guint
agent_chat_documents_get_files_done (AgentChatDocuments *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_DOCUMENTS (self), 0);

  return self->index != NULL ? agent_document_index_get_files_done (self->index) : 0;
}

guint
agent_chat_documents_get_files_total (AgentChatDocuments *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_DOCUMENTS (self), 0);

  return self->index != NULL ? agent_document_index_get_files_total (self->index) : 0;
}

/**
 * agent_chat_documents_get_status:
 * @self: a #AgentChatDocuments
 *
 * Returns: (transfer none): what the last update did, or that one runs
 */
const char *
agent_chat_documents_get_status (AgentChatDocuments *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_DOCUMENTS (self), NULL);

  return self->status;
}

/**
 * agent_chat_documents_get_failures:
 * @self: a #AgentChatDocuments
 *
 * Returns: (transfer none): the files the last update could not index,
 *   each as a string that says why
 */
GListModel *
agent_chat_documents_get_failures (AgentChatDocuments *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_DOCUMENTS (self), NULL);

  return G_LIST_MODEL (self->failures);
}

static void
agent_chat_documents_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  AgentChatDocuments *self = AGENT_CHAT_DOCUMENTS (object);

  switch (prop_id)
    {
    case PROP_INDEX:
      g_value_set_object (value, self->index);
      break;
    case PROP_INDEXING:
      g_value_set_boolean (value, self->indexing);
      break;
    case PROP_FILES_DONE:
      g_value_set_uint (value, agent_chat_documents_get_files_done (self));
      break;
    case PROP_FILES_TOTAL:
      g_value_set_uint (value, agent_chat_documents_get_files_total (self));
      break;
    case PROP_STATUS:
      g_value_set_string (value, self->status);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_chat_documents_dispose (GObject *object)
{
  AgentChatDocuments *self = AGENT_CHAT_DOCUMENTS (object);

  agent_chat_documents_shutdown (self);
  set_index (self, NULL);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->settings);
  g_clear_object (&self->secrets);
  g_clear_object (&self->profiles);
  g_clear_object (&self->failures);

  G_OBJECT_CLASS (agent_chat_documents_parent_class)->dispose (object);
}

static void
agent_chat_documents_finalize (GObject *object)
{
  AgentChatDocuments *self = AGENT_CHAT_DOCUMENTS (object);

  g_free (self->path);
  g_free (self->status);

  G_OBJECT_CLASS (agent_chat_documents_parent_class)->finalize (object);
}

static void
agent_chat_documents_class_init (AgentChatDocumentsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = agent_chat_documents_get_property;
  object_class->dispose = agent_chat_documents_dispose;
  object_class->finalize = agent_chat_documents_finalize;

  properties[PROP_INDEX] =
    g_param_spec_object ("index", NULL, NULL, AGENT_TYPE_DOCUMENT_INDEX,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_INDEXING] =
    g_param_spec_boolean ("indexing", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_FILES_DONE] =
    g_param_spec_uint ("files-done", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_FILES_TOTAL] =
    g_param_spec_uint ("files-total", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_STATUS] =
    g_param_spec_string ("status", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agent_chat_documents_init (AgentChatDocuments *self)
{
  self->failures = gtk_string_list_new (NULL);
  self->status = g_strdup (_("Not indexed yet"));
}

/**
 * agent_chat_documents_new:
 * @settings: the app's settings
 * @secrets: where the default server's key is
 * @profiles: (nullable): the servers, whose default gives the embeddings
 * @path: the index's SQLite file
 *
 * Returns: (transfer full): the app's documents; nothing is indexed until
 *   an update is asked for
 */
AgentChatDocuments *
agent_chat_documents_new (GSettings            *settings,
                          AgentChatSecretStore *secrets,
                          AgentProfileList     *profiles,
                          const char           *path)
{
  AgentChatDocuments *self = g_object_new (AGENT_CHAT_TYPE_DOCUMENTS, NULL);

  self->settings = g_object_ref (settings);
  self->secrets = g_object_ref (secrets);
  self->profiles = profiles != NULL ? g_object_ref (profiles) : NULL;
  self->path = g_strdup (path);
  g_signal_connect_object (settings, "changed::document-folders",
                           G_CALLBACK (agent_chat_documents_update_when_idle), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (settings, "changed::embedding-model",
                           G_CALLBACK (agent_chat_documents_update_when_idle), self,
                           G_CONNECT_SWAPPED);
  return self;
}
