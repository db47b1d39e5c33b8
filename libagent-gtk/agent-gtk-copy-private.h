/* agent-gtk-copy-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void _agent_gtk_copy_text (GtkWidget  *button,
                           const char *text);

G_END_DECLS
