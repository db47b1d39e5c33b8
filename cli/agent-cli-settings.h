/* agent-cli-settings.h — what the requests ask: sampling, tool choice,
 * provider options and headers, prompt caching, Ollama's keep-alive
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <agent.h>

G_BEGIN_DECLS

extern const GOptionEntry cli_settings_entries[];

gboolean cli_settings_apply (AgentSession  *session,
                             GError       **error);

G_END_DECLS
