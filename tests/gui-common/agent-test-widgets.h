/* agent-test-widgets.h — the helper library of the GUI tests, tests/gtk
 * (libagent-gtk's widgets) and tests/chat (agent-chat): widgets found, text
 * read off them, and the main loop run until frames are drawn; each helper
 * under one name with one meaning for both
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Setting up */
char      *agent_test_gui_init (int          *argc,
                                char       ***argv);
int        agent_test_gui_run  (char         *data_home);
GtkWidget *show_in_window      (GtkWidget    *child);

/* Finding widgets */
GPtrArray *find_all            (GtkWidget    *widget,
                                GType         type);
GPtrArray *find_visible        (GtkWidget    *widget,
                                GType         type);
GtkWidget *find_with_class     (GtkWidget    *widget,
                                GType         type,
                                const char   *css_class);
GtkWidget *find_button         (GtkWidget    *widget,
                                const char   *label);

/* What they show */
char      *shown_text          (GtkWidget    *widget);
char      *markdown_labels     (GtkWidget    *markdown);
char      *widget_label_text   (GtkWidget    *widget,
                                gboolean      shown);
void       assert_shows        (GtkWidget    *widget,
                                const char   *text);
void       wait_until_shown    (GtkWidget    *widget,
                                const char   *text);

/* Waiting */
void       iterate             (void);
void       wait_painted        (GtkWidget    *window,
                                guint         n);
void       wait_frames         (GtkWidget    *window,
                                guint         n);

G_END_DECLS
