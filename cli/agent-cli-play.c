/* agent-cli-play.c — audio played through the sound server
 *
 * The audio of --speak is not decoded here: a player of the system plays
 * it, reading it on its standard input as it arrives from the server, so
 * that speech starts before the last byte is in. A sound server must be
 * there: PipeWire (its socket, or PIPEWIRE_REMOTE) or PulseAudio (its
 * socket, or PULSE_SERVER). Its players come first: pw-play for PipeWire,
 * paplay for both (PipeWire serves PulseAudio's protocol), then aplay,
 * which ALSA routes to the server. Without a server, nothing would be
 * heard, and the user is told to write the audio with --output instead.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include <agent.h>

#include "agent-cli-play.h"

struct _CliPlayer
{
  GSubprocess  *process;
  char         *name;
  GQueue        pending;      /* GBytes to write, in order */
  GBytes       *current;      /* being written */
  gboolean      writing;
  GError       *write_error;  /* the first; what follows is dropped */
  GCancellable *cancellable;  /* stops the writing when freed */
};

/* Whether @name is in the runtime directory (a server's socket) */
static gboolean
in_runtime_dir (const char *name)
{
  const char *dir = g_getenv ("XDG_RUNTIME_DIR");
  g_autofree char *path = NULL;

  if (dir == NULL || *dir == '\0')
    return FALSE;
  path = g_build_filename (dir, name, NULL);
  return g_file_test (path, G_FILE_TEST_EXISTS);
}

static gboolean
has_pipewire (void)
{
  return g_getenv ("PIPEWIRE_REMOTE") != NULL || in_runtime_dir ("pipewire-0");
}

static gboolean
has_pulseaudio (void)
{
  return g_getenv ("PULSE_SERVER") != NULL || in_runtime_dir ("pulse/native");
}

CliPlayer *
cli_player_new (GCancellable  *cancellable,
                GError       **error)
{
  /* Each reads standard input: pw-play with "-", the others by default */
  static const struct { const char *name; gboolean pipewire_only; const char *arg; } players[] = {
    { "pw-play", TRUE, "-" },
    { "paplay", FALSE, NULL },
    { "aplay", FALSE, NULL },
  };
  gboolean pipewire = has_pipewire ();
  g_autoptr(CliPlayer) self = NULL;

  if (!pipewire && !has_pulseaudio ())
    {
      g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_UNSUPPORTED,
                           _("No sound server (PipeWire or PulseAudio) is running to play the "
                             "audio: give --output FILE to write it to a file (or - for "
                             "standard output)"));
      return NULL;
    }

  for (guint i = 0; i < G_N_ELEMENTS (players); i++)
    {
      g_autofree char *path = NULL;
      const char *argv[3] = { NULL, players[i].arg, NULL };

      if (players[i].pipewire_only && !pipewire)
        continue;
      if ((path = g_find_program_in_path (players[i].name)) == NULL)
        continue;

      argv[0] = path;
      self = g_new0 (CliPlayer, 1);
      self->name = g_strdup (players[i].name);
      self->cancellable = g_cancellable_new ();
      g_queue_init (&self->pending);
      self->process = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDIN_PIPE, error);
      if (self->process == NULL)
        {
          g_prefix_error (error, _("Could not start %s to play the audio: "), players[i].name);
          return NULL;
        }
      return g_steal_pointer (&self);
    }

  g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_UNSUPPORTED,
                       _("No audio player (pw-play, paplay or aplay) was found to play the "
                         "audio: install one, or give --output FILE to write it to a file"));
  return NULL;
}

static GOutputStream *
get_stream (CliPlayer *self)
{
  return g_subprocess_get_stdin_pipe (self->process);
}

static void write_next (CliPlayer *self);

static void
written_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  CliPlayer *self = user_data;
  g_autoptr(GBytes) current = g_steal_pointer (&self->current);
  g_autoptr(GError) error = NULL;
  gssize n;

  self->writing = FALSE;
  n = g_output_stream_write_bytes_finish (G_OUTPUT_STREAM (object), result, &error);
  if (n < 0 || g_cancellable_is_cancelled (self->cancellable))
    {
      if (self->write_error == NULL && error != NULL)
        self->write_error = g_steal_pointer (&error);
      g_queue_clear_full (&self->pending, (GDestroyNotify) g_bytes_unref);
      return;
    }
  /* What the pipe did not take yet goes first */
  if ((gsize) n < g_bytes_get_size (current))
    g_queue_push_head (&self->pending,
                       g_bytes_new_from_bytes (current, n, g_bytes_get_size (current) - n));
  write_next (self);
}

/* The first bytes pending, written (what is not taken stays first) */
static void
write_next (CliPlayer *self)
{
  if (self->writing || self->write_error != NULL || g_queue_is_empty (&self->pending))
    return;

  self->writing = TRUE;
  self->current = g_queue_pop_head (&self->pending);
  g_output_stream_write_bytes_async (get_stream (self), self->current, G_PRIORITY_DEFAULT,
                                     self->cancellable, written_cb, self);
}

void
cli_player_write (CliPlayer *self,
                  GBytes    *bytes)
{
  if (self->write_error != NULL || g_bytes_get_size (bytes) == 0)
    return;
  g_queue_push_tail (&self->pending, g_bytes_ref (bytes));
  write_next (self);
}

const char *
cli_player_get_name (CliPlayer *self)
{
  return self->name;
}

static void
waited_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

gboolean
cli_player_finish (CliPlayer     *self,
                   GCancellable  *cancellable,
                   GError       **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) local_error = NULL;

  /* What was handed, played to its end */
  while ((self->writing || !g_queue_is_empty (&self->pending)) && self->write_error == NULL &&
         !g_cancellable_is_cancelled (cancellable))
    g_main_context_iteration (NULL, TRUE);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  if (self->write_error != NULL ||
      !g_output_stream_close (get_stream (self), cancellable, &local_error))
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_FAILED, _("%s stopped taking the audio: %s"),
                   self->name,
                   self->write_error ? self->write_error->message : local_error->message);
      return FALSE;
    }

  /* The main loop goes on while it plays: Ctrl-C cancels */
  g_subprocess_wait_async (self->process, cancellable, waited_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  if (!g_subprocess_wait_finish (self->process, result, &local_error))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  if (!g_subprocess_get_if_exited (self->process) || g_subprocess_get_exit_status (self->process))
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_FAILED,
                   _("%s could not play the audio (it ended with status %d): give --output "
                     "FILE to write it to a file instead"),
                   self->name,
                   g_subprocess_get_if_exited (self->process) ?
                   g_subprocess_get_exit_status (self->process) : -1);
      return FALSE;
    }

  return TRUE;
}

void
cli_player_free (CliPlayer *self)
{
  /* A write under way is cancelled, and its callback waited for: it
   * holds @self */
  g_cancellable_cancel (self->cancellable);
  while (self->writing)
    g_main_context_iteration (NULL, TRUE);
  g_queue_clear_full (&self->pending, (GDestroyNotify) g_bytes_unref);
  g_clear_pointer (&self->current, g_bytes_unref);
  if (self->process != NULL && g_subprocess_get_identifier (self->process) != NULL)
    g_subprocess_force_exit (self->process);
  g_clear_object (&self->process);
  g_clear_error (&self->write_error);
  g_clear_object (&self->cancellable);
  g_free (self->name);
  g_free (self);
}
