/* agent-trace.c
 *
 * The Sysprof side of agent-trace-private.h; built only with -Dsysprof.
 *
 * libagent, libagent-gtk and agent-chat each compile this file, but a
 * process has one sink: the first copy that looks makes it (the writer of
 * SYSPROF_TRACE_FD, or the collector of SYSPROF_CONTROL_FD, which its copy
 * of libsysprof-capture takes for itself) and leaves it on GObject's type,
 * which all copies share, for the others to find.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <sched.h>
#include <unistd.h>

#include <glib-object.h>
#include <sysprof-capture.h>

#include "agent-trace-private.h"

typedef struct
{
  gboolean active;
  void   (*mark) (gint64      begin,
                  gint64      end,
                  const char *group,
                  const char *name,
                  const char *message);
} TraceSink;

/* The capture of SYSPROF_TRACE_FD is written from any thread: one writer
 * behind a lock, flushed after each mark so that a process that ends
 * without a goodbye (as agent-cli's exit) loses nothing. */
static SysprofCaptureWriter *trace_writer;
static GMutex trace_lock;

static void
writer_mark (gint64      begin,
             gint64      end,
             const char *group,
             const char *name,
             const char *message)
{
  g_mutex_lock (&trace_lock);
  sysprof_capture_writer_add_mark (trace_writer, begin, sched_getcpu (), getpid (),
                                   end - begin, group, name, message);
  sysprof_capture_writer_flush (trace_writer);
  g_mutex_unlock (&trace_lock);
}

static void
collector_mark (gint64      begin,
                gint64      end,
                const char *group,
                const char *name,
                const char *message)
{
  sysprof_collector_mark (begin, end - begin, group, name, message);
}

static const TraceSink *
trace_sink (void)
{
  static const TraceSink *sink;
  static TraceSink own;

  if (g_once_init_enter (&sink))
    {
      GQuark quark = g_quark_from_static_string ("agent-trace-sink");
      const TraceSink *found = g_type_get_qdata (G_TYPE_OBJECT, quark);

      if (found == NULL)
        {
          sysprof_clock_init ();
          if (g_getenv ("SYSPROF_TRACE_FD") != NULL &&
              (trace_writer = sysprof_capture_writer_new_from_env (0)) != NULL)
            own = (TraceSink) { TRUE, writer_mark };
          else if (g_getenv ("SYSPROF_CONTROL_FD") != NULL && sysprof_collector_is_active ())
            own = (TraceSink) { TRUE, collector_mark };
          found = &own;
          g_type_set_qdata (G_TYPE_OBJECT, quark, &own);
        }
      g_once_init_leave (&sink, found);
    }

  return sink;
}

gboolean
_agent_trace_active (void)
{
  return G_UNLIKELY (trace_sink ()->active);
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
  const TraceSink *sink = trace_sink ();
  g_autofree char *message = NULL;
  va_list args;

  if (!sink->active)
    return;
  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  sink->mark (begin, end, group, name, message);
}
