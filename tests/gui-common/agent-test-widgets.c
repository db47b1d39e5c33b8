/* agent-test-widgets.c — see agent-test-widgets.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <adwaita.h>

#include "agent-test-widgets.h"
#include "agent-test-util.h"

/* Setting up */

/* Sets up GTK and libadwaita under the test display, with the windows'
 * conversations in a new data directory of their own; returns it. */
char *
agent_test_gui_init (int    *argc,
                     char ***argv)
{
  char *data_home = agent_test_make_dir ("test-gui");

  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  gtk_test_init (argc, argv, NULL);
  adw_init ();
  /* Toasts come and go at once */
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);
  return data_home;
}

/* Runs the tests, then removes @data_home (freed) and agent-chat's database
 * in it */
int
agent_test_gui_run (char *data_home)
{
  g_autofree char *store_dir = g_build_filename (data_home, "agent-chat", NULL);
  int status = g_test_run ();

  if (g_file_test (store_dir, G_FILE_TEST_IS_DIR))
    agent_test_remove_dir (store_dir);
  agent_test_remove_dir (data_home);
  g_free (data_home);
  return status;
}

/* @child alone in a new window, 400 × 600, shown */
GtkWidget *
show_in_window (GtkWidget *child)
{
  GtkWidget *window = gtk_window_new ();

  gtk_window_set_default_size (GTK_WINDOW (window), 400, 600);
  gtk_window_set_child (GTK_WINDOW (window), child);
  gtk_window_present (GTK_WINDOW (window));
  iterate ();
  return window;
}

/* Finding widgets */

static void
collect (GtkWidget *widget,
         GType      type,
         gboolean   visible_only,
         GPtrArray *found)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if ((!visible_only || gtk_widget_get_visible (child)) &&
          G_TYPE_CHECK_INSTANCE_TYPE (child, type))
        g_ptr_array_add (found, child);
      collect (child, type, visible_only, found);
    }
}

/* Every widget of @type below @widget, hidden or not, in the order of the
 * widget tree */
GPtrArray *
find_all (GtkWidget *widget,
          GType      type)
{
  GPtrArray *found = g_ptr_array_new ();

  collect (widget, type, FALSE, found);
  return found;
}

/* The widgets of @type below @widget that are visible themselves (their
 * :visible property; a parent may still hide them) */
GPtrArray *
find_visible (GtkWidget *widget,
              GType      type)
{
  GPtrArray *found = g_ptr_array_new ();

  collect (widget, type, TRUE, found);
  return found;
}

/* The first widget of @type in @widget with the style class @css_class */
GtkWidget *
find_with_class (GtkWidget  *widget,
                 GType       type,
                 const char *css_class)
{
  g_autoptr(GPtrArray) found = find_all (widget, type);

  for (guint i = 0; i < found->len; i++)
    if (gtk_widget_has_css_class (g_ptr_array_index (found, i), css_class))
      return g_ptr_array_index (found, i);
  return NULL;
}

/* A button shown in @widget (it and its parents visible, and not left out
 * by its parent) whose label, its label child's, or its tooltip (an icon
 * button's, its accessible name too) is @label */
GtkWidget *
find_button (GtkWidget  *widget,
             const char *label)
{
  g_autoptr(GPtrArray) buttons = find_all (widget, GTK_TYPE_BUTTON);

  for (guint i = 0; i < buttons->len; i++)
    {
      GtkWidget *button = g_ptr_array_index (buttons, i);
      GtkWidget *child = gtk_button_get_child (GTK_BUTTON (button));
      const char *child_label = child && GTK_IS_LABEL (child) ? gtk_label_get_label (GTK_LABEL (child))
                                                              : NULL;

      if (gtk_widget_is_visible (button) && gtk_widget_get_child_visible (button) &&
          (g_strcmp0 (gtk_button_get_label (GTK_BUTTON (button)), label) == 0 ||
           g_strcmp0 (child_label, label) == 0 ||
           g_strcmp0 (gtk_widget_get_tooltip_text (button), label) == 0))
        return button;
    }
  return NULL;
}

/* The main loop, and what widgets show */

/* Runs the main loop until it has nothing left to do, a few times over */
void
iterate (void)
{
  for (guint i = 0; i < 5; i++)
    while (g_main_context_iteration (NULL, FALSE))
      ;
}

/* The text of a label (its markup unless @shown), or of a label's
 * look-alike: the paragraph of an answer streaming in (libagent-gtk's
 * agent-gtk-stream-paragraph.c, read from its properties); NULL for other
 * widgets */
char *
widget_label_text (GtkWidget *widget,
                   gboolean   shown)
{
  char *text = NULL;

  if (GTK_IS_LABEL (widget))
    return g_strdup (shown ? gtk_label_get_text (GTK_LABEL (widget))
                           : gtk_label_get_label (GTK_LABEL (widget)));
  if (gtk_accessible_get_accessible_role (GTK_ACCESSIBLE (widget)) != GTK_ACCESSIBLE_ROLE_LABEL ||
      g_object_class_find_property (G_OBJECT_GET_CLASS (widget), "text") == NULL ||
      g_object_class_find_property (G_OBJECT_GET_CLASS (widget), "label") == NULL)
    return NULL;
  g_object_get (widget, shown ? "text" : "label", &text, NULL);
  return text != NULL ? text : g_strdup ("");
}

/* The labels' text, one a line: those shown (@shown), or all of them,
 * their markup */
static void
collect_text (GtkWidget *widget,
              gboolean   shown,
              GString   *text)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      g_autofree char *label = NULL;

      if (shown && (!gtk_widget_get_visible (child) || !gtk_widget_get_child_visible (child)))
        continue;
      label = widget_label_text (child, shown);
      if (label != NULL)
        g_string_append_printf (text, "%s\n", label);
      collect_text (child, shown, text);
    }
}

/* The text of every label shown in @widget, one a line (a GtkStack's
 * pages not shown, and hidden widgets, left out) */
char *
shown_text (GtkWidget *widget)
{
  GString *text = g_string_new (NULL);

  iterate ();
  collect_text (widget, TRUE, text);
  return g_string_free (text, FALSE);
}

/* The label markup of a Markdown view, all its labels joined (hidden ones
 * too) */
char *
markdown_labels (GtkWidget *markdown)
{
  GString *text = g_string_new (NULL);

  collect_text (markdown, FALSE, text);
  return g_string_free (text, FALSE);
}

/* @widget shows @text, in a label */
void
assert_shows (GtkWidget  *widget,
              const char *text)
{
  g_autofree char *shown = shown_text (widget);

  agent_test_assert_contains (shown, text);
}

typedef struct
{
  GtkWidget  *widget;
  const char *text;
} Shows;

static gboolean
shows (gpointer data)
{
  Shows *shows = data;
  g_autofree char *text = shown_text (shows->widget);

  return strstr (text, shows->text) != NULL;
}

/* Until @widget shows @text, in a label */
void
wait_until_shown (GtkWidget  *widget,
                  const char *text)
{
  Shows data = { widget, text };

  agent_test_wait_until (shows, &data);
}

typedef struct
{
  guint painted;
  guint until;
} PaintWait;

static void
count_paint (GdkFrameClock *clock,
             PaintWait     *wait)
{
  wait->painted++;
}

static gboolean
painted_enough (gpointer data)
{
  PaintWait *wait = data;

  return wait->painted >= wait->until;
}

/* Until @window painted @n frames after this call: what changed before it
 * is then laid out and drawn (nothing more is queued here) */
void
wait_painted (GtkWidget *window,
              guint      n)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (window);
  PaintWait wait = { 0, n };
  gulong id = g_signal_connect (clock, "after-paint", G_CALLBACK (count_paint), &wait);

  agent_test_wait_until (painted_enough, &wait);
  g_signal_handler_disconnect (clock, id);
}

/* Until @window drew @n frames, each asked for here: what changed before
 * the call is laid out and drawn after the first */
void
wait_frames (GtkWidget *window,
             guint      n)
{
  for (guint i = 0; i < n; i++)
    {
      gtk_widget_queue_draw (window);
      wait_painted (window, 1);
    }
}
