/* agent-cli-log.h — what of GLib's log agent-cli shows
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

void cli_log_init (void);

G_END_DECLS
