/* agent-transcription.c — the class, and its request (multipart/form-data)
 *
 * Its answer, streamed or whole, is read in agent-transcription-read.c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "audio/agent-audio-request-private.h"
#include "audio/agent-transcription-private.h"

/**
 * AgentTranscription:
 *
 * Speech to text through an OpenAI-compatible server's
 * `POST {base}/audio/transcriptions` (OpenAI, Groq, whisper.cpp's server,
 * LocalAI, speaches…), with the provider's base URL, key, time limits,
 * retries and redaction.
 *
 * Set what the request asks ([property@Agent.Transcription:model],
 * [property@Agent.Transcription:language], …), then call
 * [method@Agent.Transcription.transcribe_async] with the audio. With
 * [property@Agent.Transcription:stream] on, a server that streams
 * (OpenAI's gpt-4o-transcribe) sends the text in pieces, each emitted as
 * [signal@Agent.Transcription::delta]; a server that does not answers
 * whole, as without it.
 *
 * Since: 0.1
 */

#define DEFAULT_MODEL "whisper-1"

struct _AgentTranscription
{
  GObject        parent_instance;

  AgentProvider *provider;
  char          *model;
  char          *language;
  char          *prompt;
  char          *response_format;
  double         temperature;
  gboolean       stream;

  char          *text;
  char          *detected_language;
  double         duration;
  gboolean       busy;
};

typedef struct
{
  AgentTranscription *self;
  AgentTranscriptRead *read;  /* agent-transcription-read.c */
} Run;

enum {
  PROP_0,
  PROP_PROVIDER,
  PROP_MODEL,
  PROP_LANGUAGE,
  PROP_PROMPT,
  PROP_RESPONSE_FORMAT,
  PROP_TEMPERATURE,
  PROP_STREAM,
  PROP_TEXT,
  PROP_DETECTED_LANGUAGE,
  PROP_DURATION,
  N_PROPS
};

enum {
  DELTA,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (AgentTranscription, agent_transcription, G_TYPE_OBJECT)

static void
run_free (gpointer data)
{
  Run *run = data;

  g_clear_pointer (&run->read, _agent_transcript_read_free);
  g_object_unref (run->self);
  g_free (run);
}

static void
agent_transcription_finalize (GObject *object)
{
  AgentTranscription *self = AGENT_TRANSCRIPTION (object);

  g_free (self->model);
  g_free (self->language);
  g_free (self->prompt);
  g_free (self->response_format);
  g_free (self->text);
  g_free (self->detected_language);

  G_OBJECT_CLASS (agent_transcription_parent_class)->finalize (object);
}

static void
agent_transcription_dispose (GObject *object)
{
  AgentTranscription *self = AGENT_TRANSCRIPTION (object);

  g_clear_object (&self->provider);

  G_OBJECT_CLASS (agent_transcription_parent_class)->dispose (object);
}

static void
agent_transcription_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  AgentTranscription *self = AGENT_TRANSCRIPTION (object);

  switch (prop_id)
    {
    case PROP_PROVIDER:
      g_value_set_object (value, self->provider);
      break;
    case PROP_MODEL:
      g_value_set_string (value, agent_transcription_get_model (self));
      break;
    case PROP_LANGUAGE:
      g_value_set_string (value, self->language);
      break;
    case PROP_PROMPT:
      g_value_set_string (value, self->prompt);
      break;
    case PROP_RESPONSE_FORMAT:
      g_value_set_string (value, agent_transcription_get_response_format (self));
      break;
    case PROP_TEMPERATURE:
      g_value_set_double (value, self->temperature);
      break;
    case PROP_STREAM:
      g_value_set_boolean (value, self->stream);
      break;
    case PROP_TEXT:
      g_value_set_string (value, self->text);
      break;
    case PROP_DETECTED_LANGUAGE:
      g_value_set_string (value, self->detected_language);
      break;
    case PROP_DURATION:
      g_value_set_double (value, self->duration);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_transcription_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  AgentTranscription *self = AGENT_TRANSCRIPTION (object);

  switch (prop_id)
    {
    case PROP_PROVIDER:
      self->provider = g_value_dup_object (value);
      break;
    case PROP_MODEL:
      agent_transcription_set_model (self, g_value_get_string (value));
      break;
    case PROP_LANGUAGE:
      agent_transcription_set_language (self, g_value_get_string (value));
      break;
    case PROP_PROMPT:
      agent_transcription_set_prompt (self, g_value_get_string (value));
      break;
    case PROP_RESPONSE_FORMAT:
      agent_transcription_set_response_format (self, g_value_get_string (value));
      break;
    case PROP_TEMPERATURE:
      agent_transcription_set_temperature (self, g_value_get_double (value));
      break;
    case PROP_STREAM:
      agent_transcription_set_stream (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_transcription_class_init (AgentTranscriptionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = agent_transcription_dispose;
  object_class->finalize = agent_transcription_finalize;
  object_class->get_property = agent_transcription_get_property;
  object_class->set_property = agent_transcription_set_property;

  /**
   * AgentTranscription:provider:
   *
   * The provider whose server transcribes: its base URL, key, time
   * limits and retries. It must speak OpenAI's API ("openai").
   *
   * Since: 0.1
   */
  properties[PROP_PROVIDER] =
    g_param_spec_object ("provider", NULL, NULL, AGENT_TYPE_PROVIDER,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /**
   * AgentTranscription:model:
   *
   * The transcription model; "whisper-1" unless set.
   *
   * Since: 0.1
   */
  properties[PROP_MODEL] =
    g_param_spec_string ("model", NULL, NULL, DEFAULT_MODEL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * AgentTranscription:language:
   *
   * The language spoken, as an ISO-639-1 code ("de"), or %NULL to let the
   * model find out.
   *
   * Since: 0.1
   */
  properties[PROP_LANGUAGE] =
    g_param_spec_string ("language", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * AgentTranscription:prompt:
   *
   * Text that guides the model's style or spelling, or %NULL.
   *
   * Since: 0.1
   */
  properties[PROP_PROMPT] =
    g_param_spec_string ("prompt", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * AgentTranscription:response-format:
   *
   * What the server answers: "json" (the default), "verbose_json" (with
   * the language and duration, see
   * [property@Agent.Transcription:detected-language]), or "text", "srt",
   * "vtt" (the text is then the answer as it is).
   *
   * Since: 0.1
   */
  properties[PROP_RESPONSE_FORMAT] =
    g_param_spec_string ("response-format", NULL, NULL, "json",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * AgentTranscription:temperature:
   *
   * The sampling temperature between 0 and 1, or -1 (the default) to send
   * none.
   *
   * Since: 0.1
   */
  properties[PROP_TEMPERATURE] =
    g_param_spec_double ("temperature", NULL, NULL, -1, 1, -1,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * AgentTranscription:stream:
   *
   * Whether to ask for the text as it is recognized (`stream=true`):
   * each piece comes as [signal@Agent.Transcription::delta].
   *
   * Since: 0.1
   */
  properties[PROP_STREAM] =
    g_param_spec_boolean ("stream", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * AgentTranscription:text:
   *
   * The text of the last transcription, or %NULL.
   *
   * Since: 0.1
   */
  properties[PROP_TEXT] =
    g_param_spec_string ("text", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * AgentTranscription:detected-language:
   *
   * The language of the last transcription as the server named it
   * ("verbose_json" only), or %NULL.
   *
   * Since: 0.1
   */
  properties[PROP_DETECTED_LANGUAGE] =
    g_param_spec_string ("detected-language", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * AgentTranscription:duration:
   *
   * The length of the last transcription's audio in seconds, as the server
   * said it ("verbose_json" only), or 0.
   *
   * Since: 0.1
   */
  properties[PROP_DURATION] =
    g_param_spec_double ("duration", NULL, NULL, 0, G_MAXDOUBLE, 0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * AgentTranscription::delta:
   * @self: the transcription
   * @text: the new piece of text
   *
   * A piece of the text, as a streaming server recognized it. The pieces
   * of one transcription, joined, are its text (unless the server's final
   * text says otherwise: that one is returned).
   *
   * Since: 0.1
   */
  signals[DELTA] =
    g_signal_new ("delta", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
agent_transcription_init (AgentTranscription *self)
{
  self->temperature = -1;
}

/**
 * agent_transcription_new:
 * @provider: an OpenAI-compatible provider
 *
 * Makes a transcription for the server of @provider.
 *
 * Returns: (transfer full): a new transcription for @provider's server
 *
 * Since: 0.1
 */
AgentTranscription *
agent_transcription_new (AgentProvider *provider)
{
  g_return_val_if_fail (AGENT_IS_PROVIDER (provider), NULL);

  return g_object_new (AGENT_TYPE_TRANSCRIPTION, "provider", provider, NULL);
}

/**
 * agent_transcription_get_provider:
 * @self: a transcription
 *
 * Gets [property@Agent.Transcription:provider].
 *
 * Returns: (transfer none): the provider
 *
 * Since: 0.1
 */
AgentProvider *
agent_transcription_get_provider (AgentTranscription *self)
{
  g_return_val_if_fail (AGENT_IS_TRANSCRIPTION (self), NULL);

  return self->provider;
}

static void
set_string (AgentTranscription  *self,
            char               **field,
            const char          *value,
            guint                prop)
{
  _agent_audio_set_string (G_OBJECT (self), field, value, properties[prop]);
}

/**
 * agent_transcription_get_model:
 * @self: a transcription
 *
 * Gets [property@Agent.Transcription:model].
 *
 * Returns: the model
 *
 * Since: 0.1
 */
const char *
agent_transcription_get_model (AgentTranscription *self)
{
  g_return_val_if_fail (AGENT_IS_TRANSCRIPTION (self), NULL);

  return self->model != NULL ? self->model : DEFAULT_MODEL;
}

/**
 * agent_transcription_set_model:
 * @self: a transcription
 * @model: (nullable): the model, or %NULL for "whisper-1"
 *
 * Sets [property@Agent.Transcription:model].
 *
 * Since: 0.1
 */
void
agent_transcription_set_model (AgentTranscription *self,
                               const char         *model)
{
  g_return_if_fail (AGENT_IS_TRANSCRIPTION (self));

  set_string (self, &self->model, model, PROP_MODEL);
}

/**
 * agent_transcription_get_language:
 * @self: a transcription
 *
 * Gets [property@Agent.Transcription:language].
 *
 * Returns: (nullable): the language asked for
 *
 * Since: 0.1
 */
const char *
agent_transcription_get_language (AgentTranscription *self)
{
  g_return_val_if_fail (AGENT_IS_TRANSCRIPTION (self), NULL);

  return self->language;
}

/**
 * agent_transcription_set_language:
 * @self: a transcription
 * @language: (nullable): an ISO-639-1 code, or %NULL
 *
 * Sets [property@Agent.Transcription:language].
 *
 * Since: 0.1
 */
void
agent_transcription_set_language (AgentTranscription *self,
                                  const char         *language)
{
  g_return_if_fail (AGENT_IS_TRANSCRIPTION (self));

  set_string (self, &self->language, language, PROP_LANGUAGE);
}

/**
 * agent_transcription_get_prompt:
 * @self: a transcription
 *
 * Gets [property@Agent.Transcription:prompt].
 *
 * Returns: (nullable): the prompt
 *
 * Since: 0.1
 */
const char *
agent_transcription_get_prompt (AgentTranscription *self)
{
  g_return_val_if_fail (AGENT_IS_TRANSCRIPTION (self), NULL);

  return self->prompt;
}

/**
 * agent_transcription_set_prompt:
 * @self: a transcription
 * @prompt: (nullable): the prompt, or %NULL
 *
 * Sets [property@Agent.Transcription:prompt].
 *
 * Since: 0.1
 */
void
agent_transcription_set_prompt (AgentTranscription *self,
                                const char         *prompt)
{
  g_return_if_fail (AGENT_IS_TRANSCRIPTION (self));

  set_string (self, &self->prompt, prompt, PROP_PROMPT);
}

/**
 * agent_transcription_get_response_format:
 * @self: a transcription
 *
 * Gets [property@Agent.Transcription:response-format].
 *
 * Returns: the response format
 *
 * Since: 0.1
 */
const char *
agent_transcription_get_response_format (AgentTranscription *self)
{
  g_return_val_if_fail (AGENT_IS_TRANSCRIPTION (self), NULL);

  return self->response_format != NULL ? self->response_format : "json";
}

/**
 * agent_transcription_set_response_format:
 * @self: a transcription
 * @format: (nullable): "json", "verbose_json", "text", "srt" or "vtt"
 *
 * Sets [property@Agent.Transcription:response-format].
 *
 * Since: 0.1
 */
void
agent_transcription_set_response_format (AgentTranscription *self,
                                         const char         *format)
{
  g_return_if_fail (AGENT_IS_TRANSCRIPTION (self));

  set_string (self, &self->response_format, format, PROP_RESPONSE_FORMAT);
}

/**
 * agent_transcription_get_temperature:
 * @self: a transcription
 *
 * Gets [property@Agent.Transcription:temperature].
 *
 * Returns: the temperature, or -1 when none is sent
 *
 * Since: 0.1
 */
double
agent_transcription_get_temperature (AgentTranscription *self)
{
  g_return_val_if_fail (AGENT_IS_TRANSCRIPTION (self), -1);

  return self->temperature;
}

/**
 * agent_transcription_set_temperature:
 * @self: a transcription
 * @temperature: between 0 and 1, or -1 to send none
 *
 * Sets [property@Agent.Transcription:temperature].
 *
 * Since: 0.1
 */
void
agent_transcription_set_temperature (AgentTranscription *self,
                                     double              temperature)
{
  g_return_if_fail (AGENT_IS_TRANSCRIPTION (self));
  g_return_if_fail (temperature == -1 || (temperature >= 0 && temperature <= 1));

  if (self->temperature == temperature)
    return;
  self->temperature = temperature;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEMPERATURE]);
}

/**
 * agent_transcription_get_stream:
 * @self: a transcription
 *
 * Gets [property@Agent.Transcription:stream].
 *
 * Returns: whether the text is asked for as it is recognized
 *
 * Since: 0.1
 */
gboolean
agent_transcription_get_stream (AgentTranscription *self)
{
  g_return_val_if_fail (AGENT_IS_TRANSCRIPTION (self), FALSE);

  return self->stream;
}

/**
 * agent_transcription_set_stream:
 * @self: a transcription
 * @stream: whether to ask for the text as it is recognized
 *
 * Sets [property@Agent.Transcription:stream].
 *
 * Since: 0.1
 */
void
agent_transcription_set_stream (AgentTranscription *self,
                                gboolean            stream)
{
  g_return_if_fail (AGENT_IS_TRANSCRIPTION (self));

  stream = !!stream;
  if (self->stream == stream)
    return;
  self->stream = stream;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STREAM]);
}

/**
 * agent_transcription_get_text:
 * @self: a transcription
 *
 * Gets [property@Agent.Transcription:text].
 *
 * Returns: (nullable): the text of the last transcription
 *
 * Since: 0.1
 */
const char *
agent_transcription_get_text (AgentTranscription *self)
{
  g_return_val_if_fail (AGENT_IS_TRANSCRIPTION (self), NULL);

  return self->text;
}

/**
 * agent_transcription_get_detected_language:
 * @self: a transcription
 *
 * Gets [property@Agent.Transcription:detected-language].
 *
 * Returns: (nullable): the language the server found, if it said
 *
 * Since: 0.1
 */
const char *
agent_transcription_get_detected_language (AgentTranscription *self)
{
  g_return_val_if_fail (AGENT_IS_TRANSCRIPTION (self), NULL);

  return self->detected_language;
}

/**
 * agent_transcription_get_duration:
 * @self: a transcription
 *
 * Gets [property@Agent.Transcription:duration].
 *
 * Returns: the audio's length in seconds, if the server said, or 0
 *
 * Since: 0.1
 */
double
agent_transcription_get_duration (AgentTranscription *self)
{
  g_return_val_if_fail (AGENT_IS_TRANSCRIPTION (self), 0);

  return self->duration;
}

static const struct
{
  const char *suffix;
  const char *type;
} audio_types[] = {
  { ".flac", "audio/flac" },
  { ".m4a",  "audio/mp4" },
  { ".mp3",  "audio/mpeg" },
  { ".mp4",  "audio/mp4" },
  { ".mpeg", "audio/mpeg" },
  { ".mpga", "audio/mpeg" },
  { ".oga",  "audio/ogg" },
  { ".ogg",  "audio/ogg" },
  { ".opus", "audio/ogg" },
  { ".wav",  "audio/wav" },
  { ".webm", "audio/webm" },
};

/**
 * agent_transcription_get_audio_type:
 * @filename: a file name
 *
 * The MIME type of an audio file the transcription API takes, by its
 * name's suffix: flac, m4a, mp3, mp4, mpeg, mpga, oga, ogg, opus, wav or
 * webm.
 *
 * Returns: (nullable): the MIME type, or %NULL if the API takes no such file
 *
 * Since: 0.1
 */
const char *
agent_transcription_get_audio_type (const char *filename)
{
  g_return_val_if_fail (filename != NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (audio_types); i++)
    {
      gsize len = strlen (filename), suffix = strlen (audio_types[i].suffix);

      if (len > suffix && g_ascii_strcasecmp (filename + len - suffix, audio_types[i].suffix) == 0)
        return audio_types[i].type;
    }
  return NULL;
}

/* A piece of a streamed transcript */
static void
delta_cb (const char *delta,
          gpointer    user_data)
{
  g_signal_emit (user_data, signals[DELTA], 0, delta);
}

static void
set_result (AgentTranscription *self,
            const char         *text,
            const char         *language,
            double              duration)
{
  g_object_freeze_notify (G_OBJECT (self));
  set_string (self, &self->text, text, PROP_TEXT);
  set_string (self, &self->detected_language, language, PROP_DETECTED_LANGUAGE);
  if (self->duration != duration)
    {
      self->duration = duration;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DURATION]);
    }
  g_object_thaw_notify (G_OBJECT (self));
}

/* The text of a whole (not streamed) answer */
static char *
read_answer (Run     *run,
             GBytes  *answer,
             GError **error)
{
  AgentTranscription *self = run->self;
  g_autofree char *text = NULL;
  g_autofree char *language = NULL;
  double duration = 0;
  gboolean plain = FALSE;

  if (!_agent_transcript_read_whole (run->read, answer,
                                     agent_transcription_get_response_format (self),
                                     &text, &language, &duration, &plain, error))
    return NULL;

  if (plain)
    {
      set_result (self, NULL, NULL, 0);
      self->text = g_steal_pointer (&text);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXT]);
      return g_strdup (self->text);
    }

  set_result (self, text, language, duration);
  return g_steal_pointer (&text);
}

static void
request_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Run *run = g_task_get_task_data (task);
  AgentTranscription *self = run->self;
  g_autoptr(GBytes) answer = NULL;
  g_autoptr(GError) error = NULL;
  char *text;

  self->busy = FALSE;
  answer = _agent_audio_request_finish (AGENT_PROVIDER (object), result, NULL, &error);
  if (answer != NULL)
    _agent_transcript_read_end (run->read, &error);

  if (error != NULL)
    {
      /* What was heard before a stream broke is kept */
      if (_agent_transcript_read_get_streamed (run->read)[0] != '\0')
        set_result (self, _agent_transcript_read_get_streamed (run->read), NULL, 0);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  if (_agent_transcript_read_is_streamed (run->read))
    {
      text = _agent_transcript_read_dup_text (run->read);
      set_result (self, text, NULL, 0);
      g_task_return_pointer (task, text, g_free);
      return;
    }

  if (!(text = read_answer (run, answer, &error)))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  g_task_return_pointer (task, text, g_free);
}

/**
 * agent_transcription_transcribe_async:
 * @self: a transcription
 * @audio: the audio file's bytes
 * @filename: its name, whose suffix says its type (see
 *   [func@Agent.Transcription.get_audio_type]); sent as the file's name
 * @cancellable: (nullable): a cancellable
 * @callback: (scope async): called when the text is there
 * @user_data: data for @callback
 *
 * Sends @audio to `{base}/audio/transcriptions` as multipart/form-data
 * (file, model, language, prompt, response_format, temperature and, with
 * [property@Agent.Transcription:stream], `stream=true`).
 *
 * Empty audio, and a file name whose type the API does not take, fail
 * with %AGENT_ERROR_INVALID_ARGUMENT; a provider that is not OpenAI's
 * with %AGENT_ERROR_UNSUPPORTED; the server's errors as a chat's do.
 *
 * Since: 0.1
 */
void
agent_transcription_transcribe_async (AgentTranscription  *self,
                                      GBytes              *audio,
                                      const char          *filename,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(SoupMultipart) multipart = NULL;
  g_autoptr(SoupMessageHeaders) headers = NULL;
  g_autoptr(GBytes) body = NULL;
  g_autofree char *basename = NULL;
  const char *type;
  Run *run;

  g_return_if_fail (AGENT_IS_TRANSCRIPTION (self));
  g_return_if_fail (audio != NULL);
  g_return_if_fail (filename != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, agent_transcription_transcribe_async);

  basename = g_path_get_basename (filename);
  if (g_bytes_get_size (audio) == 0)
    {
      g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                               _("The audio file “%s” is empty"), basename);
      return;
    }
  if ((type = agent_transcription_get_audio_type (basename)) == NULL)
    {
      g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                               _("“%s” is not an audio file the transcription API takes "
                                 "(flac, m4a, mp3, mp4, mpeg, mpga, oga, ogg, opus, wav, webm)"),
                               basename);
      return;
    }
  if (self->busy)
    {
      g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_BUSY,
                               _("The transcription is already running"));
      return;
    }

  multipart = soup_multipart_new (SOUP_FORM_MIME_TYPE_MULTIPART);
  soup_multipart_append_form_file (multipart, "file", basename, type, audio);
  soup_multipart_append_form_string (multipart, "model", agent_transcription_get_model (self));
  if (self->language != NULL)
    soup_multipart_append_form_string (multipart, "language", self->language);
  if (self->prompt != NULL)
    soup_multipart_append_form_string (multipart, "prompt", self->prompt);
  soup_multipart_append_form_string (multipart, "response_format",
                                     agent_transcription_get_response_format (self));
  if (self->temperature >= 0)
    {
      char buffer[G_ASCII_DTOSTR_BUF_SIZE];

      soup_multipart_append_form_string (multipart, "temperature",
                                         g_ascii_dtostr (buffer, sizeof buffer,
                                                         self->temperature));
    }
  if (self->stream)
    soup_multipart_append_form_string (multipart, "stream", "true");
  headers = soup_message_headers_new (SOUP_MESSAGE_HEADERS_MULTIPART);
  soup_multipart_to_message (multipart, headers, &body);

  run = g_new0 (Run, 1);
  run->self = g_object_ref (self);
  run->read = _agent_transcript_read_new (self->provider, delta_cb, self);
  g_task_set_task_data (task, run, run_free);

  self->busy = TRUE;
  _agent_audio_request_async (self->provider, "/audio/transcriptions",
                              soup_message_headers_get_one (headers, "Content-Type"), body,
                              self->stream ? "text/event-stream, application/json"
                                           : "application/json, text/plain",
                              _agent_transcript_read_chunk, run->read, cancellable, request_cb,
                              g_steal_pointer (&task));
}

/**
 * agent_transcription_transcribe_finish:
 * @self: a transcription
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes [method@Agent.Transcription.transcribe_async].
 *
 * Returns: (transfer full): the text, or %NULL with @error set. When a
 *   streamed answer broke off, [property@Agent.Transcription:text] keeps
 *   what came before.
 *
 * Since: 0.1
 */
char *
agent_transcription_transcribe_finish (AgentTranscription  *self,
                                       GAsyncResult        *result,
                                       GError             **error)
{
  g_return_val_if_fail (AGENT_IS_TRANSCRIPTION (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        agent_transcription_transcribe_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
