/* agent-gtk-composer-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agent-gtk-composer.h"

G_BEGIN_DECLS

GtkWidget *_agent_gtk_composer_get_placeholder (AgentGtkComposer *self);

G_END_DECLS
