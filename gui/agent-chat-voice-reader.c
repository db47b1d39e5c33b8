/* agent-chat-voice-reader.c
 *
 * Read Aloud: the chat view's ::read-aloud of an answer is read by the
 * speech server of Preferences › Voice (AgentSpeech, its audio played as
 * it streams), or, with none, by the local voice (AgentLocalVoice,
 * espeak-ng); played by agent-chat-voice-player.c. The view's
 * reading-aloud makes the answer's button Stop Reading, until it was
 * played, stopped (the same button, another answer, Escape is not taken
 * from the message field) or failed (a toast says why). The answer's
 * Markdown is read as text: its marks are left out.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "agent-chat-voice.h"
#include "agent-chat-voice-player.h"
#include "agent-chat-voice-reader.h"

struct _AgentChatVoiceReader
{
  GObject               parent_instance;

  GSettings            *settings;
  AgentChatSecretStore *secrets;
  AgentGtkChatView     *view;  /* a weak pointer */
  AgentChatVoicePlayer *player;
  GCancellable         *cancellable;  /* the speech being made */
  char                 *text;         /* to say, until the provider is had */
};

enum {
  SHOW_TOAST,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (AgentChatVoiceReader, agent_chat_voice_reader, G_TYPE_OBJECT)

static guint signals[N_SIGNALS];

/* The text of @markdown, as it is said: without its marks (emphasis,
 * headings, code fences, quotes, tables' bars) */
char *
agent_chat_voice_plain_text (const char *markdown)
{
  GString *text = g_string_new (NULL);
  g_auto(GStrv) lines = g_strsplit (markdown ? markdown : "", "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];

      while (*line == ' ' || *line == '#' || *line == '>')
        line++;
      if (g_str_has_prefix (line, "```") || g_str_has_prefix (line, "~~~"))
        continue;
      for (const char *p = line; *p != '\0'; p++)
        {
          if (strchr ("*_`|", *p) != NULL)
            continue;
          g_string_append_c (text, *p);
        }
      g_string_append_c (text, '\n');
    }
  return g_strstrip (g_string_free (text, FALSE));
}

static void
show_error (AgentChatVoiceReader *self,
            const GError         *error)
{
  g_autofree char *text = NULL;
  g_autoptr(AdwToast) toast = NULL;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  /* TRANSLATORS: a toast; %s says why */
  text = g_strdup_printf (_("Read Aloud failed: %s"), error->message);
  toast = adw_toast_new (text);
  g_signal_emit (self, signals[SHOW_TOAST], 0, toast);
}

static void
set_reading (AgentChatVoiceReader *self,
             AgentMessage         *message)
{
  if (self->view != NULL)
    agent_gtk_chat_view_set_reading_aloud (self->view, message);
}

/**
 * agent_chat_voice_reader_stop:
 * @self: a reader
 *
 * Stops reading, if it reads.
 */
void
agent_chat_voice_reader_stop (AgentChatVoiceReader *self)
{
  g_return_if_fail (AGENT_CHAT_IS_VOICE_READER (self));

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->text, g_free);
  agent_chat_voice_player_stop (self->player);
  set_reading (self, NULL);
}

static void
on_finished (AgentChatVoiceReader *self,
             const GError         *error)
{
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  set_reading (self, NULL);
  if (error != NULL)
    show_error (self, error);
}

/* The end of the audio, or why there is none */
static void
end_audio (AgentChatVoiceReader *self,
           GBytes               *audio,
           const GError         *error)
{
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (error != NULL)
    {
      agent_chat_voice_player_stop (self->player);
      show_error (self, error);
      return;
    }
  if (audio != NULL)
    agent_chat_voice_player_push (self->player, audio);
  agent_chat_voice_player_end (self->player);
}

static void
on_local_voice (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(AgentChatVoiceReader) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) audio = NULL;

  audio = agent_local_voice_synthesize_finish (AGENT_LOCAL_VOICE (object), result, &error);
  end_audio (self, audio, error);
}

static void
on_chunk (AgentChatVoiceReader *self,
          GBytes               *chunk)
{
  agent_chat_voice_player_push (self->player, chunk);
}

static void
on_speech (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(AgentChatVoiceReader) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) audio = NULL;

  audio = agent_speech_synthesize_finish (AGENT_SPEECH (object), result, &error);
  /* Its chunks were played as they came */
  end_audio (self, NULL, error);
}

static void
on_provider (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(AgentChatVoiceReader) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(AgentProvider) provider = NULL;
  g_autoptr(AgentSpeech) speech = NULL;
  g_autofree char *text = g_steal_pointer (&self->text);
  g_autofree char *model = NULL;
  g_autofree char *voice = NULL;

  provider = agent_chat_voice_provider_finish (AGENT_CHAT_SECRET_STORE (object), result, &error);
  if (provider == NULL)
    {
      end_audio (self, NULL, error);
      return;
    }
  speech = agent_speech_new (provider);
  model = g_settings_get_string (self->settings, "speech-model");
  voice = g_settings_get_string (self->settings, "speech-voice");
  if (*g_strstrip (model) != '\0')
    agent_speech_set_model (speech, model);
  if (*g_strstrip (voice) != '\0')
    agent_speech_set_voice (speech, voice);
  g_signal_connect_object (speech, "chunk", G_CALLBACK (on_chunk), self, G_CONNECT_SWAPPED);
  agent_speech_synthesize_async (speech, text, self->cancellable, on_speech, g_object_ref (self));
}

static void
read_aloud (AgentChatVoiceReader *self,
            AgentMessage         *message)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = agent_chat_voice_plain_text (agent_message_get_content (message));
  g_autofree char *url = g_settings_get_string (self->settings, "speech-base-url");

  agent_chat_voice_reader_stop (self);
  if (*text == '\0')
    return;
  if (*g_strstrip (url) == '\0' && !agent_local_voice_get_available ())
    {
      g_set_error_literal (&error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                           _("there is no local voice in this build: set a speech server in "
                             "Preferences › Voice"));
      show_error (self, error);
      return;
    }
  if (!agent_chat_voice_player_start (self->player, &error))
    {
      show_error (self, error);
      return;
    }
  self->cancellable = g_cancellable_new ();
  set_reading (self, message);
  if (*url != '\0')
    {
      self->text = g_steal_pointer (&text);
      agent_chat_voice_provider_async (self->secrets, url, self->cancellable, on_provider,
                                       g_object_ref (self));
    }
  else
    {
      g_autoptr(AgentLocalVoice) voice = agent_local_voice_new ();
      g_autofree char *language = g_settings_get_string (self->settings, "local-voice");

      if (*g_strstrip (language) != '\0')
        agent_local_voice_set_voice (voice, language);
      agent_local_voice_synthesize_async (voice, text, self->cancellable, on_local_voice,
                                          g_object_ref (self));
    }
}

static void
on_read_aloud (AgentChatVoiceReader *self,
               AgentMessage         *message)
{
  if (self->view != NULL && agent_gtk_chat_view_get_reading_aloud (self->view) == message)
    agent_chat_voice_reader_stop (self);
  else
    read_aloud (self, message);
}

static void
agent_chat_voice_reader_dispose (GObject *object)
{
  AgentChatVoiceReader *self = AGENT_CHAT_VOICE_READER (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->text, g_free);
  g_clear_object (&self->player);
  g_clear_weak_pointer (&self->view);
  g_clear_object (&self->settings);
  g_clear_object (&self->secrets);

  G_OBJECT_CLASS (agent_chat_voice_reader_parent_class)->dispose (object);
}

static void
agent_chat_voice_reader_class_init (AgentChatVoiceReaderClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = agent_chat_voice_reader_dispose;

  /**
   * AgentChatVoiceReader::show-toast:
   * @self: the reader
   * @toast: what to show
   *
   * Reading aloud failed: the window shows @toast.
   */
  signals[SHOW_TOAST] = g_signal_new ("show-toast", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                      0, NULL, NULL, NULL, G_TYPE_NONE, 1, ADW_TYPE_TOAST);
}

static void
agent_chat_voice_reader_init (AgentChatVoiceReader *self)
{
  self->player = agent_chat_voice_player_new ();
  g_signal_connect_object (self->player, "finished", G_CALLBACK (on_finished), self,
                           G_CONNECT_SWAPPED);
}

/**
 * agent_chat_voice_reader_new:
 * @settings: the app's settings (the speech server's)
 * @secrets: where the server's key is
 * @view: the conversation whose answers it reads
 *
 * Offers Read Aloud on @view's answers, and reads them.
 *
 * Returns: (transfer full): a reader
 */
AgentChatVoiceReader *
agent_chat_voice_reader_new (GSettings            *settings,
                             AgentChatSecretStore *secrets,
                             AgentGtkChatView     *view)
{
  AgentChatVoiceReader *self;

  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);
  g_return_val_if_fail (AGENT_CHAT_IS_SECRET_STORE (secrets), NULL);
  g_return_val_if_fail (AGENT_GTK_IS_CHAT_VIEW (view), NULL);

  self = g_object_new (AGENT_CHAT_TYPE_VOICE_READER, NULL);
  self->settings = g_object_ref (settings);
  self->secrets = g_object_ref (secrets);
  g_set_weak_pointer (&self->view, view);
  g_signal_connect_object (view, "read-aloud", G_CALLBACK (on_read_aloud), self,
                           G_CONNECT_SWAPPED);
  agent_gtk_chat_view_set_can_read_aloud (view, TRUE);
  return self;
}
