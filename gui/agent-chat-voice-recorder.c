/* agent-chat-voice-recorder.c
 *
 * The microphone, for dictation: the audio source (agent-chat-voice.c),
 * converted to 16-bit mono PCM at 16 kHz (what speech recognition takes,
 * 32 kB a second), measured by GStreamer's level element, and gathered in
 * memory by an appsink; stop() hands it over as a WAV file, never written
 * to disk, and keeps nothing. At most ten minutes are kept (under the 25 MB
 * that transcription servers take); what comes after is dropped.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>
#include <gst/app/gstappsink.h>

#include "agent-chat-voice.h"
#include "agent-chat-voice-recorder.h"

#define RATE        16000
#define MAX_SECONDS 600
#define MAX_BYTES   (RATE * 2 * MAX_SECONDS)

struct _AgentChatVoiceRecorder
{
  GObject     parent_instance;

  GstElement *pipeline;
  guint       bus_watch;
  GMutex      lock;
  GByteArray *pcm;    /* under lock: written on GStreamer's thread */
  double      level;  /* 0 to 1 */
};

enum {
  PROP_0,
  PROP_LEVEL,
  PROP_RECORDING,
  N_PROPS
};

enum {
  FAILED,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (AgentChatVoiceRecorder, agent_chat_voice_recorder, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static GstFlowReturn
on_new_sample (GstAppSink *sink,
               gpointer    user_data)
{
  AgentChatVoiceRecorder *self = user_data;
  g_autoptr(GstSample) sample = gst_app_sink_pull_sample (sink);
  GstBuffer *buffer;
  GstMapInfo map;

  if (sample == NULL)
    return GST_FLOW_EOS;
  buffer = gst_sample_get_buffer (sample);
  if (buffer != NULL && gst_buffer_map (buffer, &map, GST_MAP_READ))
    {
      g_mutex_lock (&self->lock);
      if (self->pcm != NULL && self->pcm->len + map.size <= MAX_BYTES)
        g_byte_array_append (self->pcm, map.data, map.size);
      g_mutex_unlock (&self->lock);
      gst_buffer_unmap (buffer, &map);
    }
  return GST_FLOW_OK;
}

static void
set_level (AgentChatVoiceRecorder *self,
           double                  level)
{
  level = CLAMP (level, 0.0, 1.0);
  if (fabs (self->level - level) < 0.001)
    return;
  self->level = level;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LEVEL]);
}

/* The loudest channel's RMS, from -60 dB (silence) to 0 dB */
static void
read_level (AgentChatVoiceRecorder *self,
            const GstStructure     *structure)
{
  const GValue *rms = gst_structure_get_value (structure, "rms");
  GValueArray *array;
  double loudest = -60.0;

  /* A GValueArray (deprecated in GLib, still what level posts) */
  if (rms == NULL || !G_VALUE_HOLDS_BOXED (rms))
    return;
G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  array = g_value_get_boxed (rms);
  for (guint i = 0; array != NULL && i < array->n_values; i++)
    loudest = MAX (loudest, g_value_get_double (g_value_array_get_nth (array, i)));
G_GNUC_END_IGNORE_DEPRECATIONS
  set_level (self, (loudest + 60.0) / 60.0);
}

static void stop_pipeline (AgentChatVoiceRecorder *self);
static void clear_pcm     (AgentChatVoiceRecorder *self);

static gboolean
on_bus_message (GstBus     *bus,
                GstMessage *message,
                gpointer    user_data)
{
  AgentChatVoiceRecorder *self = user_data;

  switch (GST_MESSAGE_TYPE (message))
    {
    case GST_MESSAGE_ELEMENT:
      if (gst_message_has_name (message, "level"))
        read_level (self, gst_message_get_structure (message));
      break;

    case GST_MESSAGE_ERROR:
      {
        g_autoptr(GError) error = agent_chat_voice_bus_error (message,
                                                              _("The microphone cannot be used"));

        g_object_ref (self);
        stop_pipeline (self);
        clear_pcm (self);
        g_signal_emit (self, signals[FAILED], 0, error);
        g_object_unref (self);
      }
      break;

    case GST_MESSAGE_EOS:
      /* A source that ends (a file, in tests): what it gave is kept until stop() */
      set_level (self, 0.0);
      break;

    default:
      break;
    }
  return G_SOURCE_CONTINUE;
}

static void
stop_pipeline (AgentChatVoiceRecorder *self)
{
  gboolean was = self->pipeline != NULL;

  if (self->pipeline != NULL)
    gst_element_set_state (self->pipeline, GST_STATE_NULL);
  g_clear_handle_id (&self->bus_watch, g_source_remove);
  gst_clear_object (&self->pipeline);
  set_level (self, 0.0);
  if (was)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RECORDING]);
}

/* Drops what was recorded, its bytes zeroed first */
static void
clear_pcm (AgentChatVoiceRecorder *self)
{
  g_mutex_lock (&self->lock);
  if (self->pcm != NULL)
    {
      memset (self->pcm->data, 0, self->pcm->len);
      g_clear_pointer (&self->pcm, g_byte_array_unref);
    }
  g_mutex_unlock (&self->lock);
}

/**
 * agent_chat_voice_recorder_start:
 * @self: a recorder
 * @error: where a failure goes
 *
 * Starts recording. It fails when GStreamer or the source cannot be had;
 * a microphone that fails later emits ::failed.
 *
 * Returns: whether it records
 */
gboolean
agent_chat_voice_recorder_start (AgentChatVoiceRecorder  *self,
                                 GError                 **error)
{
  g_autoptr(GstElement) pipeline = NULL;
  g_autoptr(GstBus) bus = NULL;
  GstElement *source, *convert, *resample, *filter, *level, *sink;
  g_autoptr(GstCaps) caps = NULL;
  GstAppSinkCallbacks callbacks = { NULL, NULL, on_new_sample, };

  g_return_val_if_fail (AGENT_CHAT_IS_VOICE_RECORDER (self), FALSE);
  g_return_val_if_fail (self->pipeline == NULL, FALSE);

  if (!agent_chat_voice_init (error))
    return FALSE;
  source = agent_chat_voice_make_element ("AGENT_CHAT_AUDIO_SOURCE", "autoaudiosrc", error);
  if (source == NULL)
    return FALSE;

  pipeline = gst_object_ref_sink (gst_pipeline_new ("agent-chat-microphone"));
  convert = gst_element_factory_make ("audioconvert", NULL);
  resample = gst_element_factory_make ("audioresample", NULL);
  filter = gst_element_factory_make ("capsfilter", NULL);
  level = gst_element_factory_make ("level", NULL);
  sink = gst_element_factory_make ("appsink", NULL);
  if (convert == NULL || resample == NULL || filter == NULL || level == NULL || sink == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                           _("The microphone cannot be used: GStreamer’s audioconvert, "
                             "audioresample, level or appsink element is missing"));
      gst_object_unref (gst_object_ref_sink (source));
      g_clear_pointer (&convert, gst_object_unref);
      g_clear_pointer (&resample, gst_object_unref);
      g_clear_pointer (&filter, gst_object_unref);
      g_clear_pointer (&level, gst_object_unref);
      g_clear_pointer (&sink, gst_object_unref);
      return FALSE;
    }
  caps = gst_caps_new_simple ("audio/x-raw", "format", G_TYPE_STRING, "S16LE", "layout",
                              G_TYPE_STRING, "interleaved", "channels", G_TYPE_INT, 1, "rate",
                              G_TYPE_INT, RATE, NULL);
  g_object_set (filter, "caps", caps, NULL);
  g_object_set (level, "post-messages", TRUE, "interval", (guint64) 100 * GST_MSECOND, NULL);
  g_object_set (sink, "sync", FALSE, NULL);
  gst_app_sink_set_callbacks (GST_APP_SINK (sink), &callbacks, self, NULL);
  gst_bin_add_many (GST_BIN (pipeline), source, convert, resample, filter, level, sink, NULL);
  if (!gst_element_link_many (source, convert, resample, filter, level, sink, NULL))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                           _("The microphone cannot be used: its audio cannot be converted"));
      return FALSE;
    }

  g_mutex_lock (&self->lock);
  self->pcm = g_byte_array_new ();
  g_mutex_unlock (&self->lock);
  self->pipeline = g_steal_pointer (&pipeline);
  bus = gst_pipeline_get_bus (GST_PIPELINE (self->pipeline));
  self->bus_watch = gst_bus_add_watch (bus, on_bus_message, self);
  if (gst_element_set_state (self->pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE)
    {
      stop_pipeline (self);
      clear_pcm (self);
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                           _("The microphone cannot be used: no microphone could be opened"));
      return FALSE;
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RECORDING]);
  return TRUE;
}

/* A WAV file of @pcm: the RIFF header, then 16-bit mono PCM */
static GBytes *
make_wav (GByteArray *pcm)
{
  guint32 size = pcm->len;
  guint8 header[44];

  memcpy (header, "RIFF", 4);
  GST_WRITE_UINT32_LE (header + 4, 36 + size);
  memcpy (header + 8, "WAVEfmt ", 8);
  GST_WRITE_UINT32_LE (header + 16, 16);       /* the fmt chunk's size */
  GST_WRITE_UINT16_LE (header + 20, 1);        /* PCM */
  GST_WRITE_UINT16_LE (header + 22, 1);        /* mono */
  GST_WRITE_UINT32_LE (header + 24, RATE);
  GST_WRITE_UINT32_LE (header + 28, RATE * 2); /* bytes a second */
  GST_WRITE_UINT16_LE (header + 32, 2);        /* bytes a frame */
  GST_WRITE_UINT16_LE (header + 34, 16);       /* bits a sample */
  memcpy (header + 36, "data", 4);
  GST_WRITE_UINT32_LE (header + 40, size);
  g_byte_array_prepend (pcm, header, sizeof header);
  return g_byte_array_free_to_bytes (pcm);
}

/**
 * agent_chat_voice_recorder_stop:
 * @self: a recorder
 *
 * Stops recording and hands what was recorded over.
 *
 * Returns: (transfer full) (nullable): a WAV file, or %NULL when nothing was
 *   heard (or it did not record)
 */
GBytes *
agent_chat_voice_recorder_stop (AgentChatVoiceRecorder *self)
{
  GByteArray *pcm;

  g_return_val_if_fail (AGENT_CHAT_IS_VOICE_RECORDER (self), NULL);

  stop_pipeline (self);
  g_mutex_lock (&self->lock);
  pcm = g_steal_pointer (&self->pcm);
  g_mutex_unlock (&self->lock);
  if (pcm == NULL)
    return NULL;
  if (pcm->len == 0)
    {
      g_byte_array_unref (pcm);
      return NULL;
    }
  return make_wav (pcm);
}

/**
 * agent_chat_voice_recorder_cancel:
 * @self: a recorder
 *
 * Stops recording and drops what was recorded.
 */
void
agent_chat_voice_recorder_cancel (AgentChatVoiceRecorder *self)
{
  g_return_if_fail (AGENT_CHAT_IS_VOICE_RECORDER (self));

  stop_pipeline (self);
  clear_pcm (self);
}

gboolean
agent_chat_voice_recorder_get_recording (AgentChatVoiceRecorder *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_VOICE_RECORDER (self), FALSE);

  return self->pipeline != NULL;
}

double
agent_chat_voice_recorder_get_level (AgentChatVoiceRecorder *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_VOICE_RECORDER (self), 0.0);

  return self->level;
}

static void
agent_chat_voice_recorder_dispose (GObject *object)
{
  AgentChatVoiceRecorder *self = AGENT_CHAT_VOICE_RECORDER (object);

  if (self->pipeline != NULL)
    gst_element_set_state (self->pipeline, GST_STATE_NULL);
  g_clear_handle_id (&self->bus_watch, g_source_remove);
  gst_clear_object (&self->pipeline);
  clear_pcm (self);

  G_OBJECT_CLASS (agent_chat_voice_recorder_parent_class)->dispose (object);
}

static void
agent_chat_voice_recorder_finalize (GObject *object)
{
  AgentChatVoiceRecorder *self = AGENT_CHAT_VOICE_RECORDER (object);

  g_mutex_clear (&self->lock);

  G_OBJECT_CLASS (agent_chat_voice_recorder_parent_class)->finalize (object);
}

static void
agent_chat_voice_recorder_get_property (GObject    *object,
                                        guint       prop_id,
                                        GValue     *value,
                                        GParamSpec *pspec)
{
  AgentChatVoiceRecorder *self = AGENT_CHAT_VOICE_RECORDER (object);

  switch (prop_id)
    {
    case PROP_LEVEL:
      g_value_set_double (value, self->level);
      break;

    case PROP_RECORDING:
      g_value_set_boolean (value, agent_chat_voice_recorder_get_recording (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_chat_voice_recorder_class_init (AgentChatVoiceRecorderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = agent_chat_voice_recorder_dispose;
  object_class->finalize = agent_chat_voice_recorder_finalize;
  object_class->get_property = agent_chat_voice_recorder_get_property;

  /**
   * AgentChatVoiceRecorder:level:
   *
   * How loud the microphone is, from 0 (silence) to 1.
   */
  properties[PROP_LEVEL] =
    g_param_spec_double ("level", NULL, NULL, 0.0, 1.0, 0.0,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * AgentChatVoiceRecorder:recording:
   *
   * Whether it records.
   */
  properties[PROP_RECORDING] =
    g_param_spec_boolean ("recording", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * AgentChatVoiceRecorder::failed:
   * @self: the recorder
   * @error: what went wrong
   *
   * The microphone failed while recording; what it recorded is dropped.
   */
  signals[FAILED] = g_signal_new ("failed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_ERROR);
}

static void
agent_chat_voice_recorder_init (AgentChatVoiceRecorder *self)
{
  g_mutex_init (&self->lock);
}

AgentChatVoiceRecorder *
agent_chat_voice_recorder_new (void)
{
  return g_object_new (AGENT_CHAT_TYPE_VOICE_RECORDER, NULL);
}
