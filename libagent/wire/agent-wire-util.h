/* agent-wire-util.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

char *agent_wire_format_limit (gsize limit);

G_END_DECLS
