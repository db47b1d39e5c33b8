/* agent-local-voice.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#ifdef HAVE_ESPEAK_NG
# include <espeak-ng/speak_lib.h>
#endif

#include "agent-error.h"
#include "audio/agent-audio-request-private.h"
#include "audio/agent-local-voice.h"

/**
 * AgentLocalVoice:
 *
 * Text to speech on this machine, with no server: espeak-ng's library
 * (`-Dlocal_voice`, Debian's libespeak-ng-dev) speaks into memory, on a
 * worker thread, and [method@Agent.LocalVoice.synthesize_finish] gives
 * the audio as a WAV file (16-bit mono PCM at espeak-ng's rate). It works
 * offline; its voices are [func@Agent.LocalVoice.list_voices].
 *
 * In a build without espeak-ng, [func@Agent.LocalVoice.get_available] is
 * %FALSE and synthesizing fails with %AGENT_ERROR_UNSUPPORTED.
 *
 * Since: 0.1
 */

#define DEFAULT_VOICE "en"
/* The longest text spoken at once */
#define MAX_TEXT (1024 * 1024)
#define WAV_HEADER_SIZE 44

struct _AgentLocalVoice
{
  GObject  parent_instance;

  char    *voice;
};

enum {
  PROP_0,
  PROP_VOICE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (AgentLocalVoice, agent_local_voice, G_TYPE_OBJECT)

static void
agent_local_voice_finalize (GObject *object)
{
  AgentLocalVoice *self = AGENT_LOCAL_VOICE (object);

  g_free (self->voice);

  G_OBJECT_CLASS (agent_local_voice_parent_class)->finalize (object);
}

static void
agent_local_voice_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  AgentLocalVoice *self = AGENT_LOCAL_VOICE (object);

  switch (prop_id)
    {
    case PROP_VOICE:
      g_value_set_string (value, agent_local_voice_get_voice (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_local_voice_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  AgentLocalVoice *self = AGENT_LOCAL_VOICE (object);

  switch (prop_id)
    {
    case PROP_VOICE:
      agent_local_voice_set_voice (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_local_voice_class_init (AgentLocalVoiceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = agent_local_voice_finalize;
  object_class->get_property = agent_local_voice_get_property;
  object_class->set_property = agent_local_voice_set_property;

  /**
   * AgentLocalVoice:voice:
   *
   * The espeak-ng voice: a language ("en", "de", "en-us") or a voice's
   * name, as [func@Agent.LocalVoice.list_voices] lists them; "en" unless
   * set.
   *
   * Since: 0.1
   */
  properties[PROP_VOICE] =
    g_param_spec_string ("voice", NULL, NULL, DEFAULT_VOICE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agent_local_voice_init (AgentLocalVoice *self)
{
}

/**
 * agent_local_voice_new:
 *
 * Makes a local voice.
 *
 * Returns: (transfer full): a new local voice
 *
 * Since: 0.1
 */
AgentLocalVoice *
agent_local_voice_new (void)
{
  return g_object_new (AGENT_TYPE_LOCAL_VOICE, NULL);
}

/**
 * agent_local_voice_get_voice:
 * @self: a local voice
 *
 * Gets [property@Agent.LocalVoice:voice].
 *
 * Returns: the voice
 *
 * Since: 0.1
 */
const char *
agent_local_voice_get_voice (AgentLocalVoice *self)
{
  g_return_val_if_fail (AGENT_IS_LOCAL_VOICE (self), NULL);

  return self->voice != NULL ? self->voice : DEFAULT_VOICE;
}

/**
 * agent_local_voice_set_voice:
 * @self: a local voice
 * @voice: (nullable): the voice, or %NULL for "en"
 *
 * Sets [property@Agent.LocalVoice:voice].
 *
 * Since: 0.1
 */
void
agent_local_voice_set_voice (AgentLocalVoice *self,
                             const char      *voice)
{
  g_return_if_fail (AGENT_IS_LOCAL_VOICE (self));

  _agent_audio_set_string (G_OBJECT (self), &self->voice, voice, properties[PROP_VOICE]);
}

/**
 * agent_local_voice_get_available:
 *
 * Whether libagent was built with espeak-ng (`-Dlocal_voice`).
 *
 * Returns: %TRUE if a local voice can speak
 *
 * Since: 0.1
 */
gboolean
agent_local_voice_get_available (void)
{
#ifdef HAVE_ESPEAK_NG
  return TRUE;
#else
  return FALSE;
#endif
}

static gboolean
unsupported (GError **error)
{
  g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_UNSUPPORTED,
                       _("This libagent was built without a local voice (espeak-ng)"));
  return FALSE;
}

#ifdef HAVE_ESPEAK_NG

/* espeak-ng keeps one state for the process: one user at a time */
static GMutex espeak_lock;
static int espeak_rate;

typedef struct
{
  GByteArray   *samples;
  GCancellable *cancellable;
  gboolean      too_long;
} Job;

/* With the lock held */
static gboolean
ensure_initialized (GError **error)
{
  if (espeak_rate > 0)
    return TRUE;

  espeak_rate = espeak_Initialize (AUDIO_OUTPUT_SYNCHRONOUS, 0, NULL,
                                   espeakINITIALIZE_DONT_EXIT);
  if (espeak_rate <= 0)
    {
      espeak_rate = 0;
      g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_FAILED,
                           _("espeak-ng could not start: is espeak-ng-data installed?"));
      return FALSE;
    }
  return TRUE;
}

/* Each piece of the speech; 1 stops it (cancelled) */
static int
synth_cb (short        *wav,
          int           n_samples,
          espeak_EVENT *events)
{
  Job *job = events != NULL ? events->user_data : NULL;

  if (job == NULL)
    return 0;
  if (g_cancellable_is_cancelled (job->cancellable))
    return 1;
  if (wav != NULL && n_samples > 0)
    {
      if (job->samples->len + (guint64) n_samples * 2 > G_MAXUINT32 - WAV_HEADER_SIZE)
        {
          job->too_long = TRUE;
          return 1;
        }
      g_byte_array_append (job->samples, (const guint8 *) wav, n_samples * 2);
    }
  return 0;
}

static void
put_u32 (guint8 *at,
         guint32 value)
{
  value = GUINT32_TO_LE (value);
  memcpy (at, &value, 4);
}

static void
put_u16 (guint8 *at,
         guint16 value)
{
  value = GUINT16_TO_LE (value);
  memcpy (at, &value, 2);
}

/* A RIFF WAVE header for @data_size bytes of 16-bit mono PCM at @rate */
static void
write_wav_header (guint8  *header,
                  guint32  data_size,
                  guint32  rate)
{
  memcpy (header, "RIFF", 4);
  put_u32 (header + 4, 36 + data_size);
  memcpy (header + 8, "WAVEfmt ", 8);
  put_u32 (header + 16, 16);         /* the fmt chunk's size */
  put_u16 (header + 20, 1);          /* PCM */
  put_u16 (header + 22, 1);          /* mono */
  put_u32 (header + 24, rate);
  put_u32 (header + 28, rate * 2);   /* bytes a second */
  put_u16 (header + 32, 2);          /* bytes a frame */
  put_u16 (header + 34, 16);         /* bits a sample */
  memcpy (header + 36, "data", 4);
  put_u32 (header + 40, data_size);
}

static void
synthesize_thread (GTask        *task,
                   gpointer      source_object,
                   gpointer      task_data,
                   GCancellable *cancellable)
{
  AgentLocalVoice *self = source_object;
  const char *text = task_data;
  g_autofree char *voice = g_strdup (agent_local_voice_get_voice (self));
  GError *error = NULL;
  Job job = { NULL, cancellable, FALSE };
  espeak_ERROR status;
  guint8 header[WAV_HEADER_SIZE];

  g_mutex_lock (&espeak_lock);
  if (!ensure_initialized (&error))
    {
      g_mutex_unlock (&espeak_lock);
      g_task_return_error (task, error);
      return;
    }
  if (espeak_SetVoiceByName (voice) != EE_OK)
    {
      g_mutex_unlock (&espeak_lock);
      g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                               _("espeak-ng has no voice “%s”"), voice);
      return;
    }

  job.samples = g_byte_array_new ();
  g_byte_array_set_size (job.samples, WAV_HEADER_SIZE);
  espeak_SetSynthCallback (synth_cb);
  status = espeak_Synth (text, strlen (text) + 1, 0, POS_CHARACTER, 0, espeakCHARS_UTF8,
                         NULL, &job);
  g_mutex_unlock (&espeak_lock);

  if (g_task_return_error_if_cancelled (task))
    {
      g_byte_array_unref (job.samples);
      return;
    }
  if (job.too_long)
    {
      g_byte_array_unref (job.samples);
      g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_LIMIT,
                               _("The speech is longer than a WAV file can hold"));
      return;
    }
  if (status != EE_OK || job.samples->len == WAV_HEADER_SIZE)
    {
      g_byte_array_unref (job.samples);
      g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_FAILED,
                               _("espeak-ng could not speak the text"));
      return;
    }

  write_wav_header (header, job.samples->len - WAV_HEADER_SIZE, espeak_rate);
  memcpy (job.samples->data, header, WAV_HEADER_SIZE);
  g_task_return_pointer (task, g_byte_array_free_to_bytes (job.samples),
                         (GDestroyNotify) g_bytes_unref);
}

#endif

#ifdef HAVE_ESPEAK_NG
static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(char * const *) a, *(char * const *) b);
}
#endif

/**
 * agent_local_voice_list_voices:
 * @error: return location for an error
 *
 * The names of espeak-ng's voices (its languages: "en", "en-us", "de",
 * …), for [property@Agent.LocalVoice:voice]. It starts espeak-ng if it
 * has not started: call it off the main thread if that matters.
 *
 * Returns: (transfer full) (array zero-terminated=1): the names, or %NULL
 *   with @error set (%AGENT_ERROR_UNSUPPORTED in a build without
 *   espeak-ng)
 *
 * Since: 0.1
 */
char **
agent_local_voice_list_voices (GError **error)
{
#ifdef HAVE_ESPEAK_NG
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const espeak_VOICE **voices;

  g_mutex_lock (&espeak_lock);
  if (!ensure_initialized (error))
    {
      g_mutex_unlock (&espeak_lock);
      return NULL;
    }
  voices = espeak_ListVoices (NULL);
  for (guint i = 0; voices != NULL && voices[i] != NULL; i++)
    {
      /* languages: a priority byte, then a NUL-terminated name, … */
      const char *language = voices[i]->languages != NULL ? voices[i]->languages + 1 : NULL;

      if (language != NULL && *language != '\0' &&
          !g_ptr_array_find_with_equal_func (names, language, g_str_equal, NULL))
        g_ptr_array_add (names, g_strdup (language));
    }
  g_mutex_unlock (&espeak_lock);
  g_ptr_array_sort (names, compare_names);
  g_ptr_array_add (names, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&names), FALSE);
#else
  unsupported (error);
  return NULL;
#endif
}

/**
 * agent_local_voice_synthesize_async:
 * @self: a local voice
 * @text: the text to speak
 * @cancellable: (nullable): a cancellable, honoured between two pieces of
 *   the speech
 * @callback: (scope async): called when the audio is whole
 * @user_data: data for @callback
 *
 * Speaks @text with espeak-ng on a worker thread.
 *
 * Since: 0.1
 */
void
agent_local_voice_synthesize_async (AgentLocalVoice     *self,
                                    const char          *text,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *stripped = NULL;
  GError *error = NULL;

  g_return_if_fail (AGENT_IS_LOCAL_VOICE (self));
  g_return_if_fail (text != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, agent_local_voice_synthesize_async);

  stripped = g_strstrip (g_strdup (text));
  if (!g_utf8_validate (text, -1, NULL) || stripped[0] == '\0')
    {
      g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                               _("There is no text to speak"));
      return;
    }
  if (strlen (text) > MAX_TEXT)
    {
      g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_LIMIT,
                               _("The text to speak is longer than %d KiB"), MAX_TEXT / 1024);
      return;
    }
  if (!agent_local_voice_get_available ())
    {
      unsupported (&error);
      g_task_return_error (task, error);
      return;
    }

#ifdef HAVE_ESPEAK_NG
  g_task_set_task_data (task, g_strdup (text), g_free);
  g_task_run_in_thread (task, synthesize_thread);
#endif
}

/**
 * agent_local_voice_synthesize_finish:
 * @self: a local voice
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes [method@Agent.LocalVoice.synthesize_async].
 *
 * Returns: (transfer full): the speech as a WAV file, or %NULL with
 *   @error set
 *
 * Since: 0.1
 */
GBytes *
agent_local_voice_synthesize_finish (AgentLocalVoice  *self,
                                     GAsyncResult     *result,
                                     GError          **error)
{
  g_return_val_if_fail (AGENT_IS_LOCAL_VOICE (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
