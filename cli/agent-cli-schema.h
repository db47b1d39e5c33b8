/* agent-cli-schema.h
 *
 * --schema FILE: answers that are JSON objects following a JSON Schema.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <agent.h>

#include "agent-cli-output.h"

G_BEGIN_DECLS

gboolean cli_schema_attach (AgentSession  *session,
                            CliOutput     *output,
                            const char    *path,
                            GError       **error);

G_END_DECLS
