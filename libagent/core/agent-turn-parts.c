/* agent-turn-parts.c — the attachments a request carries, made ready before
 * it is built: images scaled by the provider's rule (scale-images), and
 * everything encoded in base64, once per conversation
 *
 * Before each step (before the memory is synced, so that a store keeps
 * what was made: agent-store-attachments.c), the parts of the memory that
 * are not ready yet are made ready on a worker thread: decoding and
 * scaling a photo takes a tenth of a second or more, and the request is
 * built on the main context. What is made is kept with each part
 * (agent-content-part-cache.c): the next request of the conversation
 * finds it, and building a request costs no encoding. A part that comes
 * in later (a prepare-step handler's) is made when the request is built.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "transport/agent-provider-private.h"
#include "core/agent-turn-private.h"

typedef struct
{
  GPtrArray            *parts;
  const AgentImageRule *rule;
} Prepare;

static void
prepare_free (Prepare *prepare)
{
  g_ptr_array_unref (prepare->parts);
  g_free (prepare);
}

/* Documented in agent-session-private.h */
const AgentImageRule *
_agent_session_get_images (AgentSession *self)
{
  return self->provider != NULL ? _agent_provider_get_backend (self->provider)->images : NULL;
}

/* Documented in agent-session-private.h */
const AgentImageRule *
_agent_session_get_scale_images (AgentSession *self)
{
  return self->scale_images ? _agent_session_get_images (self) : NULL;
}

static void
prepare_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  Prepare *prepare = task_data;

  for (guint i = 0; i < prepare->parts->len; i++)
    {
      if (g_cancellable_is_cancelled (cancellable))
        break;
      _agent_content_part_prepare (g_ptr_array_index (prepare->parts, i), prepare->rule);
    }
  g_task_return_boolean (task, TRUE);
}

/* The parts of the memory's messages not ready for @rule: those too large
 * to be sent are left for the turn to refuse */
static GPtrArray *
parts_to_prepare (AgentSession         *session,
                  const AgentImageRule *rule)
{
  GListModel *memory = G_LIST_MODEL (session->memory);
  guint n = g_list_model_get_n_items (memory);
  GPtrArray *parts = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AgentMessage) message = g_list_model_get_item (memory, i);
      guint n_attachments = agent_message_get_n_attachments (message);

      for (guint j = 0; j < n_attachments; j++)
        {
          AgentContentPart *part = agent_message_get_attachment (message, j);

          if (session->max_attachment_size > 0 &&
              agent_content_part_get_size (part) > session->max_attachment_size)
            continue;
          if (!_agent_content_part_is_prepared (part, rule))
            g_ptr_array_add (parts, g_object_ref (part));
        }
    }
  return parts;
}

/* Documented in agent-turn-private.h */
gboolean
_agent_turn_prepare_parts (AgentTurn           *turn,
                           GAsyncReadyCallback  callback)
{
  const AgentImageRule *rule = _agent_session_get_scale_images (turn->session);
  g_autoptr(GPtrArray) parts = parts_to_prepare (turn->session, rule);
  g_autoptr(GTask) task = NULL;
  Prepare *prepare;

  if (parts->len == 0)
    return FALSE;

  g_debug ("Preparing %u attachments before the request", parts->len);
  prepare = g_new0 (Prepare, 1);
  prepare->parts = g_steal_pointer (&parts);
  prepare->rule = rule;
  task = g_task_new (NULL, turn->cancellable, callback, turn);
  g_task_set_source_tag (task, _agent_turn_prepare_parts);
  g_task_set_task_data (task, prepare, (GDestroyNotify) prepare_free);
  g_task_run_in_thread (task, prepare_thread);
  return TRUE;
}
