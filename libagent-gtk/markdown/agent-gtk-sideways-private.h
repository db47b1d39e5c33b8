/* agent-gtk-sideways-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void _agent_gtk_sideways_init (GtkScrolledWindow *scroller);

G_END_DECLS
