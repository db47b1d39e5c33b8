/* agent-wire-util.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agent-wire-util.h"

/* A size limit in words for error messages: "16 MiB", "64 KiB", "100
 * bytes" (g_format_size() would say "16.0 MiB", with a no-break space). */
char *
agent_wire_format_limit (gsize limit)
{
  if (limit >= 1024 * 1024 && limit % (1024 * 1024) == 0)
    return g_strdup_printf ("%lu MiB", (gulong) (limit / (1024 * 1024)));

  if (limit >= 1024 && limit % 1024 == 0)
    return g_strdup_printf ("%lu KiB", (gulong) (limit / 1024));

  return g_format_size_full (limit, G_FORMAT_SIZE_IEC_UNITS);
}
