/* agent-gtk-autoscroll.c
 *
 * Keeps the end of a GtkListView in view while it grows (a streaming
 * answer, a new turn, a conversation just opened), until the user scrolls
 * up; scrolling back to the end follows it again.
 *
 * GtkListView places its rows from an anchor — an item, and where in the
 * view one of its edges stays — and sets its adjustment from that anchor
 * each time it is allocated, with its own handler of the adjustment's
 * value blocked: a value set then (from notify::upper, say) is never seen
 * by the list, which goes on showing what its anchor says while the
 * scrollbar says otherwise. A value set before its first allocation is
 * refused ("failed to scroll to given position"). And the list only knows
 * the heights of the rows it made widgets for; the others are guesses
 * until they are made.
 *
 * So the end is brought into view after the list is laid out: once the
 * window's layout is done (the frame clock's layout phase, after the
 * window's own handler), if the view follows and does not show the end,
 * the last item becomes the anchor — scrolled to, which anchors it by its
 * end while it is smaller than the view, or the view set to the end, which
 * does so when it is taller — and the frame clock lays the window out again
 * before it paints. Anchored by its end, the last item keeps its end at the
 * bottom of the view as it grows, with no more help.
 *
 * Workaround, GTK < 4.12: GTK 4.8 has no API to anchor a list view at an
 * item's end. With 4.12, gtk_list_view_scroll_to() with a GtkScrollInfo
 * (GTK_LIST_SCROLL_NONE, the item's end at the view's end) does it: use
 * it for the end and for Home/End, keep the rule of who moved the view
 * (the user scrolling up stops following), and check with
 * test-gui-scroll and test-gui-long-chat-e2e.
 *
 * The user scrolling up stops it. The list's own changes to the value come
 * with a change of its size or page size (GtkAdjustment::changed first),
 * or in the first layout after its items changed, where it places its rows
 * from its anchor again (a conversation replaced by one whose rows it
 * estimates as tall keeps the size and moves the view); a change alone is
 * the user's (the scrollbar, the wheel, the keyboard, a focus moving up
 * the list).
 *
 * With a tail model under the list (agent_gtk_autoscroll_set_tail()), the
 * list holds only part of the conversation, its end at first: when less
 * than a view's height is left above what is shown, earlier items are
 * brought in, a step at a time, once the frame is drawn, and later ones
 * (taken out as earlier ones came in) when less than a view's height is
 * left below, as the window is laid out (maybe_show_more() says why). The
 * list keeps what the user reads in place (its anchor item stays where it
 * is). The end of the list is the end of the conversation only when the
 * tail model shows its end: following it needs both.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "agent-gtk-config.h"

#include "agent-gtk-autoscroll-private.h"
#include "agent-gtk-tail-model-private.h"

struct _AgentGtkAutoscroll
{
  GObject        parent_instance;

  GtkListView   *list_view;
  GtkAdjustment *adjustment;
  GSignalGroup  *model_signals;  /* the list's model */
  GdkFrameClock *clock;
  gulong         layout_id;
  AgentGtkTailModel *tail;       /* nullable: the list shows its items */
  guint          tail_step;      /* counted items brought in at a time */
  gint64         frame;          /* the frame clock's frame being laid out */
  gint64         shown_frame;    /* the last that brought later items in */
  guint          show_more_id;   /* an idle bringing earlier items in */
  double         last_value;
  guint          n_corrections;  /* in this frame */
  guint          following : 1;
  guint          relayout : 1;    /* the list changed the adjustment's size */
  guint          items_changed : 1;  /* the list's, since it was laid out */
  guint          correcting : 1;  /* we are moving the view */
  guint          jumping : 1;     /* another moves it elsewhere: not to be followed */
};

enum {
  PROP_0,
  PROP_FOLLOWING,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (AgentGtkAutoscroll, agent_gtk_autoscroll, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

/* Corrections in one frame: the frame clock lays a window out at most four
 * times before it paints. A view that could not reach the end by then
 * tries again in the next frame that has something to lay out. */
#define MAX_CORRECTIONS 3

/* The view shows the end of the list, with less than @margin pixels below */
static gboolean
near_list_end (AgentGtkAutoscroll *self,
               double              margin)
{
  return gtk_adjustment_get_value (self->adjustment) + gtk_adjustment_get_page_size (self->adjustment) >=
         gtk_adjustment_get_upper (self->adjustment) - margin;
}

/* The view shows the end of the conversation */
static gboolean
at_end (AgentGtkAutoscroll *self)
{
  return near_list_end (self, 1) &&
         (self->tail == NULL || agent_gtk_tail_model_get_n_hidden_after (self->tail) == 0);
}

static void
set_following (AgentGtkAutoscroll *self,
               gboolean             following)
{
  following = !!following;
  self->n_corrections = 0;
  if (self->following == following)
    return;
  self->following = following;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FOLLOWING]);
}

static void
on_adjustment_changed (AgentGtkAutoscroll *self)
{
  self->relayout = TRUE;
}

static void
on_value_changed (AgentGtkAutoscroll *self)
{
  double value = gtk_adjustment_get_value (self->adjustment);

  if (!self->relayout && !self->correcting && !self->items_changed && !self->jumping)
    {
      /* The user's doing */
      if (value < self->last_value - 1)
        set_following (self, FALSE);
      else if (at_end (self))
        set_following (self, TRUE);
    }
  self->relayout = FALSE;
  self->last_value = value;
}

static void
on_items_changed (AgentGtkAutoscroll *self)
{
  self->items_changed = TRUE;
}

static gboolean
show_more_cb (gpointer data)
{
  AgentGtkAutoscroll *self = data;

  self->show_more_id = 0;
  agent_gtk_tail_model_show_more (self->tail, self->tail_step);
  return G_SOURCE_REMOVE;
}

/* Less than a view's height above what the list shows, and more in the
 * tail model: bring a step of it in once this frame is over (not while it
 * is laid out: a conversation just opened would bring a step in at each
 * of the frame clock's layouts, four before its first frame), before the
 * next one, which lays the new rows out. (An idle of default priority
 * waited behind the frames of a busy window.)
 *
 * Less than that below, and more after it: bring a step in now, in the
 * layout phase, which takes the first items out. The frame clock lays
 * the window out again before it paints, and the list places its rows
 * from its anchor item. In an idle between frames, the adjustment kept the
 * values of the rows before until the next layout: a fling's step or a
 * wheel's in between read them and moved the view down by the height of
 * the rows taken out, over as many messages. One step a frame: the next
 * frame of the scroll brings the next. Returns whether the list changed
 * now. */
static gboolean
maybe_show_more (AgentGtkAutoscroll *self)
{
  double page = gtk_adjustment_get_page_size (self->adjustment);

  if (self->tail == NULL || page <= 0)
    return FALSE;
  if (agent_gtk_tail_model_get_n_hidden (self->tail) > 0 &&
      gtk_adjustment_get_value (self->adjustment) - gtk_adjustment_get_lower (self->adjustment) < page)
    {
      if (self->show_more_id == 0)
        self->show_more_id = g_idle_add_full (GDK_PRIORITY_REDRAW - 10, show_more_cb, self, NULL);
      return FALSE;
    }
  if (agent_gtk_tail_model_get_n_hidden_after (self->tail) == 0 || !near_list_end (self, page) ||
      self->shown_frame == self->frame)
    return FALSE;
  self->shown_frame = self->frame;
  agent_gtk_tail_model_show_later (self->tail, self->tail_step);
  return TRUE;
}

/* The window is laid out: bring the end into view if it should be there */
static void
on_layout (GdkFrameClock       *clock,
           AgentGtkAutoscroll *self)
{
  GListModel *model = G_LIST_MODEL (gtk_list_view_get_model (self->list_view));
  guint n_items = model ? g_list_model_get_n_items (model) : 0;
  gint64 frame = gdk_frame_clock_get_frame_counter (clock);

  /* The list was laid out (the window's handler runs first) */
  self->relayout = FALSE;
  self->items_changed = FALSE;
  self->last_value = gtk_adjustment_get_value (self->adjustment);
  if (frame != self->frame)
    {
      self->frame = frame;
      self->n_corrections = 0;
    }
  /* The list refuses to be scrolled before it has a width */
  if (!gtk_widget_get_mapped (GTK_WIDGET (self->list_view)) ||
      gtk_widget_get_width (GTK_WIDGET (self->list_view)) == 0 || n_items == 0)
    return;
  if (maybe_show_more (self))
    return;
  if (at_end (self) && !self->jumping)
    {
      set_following (self, TRUE);
      return;
    }
  if (!self->following || self->n_corrections >= MAX_CORRECTIONS)
    return;

  self->correcting = TRUE;
  if (self->n_corrections++ == 0)
    gtk_widget_activate_action (GTK_WIDGET (self->list_view), "list.scroll-to-item", "u",
                                n_items - 1);
  else
    gtk_adjustment_set_value (self->adjustment, gtk_adjustment_get_upper (self->adjustment) -
                                                gtk_adjustment_get_page_size (self->adjustment));
  self->correcting = FALSE;
}

static void
on_realize (AgentGtkAutoscroll *self)
{
  g_return_if_fail (self->clock == NULL);

  /* After the handler that lays the window out */
  self->clock = g_object_ref (gtk_widget_get_frame_clock (GTK_WIDGET (self->list_view)));
  self->layout_id = g_signal_connect_after (self->clock, "layout", G_CALLBACK (on_layout), self);
}

static void
on_unrealize (AgentGtkAutoscroll *self)
{
  if (self->clock != NULL)
    {
      g_clear_signal_handler (&self->layout_id, self->clock);
      g_clear_object (&self->clock);
    }
}

static void
agent_gtk_autoscroll_dispose (GObject *object)
{
  AgentGtkAutoscroll *self = AGENT_GTK_AUTOSCROLL (object);

  on_unrealize (self);
  g_clear_handle_id (&self->show_more_id, g_source_remove);
  g_clear_object (&self->tail);
  g_clear_object (&self->model_signals);
  if (self->adjustment != NULL)
    g_signal_handlers_disconnect_by_data (self->adjustment, self);
  if (self->list_view != NULL)
    g_signal_handlers_disconnect_by_data (self->list_view, self);
  g_clear_object (&self->adjustment);
  g_clear_object (&self->list_view);

  G_OBJECT_CLASS (agent_gtk_autoscroll_parent_class)->dispose (object);
}

static void
agent_gtk_autoscroll_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  AgentGtkAutoscroll *self = AGENT_GTK_AUTOSCROLL (object);

  switch (prop_id)
    {
    case PROP_FOLLOWING:
      g_value_set_boolean (value, self->following);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_gtk_autoscroll_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  AgentGtkAutoscroll *self = AGENT_GTK_AUTOSCROLL (object);

  switch (prop_id)
    {
    case PROP_FOLLOWING:
      agent_gtk_autoscroll_set_following (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_gtk_autoscroll_class_init (AgentGtkAutoscrollClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = agent_gtk_autoscroll_dispose;
  object_class->get_property = agent_gtk_autoscroll_get_property;
  object_class->set_property = agent_gtk_autoscroll_set_property;

  /**
   * AgentGtkAutoscroll:following:
   *
   * Whether the end of the list is kept in view. The user scrolling up
   * turns it off; scrolling to the end turns it on.
   */
  properties[PROP_FOLLOWING] =
    g_param_spec_boolean ("following", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agent_gtk_autoscroll_init (AgentGtkAutoscroll *self)
{
  self->following = TRUE;
  self->shown_frame = -1;
}

/**
 * agent_gtk_autoscroll_new:
 * @list_view: a list view in a scrolled window
 *
 * Returns: (transfer full): an autoscroll keeping the end of @list_view in
 *   view, following from the start
 */
AgentGtkAutoscroll *
agent_gtk_autoscroll_new (GtkListView *list_view)
{
  AgentGtkAutoscroll *self;
  GtkWidget *scroller;

  g_return_val_if_fail (GTK_IS_LIST_VIEW (list_view), NULL);
  scroller = gtk_widget_get_ancestor (GTK_WIDGET (list_view), GTK_TYPE_SCROLLED_WINDOW);
  g_return_val_if_fail (scroller != NULL, NULL);

  self = g_object_new (AGENT_GTK_TYPE_AUTOSCROLL, NULL);
  self->list_view = g_object_ref (list_view);
  self->adjustment = g_object_ref (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller)));
  self->last_value = gtk_adjustment_get_value (self->adjustment);
  g_signal_connect_swapped (self->adjustment, "changed", G_CALLBACK (on_adjustment_changed), self);
  g_signal_connect_swapped (self->adjustment, "value-changed", G_CALLBACK (on_value_changed), self);
  g_signal_connect_swapped (list_view, "realize", G_CALLBACK (on_realize), self);
  g_signal_connect_swapped (list_view, "unrealize", G_CALLBACK (on_unrealize), self);
  self->model_signals = g_signal_group_new (G_TYPE_LIST_MODEL);
  g_signal_group_connect_swapped (self->model_signals, "items-changed",
                                  G_CALLBACK (on_items_changed), self);
  g_object_bind_property (list_view, "model", self->model_signals, "target", G_BINDING_SYNC_CREATE);
  if (gtk_widget_get_realized (GTK_WIDGET (list_view)))
    on_realize (self);
  return self;
}

gboolean
agent_gtk_autoscroll_get_following (AgentGtkAutoscroll *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_AUTOSCROLL (self), FALSE);
  return self->following;
}

/**
 * agent_gtk_autoscroll_set_following:
 * @self: a #AgentGtkAutoscroll
 * @following: whether to keep the end in view
 *
 * Turned on, the end comes into view when the list is next laid out,
 * before it is drawn.
 */
void
agent_gtk_autoscroll_set_following (AgentGtkAutoscroll *self,
                                     gboolean             following)
{
  g_return_if_fail (AGENT_GTK_IS_AUTOSCROLL (self));

  set_following (self, following);
  if (following && self->tail != NULL)
    agent_gtk_tail_model_show_end (self->tail);
  if (following)
    gtk_widget_queue_allocate (GTK_WIDGET (self->list_view));
}

/**
 * agent_gtk_autoscroll_set_jumping:
 * @self: a #AgentGtkAutoscroll
 * @jumping: whether the view is being taken elsewhere
 *
 * While the view is taken elsewhere (the chat view's scrollbar jumping to
 * a message: agent-gtk-chat-scrollbar.c), being at the end on the way is
 * not reaching it: the view does not start to follow it. Turns following
 * off.
 */
void
agent_gtk_autoscroll_set_jumping (AgentGtkAutoscroll *self,
                                  gboolean            jumping)
{
  g_return_if_fail (AGENT_GTK_IS_AUTOSCROLL (self));

  self->jumping = !!jumping;
  if (jumping)
    set_following (self, FALSE);
}

/**
 * agent_gtk_autoscroll_set_tail:
 * @self: a #AgentGtkAutoscroll
 * @tail: (nullable): the tail model the list shows (through other models)
 * @step: counted items to bring in at a time
 *
 * Brings earlier items of @tail into the list as the user nears the top of
 * what it shows.
 */
void
agent_gtk_autoscroll_set_tail (AgentGtkAutoscroll *self,
                               AgentGtkTailModel  *tail,
                               guint               step)
{
  g_return_if_fail (AGENT_GTK_IS_AUTOSCROLL (self));
  g_return_if_fail (tail == NULL || AGENT_GTK_IS_TAIL_MODEL (tail));

  g_set_object (&self->tail, tail);
  self->tail_step = step;
}
