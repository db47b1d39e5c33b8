/* test-gtk-tail-model.c
 *
 * The chat view's tail model (agent-gtk-tail-model.c) over a GListStore of
 * numbered items, every third one not counted (as a tool's result is not a
 * row): what it shows when set, as earlier and later items are brought in
 * under its limit, and as the model below it changes where it is shown and
 * where it is not; where what it shows is in the whole model, and a window
 * shown anywhere in it. Each change it passes on is checked against what it
 * shows (items-changed, replayed on a copy).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <stdlib.h>
#include <gtk/gtk.h>

#include "agent-gtk-tail-model-private.h"

/* Items are GtkStringObjects "0", "1", …; those whose number is a
 * multiple of 3 plus 2 are not counted */
static gboolean
counted (gpointer item,
         gpointer user_data)
{
  return atoi (gtk_string_object_get_string (item)) % 3 != 2;
}

static void
append_items (GListStore *store,
              guint       from,
              guint       to)
{
  for (guint i = from; i < to; i++)
    {
      char number[16];
      g_autoptr(GtkStringObject) item = NULL;

      g_snprintf (number, sizeof number, "%u", i);
      item = gtk_string_object_new (number);
      g_list_store_append (store, item);
    }
}

/* A copy kept from the tail model's items-changed alone */
static void
on_items_changed (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  GListStore *copy)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < added; i++)
    g_ptr_array_add (items, g_list_model_get_item (model, position + i));
  g_list_store_splice (copy, position, removed, items->pdata, items->len);
}

/* The numbers of the first and last items shown, checked against the copy,
 * and how many of them are counted */
static guint
shown (AgentGtkTailModel *tail,
       GListStore        *copy,
       int               *first,
       int               *last)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (tail));
  guint n_counted = 0;

  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (copy)), ==, n);
  *first = *last = -1;
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (G_LIST_MODEL (tail), i);
      g_autoptr(GObject) copied = g_list_model_get_item (G_LIST_MODEL (copy), i);
      int number = atoi (gtk_string_object_get_string (GTK_STRING_OBJECT (item)));

      g_assert_true (item == copied);
      if (i > 0)
        g_assert_cmpint (number, ==, *last + 1);
      else
        *first = number;
      *last = number;
      n_counted += counted (item, NULL);
    }
  return n_counted;
}

static void
test_window (void)
{
  g_autoptr(GListStore) store = g_list_store_new (GTK_TYPE_STRING_OBJECT);
  g_autoptr(GListStore) copy = g_list_store_new (GTK_TYPE_STRING_OBJECT);
  g_autoptr(GtkFilter) filter = GTK_FILTER (gtk_custom_filter_new (counted, NULL, NULL));
  g_autoptr(AgentGtkTailModel) tail = agent_gtk_tail_model_new (filter, 4, 10);
  int first, last;

  g_signal_connect (tail, "items-changed", G_CALLBACK (on_items_changed), copy);
  append_items (store, 0, 60);
  agent_gtk_tail_model_set_model (tail, G_LIST_MODEL (store));

  /* Set: its last 4 counted items */
  g_assert_cmpuint (shown (tail, copy, &first, &last), ==, 4);
  g_assert_cmpint (last, ==, 59);
  g_assert_cmpuint (agent_gtk_tail_model_get_n_hidden_after (tail), ==, 0);

  /* Earlier ones in, up to the limit of 10 counted: then the last go */
  agent_gtk_tail_model_show_more (tail, 4);
  g_assert_cmpuint (shown (tail, copy, &first, &last), ==, 8);
  g_assert_cmpint (last, ==, 59);
  agent_gtk_tail_model_show_more (tail, 4);
  g_assert_cmpuint (shown (tail, copy, &first, &last), ==, 10);
  g_assert_cmpint (last, <, 59);
  g_assert_cmpuint (agent_gtk_tail_model_get_n_hidden_after (tail), ==, 59 - last);
  while (agent_gtk_tail_model_get_n_hidden (tail) > 0)
    {
      agent_gtk_tail_model_show_more (tail, 4);
      g_assert_cmpuint (shown (tail, copy, &first, &last), <=, 10);
    }
  g_assert_cmpint (first, ==, 0);
  g_assert_cmpuint (shown (tail, copy, &first, &last), ==, 10);

  /* Items added after what is shown, the end not shown: nothing shows */
  append_items (store, 60, 63);
  g_assert_cmpuint (shown (tail, copy, &first, &last), ==, 10);
  g_assert_cmpint (first, ==, 0);
  g_assert_cmpuint (agent_gtk_tail_model_get_n_hidden_after (tail), ==, 62 - last);

  /* Later ones in: the first go, the limit kept; down to the end, which
   * takes the uncounted items after the last counted one with it */
  while (agent_gtk_tail_model_get_n_hidden_after (tail) > 0)
    {
      agent_gtk_tail_model_show_later (tail, 4);
      g_assert_cmpuint (shown (tail, copy, &first, &last), <=, 10);
    }
  g_assert_cmpint (last, ==, 62);
  g_assert_cmpuint (shown (tail, copy, &first, &last), ==, 10);
  g_assert_cmpuint (agent_gtk_tail_model_get_n_hidden (tail), ==, first);

  /* The end shown, items added pass through; past the limit and a margin
   * (4, the initial count) the first go */
  append_items (store, 63, 66);
  shown (tail, copy, &first, &last);
  g_assert_cmpint (last, ==, 65);
  append_items (store, 66, 80);
  g_assert_cmpuint (shown (tail, copy, &first, &last), <=, 14);
  g_assert_cmpint (last, ==, 79);

  /* Scrolled up again, then shown from the end again (the jump button) */
  agent_gtk_tail_model_show_more (tail, 8);
  agent_gtk_tail_model_show_more (tail, 8);
  shown (tail, copy, &first, &last);
  g_assert_cmpint (last, <, 79);
  agent_gtk_tail_model_show_end (tail);
  g_assert_cmpuint (shown (tail, copy, &first, &last), ==, 4);
  g_assert_cmpint (last, ==, 79);

  /* A cut that reaches from the hidden part after what is shown into it:
   * shown from the end */
  agent_gtk_tail_model_show_more (tail, 8);
  agent_gtk_tail_model_show_more (tail, 8);
  shown (tail, copy, &first, &last);
  g_list_store_splice (store, last - 1, 80 - (last - 1), NULL, 0);
  shown (tail, copy, &first, &last);
  g_assert_cmpuint (agent_gtk_tail_model_get_n_hidden_after (tail), ==, 0);
  g_assert_cmpint (last, ==, (int) g_list_model_get_n_items (G_LIST_MODEL (store)) - 1);
}

/* The number of the @index-th counted item (0, 1, 3, 4, 6…) */
static int
counted_number (guint index)
{
  return index + index / 2;
}

/* Where what is shown is in the whole model, in counted items, and a
 * window shown around any counted item (the scrollbar dragged there), as
 * the model changes */
static void
test_counted (void)
{
  g_autoptr(GListStore) store = g_list_store_new (GTK_TYPE_STRING_OBJECT);
  g_autoptr(GListStore) copy = g_list_store_new (GTK_TYPE_STRING_OBJECT);
  g_autoptr(GtkFilter) filter = GTK_FILTER (gtk_custom_filter_new (counted, NULL, NULL));
  g_autoptr(AgentGtkTailModel) tail = agent_gtk_tail_model_new (filter, 4, 10);
  int first, last;

  g_signal_connect (tail, "items-changed", G_CALLBACK (on_items_changed), copy);
  append_items (store, 0, 60);
  agent_gtk_tail_model_set_model (tail, G_LIST_MODEL (store));

  /* 40 counted in all; the last 4 shown */
  g_assert_cmpuint (agent_gtk_tail_model_get_n_counted (tail), ==, 40);
  g_assert_cmpuint (agent_gtk_tail_model_get_counted_start (tail), ==, 36);

  /* The first: shown from the model's start */
  agent_gtk_tail_model_show_counted (tail, 0, 2);
  g_assert_cmpuint (shown (tail, copy, &first, &last), ==, 4);
  g_assert_cmpint (first, ==, 0);
  g_assert_cmpuint (agent_gtk_tail_model_get_counted_start (tail), ==, 0);
  g_assert_cmpuint (agent_gtk_tail_model_get_n_hidden (tail), ==, 0);
  g_assert_cmpuint (agent_gtk_tail_model_get_n_hidden_after (tail), >, 0);

  /* The 21st, with 2 before it: the 19th to the 22nd */
  agent_gtk_tail_model_show_counted (tail, 20, 2);
  g_assert_cmpuint (shown (tail, copy, &first, &last), ==, 4);
  g_assert_cmpint (first, ==, counted_number (18));
  g_assert_cmpint (last, ==, counted_number (21));
  g_assert_cmpuint (agent_gtk_tail_model_get_counted_start (tail), ==, 18);
  g_assert_cmpuint (agent_gtk_tail_model_get_counted_end (tail), ==, 22);

  /* Near the end: the end shows (the last 4, and what follows them) */
  agent_gtk_tail_model_show_counted (tail, 39, 2);
  g_assert_cmpuint (shown (tail, copy, &first, &last), ==, 4);
  g_assert_cmpint (last, ==, 59);
  g_assert_cmpuint (agent_gtk_tail_model_get_n_hidden_after (tail), ==, 0);
  g_assert_cmpuint (agent_gtk_tail_model_get_counted_start (tail), ==, 36);

  /* Past the end: the end */
  agent_gtk_tail_model_show_counted (tail, 1000, 2);
  g_assert_cmpuint (agent_gtk_tail_model_get_n_hidden_after (tail), ==, 0);

  /* Items added at the end shown, counted or not */
  append_items (store, 60, 63);
  g_assert_cmpuint (agent_gtk_tail_model_get_n_counted (tail), ==, 42);

  /* Items taken out before what is shown: it stays where it is in the
   * whole, one counted item fewer before it; earlier ones brought in
   * count from there */
  agent_gtk_tail_model_show_counted (tail, 20, 2);
  g_list_store_splice (store, 1, 3, NULL, 0);
  g_assert_cmpuint (agent_gtk_tail_model_get_n_counted (tail), ==, 40);
  g_assert_cmpuint (agent_gtk_tail_model_get_counted_start (tail), ==, 16);
  shown (tail, copy, &first, &last);
  g_assert_cmpint (first, ==, counted_number (18));
  agent_gtk_tail_model_show_more (tail, 4);
  g_assert_cmpuint (agent_gtk_tail_model_get_counted_start (tail), ==, 12);

  /* Another model: shown from its end */
  g_list_store_remove_all (store);
  g_assert_cmpuint (agent_gtk_tail_model_get_n_counted (tail), ==, 0);
  g_assert_cmpuint (agent_gtk_tail_model_get_counted_start (tail), ==, 0);
  agent_gtk_tail_model_show_counted (tail, 3, 2);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (tail)), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gtk/tail-model/window", test_window);
  g_test_add_func ("/gtk/tail-model/counted", test_counted);
  return g_test_run ();
}
