/* agent-trace-private.h
 *
 * Sysprof marks: spans of time with a group, a name and a message, written
 * only while a Sysprof collector listens, so that a normal run pays one
 * branch on a cached flag.
 *
 * A span starts with _agent_trace_begin(), which answers 0 when nobody
 * listens, and ends with _agent_trace_end(), which writes nothing for a
 * begin of 0. The begin time may be kept in a struct when the span ends in
 * a callback. Without -Dsysprof both are no-ops the compiler removes.
 *
 * Where the marks go: the capture file Sysprof hands the process in
 * SYSPROF_TRACE_FD (sysprof-cli --use-trace-fd), else the collector's ring
 * buffer that SYSPROF_CONTROL_FD leads to (any program the Sysprof app or
 * sysprof-cli starts). docs/profiling.md lists the marks.
 *
 * libagent, libagent-gtk and agent-chat each compile agent-trace.c and
 * mark with their own group ("libagent", "libagent-gtk", "agent-chat").
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#ifdef AGENT_HAVE_SYSPROF

/* The tests link the static libraries of all three components, so each copy
 * has its own names: libagent-gtk and agent-chat compile it with
 * AGENT_TRACE_COPY set (gtk, chat). All copies write through one sink, the
 * first one's (agent-trace.c), so that a capture gets one header. */
# ifdef AGENT_TRACE_COPY
#  define AGENT_TRACE_NAME_(copy, name) _agent_##copy##_trace_##name
#  define AGENT_TRACE_NAME(copy, name) AGENT_TRACE_NAME_ (copy, name)
#  define _agent_trace_active AGENT_TRACE_NAME (AGENT_TRACE_COPY, active)
#  define _agent_trace_now    AGENT_TRACE_NAME (AGENT_TRACE_COPY, now)
#  define _agent_trace_mark   AGENT_TRACE_NAME (AGENT_TRACE_COPY, mark)
# endif

gboolean _agent_trace_active (void);
gint64   _agent_trace_now    (void);
void     _agent_trace_mark   (gint64      begin,
                              gint64      end,
                              const char *group,
                              const char *name,
                              const char *format,
                              ...) G_GNUC_PRINTF (5, 6);

/* The time now, when a collector listens; else 0. */
static inline gint64
_agent_trace_begin (void)
{
  return G_UNLIKELY (_agent_trace_active ()) ? _agent_trace_now () : 0;
}

# define _agent_trace_end(begin, group, name, ...)                                \
  G_STMT_START                                                                   \
  {                                                                              \
    gint64 _agent_trace_b = (begin);                                             \
    if (G_UNLIKELY (_agent_trace_b != 0))                                        \
      _agent_trace_mark (_agent_trace_b, _agent_trace_now (), group, name, __VA_ARGS__); \
  }                                                                              \
  G_STMT_END

#else

# define _agent_trace_active() FALSE
# define _agent_trace_begin() ((gint64) 0)
# define _agent_trace_end(begin, group, name, ...) G_STMT_START { (void) (begin); } G_STMT_END

#endif

G_END_DECLS
