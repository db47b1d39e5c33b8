/* agent-chat-a11y.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "agent-gtk-a11y-private.h"

G_BEGIN_DECLS

void agent_chat_a11y_name_status_page  (AdwStatusPage *page);
void agent_chat_a11y_name_toasts       (AdwToastOverlay *overlay);
void agent_chat_a11y_name_button       (GtkWidget       *button);

G_END_DECLS
