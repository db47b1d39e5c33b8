/* agent-gtk-tool-card-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agent-gtk-tool-card.h"

G_BEGIN_DECLS

char *_agent_gtk_pretty_json (const char *json);

G_END_DECLS
