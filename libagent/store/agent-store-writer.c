/* agent-store-writer.c — the thread that commits a store's writes, in order
 *
 * A commit with synchronous=FULL waits for the disk (an fsync): on the
 * main thread, that is a frame dropped per message in the app. So the
 * conversations describe their writes as batches (statements and the values
 * to bind, copied on the caller's thread: nothing of a message is read on
 * the writer's), and one thread per store connection runs them, each batch
 * in one transaction, in the order they were queued, on its own SQLite
 * connection. When a batch is done, its callback runs on the main context
 * of the thread that queued it.
 *
 * A batch for a conversation shares an AgentStoreTarget with the
 * conversation's other batches: the row's id once inserted (a new
 * conversation gets it from its first batch, which later ones refer to),
 * and the first failure, after which its later batches are not run (a
 * message at a later position must not go in without the one that
 * failed).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"


#include "agent-error.h"
#include "store/agent-store-private.h"
#include "agent-trace-private.h"

typedef enum
{
  VALUE_NULL,
  VALUE_INT,
  VALUE_TEXT,
  VALUE_BLOB,           /* bytes: an attachment's */
  VALUE_CONVERSATION,   /* the target's id */
  VALUE_MESSAGE,        /* the row of the batch's last STMT_INSERT_MESSAGE */
} ValueKind;

typedef struct
{
  ValueKind  kind;
  gint64     number;
  char      *text;
  gsize      length;
  GBytes    *bytes;
} Value;

typedef struct
{
  AgentStoreStatement statement;
  guint               first;     /* in the batch's values */
  guint               n_values;
} Op;

typedef enum
{
  JOB_WRITE,
  JOB_MARK,      /* nothing: for flushes and waits */
  JOB_STOP,
} JobKind;

struct _AgentStoreBatch
{
  JobKind              kind;
  AgentStoreTarget    *target;
  GArray              *ops;
  GArray              *values;
  /* When done */
  GMainContext        *context;
  AgentStoreBatchDone  done;
  gpointer             done_data;
  GDestroyNotify       done_data_destroy;
  GError              *error;
  gint64               id;          /* the target's id after the batch */
  gboolean             finished;    /* under the writer's mutex, for waits */
  gboolean             waited;
  gboolean             reports;     /* a mark that takes the failures since the last */
};

struct _AgentStoreWriter
{
  GThread      *thread;
  GAsyncQueue  *queue;
  AgentStoreDb *main;        /* the owner's connection: its claims (not a reference) */
  AgentStoreDb *db;          /* the writer's connection, used on its thread only */
  GError       *open_error;
  GError       *unreported;  /* the first failure since the last flush */
  GMutex        mutex;
  GCond         cond;
  char         *synchronous; /* bench-store's switch, applied before the next batch */
  gint          n_queued;    /* atomic: jobs queued so far */
};

AgentStoreTarget *
_agent_store_target_new (gint64 id)
{
  AgentStoreTarget *self = g_new0 (AgentStoreTarget, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->id = id;
  return self;
}

AgentStoreTarget *
_agent_store_target_ref (AgentStoreTarget *self)
{
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
_agent_store_target_unref (AgentStoreTarget *self)
{
  if (g_atomic_ref_count_dec (&self->ref_count))
    {
      g_clear_error (&self->error);
      g_free (self);
    }
}

static void
clear_value (gpointer data)
{
  Value *value = data;

  g_clear_pointer (&value->text, g_free);
  g_clear_pointer (&value->bytes, g_bytes_unref);
}

static AgentStoreBatch *
batch_new (JobKind kind)
{
  AgentStoreBatch *self = g_new0 (AgentStoreBatch, 1);

  self->kind = kind;
  return self;
}

/* A batch of writes to the conversation @target (NULL: to no
 * conversation), run in one transaction. */
AgentStoreBatch *
_agent_store_batch_new (AgentStoreTarget *target)
{
  AgentStoreBatch *self = batch_new (JOB_WRITE);

  self->target = target ? _agent_store_target_ref (target) : NULL;
  self->ops = g_array_new (FALSE, FALSE, sizeof (Op));
  self->values = g_array_new (FALSE, TRUE, sizeof (Value));
  g_array_set_clear_func (self->values, clear_value);
  return self;
}

void
_agent_store_batch_free (AgentStoreBatch *self)
{
  if (self->done_data_destroy != NULL)
    self->done_data_destroy (self->done_data);
  g_clear_pointer (&self->target, _agent_store_target_unref);
  g_clear_pointer (&self->ops, g_array_unref);
  g_clear_pointer (&self->values, g_array_unref);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_clear_error (&self->error);
  g_free (self);
}

gboolean
_agent_store_batch_is_empty (AgentStoreBatch *self)
{
  return self->ops->len == 0;
}

/* Starts a statement; the values that follow bind its parameters 1, 2, … */
void
_agent_store_batch_add (AgentStoreBatch     *self,
                        AgentStoreStatement  statement)
{
  Op op = { statement, self->values->len, 0 };

  g_array_append_val (self->ops, op);
}

static void
add_value (AgentStoreBatch *self,
           Value           *value)
{
  g_return_if_fail (self->ops->len > 0);

  g_array_append_vals (self->values, value, 1);
  g_array_index (self->ops, Op, self->ops->len - 1).n_values++;
}

void
_agent_store_batch_int (AgentStoreBatch *self,
                        gint64           number)
{
  add_value (self, &(Value) { VALUE_INT, number, NULL, 0 });
}

/* A copy of @text (%NULL binds NULL); @length -1 for up to the NUL */
void
_agent_store_batch_text (AgentStoreBatch *self,
                         const char      *text,
                         gssize           length)
{
  if (text == NULL)
    add_value (self, &(Value) { VALUE_NULL, 0, NULL, 0 });
  else
    {
      gsize size = length < 0 ? strlen (text) : (gsize) length;

      add_value (self, &(Value) { VALUE_TEXT, 0, g_strndup (text, size), size });
    }
}

void
_agent_store_batch_take_text (AgentStoreBatch *self,
                              char            *text)
{
  if (text == NULL)
    add_value (self, &(Value) { VALUE_NULL, 0, NULL, 0 });
  else
    add_value (self, &(Value) { VALUE_TEXT, 0, text, strlen (text) });
}

/* A reference to @bytes, bound as a blob (never copied: GBytes do not
 * change) */
void
_agent_store_batch_bytes (AgentStoreBatch *self,
                          GBytes          *bytes)
{
  add_value (self, &(Value) { VALUE_BLOB, 0, NULL, 0, g_bytes_ref (bytes) });
}

/* The conversation's id, known on the writer's thread only for a
 * conversation whose row an earlier batch (or this one) inserts. */
void
_agent_store_batch_conversation (AgentStoreBatch *self)
{
  add_value (self, &(Value) { VALUE_CONVERSATION, 0, NULL, 0 });
}

void
_agent_store_batch_message (AgentStoreBatch *self)
{
  add_value (self, &(Value) { VALUE_MESSAGE, 0, NULL, 0 });
}

/* Running (on the writer's thread) */

static gboolean
run_ops (AgentStoreDb     *db,
         AgentStoreBatch  *self,
         GError          **error)
{
  gint64 message_row = 0;

  for (guint i = 0; i < self->ops->len; i++)
    {
      const Op *op = &g_array_index (self->ops, Op, i);
      sqlite3_stmt *statement = _agent_store_db_statement (db, op->statement, error);

      if (statement == NULL)
        return FALSE;

      for (guint v = 0; v < op->n_values; v++)
        {
          const Value *value = &g_array_index (self->values, Value, op->first + v);
          int column = v + 1;

          switch (value->kind)
            {
            case VALUE_NULL:
              break;
            case VALUE_INT:
              sqlite3_bind_int64 (statement, column, value->number);
              break;
            case VALUE_TEXT:
              sqlite3_bind_text64 (statement, column, value->text, value->length, SQLITE_STATIC,
                                   SQLITE_UTF8);
              break;
            case VALUE_BLOB:
              {
                gsize size;
                gconstpointer data = g_bytes_get_data (value->bytes, &size);

                sqlite3_bind_blob64 (statement, column, size > 0 ? data : "", size,
                                     SQLITE_STATIC);
              }
              break;
            case VALUE_CONVERSATION:
              sqlite3_bind_int64 (statement, column, self->target ? self->target->id : 0);
              break;
            case VALUE_MESSAGE:
              sqlite3_bind_int64 (statement, column, message_row);
              break;
            default:
              g_assert_not_reached ();
            }
        }

      if (!_agent_store_db_step_done (db, statement, error))
        return FALSE;

      if (op->statement == STMT_INSERT_CONVERSATION && self->target != NULL)
        self->target->id = sqlite3_last_insert_rowid (db->db);
      else if (op->statement == STMT_INSERT_MESSAGE)
        message_row = sqlite3_last_insert_rowid (db->db);
    }
  return TRUE;
}

static gboolean
run_write (AgentStoreWriter  *writer,
           AgentStoreBatch   *self,
           GError           **error)
{
  AgentStoreDb *db = writer->db;
  gboolean new_row = self->target != NULL && self->target->id == 0;
  g_autofree char *synchronous = NULL;

  if (db == NULL)
    {
      g_propagate_error (error, g_error_copy (writer->open_error));
      return FALSE;
    }

  g_mutex_lock (&writer->mutex);
  synchronous = g_steal_pointer (&writer->synchronous);
  g_mutex_unlock (&writer->mutex);
  if (synchronous != NULL)
    {
      g_autofree char *sql = g_strdup_printf ("PRAGMA synchronous = %s", synchronous);

      _agent_store_db_exec (db, sql, NULL);
    }

  if (!_agent_store_db_begin (db, error))
    return FALSE;
  if (!run_ops (db, self, error))
    goto fail;

  /* Ours from its first message on, before another program may see it
   * (nobody else knows the id until the commit) */
  if (new_row && self->target->id != 0)
    _agent_store_db_claim_new (writer->main, self->target->id);

  if (!_agent_store_db_commit (db, error))
    goto fail;
  return TRUE;

fail:
  _agent_store_db_rollback (db);
  if (new_row && self->target->id != 0)
    {
      _agent_store_db_release (writer->main, self->target->id);
      self->target->id = 0;
    }
  return FALSE;
}

static gboolean
done_cb (gpointer data)
{
  AgentStoreBatch *self = data;

  if (self->done != NULL)
    self->done (self, self->error, self->done_data);
  return G_SOURCE_REMOVE;
}

static void
run (AgentStoreWriter *writer,
     AgentStoreBatch  *self)
{
  G_GNUC_UNUSED gint64 trace_begin;

  switch (self->kind)
    {
    case JOB_WRITE:
      trace_begin = _agent_trace_begin ();
      if (self->target != NULL && self->target->error != NULL)
        self->error = g_error_copy (self->target->error);
      else if (!run_write (writer, self, &self->error) && self->target != NULL)
        self->target->error = g_error_copy (self->error);
      g_mutex_lock (&writer->mutex);
      if (self->error != NULL && writer->unreported == NULL)
        writer->unreported = g_error_copy (self->error);
      g_mutex_unlock (&writer->mutex);
      _agent_trace_end (trace_begin, "libagent", "store write", "%u operations%s%s",
                        self->ops ? self->ops->len : 0, self->error ? ": " : "",
                        self->error ? self->error->message : "");
      break;

    case JOB_MARK:
      g_mutex_lock (&writer->mutex);
      if (self->reports)
        self->error = g_steal_pointer (&writer->unreported);
      g_mutex_unlock (&writer->mutex);
      break;

    case JOB_STOP:
    default:
      break;
    }

  if (self->target != NULL)
    self->id = self->target->id;
  /* The conversation's last write is in: a claim let go meanwhile goes */
  if (self->target != NULL && self->kind == JOB_WRITE &&
      g_atomic_int_dec_and_test (&self->target->n_unwritten) && self->target->id != 0)
    _agent_store_db_release_if_unwanted (writer->main, self->target->id);

  if (self->waited)
    {
      g_mutex_lock (&writer->mutex);
      self->finished = TRUE;
      g_cond_broadcast (&writer->cond);
      g_mutex_unlock (&writer->mutex);
    }
  else if (self->context != NULL)
    {
      GSource *source = g_idle_source_new ();

      g_source_set_priority (source, G_PRIORITY_DEFAULT);
      g_source_set_callback (source, done_cb, self, (GDestroyNotify) _agent_store_batch_free);
      g_source_set_static_name (source, "[agent] store write done");
      g_source_attach (source, self->context);
      g_source_unref (source);
    }
  else
    _agent_store_batch_free (self);
}

static gpointer
writer_thread (gpointer data)
{
  AgentStoreWriter *writer = data;

  writer->db = _agent_store_db_open_writer (writer->main->path, &writer->open_error);

  for (;;)
    {
      AgentStoreBatch *batch = g_async_queue_pop (writer->queue);
      gboolean stop = batch->kind == JOB_STOP;

      run (writer, batch);
      if (stop)
        break;
    }

  g_clear_pointer (&writer->db, _agent_store_db_unref);
  return NULL;
}

/* The writers of this process, for a store opened on a file that one of
 * them still writes to */
static GMutex writers_lock;
static GPtrArray *writers;

/* Waits until the writers of this process have written what they were
 * given for the file at @path: a store opened on it then reads what this
 * process wrote (a window opened again, a test reading back). */
void
_agent_store_writers_wait_for (const char *path)
{
  g_mutex_lock (&writers_lock);
  for (guint i = 0; writers != NULL && i < writers->len; i++)
    {
      AgentStoreWriter *writer = g_ptr_array_index (writers, i);

      if (g_str_equal (writer->main->path, path))
        _agent_store_writer_wait (writer);
    }
  g_mutex_unlock (&writers_lock);
}

AgentStoreWriter *
_agent_store_writer_new (AgentStoreDb *main)
{
  AgentStoreWriter *self = g_new0 (AgentStoreWriter, 1);

  self->main = main;
  self->queue = g_async_queue_new ();
  g_mutex_init (&self->mutex);
  g_cond_init (&self->cond);
  self->thread = g_thread_new ("agent-store-writer", writer_thread, self);

  g_mutex_lock (&writers_lock);
  if (writers == NULL)
    writers = g_ptr_array_new ();
  g_ptr_array_add (writers, self);
  g_mutex_unlock (&writers_lock);
  return self;
}

/* Runs what was queued, then stops the thread and waits for it. */
void
_agent_store_writer_free (AgentStoreWriter *self)
{
  g_mutex_lock (&writers_lock);
  g_ptr_array_remove_fast (writers, self);
  if (writers->len == 0)
    g_clear_pointer (&writers, g_ptr_array_unref);
  g_mutex_unlock (&writers_lock);

  g_async_queue_push (self->queue, batch_new (JOB_STOP));
  g_thread_join (self->thread);
  g_async_queue_unref (self->queue);
  g_mutex_clear (&self->mutex);
  g_cond_clear (&self->cond);
  g_clear_error (&self->open_error);
  g_clear_error (&self->unreported);
  g_free (self->synchronous);
  g_free (self);
}

/* Queues @batch (taking it); @done runs on the thread-default main
 * context of the caller once it is committed or failed. */
void
_agent_store_writer_queue (AgentStoreWriter    *self,
                           AgentStoreBatch     *batch,
                           AgentStoreBatchDone  done,
                           gpointer             done_data,
                           GDestroyNotify       done_data_destroy)
{
  batch->done = done;
  batch->done_data = done_data;
  batch->done_data_destroy = done_data_destroy;
  if (done != NULL)
    batch->context = g_main_context_ref_thread_default ();
  if (batch->target != NULL && batch->kind == JOB_WRITE)
    g_atomic_int_inc (&batch->target->n_unwritten);
  g_atomic_int_inc (&self->n_queued);
  g_async_queue_push (self->queue, batch);
}

/* A failure a mark took that nobody heard of (its flush was cancelled):
 * the next flush tells it */
void
_agent_store_writer_keep_unreported (AgentStoreWriter *self,
                                     const GError     *error)
{
  g_mutex_lock (&self->mutex);
  if (self->unreported == NULL)
    self->unreported = g_error_copy (error);
  g_mutex_unlock (&self->mutex);
}

/* How many jobs were queued so far (to see whether more came) */
guint
_agent_store_writer_get_n_queued (AgentStoreWriter *self)
{
  return (guint) g_atomic_int_get (&self->n_queued);
}

/* Queues a batch and waits until it is done: for the rare writes that
 * must be in before the caller goes on (it blocks the caller). */
gboolean
_agent_store_writer_run (AgentStoreWriter  *self,
                         AgentStoreBatch   *batch,
                         GError           **error)
{
  gboolean ok;

  batch->waited = TRUE;
  if (batch->target != NULL && batch->kind == JOB_WRITE)
    g_atomic_int_inc (&batch->target->n_unwritten);
  g_async_queue_push (self->queue, batch);

  g_mutex_lock (&self->mutex);
  while (!batch->finished)
    g_cond_wait (&self->cond, &self->mutex);
  g_mutex_unlock (&self->mutex);

  ok = batch->error == NULL;
  if (!ok)
    g_propagate_error (error, g_steal_pointer (&batch->error));
  _agent_store_batch_free (batch);
  return ok;
}

/* Waits until everything queued before is done. */
void
_agent_store_writer_wait (AgentStoreWriter *self)
{
  _agent_store_writer_run (self, batch_new (JOB_MARK), NULL);
}

/* @done runs on the caller's context once everything queued before it is
 * done, and after their own callbacks; with @reports, with the first
 * failure of a write since the last mark that reports. */
void
_agent_store_writer_mark (AgentStoreWriter    *self,
                          gboolean             reports,
                          AgentStoreBatchDone  done,
                          gpointer             done_data,
                          GDestroyNotify       done_data_destroy)
{
  AgentStoreBatch *batch = batch_new (JOB_MARK);

  batch->reports = reports;
  _agent_store_writer_queue (self, batch, done, done_data, done_data_destroy);
}

void
_agent_store_writer_set_synchronous (AgentStoreWriter *self,
                                     const char       *mode)
{
  g_mutex_lock (&self->mutex);
  g_free (self->synchronous);
  self->synchronous = g_strdup (mode);
  g_mutex_unlock (&self->mutex);
}

gint64
_agent_store_batch_get_id (AgentStoreBatch *self)
{
  return self->id;
}
