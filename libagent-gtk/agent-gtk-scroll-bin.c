/* agent-gtk-scroll-bin.c
 *
 * A scrollable that holds the chat's list view between it and its
 * scrolled window, and answers for its size only what that scrolled
 * window uses: the list's width, no height.
 *
 * The chat's scrolled window has no horizontal scrollbar, so it takes its
 * child's minimum width, and an external vertical one without propagating
 * the natural height, so it takes nothing of its child's height. GTK 4.8's
 * GtkScrolledWindow measures its child at -1 in both orientations all the
 * same, at each of its measures and allocations, and on X11 GtkWindow
 * measures the whole window at each layout for GdkToplevel::compute-size.
 * GtkListView answers a height at -1 by measuring each of its rows at -1:
 * each label of a row that changed (an answer streaming) lays its text out
 * again on a single line, a height nothing reads. Here the list is asked
 * only for its width; its height at -1 is 0, and the list is allocated
 * what the bin is given, as it would be by the scrolled window.
 *
 * Workaround, GTK 4.8 (fix version not known): with a GTK whose scrolled
 * window does not measure what its policies ignore, the list goes back
 * into the scrolled window; bench-gui (the HarfBuzz shapings of a
 * 100 deltas/s stream, bench/RESULTS.md) and test-gtk-widgets decide.
 *
 * The scrolling itself is the list's: the adjustments and scroll policies
 * set on the bin are the list's own. The bin keeps them too, so that a
 * child set later gets those its scrolled window gave before.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "agent-gtk-config.h"

#include "agent-gtk-scroll-bin-private.h"

struct _AgentGtkScrollBin
{
  GtkWidget  parent_instance;

  GtkWidget *child;

  /* GtkScrollable's, as last set: handed to a child set later */
  GtkAdjustment       *hadjustment;
  GtkAdjustment       *vadjustment;
  GtkScrollablePolicy  hscroll_policy;
  GtkScrollablePolicy  vscroll_policy;
};

enum
{
  PROP_0,
  PROP_CHILD,
  N_PROPS,
  /* GtkScrollable's */
  PROP_HADJUSTMENT = N_PROPS,
  PROP_VADJUSTMENT,
  PROP_HSCROLL_POLICY,
  PROP_VSCROLL_POLICY,
};

static GParamSpec *properties[N_PROPS];

static void agent_gtk_scroll_bin_scrollable_init (GtkScrollableInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AgentGtkScrollBin, agent_gtk_scroll_bin, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_SCROLLABLE,
                                                      agent_gtk_scroll_bin_scrollable_init))

/* The scrollable the bin stands for: its child, once it has one */
static GtkScrollable *
get_scrollable (AgentGtkScrollBin *self)
{
  return self->child != NULL ? GTK_SCROLLABLE (self->child) : NULL;
}

/* Hands what the bin was given to its child */
static void
pass_on_scrollable (AgentGtkScrollBin *self)
{
  GtkScrollable *scrollable = get_scrollable (self);

  if (scrollable == NULL)
    return;
  gtk_scrollable_set_hadjustment (scrollable, self->hadjustment);
  gtk_scrollable_set_vadjustment (scrollable, self->vadjustment);
  gtk_scrollable_set_hscroll_policy (scrollable, self->hscroll_policy);
  gtk_scrollable_set_vscroll_policy (scrollable, self->vscroll_policy);
}

static void
agent_gtk_scroll_bin_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  AgentGtkScrollBin *self = AGENT_GTK_SCROLL_BIN (object);

  switch (prop_id)
    {
    case PROP_CHILD:
      g_value_set_object (value, self->child);
      break;
    /* The child's: it makes its own where it was given none */
    case PROP_HADJUSTMENT:
      g_value_set_object (value, get_scrollable (self) != NULL
                                 ? gtk_scrollable_get_hadjustment (get_scrollable (self))
                                 : self->hadjustment);
      break;
    case PROP_VADJUSTMENT:
      g_value_set_object (value, get_scrollable (self) != NULL
                                 ? gtk_scrollable_get_vadjustment (get_scrollable (self))
                                 : self->vadjustment);
      break;
    case PROP_HSCROLL_POLICY:
      g_value_set_enum (value, self->hscroll_policy);
      break;
    case PROP_VSCROLL_POLICY:
      g_value_set_enum (value, self->vscroll_policy);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_gtk_scroll_bin_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  AgentGtkScrollBin *self = AGENT_GTK_SCROLL_BIN (object);

  switch (prop_id)
    {
    case PROP_CHILD:
      agent_gtk_scroll_bin_set_child (self, g_value_get_object (value));
      return;
    case PROP_HADJUSTMENT:
      g_set_object (&self->hadjustment, g_value_get_object (value));
      break;
    case PROP_VADJUSTMENT:
      g_set_object (&self->vadjustment, g_value_get_object (value));
      break;
    case PROP_HSCROLL_POLICY:
      self->hscroll_policy = g_value_get_enum (value);
      break;
    case PROP_VSCROLL_POLICY:
      self->vscroll_policy = g_value_get_enum (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      return;
    }
  pass_on_scrollable (self);
}

static gboolean
agent_gtk_scroll_bin_get_border (GtkScrollable *scrollable,
                                 GtkBorder     *border)
{
  AgentGtkScrollBin *self = AGENT_GTK_SCROLL_BIN (scrollable);

  return get_scrollable (self) != NULL && gtk_scrollable_get_border (get_scrollable (self), border);
}

static void
agent_gtk_scroll_bin_scrollable_init (GtkScrollableInterface *iface)
{
  iface->get_border = agent_gtk_scroll_bin_get_border;
}

static GtkSizeRequestMode
agent_gtk_scroll_bin_get_request_mode (GtkWidget *widget)
{
  AgentGtkScrollBin *self = AGENT_GTK_SCROLL_BIN (widget);

  return self->child != NULL ? gtk_widget_get_request_mode (self->child)
                             : GTK_SIZE_REQUEST_CONSTANT_SIZE;
}

/* The list's width; no height (see above) */
static void
agent_gtk_scroll_bin_measure (GtkWidget      *widget,
                              GtkOrientation  orientation,
                              int             for_size,
                              int            *minimum,
                              int            *natural,
                              int            *minimum_baseline,
                              int            *natural_baseline)
{
  AgentGtkScrollBin *self = AGENT_GTK_SCROLL_BIN (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL &&
      self->child != NULL && gtk_widget_get_visible (self->child))
    gtk_widget_measure (self->child, orientation, for_size, minimum, natural, NULL, NULL);
}

static void
agent_gtk_scroll_bin_size_allocate (GtkWidget *widget,
                                    int        width,
                                    int        height,
                                    int        baseline)
{
  AgentGtkScrollBin *self = AGENT_GTK_SCROLL_BIN (widget);

  if (self->child != NULL && gtk_widget_get_visible (self->child))
    gtk_widget_allocate (self->child, width, height, baseline, NULL);
}

static void
agent_gtk_scroll_bin_dispose (GObject *object)
{
  AgentGtkScrollBin *self = AGENT_GTK_SCROLL_BIN (object);

  g_clear_pointer (&self->child, gtk_widget_unparent);
  g_clear_object (&self->hadjustment);
  g_clear_object (&self->vadjustment);
  G_OBJECT_CLASS (agent_gtk_scroll_bin_parent_class)->dispose (object);
}

static void
agent_gtk_scroll_bin_class_init (AgentGtkScrollBinClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = agent_gtk_scroll_bin_get_property;
  object_class->set_property = agent_gtk_scroll_bin_set_property;
  object_class->dispose = agent_gtk_scroll_bin_dispose;
  widget_class->get_request_mode = agent_gtk_scroll_bin_get_request_mode;
  widget_class->measure = agent_gtk_scroll_bin_measure;
  widget_class->size_allocate = agent_gtk_scroll_bin_size_allocate;

  properties[PROP_CHILD] =
    g_param_spec_object ("child", NULL, NULL, GTK_TYPE_WIDGET,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  g_object_class_override_property (object_class, PROP_HADJUSTMENT, "hadjustment");
  g_object_class_override_property (object_class, PROP_VADJUSTMENT, "vadjustment");
  g_object_class_override_property (object_class, PROP_HSCROLL_POLICY, "hscroll-policy");
  g_object_class_override_property (object_class, PROP_VSCROLL_POLICY, "vscroll-policy");

  /* A plain container for screen readers, the list inside it. (Not
   * "presentation": GTK 4.8 then hides the list with it.) */
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GENERIC);
}

static void
agent_gtk_scroll_bin_init (AgentGtkScrollBin *self)
{
}

GtkWidget *
agent_gtk_scroll_bin_get_child (AgentGtkScrollBin *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_SCROLL_BIN (self), NULL);
  return self->child;
}

/* Sets @child, a #GtkScrollable, which takes the bin's adjustments and
 * scroll policies, whether they were set before it or after */
void
agent_gtk_scroll_bin_set_child (AgentGtkScrollBin *self,
                                GtkWidget         *child)
{
  g_return_if_fail (AGENT_GTK_IS_SCROLL_BIN (self));
  g_return_if_fail (child == NULL || GTK_IS_SCROLLABLE (child));

  if (self->child == child)
    return;
  g_clear_pointer (&self->child, gtk_widget_unparent);
  if (child != NULL)
    {
      self->child = child;
      gtk_widget_set_parent (child, GTK_WIDGET (self));
      pass_on_scrollable (self);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CHILD]);
}
