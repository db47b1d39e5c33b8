/* agent-gtk-init.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGENT_GTK_INSIDE) && !defined(AGENT_GTK_COMPILATION)
# error "Only <agent-gtk.h> can be included directly."
#endif

#include <glib.h>

#include "agent-gtk-version-macros.h"

G_BEGIN_DECLS

AGENT_GTK_AVAILABLE_IN_ALL
void agent_gtk_init (void);

G_END_DECLS
