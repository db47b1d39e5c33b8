/* agent-util-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

void _agent_run_on_owner (GObject      *object,
                          GThread      *owner,
                          GMainContext *context,
                          GSourceFunc   func);

G_END_DECLS
