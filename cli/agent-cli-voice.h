/* agent-cli-voice.h
 *
 * agent-cli's voice commands: --transcribe FILE (speech to text) and
 * --speak TEXT (text to speech), through the provider's OpenAI-compatible
 * /audio endpoints.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <agent.h>

#include "agent-cli-output.h"

G_BEGIN_DECLS

extern const GOptionEntry cli_voice_entries[];

/* Whether --transcribe or --speak was given */
gboolean cli_voice_wanted        (void);
/* Whether the text to speak is standard input's (--speak -) */
gboolean cli_voice_reads_stdin   (void);
/* Runs it: the exit status. @stdin_text is standard input's text when
 * cli_voice_reads_stdin(); @cancellable is cancelled by Ctrl-C. */
int      cli_voice_run           (AgentProvider *provider,
                                  CliOutput     *output,
                                  gboolean       json,
                                  const char    *stdin_text,
                                  GCancellable  *cancellable);

G_END_DECLS
