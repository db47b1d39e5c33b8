/* agent-gtk-tail-model.c
 *
 * The end of a list model: the chat view's conversation as far back as
 * the user has scrolled.
 *
 * GTK 4.8's GtkListView makes, binds and measures a widget for every item
 * within 200 of its anchor, whatever the height of the view: opening a
 * conversation of 10,000 messages at its end laid out 200 message rows,
 * their Markdown included, before the first frame (600–900 ms here; 3 ms
 * a row). Most conversations are opened to read or continue their end.
 *
 * So the view's list shows the end of the conversation: when the model it
 * follows is replaced (another conversation), the last @n_initial items
 * the @counted filter keeps (messages a row shows), with whatever is
 * between them; items added or changed there are passed on; and
 * agent_gtk_tail_model_show_more() brings earlier ones in, above, as the
 * user scrolls up to them. GtkListView keeps its anchor item where it is
 * in the view when items are added before it, so what the user reads does
 * not move.
 *
 * And it keeps the list under that limit of 200: past @n_max counted
 * items, bringing earlier ones in takes as many out at the end, and
 * agent_gtk_tail_model_show_later() brings them back as the user scrolls
 * down (taking earlier ones out). Beyond 200 items, GTK 4.8's list
 * estimates the height of the rows it has not made from those it has and
 * keeps its 200 rows where that estimate puts the view: with messages of
 * different heights, each row made moved the estimate, and the range,
 * which unmade rows and made others — each message of a long chat made
 * into a row dozens of times on the way down it, frames of a tenth of a
 * second and more. Under 200, the list has a row for every item and
 * knows its height.
 *
 * Workaround, GTK < 4.10: the 200-row range and its estimates belong to
 * GTK 4.8's list item manager, which GTK 4.10 replaced (tiles: widgets
 * for what is in view). When the minimum is 4.10 or later, measure
 * bench-reopen and bench-scroll with the chat view's list over the whole
 * transcript (no tail model); drop this model, ROWS_IN_LIST and the
 * autoscroll's show_more/show_later if they stay as fast.
 *
 * Changes in the hidden parts are absorbed (messages added while the end
 * is not shown show when it is); a change that reaches from a hidden part
 * into the shown one (a cut), or one that leaves nothing shown, shows the
 * end again as a new model would be.
 *
 * It keeps the positions of the counted items of the whole model, so that
 * the view can say where what it shows is in the whole conversation (its
 * scrollbar: agent_gtk_tail_model_get_counted_start() of
 * agent_gtk_tail_model_get_n_counted()) and show a window anywhere in it
 * at once (agent_gtk_tail_model_show_counted(): the scrollbar dragged to
 * the top, Home), whatever the length of the conversation.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "agent-gtk-config.h"

#include "agent-gtk-tail-model-private.h"
#include "agent-trace-private.h"

struct _AgentGtkTailModel
{
  GObject     parent_instance;

  GListModel *model;
  GtkFilter  *counted;    /* nullable: every item counts */
  guint       n_initial;  /* counted items shown when the model is replaced */
  guint       n_max;      /* counted items shown at most (0: no limit) */
  guint       n_items;    /* the model's, as last seen */
  guint       start;      /* the first shown item's position in the model */
  guint       end;        /* after the last shown: n_items while the end shows */
  GArray     *counted_at; /* of guint: the positions of the counted items, in order */
};

static GType
agent_gtk_tail_model_get_item_type (GListModel *list)
{
  AgentGtkTailModel *self = AGENT_GTK_TAIL_MODEL (list);

  return self->model != NULL ? g_list_model_get_item_type (self->model) : G_TYPE_OBJECT;
}

static guint
agent_gtk_tail_model_get_n_items (GListModel *list)
{
  AgentGtkTailModel *self = AGENT_GTK_TAIL_MODEL (list);

  return self->end - self->start;
}

static gpointer
agent_gtk_tail_model_get_item (GListModel *list,
                               guint       position)
{
  AgentGtkTailModel *self = AGENT_GTK_TAIL_MODEL (list);

  if (self->model == NULL || position >= self->end - self->start)
    return NULL;
  return g_list_model_get_item (self->model, self->start + position);
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = agent_gtk_tail_model_get_item_type;
  iface->get_n_items = agent_gtk_tail_model_get_n_items;
  iface->get_item = agent_gtk_tail_model_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (AgentGtkTailModel, agent_gtk_tail_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

/* Counted items */

static gboolean
is_counted (AgentGtkTailModel *self,
            guint              position)
{
  g_autoptr(GObject) item = NULL;

  if (self->counted == NULL)
    return TRUE;
  item = g_list_model_get_item (self->model, position);
  return gtk_filter_match (self->counted, item);
}

/* How many counted items are before @position */
static guint
counted_before (AgentGtkTailModel *self,
                guint              position)
{
  guint low = 0;
  guint high = self->counted_at->len;

  while (low < high)
    {
      guint middle = low + (high - low) / 2;

      if (g_array_index (self->counted_at, guint, middle) < position)
        low = middle + 1;
      else
        high = middle;
    }
  return low;
}

/* The model changed: @removed items at @position went, @added came */
static void
update_counted (AgentGtkTailModel *self,
                guint              position,
                guint              removed,
                guint              added)
{
  guint index = counted_before (self, position);
  guint n_removed = counted_before (self, position + removed) - index;
  guint i;

  g_array_remove_range (self->counted_at, index, n_removed);
  for (i = index; i < self->counted_at->len; i++)
    g_array_index (self->counted_at, guint, i) += added - removed;
  for (i = 0; i < added; i++)
    if (is_counted (self, position + i))
      {
        guint at = position + i;

        g_array_insert_val (self->counted_at, index++, at);
      }
}

/* The position before @from that shows @n_counted more counted items, or 0 */
static guint
walk_back (AgentGtkTailModel *self,
           guint              from,
           guint              n_counted)
{
  guint position = from;

  while (position > 0 && n_counted > 0)
    {
      g_autoptr(GObject) item = g_list_model_get_item (self->model, --position);

      if (self->counted == NULL || gtk_filter_match (self->counted, item))
        n_counted--;
    }
  return position;
}

/* The position after @from that shows @n_counted more counted items, or
 * the model's end */
static guint
walk_forward (AgentGtkTailModel *self,
              guint              from,
              guint              n_counted)
{
  guint position = from;

  while (position < self->n_items && n_counted > 0)
    {
      g_autoptr(GObject) item = g_list_model_get_item (self->model, position++);

      if (self->counted == NULL || gtk_filter_match (self->counted, item))
        n_counted--;
    }
  return position;
}

/* Whether an item from @from to the model's end is counted */
static gboolean
any_counted (AgentGtkTailModel *self,
             guint              from)
{
  for (guint position = from; position < self->n_items; position++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (self->model, position);

      if (self->counted == NULL || gtk_filter_match (self->counted, item))
        return TRUE;
    }
  return FALSE;
}

/* Whether more than n_max counted items are shown */
static gboolean
over_limit (AgentGtkTailModel *self)
{
  return self->n_max > 0 && walk_back (self, self->end, self->n_max) > self->start;
}

/* Shows the model from its end again (@n_shown: the items shown before) */
static void
show_end (AgentGtkTailModel *self,
          guint              n_shown)
{
  self->start = walk_back (self, self->n_items, self->n_initial);
  self->end = self->n_items;
  if (n_shown > 0 || self->end > self->start)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, n_shown, self->end - self->start);
}

/* Over the limit: the first items go, leaving n_max counted ones */
static void
trim_start (AgentGtkTailModel *self)
{
  guint old_start = self->start;

  if (!over_limit (self))
    return;
  self->start = walk_back (self, self->end, self->n_max);
  g_list_model_items_changed (G_LIST_MODEL (self), 0, self->start - old_start, 0);
}

/* Over the limit: the last items go, leaving n_max counted ones */
static void
trim_end (AgentGtkTailModel *self)
{
  guint old_end = self->end;

  if (!over_limit (self))
    return;
  self->end = walk_forward (self, self->start, self->n_max);
  g_list_model_items_changed (G_LIST_MODEL (self), self->end - self->start, old_end - self->end, 0);
}

static void
on_items_changed (GListModel        *model,
                  guint              position,
                  guint              removed,
                  guint              added,
                  AgentGtkTailModel *self)
{
  guint old_n_items = self->n_items;
  guint old_n_shown = self->end - self->start;
  gboolean end_shown = self->end == old_n_items;

  self->n_items = g_list_model_get_n_items (model);
  update_counted (self, position, removed, added);

  /* All of it replaced (another conversation), or a change reaching from
   * a hidden part into the shown one (a cut): shown from the end */
  if ((position == 0 && removed == old_n_items) ||
      (position < self->start && position + removed > self->start) ||
      (!end_shown && position < self->end && position + removed > self->end))
    show_end (self, old_n_shown);
  else if (position < self->start)
    {
      self->start = self->start - removed + added;
      self->end = self->end - removed + added;
    }
  /* After the end shown: it shows when the user scrolls down to it */
  else if (!end_shown && position >= self->end)
    ;
  else
    {
      self->end = self->end - removed + added;
      g_list_model_items_changed (G_LIST_MODEL (self), position - self->start, removed, added);
      /* Nothing left shown, but earlier items are there */
      if (self->end == self->start && self->start > 0)
        show_end (self, 0);
      /* A long session: the first shown go (with a margin of a step, not
       * one at each message) */
      else if (end_shown && self->n_max > 0 &&
               walk_back (self, self->end, self->n_max + self->n_initial) > self->start)
        trim_start (self);
    }
}

/**
 * agent_gtk_tail_model_set_model:
 * @self: a tail model
 * @model: (nullable): the model whose end to show
 *
 * Follows @model, shown from its end.
 */
void
agent_gtk_tail_model_set_model (AgentGtkTailModel *self,
                                GListModel        *model)
{
  guint old_n_shown;

  g_return_if_fail (AGENT_GTK_IS_TAIL_MODEL (self));
  g_return_if_fail (model == NULL || G_IS_LIST_MODEL (model));

  if (self->model == model)
    return;
  old_n_shown = self->end - self->start;
  if (self->model != NULL)
    g_signal_handlers_disconnect_by_func (self->model, on_items_changed, self);
  g_set_object (&self->model, model);
  self->n_items = model != NULL ? g_list_model_get_n_items (model) : 0;
  g_array_set_size (self->counted_at, 0);
  update_counted (self, 0, 0, self->n_items);
  if (model != NULL)
    g_signal_connect_object (model, "items-changed", G_CALLBACK (on_items_changed), self, 0);
  show_end (self, old_n_shown);
}

/**
 * agent_gtk_tail_model_get_n_hidden:
 * @self: a tail model
 *
 * Returns: how many of the model's items are before the first one shown
 */
guint
agent_gtk_tail_model_get_n_hidden (AgentGtkTailModel *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_TAIL_MODEL (self), 0);
  return self->start;
}

/**
 * agent_gtk_tail_model_get_n_hidden_after:
 * @self: a tail model
 *
 * Returns: how many of the model's items are after the last one shown
 */
guint
agent_gtk_tail_model_get_n_hidden_after (AgentGtkTailModel *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_TAIL_MODEL (self), 0);
  return self->n_items - self->end;
}

/**
 * agent_gtk_tail_model_show_end:
 * @self: a tail model
 *
 * Shows the model from its end again, as when it was set, if its end is
 * not shown.
 */
void
agent_gtk_tail_model_show_end (AgentGtkTailModel *self)
{
  g_return_if_fail (AGENT_GTK_IS_TAIL_MODEL (self));

  if (self->end < self->n_items)
    show_end (self, self->end - self->start);
}

/**
 * agent_gtk_tail_model_show_more:
 * @self: a tail model
 * @n_counted: counted items to show, before the first one shown
 *
 * Shows earlier items: @n_counted more that the filter counts (or all that
 * are left), added at the start.
 */
void
agent_gtk_tail_model_show_more (AgentGtkTailModel *self,
                                guint              n_counted)
{
  G_GNUC_UNUSED gint64 trace_begin;
  guint old_start;

  g_return_if_fail (AGENT_GTK_IS_TAIL_MODEL (self));

  old_start = self->start;
  if (old_start == 0 || n_counted == 0)
    return;
  trace_begin = _agent_trace_begin ();
  self->start = walk_back (self, old_start, n_counted);
  g_list_model_items_changed (G_LIST_MODEL (self), 0, 0, old_start - self->start);
  trim_end (self);
  _agent_trace_end (trace_begin, "libagent-gtk", "tail model show more", "%u items before item %u",
                    old_start - self->start, old_start);
}

/**
 * agent_gtk_tail_model_show_later:
 * @self: a tail model
 * @n_counted: counted items to show, after the last one shown
 *
 * Shows later items, if the end is not shown: @n_counted more that the
 * filter counts (or all that are left), added at the end; earlier ones go
 * past the limit.
 */
void
agent_gtk_tail_model_show_later (AgentGtkTailModel *self,
                                 guint              n_counted)
{
  G_GNUC_UNUSED gint64 trace_begin;
  guint old_end;

  g_return_if_fail (AGENT_GTK_IS_TAIL_MODEL (self));

  old_end = self->end;
  if (old_end == self->n_items || n_counted == 0)
    return;
  trace_begin = _agent_trace_begin ();
  self->end = walk_forward (self, old_end, n_counted);
  /* Nothing counted after it: the end is shown (and the view can follow it) */
  if (!any_counted (self, self->end))
    self->end = self->n_items;
  g_list_model_items_changed (G_LIST_MODEL (self), old_end - self->start, 0, self->end - old_end);
  trim_start (self);
  _agent_trace_end (trace_begin, "libagent-gtk", "tail model show later", "%u items after item %u",
                    self->end - old_end, old_end);
}

/**
 * agent_gtk_tail_model_get_n_counted:
 * @self: a tail model
 *
 * Returns: how many items of the whole model the filter counts
 */
guint
agent_gtk_tail_model_get_n_counted (AgentGtkTailModel *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_TAIL_MODEL (self), 0);
  return self->counted_at->len;
}

/**
 * agent_gtk_tail_model_get_counted_start:
 * @self: a tail model
 *
 * Returns: how many counted items of the model are before the first one
 *   shown: the place of the first counted item shown among them all
 */
guint
agent_gtk_tail_model_get_counted_start (AgentGtkTailModel *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_TAIL_MODEL (self), 0);
  return counted_before (self, self->start);
}

/**
 * agent_gtk_tail_model_get_counted_end:
 * @self: a tail model
 *
 * Returns: how many counted items of the model are before the end of what
 *   is shown (those before it, and those it shows)
 */
guint
agent_gtk_tail_model_get_counted_end (AgentGtkTailModel *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_TAIL_MODEL (self), 0);
  return counted_before (self, self->end);
}

/**
 * agent_gtk_tail_model_show_counted:
 * @self: a tail model
 * @index: a counted item, by its place among them all
 * @n_before: counted items to show before it
 *
 * Shows the model around the @index-th counted item, in place of what it
 * showed: from @n_before counted items before it (or the model's start),
 * as many counted items as when the model is set; and the end, with what
 * follows the last counted item, when they reach it.
 */
void
agent_gtk_tail_model_show_counted (AgentGtkTailModel *self,
                                   guint              index,
                                   guint              n_before)
{
  guint n;
  guint n_shown;
  guint first;
  guint start;
  guint end;
  guint old_n_shown;

  g_return_if_fail (AGENT_GTK_IS_TAIL_MODEL (self));

  n = self->counted_at->len;
  n_shown = MAX (self->n_initial, 1);
  if (n == 0)
    return;
  first = MIN (index, n - 1) > n_before ? MIN (index, n - 1) - n_before : 0;
  if (first + n_shown >= n)
    {
      /* The end, as when the model was set */
      start = n > n_shown ? g_array_index (self->counted_at, guint, n - n_shown) : 0;
      end = self->n_items;
    }
  else
    {
      start = first > 0 ? g_array_index (self->counted_at, guint, first) : 0;
      end = g_array_index (self->counted_at, guint, first + n_shown - 1) + 1;
    }
  if (start == self->start && end == self->end)
    return;
  old_n_shown = self->end - self->start;
  self->start = start;
  self->end = end;
  g_list_model_items_changed (G_LIST_MODEL (self), 0, old_n_shown, end - start);
}

static void
agent_gtk_tail_model_dispose (GObject *object)
{
  AgentGtkTailModel *self = AGENT_GTK_TAIL_MODEL (object);

  if (self->model != NULL)
    g_signal_handlers_disconnect_by_func (self->model, on_items_changed, self);
  g_clear_object (&self->model);
  g_clear_object (&self->counted);

  G_OBJECT_CLASS (agent_gtk_tail_model_parent_class)->dispose (object);
}

static void
agent_gtk_tail_model_finalize (GObject *object)
{
  AgentGtkTailModel *self = AGENT_GTK_TAIL_MODEL (object);

  g_array_unref (self->counted_at);

  G_OBJECT_CLASS (agent_gtk_tail_model_parent_class)->finalize (object);
}

static void
agent_gtk_tail_model_class_init (AgentGtkTailModelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = agent_gtk_tail_model_dispose;
  object_class->finalize = agent_gtk_tail_model_finalize;
}

static void
agent_gtk_tail_model_init (AgentGtkTailModel *self)
{
  self->counted_at = g_array_new (FALSE, FALSE, sizeof (guint));
}

/**
 * agent_gtk_tail_model_new:
 * @counted: (nullable) (transfer none): the items that count (all if %NULL)
 * @n_initial: counted items shown at first
 *
 * Returns: (transfer full): a new tail model, following no model yet
 */
AgentGtkTailModel *
agent_gtk_tail_model_new (GtkFilter *counted,
                          guint      n_initial,
                          guint      n_max)
{
  AgentGtkTailModel *self = g_object_new (AGENT_GTK_TYPE_TAIL_MODEL, NULL);

  g_return_val_if_fail (counted == NULL || GTK_IS_FILTER (counted), NULL);
  g_return_val_if_fail (n_max == 0 || n_max >= n_initial, NULL);

  self->counted = counted != NULL ? g_object_ref (counted) : NULL;
  self->n_initial = n_initial;
  self->n_max = n_max;
  return self;
}
