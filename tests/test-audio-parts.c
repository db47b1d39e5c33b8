/* test-audio-parts.c — recordings in messages
 *
 * - /audio-parts/from-file: a WAV, an MP3 and an OGG file read into audio
 *   parts, their types sniffed.
 * - /audio-parts/request/PROVIDER: what OpenAI's chat completions
 *   (input_audio with a format) and Gemini (inline_data with the type it
 *   documents) send for a user message with text and a recording, captured
 *   by the in-process server.
 * - /audio-parts/refused/PROVIDER: the providers whose APIs take no audio
 *   (Anthropic, Ollama, OpenAI's Responses), and OpenAI's chat given a
 *   format it does not take, fail with AGENT_ERROR_UNSUPPORTED naming the
 *   provider before anything is sent or kept.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "agent-test-provider.h"
#include "agent-test-util.h"

#define PROMPT "What is said here?"

/* Not a real recording: the providers send the bytes as they are. A RIFF
 * header of 16-bit mono at 8 kHz (16,000 bytes a second) and 32 bytes of
 * samples. */
static const char wav_bytes[] =
  "RIFF\x44\0\0\0WAVEfmt \x10\0\0\0\x01\0\x01\0\x40\x1f\0\0\x80\x3e\0\0\x02\0\x10\0"
  "data\x20\0\0\0" "0123456789abcdef0123456789abcdef";
static const char mp3_bytes[] = "ID3\x04\0\0\0\0\0\0 fake mp3 frames";

static AgentMessage *
question_new (AgentContentPart *audio)
{
  g_autoptr(AgentContentPart) text = agent_content_part_new_text (PROMPT);
  AgentContentPart *parts[] = { text, audio };

  return agent_message_new_with_parts (AGENT_MESSAGE_ROLE_USER, parts, 2);
}

static void
test_from_file (void)
{
  g_autofree char *dir = agent_test_make_dir ("audio-parts");
  g_autofree char *wav_path = agent_test_write_file (dir, "hello.wav", wav_bytes,
                                                     sizeof wav_bytes - 1);
  g_autofree char *mp3_path = agent_test_write_file (dir, "song.mp3", mp3_bytes,
                                                     sizeof mp3_bytes - 1);
  g_autofree char *ogg_path = agent_test_write_file (dir, "note.ogg", "OggS\0\2 fake", 11);
  const char *paths[] = { wav_path, mp3_path, ogg_path };

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      g_autoptr(GFile) file = g_file_new_for_path (paths[i]);
      g_autoptr(AgentContentPart) part = NULL;
      g_autoptr(GError) error = NULL;

      part = agent_content_part_new_from_file (file, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpint (agent_content_part_get_kind (part), ==, AGENT_CONTENT_PART_KIND_AUDIO);
      g_test_message ("%s: %s", paths[i], agent_content_part_get_mime_type (part));
      g_assert_true (g_str_has_prefix (agent_content_part_get_mime_type (part), "audio/") ||
                     g_str_equal (agent_content_part_get_mime_type (part), "application/ogg"));
    }

  {
    g_autoptr(GBytes) data = g_bytes_new_static (wav_bytes, sizeof wav_bytes - 1);
    g_autoptr(AgentContentPart) part = agent_content_part_new_audio ("audio/wav", data);

    g_assert_cmpint (agent_content_part_get_kind (part), ==, AGENT_CONTENT_PART_KIND_AUDIO);
    g_assert_cmpuint (agent_content_part_get_size (part), ==, sizeof wav_bytes - 1);
  }

  agent_test_remove_dir (dir);
}

typedef struct
{
  const char *provider;
  const char *mime_type;     /* of the part */
  const char *answer_path;   /* a corpus file, or NULL */
  const char *answer;        /* else: an SSE body */
  const char *member;        /* the request member holding the messages */
  const char *expected;      /* AUDIO64: the base64 of the recording */
  gboolean    mp3;           /* the MP3 bytes, not the WAV */
} RequestCase;

#define GEMINI_ANSWER \
  "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"Hello.\"}]}," \
  "\"finishReason\":\"STOP\"}]}\n\n"

static const RequestCase request_cases[] = {
  { "openai", "audio/x-wav", "openai-chat/oaipy-text-only.sse", NULL, "messages",
    "[{\"role\":\"user\",\"content\":["
    "  {\"type\":\"text\",\"text\":\"" PROMPT "\"},"
    "  {\"type\":\"input_audio\",\"input_audio\":{\"data\":\"AUDIO64\",\"format\":\"wav\"}}]}]" },
  { "openai", "audio/mpeg", "openai-chat/oaipy-text-only.sse", NULL, "messages",
    "[{\"role\":\"user\",\"content\":["
    "  {\"type\":\"text\",\"text\":\"" PROMPT "\"},"
    "  {\"type\":\"input_audio\",\"input_audio\":{\"data\":\"AUDIO64\",\"format\":\"mp3\"}}]}]",
    TRUE },
  { "gemini", "audio/x-wav", NULL, GEMINI_ANSWER, "contents",
    "[{\"role\":\"user\",\"parts\":["
    "  {\"text\":\"" PROMPT "\"},"
    "  {\"inline_data\":{\"mime_type\":\"audio/wav\",\"data\":\"AUDIO64\"}}]}]" },
  { "gemini", "audio/x-flac", NULL, GEMINI_ANSWER, "contents",
    "[{\"role\":\"user\",\"parts\":["
    "  {\"text\":\"" PROMPT "\"},"
    "  {\"inline_data\":{\"mime_type\":\"audio/flac\",\"data\":\"AUDIO64\"}}]}]" },
};

static void
test_request (gconstpointer data)
{
  const RequestCase *c = data;
  const char *bytes = c->mp3 ? mp3_bytes : wav_bytes;
  gsize len = c->mp3 ? sizeof mp3_bytes - 1 : sizeof wav_bytes - 1;
  g_autoptr(GBytes) audio_data = g_bytes_new_static (bytes, len);
  g_autoptr(AgentContentPart) audio = agent_content_part_new_audio (c->mime_type, audio_data);
  g_autoptr(AgentMessage) question = question_new (audio);
  g_autofree char *audio64 = g_base64_encode ((const guchar *) bytes, len);
  g_autoptr(GString) expected = g_string_new (c->expected);
  AgentTestResponse *response;
  AgentTestSession s;
  JsonNode *body;

  agent_test_session_init (&s, c->provider);
  response = agent_test_server_add_response (s.server, 200);
  if (c->answer_path != NULL)
    {
      g_autofree char *path = agent_test_corpus_path (c->answer_path);

      agent_test_response_add_file_in_pieces (response, path, 1, AGENT_TEST_MAX_PIECE);
    }
  else
    agent_test_response_add_bytes (response, c->answer, strlen (c->answer));

  agent_test_turn_run_message (&s.turn, s.session, question);
  g_assert_no_error (s.turn.error);
  g_assert_nonnull (s.turn.result);
  g_assert_cmpuint (agent_test_server_get_n_requests (s.server), ==, 1);

  body = agent_test_server_get_request_body (s.server, 0);
  g_string_replace (expected, "AUDIO64", audio64, 0);
  agent_test_assert_json (json_object_get_member (json_node_get_object (body), c->member),
                          expected->str);

  agent_test_session_clear (&s);
}

typedef struct
{
  const char *provider;
  const char *name;        /* as the error names it */
  const char *mime_type;
} RefusalCase;

static const RefusalCase refusal_cases[] = {
  { "anthropic", "Anthropic", "audio/wav" },
  { "ollama", "Ollama", "audio/wav" },
  { "openai-responses", "OpenAI Responses", "audio/mpeg" },
  { "openai", "OpenAI", "audio/flac" },
};

static void
test_refused (gconstpointer data)
{
  const RefusalCase *c = data;
  g_autoptr(GBytes) bytes = g_bytes_new_static (wav_bytes, sizeof wav_bytes - 1);
  g_autoptr(AgentContentPart) audio = agent_content_part_new_audio (c->mime_type, bytes);
  g_autoptr(AgentMessage) message = question_new (audio);
  AgentTestSession s;

  agent_test_session_init (&s, c->provider);
  agent_test_turn_run_message (&s.turn, s.session, message);
  g_assert_error (s.turn.error, AGENT_ERROR, AGENT_ERROR_UNSUPPORTED);
  g_assert_nonnull (strstr (s.turn.error->message, c->name));
  g_assert_nonnull (strstr (s.turn.error->message, c->mime_type));
  /* Nothing was sent, nor kept */
  g_assert_cmpuint (agent_test_server_get_n_requests (s.server), ==, 0);
  g_assert_false (agent_session_get_busy (s.session));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (agent_session_get_memory (s.session))),
                    ==, 0);

  agent_test_session_clear (&s);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/audio-parts/from-file", test_from_file);
  for (guint i = 0; i < G_N_ELEMENTS (request_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/audio-parts/request/%s/%s",
                                               request_cases[i].provider,
                                               request_cases[i].mime_type);

      g_test_add_data_func (path, &request_cases[i], test_request);
    }
  for (guint i = 0; i < G_N_ELEMENTS (refusal_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/audio-parts/refused/%s",
                                               refusal_cases[i].provider);

      g_test_add_data_func (path, &refusal_cases[i], test_refused);
    }

  return g_test_run ();
}
