/* bench-history.h — building the request for a long conversation
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  guint   n_messages;
  guint   n_tool_calls;
  double  fill_ms;           /* creating the messages and appending them */
  double  build_ms_median;   /* _agent_provider_build_message(), CPU */
  double  build_ms_min;
  double  build_ms_max;
  guint64 body_bytes;
} BenchHistory;

/* Fills an AgentSimpleMemory with @n_messages messages (user and assistant
 * in turn; every fifth exchange the assistant calls two tools and their
 * results follow) and times _agent_provider_build_message() @runs times. */
gboolean bench_history_run (guint          n_messages,
                            guint          runs,
                            BenchHistory  *result,
                            GError       **error);

G_END_DECLS
