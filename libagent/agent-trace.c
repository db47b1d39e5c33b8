/* agent-trace.c
 *
 * The Sysprof side of agent-trace-private.h; built only with -Dsysprof.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <sched.h>
#include <unistd.h>

#include <sysprof-capture.h>

#include "agent-trace-private.h"

/* The capture of SYSPROF_TRACE_FD is written from any thread: one writer
 * behind a lock, flushed after each mark so that a process that ends
 * without a goodbye (as agent-cli's exit) loses nothing. */
static SysprofCaptureWriter *trace_writer;
static GMutex trace_lock;
static gsize trace_state;  /* 0 not looked, 1 off, 2 writer, 3 collector */

static int
trace_init (void)
{
  if (g_once_init_enter (&trace_state))
    {
      gsize state = 1;

      sysprof_clock_init ();
#ifndef AGENT_TRACE_COPY
      if (g_getenv ("SYSPROF_TRACE_FD") != NULL
          && (trace_writer = sysprof_capture_writer_new_from_env (0)) != NULL)
        state = 2;
      else
#endif
      if (g_getenv ("SYSPROF_CONTROL_FD") != NULL && sysprof_collector_is_active ())
        state = 3;

      g_once_init_leave (&trace_state, state);
    }

  return (int) trace_state;
}

gboolean
_agent_trace_active (void)
{
  return G_UNLIKELY (trace_init () > 1);
}

gint64
_agent_trace_now (void)
{
  return SYSPROF_CAPTURE_CURRENT_TIME;
}

void
_agent_trace_mark (gint64      begin,
                   gint64      end,
                   const char *group,
                   const char *name,
                   const char *format,
                   ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  if (trace_init () == 2)
    {
      g_mutex_lock (&trace_lock);
      sysprof_capture_writer_add_mark (trace_writer, begin, sched_getcpu (), getpid (),
                                       end - begin, group, name, message);
      sysprof_capture_writer_flush (trace_writer);
      g_mutex_unlock (&trace_lock);
    }
  else if (trace_state == 3)
    sysprof_collector_mark (begin, end - begin, group, name, message);
}
