/* test-trace.c
 *
 * Sysprof marks (-Dsysprof): a real turn with one tool call runs in a child
 * process whose SYSPROF_TRACE_FD is a capture file of ours, as
 * `sysprof-cli --use-trace-fd` hands one; the capture, read back with
 * libsysprof-capture's reader, holds the turn, both steps, their requests
 * and the tool, named, in order and inside each other.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <agent.h>
#include <string.h>
#include <glib/gstdio.h>

#ifdef AGENT_HAVE_SYSPROF
# include <sysprof-capture.h>
#endif

#include "agent-test-openai.h"
#include "agent-test-provider.h"
#include "agent-test-turn.h"

static const char *program;  /* argv[0]: the child is this program */

/* The child: one turn, the model asking for the calculator, then answering */
static int
run_turn (void)
{
  g_autoptr(AgentTool) calculator = agent_calculator_tool_new ();
  AgentTestToolChunk chunk = { 0, "call_1", "calculator", "{\"expression\": \"6 * 7\"}" };
  AgentTestSession s;

  agent_test_session_init (&s, "openai");
  agent_session_add_tool (s.session, calculator);
  agent_test_openai_add_tool_response (s.server, &chunk, 1, 5, 3);
  agent_test_openai_add_text_response (s.server, (const char * const[]) { "It is ", "42.", NULL },
                                       9, 2);
  agent_test_turn_run (&s.turn, s.session, "What is 6 times 7?", NULL);
  g_assert_no_error (s.turn.error);
  g_assert_cmpuint (agent_test_server_get_n_requests (s.server), ==, 2);
  agent_test_session_clear (&s);
  return 0;
}

#ifdef AGENT_HAVE_SYSPROF

typedef struct
{
  char   *name;
  char   *message;
  gint64  begin;
  gint64  end;
} Mark;

static void
mark_free (gpointer data)
{
  Mark *mark = data;

  g_free (mark->name);
  g_free (mark->message);
  g_free (mark);
}

/* The marks of group libagent in @path, in the order they were written */
static GPtrArray *
read_marks (const char *path)
{
  GPtrArray *marks = g_ptr_array_new_with_free_func (mark_free);
  SysprofCaptureReader *reader = sysprof_capture_reader_new (path);
  SysprofCaptureFrameType type;

  g_assert_nonnull (reader);
  while (sysprof_capture_reader_peek_type (reader, &type))
    {
      if (type == SYSPROF_CAPTURE_FRAME_MARK)
        {
          const SysprofCaptureMark *frame = sysprof_capture_reader_read_mark (reader);
          Mark *mark;

          g_assert_nonnull (frame);
          if (g_strcmp0 (frame->group, "libagent") != 0)
            continue;
          mark = g_new0 (Mark, 1);
          mark->name = g_strdup (frame->name);
          mark->message = g_strdup (frame->message);
          mark->begin = frame->frame.time;
          mark->end = frame->frame.time + frame->duration;
          g_ptr_array_add (marks, mark);
        }
      else if (!sysprof_capture_reader_skip (reader))
        break;
    }
  sysprof_capture_reader_unref (reader);
  return marks;
}

/* The @nth mark named @name, or fails */
static const Mark *
find_mark (GPtrArray  *marks,
           const char *name,
           guint       nth)
{
  for (guint i = 0; i < marks->len; i++)
    {
      const Mark *mark = g_ptr_array_index (marks, i);

      if (g_str_equal (mark->name, name) && nth-- == 0)
        return mark;
    }
  g_error ("No mark “%s” number %u in the capture", name, nth);
  return NULL;
}

static guint
count_marks (GPtrArray  *marks,
             const char *name)
{
  guint n = 0;

  for (guint i = 0; i < marks->len; i++)
    n += g_str_equal (((Mark *) g_ptr_array_index (marks, i))->name, name);
  return n;
}

static void
assert_inside (const Mark *inner,
               const Mark *outer)
{
  g_assert_cmpint (inner->begin, <=, inner->end);
  g_assert_cmpint (inner->begin, >=, outer->begin);
  g_assert_cmpint (inner->end, <=, outer->end);
}

static void
test_turn_marks (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) child = NULL;
  g_autoptr(GPtrArray) marks = NULL;
  g_autofree char *path = NULL;
  const Mark *turn, *step1, *step2, *request1, *request2, *tool;
  int fd;

  fd = g_file_open_tmp ("test-trace-XXXXXX.syscap", &path, &error);
  g_assert_no_error (error);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_subprocess_launcher_take_fd (launcher, fd, 3);
  g_subprocess_launcher_setenv (launcher, "SYSPROF_TRACE_FD", "3", TRUE);
  g_subprocess_launcher_unsetenv (launcher, "SYSPROF_CONTROL_FD");
  child = g_subprocess_launcher_spawn (launcher, &error, program,
                                       "--child", NULL);
  g_assert_no_error (error);
  g_subprocess_wait_check (child, NULL, &error);
  g_assert_no_error (error);

  marks = read_marks (path);
  g_assert_cmpuint (count_marks (marks, "turn"), ==, 1);
  g_assert_cmpuint (count_marks (marks, "step"), ==, 2);
  g_assert_cmpuint (count_marks (marks, "request"), ==, 2);
  g_assert_cmpuint (count_marks (marks, "request first byte"), ==, 2);
  g_assert_cmpuint (count_marks (marks, "tool"), ==, 1);

  turn = find_mark (marks, "turn", 0);
  step1 = find_mark (marks, "step", 0);
  step2 = find_mark (marks, "step", 1);
  request1 = find_mark (marks, "request", 0);
  request2 = find_mark (marks, "request", 1);
  tool = find_mark (marks, "tool", 0);

  /* Each inside what holds it, one after the other */
  g_assert_cmpint (turn->end, >, turn->begin);
  assert_inside (step1, turn);
  assert_inside (step2, turn);
  assert_inside (request1, step1);
  assert_inside (request2, step2);
  assert_inside (tool, turn);
  g_assert_cmpint (tool->begin, >=, step1->end);
  g_assert_cmpint (tool->end, <=, step2->begin);
  assert_inside (find_mark (marks, "request first byte", 0), request1);

  /* What they say */
  g_assert_true (g_str_has_prefix (tool->message, "calculator: succeeded"));
  g_assert_true (g_str_has_prefix (step1->message, "step 1, 1 tool calls"));
  g_assert_true (g_str_has_prefix (step2->message, "step 2, 0 tool calls"));
  g_assert_nonnull (strstr (turn->message, "2 steps, 1 tools"));
  g_assert_nonnull (strstr (request1->message, "HTTP 200"));

  g_unlink (path);
}

#else

static void
test_turn_marks (void)
{
  g_test_skip ("Built without -Dsysprof");
}

#endif

int
main (int   argc,
      char *argv[])
{
  if (argc == 2 && g_str_equal (argv[1], "--child"))
    return run_turn ();

  program = argv[0];
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/trace/turn-marks", test_turn_marks);

  return g_test_run ();
}
