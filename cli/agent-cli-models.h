/* agent-cli-models.h
 *
 * agent-cli's model manager commands (--list-models --details,
 * --show-model, --pull, --delete-model, --unload-model, --list-running),
 * for servers that have a manager (Ollama).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <agent.h>

#include "agent-cli-output.h"

G_BEGIN_DECLS

extern const GOptionEntry cli_models_entries[];

/* Whether a model command was given (or --details with --list-models) */
gboolean cli_models_wanted (gboolean      list_models);
/* Runs it: the exit status. @cancellable is cancelled by Ctrl-C; @yes
 * answers the question of a delete. */
int      cli_models_run    (AgentProvider *provider,
                            CliOutput     *output,
                            gboolean       json,
                            gboolean       list_models,
                            gboolean       yes,
                            GCancellable  *cancellable);

G_END_DECLS
