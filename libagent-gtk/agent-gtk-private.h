/* agent-gtk-private.h — what every source of the library includes
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agent-gtk.h"

G_BEGIN_DECLS

/* Every widget's instance init, first: the library is set up (its style
 * sheet needs a display: not in class_init, which g-ir-scanner runs
 * without one). The templates name their gettext domain,
 * <interface domain="libagent-gtk-1">. */
#define AGENT_GTK_INSTANCE_INIT() agent_gtk_init ()

G_END_DECLS
