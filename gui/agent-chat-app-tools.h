/* agent-chat-app-tools.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

void agent_chat_app_tools_add_rows (AdwExpanderRow *expander,
                                    const char     *app_id);
void agent_chat_app_tools_refresh  (AdwExpanderRow *expander);

G_END_DECLS
