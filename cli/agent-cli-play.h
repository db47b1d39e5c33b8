/* agent-cli-play.h
 *
 * agent-cli's audio player: --speak without --output plays the audio as
 * it arrives, through the sound server's own player (pw-play, paplay) or
 * ALSA's (aplay), fed on its standard input.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct _CliPlayer CliPlayer;

/* A player started, waiting for audio on cli_player_get_stream(); NULL
 * with AGENT_ERROR_UNSUPPORTED when no sound server runs or no player is
 * found (the message tells to use --output) */
CliPlayer     *cli_player_new        (GCancellable  *cancellable,
                                      GError       **error);
/* Hands the player @bytes, without waiting: they are written to it in
 * the background, in order, so that the main loop goes on (Ctrl-C, the
 * server's stream) while the player takes them at its pace */
void           cli_player_write      (CliPlayer     *self,
                                      GBytes        *bytes);
/* The program playing, e.g. "pw-play" */
const char    *cli_player_get_name   (CliPlayer     *self);
/* Waits for what was handed to be written, ends the audio and waits for
 * the player to have played it: FALSE with @error when it failed */
gboolean       cli_player_finish     (CliPlayer     *self,
                                      GCancellable  *cancellable,
                                      GError       **error);
/* Stops the player if it still plays, and frees it */
void           cli_player_free       (CliPlayer     *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CliPlayer, cli_player_free)

G_END_DECLS
