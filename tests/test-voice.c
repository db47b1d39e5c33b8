/* test-voice.c — speech to text and text to speech over HTTP
 *
 * Against a real SoupServer on 127.0.0.1 that answers as an
 * OpenAI-compatible server's /audio endpoints do (the shapes of OpenAI's
 * API reference).
 *
 * - /voice/transcribe/json: the multipart body holds the file's bytes
 *   whole (NUL bytes and all), its name and type, the model, the language,
 *   the response format and the key in the Authorization header; the
 *   answer's "text" is returned.
 * - /voice/transcribe/verbose: verbose_json's language and duration.
 * - /voice/transcribe/text: response_format=text: the body is the text.
 * - /voice/transcribe/stream: stream=true; transcript.text.delta events
 *   are emitted as they arrive (before the stream ends), and
 *   transcript.text.done's text is returned.
 * - /voice/transcribe/broken-stream: the connection drops mid-stream: an
 *   error, and :text keeps the deltas that came.
 * - /voice/transcribe/401: AGENT_ERROR_AUTHENTICATION, status kept, the
 *   key the server echoed redacted.
 * - /voice/transcribe/413: AGENT_ERROR_HTTP with status 413, the server's
 *   message, no retry.
 * - /voice/transcribe/retry: a 503 is tried again.
 * - /voice/transcribe/bad-input: empty audio and a file of a type the API
 *   does not take fail naming it; nothing is sent.
 * - /voice/unsupported: an Anthropic provider has no audio API.
 * - /voice/speech/chunks: the JSON body; the audio's chunks come before
 *   the answer ends, with its Content-Type; the whole audio is returned.
 * - /voice/speech/cancel: cancelled after the first chunk: cancelled,
 *   and the connection is closed.
 * - /voice/speech/empty-input: refused before sending.
 * - /voice/local/wav: espeak-ng speaks a sentence into a valid WAV (RIFF
 *   header, 16-bit mono PCM, samples that are not silence); transcribing
 *   that WAV through the loopback server sends its bytes intact.
 * - /voice/local/voices: the voices listed include "en-us" and "de"; an unknown voice
 *   fails naming it.
 * - /voice/local/cancel: cancelled before it runs: cancelled.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "agent-test-server.h"
#include "agent-test-util.h"

#define KEY "sk-voice-test-secret-0123456789"

/* A WAV-looking file with NUL bytes in it */
static const guint8 audio_data[] = {
  'R', 'I', 'F', 'F', 0x24, 0x00, 0x00, 0x00, 'W', 'A', 'V', 'E', 0x00, 0x01, 0xff, 0xfe,
  0x00, 0x00, '\r', '\n', '-', '-', 0x7f, 0x80,
};

typedef struct
{
  AgentTestServer *server;
  AgentProvider   *provider;
  GAsyncResult    *result;
  GPtrArray       *pieces;    /* deltas (char *) or chunks (GBytes *) */
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->server = agent_test_server_new ();
  f->provider = agent_provider_new ("openai", &error);
  g_assert_no_error (error);
  agent_provider_set_base_url (f->provider, agent_test_server_get_base_url (f->server));
  agent_provider_set_api_key (f->provider, KEY);
  f->pieces = g_ptr_array_new ();
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_clear_object (&f->result);
  g_ptr_array_unref (f->pieces);
  g_assert_finalize_object (f->provider);
  agent_test_server_free (f->server);
}

static void
result_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Fixture *f = user_data;

  f->result = g_object_ref (result);
}

static gboolean
has_result (gpointer data)
{
  return ((Fixture *) data)->result != NULL;
}

static void
delta_cb (AgentTranscription *transcription,
          const char         *text,
          Fixture            *f)
{
  g_ptr_array_add (f->pieces, g_strdup (text));
}

static void
chunk_cb (AgentSpeech *speech,
          GBytes      *bytes,
          Fixture     *f)
{
  g_ptr_array_add (f->pieces, g_bytes_ref (bytes));
}

static char *
transcribe (Fixture             *f,
            AgentTranscription  *transcription,
            const guint8        *data,
            gsize                len,
            const char          *filename,
            GError             **error)
{
  g_autoptr(GBytes) audio = g_bytes_new (data, len);

  g_clear_object (&f->result);
  agent_transcription_transcribe_async (transcription, audio, filename, NULL, result_cb, f);
  agent_test_wait_until (has_result, f);
  return agent_transcription_transcribe_finish (transcription, f->result, error);
}

/* The form field @name of request @index, and its file name and type */
static GBytes *
form_field (Fixture     *f,
            guint        index,
            const char  *name,
            char       **filename,
            char       **type)
{
  g_autoptr(SoupMessageHeaders) headers = soup_message_headers_new (SOUP_MESSAGE_HEADERS_REQUEST);
  g_autoptr(SoupMultipart) multipart = NULL;

  soup_message_headers_replace (headers, "Content-Type",
                                agent_test_server_get_request_header (f->server, index,
                                                                      "Content-Type"));
  multipart = soup_multipart_new_from_message (headers,
                                               agent_test_server_get_request_bytes (f->server,
                                                                                    index));
  g_assert_nonnull (multipart);

  for (int i = 0; i < soup_multipart_get_length (multipart); i++)
    {
      SoupMessageHeaders *part_headers;
      GBytes *body;
      g_autoptr(GHashTable) params = NULL;
      g_autofree char *disposition = NULL;

      g_assert_true (soup_multipart_get_part (multipart, i, &part_headers, &body));
      g_assert_true (soup_message_headers_get_content_disposition (part_headers, &disposition,
                                                                   &params));
      if (g_strcmp0 (g_hash_table_lookup (params, "name"), name) != 0)
        continue;
      if (filename != NULL)
        *filename = g_strdup (g_hash_table_lookup (params, "filename"));
      if (type != NULL)
        *type = g_strdup (soup_message_headers_get_content_type (part_headers, NULL));
      return g_bytes_ref (body);
    }
  return NULL;
}

static char *
form_string (Fixture    *f,
             guint       index,
             const char *name)
{
  g_autoptr(GBytes) body = form_field (f, index, name, NULL, NULL);

  return body != NULL ? g_strndup (g_bytes_get_data (body, NULL), g_bytes_get_size (body)) : NULL;
}

static void
test_transcribe_json (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(AgentTranscription) transcription = agent_transcription_new (f->provider);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) file = NULL;
  g_autoptr(GBytes) expected = g_bytes_new_static (audio_data, sizeof audio_data);
  g_autofree char *text = NULL;
  g_autofree char *filename = NULL;
  g_autofree char *type = NULL;
  g_autofree char *model = NULL;
  g_autofree char *language = NULL;
  g_autofree char *format = NULL;
  g_autofree char *stream = NULL;
  g_autofree char *temperature = NULL;

  agent_test_response_set_body (agent_test_server_add_response (f->server, 200),
                                "application/json", "{\"text\": \"Hello, world.\"}");
  agent_transcription_set_language (transcription, "de");
  agent_transcription_set_temperature (transcription, 0.5);

  text = transcribe (f, transcription, audio_data, sizeof audio_data, "/tmp/dir/clip.WAV", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (text, ==, "Hello, world.");
  g_assert_cmpstr (agent_transcription_get_text (transcription), ==, "Hello, world.");
  g_assert_null (agent_transcription_get_detected_language (transcription));

  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 1);
  g_assert_cmpstr (agent_test_server_get_request_path (f->server, 0), ==, "/v1/audio/transcriptions");
  g_assert_cmpstr (agent_test_server_get_request_method (f->server, 0), ==, "POST");
  g_assert_cmpstr (agent_test_server_get_request_header (f->server, 0, "Authorization"), ==,
                   "Bearer " KEY);
  g_assert_true (g_str_has_prefix (agent_test_server_get_request_header (f->server, 0,
                                                                         "Content-Type"),
                                   "multipart/form-data"));

  file = form_field (f, 0, "file", &filename, &type);
  g_assert_nonnull (file);
  g_assert_true (g_bytes_equal (file, expected));
  g_assert_cmpstr (filename, ==, "clip.WAV");
  g_assert_cmpstr (type, ==, "audio/wav");
  model = form_string (f, 0, "model");
  g_assert_cmpstr (model, ==, "whisper-1");
  language = form_string (f, 0, "language");
  g_assert_cmpstr (language, ==, "de");
  format = form_string (f, 0, "response_format");
  g_assert_cmpstr (format, ==, "json");
  temperature = form_string (f, 0, "temperature");
  g_assert_cmpstr (temperature, ==, "0.5");
  stream = form_string (f, 0, "stream");
  g_assert_null (stream);
}

static void
test_transcribe_verbose (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(AgentTranscription) transcription = agent_transcription_new (f->provider);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *format = NULL;
  g_autofree char *prompt = NULL;
  g_autofree char *model = NULL;

  agent_test_response_set_body (agent_test_server_add_response (f->server, 200),
                                "application/json",
                                "{\"task\": \"transcribe\", \"language\": \"german\", "
                                "\"duration\": 2.5, \"text\": \"Guten Tag.\", "
                                "\"segments\": [{\"id\": 0, \"start\": 0.0, \"end\": 2.5, "
                                "\"text\": \"Guten Tag.\"}]}");
  agent_transcription_set_response_format (transcription, "verbose_json");
  agent_transcription_set_prompt (transcription, "Greetings.");
  agent_transcription_set_model (transcription, "whisper-large-v3");

  text = transcribe (f, transcription, audio_data, sizeof audio_data, "clip.ogg", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (text, ==, "Guten Tag.");
  g_assert_cmpstr (agent_transcription_get_detected_language (transcription), ==, "german");
  g_assert_cmpfloat (agent_transcription_get_duration (transcription), ==, 2.5);

  format = form_string (f, 0, "response_format");
  g_assert_cmpstr (format, ==, "verbose_json");
  prompt = form_string (f, 0, "prompt");
  g_assert_cmpstr (prompt, ==, "Greetings.");
  model = form_string (f, 0, "model");
  g_assert_cmpstr (model, ==, "whisper-large-v3");
}

static void
test_transcribe_text (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(AgentTranscription) transcription = agent_transcription_new (f->provider);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  agent_test_response_set_body (agent_test_server_add_response (f->server, 200),
                                "text/plain; charset=utf-8", "Plain words.\n");
  agent_transcription_set_response_format (transcription, "text");

  text = transcribe (f, transcription, audio_data, sizeof audio_data, "clip.mp3", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (text, ==, "Plain words.\n");
}

static gboolean
has_two_pieces (gpointer data)
{
  return ((Fixture *) data)->pieces->len >= 2;
}

static void
test_transcribe_stream (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(AgentTranscription) transcription = agent_transcription_new (f->provider);
  g_autoptr(GBytes) audio = g_bytes_new_static (audio_data, sizeof audio_data);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *stream = NULL;
  AgentTestResponse *response;

  response = agent_test_server_add_response (f->server, 200);
  agent_test_response_add_sse (response, "{\"type\": \"transcript.text.delta\", \"delta\": \"Hel\"}");
  agent_test_response_add_sse (response, "{\"type\": \"transcript.text.delta\", \"delta\": \"lo \"}");
  agent_test_response_add_wait (response);
  agent_test_response_add_sse (response, "{\"type\": \"transcript.text.delta\", \"delta\": \"there\"}");
  agent_test_response_add_sse (response, "{\"type\": \"transcript.text.done\", "
                                         "\"text\": \"Hello there.\"}");
  agent_transcription_set_stream (transcription, TRUE);
  g_signal_connect (transcription, "delta", G_CALLBACK (delta_cb), f);
  g_ptr_array_set_free_func (f->pieces, g_free);

  agent_transcription_transcribe_async (transcription, audio, "clip.webm", NULL, result_cb, f);
  /* The first deltas arrive while the server holds the rest */
  agent_test_wait_until (has_two_pieces, f);
  g_assert_null (f->result);
  g_assert_cmpstr (g_ptr_array_index (f->pieces, 0), ==, "Hel");
  g_assert_cmpstr (g_ptr_array_index (f->pieces, 1), ==, "lo ");
  agent_test_server_wait_until_waiting (f->server);
  agent_test_server_release (f->server);

  agent_test_wait_until (has_result, f);
  text = agent_transcription_transcribe_finish (transcription, f->result, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (text, ==, "Hello there.");
  g_assert_cmpuint (f->pieces->len, ==, 3);
  g_assert_cmpstr (g_ptr_array_index (f->pieces, 2), ==, "there");
  stream = form_string (f, 0, "stream");
  g_assert_cmpstr (stream, ==, "true");
}

static void
test_transcribe_broken_stream (Fixture       *f,
                               gconstpointer  data)
{
  g_autoptr(AgentTranscription) transcription = agent_transcription_new (f->provider);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  AgentTestResponse *response;

  response = agent_test_server_add_response (f->server, 200);
  agent_test_response_add_sse (response, "{\"type\": \"transcript.text.delta\", \"delta\": \"Kept \"}");
  agent_test_response_add_sse (response, "{\"type\": \"transcript.text.delta\", \"delta\": \"words\"}");
  agent_test_response_set_drop (response);
  agent_transcription_set_stream (transcription, TRUE);
  g_signal_connect (transcription, "delta", G_CALLBACK (delta_cb), f);
  g_ptr_array_set_free_func (f->pieces, g_free);

  text = transcribe (f, transcription, audio_data, sizeof audio_data, "clip.flac", &error);
  g_assert_null (text);
  g_assert_nonnull (error);
  g_assert_true (error->domain == AGENT_ERROR);
  g_assert_cmpuint (f->pieces->len, ==, 2);
  g_assert_cmpstr (agent_transcription_get_text (transcription), ==, "Kept words");
}

static void
test_transcribe_401 (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(AgentTranscription) transcription = agent_transcription_new (f->provider);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  agent_test_response_set_body (agent_test_server_add_response (f->server, 401),
                                "application/json",
                                "{\"error\": {\"message\": \"Incorrect API key provided: " KEY
                                "\", \"type\": \"invalid_request_error\"}}");

  text = transcribe (f, transcription, audio_data, sizeof audio_data, "clip.wav", &error);
  g_assert_null (text);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_AUTHENTICATION);
  g_assert_cmpuint (agent_error_get_http_status (error), ==, 401);
  g_assert_null (strstr (error->message, KEY));
  agent_test_assert_contains (error->message, "Incorrect API key provided");
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 1);
}

static void
test_transcribe_413 (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(AgentTranscription) transcription = agent_transcription_new (f->provider);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  agent_test_response_set_body (agent_test_server_add_response (f->server, 413),
                                "application/json",
                                "{\"error\": {\"message\": \"Maximum content size limit "
                                "(26214400) exceeded\"}}");

  text = transcribe (f, transcription, audio_data, sizeof audio_data, "clip.wav", &error);
  g_assert_null (text);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_HTTP);
  g_assert_cmpuint (agent_error_get_http_status (error), ==, 413);
  agent_test_assert_contains (error->message, "Maximum content size limit");
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 1);
}

static void
test_transcribe_retry (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(AgentTranscription) transcription = agent_transcription_new (f->provider);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  AgentTestResponse *busy;

  busy = agent_test_server_add_response (f->server, 503);
  agent_test_response_add_header (busy, "Retry-After", "0");
  agent_test_response_set_body (busy, "application/json", "{\"error\": \"overloaded\"}");
  agent_test_response_set_body (agent_test_server_add_response (f->server, 200),
                                "application/json", "{\"text\": \"Second time.\"}");

  text = transcribe (f, transcription, audio_data, sizeof audio_data, "clip.m4a", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (text, ==, "Second time.");
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 2);
}

static void
test_transcribe_bad_input (Fixture       *f,
                           gconstpointer  data)
{
  g_autoptr(AgentTranscription) transcription = agent_transcription_new (f->provider);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  text = transcribe (f, transcription, audio_data, 0, "clip.wav", &error);
  g_assert_null (text);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  agent_test_assert_contains (error->message, "“clip.wav” is empty");
  g_clear_error (&error);

  text = transcribe (f, transcription, audio_data, sizeof audio_data, "notes.txt", &error);
  g_assert_null (text);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  agent_test_assert_contains (error->message, "“notes.txt”");
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 0);
  g_assert_null (agent_transcription_get_audio_type ("clip"));
  g_assert_cmpstr (agent_transcription_get_audio_type ("a.Opus"), ==, "audio/ogg");
}

static void
test_unsupported (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(AgentProvider) anthropic = agent_provider_new ("anthropic", NULL);
  g_autoptr(AgentTranscription) transcription = agent_transcription_new (anthropic);
  g_autoptr(AgentSpeech) speech = agent_speech_new (anthropic);
  g_autoptr(GBytes) audio = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  agent_provider_set_base_url (anthropic, agent_test_server_get_base_url (f->server));
  text = transcribe (f, transcription, audio_data, sizeof audio_data, "clip.wav", &error);
  g_assert_null (text);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_UNSUPPORTED);
  agent_test_assert_contains (error->message, "Anthropic");
  g_clear_error (&error);

  g_clear_object (&f->result);
  agent_speech_synthesize_async (speech, "Hello", NULL, result_cb, f);
  agent_test_wait_until (has_result, f);
  audio = agent_speech_synthesize_finish (speech, f->result, &error);
  g_assert_null (audio);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_UNSUPPORTED);
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 0);
}

static gboolean
has_a_piece (gpointer data)
{
  return ((Fixture *) data)->pieces->len >= 1;
}

static void
test_speech_chunks (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(AgentSpeech) speech = agent_speech_new (f->provider);
  g_autoptr(GBytes) audio = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *body;
  AgentTestResponse *response;

  response = agent_test_server_add_response (f->server, 200);
  agent_test_response_set_content_type (response, "audio/mpeg");
  agent_test_response_add_bytes (response, "ID3\0first", 9);
  agent_test_response_add_wait (response);
  agent_test_response_add_bytes (response, "-second", -1);
  agent_test_response_add_delay (response, 20);
  agent_test_response_add_bytes (response, "-third", -1);
  agent_speech_set_voice (speech, "nova");
  agent_speech_set_speed (speech, 1.25);
  agent_speech_set_response_format (speech, "mp3");
  agent_speech_set_instructions (speech, "Cheerful.");
  g_signal_connect (speech, "chunk", G_CALLBACK (chunk_cb), f);
  g_ptr_array_set_free_func (f->pieces, (GDestroyNotify) g_bytes_unref);

  agent_speech_synthesize_async (speech, "Hello there.", NULL, result_cb, f);
  /* The first chunk comes while the server holds the rest */
  agent_test_wait_until (has_a_piece, f);
  g_assert_null (f->result);
  g_assert_cmpstr (agent_speech_get_content_type (speech), ==, "audio/mpeg");
  g_assert_cmpmem (g_bytes_get_data (g_ptr_array_index (f->pieces, 0), NULL),
                   g_bytes_get_size (g_ptr_array_index (f->pieces, 0)), "ID3\0first", 9);
  agent_test_server_wait_until_waiting (f->server);
  agent_test_server_release (f->server);

  agent_test_wait_until (has_result, f);
  audio = agent_speech_synthesize_finish (speech, f->result, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (audio, NULL), g_bytes_get_size (audio),
                   "ID3\0first-second-third", 22);
  g_assert_cmpuint (f->pieces->len, >=, 2);

  g_assert_cmpstr (agent_test_server_get_request_path (f->server, 0), ==, "/v1/audio/speech");
  body = json_node_get_object (agent_test_server_get_request_body (f->server, 0));
  g_assert_cmpstr (json_object_get_string_member (body, "model"), ==, "tts-1");
  g_assert_cmpstr (json_object_get_string_member (body, "input"), ==, "Hello there.");
  g_assert_cmpstr (json_object_get_string_member (body, "voice"), ==, "nova");
  g_assert_cmpstr (json_object_get_string_member (body, "response_format"), ==, "mp3");
  g_assert_cmpstr (json_object_get_string_member (body, "instructions"), ==, "Cheerful.");
  g_assert_cmpfloat (json_object_get_double_member (body, "speed"), ==, 1.25);
}

static gboolean
server_saw_abort (gpointer data)
{
  return agent_test_server_get_n_aborted (((Fixture *) data)->server) > 0;
}

static void
test_speech_cancel (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(AgentSpeech) speech = agent_speech_new (f->provider);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GBytes) audio = NULL;
  g_autoptr(GError) error = NULL;
  AgentTestResponse *response;

  response = agent_test_server_add_response (f->server, 200);
  agent_test_response_set_content_type (response, "audio/wav");
  agent_test_response_add_bytes (response, "RIFF", -1);
  agent_test_response_add_wait (response);
  agent_test_response_add_bytes (response, "never", -1);
  g_signal_connect (speech, "chunk", G_CALLBACK (chunk_cb), f);
  g_ptr_array_set_free_func (f->pieces, (GDestroyNotify) g_bytes_unref);

  agent_speech_synthesize_async (speech, "Hello.", cancellable, result_cb, f);
  agent_test_wait_until (has_a_piece, f);
  g_cancellable_cancel (cancellable);
  agent_test_wait_until (has_result, f);
  audio = agent_speech_synthesize_finish (speech, f->result, &error);
  g_assert_null (audio);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (f->pieces->len, ==, 1);

  /* The server sees the connection close while it holds the rest */
  agent_test_wait_until (server_saw_abort, f);
}

static void
test_speech_empty_input (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(AgentSpeech) speech = agent_speech_new (f->provider);
  g_autoptr(GBytes) audio = NULL;
  g_autoptr(GError) error = NULL;

  agent_speech_synthesize_async (speech, "  \n", NULL, result_cb, f);
  agent_test_wait_until (has_result, f);
  audio = agent_speech_synthesize_finish (speech, f->result, &error);
  g_assert_null (audio);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 0);
}

static guint32
read_u32 (const guint8 *at)
{
  guint32 value;

  memcpy (&value, at, 4);
  return GUINT32_FROM_LE (value);
}

static guint16
read_u16 (const guint8 *at)
{
  guint16 value;

  memcpy (&value, at, 2);
  return GUINT16_FROM_LE (value);
}

static GBytes *
speak_locally (Fixture          *f,
               AgentLocalVoice  *voice,
               const char       *text,
               GCancellable     *cancellable,
               GError          **error)
{
  g_clear_object (&f->result);
  agent_local_voice_synthesize_async (voice, text, cancellable, result_cb, f);
  agent_test_wait_until (has_result, f);
  return agent_local_voice_synthesize_finish (voice, f->result, error);
}

static void
test_local_wav (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(AgentLocalVoice) voice = agent_local_voice_new ();
  g_autoptr(AgentTranscription) transcription = NULL;
  g_autoptr(GBytes) wav = NULL;
  g_autoptr(GBytes) file = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  const guint8 *bytes;
  gsize len;
  gint16 loudest = 0;

  if (!agent_local_voice_get_available ())
    {
      g_test_skip ("built without espeak-ng");
      return;
    }

  wav = speak_locally (f, voice, "The quick brown fox jumps over the lazy dog.", NULL, &error);
  g_assert_no_error (error);
  bytes = g_bytes_get_data (wav, &len);
  g_assert_cmpuint (len, >, 44);
  g_assert_cmpmem (bytes, 4, "RIFF", 4);
  g_assert_cmpuint (read_u32 (bytes + 4), ==, len - 8);
  g_assert_cmpmem (bytes + 8, 8, "WAVEfmt ", 8);
  g_assert_cmpuint (read_u32 (bytes + 16), ==, 16);
  g_assert_cmpuint (read_u16 (bytes + 20), ==, 1);
  g_assert_cmpuint (read_u16 (bytes + 22), ==, 1);
  g_assert_cmpuint (read_u32 (bytes + 24), >=, 8000);
  g_assert_cmpuint (read_u32 (bytes + 28), ==, read_u32 (bytes + 24) * 2);
  g_assert_cmpuint (read_u16 (bytes + 34), ==, 16);
  g_assert_cmpmem (bytes + 36, 4, "data", 4);
  g_assert_cmpuint (read_u32 (bytes + 40), ==, len - 44);
  /* Half a second of speech at least, and not silence */
  g_assert_cmpuint (len - 44, >, read_u32 (bytes + 24));
  for (gsize i = 44; i + 1 < len; i += 2)
    loudest = MAX (loudest, ABS ((gint16) read_u16 (bytes + i)));
  g_assert_cmpint (loudest, >, 1000);

  /* The WAV goes to a server whole */
  agent_test_response_set_body (agent_test_server_add_response (f->server, 200),
                                "application/json", "{\"text\": \"The quick brown fox.\"}");
  transcription = agent_transcription_new (f->provider);
  text = transcribe (f, transcription, bytes, len, "fox.wav", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (text, ==, "The quick brown fox.");
  file = form_field (f, 0, "file", NULL, NULL);
  g_assert_true (g_bytes_equal (file, wav));
}

static void
test_local_voices (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(AgentLocalVoice) voice = agent_local_voice_new ();
  g_autoptr(GBytes) wav = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) voices = NULL;

  if (!agent_local_voice_get_available ())
    {
      voices = agent_local_voice_list_voices (&error);
      g_assert_error (error, AGENT_ERROR, AGENT_ERROR_UNSUPPORTED);
      return;
    }

  voices = agent_local_voice_list_voices (&error);
  g_assert_no_error (error);
  g_assert_true (g_strv_contains ((const char * const *) voices, "en-us"));
  g_assert_true (g_strv_contains ((const char * const *) voices, "de"));

  agent_local_voice_set_voice (voice, "no-such-voice");
  wav = speak_locally (f, voice, "Hello", NULL, &error);
  g_assert_null (wav);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  agent_test_assert_contains (error->message, "no-such-voice");
  g_clear_error (&error);

  wav = speak_locally (f, voice, " ", NULL, &error);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
}

static void
test_local_cancel (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(AgentLocalVoice) voice = agent_local_voice_new ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GBytes) wav = NULL;
  g_autoptr(GError) error = NULL;

  if (!agent_local_voice_get_available ())
    {
      g_test_skip ("built without espeak-ng");
      return;
    }

  g_cancellable_cancel (cancellable);
  wav = speak_locally (f, voice, "This is never heard.", cancellable, &error);
  g_assert_null (wav);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/voice/transcribe/json", test_transcribe_json);
  ADD ("/voice/transcribe/verbose", test_transcribe_verbose);
  ADD ("/voice/transcribe/text", test_transcribe_text);
  ADD ("/voice/transcribe/stream", test_transcribe_stream);
  ADD ("/voice/transcribe/broken-stream", test_transcribe_broken_stream);
  ADD ("/voice/transcribe/401", test_transcribe_401);
  ADD ("/voice/transcribe/413", test_transcribe_413);
  ADD ("/voice/transcribe/retry", test_transcribe_retry);
  ADD ("/voice/transcribe/bad-input", test_transcribe_bad_input);
  ADD ("/voice/unsupported", test_unsupported);
  ADD ("/voice/speech/chunks", test_speech_chunks);
  ADD ("/voice/speech/cancel", test_speech_cancel);
  ADD ("/voice/speech/empty-input", test_speech_empty_input);
  ADD ("/voice/local/wav", test_local_wav);
  ADD ("/voice/local/voices", test_local_voices);
  ADD ("/voice/local/cancel", test_local_cancel);
#undef ADD

  return g_test_run ();
}
