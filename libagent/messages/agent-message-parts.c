/* agent-message-parts.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "messages/agent-message-private.h"

/* The parts of a message: its text and its attachments, in order.
 *
 * One model with the content breaks (agent-message-breaks.c): the text
 * parts are the message's content, each text part after the first
 * beginning at a break, so that the plain-text API reads a message with
 * parts as it reads any other. An image or a document is anchored at the
 * byte offset of the content where it was added: the parts are the
 * pieces of text between the breaks and the anchors, with each attachment
 * at its anchor. */

typedef struct
{
  gsize             offset;
  AgentContentPart *part;
} AgentAttachment;

static void
attachment_clear (gpointer data)
{
  AgentAttachment *attachment = data;

  g_clear_object (&attachment->part);
}

void
_agent_message_clear_attachments (AgentMessage *self)
{
  g_clear_pointer (&self->attachments, g_array_unref);
}

guint64
_agent_message_get_attachments_size (AgentMessage *self)
{
  guint64 size = 0;

  for (guint i = 0; self->attachments != NULL && i < self->attachments->len; i++)
    size += agent_content_part_get_size (g_array_index (self->attachments, AgentAttachment, i).part);

  return size;
}

gsize
_agent_message_get_attachment_offset (AgentMessage *self,
                                      guint         position)
{
  return g_array_index (self->attachments, AgentAttachment, position).offset;
}

/* As the store reads a message back: at the offset it was saved with */
void
_agent_message_add_attachment_at (AgentMessage     *self,
                                  gsize             offset,
                                  AgentContentPart *part)
{
  AgentAttachment attachment;

  if (self->attachments == NULL)
    {
      self->attachments = g_array_new (FALSE, FALSE, sizeof (AgentAttachment));
      g_array_set_clear_func (self->attachments, attachment_clear);
    }

  attachment.offset = offset;
  attachment.part = g_object_ref (part);
  g_array_append_val (self->attachments, attachment);
}

/**
 * agent_message_new_with_parts:
 * @role: who wrote the message
 * @parts: (array length=n_parts): the parts, in order
 * @n_parts: the number of @parts
 *
 * Creates a complete message from text, images and documents; the same as
 * [ctor@Agent.Message.new] with no content, then
 * [method@Agent.Message.add_part] for each part.
 *
 * Returns: (transfer full): a new [class@Agent.Message]
 *
 * Since: 0.1
 */
AgentMessage *
agent_message_new_with_parts (AgentMessageRole   role,
                              AgentContentPart **parts,
                              guint              n_parts)
{
  AgentMessage *self = agent_message_new (role, NULL);

  g_return_val_if_fail (parts != NULL || n_parts == 0, self);

  for (guint i = 0; i < n_parts; i++)
    agent_message_add_part (self, parts[i]);

  return self;
}

/**
 * agent_message_add_part:
 * @self: a [class@Agent.Message]
 * @part: the part to add
 *
 * Adds @part at the end of the message. A text part's text is appended to
 * [property@Agent.Message:content], after a content break when there is
 * text before it (see [method@Agent.Message.get_content_breaks]); an image
 * or a document is attached where the content ends.
 *
 * Every provider sends the parts in this order, as its API defines them;
 * one that cannot take an attachment's MIME type refuses the request with
 * %AGENT_ERROR_INVALID_ARGUMENT before sending anything.
 *
 * Since: 0.1
 */
void
agent_message_add_part (AgentMessage     *self,
                        AgentContentPart *part)
{
  g_return_if_fail (AGENT_IS_MESSAGE (self));
  g_return_if_fail (AGENT_IS_CONTENT_PART (part));

  if (agent_content_part_get_kind (part) == AGENT_CONTENT_PART_KIND_TEXT)
    {
      const char *text = agent_content_part_get_text (part);

      _agent_message_add_content_break (self);
      _agent_message_append (&self->content, text, strlen (text));
      _agent_message_notify_content (self);
      return;
    }

  _agent_message_add_attachment_at (self, self->content != NULL ? self->content->len : 0, part);
}

/**
 * agent_message_get_n_attachments:
 * @self: a [class@Agent.Message]
 *
 * Gets how many images and documents the message carries.
 *
 * Returns: the number of attachments
 *
 * Since: 0.1
 */
guint
agent_message_get_n_attachments (AgentMessage *self)
{
  g_return_val_if_fail (AGENT_IS_MESSAGE (self), 0);

  return self->attachments != NULL ? self->attachments->len : 0;
}

/**
 * agent_message_get_attachment:
 * @self: a [class@Agent.Message]
 * @position: the index of the attachment
 *
 * Gets one of the message's images and documents, in the order they were
 * added.
 *
 * Returns: (transfer none) (nullable): the attachment, or %NULL if
 *   @position is out of range
 *
 * Since: 0.1
 */
AgentContentPart *
agent_message_get_attachment (AgentMessage *self,
                              guint         position)
{
  g_return_val_if_fail (AGENT_IS_MESSAGE (self), NULL);

  if (self->attachments == NULL || position >= self->attachments->len)
    return NULL;

  return g_array_index (self->attachments, AgentAttachment, position).part;
}

/* The text between @from and @to, split at the content breaks */
static void
add_text (AgentMessage *self,
          GListStore   *store,
          gsize         from,
          gsize         to)
{
  for (guint i = 0; self->content_breaks != NULL && i < self->content_breaks->len; i++)
    {
      gsize offset = g_array_index (self->content_breaks, gsize, i);

      if (offset > from && offset < to)
        {
          g_autofree char *text = g_strndup (self->content->str + from, offset - from);
          g_autoptr(AgentContentPart) part = agent_content_part_new_text (text);

          g_list_store_append (store, part);
          from = offset;
        }
    }

  if (to > from)
    {
      g_autofree char *text = g_strndup (self->content->str + from, to - from);
      g_autoptr(AgentContentPart) part = agent_content_part_new_text (text);

      g_list_store_append (store, part);
    }
}

/**
 * agent_message_list_parts:
 * @self: a [class@Agent.Message]
 *
 * Lists the parts of the message in order: its text, split at its content
 * breaks, and its images and documents where they were added. A text-only
 * message has one text part per piece of its content (none when it has no
 * content).
 *
 * Returns: (transfer full): a new [iface@Gio.ListModel] of
 *   [class@Agent.ContentPart]
 *
 * Since: 0.1
 */
GListModel *
agent_message_list_parts (AgentMessage *self)
{
  GListStore *store;
  gsize from = 0;
  gsize len;

  g_return_val_if_fail (AGENT_IS_MESSAGE (self), NULL);

  store = g_list_store_new (AGENT_TYPE_CONTENT_PART);
  len = self->content != NULL ? self->content->len : 0;

  for (guint i = 0; self->attachments != NULL && i < self->attachments->len; i++)
    {
      AgentAttachment *attachment = &g_array_index (self->attachments, AgentAttachment, i);
      gsize offset = MIN (attachment->offset, len);

      add_text (self, store, from, offset);
      g_list_store_append (store, attachment->part);
      from = MAX (from, offset);
    }
  add_text (self, store, from, len);

  return G_LIST_MODEL (store);
}
