/* test-cli-voice.c — agent-cli --transcribe and --speak, as a black box
 *
 * Against the loopback test server answering as an OpenAI-compatible
 * server's /audio endpoints.
 *
 * - /cli/voice/transcribe: the file's bytes arrive whole with --language
 *   and --transcription-model; the text is printed; stream=true is asked.
 * - /cli/voice/transcribe/json: a streamed transcript gives a
 *   transcript-delta line per piece, then a transcript line.
 * - /cli/voice/transcribe/bad-file: a missing file and a file that is no
 *   audio fail naming it, with nothing sent.
 * - /cli/voice/speak: the audio is written to --output as the server
 *   sent it, with --voice and --speech-model; --json says where, what
 *   type and how much.
 * - /cli/voice/speak/stdin: --speak - reads the text from standard input.
 * - /cli/voice/speak/no-output: without --output and without a sound
 *   server, refused telling to use --output, nothing sent.
 * - /cli/voice/speak/play: without --output where a sound server runs,
 *   the audio goes to the player found on PATH (a fake pw-play that keeps
 *   what it reads), asked as WAV; a player that fails is an error.
 * - /cli/voice/speak/error: a 401 is an error line without the key, and
 *   no file is left.
 * - /cli/voice/speak/local: --local-voice writes espeak-ng's WAV with no
 *   server; an unknown voice fails naming it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include <agent.h>

#include "agent-test-cli.h"
#include "agent-test-server.h"
#include "agent-test-util.h"

#define SECRET_KEY "sk-cli-voice-secret-0123456789abcdef"
#define ENV AGENT_TEST_ARGS ("OPENAI_API_KEY=" SECRET_KEY)

static const char audio_data[] = "RIFF\0\1\2\3WAVEfmt \0data";

static char *
write_audio (const char *dir,
             const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, audio_data, sizeof audio_data, &error);
  g_assert_no_error (error);
  return g_steal_pointer (&path);
}

/* The form field @name of the server's request @index */
static char *
form_field (AgentTestServer *server,
            guint            index,
            const char      *name)
{
  g_autoptr(SoupMessageHeaders) headers = soup_message_headers_new (SOUP_MESSAGE_HEADERS_REQUEST);
  g_autoptr(SoupMultipart) multipart = NULL;

  soup_message_headers_replace (headers, "Content-Type",
                                agent_test_server_get_request_header (server, index,
                                                                      "Content-Type"));
  multipart = soup_multipart_new_from_message (headers,
                                               agent_test_server_get_request_bytes (server, index));
  g_assert_nonnull (multipart);
  for (int i = 0; i < soup_multipart_get_length (multipart); i++)
    {
      SoupMessageHeaders *part_headers;
      GBytes *body;
      g_autoptr(GHashTable) params = NULL;

      g_assert_true (soup_multipart_get_part (multipart, i, &part_headers, &body));
      g_assert_true (soup_message_headers_get_content_disposition (part_headers, NULL, &params));
      if (g_strcmp0 (g_hash_table_lookup (params, "name"), name) == 0)
        {
          /* NUL-terminated, and whole when it holds NULs */
          char *value = g_malloc0 (g_bytes_get_size (body) + 1);

          memcpy (value, g_bytes_get_data (body, NULL), g_bytes_get_size (body));
          return value;
        }
    }
  return NULL;
}

static void
test_transcribe (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autofree char *dir = agent_test_make_dir ("cli-voice");
  g_autofree char *path = write_audio (dir, "memo.wav");
  g_autofree char *file = NULL;
  g_autofree char *model = NULL;
  g_autofree char *language = NULL;
  g_autofree char *stream = NULL;

  agent_test_response_set_body (agent_test_server_add_response (server, 200), "application/json",
                                "{\"text\": \"Buy milk.\"}");

  cli = agent_test_cli_run_full (ENV, NULL,
                                 AGENT_TEST_ARGS ("--base-url",
                                                  agent_test_server_get_base_url (server),
                                                  "--transcribe", path, "--language", "en",
                                                  "--transcription-model", "whisper-large-v3"));
  agent_test_process_assert_exit (cli, 0);
  g_assert_cmpstr (cli->out->str, ==, "Buy milk.\n");

  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 1);
  g_assert_true (g_str_has_suffix (agent_test_server_get_request_path (server, 0),
                                   "/audio/transcriptions"));
  file = form_field (server, 0, "file");
  g_assert_cmpmem (file, sizeof audio_data, audio_data, sizeof audio_data);
  model = form_field (server, 0, "model");
  g_assert_cmpstr (model, ==, "whisper-large-v3");
  language = form_field (server, 0, "language");
  g_assert_cmpstr (language, ==, "en");
  stream = form_field (server, 0, "stream");
  g_assert_cmpstr (stream, ==, "true");
  agent_test_remove_dir (dir);
}

static void
test_transcribe_json (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autofree char *dir = agent_test_make_dir ("cli-voice");
  g_autofree char *path = write_audio (dir, "memo.ogg");
  AgentTestResponse *response;
  JsonObject *event;

  response = agent_test_server_add_response (server, 200);
  agent_test_response_add_sse (response, "{\"type\": \"transcript.text.delta\", \"delta\": \"Buy \"}");
  agent_test_response_add_sse (response, "{\"type\": \"transcript.text.delta\", \"delta\": \"milk\"}");
  agent_test_response_add_sse (response, "{\"type\": \"transcript.text.done\", "
                                         "\"text\": \"Buy milk.\"}");

  cli = agent_test_cli_run_full (ENV, NULL,
                                 AGENT_TEST_ARGS ("--json", "--base-url",
                                                  agent_test_server_get_base_url (server),
                                                  "--transcribe", path));
  agent_test_process_parse_json (cli);
  agent_test_process_assert_exit (cli, 0);
  g_assert_cmpuint (agent_test_process_count_events (cli, "transcript-delta"), ==, 2);
  event = agent_test_process_nth_event (cli, "transcript-delta", 1);
  g_assert_cmpstr (json_object_get_string_member (event, "text"), ==, "milk");
  event = agent_test_process_last_event (cli);
  g_assert_cmpstr (agent_test_event_type (event), ==, "transcript");
  g_assert_cmpstr (json_object_get_string_member (event, "text"), ==, "Buy milk.");
  agent_test_remove_dir (dir);
}

static void
test_transcribe_bad_file (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) missing = NULL;
  g_autoptr(AgentTestProcess) text = NULL;
  g_autofree char *dir = agent_test_make_dir ("cli-voice");
  g_autofree char *absent = g_build_filename (dir, "absent.mp3", NULL);
  g_autofree char *notes = write_audio (dir, "notes.txt");

  missing = agent_test_cli_run_full (ENV, NULL,
                                     AGENT_TEST_ARGS ("--json", "--base-url",
                                                      agent_test_server_get_base_url (server),
                                                      "--transcribe", absent));
  agent_test_process_parse_json (missing);
  agent_test_process_assert_exit (missing, 1);
  agent_test_assert_contains (agent_test_cli_assert_error (missing, "invalid-argument"),
                              "absent.mp3");

  text = agent_test_cli_run_full (ENV, NULL,
                                  AGENT_TEST_ARGS ("--base-url",
                                                   agent_test_server_get_base_url (server),
                                                   "--transcribe", notes));
  agent_test_process_assert_exit (text, 1);
  agent_test_assert_contains (text->err->str, "notes.txt");
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 0);
  agent_test_remove_dir (dir);
}

static void
test_speak (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autofree char *dir = agent_test_make_dir ("cli-voice");
  g_autofree char *output = g_build_filename (dir, "hello.mp3", NULL);
  g_autofree char *written = NULL;
  gsize len;
  AgentTestResponse *response;
  JsonObject *body;
  JsonObject *event;

  response = agent_test_server_add_response (server, 200);
  agent_test_response_set_content_type (response, "audio/mpeg");
  agent_test_response_add_bytes (response, "ID3\0one", 7);
  agent_test_response_add_bytes (response, "-two", -1);

  cli = agent_test_cli_run_full (ENV, NULL,
                                 AGENT_TEST_ARGS ("--json", "--base-url",
                                                  agent_test_server_get_base_url (server),
                                                  "--speak", "Hello there", "--output", output,
                                                  "--voice", "nova", "--speech-model",
                                                  "gpt-4o-mini-tts"));
  agent_test_process_parse_json (cli);
  agent_test_process_assert_exit (cli, 0);
  g_assert_true (g_file_get_contents (output, &written, &len, NULL));
  g_assert_cmpmem (written, len, "ID3\0one-two", 11);
  event = agent_test_process_last_event (cli);
  g_assert_cmpstr (agent_test_event_type (event), ==, "speech");
  g_assert_cmpstr (json_object_get_string_member (event, "output"), ==, output);
  g_assert_cmpstr (json_object_get_string_member (event, "content_type"), ==, "audio/mpeg");
  g_assert_cmpint (json_object_get_int_member (event, "size"), ==, 11);

  body = json_node_get_object (agent_test_server_get_request_body (server, 0));
  g_assert_cmpstr (json_object_get_string_member (body, "input"), ==, "Hello there");
  g_assert_cmpstr (json_object_get_string_member (body, "voice"), ==, "nova");
  g_assert_cmpstr (json_object_get_string_member (body, "model"), ==, "gpt-4o-mini-tts");
  agent_test_remove_dir (dir);
}

static void
test_speak_stdin (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autofree char *dir = agent_test_make_dir ("cli-voice");
  g_autofree char *output = g_build_filename (dir, "out.wav", NULL);
  JsonObject *body;

  agent_test_response_set_body (agent_test_server_add_response (server, 200), "audio/wav",
                                "RIFF-audio");

  cli = agent_test_cli_run_full (ENV, "Read from standard input.\n",
                                 AGENT_TEST_ARGS ("--base-url",
                                                  agent_test_server_get_base_url (server),
                                                  "--speak", "-", "--output", output));
  agent_test_process_assert_exit (cli, 0);
  agent_test_assert_contains (cli->err->str, "audio/wav");
  body = json_node_get_object (agent_test_server_get_request_body (server, 0));
  g_assert_cmpstr (json_object_get_string_member (body, "input"), ==,
                   "Read from standard input.\n");
  g_assert_cmpstr (json_object_get_string_member (body, "voice"), ==, "alloy");
  g_assert_cmpstr (json_object_get_string_member (body, "model"), ==, "tts-1");
  agent_test_remove_dir (dir);
}

static void
test_speak_no_output (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autofree char *dir = agent_test_make_dir ("cli-voice");
  g_autofree char *runtime = g_strconcat ("XDG_RUNTIME_DIR=", dir, NULL);

  cli = agent_test_cli_run_full (AGENT_TEST_ARGS ("OPENAI_API_KEY=" SECRET_KEY, runtime,
                                                  "PULSE_SERVER", "PIPEWIRE_REMOTE"),
                                 NULL,
                                 AGENT_TEST_ARGS ("--base-url",
                                                  agent_test_server_get_base_url (server),
                                                  "--speak", "Hello"));
  agent_test_process_assert_exit (cli, 1);
  agent_test_assert_contains (cli->err->str, "No sound server");
  agent_test_assert_contains (cli->err->str, "--output");
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 0);
  agent_test_remove_dir (dir);
}

/* A fake player in @dir: keeps what it reads in @dir/played, and exits
 * with @status */
static void
write_player (const char *dir,
              const char *name,
              int         status)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *script = g_strdup_printf ("#!/bin/sh\n"
                                             "echo \"$@\" > '%s/args'\n"
                                             "cat > '%s/played'\n"
                                             "exit %d\n",
                                             dir, dir, status);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, script, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_chmod (path, 0755), ==, 0);
}

static void
test_speak_play (void)
{
  static char samples[256 * 1024];
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autoptr(AgentTestProcess) failed = NULL;
  g_autofree char *dir = agent_test_make_dir ("cli-voice");
  g_autofree char *socket = g_build_filename (dir, "pipewire-0", NULL);
  g_autofree char *played_path = g_build_filename (dir, "played", NULL);
  g_autofree char *args_path = g_build_filename (dir, "args", NULL);
  g_autofree char *runtime = g_strconcat ("XDG_RUNTIME_DIR=", dir, NULL);
  g_autofree char *path = g_strconcat ("PATH=", dir, ":", g_getenv ("PATH"), NULL);
  g_autofree char *played = NULL;
  g_autofree char *args = NULL;
  gsize len;
  AgentTestResponse *response;
  JsonObject *event;
  JsonObject *body;

  for (gsize i = 0; i < sizeof samples; i++)
    samples[i] = (char) (i * 7 % 251);

  /* The server's socket, as far as agent-cli looks */
  g_assert_true (g_file_set_contents (socket, "", 0, NULL));
  write_player (dir, "pw-play", 0);

  /* More than a pipe holds: written as the player takes it */
  response = agent_test_server_add_response (server, 200);
  agent_test_response_set_content_type (response, "audio/wav");
  agent_test_response_add_bytes (response, "RIFF\0one", 8);
  agent_test_response_add_bytes (response, samples, sizeof samples);
  agent_test_response_add_bytes (response, "-two", -1);

  cli = agent_test_cli_run_full (AGENT_TEST_ARGS ("OPENAI_API_KEY=" SECRET_KEY, runtime, path,
                                                  "PULSE_SERVER", "PIPEWIRE_REMOTE"),
                                 NULL,
                                 AGENT_TEST_ARGS ("--json", "--base-url",
                                                  agent_test_server_get_base_url (server),
                                                  "--speak", "Hello there"));
  agent_test_process_parse_json (cli);
  agent_test_process_assert_exit (cli, 0);
  g_assert_true (g_file_get_contents (played_path, &played, &len, NULL));
  g_assert_cmpuint (len, ==, 12 + sizeof samples);
  g_assert_cmpmem (played, 8, "RIFF\0one", 8);
  g_assert_cmpmem (played + 8, sizeof samples, samples, sizeof samples);
  g_assert_cmpmem (played + 8 + sizeof samples, 4, "-two", 4);
  g_assert_true (g_file_get_contents (args_path, &args, NULL, NULL));
  g_assert_cmpstr (args, ==, "-\n");
  event = agent_test_process_last_event (cli);
  g_assert_cmpstr (agent_test_event_type (event), ==, "speech");
  g_assert_cmpstr (json_object_get_string_member (event, "player"), ==, "pw-play");
  g_assert_cmpint (json_object_get_int_member (event, "size"), ==, 12 + sizeof samples);
  body = json_node_get_object (agent_test_server_get_request_body (server, 0));
  g_assert_cmpstr (json_object_get_string_member (body, "response_format"), ==, "wav");

  /* A player that fails: an error naming it */
  write_player (dir, "pw-play", 3);
  response = agent_test_server_add_response (server, 200);
  agent_test_response_set_content_type (response, "audio/wav");
  agent_test_response_add_bytes (response, "RIFF", 4);
  failed = agent_test_cli_run_full (AGENT_TEST_ARGS ("OPENAI_API_KEY=" SECRET_KEY, runtime, path,
                                                     "PULSE_SERVER", "PIPEWIRE_REMOTE"),
                                    NULL,
                                    AGENT_TEST_ARGS ("--base-url",
                                                     agent_test_server_get_base_url (server),
                                                     "--speak", "Hello"));
  agent_test_process_assert_exit (failed, 1);
  agent_test_assert_contains (failed->err->str, "pw-play");
  agent_test_assert_contains (failed->err->str, "status 3");

  agent_test_remove_dir (dir);
}

static void
test_speak_error (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autofree char *dir = agent_test_make_dir ("cli-voice");
  g_autofree char *output = g_build_filename (dir, "hello.mp3", NULL);

  agent_test_response_set_body (agent_test_server_add_response (server, 401), "application/json",
                                "{\"error\": {\"message\": \"Incorrect API key provided: "
                                SECRET_KEY "\"}}");

  cli = agent_test_cli_run_full (ENV, NULL,
                                 AGENT_TEST_ARGS ("--json", "--base-url",
                                                  agent_test_server_get_base_url (server),
                                                  "--speak", "Hello", "--output", output));
  agent_test_process_parse_json (cli);
  agent_test_process_assert_exit (cli, 1);
  agent_test_assert_contains (agent_test_cli_assert_error (cli, "authentication"),
                              "Incorrect API key provided");
  g_assert_null (strstr (cli->out->str, SECRET_KEY));
  g_assert_null (strstr (cli->err->str, SECRET_KEY));
  g_assert_false (g_file_test (output, G_FILE_TEST_EXISTS));
  agent_test_remove_dir (dir);
}

static void
test_speak_local (void)
{
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autoptr(AgentTestProcess) unknown = NULL;
  g_autofree char *dir = agent_test_make_dir ("cli-voice");
  g_autofree char *output = g_build_filename (dir, "hello.wav", NULL);
  g_autofree char *written = NULL;
  gsize len;
  JsonObject *event;

  if (!agent_local_voice_get_available ())
    {
      g_test_skip ("built without espeak-ng");
      agent_test_remove_dir (dir);
      return;
    }

  /* No server: a base URL nothing listens on */
  cli = agent_test_cli_run_full (ENV, NULL,
                                 AGENT_TEST_ARGS ("--json", "--base-url", "http://127.0.0.1:9/v1",
                                                  "--local-voice", "--voice", "de",
                                                  "--speak", "Guten Morgen", "--output", output));
  agent_test_process_parse_json (cli);
  agent_test_process_assert_exit (cli, 0);
  g_assert_true (g_file_get_contents (output, &written, &len, NULL));
  g_assert_cmpuint (len, >, 44);
  g_assert_cmpmem (written, 4, "RIFF", 4);
  g_assert_cmpmem (written + 8, 4, "WAVE", 4);
  event = agent_test_process_last_event (cli);
  g_assert_cmpstr (json_object_get_string_member (event, "content_type"), ==, "audio/wav");
  g_assert_cmpint (json_object_get_int_member (event, "size"), ==, len);

  unknown = agent_test_cli_run_full (ENV, NULL,
                                     AGENT_TEST_ARGS ("--local-voice", "--voice", "xx-nowhere",
                                                      "--speak", "Hello", "--output", output));
  agent_test_process_assert_exit (unknown, 1);
  agent_test_assert_contains (unknown->err->str, "xx-nowhere");
  agent_test_remove_dir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli/voice/transcribe", test_transcribe);
  g_test_add_func ("/cli/voice/transcribe/json", test_transcribe_json);
  g_test_add_func ("/cli/voice/transcribe/bad-file", test_transcribe_bad_file);
  g_test_add_func ("/cli/voice/speak", test_speak);
  g_test_add_func ("/cli/voice/speak/stdin", test_speak_stdin);
  g_test_add_func ("/cli/voice/speak/no-output", test_speak_no_output);
  g_test_add_func ("/cli/voice/speak/play", test_speak_play);
  g_test_add_func ("/cli/voice/speak/error", test_speak_error);
  g_test_add_func ("/cli/voice/speak/local", test_speak_local);

  return g_test_run ();
}
