/* agent-cli-documents.h
 *
 * agent-cli's document index: --index DIR, --documents-db PATH,
 * --embedding-model NAME and the search_documents tool.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <agent.h>

#include "agent-cli-output.h"

G_BEGIN_DECLS

extern const GOptionEntry cli_documents_entries[];

/* The search_documents tool over the index (opened, or made with --index) */
AgentTool *cli_documents_tool_new (AgentProvider  *provider,
                                   GError        **error);
/* With --index: brings the index up to date before the turn, telling each
 * file. -1 to go on, else the exit status. */
int        cli_documents_update   (AgentProvider  *provider,
                                   CliOutput      *output,
                                   gboolean        json,
                                   GCancellable   *cancellable);
void       cli_documents_free     (void);

G_END_DECLS
