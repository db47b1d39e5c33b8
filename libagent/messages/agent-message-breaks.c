/* agent-message-breaks.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "messages/agent-message-private.h"

/* Where the items of an answer begin in its content. Some APIs answer in
 * several pieces of text: the message items of the OpenAI Responses API,
 * the text blocks of Anthropic's. The content is their text as the server
 * sent it, joined with nothing (as the providers' own SDKs join it); the
 * breaks say where each piece after the first begins, for an application
 * that shows them apart. The turn adds a break before the first delta of
 * a new piece, so that a view reading them when the content changes sees
 * the break with the text that follows it. */

/* A piece of text begins at the end of the content: a break there, unless
 * the content is empty or one is there already. */
void
_agent_message_add_content_break (AgentMessage *self)
{
  gsize offset = self->content != NULL ? self->content->len : 0;

  if (offset == 0)
    return;

  if (self->content_breaks == NULL)
    self->content_breaks = g_array_new (FALSE, FALSE, sizeof (gsize));
  else if (g_array_index (self->content_breaks, gsize,
                          self->content_breaks->len - 1) == offset)
    return;

  g_array_append_val (self->content_breaks, offset);
}

/**
 * agent_message_get_content_breaks:
 * @self: a [class@Agent.Message]
 * @n_breaks: (out): return location for the number of breaks
 *
 * Gets where the pieces of the message's text after the first begin, as
 * byte offsets into [property@Agent.Message:content], in increasing order.
 * An answer that came in one piece (most do) has none.
 *
 * The content itself is the text of all pieces as the server sent it,
 * with nothing added between them; an application that wants to show the
 * pieces apart (as paragraphs, say) splits it there, or calls
 * [method@Agent.Message.dup_content_items]. While the message streams,
 * breaks are added before the text that follows them.
 *
 * Returns: (array length=n_breaks) (nullable) (transfer none): the byte
 *   offsets, or %NULL if there are none
 *
 * Since: 0.1
 */
const gsize *
agent_message_get_content_breaks (AgentMessage *self,
                                  guint        *n_breaks)
{
  g_return_val_if_fail (AGENT_IS_MESSAGE (self), NULL);
  g_return_val_if_fail (n_breaks != NULL, NULL);

  *n_breaks = self->content_breaks != NULL ? self->content_breaks->len : 0;
  return *n_breaks > 0 ? (const gsize *) (gpointer) self->content_breaks->data : NULL;
}

/**
 * agent_message_dup_content_items:
 * @self: a [class@Agent.Message]
 *
 * Gets the pieces of the message's text, split at its
 * [method@Agent.Message.get_content_breaks]: one string for an answer
 * that came in one piece.
 *
 * Returns: (transfer full) (array zero-terminated=1) (nullable): the
 *   pieces, or %NULL if the message has no content
 *
 * Since: 0.1
 */
char **
agent_message_dup_content_items (AgentMessage *self)
{
  g_autoptr(GStrvBuilder) items = NULL;
  gsize start = 0;

  g_return_val_if_fail (AGENT_IS_MESSAGE (self), NULL);

  if (self->content == NULL)
    return NULL;

  items = g_strv_builder_new ();
  for (guint i = 0; self->content_breaks != NULL && i < self->content_breaks->len; i++)
    {
      gsize end = MIN (g_array_index (self->content_breaks, gsize, i), self->content->len);
      g_autofree char *item = g_strndup (self->content->str + start, end - start);

      g_strv_builder_add (items, item);
      start = end;
    }
  g_strv_builder_add (items, self->content->str + start);

  return g_strv_builder_end (items);
}
