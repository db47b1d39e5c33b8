/* agent-test-widgets.h — what both kinds of GUI tests (libagent-gtk's
 * widgets, agent-test-gtk.c; agent-chat's, agent-test-gui.c) read off
 * widgets the same way
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void  iterate         (void);
char *shown_text      (GtkWidget *widget);
char *markdown_labels (GtkWidget *markdown);
void  wait_painted    (GtkWidget *window,
                       guint      n);

G_END_DECLS
