/* agent-conversation.c — AgentConversation's surface: its properties (one
 * properties[] array, notified by pspec and only on a change), their
 * getters and setters, its signal, its loading and its list model. The
 * behaviour is around agent-conversation-private.h: -memory.c (appends and
 * cuts, written), -update.c (what the setters write), -claim.c, -errors.c
 * and -export.c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "json/agent-json.h"
#include "store/agent-conversation-private.h"
#include "store/agent-store-private.h"

/**
 * AgentConversation:
 *
 * A conversation kept in an [class@Agent.Store]: its messages, as a
 * [iface@Gio.ListModel] of [class@Agent.Message], and what it was held
 * with (title, provider, model, settings).
 *
 * It is an [iface@Agent.Memory]: give it to
 * [method@Agent.Session.set_memory] and the session's turns are written to
 * the database as they go, each write in one transaction, committed on
 * the store's writer thread in the order the messages came (the list
 * model changes at once, on the caller's thread):
 *
 * - the user's message at once;
 * - an assistant message with tool calls together with the results of all
 *   its calls, when the last result is in (before the next request), so
 *   that the database never holds calls without their results;
 * - any other message (an answer, or the part of one that streamed before
 *   the turn was cancelled or failed, marked
 *   %AGENT_MESSAGE_STATE_INTERRUPTED) at once.
 *
 * When a turn fails, the application may keep its error with the message
 * the turn ended with ([method@Agent.Conversation.set_error]).
 *
 * A session waits for what a request carries to be committed
 * ([method@Agent.Memory.sync_async]) before it sends the request, and the
 * answer being streamed is not in the memory until it ends, so a crash
 * loses at most that answer, never an earlier turn. A failed write is
 * reported by [signal@Agent.Conversation::write-failed], fails the turn
 * before its next request (%AGENT_ERROR_STORAGE) and every append after
 * it; a program waits for the writes with
 * [method@Agent.Store.flush_async] before it exits.
 *
 * A conversation from [method@Agent.Store.create_conversation] is written
 * with its first message, and gets its id when that write is in. Its
 * messages are read on first use (or with [method@Agent.Conversation.load]
 * or [method@Agent.Conversation.load_async]). Use a conversation from one
 * thread; it stays alive until its queued writes are done.
 *
 * A conversation outlives its store. Disposing it while a session writes
 * to it (`g_object_run_dispose()`, what a binding's explicit dispose does)
 * lets other programs go on at once and writes nothing more: the turn
 * fails at its next write with %AGENT_ERROR_STORAGE, and the database
 * keeps what it held (never a tool call without its result).
 *
 * Since: 0.1
 */

enum {
  PROP_0,
  PROP_ID,
  PROP_TITLE,
  PROP_CREATED,
  PROP_UPDATED,
  PROP_PROVIDER,
  PROP_MODEL,
  PROP_PROFILE,
  PROP_SETTINGS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  WRITE_FAILED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AgentConversation, agent_conversation, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init)
                               G_IMPLEMENT_INTERFACE (AGENT_TYPE_MEMORY,
                                                      _agent_conversation_memory_iface_init))

void
_agent_conversation_unwatch (AgentConversation *self)
{
  if (self->watched != NULL)
    {
      g_clear_signal_handler (&self->watched_id, self->watched);
      g_clear_object (&self->watched);
    }
}

/* Whether more may be written: not when disposed (g_object_run_dispose(),
 * a binding's explicit dispose) while a session still writes its turn to
 * it (the turn fails at its next write, which could otherwise put a tool
 * result in without its call, whose message the dispose let go), nor
 * once a write failed (what comes after it would leave a hole). */
gboolean
_agent_conversation_check_writable (AgentConversation  *self,
                                    GError            **error)
{
  if (self->closed)
    {
      g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_STORAGE,
                           _("The conversation was closed: nothing more is written to it"));
      return FALSE;
    }
  if (self->write_error != NULL)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_STORAGE,
                   _("The conversation could not be written, and nothing more is: %s"),
                   self->write_error->message);
      return FALSE;
    }
  return TRUE;
}

/* The writer's thread did what was queued: the new conversation's id,
 * or the failure, comes in (on the main context of who queued it). */
static void
written_cb (AgentStoreBatch *batch,
            const GError    *error,
            gpointer         data)
{
  AgentConversation *self = data;
  gint64 id = _agent_store_batch_get_id (batch);

  if (error != NULL)
    {
      if (self->write_error == NULL)
        {
          g_debug ("Conversation %" G_GINT64_FORMAT " of %s could not be written: %s",
                   self->id, self->db->path, error->message);
          self->write_error = g_error_copy (error);
          g_signal_emit (self, signals[WRITE_FAILED], 0, error);
        }
      return;
    }

  if (self->id == 0 && id != 0)
    {
      /* Claimed by the writer, with its first message */
      self->id = id;
      self->claimed = TRUE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ID]);
      if (!self->closed)
        _agent_store_db_changed (self->db, self);
      if (self->release_wanted || self->closed)
        {
          self->release_wanted = FALSE;
          if (self->closed || self->messages == NULL || self->messages->len == self->n_saved)
            _agent_conversation_release_claim (self);
        }
    }
}

/* Queues @batch (taking it) on the store's writer. The conversation is
 * kept until the batch is done, so that the id it gets, or the failure,
 * comes to it. */
void
_agent_conversation_queue (AgentConversation *self,
                           AgentStoreBatch   *batch)
{
  _agent_store_writer_queue (_agent_store_db_get_writer (self->db), batch, written_cb,
                             g_object_ref (self), g_object_unref);
}

/* Loading */

/* Documented in agent-conversation-private.h */
void
_agent_conversation_take_tree (AgentConversation *self,
                               AgentMessageTree  *tree)
{
  g_clear_pointer (&self->messages, g_ptr_array_unref);
  g_clear_pointer (&self->tree, _agent_message_tree_free);
  self->tree = tree;
  self->messages = g_ptr_array_ref (_agent_message_tree_get_path (tree));
  self->n_saved = self->messages->len;
  self->n_stored = _agent_message_tree_get_n_nodes (tree);
}

static void
ensure_loaded (AgentConversation *self)
{
  g_autoptr(GError) error = NULL;
  AgentMessageTree *tree = NULL;

  if (self->messages != NULL)
    return;

  if (self->id != 0 && !(tree = _agent_store_load_tree (self->db, self->id, &error)))
    {
      g_warning ("Conversation %" G_GINT64_FORMAT " could not be read: %s",
                 self->id, error->message);
      self->load_error = g_steal_pointer (&error);
    }
  _agent_conversation_take_tree (self, tree ? tree : _agent_message_tree_new ());
  g_clear_pointer (&self->errors, g_hash_table_unref);
  self->errors = _agent_store_load_errors (self->db, self->id,
                                           _agent_message_tree_get_next_seq (self->tree));
}

/**
 * agent_conversation_load:
 * @self: a [class@Agent.Conversation]
 * @error: return location for a [struct@GLib.Error]
 *
 * Reads the conversation's messages, if not done yet, on the calling
 * thread. The list model does it on first use; call this to hear of a
 * failure, or [method@Agent.Conversation.load_async] to read a long
 * conversation without holding up a main loop.
 *
 * Returns: %TRUE if the messages are loaded
 *
 * Since: 0.1
 */
gboolean
agent_conversation_load (AgentConversation  *self,
                         GError            **error)
{
  g_return_val_if_fail (AGENT_IS_CONVERSATION (self), FALSE);

  ensure_loaded (self);
  if (self->load_error != NULL)
    {
      g_propagate_error (error, g_error_copy (self->load_error));
      return FALSE;
    }
  return TRUE;
}

/**
 * agent_conversation_is_loaded:
 * @self: a [class@Agent.Conversation]
 *
 * Whether the conversation's messages are in memory: read already (or
 * never stored, for a new conversation), so that using it as a list model
 * or [method@Agent.Conversation.load] reads nothing. An application
 * shows such a conversation at once, and reads the others with
 * [method@Agent.Conversation.load_async].
 *
 * Returns: %TRUE if the messages are loaded (or could not be: a failure
 *   to read them is kept, and given by [method@Agent.Conversation.load])
 *
 * Since: 0.1
 */
gboolean
agent_conversation_is_loaded (AgentConversation *self)
{
  g_return_val_if_fail (AGENT_IS_CONVERSATION (self), FALSE);

  return self->messages != NULL || self->id == 0;
}

/* GListModel */

static GType
agent_conversation_get_item_type (GListModel *model)
{
  return AGENT_TYPE_MESSAGE;
}

static guint
agent_conversation_get_n_items (GListModel *model)
{
  AgentConversation *self = AGENT_CONVERSATION (model);

  ensure_loaded (self);
  return self->messages->len;
}

static gpointer
agent_conversation_get_item (GListModel *model,
                             guint       position)
{
  AgentConversation *self = AGENT_CONVERSATION (model);

  ensure_loaded (self);
  if (position >= self->messages->len)
    return NULL;
  return g_object_ref (g_ptr_array_index (self->messages, position));
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = agent_conversation_get_item_type;
  iface->get_n_items = agent_conversation_get_n_items;
  iface->get_item = agent_conversation_get_item;
}

/* GObject */

static void
agent_conversation_dispose (GObject *object)
{
  AgentConversation *self = (AgentConversation *)object;

  /* Others may go on at once; what waited to be written (a call without
   * its results yet) is let go, and nothing more is written */
  self->closed = TRUE;
  _agent_conversation_release_claim (self);
  _agent_conversation_unwatch (self);
  g_clear_weak_pointer (&self->turn_session);
  g_clear_pointer (&self->messages, g_ptr_array_unref);
  g_clear_pointer (&self->tree, _agent_message_tree_free);
  g_clear_pointer (&self->errors, g_hash_table_unref);

  G_OBJECT_CLASS (agent_conversation_parent_class)->dispose (object);
}

static void
agent_conversation_finalize (GObject *object)
{
  AgentConversation *self = (AgentConversation *)object;

  g_clear_pointer (&self->db, _agent_store_db_unref);
  g_clear_pointer (&self->target, _agent_store_target_unref);
  g_clear_error (&self->write_error);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->provider, g_free);
  g_clear_pointer (&self->model, g_free);
  g_clear_pointer (&self->profile, g_free);
  g_clear_pointer (&self->settings, json_node_unref);
  g_clear_pointer (&self->created_time, g_date_time_unref);
  g_clear_pointer (&self->updated_time, g_date_time_unref);
  g_clear_error (&self->load_error);

  G_OBJECT_CLASS (agent_conversation_parent_class)->finalize (object);
}

static void
agent_conversation_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  AgentConversation *self = AGENT_CONVERSATION (object);

  switch (prop_id)
    {
    case PROP_ID:
      g_value_set_int64 (value, self->id);
      break;

    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;

    case PROP_CREATED:
      g_value_set_boxed (value, agent_conversation_get_created (self));
      break;

    case PROP_UPDATED:
      g_value_set_boxed (value, agent_conversation_get_updated (self));
      break;

    case PROP_PROVIDER:
      g_value_set_string (value, self->provider);
      break;

    case PROP_MODEL:
      g_value_set_string (value, self->model);
      break;

    case PROP_PROFILE:
      g_value_set_string (value, self->profile);
      break;

    case PROP_SETTINGS:
      g_value_set_boxed (value, self->settings);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_conversation_class_init (AgentConversationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = agent_conversation_dispose;
  object_class->finalize = agent_conversation_finalize;
  object_class->get_property = agent_conversation_get_property;

  /**
   * AgentConversation:id:
   *
   * The conversation's identifier in its store, or 0 until its first
   * message is written (committed on the store's writer thread: it is
   * notified then, after the append returned).
   */
  properties[PROP_ID] =
    g_param_spec_int64 ("id", NULL, NULL, 0, G_MAXINT64, 0, flags);

  /**
   * AgentConversation:title:
   *
   * The title: given with [method@Agent.Conversation.rename], or the start
   * of the first message the user wrote.
   */
  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL, flags);

  /**
   * AgentConversation:created:
   *
   * When the conversation was started.
   */
  properties[PROP_CREATED] =
    g_param_spec_boxed ("created", NULL, NULL, G_TYPE_DATE_TIME, flags);

  /**
   * AgentConversation:updated:
   *
   * When a message was last written or a branch deleted; not changed by
   * renaming. See [method@Agent.Conversation.get_updated].
   */
  properties[PROP_UPDATED] =
    g_param_spec_boxed ("updated", NULL, NULL, G_TYPE_DATE_TIME, flags);

  /**
   * AgentConversation:provider:
   *
   * The provider the conversation is held with, as
   * [ctor@Agent.Provider.new] names it.
   */
  properties[PROP_PROVIDER] =
    g_param_spec_string ("provider", NULL, NULL, NULL, flags);

  /**
   * AgentConversation:model:
   *
   * The model the conversation is held with.
   */
  properties[PROP_MODEL] =
    g_param_spec_string ("model", NULL, NULL, NULL, flags);

  /**
   * AgentConversation:profile:
   *
   * The name of the profile the conversation is held with (see
   * [class@Agent.ProfileList]), or %NULL: conversations of older versions
   * have none.
   *
   * Since: 0.1
   */
  properties[PROP_PROFILE] =
    g_param_spec_string ("profile", NULL, NULL, NULL, flags);

  /**
   * AgentConversation:settings:
   *
   * The application's settings for the conversation (base URL, system
   * prompt, tools…), a JSON object. Never an API key.
   */
  properties[PROP_SETTINGS] =
    g_param_spec_boxed ("settings", NULL, NULL, JSON_TYPE_NODE, flags);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * AgentConversation::write-failed:
   * @self: the conversation
   * @error: what went wrong
   *
   * A write of the conversation failed on the store's writer thread (the
   * disk is full, the file was made read-only, another program held the
   * database for too long…). It is emitted once, on the main context of
   * the thread that appended the message, after the append returned:
   * the messages stay in the list model, but from then on nothing more is
   * written, and appending fails with %AGENT_ERROR_STORAGE (so a turn of
   * a session fails at its next message). Tell the user: what they see is
   * not kept. A store opened again reads what was written before.
   *
   * Since: 0.1
   */
  signals[WRITE_FAILED] =
    g_signal_new ("write-failed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 1, G_TYPE_ERROR);
}

static void
agent_conversation_init (AgentConversation *self)
{
}

AgentConversation *
_agent_conversation_new (AgentStoreDb *db)
{
  AgentConversation *self = g_object_new (AGENT_TYPE_CONVERSATION, NULL);

  self->db = _agent_store_db_ref (db);
  self->target = _agent_store_target_new (0);
  self->created = self->updated = g_get_real_time ();
  return self;
}

/* From "SELECT id, title, created, updated, provider, model, settings, profile" */
AgentConversation *
_agent_conversation_new_from_row (AgentStoreDb *db,
                                  sqlite3_stmt *row)
{
  AgentConversation *self = g_object_new (AGENT_TYPE_CONVERSATION, NULL);
  const char *settings = (const char *) sqlite3_column_text (row, 6);

  self->db = _agent_store_db_ref (db);
  self->id = sqlite3_column_int64 (row, 0);
  self->target = _agent_store_target_new (self->id);
  self->title = g_strdup ((const char *) sqlite3_column_text (row, 1));
  self->created = sqlite3_column_int64 (row, 2);
  self->updated = sqlite3_column_int64 (row, 3);
  self->provider = g_strdup ((const char *) sqlite3_column_text (row, 4));
  self->model = g_strdup ((const char *) sqlite3_column_text (row, 5));
  self->profile = g_strdup ((const char *) sqlite3_column_text (row, 7));
  if (settings != NULL && (self->settings = agent_json_parse (settings, -1, NULL)))
    json_node_seal (self->settings);
  return self;
}

gint64
_agent_conversation_get_updated_usec (AgentConversation *self)
{
  return self->updated;
}

/* A write changed the conversation at @now (µs since 1970) */
void
_agent_conversation_set_updated (AgentConversation *self,
                                 gint64             now)
{
  if (self->updated == now)
    return;

  self->updated = now;
  g_clear_pointer (&self->updated_time, g_date_time_unref);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UPDATED]);
}

/* The title derived from the first message (@title taken) */
void
_agent_conversation_take_title (AgentConversation *self,
                                char              *title)
{
  g_autofree char *old = g_steal_pointer (&self->title);

  self->title = title;
  if (g_strcmp0 (old, title) != 0)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
}

/* Sets *@field to @value, notifying @prop when it changed */
static void
replace_string (AgentConversation *self,
                char             **field,
                const char        *value,
                guint              prop)
{
  if (g_strcmp0 (*field, value) != 0)
    {
      g_free (*field);
      *field = g_strdup (value);
      g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
    }
}

/* Accessors: the getters, and the setters that write what they set */

/**
 * agent_conversation_get_id:
 * @self: a [class@Agent.Conversation]
 *
 * Gets the conversation's identifier in its store, which
 * [method@Agent.Store.lookup_conversation] finds it by (agent-cli's
 * `--conversation` takes it too). A new conversation gets one when its
 * first message is written. [property@Agent.Conversation:id].
 *
 * Returns: the identifier, or 0 until the first message is written
 *
 * Since: 0.1
 */
gint64
agent_conversation_get_id (AgentConversation *self)
{
  g_return_val_if_fail (AGENT_IS_CONVERSATION (self), 0);
  return self->id;
}

/**
 * agent_conversation_get_title:
 * @self: a [class@Agent.Conversation]
 *
 * Gets the title: the one given with [method@Agent.Conversation.rename], or
 * else the first line of the first message the user wrote, cut at about 60
 * characters. [property@Agent.Conversation:title].
 *
 * Returns: (nullable) (transfer none): the title, owned by the conversation
 *   and valid until it changes, or %NULL before the first message is written
 *
 * Since: 0.1
 */
const char *
agent_conversation_get_title (AgentConversation *self)
{
  g_return_val_if_fail (AGENT_IS_CONVERSATION (self), NULL);
  return self->title;
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
  static const AgentStoreStatement columns[] = { STMT_SET_TITLE };
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

  if (!_agent_conversation_update_columns (self, columns, (const char * const[]) { clean }, 1, error))
    return FALSE;

  replace_string (self, &self->title, clean, PROP_TITLE);
  return TRUE;
}

/**
 * agent_conversation_get_created:
 * @self: a [class@Agent.Conversation]
 *
 * Gets when the conversation was started (for a new one, when it was
 * created). [property@Agent.Conversation:created].
 *
 * Returns: (transfer none): the time, in UTC, owned by the conversation
 *
 * Since: 0.1
 */
GDateTime *
agent_conversation_get_created (AgentConversation *self)
{
  g_return_val_if_fail (AGENT_IS_CONVERSATION (self), NULL);

  if (self->created_time == NULL)
    self->created_time = _agent_store_date_time_new (self->created);
  return self->created_time;
}

/**
 * agent_conversation_get_updated:
 * @self: a [class@Agent.Conversation]
 *
 * Gets when a message was last written to the conversation or a branch of
 * it deleted; conversations are listed newest first by it. Renaming it or
 * changing its settings does not change it, so a renamed conversation keeps
 * its place in the list. [property@Agent.Conversation:updated].
 *
 * Returns: (transfer none): the time, in UTC, owned by the conversation and
 *   valid until it changes
 *
 * Since: 0.1
 */
GDateTime *
agent_conversation_get_updated (AgentConversation *self)
{
  g_return_val_if_fail (AGENT_IS_CONVERSATION (self), NULL);

  if (self->updated_time == NULL)
    self->updated_time = _agent_store_date_time_new (self->updated);
  return self->updated_time;
}

/**
 * agent_conversation_get_provider:
 * @self: a [class@Agent.Conversation]
 *
 * Gets the name of the provider the conversation is held with, as
 * [ctor@Agent.Provider.new] takes it, for continuing it the same way.
 * [method@Agent.Conversation.set_model] and
 * [method@Agent.Conversation.record_session] set it.
 * [property@Agent.Conversation:provider].
 *
 * Returns: (nullable) (transfer none): the provider's name, owned by the
 *   conversation, or %NULL when none was recorded
 *
 * Since: 0.1
 */
const char *
agent_conversation_get_provider (AgentConversation *self)
{
  g_return_val_if_fail (AGENT_IS_CONVERSATION (self), NULL);
  return self->provider;
}

/**
 * agent_conversation_get_model:
 * @self: a [class@Agent.Conversation]
 *
 * Gets the model the conversation is held with, as the provider names it.
 * [property@Agent.Conversation:model].
 *
 * Returns: (nullable) (transfer none): the model's name, owned by the
 *   conversation, or %NULL when none was recorded
 *
 * Since: 0.1
 */
const char *
agent_conversation_get_model (AgentConversation *self)
{
  g_return_val_if_fail (AGENT_IS_CONVERSATION (self), NULL);
  return self->model;
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
  static const AgentStoreStatement columns[] = { STMT_SET_PROVIDER, STMT_SET_MODEL };

  g_return_val_if_fail (AGENT_IS_CONVERSATION (self), FALSE);

  if (!_agent_conversation_update_columns (self, columns, (const char * const[]) { provider, model }, 2, error))
    return FALSE;

  replace_string (self, &self->provider, provider, PROP_PROVIDER);
  replace_string (self, &self->model, model, PROP_MODEL);
  return TRUE;
}

/**
 * agent_conversation_get_profile:
 * @self: a [class@Agent.Conversation]
 *
 * Gets the name of the profile the conversation is held with, to continue
 * it with the same server ([method@Agent.ProfileList.lookup]).
 * [property@Agent.Conversation:profile].
 *
 * Returns: (nullable) (transfer none): the profile's name, owned by the
 *   conversation, or %NULL when none was recorded
 *
 * Since: 0.1
 */
const char *
agent_conversation_get_profile (AgentConversation *self)
{
  g_return_val_if_fail (AGENT_IS_CONVERSATION (self), NULL);
  return self->profile;
}

/**
 * agent_conversation_set_profile:
 * @self: a [class@Agent.Conversation]
 * @profile: (nullable): the profile's name, or %NULL for none
 * @error: return location for a [struct@GLib.Error]
 *
 * Records the name of the profile the conversation is held with (written
 * on the store's writer thread). The profile's provider and model are
 * recorded apart, with [method@Agent.Conversation.set_model].
 *
 * Returns: %TRUE if it was recorded
 *
 * Since: 0.1
 */
gboolean
agent_conversation_set_profile (AgentConversation  *self,
                                const char         *profile,
                                GError            **error)
{
  static const AgentStoreStatement columns[] = { STMT_SET_PROFILE };

  g_return_val_if_fail (AGENT_IS_CONVERSATION (self), FALSE);

  if (profile != NULL && *profile == '\0')
    profile = NULL;
  if (g_strcmp0 (self->profile, profile) == 0)
    return TRUE;
  if (!_agent_conversation_update_columns (self, columns, (const char * const[]) { profile }, 1, error))
    return FALSE;

  replace_string (self, &self->profile, profile, PROP_PROFILE);
  return TRUE;
}

/**
 * agent_conversation_get_settings:
 * @self: a [class@Agent.Conversation]
 *
 * Gets the application's settings for the conversation (the base URL, the
 * system prompt, the tools, … as [method@Agent.Conversation.record_session]
 * or [method@Agent.Conversation.set_settings] wrote them). They never hold
 * an API key. [property@Agent.Conversation:settings].
 *
 * Returns: (transfer none) (nullable): the settings, a sealed JSON object
 *   owned by the conversation and valid until they change, or %NULL when
 *   none were recorded
 *
 * Since: 0.1
 */
JsonNode *
agent_conversation_get_settings (AgentConversation *self)
{
  g_return_val_if_fail (AGENT_IS_CONVERSATION (self), NULL);
  return self->settings;
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
  static const AgentStoreStatement columns[] = { STMT_SET_SETTINGS };
  g_autofree char *text = NULL;
  const char *secret;
  gboolean changed;

  g_return_val_if_fail (AGENT_IS_CONVERSATION (self), FALSE);
  g_return_val_if_fail (settings == NULL || JSON_NODE_HOLDS_OBJECT (settings), FALSE);

  if (settings != NULL && (secret = _agent_conversation_find_secret (settings)) != NULL)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("Conversation settings may not hold credentials (“%s”); keep API keys "
                     "in the keyring"),
                   secret);
      return FALSE;
    }

  changed = (self->settings == NULL) != (settings == NULL) ||
            (settings != NULL && !json_node_equal (self->settings, settings));
  text = _agent_store_node_to_text (settings);
  if (!_agent_conversation_update_columns (self, columns, (const char * const[]) { text }, 1, error))
    return FALSE;

  g_clear_pointer (&self->settings, json_node_unref);
  if (text != NULL)
    {
      self->settings = json_from_string (text, NULL);
      json_node_seal (self->settings);
    }
  if (changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SETTINGS]);
  return TRUE;
}
