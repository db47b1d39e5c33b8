/* bench-bounds.h — what bench-bounds' files share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* bench-bounds.c: this build's agent-cli, or $BENCH_AGENT_CLI */
char     *bench_bounds_cli_path (void);

/* bench-bounds-files.c: runs case @mode of hostile files, disks and
 * processes; FALSE when @mode is none of them */
gboolean  run_hostile_files     (const char  *mode,
                                 int          argc,
                                 char       **argv,
                                 const char  *dir);

G_END_DECLS
