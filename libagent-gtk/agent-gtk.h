/* agent-gtk.h
 *
 * libagent-gtk: the chat of libagent as widgets any GTK 4 application can
 * embed — the conversation, its Markdown, tool cards, approval prompts, the
 * composer with Stop, error cards with Retry, and forms for what MCP
 * servers ask the user.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <agent.h>
#include <gtk/gtk.h>

#define AGENT_GTK_INSIDE
# include "agent-gtk-version.h"
# include "agent-gtk-version-macros.h"
# include "agent-gtk-init.h"
# include "agent-gtk-approval-prompt.h"
# include "agent-gtk-chat-view.h"
# include "agent-gtk-composer.h"
# include "agent-gtk-elicitation-form.h"
# include "agent-gtk-error-card.h"
# include "agent-gtk-markdown-view.h"
# include "agent-gtk-tool-card.h"
#undef AGENT_GTK_INSIDE
