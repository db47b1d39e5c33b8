/* agent-chat-voice-player.c
 *
 * Read Aloud's player: the audio of a voice, pushed as it comes (a
 * server's speech streams) into an appsrc, decoded by decodebin whatever
 * it is (WAV, MP3, Opus, …), played by the audio sink
 * (agent-chat-voice.c). ::finished says that it played to its end, or
 * failed (with the error), or was stopped.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <gst/app/gstappsrc.h>

#include "agent-chat-voice.h"
#include "agent-chat-voice-player.h"

struct _AgentChatVoicePlayer
{
  GObject     parent_instance;

  GstElement *pipeline;
  GstElement *source;
  GstElement *convert;
  guint       bus_watch;
};

enum {
  PROP_0,
  PROP_PLAYING,
  N_PROPS
};

enum {
  FINISHED,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (AgentChatVoicePlayer, agent_chat_voice_player, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
finish (AgentChatVoicePlayer *self,
        const GError         *error)
{
  if (self->pipeline == NULL)
    return;
  gst_element_set_state (self->pipeline, GST_STATE_NULL);
  g_clear_handle_id (&self->bus_watch, g_source_remove);
  gst_clear_object (&self->source);
  gst_clear_object (&self->convert);
  gst_clear_object (&self->pipeline);
  g_object_ref (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PLAYING]);
  g_signal_emit (self, signals[FINISHED], 0, error);
  g_object_unref (self);
}

static gboolean
on_bus_message (GstBus     *bus,
                GstMessage *message,
                gpointer    user_data)
{
  AgentChatVoicePlayer *self = user_data;

  if (GST_MESSAGE_TYPE (message) == GST_MESSAGE_EOS)
    {
      self->bus_watch = 0;
      finish (self, NULL);
      return G_SOURCE_REMOVE;
    }
  if (GST_MESSAGE_TYPE (message) == GST_MESSAGE_ERROR)
    {
      g_autoptr(GError) error = agent_chat_voice_bus_error (message,
                                                            _("The answer cannot be played"));

      self->bus_watch = 0;
      finish (self, error);
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

/* decodebin found what the audio is: its pad goes to the converter */
static void
on_pad_added (GstElement *decoder,
              GstPad     *pad,
              gpointer    user_data)
{
  GstElement *convert = user_data;
  g_autoptr(GstPad) sink_pad = gst_element_get_static_pad (convert, "sink");

  if (!gst_pad_is_linked (sink_pad))
    gst_pad_link (pad, sink_pad);
}

/**
 * agent_chat_voice_player_start:
 * @self: a player
 * @error: where a failure goes
 *
 * Gets ready to play what is pushed.
 *
 * Returns: whether it is
 */
gboolean
agent_chat_voice_player_start (AgentChatVoicePlayer  *self,
                               GError               **error)
{
  g_autoptr(GstElement) pipeline = NULL;
  g_autoptr(GstBus) bus = NULL;
  GstElement *source, *decoder, *convert, *resample, *sink;

  g_return_val_if_fail (AGENT_CHAT_IS_VOICE_PLAYER (self), FALSE);
  g_return_val_if_fail (self->pipeline == NULL, FALSE);

  if (!agent_chat_voice_init (error))
    return FALSE;
  sink = agent_chat_voice_make_element ("AGENT_CHAT_AUDIO_SINK", "autoaudiosink", error);
  if (sink == NULL)
    return FALSE;
  pipeline = gst_object_ref_sink (gst_pipeline_new ("agent-chat-read-aloud"));
  gst_bin_add (GST_BIN (pipeline), sink);
  source = gst_element_factory_make ("appsrc", NULL);
  decoder = gst_element_factory_make ("decodebin", NULL);
  convert = gst_element_factory_make ("audioconvert", NULL);
  resample = gst_element_factory_make ("audioresample", NULL);
  if (source == NULL || decoder == NULL || convert == NULL || resample == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                           _("The answer cannot be played: GStreamer’s appsrc, decodebin, "
                             "audioconvert or audioresample element is missing"));
      g_clear_pointer (&source, gst_object_unref);
      g_clear_pointer (&decoder, gst_object_unref);
      g_clear_pointer (&convert, gst_object_unref);
      g_clear_pointer (&resample, gst_object_unref);
      return FALSE;
    }
  g_object_set (source, "format", GST_FORMAT_BYTES, "is-live", FALSE, NULL);
  gst_bin_add_many (GST_BIN (pipeline), source, decoder, convert, resample, NULL);
  if (!gst_element_link (source, decoder) || !gst_element_link_many (convert, resample, sink, NULL))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                           _("The answer cannot be played: its audio cannot be converted"));
      return FALSE;
    }
  g_signal_connect_object (decoder, "pad-added", G_CALLBACK (on_pad_added), convert, 0);

  self->source = gst_object_ref (source);
  self->convert = gst_object_ref (convert);
  self->pipeline = g_steal_pointer (&pipeline);
  bus = gst_pipeline_get_bus (GST_PIPELINE (self->pipeline));
  self->bus_watch = gst_bus_add_watch (bus, on_bus_message, self);
  if (gst_element_set_state (self->pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE)
    {
      gst_element_set_state (self->pipeline, GST_STATE_NULL);
      g_clear_handle_id (&self->bus_watch, g_source_remove);
      gst_clear_object (&self->source);
      gst_clear_object (&self->convert);
      gst_clear_object (&self->pipeline);
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                           _("The answer cannot be played: no speaker could be opened"));
      return FALSE;
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PLAYING]);
  return TRUE;
}

/**
 * agent_chat_voice_player_push:
 * @self: a player
 * @bytes: the next piece of the audio
 *
 * Plays @bytes after what was pushed before.
 */
void
agent_chat_voice_player_push (AgentChatVoicePlayer *self,
                              GBytes               *bytes)
{
  g_return_if_fail (AGENT_CHAT_IS_VOICE_PLAYER (self));
  g_return_if_fail (bytes != NULL);

  if (self->source == NULL || g_bytes_get_size (bytes) == 0)
    return;
  gst_app_src_push_buffer (GST_APP_SRC (self->source),
                           gst_buffer_new_wrapped_bytes (bytes));
}

/**
 * agent_chat_voice_player_end:
 * @self: a player
 *
 * Says that all the audio was pushed: ::finished comes once it was played.
 */
void
agent_chat_voice_player_end (AgentChatVoicePlayer *self)
{
  g_return_if_fail (AGENT_CHAT_IS_VOICE_PLAYER (self));

  if (self->source != NULL)
    gst_app_src_end_of_stream (GST_APP_SRC (self->source));
}

/**
 * agent_chat_voice_player_stop:
 * @self: a player
 *
 * Stops playing (::finished follows, without an error).
 */
void
agent_chat_voice_player_stop (AgentChatVoicePlayer *self)
{
  g_return_if_fail (AGENT_CHAT_IS_VOICE_PLAYER (self));

  finish (self, NULL);
}

gboolean
agent_chat_voice_player_get_playing (AgentChatVoicePlayer *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_VOICE_PLAYER (self), FALSE);

  return self->pipeline != NULL;
}

static void
agent_chat_voice_player_dispose (GObject *object)
{
  AgentChatVoicePlayer *self = AGENT_CHAT_VOICE_PLAYER (object);

  if (self->pipeline != NULL)
    gst_element_set_state (self->pipeline, GST_STATE_NULL);
  g_clear_handle_id (&self->bus_watch, g_source_remove);
  gst_clear_object (&self->source);
  gst_clear_object (&self->convert);
  gst_clear_object (&self->pipeline);

  G_OBJECT_CLASS (agent_chat_voice_player_parent_class)->dispose (object);
}

static void
agent_chat_voice_player_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  AgentChatVoicePlayer *self = AGENT_CHAT_VOICE_PLAYER (object);

  switch (prop_id)
    {
    case PROP_PLAYING:
      g_value_set_boolean (value, agent_chat_voice_player_get_playing (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_chat_voice_player_class_init (AgentChatVoicePlayerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = agent_chat_voice_player_dispose;
  object_class->get_property = agent_chat_voice_player_get_property;

  /**
   * AgentChatVoicePlayer:playing:
   *
   * Whether it plays (from start() to ::finished).
   */
  properties[PROP_PLAYING] =
    g_param_spec_boolean ("playing", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * AgentChatVoicePlayer::finished:
   * @self: the player
   * @error: (nullable): why it failed, or %NULL when it played to its end or was stopped
   *
   * It stopped playing.
   */
  signals[FINISHED] = g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                    NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_ERROR);
}

static void
agent_chat_voice_player_init (AgentChatVoicePlayer *self)
{
}

AgentChatVoicePlayer *
agent_chat_voice_player_new (void)
{
  return g_object_new (AGENT_CHAT_TYPE_VOICE_PLAYER, NULL);
}
