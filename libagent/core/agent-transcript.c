/* agent-transcript.c
 *
 * The session's transcript for views: the messages of its memory, then the
 * message streaming now (AgentSession:current-message) while it is not in
 * memory yet. When the streamed message goes into memory it stays at the
 * same position: the change is reported as that one item replaced by
 * itself, which lets a GtkListView keep its row.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "messages/agent-message.h"
#include "core/agent-transcript-private.h"

struct _AgentTranscript
{
  GObject       parent_instance;
  AgentSession *session;  /* unowned: the session owns the transcript */
  GListModel   *memory;
  AgentMessage *current;
  guint         n_memory;
  guint         has_current : 1;  /* current is shown after the memory's items */
};

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AgentTranscript, agent_transcript, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

static GType
agent_transcript_get_item_type (GListModel *model)
{
  return AGENT_TYPE_MESSAGE;
}

static guint
agent_transcript_get_n_items (GListModel *model)
{
  AgentTranscript *self = AGENT_TRANSCRIPT (model);

  return self->n_memory + (self->has_current ? 1 : 0);
}

static gpointer
agent_transcript_get_item (GListModel *model,
                           guint       position)
{
  AgentTranscript *self = AGENT_TRANSCRIPT (model);

  if (position < self->n_memory)
    return g_list_model_get_item (self->memory, position);
  if (position == self->n_memory && self->has_current)
    return g_object_ref (self->current);
  return NULL;
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = agent_transcript_get_item_type;
  iface->get_n_items = agent_transcript_get_n_items;
  iface->get_item = agent_transcript_get_item;
}

/* Whether the current message is to be shown after the memory's items:
 * there is one, and it is not the memory's last item already. */
static gboolean
shows_current (AgentTranscript *self)
{
  g_autoptr(AgentMessage) last = NULL;

  if (self->current == NULL)
    return FALSE;
  if (self->n_memory > 0)
    last = g_list_model_get_item (self->memory, self->n_memory - 1);
  return last != self->current;
}

static void
memory_items_changed_cb (GListModel      *memory,
                         guint            position,
                         guint            removed,
                         guint            added,
                         AgentTranscript *self)
{
  guint old_n_memory = self->n_memory;
  gboolean had_current = self->has_current;
  gboolean has_current;

  self->n_memory = g_list_model_get_n_items (memory);
  has_current = shows_current (self);

  /* The current message going into memory: it was after the memory's
   * items and now is the last of them, at the same position. */
  if (had_current && !has_current &&
      position == old_n_memory && removed == 0 && added == 1)
    {
      self->has_current = FALSE;
      g_list_model_items_changed (G_LIST_MODEL (self), position, 1, 1);
      return;
    }

  /* Otherwise the memory's change, the current message (if any) still
   * after it, then the current message's own change */
  g_list_model_items_changed (G_LIST_MODEL (self), position, removed, added);
  if (had_current != has_current)
    {
      self->has_current = has_current;
      g_list_model_items_changed (G_LIST_MODEL (self), self->n_memory,
                                  had_current ? 1 : 0, has_current ? 1 : 0);
    }
}

static void
set_memory (AgentTranscript *self)
{
  GListModel *memory = G_LIST_MODEL (agent_session_get_memory (self->session));
  guint removed = agent_transcript_get_n_items (G_LIST_MODEL (self));

  if (self->memory != NULL)
    g_signal_handlers_disconnect_by_func (self->memory, memory_items_changed_cb, self);
  g_set_object (&self->memory, memory);
  g_signal_connect_object (memory, "items-changed",
                           G_CALLBACK (memory_items_changed_cb), self, 0);

  self->n_memory = g_list_model_get_n_items (memory);
  self->has_current = shows_current (self);
  g_list_model_items_changed (G_LIST_MODEL (self), 0, removed,
                              agent_transcript_get_n_items (G_LIST_MODEL (self)));
}

static void
notify_memory_cb (AgentSession    *session,
                  GParamSpec      *pspec,
                  AgentTranscript *self)
{
  set_memory (self);
}

static void
notify_current_message_cb (AgentSession    *session,
                           GParamSpec      *pspec,
                           AgentTranscript *self)
{
  gboolean had_current = self->has_current;

  g_set_object (&self->current, agent_session_get_current_message (session));
  self->has_current = shows_current (self);

  if (had_current || self->has_current)
    g_list_model_items_changed (G_LIST_MODEL (self), self->n_memory,
                                had_current ? 1 : 0, self->has_current ? 1 : 0);
}

static void
agent_transcript_dispose (GObject *object)
{
  AgentTranscript *self = AGENT_TRANSCRIPT (object);

  if (self->memory != NULL)
    g_signal_handlers_disconnect_by_func (self->memory, memory_items_changed_cb, self);
  g_clear_object (&self->memory);
  g_clear_object (&self->current);

  G_OBJECT_CLASS (agent_transcript_parent_class)->dispose (object);
}

static void
agent_transcript_class_init (AgentTranscriptClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = agent_transcript_dispose;
}

static void
agent_transcript_init (AgentTranscript *self)
{
}

AgentTranscript *
_agent_transcript_new (AgentSession *session)
{
  AgentTranscript *self = g_object_new (AGENT_TYPE_TRANSCRIPT, NULL);

  self->session = session;
  g_signal_connect_object (session, "notify::memory", G_CALLBACK (notify_memory_cb), self, 0);
  g_signal_connect_object (session, "notify::current-message",
                           G_CALLBACK (notify_current_message_cb), self, 0);
  set_memory (self);
  notify_current_message_cb (session, NULL, self);

  return self;
}
