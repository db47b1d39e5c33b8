/* agent-cli-voice.c — speech to text and text to speech from agent-cli
 *
 * --transcribe FILE   prints the text as it is recognized (the server
 *                     streams it where it can: stream=true is asked for,
 *                     and ignored by the servers that cannot)
 * --speak TEXT|-      writes the audio to --output FILE (- for standard
 *                     output, to pipe it to a player) as it arrives, or
 *                     without --output plays it as it arrives, where a
 *                     sound server runs (agent-cli-play.c); with
 *                     --local-voice, espeak-ng's WAV, no server
 *
 * With --json, one object per line: {"type": "transcript-delta", "text"}
 * per piece of a streamed transcript, then {"type": "transcript", "text",
 * "language", "duration"}; {"type": "speech", "output" (or "player"),
 * "content_type", "size"} once the audio is written or played; an error
 * is {"type": "error", …} as for a turn.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <gio/gunixoutputstream.h>

#include "agent-cli-play.h"
#include "agent-cli-voice.h"

#define EXIT_INTERRUPTED 130

static char *opt_transcribe;
static char *opt_speak;
static char *opt_output;
static char *opt_voice;
static char *opt_language;
static char *opt_transcription_model;
static char *opt_speech_model;
static gboolean opt_local_voice;

const GOptionEntry cli_voice_entries[] = {
  { "transcribe", 0, 0, G_OPTION_ARG_FILENAME, &opt_transcribe,
    N_("Print the text spoken in an audio file (flac, m4a, mp3, mp4, mpeg, mpga, oga, ogg, "
       "opus, wav, webm) and exit"), N_("FILE") },
  { "language", 0, 0, G_OPTION_ARG_STRING, &opt_language,
    N_("The language spoken in the file to --transcribe, as an ISO-639-1 code (de)"),
    N_("CODE") },
  { "transcription-model", 0, 0, G_OPTION_ARG_STRING, &opt_transcription_model,
    N_("The model that transcribes (default: whisper-1)"), N_("MODEL") },
  { "speak", 0, 0, G_OPTION_ARG_STRING, &opt_speak,
    N_("Speak TEXT (- for standard input) and exit: the audio is played, or written to "
       "the --output file"), N_("TEXT") },
  { "output", 'o', 0, G_OPTION_ARG_FILENAME, &opt_output,
    N_("Where --speak writes the audio (- for standard output) instead of playing it"),
    N_("FILE") },
  { "voice", 0, 0, G_OPTION_ARG_STRING, &opt_voice,
    N_("The voice that speaks (default: alloy)"), N_("NAME") },
  { "speech-model", 0, 0, G_OPTION_ARG_STRING, &opt_speech_model,
    N_("The model that speaks (default: tts-1)"), N_("MODEL") },
  { "local-voice", 0, 0, G_OPTION_ARG_NONE, &opt_local_voice,
    N_("Let --speak use espeak-ng on this machine, not the server; the audio is a WAV "
       "file and --voice a language (en-us, de)"), NULL },
  { NULL }
};

typedef struct
{
  CliOutput     *output;
  gboolean       json;
  GAsyncResult  *result;
  GOutputStream *stream;     /* --speak's --output */
  CliPlayer     *player;     /* or what plays it */
  GError        *write_error;
  gboolean       streamed;   /* a transcript came in pieces */
} Voice;

gboolean
cli_voice_wanted (void)
{
  return opt_transcribe != NULL || opt_speak != NULL;
}

gboolean
cli_voice_reads_stdin (void)
{
  return g_strcmp0 (opt_speak, "-") == 0;
}

static void
result_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Voice *voice = user_data;

  voice->result = g_object_ref (result);
}

static GAsyncResult *
wait_result (Voice *voice)
{
  while (voice->result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return voice->result;
}

static int
fail (Voice        *voice,
      GError       *error,
      GCancellable *cancellable)
{
  gboolean cancelled = g_cancellable_is_cancelled (cancellable);

  cli_output_error (voice->output, error);
  g_error_free (error);
  return cancelled ? EXIT_INTERRUPTED : EXIT_FAILURE;
}

static void
delta_cb (AgentTranscription *transcription,
          const char         *text,
          Voice              *voice)
{
  voice->streamed = TRUE;
  if (voice->json)
    {
      JsonBuilder *builder = cli_output_begin_event ("transcript-delta");

      cli_output_add_string (builder, "text", text);
      cli_output_end_event (voice->output, builder);
    }
  else
    {
      cli_output_text_delta (voice->output, text);
      cli_output_flush (voice->output);
    }
}

static int
transcribe (AgentProvider *provider,
            Voice         *voice,
            GCancellable  *cancellable)
{
  g_autoptr(AgentTranscription) transcription = agent_transcription_new (provider);
  g_autoptr(GFile) file = g_file_new_for_commandline_arg (opt_transcribe);
  g_autoptr(GBytes) audio = NULL;
  g_autofree char *text = NULL;
  GError *error = NULL;

  /* Named before anything is read: a file of another kind sends nothing */
  if (agent_transcription_get_audio_type (opt_transcribe) == NULL)
    return fail (voice, g_error_new (AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                                     _("“%s” is not an audio file the transcription API takes "
                                       "(flac, m4a, mp3, mp4, mpeg, mpga, oga, ogg, opus, wav, "
                                       "webm)"), opt_transcribe),
                 cancellable);
  if (!(audio = g_file_load_bytes (file, cancellable, NULL, &error)))
    {
      GError *shown = g_error_new (AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                                   _("Could not read “%s”: %s"), opt_transcribe, error->message);

      g_error_free (error);
      return fail (voice, shown, cancellable);
    }

  agent_transcription_set_model (transcription, opt_transcription_model);
  agent_transcription_set_language (transcription, opt_language);
  agent_transcription_set_stream (transcription, TRUE);
  g_signal_connect (transcription, "delta", G_CALLBACK (delta_cb), voice);
  agent_transcription_transcribe_async (transcription, audio, opt_transcribe, cancellable,
                                        result_cb, voice);
  text = agent_transcription_transcribe_finish (transcription, wait_result (voice), &error);
  if (text == NULL)
    {
      if (voice->streamed && !voice->json)
        {
          cli_output_text_delta (voice->output, "\n");
          cli_output_flush (voice->output);
        }
      return fail (voice, error, cancellable);
    }

  if (voice->json)
    {
      JsonBuilder *builder = cli_output_begin_event ("transcript");

      cli_output_add_string (builder, "text", text);
      cli_output_add_string (builder, "language",
                             agent_transcription_get_detected_language (transcription));
      if (agent_transcription_get_duration (transcription) > 0)
        {
          json_builder_set_member_name (builder, "duration");
          json_builder_add_double_value (builder, agent_transcription_get_duration (transcription));
        }
      cli_output_end_event (voice->output, builder);
    }
  else
    {
      /* The pieces were the text, unless the server's final text differs */
      if (!voice->streamed)
        cli_output_text_delta (voice->output, text);
      if (!g_str_has_suffix (text, "\n"))
        cli_output_text_delta (voice->output, "\n");
      cli_output_flush (voice->output);
    }
  return cli_output_report_failure (voice->output) ? EXIT_FAILURE : EXIT_SUCCESS;
}

static void
chunk_cb (AgentSpeech *speech,
          GBytes      *bytes,
          Voice       *voice)
{
  gsize len;
  const void *data = g_bytes_get_data (bytes, &len);

  if (voice->player != NULL)
    cli_player_write (voice->player, bytes);
  else if (voice->write_error == NULL)
    g_output_stream_write_all (voice->stream, data, len, NULL, NULL, &voice->write_error);
}

static int
speak (AgentProvider *provider,
       Voice         *voice,
       const char    *stdin_text,
       GCancellable  *cancellable)
{
  g_autoptr(AgentSpeech) speech = agent_speech_new (provider);
  g_autoptr(CliPlayer) player = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GBytes) audio = NULL;
  const char *text = cli_voice_reads_stdin () ? stdin_text : opt_speak;
  const char *content_type = NULL;
  GError *error = NULL;

  if (opt_output == NULL)
    {
      /* Played; as WAV, which every player reads */
      if (!(player = cli_player_new (cancellable, &error)))
        return fail (voice, error, cancellable);
      voice->player = player;
      if (!opt_local_voice && agent_speech_get_response_format (speech) == NULL)
        agent_speech_set_response_format (speech, "wav");
    }
  else if (g_str_equal (opt_output, "-"))
    {
      if (isatty (STDOUT_FILENO))
        return fail (voice, g_error_new_literal (AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                                                 _("Standard output is a terminal: give "
                                                   "--output a file, or pipe the audio to a "
                                                   "player")),
                     cancellable);
      voice->stream = g_unix_output_stream_new (STDOUT_FILENO, FALSE);
    }
  else
    {
      file = g_file_new_for_commandline_arg (opt_output);
      voice->stream = G_OUTPUT_STREAM (g_file_replace (file, NULL, FALSE, G_FILE_CREATE_NONE,
                                                       cancellable, &error));
      if (voice->stream == NULL)
        {
          GError *shown = g_error_new (AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                                       _("Could not write “%s”: %s"), opt_output,
                                       error->message);

          g_error_free (error);
          return fail (voice, shown, cancellable);
        }
    }

  if (opt_local_voice)
    {
      g_autoptr(AgentLocalVoice) local = agent_local_voice_new ();

      agent_local_voice_set_voice (local, opt_voice);
      agent_local_voice_synthesize_async (local, text, cancellable, result_cb, voice);
      audio = agent_local_voice_synthesize_finish (local, wait_result (voice), &error);
      content_type = "audio/wav";
      if (audio != NULL)
        chunk_cb (NULL, audio, voice);
    }
  else
    {
      agent_speech_set_model (speech, opt_speech_model);
      agent_speech_set_voice (speech, opt_voice);
      g_signal_connect (speech, "chunk", G_CALLBACK (chunk_cb), voice);
      agent_speech_synthesize_async (speech, text, cancellable, result_cb, voice);
      audio = agent_speech_synthesize_finish (speech, wait_result (voice), &error);
      content_type = agent_speech_get_content_type (speech);
    }
  if (audio == NULL)
    {
      /* A file half written is not kept */
      g_clear_object (&voice->stream);
      if (file != NULL)
        g_file_delete (file, NULL, NULL);
      return fail (voice, error, cancellable);
    }
  if (player != NULL)
    {
      if (!cli_player_finish (player, cancellable, &error))
        return fail (voice, error, cancellable);
    }
  else if (voice->write_error != NULL ||
           !g_output_stream_close (voice->stream, NULL, &voice->write_error))
    {
      GError *shown = g_error_new (AGENT_ERROR, AGENT_ERROR_FAILED, _("Could not write “%s”: %s"),
                                   opt_output, voice->write_error->message);

      return fail (voice, shown, cancellable);
    }

  if (voice->json)
    {
      JsonBuilder *builder = cli_output_begin_event ("speech");

      if (player != NULL)
        cli_output_add_string (builder, "player", cli_player_get_name (player));
      else
        cli_output_add_string (builder, "output", opt_output);
      cli_output_add_string (builder, "content_type", content_type);
      json_builder_set_member_name (builder, "size");
      json_builder_add_int_value (builder, g_bytes_get_size (audio));
      cli_output_end_event (voice->output, builder);
    }
  else if (player == NULL && !g_str_equal (opt_output, "-"))
    {
      g_autofree char *size = g_format_size_full (g_bytes_get_size (audio),
                                                  G_FORMAT_SIZE_LONG_FORMAT);
      g_autofree char *notice = NULL;

      /* Translators: the size ("1.2 kB (1,234 bytes)"), a MIME type, a file */
      notice = g_strdup_printf (_("Wrote %s of %s to %s"), size,
                                content_type ? content_type : _("audio"),
                                opt_output);
      cli_output_notice (voice->output, notice);
    }
  return EXIT_SUCCESS;
}

int
cli_voice_run (AgentProvider *provider,
               CliOutput     *output,
               gboolean       json,
               const char    *stdin_text,
               GCancellable  *cancellable)
{
  Voice voice = { output, json };
  int status;

  if (opt_transcribe != NULL && opt_speak != NULL)
    {
      return fail (&voice, g_error_new_literal (AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                                                _("--transcribe and --speak cannot be given "
                                                  "together")),
                   cancellable);
    }

  if (opt_transcribe != NULL)
    status = transcribe (provider, &voice, cancellable);
  else
    status = speak (provider, &voice, stdin_text, cancellable);

  g_clear_object (&voice.result);
  g_clear_object (&voice.stream);
  g_clear_error (&voice.write_error);
  return status;
}
