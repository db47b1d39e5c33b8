/* test-bounds.c — bounded memory and time: how large a turn and a request
 * may grow, and a stream that never brings anything new; through the
 * public API and agent-cli against a real HTTP server on 127.0.0.1
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include <agent.h>

#include "agent-test-cli.h"
#include "agent-test-openai.h"
#include "agent-test-process.h"
#include "agent-test-server.h"
#include "agent-test-turn.h"
#include "agent-test-util.h"

typedef struct
{
  AgentTestServer *server;
  AgentProvider   *provider;
  AgentSession    *session;
  AgentTestTurn    turn;
  GString         *text;
} Fixture;

static void
text_delta_cb (AgentSession *session,
               AgentMessage *message,
               const char   *delta,
               Fixture      *f)
{
  g_string_append (f->text, delta);
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(AgentTool) calculator = agent_calculator_tool_new ();

  f->server = agent_test_server_new ();
  f->provider = agent_test_openai_provider_new (f->server);
  f->session = agent_session_new (f->provider);
  f->text = g_string_new (NULL);
  agent_session_add_tool (f->session, calculator);
  g_signal_connect (f->session, "text-delta", G_CALLBACK (text_delta_cb), f);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  agent_test_turn_clear (&f->turn);
  g_assert_finalize_object (f->session);
  g_assert_finalize_object (f->provider);
  agent_test_server_free (f->server);
  g_string_free (f->text, TRUE);
}

static guint
memory_length (Fixture *f)
{
  return g_list_model_get_n_items (G_LIST_MODEL (agent_session_get_memory (f->session)));
}

static AgentMessage *
memory_message (Fixture *f,
                guint    index)
{
  g_autoptr(AgentMessage) message =
    g_list_model_get_item (G_LIST_MODEL (agent_session_get_memory (f->session)), index);

  return message;
}

/* @n_chunks deltas of @chunk_size bytes of @letter, then (if @call_id) a
 * calculator call */
static void
add_big_answer (AgentTestServer *server,
                char             letter,
                guint            n_chunks,
                gsize            chunk_size,
                const char      *call_id)
{
  AgentTestResponse *r = agent_test_openai_begin (server, "");
  g_autofree char *chunk = g_malloc (chunk_size + 1);

  memset (chunk, letter, chunk_size);
  chunk[chunk_size] = '\0';
  for (guint i = 0; i < n_chunks; i++)
    agent_test_openai_add_text (r, chunk);

  if (call_id != NULL)
    {
      agent_test_openai_add_tool_call (r, 0, call_id, "calculator", "{\"expression\":\"1+1\"}");
      agent_test_openai_add_end (r, "tool_calls", 1, 1);
    }
  else
    agent_test_openai_add_end (r, "stop", 1, 1);
}

static void
assert_message_contains (const GError *error,
                         const char   *text)
{
  if (strstr (error->message, text) == NULL)
    g_error ("“%s” is not in the error “%s”", text, error->message);
}

/* The defaults end every runaway turn */
static void
test_defaults (Fixture       *f,
               gconstpointer  data)
{
  g_assert_cmpuint (agent_session_get_max_turn_size (f->session), ==, 32 * 1024 * 1024);
  g_assert_cmpuint (agent_session_get_max_request_size (f->session), ==, 32 * 1024 * 1024);
  g_assert_cmpfloat (agent_session_get_stall_timeout (f->session), ==, 600);
}

/* Every step answers with text and a tool call: the turn stops in the
 * middle of the answer that crosses max-turn-size, and keeps it. */
static void
test_turn_size (Fixture       *f,
                gconstpointer  data)
{
  AgentMessage *last;

  for (guint i = 0; i < 5; i++)
    {
      g_autofree char *id = g_strdup_printf ("call_%u", i);

      add_big_answer (f->server, 'a' + i, 10, 4096, id);
    }
  agent_session_set_max_turn_size (f->session, 100 * 1024);

  agent_test_turn_run (&f->turn, f->session, "Go on and on", NULL);

  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_LIMIT);
  assert_message_contains (f->turn.error, "max-turn-size");
  assert_message_contains (f->turn.error, "100.0\u00A0KiB");
  assert_message_contains (f->turn.error, "kept");

  /* Two steps and their tools fit (80 KiB); the third stopped part way,
   * where the limit was crossed */
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 3);
  g_assert_cmpuint (f->text->len, >=, 96 * 1024);
  g_assert_cmpuint (f->text->len, <=, 120 * 1024);
  g_assert_cmpuint (memory_length (f), ==, 6);
  last = memory_message (f, 5);
  g_assert_cmpint (agent_message_get_role (last), ==, AGENT_MESSAGE_ROLE_ASSISTANT);
  g_assert_cmpint (agent_message_get_state (last), ==, AGENT_MESSAGE_STATE_INTERRUPTED);
  g_assert_cmpuint (agent_message_get_n_tool_calls (last), ==, 0);
  g_assert_true (g_str_has_prefix (agent_message_get_content (last), "cccc"));
  g_assert_true (g_str_has_suffix (f->text->str, agent_message_get_content (last)));

  /* The session is free for the next turn */
  agent_test_turn_clear (&f->turn);
  add_big_answer (f->server, 'z', 1, 10, NULL);
  agent_test_turn_run (&f->turn, f->session, "Enough", NULL);
  g_assert_no_error (f->turn.error);
}

/* A whole answer over the limit is stopped too: it ends in the same
 * buffer as the bytes that crossed the limit. */
static void
test_turn_size_last_answer (Fixture       *f,
                            gconstpointer  data)
{
  add_big_answer (f->server, 'q', 3, 1000, NULL);
  agent_session_set_max_turn_size (f->session, 2500);

  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);

  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_LIMIT);
  assert_message_contains (f->turn.error, "max-turn-size");
  g_assert_cmpuint (memory_length (f), ==, 2);
  g_assert_cmpint (agent_message_get_state (memory_message (f, 1)), ==,
                   AGENT_MESSAGE_STATE_INTERRUPTED);
  g_assert_cmpuint (strlen (agent_message_get_content (memory_message (f, 1))), >=, 2500);
}

/* The history the next request would carry is over max-request-size: it
 * is not sent, nor built; the conversation so far stays. */
static void
test_request_size (Fixture       *f,
                   gconstpointer  data)
{
  add_big_answer (f->server, 'r', 10, 4096, "call_0");
  add_big_answer (f->server, 's', 1, 10, NULL);
  agent_session_set_max_turn_size (f->session, 0);
  agent_session_set_max_request_size (f->session, 30 * 1024);

  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);

  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_LIMIT);
  assert_message_contains (f->turn.error, "max-request-size");
  assert_message_contains (f->turn.error, "30.0\u00A0KiB");
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 1);
  /* The user, the answer with its call, and the call's result */
  g_assert_cmpuint (memory_length (f), ==, 3);
  g_assert_cmpuint (strlen (agent_message_get_content (memory_message (f, 1))), ==, 40960);
  g_assert_cmpint (agent_message_get_role (memory_message (f, 2)), ==, AGENT_MESSAGE_ROLE_TOOL);
}

/* Text that JSON escapes six times over: the request body as built is
 * measured too, and refused before it goes out. */
static void
test_request_size_escaped (Fixture       *f,
                           gconstpointer  data)
{
  g_autofree char *text = g_malloc (8001);

  memset (text, '\x01', 8000);
  text[8000] = '\0';
  agent_session_set_max_request_size (f->session, 20 * 1024);

  agent_test_turn_run (&f->turn, f->session, text, NULL);

  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_LIMIT);
  assert_message_contains (f->turn.error, "The request is");
  assert_message_contains (f->turn.error, "max-request-size");
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 0);
  g_assert_cmpuint (memory_length (f), ==, 1);
}

/* A stream that goes on but brings nothing new: SSE comments, a byte now
 * and then. The idle-timeout sees bytes; the stall-timeout sees no
 * content, and ends it. */
static void
add_trickle (AgentTestServer *server,
             const char      *text,
             guint            n_comments,
             guint            msec)
{
  AgentTestResponse *r = agent_test_openai_begin (server, "");

  agent_test_openai_add_text (r, text);
  for (guint i = 0; i < n_comments; i++)
    {
      agent_test_response_add_delay (r, msec);
      agent_test_response_add_bytes (r, ": still here\n\n", -1);
    }
  agent_test_openai_add_text (r, " and more");
  agent_test_openai_add_end (r, "stop", 1, 1);
}

static void
test_stall (Fixture       *f,
            gconstpointer  data)
{
  add_trickle (f->server, "Thinking", 40, 50);
  agent_provider_set_idle_timeout (f->provider, 0.3);
  agent_session_set_stall_timeout (f->session, 0.5);

  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);

  g_assert_error (f->turn.error, AGENT_ERROR, AGENT_ERROR_TIMEOUT);
  assert_message_contains (f->turn.error, "127.0.0.1 sent no new content for 0.5 s "
                                          "(stall-timeout)");
  assert_message_contains (f->turn.error, "kept");
  g_assert_cmpstr (f->text->str, ==, "Thinking");
  g_assert_cmpuint (memory_length (f), ==, 2);
  g_assert_cmpstr (agent_message_get_content (memory_message (f, 1)), ==, "Thinking");
  g_assert_cmpint (agent_message_get_state (memory_message (f, 1)), ==,
                   AGENT_MESSAGE_STATE_INTERRUPTED);
}

/* Content that keeps coming, slowly, is progress */
static void
test_stall_reset_by_content (Fixture       *f,
                             gconstpointer  data)
{
  AgentTestResponse *r = agent_test_openai_begin (f->server, "");

  /* Each gap below the limit, the whole well above it */
  for (guint i = 0; i < 12; i++)
    {
      agent_test_response_add_delay (r, 150);
      agent_test_openai_add_text (r, "tick ");
    }
  agent_test_openai_add_end (r, "stop", 1, 1);
  agent_session_set_stall_timeout (f->session, 0.6);

  agent_test_turn_run (&f->turn, f->session, "Hi", NULL);

  g_assert_no_error (f->turn.error);
  g_assert_cmpuint (f->text->len, ==, 12 * 5);
}

/* A stall while the request waits for a slot of the provider's queue is
 * nobody's stall: the clock starts when the request goes out. */
static void
test_stall_not_while_queued (Fixture       *f,
                             gconstpointer  data)
{
  g_autoptr(AgentSession) other = agent_session_new (f->provider);
  AgentTestTurn first = { 0 };
  AgentTestResponse *r = agent_test_openai_begin (f->server, "");

  /* The first turn holds the one slot for 0.8 s, content all along */
  for (guint i = 0; i < 8; i++)
    {
      agent_test_response_add_delay (r, 100);
      agent_test_openai_add_text (r, "a");
    }
  agent_test_openai_add_end (r, "stop", 1, 1);
  add_big_answer (f->server, 'b', 1, 3, NULL);
  agent_provider_set_max_concurrent_requests (f->provider, 1);
  agent_session_set_stall_timeout (f->session, 0.4);

  agent_test_turn_send (&first, other, "First", NULL);
  agent_test_turn_run (&f->turn, f->session, "Second", NULL);
  agent_test_turn_wait (&first);

  g_assert_no_error (first.error);
  g_assert_no_error (f->turn.error);
  g_assert_cmpstr (f->text->str, ==, "bbb");
  agent_test_turn_clear (&first);
}

/* agent-cli: the limits are options, and their errors "limit" and
 * "timeout" lines; what streamed is printed and kept. */
static void
test_cli_turn_size (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autofree char *text = NULL;
  const char *message;

  add_big_answer (f->server, 'a', 10, 4096, "call_0");
  add_big_answer (f->server, 'b', 10, 4096, "call_1");
  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--no-store", "--tool", "calculator",
                                                  "--yes", "--max-turn-size", "60k",
                                                  "--base-url",
                                                  agent_test_server_get_base_url (f->server),
                                                  "Go on"));

  agent_test_process_assert_exit (cli, 1);
  message = agent_test_cli_assert_error (cli, "limit");
  agent_test_assert_contains (message, "max-turn-size");
  agent_test_assert_contains (message, "60.0\u00A0KiB");
  text = agent_test_cli_streamed_text (cli);
  g_assert_cmpuint (strlen (text), >=, 60 * 1024);
  g_assert_cmpuint (strlen (text), <=, 80 * 1024);
}

static void
test_cli_request_size (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(AgentTestProcess) cli = NULL;
  const char *message;

  add_big_answer (f->server, 'a', 10, 4096, "call_0");
  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--no-store", "--tool", "calculator",
                                                  "--yes", "--max-turn-size", "0",
                                                  "--max-request-size", "32K", "--base-url",
                                                  agent_test_server_get_base_url (f->server),
                                                  "Go on"));

  agent_test_process_assert_exit (cli, 1);
  message = agent_test_cli_assert_error (cli, "limit");
  agent_test_assert_contains (message, "max-request-size");
  g_assert_cmpuint (agent_test_server_get_n_requests (f->server), ==, 1);
}

static void
test_cli_stall (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autofree char *text = NULL;
  const char *message;

  add_trickle (f->server, "Thinking", 100, 50);
  cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--no-store", "--stall-timeout", "1",
                                                  "--base-url",
                                                  agent_test_server_get_base_url (f->server),
                                                  "Hi"));

  agent_test_process_assert_exit (cli, 1);
  message = agent_test_cli_assert_error (cli, "timeout");
  agent_test_assert_contains (message, "stall-timeout");
  text = agent_test_cli_streamed_text (cli);
  g_assert_cmpstr (text, ==, "Thinking");
}

static void
test_cli_bad_sizes (void)
{
  const char * const bad[] = { "-1", "lots", "12X", "10MB", "", "99999999999999999999G" };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(AgentTestProcess) cli = NULL;
      const char *message;

      cli = agent_test_cli_run_json (AGENT_TEST_ARGS ("--json", "--no-store",
                                                      "--max-turn-size", bad[i], "Hi"));
      agent_test_process_assert_exit (cli, 1);
      message = agent_test_cli_assert_error (cli, "invalid-argument");
      agent_test_assert_contains (message, "--max-turn-size must be a number of bytes");
    }
}

/* read_file: a path that is a symlink flipped between a text file and a
 * FIFO. A check of the path, then an open(), can be answered by the file
 * and then block on the FIFO for good; every call must end. */
typedef struct
{
  char          *dir;
  char          *link;
  gint           stop;
} Flipper;

static gpointer
flip_thread (gpointer data)
{
  Flipper *flipper = data;
  g_autofree char *file = g_build_filename (flipper->dir, "notes.txt", NULL);
  g_autofree char *fifo = g_build_filename (flipper->dir, "fifo", NULL);
  g_autofree char *tmp = g_build_filename (flipper->dir, "link.tmp", NULL);

  for (guint i = 0; !g_atomic_int_get (&flipper->stop); i++)
    {
      if (symlink (i % 2 ? fifo : file, tmp) != 0 || rename (tmp, flipper->link) != 0)
        g_error ("flipping the link: %s", g_strerror (errno));
    }
  return NULL;
}

static gboolean
invocation_completed (gpointer data)
{
  return agent_tool_invocation_is_completed (data);
}

static void
test_read_file_fifo_race (void)
{
  g_autoptr(AgentTool) tool = agent_read_file_tool_new ();
  g_autofree char *fifo = NULL;
  g_autofree char *file = NULL;
  g_autofree char *arguments = NULL;
  Flipper flipper = { 0 };
  GThread *thread;
  guint n_text = 0, n_refused = 0;

  flipper.dir = agent_test_make_dir ("agent-read-file-race");
  flipper.link = g_build_filename (flipper.dir, "link", NULL);
  fifo = g_build_filename (flipper.dir, "fifo", NULL);
  file = agent_test_write_file (flipper.dir, "notes.txt", "hello", -1);
  g_assert_no_errno (mkfifo (fifo, 0600));
  g_assert_no_errno (symlink (file, flipper.link));
  arguments = agent_test_path_arguments (flipper.link);

  thread = g_thread_new ("flipper", flip_thread, &flipper);

  for (guint i = 0; i < 300; i++)
    {
      g_autoptr(AgentToolCall) call = agent_tool_call_new ("call_r", "read_file", arguments);
      g_autoptr(AgentToolInvocation) invocation = agent_tool_invocation_new (tool, call, NULL);
      g_autofree char *result = NULL;
      gboolean is_error = FALSE;

      agent_tool_invoke (tool, invocation);
      if (!agent_test_wait_until_timeout (invocation_completed, invocation, 10))
        {
          int writer;

          /* Unblock the open() that hangs, so the test can end */
          g_atomic_int_set (&flipper.stop, TRUE);
          writer = g_open (fifo, O_WRONLY | O_NONBLOCK, 0);
          g_error ("read_file call %u did not end: blocked on the FIFO (%d)", i, writer);
        }

      result = agent_tool_invocation_dup_result (invocation, &is_error);
      if (!is_error)
        {
          g_assert_cmpstr (result, ==, "hello");
          n_text++;
        }
      else
        {
          agent_test_assert_contains (result, "is not a regular file");
          n_refused++;
        }
    }

  g_atomic_int_set (&flipper.stop, TRUE);
  g_thread_join (thread);
  g_test_message ("%u reads, %u refused", n_text, n_refused);
  g_assert_cmpuint (n_text + n_refused, ==, 300);

  agent_test_remove_dir (flipper.dir);
  g_free (flipper.link);
  g_free (flipper.dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("/bounds/defaults", test_defaults);
  ADD ("/bounds/turn-size", test_turn_size);
  ADD ("/bounds/turn-size-last-answer", test_turn_size_last_answer);
  ADD ("/bounds/request-size", test_request_size);
  ADD ("/bounds/request-size-escaped", test_request_size_escaped);
  ADD ("/bounds/stall", test_stall);
  ADD ("/bounds/stall-reset-by-content", test_stall_reset_by_content);
  ADD ("/bounds/stall-not-while-queued", test_stall_not_while_queued);
  ADD ("/bounds/cli-turn-size", test_cli_turn_size);
  ADD ("/bounds/cli-request-size", test_cli_request_size);
  ADD ("/bounds/cli-stall", test_cli_stall);
  g_test_add_func ("/bounds/cli-bad-sizes", test_cli_bad_sizes);
  g_test_add_func ("/bounds/read-file-fifo-race", test_read_file_fifo_race);

#undef ADD

  return g_test_run ();
}
