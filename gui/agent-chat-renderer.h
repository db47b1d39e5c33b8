/* agent-chat-renderer.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

gboolean    agent_chat_renderer_is_software (const char *gl_renderer);
char       *agent_chat_renderer_probe_gl    (GdkDisplay *display);
const char *agent_chat_choose_renderer      (GdkDisplay *display);

G_END_DECLS
