/* test-cli-attach.c — agent-cli --attach FILE, end to end
 *
 * The real binary against the in-process server: the files go with the
 * prompt as the provider's API defines, --json reports each (name, MIME
 * type, size; never the bytes), and a file that cannot be read or sent
 * sends nothing. Only regular files are read, up to their size when
 * opened.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <agent.h>

#ifdef HAVE_GDK_PIXBUF
# include <gdk-pixbuf/gdk-pixbuf.h>
#endif

#include "agent-test-cli.h"
#include "agent-test-openai.h"
#include "agent-test-provider.h"
#include "agent-test-server.h"
#include "agent-test-util.h"

static const char png_bytes[] = "\x89PNG\r\n\x1a\n\0\0\0\rIHDR fake image";
#define NOTES "Line one\nLine two\n"

typedef struct
{
  char *dir;
  char *image;   /* "screenshot": no extension, sniffed as PNG */
  char *notes;   /* notes.txt */
} Files;

static void
files_init (Files *files)
{
  files->dir = agent_test_make_dir ("cli-attach-XXXXXX");
  files->image = agent_test_write_file (files->dir, "screenshot", png_bytes, sizeof png_bytes - 1);
  files->notes = agent_test_write_file (files->dir, "notes.txt", NOTES, -1);
}

static void
files_clear (Files *files)
{
  agent_test_remove_dir (files->dir);
  g_free (files->dir);
  g_free (files->image);
  g_free (files->notes);
}

static void
test_attach_json (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autofree char *image64 = g_base64_encode ((const guchar *) png_bytes, sizeof png_bytes - 1);
  g_autofree char *expected = NULL;
  g_autofree char *types = NULL;
  JsonObject *event;
  JsonArray *messages;
  Files files;

  files_init (&files);
  agent_test_openai_add_text_response (server, (const char * const[]) { "A dialog.", NULL }, 5, 2);
  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--base-url",
                                                  agent_test_server_get_base_url (server),
                                                  "--attach", files.image, "--attach", files.notes,
                                                  "What is wrong here?"));
  agent_test_process_assert_exit (cli, 0);

  /* One event per file, before the answer, without the bytes */
  types = agent_test_process_event_types (cli);
  g_assert_true (g_str_has_prefix (types, "attachment attachment text-delta"));
  event = agent_test_process_nth_event (cli, "attachment", 0);
  g_assert_cmpstr (agent_test_get_string (event, "name"), ==, "screenshot");
  g_assert_cmpstr (agent_test_get_string (event, "mime_type"), ==, "image/png");
  g_assert_cmpint (json_object_get_int_member (event, "size"), ==, sizeof png_bytes - 1);
  g_assert_cmpuint (json_object_get_size (event), ==, 4);
  event = agent_test_process_nth_event (cli, "attachment", 1);
  g_assert_cmpstr (agent_test_get_string (event, "name"), ==, "notes.txt");
  g_assert_cmpstr (agent_test_get_string (event, "mime_type"), ==, "text/plain");
  g_assert_cmpint (json_object_get_int_member (event, "size"), ==, strlen (NOTES));
  g_assert_null (strstr (cli->out->str, image64));

  /* The request: the prompt, the image as a data URL, the text file as text */
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 1);
  messages = agent_test_openai_get_messages (server, 0);
  g_assert_cmpuint (json_array_get_length (messages), ==, 1);
  expected = g_strdup_printf (
    "{\"role\":\"user\",\"content\":["
    " {\"type\":\"text\",\"text\":\"What is wrong here?\"},"
    " {\"type\":\"image_url\",\"image_url\":{\"url\":\"data:image/png;base64,%s\"}},"
    " {\"type\":\"text\",\"text\":\"<file name=\\\"notes.txt\\\" type=\\\"text/plain\\\">\\n"
    "Line one\\nLine two\\n\\n</file>\"}]}",
    image64);
  agent_test_assert_json (json_array_get_element (messages, 0), expected);

  files_clear (&files);
}

/* A recording: an audio part, sent as OpenAI's input_audio; refused with
 * the provider named where the API takes no audio */
static void
test_attach_audio (void)
{
  static const char wav[] = "RIFF\x24\0\0\0WAVEfmt \x10\0\0\0\x01\0\x01\0\x40\x1f\0\0"
                            "\x80\x3e\0\0\x02\0\x10\0data\0\0\0\0";
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autoptr(AgentTestProcess) refused = NULL;
  g_autofree char *dir = agent_test_make_dir ("cli-attach-audio");
  g_autofree char *path = agent_test_write_file (dir, "memo.wav", wav, sizeof wav - 1);
  g_autofree char *audio64 = g_base64_encode ((const guchar *) wav, sizeof wav - 1);
  g_autofree char *expected = NULL;
  const char *message;
  JsonObject *event;
  JsonArray *messages;

  agent_test_openai_add_text_response (server, (const char * const[]) { "Hello.", NULL }, 5, 2);
  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--base-url",
                                                  agent_test_server_get_base_url (server),
                                                  "--attach", path, "What is said?"));
  agent_test_process_assert_exit (cli, 0);
  event = agent_test_process_nth_event (cli, "attachment", 0);
  g_assert_cmpstr (agent_test_get_string (event, "name"), ==, "memo.wav");
  g_assert_true (g_str_has_prefix (agent_test_get_string (event, "mime_type"), "audio/"));

  messages = agent_test_openai_get_messages (server, 0);
  expected = g_strdup_printf (
    "{\"role\":\"user\",\"content\":["
    " {\"type\":\"text\",\"text\":\"What is said?\"},"
    " {\"type\":\"input_audio\",\"input_audio\":{\"data\":\"%s\",\"format\":\"wav\"}}]}",
    audio64);
  agent_test_assert_json (json_array_get_element (messages, 0), expected);

  refused = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--provider", "anthropic",
                                                      "--base-url",
                                                      agent_test_server_get_base_url (server),
                                                      "--attach", path, "What is said?"));
  agent_test_process_assert_exit (refused, 1);
  message = agent_test_cli_assert_error (refused, "unsupported");
  g_assert_nonnull (strstr (message, "Anthropic"));
  g_assert_nonnull (strstr (message, "audio"));
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 1);

  agent_test_remove_dir (dir);
}

/* Without --json: a line per file on standard error */
static void
test_attach_plain (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  Files files;

  files_init (&files);
  agent_test_openai_add_text_response (server, (const char * const[]) { "Fine.", NULL }, 5, 2);
  cli = agent_test_cli_run (AGENT_TEST_ARGS ("--base-url", agent_test_server_get_base_url (server),
                                             "--attach", files.notes, "Read this"));
  agent_test_process_assert_exit (cli, 0);
  g_assert_nonnull (strstr (cli->err->str, "Attached notes.txt (text/plain, 18 bytes)"));
  g_assert_cmpstr (cli->out->str, ==, "Fine.\n");

  files_clear (&files);
}

/* A file that cannot be read: an error naming it, nothing sent */
static void
test_attach_missing (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autoptr(AgentTestProcess) folder = NULL;
  const char *message;
  Files files;

  files_init (&files);
  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--base-url",
                                                  agent_test_server_get_base_url (server),
                                                  "--attach", "/nonexistent/shot.png", "Look"));
  agent_test_process_assert_exit (cli, 1);
  message = agent_test_cli_assert_error (cli, "invalid-argument");
  g_assert_nonnull (strstr (message, "/nonexistent/shot.png"));

  folder = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--base-url",
                                                     agent_test_server_get_base_url (server),
                                                     "--attach", files.dir, "Look"));
  agent_test_process_assert_exit (folder, 1);
  message = agent_test_cli_assert_error (folder, "invalid-argument");
  g_assert_nonnull (strstr (message, "folder"));
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 0);

  files_clear (&files);
}

/* Larger than max-attachment-size (20 MiB): refused before it is read */
static void
test_attach_too_large (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autofree char *dir = agent_test_make_dir ("cli-attach-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "huge.png", NULL);
  const char *message;
  FILE *file = fopen (path, "w");

  /* Sparse: 21 MiB that take no room */
  g_assert_nonnull (file);
  g_assert_cmpint (fseek (file, 21 * 1024 * 1024 - 1, SEEK_SET), ==, 0);
  g_assert_cmpint (fputc ('\n', file), ==, '\n');
  g_assert_cmpint (fclose (file), ==, 0);

  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--base-url",
                                                  agent_test_server_get_base_url (server),
                                                  "--attach", path, "Look"));
  agent_test_process_assert_exit (cli, 1);
  message = agent_test_cli_assert_error (cli, "limit");
  g_assert_nonnull (strstr (message, "huge.png"));
  g_assert_nonnull (strstr (message, "max-attachment-size"));
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 0);

  agent_test_remove_dir (dir);
}

/* --scale-images: a 300×120 PNG goes as 100×40; without gdk-pixbuf, an
 * error saying so */
static void
test_attach_scaled (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autofree char *dir = agent_test_make_dir ("cli-attach-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "wide.png", NULL);
#ifdef HAVE_GDK_PIXBUF
  g_autoptr(GdkPixbuf) pixbuf = gdk_pixbuf_new (GDK_COLORSPACE_RGB, FALSE, 8, 300, 120);
  g_autoptr(GdkPixbuf) sent = NULL;
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree guchar *decoded = NULL;
  JsonObject *part;
  const char *url;
  gsize len;

  gdk_pixbuf_fill (pixbuf, 0x88aa22ff);
  g_assert_true (gdk_pixbuf_save (pixbuf, path, "png", &error, NULL));
  agent_test_openai_add_text_response (server, (const char * const[]) { "Green.", NULL }, 5, 2);
  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--base-url",
                                                  agent_test_server_get_base_url (server),
                                                  "--attach", path, "--scale-images", "100",
                                                  "What colour?"));
  agent_test_process_assert_exit (cli, 0);

  part = json_array_get_object_element (
    json_object_get_array_member (
      json_array_get_object_element (agent_test_openai_get_messages (server, 0), 0), "content"), 1);
  url = json_object_get_string_member (json_object_get_object_member (part, "image_url"), "url");
  g_assert_true (g_str_has_prefix (url, "data:image/png;base64,"));
  decoded = g_base64_decode (url + strlen ("data:image/png;base64,"), &len);
  bytes = g_bytes_new (decoded, len);
  stream = g_memory_input_stream_new_from_bytes (bytes);
  sent = gdk_pixbuf_new_from_stream (stream, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gdk_pixbuf_get_width (sent), ==, 100);
  g_assert_cmpint (gdk_pixbuf_get_height (sent), ==, 40);
  /* The event reports what is sent */
  g_assert_cmpint (json_object_get_int_member (agent_test_process_nth_event (cli, "attachment", 0),
                                               "size"), ==, len);
#else
  const char *message;

  g_assert_true (g_file_set_contents (path, png_bytes, sizeof png_bytes - 1, NULL));
  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--base-url",
                                                  agent_test_server_get_base_url (server),
                                                  "--attach", path, "--scale-images", "100",
                                                  "What colour?"));
  agent_test_process_assert_exit (cli, 1);
  message = agent_test_cli_assert_error (cli, "invalid-argument");
  g_assert_nonnull (strstr (message, "gdk-pixbuf"));
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 0);
#endif

  agent_test_remove_dir (dir);
}

/* A type the provider does not take: refused before anything is sent */
static void
test_attach_refused (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autofree char *dir = agent_test_make_dir ("cli-attach-XXXXXX");
  g_autofree char *archive = agent_test_write_file (dir, "bundle.zip", "PK\3\4 zip", 9);
  const char *message;

  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--base-url",
                                                  agent_test_server_get_base_url (server),
                                                  "--attach", archive, "Unpack"));
  agent_test_process_assert_exit (cli, 1);
  message = agent_test_cli_assert_error (cli, "invalid-argument");
  g_assert_nonnull (strstr (message, "OpenAI"));
  g_assert_nonnull (strstr (message, "application/zip"));
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 0);

  agent_test_remove_dir (dir);
}

/* What is not a regular file is refused at once, naming what it is: a
 * named pipe nobody writes to (reading it would wait for ever), a device
 * that never ends (/dev/zero), a folder */
static void
test_attach_not_regular (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autofree char *dir = agent_test_make_dir ("cli-attach-XXXXXX");
  g_autofree char *fifo = g_build_filename (dir, "pipe", NULL);
  const struct { const char *path; const char *what; } cases[] = {
    { fifo, "named pipe" },
    { "/dev/zero", "character device" },
    { dir, "folder" },
  };

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(AgentTestProcess) cli = NULL;
      const char *message;

      cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--no-store", "--base-url",
                                                      agent_test_server_get_base_url (server),
                                                      "--attach", cases[i].path, "Look"));
      agent_test_process_assert_exit (cli, 1);
      message = agent_test_cli_assert_error (cli, "invalid-argument");
      g_test_message ("%s", message);
      agent_test_assert_contains (message, cases[i].path);
      agent_test_assert_contains (message, cases[i].what);
    }
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 0);

  agent_test_remove_dir (dir);
}

#define LEASE_HOLDER \
  "import fcntl, os, signal, sys, time\n" \
  "path, marker = sys.argv[1], sys.argv[2]\n" \
  "def asked(*args):\n" \
  "    open(marker, 'w').write('asked\\n')\n" \
  "signal.signal(signal.SIGIO, asked)\n" \
  "fd = os.open(path, os.O_RDWR)\n" \
  "fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_WRLCK)\n" \
  "open(marker + '.held', 'w').write('held\\n')\n" \
  "while True:\n" \
  "    time.sleep(1)\n"

static gboolean
exists (gpointer path)
{
  return g_file_test (path, G_FILE_TEST_EXISTS);
}

/* A file another program holds a lease on: opening it waits until the
 * holder gives the lease up (the kernel asks it, and waits up to 45 s).
 * Meanwhile SIGTERM stops agent-cli, as Ctrl-C does: the file is opened
 * and read off the main loop */
static void
test_attach_interrupted (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) holder = NULL;
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autofree char *dir = agent_test_make_dir ("cli-attach-XXXXXX");
  g_autofree char *path = agent_test_write_file (dir, "leased.txt", NOTES, -1);
  g_autofree char *asked = g_build_filename (dir, "asked", NULL);
  g_autofree char *held = g_strconcat (asked, ".held", NULL);

  holder = agent_test_process_spawn ("/usr/bin/python3", NULL, NULL, AGENT_TEST_PROCESS_DEFAULT,
                                     AGENT_TEST_ARGS ("-c", LEASE_HOLDER, path, asked));
  if (!agent_test_poll_until (exists, held))
    {
      g_autofree char *why = g_strdup_printf ("No lease could be taken here: %s",
                                              holder->err->str);

      g_test_skip (why);
      agent_test_remove_dir (dir);
      return;
    }

  cli = agent_test_cli_spawn (NULL, NULL,
                              AGENT_TEST_ARGS ("--json", "--no-store", "--base-url",
                                               agent_test_server_get_base_url (server),
                                               "--attach", path, "Look"));
  /* It is opening the file: the holder was asked to give the lease up */
  g_assert_true (agent_test_poll_until (exists, asked));
  g_subprocess_send_signal (cli->process, SIGTERM);
  agent_test_process_wait (cli);

  agent_test_process_assert_exit (cli, 130);
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 0);
  agent_test_remove_dir (dir);
}

/* Never more than the size a file had when it was opened: files of /proc
 * say 0 and hold more (here the environment, with the API key). Such a
 * file is refused, saying why, rather than attached silently empty; a file
 * that is really empty is attached as it is */
static void
test_attach_size_at_open (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autoptr(AgentTestProcess) empty_cli = NULL;
  g_autofree char *dir = agent_test_make_dir ("cli-attach-XXXXXX");
  g_autofree char *empty = g_build_filename (dir, "empty.txt", NULL);
  const char *message;
  JsonObject *event;

  cli = agent_test_cli_run_full (AGENT_TEST_ARGS ("OPENAI_API_KEY=sk-environ-NEVER-SENT-42"),
                                 NULL,
                                 AGENT_TEST_ARGS ("--json", "--no-store", "--base-url",
                                                  agent_test_server_get_base_url (server),
                                                  "--attach", "/proc/self/environ", "Look"));
  agent_test_process_parse_json (cli);
  g_test_message ("%s", cli->out->str);

  agent_test_process_assert_exit (cli, 1);
  message = agent_test_cli_assert_error (cli, "invalid-argument");
  g_test_message ("%s", message);
  agent_test_assert_contains (message, "/proc/self/environ");
  agent_test_assert_contains (message, "size of 0");
  g_assert_cmpuint (agent_test_process_count_events (cli, "attachment"), ==, 0);
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 0);
  g_assert_null (strstr (cli->out->str, "sk-environ-NEVER-SENT-42"));
  g_assert_null (strstr (cli->err->str, "sk-environ-NEVER-SENT-42"));

  /* Truly empty: attached, 0 bytes */
  g_assert_true (g_file_set_contents (empty, "", 0, NULL));
  agent_test_openai_add_text_response (server, (const char * const[]) { "Empty.", NULL }, 5, 2);
  empty_cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--no-store", "--base-url",
                                                        agent_test_server_get_base_url (server),
                                                        "--attach", empty, "Look"));
  agent_test_process_assert_exit (empty_cli, 0);
  event = agent_test_process_nth_event (empty_cli, "attachment", 0);
  g_assert_nonnull (event);
  g_assert_cmpint (json_object_get_int_member (event, "size"), ==, 0);
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 1);

  agent_test_remove_dir (dir);
}

/* A file that grows while it is read (from its open on, 21 MiB more, as
 * fast as a thread writes them): what is sent is what it held when it was
 * opened, and never more than max-attachment-size (20 MiB); a file that
 * was already too large when opened is refused as --attach's */
static void
test_attach_growing (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autofree char *dir = agent_test_make_dir ("cli-attach-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "growing.log", NULL);
  g_autofree char *chunk = g_strnfill (1024 * 1024 - 1, 'x');
  g_autoptr(GString) start = g_string_new (NULL);
  GThread *writer;

  /* 19 MiB */
  for (guint i = 0; i < 19; i++)
    {
      g_string_append (start, chunk);
      g_string_append_c (start, '\n');
    }
  g_assert_true (g_file_set_contents (path, start->str, start->len, NULL));
  agent_test_openai_add_text_response (server, (const char * const[]) { "A log.", NULL }, 5, 2);
  writer = agent_test_grow_on_open (path, 21);
  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--no-store", "--base-url",
                                                  agent_test_server_get_base_url (server),
                                                  "--attach", path, "Read the log"));
  g_thread_join (writer);

  if (cli->status == 0)
    {
      JsonObject *event = agent_test_process_nth_event (cli, "attachment", 0);
      gint64 size = json_object_get_int_member (event, "size");
      g_autofree char *body = json_to_string (agent_test_server_get_request_body (server, 0),
                                              FALSE);

      g_test_message ("sent %" G_GINT64_FORMAT " bytes", size);
      g_assert_cmpint (size, >=, 19 * 1024 * 1024);
      g_assert_cmpint (size, <=, 20 * 1024 * 1024);
      /* The request carries that much, as text: no more */
      g_assert_cmpuint (strlen (body), <, (gsize) size + 4096);
    }
  else
    {
      const char *message;

      /* It had grown past the limit between its open and the look at it */
      agent_test_process_assert_exit (cli, 1);
      message = agent_test_cli_assert_error (cli, "limit");
      g_test_message ("%s", message);
      g_assert_true (g_str_has_prefix (message, "--attach: "));
      g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 0);
    }

  agent_test_remove_dir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli/attach/json", test_attach_json);
  g_test_add_func ("/cli/attach/plain", test_attach_plain);
  g_test_add_func ("/cli/attach/audio", test_attach_audio);
  g_test_add_func ("/cli/attach/missing", test_attach_missing);
  g_test_add_func ("/cli/attach/too-large", test_attach_too_large);
  g_test_add_func ("/cli/attach/scaled", test_attach_scaled);
  g_test_add_func ("/cli/attach/refused", test_attach_refused);
  g_test_add_func ("/cli/attach/not-regular", test_attach_not_regular);
  g_test_add_func ("/cli/attach/interrupted", test_attach_interrupted);
  g_test_add_func ("/cli/attach/size-at-open", test_attach_size_at_open);
  g_test_add_func ("/cli/attach/growing", test_attach_growing);

  return g_test_run ();
}
