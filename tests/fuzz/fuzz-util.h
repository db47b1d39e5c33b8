/* fuzz-util.h — what the fuzz targets share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <stdio.h>
#include <stdlib.h>

#include <glib.h>
#include <glib/gprintf.h>

G_BEGIN_DECLS

/* Says what failed and aborts: abort(), not g_error()'s trap, for
 * libFuzzer saves the input on SIGABRT */
G_GNUC_PRINTF (1, 2) G_GNUC_NORETURN
static inline void
failure (const char *format,
         ...)
{
  va_list args;

  va_start (args, format);
  g_vfprintf (stderr, format, args);
  va_end (args);
  fputc ('\n', stderr);
  abort ();
}

G_END_DECLS
