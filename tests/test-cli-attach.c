/* test-cli-attach.c — agent-cli --attach FILE, end to end
 *
 * The real binary against the in-process server: the files go with the
 * prompt as the provider's API defines, --json reports each (name, MIME
 * type, size; never the bytes), and a file that cannot be read or sent
 * sends nothing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <stdio.h>
#include <string.h>

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

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli/attach/json", test_attach_json);
  g_test_add_func ("/cli/attach/plain", test_attach_plain);
  g_test_add_func ("/cli/attach/missing", test_attach_missing);
  g_test_add_func ("/cli/attach/too-large", test_attach_too_large);
  g_test_add_func ("/cli/attach/scaled", test_attach_scaled);
  g_test_add_func ("/cli/attach/refused", test_attach_refused);

  return g_test_run ();
}
