/* agent-test-scroll.c — the chat view as test-gui-scroll and
 * test-gui-history see it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agent-gtk-markdown-view-private.h"
#include "agent-gtk-message-row-private.h"
#include "agent-test-scroll.h"
#include "agent-test-util.h"

/* Waiting: streaming and laying out 10,000 lines takes a few seconds,
 * much longer under the sanitizers or valgrind, so the waits for a
 * condition here fail only after ten minutes, and for one frame after
 * AGENT_TEST_WAIT_LIMIT_SECONDS (they guard against a hang; nothing here
 * is timed) */

#define WAIT_LIMIT_SECONDS 600

void
wait_until (gboolean (*predicate) (gpointer),
            gpointer   data)
{
  if (!agent_test_wait_until_timeout (predicate, data, WAIT_LIMIT_SECONDS))
    g_error ("Waited more than %d seconds for the condition", WAIT_LIMIT_SECONDS);
}

/* The chat view */

GtkWidget *
scroller_of (AgentChatWindow *window)
{
  return gtk_widget_get_ancestor (GTK_WIDGET (agent_test_chat_list_view (window)),
                                  GTK_TYPE_SCROLLED_WINDOW);
}

GtkAdjustment *
vadjustment_of (AgentChatWindow *window)
{
  return gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller_of (window)));
}

GtkWidget *
find_row (AgentChatWindow *window,
          gpointer         item)
{
  g_autoptr(GPtrArray) rows = find_all (GTK_WIDGET (agent_test_chat_list_view (window)),
                                        AGENT_GTK_TYPE_MESSAGE_ROW);

  for (guint i = 0; i < rows->len; i++)
    if (agent_gtk_message_row_get_item (g_ptr_array_index (rows, i)) == item)
      return g_ptr_array_index (rows, i);
  return NULL;
}

GtkRevealer *
jump_revealer_of (AgentChatWindow *window)
{
  g_autoptr(GPtrArray) buttons = find_all (GTK_WIDGET (window), GTK_TYPE_BUTTON);

  /* Jump to Bottom, by its icon */
  for (guint i = 0; i < buttons->len; i++)
    if (g_strcmp0 (gtk_button_get_icon_name (g_ptr_array_index (buttons, i)),
                   "go-bottom-symbolic") == 0)
      return GTK_REVEALER (gtk_widget_get_ancestor (g_ptr_array_index (buttons, i),
                                                    GTK_TYPE_REVEALER));
  g_assert_not_reached ();
}

gpointer
last_item (AgentChatWindow *window)
{
  GListModel *items = agent_test_chat_items (window);
  guint n = g_list_model_get_n_items (items);
  gpointer item;

  g_assert_cmpuint (n, >, 0);
  item = g_list_model_get_item (items, n - 1);
  g_object_unref (item);  /* the model holds it */
  return item;
}

/* Where @widget is, in the coordinates of the chat view's visible area */
graphene_rect_t
bounds_in_view (AgentChatWindow *window,
                GtkWidget       *widget)
{
  graphene_rect_t bounds;

  g_assert_true (gtk_widget_compute_bounds (widget, scroller_of (window), &bounds));
  return bounds;
}

void
assert_in_view (AgentChatWindow       *window,
                const graphene_rect_t *bounds)
{
  g_assert_cmpfloat (bounds->origin.y, >=, 0);
  g_assert_cmpfloat (bounds->origin.y + bounds->size.height, <=,
                     gtk_widget_get_height (scroller_of (window)));
}

char *
chunk_text (GtkWidget *chunk)
{
  g_autoptr(GPtrArray) widgets = find_all (chunk, GTK_TYPE_WIDGET);
  GString *text = g_string_new (NULL);

  /* Labels, and the paragraph streaming */
  for (guint i = 0; i < widgets->len; i++)
    {
      g_autofree char *label = widget_label_text (g_ptr_array_index (widgets, i), TRUE);

      if (label != NULL)
        g_string_append (text, label);
    }
  return g_string_free (text, FALSE);
}

static gboolean
laid_out (gpointer data)
{
  GtkWidget *row = data;

  return !agent_gtk_markdown_view_get_laying_out (
    agent_gtk_message_row_get_markdown (AGENT_GTK_MESSAGE_ROW (row)));
}

/* The end of the conversation is on screen: the last line of the last
 * message, drawn, inside the view and inside its Markdown's allocation;
 * once the answer is done, its action row too, below the text and above
 * the composer. A long answer is first laid out to its end (a page a
 * frame). */
void
assert_end_shown (AgentChatWindow *window,
                  const char      *last_line,
                  gboolean         done)
{
  GtkAdjustment *adjustment = vadjustment_of (window);
  GtkWidget *row = find_row (window, last_item (window));
  GtkWidget *markdown;
  GtkWidget *chunk;
  g_autofree char *text = NULL;
  graphene_rect_t line, in_markdown;
  guint n_chunks, last_drawn = 0;

  g_assert_nonnull (row);
  if (!laid_out (row))
    {
      wait_until (laid_out, row);
      wait_frames (GTK_WIDGET (window), 2);
    }
  g_assert_true (gtk_widget_get_child_visible (gtk_widget_get_parent (row)));
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment) + gtk_adjustment_get_page_size (adjustment),
                     >=, gtk_adjustment_get_upper (adjustment) - 1);

  markdown = GTK_WIDGET (agent_gtk_message_row_get_markdown (AGENT_GTK_MESSAGE_ROW (row)));
  g_assert_true (gtk_widget_get_visible (markdown));
  n_chunks = _agent_gtk_markdown_view_get_n_chunks (AGENT_GTK_MARKDOWN_VIEW (markdown));
  chunk = _agent_gtk_markdown_view_get_chunk (AGENT_GTK_MARKDOWN_VIEW (markdown), n_chunks - 1);
  text = chunk_text (chunk);
  agent_test_assert_contains (text, last_line);
  line = bounds_in_view (window, chunk);
  assert_in_view (window, &line);
  g_assert_true (gtk_widget_compute_bounds (chunk, markdown, &in_markdown));
  g_assert_cmpfloat (in_markdown.origin.y + in_markdown.size.height, <=,
                     gtk_widget_get_height (markdown));
  g_assert_cmpuint (_agent_gtk_markdown_view_get_n_drawn (AGENT_GTK_MARKDOWN_VIEW (markdown), &last_drawn),
                    >, 0);
  g_assert_cmpuint (last_drawn, ==, n_chunks - 1);

  if (done)
    {
      GtkWidget *actions = find_with_class (row, GTK_TYPE_BOX, "message-actions");
      GtkWidget *composer = GTK_WIDGET (agent_chat_window_get_composer (window));
      graphene_rect_t action_row, text_area, composer_area, in_window;

      g_assert_nonnull (actions);
      g_assert_true (gtk_widget_get_mapped (actions));
      action_row = bounds_in_view (window, actions);
      assert_in_view (window, &action_row);
      text_area = bounds_in_view (window, markdown);
      g_assert_cmpfloat (action_row.origin.y, >=, text_area.origin.y + text_area.size.height);
      g_assert_cmpfloat (action_row.origin.y, >=, line.origin.y + line.size.height);
      g_assert_true (gtk_widget_compute_bounds (actions, GTK_WIDGET (window), &in_window));
      g_assert_true (gtk_widget_compute_bounds (composer, GTK_WIDGET (window), &composer_area));
      g_assert_cmpfloat (in_window.origin.y + in_window.size.height, <=, composer_area.origin.y);
    }
}

/* Answers */

char *
line_of (guint n)
{
  return g_strdup_printf ("Line %u of the answer.", n);
}

char *
long_answer (guint n_lines)
{
  GString *text = g_string_new (NULL);

  for (guint i = 1; i <= n_lines; i++)
    g_string_append_printf (text, "Line %u of the answer.\n\n", i);
  return g_string_free (text, FALSE);
}

/* A conversation of @n_messages messages, questions and answers of one to
 * nine paragraphs */
void
fill_conversation (AgentMemory *memory,
                   guint        n_messages)
{
  for (guint i = 0; i < n_messages; i += 2)
    {
      g_autofree char *question = g_strdup_printf ("Question %u", i / 2);
      g_autoptr(GString) answer = g_string_new (NULL);
      g_autoptr(AgentMessage) asked = NULL;
      g_autoptr(AgentMessage) answered = NULL;
      g_autoptr(GError) error = NULL;

      for (guint j = 0; j <= (i / 2 * 7) % 9; j++)
        g_string_append_printf (answer, "Answer %u, paragraph %u: a few words, enough to wrap "
                                "on a narrow window.\n\n", i / 2, j + 1);
      asked = agent_message_new (AGENT_MESSAGE_ROLE_USER, question);
      answered = agent_message_new (AGENT_MESSAGE_ROLE_ASSISTANT, answer->str);
      g_assert_true (agent_memory_append (memory, asked, &error));
      g_assert_true (agent_memory_append (memory, answered, &error));
      g_assert_no_error (error);
    }
}
