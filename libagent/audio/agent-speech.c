/* agent-speech.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>

#include "agent-error.h"
#include "audio/agent-audio-request-private.h"
#include "audio/agent-speech.h"

/**
 * AgentSpeech:
 *
 * Text to speech through an OpenAI-compatible server's
 * `POST {base}/audio/speech` (OpenAI, Kokoro-FastAPI, LocalAI,
 * speaches…), with the provider's base URL, key, time limits, retries and
 * redaction.
 *
 * The audio comes as it is made: each piece as
 * [signal@Agent.Speech::chunk] (what a player's source, GStreamer's
 * appsrc, is fed), and all of it when
 * [method@Agent.Speech.synthesize_finish] returns. Its type is
 * [property@Agent.Speech:content-type], known from the first chunk on.
 *
 * Since: 0.1
 */

#define DEFAULT_MODEL "tts-1"
#define DEFAULT_VOICE "alloy"

struct _AgentSpeech
{
  GObject        parent_instance;

  AgentProvider *provider;
  char          *model;
  char          *voice;
  char          *response_format;
  double         speed;
  char          *instructions;
  char          *content_type;
  gboolean       busy;
};

enum {
  PROP_0,
  PROP_PROVIDER,
  PROP_MODEL,
  PROP_VOICE,
  PROP_RESPONSE_FORMAT,
  PROP_SPEED,
  PROP_INSTRUCTIONS,
  PROP_CONTENT_TYPE,
  N_PROPS
};

enum {
  CHUNK,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (AgentSpeech, agent_speech, G_TYPE_OBJECT)

static void
agent_speech_finalize (GObject *object)
{
  AgentSpeech *self = AGENT_SPEECH (object);

  g_free (self->model);
  g_free (self->voice);
  g_free (self->response_format);
  g_free (self->instructions);
  g_free (self->content_type);

  G_OBJECT_CLASS (agent_speech_parent_class)->finalize (object);
}

static void
agent_speech_dispose (GObject *object)
{
  AgentSpeech *self = AGENT_SPEECH (object);

  g_clear_object (&self->provider);

  G_OBJECT_CLASS (agent_speech_parent_class)->dispose (object);
}

static void
agent_speech_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  AgentSpeech *self = AGENT_SPEECH (object);

  switch (prop_id)
    {
    case PROP_PROVIDER:
      g_value_set_object (value, self->provider);
      break;
    case PROP_MODEL:
      g_value_set_string (value, agent_speech_get_model (self));
      break;
    case PROP_VOICE:
      g_value_set_string (value, agent_speech_get_voice (self));
      break;
    case PROP_RESPONSE_FORMAT:
      g_value_set_string (value, self->response_format);
      break;
    case PROP_SPEED:
      g_value_set_double (value, self->speed);
      break;
    case PROP_INSTRUCTIONS:
      g_value_set_string (value, self->instructions);
      break;
    case PROP_CONTENT_TYPE:
      g_value_set_string (value, self->content_type);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_speech_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  AgentSpeech *self = AGENT_SPEECH (object);

  switch (prop_id)
    {
    case PROP_PROVIDER:
      self->provider = g_value_dup_object (value);
      break;
    case PROP_MODEL:
      agent_speech_set_model (self, g_value_get_string (value));
      break;
    case PROP_VOICE:
      agent_speech_set_voice (self, g_value_get_string (value));
      break;
    case PROP_RESPONSE_FORMAT:
      agent_speech_set_response_format (self, g_value_get_string (value));
      break;
    case PROP_SPEED:
      agent_speech_set_speed (self, g_value_get_double (value));
      break;
    case PROP_INSTRUCTIONS:
      agent_speech_set_instructions (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_speech_class_init (AgentSpeechClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = agent_speech_dispose;
  object_class->finalize = agent_speech_finalize;
  object_class->get_property = agent_speech_get_property;
  object_class->set_property = agent_speech_set_property;

  /**
   * AgentSpeech:provider:
   *
   * The provider whose server speaks: its base URL, key, time limits and
   * retries. It must speak OpenAI's API ("openai").
   *
   * Since: 0.1
   */
  properties[PROP_PROVIDER] =
    g_param_spec_object ("provider", NULL, NULL, AGENT_TYPE_PROVIDER,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /**
   * AgentSpeech:model:
   *
   * The speech model; "tts-1" unless set.
   *
   * Since: 0.1
   */
  properties[PROP_MODEL] =
    g_param_spec_string ("model", NULL, NULL, DEFAULT_MODEL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * AgentSpeech:voice:
   *
   * The voice; "alloy" unless set.
   *
   * Since: 0.1
   */
  properties[PROP_VOICE] =
    g_param_spec_string ("voice", NULL, NULL, DEFAULT_VOICE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * AgentSpeech:response-format:
   *
   * The audio format asked for ("mp3", "opus", "aac", "flac", "wav",
   * "pcm"), or %NULL for the server's default (mp3 at OpenAI).
   *
   * Since: 0.1
   */
  properties[PROP_RESPONSE_FORMAT] =
    g_param_spec_string ("response-format", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * AgentSpeech:speed:
   *
   * How fast to speak, from 0.25 to 4, or 0 (the default) to send none.
   *
   * Since: 0.1
   */
  properties[PROP_SPEED] =
    g_param_spec_double ("speed", NULL, NULL, 0, 4, 0,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * AgentSpeech:instructions:
   *
   * How to speak (tone, accent…), for the models that take it
   * (gpt-4o-mini-tts), or %NULL.
   *
   * Since: 0.1
   */
  properties[PROP_INSTRUCTIONS] =
    g_param_spec_string ("instructions", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * AgentSpeech:content-type:
   *
   * The MIME type of the audio being (or last) received, as the server's
   * Content-Type said, or %NULL.
   *
   * Since: 0.1
   */
  properties[PROP_CONTENT_TYPE] =
    g_param_spec_string ("content-type", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * AgentSpeech::chunk:
   * @self: the speech
   * @bytes: the next piece of audio
   *
   * A piece of the audio, as it arrived. The pieces, in order, are the
   * audio [method@Agent.Speech.synthesize_finish] returns.
   *
   * Since: 0.1
   */
  signals[CHUNK] =
    g_signal_new ("chunk", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 1, G_TYPE_BYTES);
}

static void
agent_speech_init (AgentSpeech *self)
{
}

/**
 * agent_speech_new:
 * @provider: an OpenAI-compatible provider
 *
 * Makes a speech for the server of @provider.
 *
 * Returns: (transfer full): a new speech for @provider's server
 *
 * Since: 0.1
 */
AgentSpeech *
agent_speech_new (AgentProvider *provider)
{
  g_return_val_if_fail (AGENT_IS_PROVIDER (provider), NULL);

  return g_object_new (AGENT_TYPE_SPEECH, "provider", provider, NULL);
}

/**
 * agent_speech_get_provider:
 * @self: a speech
 *
 * Gets [property@Agent.Speech:provider].
 *
 * Returns: (transfer none): the provider
 *
 * Since: 0.1
 */
AgentProvider *
agent_speech_get_provider (AgentSpeech *self)
{
  g_return_val_if_fail (AGENT_IS_SPEECH (self), NULL);

  return self->provider;
}

/**
 * agent_speech_get_model:
 * @self: a speech
 *
 * Gets [property@Agent.Speech:model].
 *
 * Returns: the model
 *
 * Since: 0.1
 */
const char *
agent_speech_get_model (AgentSpeech *self)
{
  g_return_val_if_fail (AGENT_IS_SPEECH (self), NULL);

  return self->model != NULL ? self->model : DEFAULT_MODEL;
}

/**
 * agent_speech_set_model:
 * @self: a speech
 * @model: (nullable): the model, or %NULL for "tts-1"
 *
 * Sets [property@Agent.Speech:model].
 *
 * Since: 0.1
 */
void
agent_speech_set_model (AgentSpeech *self,
                        const char  *model)
{
  g_return_if_fail (AGENT_IS_SPEECH (self));

  _agent_audio_set_string (G_OBJECT (self), &self->model, model, properties[PROP_MODEL]);
}

/**
 * agent_speech_get_voice:
 * @self: a speech
 *
 * Gets [property@Agent.Speech:voice].
 *
 * Returns: the voice
 *
 * Since: 0.1
 */
const char *
agent_speech_get_voice (AgentSpeech *self)
{
  g_return_val_if_fail (AGENT_IS_SPEECH (self), NULL);

  return self->voice != NULL ? self->voice : DEFAULT_VOICE;
}

/**
 * agent_speech_set_voice:
 * @self: a speech
 * @voice: (nullable): the voice, or %NULL for "alloy"
 *
 * Sets [property@Agent.Speech:voice].
 *
 * Since: 0.1
 */
void
agent_speech_set_voice (AgentSpeech *self,
                        const char  *voice)
{
  g_return_if_fail (AGENT_IS_SPEECH (self));

  _agent_audio_set_string (G_OBJECT (self), &self->voice, voice, properties[PROP_VOICE]);
}

/**
 * agent_speech_get_response_format:
 * @self: a speech
 *
 * Gets [property@Agent.Speech:response-format].
 *
 * Returns: (nullable): the audio format asked for
 *
 * Since: 0.1
 */
const char *
agent_speech_get_response_format (AgentSpeech *self)
{
  g_return_val_if_fail (AGENT_IS_SPEECH (self), NULL);

  return self->response_format;
}

/**
 * agent_speech_set_response_format:
 * @self: a speech
 * @format: (nullable): "mp3", "opus", "aac", "flac", "wav", "pcm", or %NULL
 *
 * Sets [property@Agent.Speech:response-format].
 *
 * Since: 0.1
 */
void
agent_speech_set_response_format (AgentSpeech *self,
                                  const char  *format)
{
  g_return_if_fail (AGENT_IS_SPEECH (self));

  _agent_audio_set_string (G_OBJECT (self), &self->response_format, format,
                           properties[PROP_RESPONSE_FORMAT]);
}

/**
 * agent_speech_get_speed:
 * @self: a speech
 *
 * Gets [property@Agent.Speech:speed].
 *
 * Returns: the speed, or 0 when none is sent
 *
 * Since: 0.1
 */
double
agent_speech_get_speed (AgentSpeech *self)
{
  g_return_val_if_fail (AGENT_IS_SPEECH (self), 0);

  return self->speed;
}

/**
 * agent_speech_set_speed:
 * @self: a speech
 * @speed: from 0.25 to 4, or 0 to send none
 *
 * Sets [property@Agent.Speech:speed].
 *
 * Since: 0.1
 */
void
agent_speech_set_speed (AgentSpeech *self,
                        double       speed)
{
  g_return_if_fail (AGENT_IS_SPEECH (self));
  g_return_if_fail (speed == 0 || (speed >= 0.25 && speed <= 4));

  if (self->speed == speed)
    return;
  self->speed = speed;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SPEED]);
}

/**
 * agent_speech_get_instructions:
 * @self: a speech
 *
 * Gets [property@Agent.Speech:instructions].
 *
 * Returns: (nullable): the instructions
 *
 * Since: 0.1
 */
const char *
agent_speech_get_instructions (AgentSpeech *self)
{
  g_return_val_if_fail (AGENT_IS_SPEECH (self), NULL);

  return self->instructions;
}

/**
 * agent_speech_set_instructions:
 * @self: a speech
 * @instructions: (nullable): how to speak, or %NULL
 *
 * Sets [property@Agent.Speech:instructions].
 *
 * Since: 0.1
 */
void
agent_speech_set_instructions (AgentSpeech *self,
                               const char  *instructions)
{
  g_return_if_fail (AGENT_IS_SPEECH (self));

  _agent_audio_set_string (G_OBJECT (self), &self->instructions, instructions,
                           properties[PROP_INSTRUCTIONS]);
}

/**
 * agent_speech_get_content_type:
 * @self: a speech
 *
 * Gets [property@Agent.Speech:content-type].
 *
 * Returns: (nullable): the MIME type of the audio received
 *
 * Since: 0.1
 */
const char *
agent_speech_get_content_type (AgentSpeech *self)
{
  g_return_val_if_fail (AGENT_IS_SPEECH (self), NULL);

  return self->content_type;
}

static gboolean
chunk_cb (const char    *content_type,
          const guint8  *data,
          gsize          len,
          gpointer       user_data,
          GError       **error)
{
  AgentSpeech *self = user_data;
  g_autoptr(GBytes) bytes = g_bytes_new (data, len);
  g_autofree char *type = NULL;

  /* Its parameters (; charset=…) are not the type */
  if (content_type != NULL)
    type = g_strstrip (g_strndup (content_type, strcspn (content_type, ";")));
  _agent_audio_set_string (G_OBJECT (self), &self->content_type, type,
                           properties[PROP_CONTENT_TYPE]);
  g_signal_emit (self, signals[CHUNK], 0, bytes);
  return TRUE;
}

static void
request_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AgentSpeech *self = g_task_get_source_object (task);
  GBytes *audio;
  GError *error = NULL;

  self->busy = FALSE;
  audio = _agent_audio_request_finish (AGENT_PROVIDER (object), result, NULL, &error);
  if (audio == NULL)
    g_task_return_error (task, error);
  else if (g_bytes_get_size (audio) == 0)
    {
      g_bytes_unref (audio);
      g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                               _("The server answered with no audio"));
    }
  else
    g_task_return_pointer (task, audio, (GDestroyNotify) g_bytes_unref);
}

/**
 * agent_speech_synthesize_async:
 * @self: a speech
 * @input: the text to speak
 * @cancellable: (nullable): a cancellable
 * @callback: (scope async): called when the audio is whole
 * @user_data: data for @callback
 *
 * Sends @input to `{base}/audio/speech` as JSON (model, input, voice and,
 * when set, response_format, speed, instructions). The audio's pieces come
 * as [signal@Agent.Speech::chunk] while it streams.
 *
 * Empty text fails with %AGENT_ERROR_INVALID_ARGUMENT; a provider that is
 * not OpenAI's with %AGENT_ERROR_UNSUPPORTED; the server's errors as a
 * chat's do.
 *
 * Since: 0.1
 */
void
agent_speech_synthesize_async (AgentSpeech         *self,
                               const char          *input,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(JsonBuilder) builder = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GBytes) body = NULL;
  g_autofree char *stripped = NULL;
  char *json;

  g_return_if_fail (AGENT_IS_SPEECH (self));
  g_return_if_fail (input != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, agent_speech_synthesize_async);

  stripped = g_strstrip (g_strdup (input));
  if (!g_utf8_validate (input, -1, NULL) || stripped[0] == '\0')
    {
      g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                               _("There is no text to speak"));
      return;
    }
  if (self->busy)
    {
      g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_BUSY,
                               _("The speech is already being made"));
      return;
    }

  builder = json_builder_new ();
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "model");
  json_builder_add_string_value (builder, agent_speech_get_model (self));
  json_builder_set_member_name (builder, "input");
  json_builder_add_string_value (builder, input);
  json_builder_set_member_name (builder, "voice");
  json_builder_add_string_value (builder, agent_speech_get_voice (self));
  if (self->response_format != NULL)
    {
      json_builder_set_member_name (builder, "response_format");
      json_builder_add_string_value (builder, self->response_format);
    }
  if (self->speed > 0)
    {
      json_builder_set_member_name (builder, "speed");
      json_builder_add_double_value (builder, self->speed);
    }
  if (self->instructions != NULL)
    {
      json_builder_set_member_name (builder, "instructions");
      json_builder_add_string_value (builder, self->instructions);
    }
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  json = json_to_string (root, FALSE);
  body = g_bytes_new_take (json, strlen (json));

  self->busy = TRUE;
  _agent_audio_request_async (self->provider, "/audio/speech", "application/json", body,
                              "audio/*, application/octet-stream", chunk_cb, self,
                              cancellable, request_cb, g_steal_pointer (&task));
}

/**
 * agent_speech_synthesize_finish:
 * @self: a speech
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes [method@Agent.Speech.synthesize_async].
 *
 * Returns: (transfer full): the whole audio, or %NULL with @error set
 *
 * Since: 0.1
 */
GBytes *
agent_speech_synthesize_finish (AgentSpeech   *self,
                                GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (AGENT_IS_SPEECH (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        agent_speech_synthesize_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
