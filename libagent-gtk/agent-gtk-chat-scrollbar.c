/* agent-gtk-chat-scrollbar.c
 *
 * The chat view's scrollbar, which says where the view is in the whole
 * conversation, and takes it anywhere in it.
 *
 * The view's list holds only a window of the conversation (the tail
 * model's: agent-gtk-tail-model.c says why), so the scrolled window's own
 * scrollbar measured that window: a long chat opened at its end showed a
 * thumb near the top of a short track, and a drag to the top brought a
 * step of earlier messages in and the thumb jumped back down, a few turns
 * further up at each drag. This scrollbar counts in messages (the rows of
 * the whole conversation, the card of a failed turn after them): its value
 * is the place of the message at the top of the view (and how far into
 * it), its page the messages in view, its range all of them. It is updated
 * once the window is laid out (the frame clock's layout phase, after the
 * autoscroll's handler), only when the view or its items changed.
 *
 * Moved by the user (dragged, a click in its trough, the wheel over it), or
 * asked to (Home, End: agent_gtk_chat_scrollbar_scroll_to()), it jumps: the
 * tail model shows a window around the message wanted if it does not show
 * it yet, the list scrolls to its row, and once the row is laid out the
 * view is set so that the row's top (or the part of it wanted) is at the
 * top of the view, over the frame clock's layouts of that frame and the
 * next ones. At the end of the conversation, the autoscroll follows it.
 *
 * It looks as GtkScrolledWindow's overlay indicators look (libadwaita's
 * style of .overlay-indicator: thin, wide with the pointer near), shown
 * while the view moves or the pointer moves over it, faded out a second
 * after.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "agent-gtk-config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "agent-gtk-chat-scrollbar-private.h"
#include "agent-gtk-message-row-private.h"
#include "agent-gtk-private.h"

/* Messages shown before the one jumped to, so that scrolling up from it
 * does not wait for earlier ones */
#define N_BEFORE 2
/* Layouts a jump may take (the frame clock lays out four times a frame) */
#define MAX_JUMP_TRIES 12
/* How long the scrollbar stays shown after the last move, in ms */
#define SHOWN_FOR 1000

struct _AgentGtkChatScrollbar
{
  GtkWidget           parent_instance;

  GtkWidget          *scrollbar;
  GtkAdjustment      *adjustment;    /* in messages */

  GtkListView        *list_view;
  GtkAdjustment      *list_adjustment;  /* the view's, in pixels */
  AgentGtkTailModel  *tail;
  AgentGtkAutoscroll *autoscroll;
  GSignalGroup       *list_signals;  /* the list's model */
  GdkFrameClock      *clock;
  gulong              layout_id;
  guint               hide_id;

  guint               jump_index;    /* the row jumped to, in the whole conversation */
  double              jump_fraction; /* how far into it, at the top of the view */
  guint               jump_tries;
  gint64              jump_frame;    /* the frame of its last steps */
  guint               jump_frame_steps;
  guint               jump_tick_id;  /* its next step, in the next frame */
  guint               jumping : 1;
  guint               focus_jumped : 1;  /* the row jumped to takes the keyboard */
  guint               focus_last : 1;    /* the last message does, once the end shows */
  guint               updating : 1;      /* the adjustment is set from the view */
  guint               dirty : 1;         /* the view moved or changed since */
  guint               hovering : 1;
};

G_DEFINE_FINAL_TYPE (AgentGtkChatScrollbar, agent_gtk_chat_scrollbar, GTK_TYPE_WIDGET)

/* Shown, faded out */

static gboolean
hide_cb (gpointer data)
{
  AgentGtkChatScrollbar *self = data;

  self->hide_id = 0;
  if (!self->hovering)
    gtk_widget_add_css_class (GTK_WIDGET (self), "idle");
  return G_SOURCE_REMOVE;
}

static void
show_for_a_while (AgentGtkChatScrollbar *self)
{
  gtk_widget_remove_css_class (GTK_WIDGET (self), "idle");
  g_clear_handle_id (&self->hide_id, g_source_remove);
  self->hide_id = g_timeout_add (SHOWN_FOR, hide_cb, self);
}

/* Wide while the pointer is on it (or drags it: GTK keeps the pointer's
 * events for the scrollbar then) */
static void
set_hovering (AgentGtkChatScrollbar *self,
              gboolean               hovering)
{
  self->hovering = !!hovering;
  if (hovering)
    gtk_widget_add_css_class (self->scrollbar, "hovering");
  else
    gtk_widget_remove_css_class (self->scrollbar, "hovering");
  show_for_a_while (self);
}

static void
on_enter (AgentGtkChatScrollbar *self)
{
  set_hovering (self, TRUE);
}

static void
on_leave (AgentGtkChatScrollbar *self)
{
  set_hovering (self, FALSE);
}

/* The rows */

/* The item the list's child @child shows (a message, the card of a failed
 * turn), or NULL */
static GObject *
child_item (GtkWidget *child)
{
  GtkWidget *row = gtk_widget_get_first_child (child);

  return row != NULL && AGENT_GTK_IS_MESSAGE_ROW (row)
         ? agent_gtk_message_row_get_item (AGENT_GTK_MESSAGE_ROW (row)) : NULL;
}

/* The positions of the list's items, by item (plus one: 0 is none), so
 * that the children need not be looked for one by one in the list: made
 * once an update */
static GHashTable *
list_positions (AgentGtkChatScrollbar *self)
{
  GListModel *model = G_LIST_MODEL (gtk_list_view_get_model (self->list_view));
  guint n = model != NULL ? g_list_model_get_n_items (model) : 0;
  GHashTable *positions = g_hash_table_new (NULL, NULL);

  /* The model holds the items while the table is used */
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, i);

      g_hash_table_insert (positions, item, GUINT_TO_POINTER (i + 1));
    }
  return positions;
}

/* The list's child showing the item at @position, or NULL if it has none */
static GtkWidget *
child_at (AgentGtkChatScrollbar *self,
          guint                  position)
{
  GListModel *model = G_LIST_MODEL (gtk_list_view_get_model (self->list_view));
  g_autoptr(GObject) item = model != NULL ? g_list_model_get_item (model, position) : NULL;

  if (item == NULL)
    return NULL;
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->list_view));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (child_item (child) == item)
      return child;
  return NULL;
}

/* The rows of the conversation: its messages (counted by the tail model),
 * before the list's first and in the list, then the card of a failed turn
 * (the list holds the tail model's messages, then that card) */
typedef struct
{
  guint before;    /* messages before the list's first */
  guint shown;     /* messages in the list */
  guint messages;  /* in the whole conversation */
  guint total;     /* rows: the messages, and the card */
} Rows;

static Rows
get_rows (AgentGtkChatScrollbar *self)
{
  GListModel *model = G_LIST_MODEL (gtk_list_view_get_model (self->list_view));
  guint n_list = model != NULL ? g_list_model_get_n_items (model) : 0;
  guint start = agent_gtk_tail_model_get_counted_start (self->tail);
  guint end = agent_gtk_tail_model_get_counted_end (self->tail);
  Rows rows;

  rows.before = start;
  rows.shown = MIN (end - start, n_list);
  rows.messages = agent_gtk_tail_model_get_n_counted (self->tail);
  rows.total = rows.messages + (n_list - rows.shown);
  return rows;
}

/* The row of the conversation at the list's @position */
static guint
row_of (Rows  *rows,
        guint  position)
{
  return position < rows->shown ? rows->before + position
                                : rows->messages + (position - rows->shown);
}

/* Where the view is */

static void
update_position (AgentGtkChatScrollbar *self)
{
  double height = gtk_widget_get_height (GTK_WIDGET (self->list_view));
  double top = G_MAXDOUBLE;
  double value = 0;
  double page = 0;
  Rows rows = get_rows (self);
  guint total = rows.total;
  g_autoptr(GHashTable) positions = list_positions (self);
  g_autofree char *text = NULL;

  self->dirty = FALSE;
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->list_view));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      graphene_rect_t bounds;
      double y, h, seen;
      guint position;

      if (!gtk_widget_get_child_visible (child) ||
          !gtk_widget_compute_bounds (child, GTK_WIDGET (self->list_view), &bounds))
        continue;
      y = bounds.origin.y;
      h = bounds.size.height;
      if (h <= 0 || y + h <= 0 || y >= height)
        continue;
      position = GPOINTER_TO_UINT (g_hash_table_lookup (positions, child_item (child)));
      if (position-- == 0)
        continue;
      seen = MIN (y + h, height) - MAX (y, 0);
      page += seen / h;
      if (y < top)
        {
          top = y;
          value = row_of (&rows, position) + MAX (-y, 0) / h;
        }
    }
  if (top == G_MAXDOUBLE)
    page = total;
  page = CLAMP (page, MIN (1, total), MAX (total, 1));
  /* Flush with the ends of the conversation */
  if (agent_gtk_tail_model_get_n_hidden_after (self->tail) == 0 &&
      gtk_adjustment_get_value (self->list_adjustment) + gtk_adjustment_get_page_size (self->list_adjustment) >=
      gtk_adjustment_get_upper (self->list_adjustment) - 1)
    value = total - page;
  else if (rows.before == 0 &&
           gtk_adjustment_get_value (self->list_adjustment) <= gtk_adjustment_get_lower (self->list_adjustment))
    value = 0;
  value = CLAMP (value, 0, MAX (total - page, 0));

  self->updating = TRUE;
  gtk_adjustment_configure (self->adjustment, value, 0, total, 1, MAX (page, 1), page);
  self->updating = FALSE;
  gtk_widget_set_visible (self->scrollbar, page < total);
  /* Translators: where the view is in the conversation: the message at
   * its top, of how many */
  text = g_strdup_printf (_("Message %u of %u"), MIN ((guint) value + 1, total), total);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->scrollbar),
                                  GTK_ACCESSIBLE_PROPERTY_VALUE_TEXT, text, -1);
}

/* Jumps */

static gboolean
next_frame_cb (GtkWidget     *widget,
               GdkFrameClock *clock,
               gpointer       data)
{
  AgentGtkChatScrollbar *self = data;

  self->jump_tick_id = 0;
  gtk_widget_queue_allocate (GTK_WIDGET (self->list_view));
  return G_SOURCE_REMOVE;
}

/* Lays the list out again for the jump's next step: in this frame, or,
 * after two steps in it, in the next (the frame clock lays a window out
 * four times at most in a frame, and the autoscroll may want some) */
static void
relayout (AgentGtkChatScrollbar *self)
{
  gint64 frame = gdk_frame_clock_get_frame_counter (self->clock);

  if (frame != self->jump_frame)
    {
      self->jump_frame = frame;
      self->jump_frame_steps = 0;
    }
  if (++self->jump_frame_steps <= 2)
    gtk_widget_queue_allocate (GTK_WIDGET (self->list_view));
  else if (self->jump_tick_id == 0)
    self->jump_tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self), next_frame_cb, self,
                                                       NULL);
}

static void
focus_row (GtkWidget *child)
{
  GtkWidget *row = child != NULL ? gtk_widget_get_first_child (child) : NULL;

  if (row != NULL)
    gtk_widget_grab_focus (row);
}

/* One step of the jump under way; whether it is over */
static gboolean
jump_step (AgentGtkChatScrollbar *self)
{
  Rows rows = get_rows (self);
  GtkWidget *child;
  graphene_rect_t bounds;
  double delta;

  if (self->jump_tries++ >= MAX_JUMP_TRIES)
    return TRUE;
  if (self->jump_index < rows.before || self->jump_index >= rows.before + rows.shown)
    {
      /* A window around it first: laid out in the next layout */
      agent_gtk_tail_model_show_counted (self->tail, self->jump_index, N_BEFORE);
      rows = get_rows (self);
      if (self->jump_index < rows.before || self->jump_index >= rows.before + rows.shown)
        return TRUE;
      relayout (self);
      return FALSE;
    }
  child = child_at (self, self->jump_index - rows.before);
  if (child == NULL || !gtk_widget_compute_bounds (child, GTK_WIDGET (self->list_view), &bounds) ||
      bounds.size.height <= 0)
    {
      /* Not made yet: the list makes it as it scrolls to it */
      gtk_widget_activate_action (GTK_WIDGET (self->list_view), "list.scroll-to-item", "u",
                                  self->jump_index - rows.before);
      relayout (self);
      return FALSE;
    }
  delta = bounds.origin.y + self->jump_fraction * bounds.size.height;
  if (fabs (delta) >= 1 &&
      !(delta > 0 && gtk_adjustment_get_value (self->list_adjustment) + gtk_adjustment_get_page_size (
          self->list_adjustment) >= gtk_adjustment_get_upper (self->list_adjustment) - 1) &&
      !(delta < 0 && gtk_adjustment_get_value (self->list_adjustment) <=
                     gtk_adjustment_get_lower (self->list_adjustment)))
    {
      gtk_adjustment_set_value (self->list_adjustment,
                                gtk_adjustment_get_value (self->list_adjustment) + delta);
      relayout (self);
      return FALSE;
    }
  if (self->focus_jumped)
    focus_row (child);
  return TRUE;
}

/* The window is laid out: a jump goes on, or the scrollbar says where the
 * view is now */
static void
on_layout (GdkFrameClock         *clock,
           AgentGtkChatScrollbar *self)
{
  if (!gtk_widget_get_mapped (GTK_WIDGET (self->list_view)) ||
      gtk_widget_get_width (GTK_WIDGET (self->list_view)) == 0)
    return;
  if (self->jumping)
    {
      if (!jump_step (self))
        return;
      self->jumping = FALSE;
      self->focus_jumped = FALSE;
      agent_gtk_autoscroll_set_jumping (self->autoscroll, FALSE);
    }
  if (self->focus_last && agent_gtk_autoscroll_get_following (self->autoscroll) &&
      agent_gtk_tail_model_get_n_hidden_after (self->tail) == 0)
    {
      Rows rows = get_rows (self);

      self->focus_last = FALSE;
      if (rows.shown > 0)
        focus_row (child_at (self, rows.shown - 1));
    }
  if (self->dirty)
    update_position (self);
}

static void
on_view_changed (AgentGtkChatScrollbar *self)
{
  self->dirty = TRUE;
}

static void
on_view_moved (AgentGtkChatScrollbar *self)
{
  self->dirty = TRUE;
  show_for_a_while (self);
}

/* Moved by the user: the view goes there */
static void
on_value_changed (AgentGtkChatScrollbar *self)
{
  double value = gtk_adjustment_get_value (self->adjustment);
  double page = gtk_adjustment_get_page_size (self->adjustment);
  double upper = gtk_adjustment_get_upper (self->adjustment);

  if (self->updating)
    return;
  show_for_a_while (self);
  if (value + page >= upper - 0.01)
    agent_gtk_chat_scrollbar_scroll_to (self, G_MAXUINT, 0, FALSE);
  else
    agent_gtk_chat_scrollbar_scroll_to (self, (guint) floor (value), value - floor (value),
                                        FALSE);
}

/**
 * agent_gtk_chat_scrollbar_scroll_to:
 * @self: a #AgentGtkChatScrollbar
 * @index: a row of the whole conversation (its messages, then the card of
 *   a failed turn), or %G_MAXUINT for the end
 * @fraction: how far into the row the top of the view goes, from 0 to 1
 * @focus: whether the row (the last message, for the end) takes the
 *   keyboard once it shows
 *
 * Brings @index into view at the top of it (the end: follows it), however
 * far in the conversation.
 */
void
agent_gtk_chat_scrollbar_scroll_to (AgentGtkChatScrollbar *self,
                                    guint                  index,
                                    double                 fraction,
                                    gboolean               focus)
{
  Rows rows;

  g_return_if_fail (AGENT_GTK_IS_CHAT_SCROLLBAR (self));

  if (self->list_view == NULL)
    return;
  rows = get_rows (self);
  if (index >= rows.total)
    {
      self->jumping = FALSE;
      self->focus_last = !!focus;
      agent_gtk_autoscroll_set_jumping (self->autoscroll, FALSE);
      agent_gtk_autoscroll_set_following (self->autoscroll, TRUE);
      return;
    }
  /* Not followed from here: on the way, the view may be at the end of
   * what the list holds */
  agent_gtk_autoscroll_set_jumping (self->autoscroll, TRUE);
  self->jumping = TRUE;
  self->focus_jumped = !!focus;
  self->focus_last = FALSE;
  self->jump_index = index;
  self->jump_fraction = CLAMP (fraction, 0, 1);
  self->jump_tries = 0;
  /* A window around it at once, which the list lays out next */
  if (index < rows.before || index >= rows.before + rows.shown)
    agent_gtk_tail_model_show_counted (self->tail, index, N_BEFORE);
  gtk_widget_queue_allocate (GTK_WIDGET (self->list_view));
}

/* The list */

static void
on_realize (AgentGtkChatScrollbar *self)
{
  /* After the autoscroll's handler, which was connected first */
  self->clock = g_object_ref (gtk_widget_get_frame_clock (GTK_WIDGET (self->list_view)));
  self->layout_id = g_signal_connect_after (self->clock, "layout", G_CALLBACK (on_layout), self);
  self->dirty = TRUE;
}

static void
on_unrealize (AgentGtkChatScrollbar *self)
{
  if (self->clock != NULL)
    {
      g_clear_signal_handler (&self->layout_id, self->clock);
      g_clear_object (&self->clock);
    }
}

/**
 * agent_gtk_chat_scrollbar_set_view:
 * @self: a #AgentGtkChatScrollbar
 * @list_view: the chat view's list, in a scrolled window whose vertical
 *   scrollbar is external (this one)
 * @tail: the tail model under the list
 * @autoscroll: the list's autoscroll
 *
 * Says where @list_view is in the whole of @tail's model, and takes it
 * there when moved. Once.
 */
void
agent_gtk_chat_scrollbar_set_view (AgentGtkChatScrollbar *self,
                                   GtkListView           *list_view,
                                   AgentGtkTailModel     *tail,
                                   AgentGtkAutoscroll    *autoscroll)
{
  GtkWidget *scroller;

  g_return_if_fail (AGENT_GTK_IS_CHAT_SCROLLBAR (self));
  g_return_if_fail (GTK_IS_LIST_VIEW (list_view));
  g_return_if_fail (self->list_view == NULL);

  scroller = gtk_widget_get_ancestor (GTK_WIDGET (list_view), GTK_TYPE_SCROLLED_WINDOW);
  self->list_view = g_object_ref (list_view);
  self->list_adjustment = g_object_ref (gtk_scrolled_window_get_vadjustment (
                                          GTK_SCROLLED_WINDOW (scroller)));
  self->tail = g_object_ref (tail);
  self->autoscroll = g_object_ref (autoscroll);
  g_signal_connect_object (self->list_adjustment, "value-changed", G_CALLBACK (on_view_moved),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->list_adjustment, "changed", G_CALLBACK (on_view_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (tail, "items-changed", G_CALLBACK (on_view_changed), self,
                           G_CONNECT_SWAPPED);
  self->list_signals = g_signal_group_new (G_TYPE_LIST_MODEL);
  g_signal_group_connect_swapped (self->list_signals, "items-changed",
                                  G_CALLBACK (on_view_changed), self);
  g_object_bind_property (list_view, "model", self->list_signals, "target", G_BINDING_SYNC_CREATE);
  g_signal_connect_object (list_view, "realize", G_CALLBACK (on_realize), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (list_view, "unrealize", G_CALLBACK (on_unrealize), self,
                           G_CONNECT_SWAPPED);
  if (gtk_widget_get_realized (GTK_WIDGET (list_view)))
    on_realize (self);
}

/**
 * agent_gtk_chat_scrollbar_pointer_moved:
 * @self: a #AgentGtkChatScrollbar
 *
 * The pointer moved over the conversation: the scrollbar shows, for a
 * while.
 */
void
agent_gtk_chat_scrollbar_pointer_moved (AgentGtkChatScrollbar *self)
{
  g_return_if_fail (AGENT_GTK_IS_CHAT_SCROLLBAR (self));

  show_for_a_while (self);
}

/* GObject */

static void
agent_gtk_chat_scrollbar_dispose (GObject *object)
{
  AgentGtkChatScrollbar *self = AGENT_GTK_CHAT_SCROLLBAR (object);

  on_unrealize (self);
  if (self->jump_tick_id != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->jump_tick_id);
      self->jump_tick_id = 0;
    }
  g_clear_handle_id (&self->hide_id, g_source_remove);
  g_clear_object (&self->list_signals);
  g_clear_object (&self->list_adjustment);
  g_clear_object (&self->list_view);
  g_clear_object (&self->tail);
  g_clear_object (&self->autoscroll);
  gtk_widget_dispose_template (GTK_WIDGET (object), AGENT_GTK_TYPE_CHAT_SCROLLBAR);

  G_OBJECT_CLASS (agent_gtk_chat_scrollbar_parent_class)->dispose (object);
}

static void
agent_gtk_chat_scrollbar_class_init (AgentGtkChatScrollbarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = agent_gtk_chat_scrollbar_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/libagent/Gtk/agent-gtk-chat-scrollbar.ui");
  gtk_widget_class_bind_template_child (widget_class, AgentGtkChatScrollbar, scrollbar);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkChatScrollbar, adjustment);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "chatscrollbar");
}

static void
agent_gtk_chat_scrollbar_init (AgentGtkChatScrollbar *self)
{
  GtkEventController *motion;

  AGENT_GTK_INSTANCE_INIT ();
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_widget_add_css_class (self->scrollbar, "vertical");
  gtk_widget_add_css_class (GTK_WIDGET (self), "idle");
  g_signal_connect_object (self->adjustment, "value-changed", G_CALLBACK (on_value_changed), self,
                           G_CONNECT_SWAPPED);

  motion = gtk_event_controller_motion_new ();
  g_signal_connect_swapped (motion, "enter", G_CALLBACK (on_enter), self);
  g_signal_connect_swapped (motion, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (self->scrollbar, motion);
}
