/* agent-chat-default-spin.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void agent_chat_default_spin_init (GtkSpinButton *spin,
                                   const char    *unset_text);

G_END_DECLS
