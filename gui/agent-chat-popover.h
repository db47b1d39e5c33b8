/* agent-chat-popover.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void agent_chat_popover_forward_shortcuts (GtkPopover *popover);

G_END_DECLS
