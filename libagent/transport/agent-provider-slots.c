/* agent-provider-slots.c
 *
 * The request slots of a provider: at most max-concurrent-requests
 * requests at once, the others waiting in line.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "transport/agent-provider-private.h"

/* At most max_concurrent requests at once (0: no limit); the others wait
 * in line. Sessions of several threads may share a provider, hence the
 * lock. */
struct _AgentProviderSlots
{
  GMutex mutex;
  GQueue waiting;         /* of GTask */
  guint  max_concurrent;
  guint  active;
};

AgentProviderSlots *
_agent_provider_slots_new (void)
{
  AgentProviderSlots *slots = g_new0 (AgentProviderSlots, 1);

  g_mutex_init (&slots->mutex);
  g_queue_init (&slots->waiting);

  return slots;
}

void
_agent_provider_slots_free (AgentProviderSlots *slots)
{
  g_assert (g_queue_is_empty (&slots->waiting));
  g_mutex_clear (&slots->mutex);
  g_free (slots);
}


static gboolean
slot_is_free (AgentProviderSlots *slots)
{
  return slots->max_concurrent == 0 || slots->active < slots->max_concurrent;
}

/* Gives free slots to the requests waiting for one, in order. Called with
 * the lock held; returns the tasks to complete once it is released. */
static GList *
take_waiting (AgentProviderSlots *slots)
{
  GList *ready = NULL;

  while (!g_queue_is_empty (&slots->waiting) && slot_is_free (slots))
    {
      slots->active++;
      ready = g_list_prepend (ready, g_queue_pop_head (&slots->waiting));
    }

  return g_list_reverse (ready);
}

/* A request waiting for a slot: a source on its task's context watches
 * its cancellable (a source rather than g_cancellable_connect(), whose
 * handler would hold the task, which holds the cancellable: a cycle). */
typedef struct
{
  GSource *cancel_source;
} Waiter;

static void
waiter_free (gpointer data)
{
  Waiter *waiter = data;

  if (waiter->cancel_source != NULL)
    {
      g_source_destroy (waiter->cancel_source);
      g_source_unref (waiter->cancel_source);
    }
  g_free (waiter);
}

static void
complete_waiting (GList *ready)
{
  for (GList *l = ready; l; l = l->next)
    {
      g_autoptr(GTask) task = l->data;
      Waiter *waiter = g_task_get_task_data (task);

      if (waiter->cancel_source != NULL)
        g_source_destroy (waiter->cancel_source);
      g_task_return_boolean (task, TRUE);
    }
  g_list_free (ready);
}


guint
_agent_provider_slots_get_max (AgentProviderSlots *slots)
{
  guint max_concurrent;

  g_mutex_lock (&slots->mutex);
  max_concurrent = slots->max_concurrent;
  g_mutex_unlock (&slots->mutex);

  return max_concurrent;
}

/* Sets the limit, and lets the requests it now allows go; whether it
 * changed */
gboolean
_agent_provider_slots_set_max (AgentProviderSlots *slots,
                               guint               max_concurrent)
{
  GList *ready;
  gboolean changed;

  g_mutex_lock (&slots->mutex);
  changed = slots->max_concurrent != max_concurrent;
  slots->max_concurrent = max_concurrent;
  ready = take_waiting (slots);
  g_mutex_unlock (&slots->mutex);

  complete_waiting (ready);

  return changed;
}

static gboolean
waiter_cancelled_cb (GCancellable *cancellable,
                     gpointer      user_data)
{
  GTask *task = user_data;
  AgentProviderSlots *slots = _agent_provider_get_slots (g_task_get_source_object (task));
  gboolean was_waiting;

  g_mutex_lock (&slots->mutex);
  was_waiting = g_queue_remove (&slots->waiting, task);
  g_mutex_unlock (&slots->mutex);

  if (was_waiting)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                               _("Cancelled while waiting for a free request slot"));
      g_object_unref (task);  /* the queue's */
    }

  return G_SOURCE_REMOVE;
}

/* Waits for a request slot; _agent_provider_release() gives it back. */
void
_agent_provider_acquire_async (AgentProvider       *self,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  AgentProviderSlots *slots = _agent_provider_get_slots (self);
  g_autoptr(GTask) task = NULL;
  Waiter *waiter;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, _agent_provider_acquire_async);
  /* Once the slot is given, it is the caller's, even if it was cancelled
   * meanwhile: the caller releases it. */
  g_task_set_check_cancellable (task, FALSE);
  waiter = g_new0 (Waiter, 1);
  g_task_set_task_data (task, waiter, waiter_free);

  g_mutex_lock (&slots->mutex);
  if (g_queue_is_empty (&slots->waiting) && slot_is_free (slots))
    {
      slots->active++;
      g_mutex_unlock (&slots->mutex);
      g_task_return_boolean (task, TRUE);
      return;
    }
  g_queue_push_tail (&slots->waiting, g_object_ref (task));
  g_mutex_unlock (&slots->mutex);

  if (cancellable != NULL)
    {
      waiter->cancel_source = g_cancellable_source_new (cancellable);
      g_source_set_callback (waiter->cancel_source, G_SOURCE_FUNC (waiter_cancelled_cb),
                             g_object_ref (task), g_object_unref);
      g_source_set_static_name (waiter->cancel_source, "[agent-provider-slot-wait]");
      g_source_attach (waiter->cancel_source, g_task_get_context (task));
    }
}

gboolean
_agent_provider_acquire_finish (AgentProvider  *self,
                                GAsyncResult   *result,
                                GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

void
_agent_provider_release (AgentProvider *self)
{
  AgentProviderSlots *slots = _agent_provider_get_slots (self);
  GList *ready;

  g_mutex_lock (&slots->mutex);
  g_assert (slots->active > 0);
  slots->active--;
  ready = take_waiting (slots);
  g_mutex_unlock (&slots->mutex);

  complete_waiting (ready);
}
