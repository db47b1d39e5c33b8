/* bench-rusage.c — run a program and report what it cost, for bench/run-all
 *
 *   bench-rusage RESULT_FILE PROGRAM [ARGUMENT…]
 *
 * Runs PROGRAM (standard streams inherited), waits for it with wait4() and
 * writes to RESULT_FILE one JSON object: its user and system CPU seconds,
 * the wall seconds from fork() to its exit, its peak resident set size
 * (ru_maxrss, KiB) and its exit status. Exits with PROGRAM's status.
 *
 * Why a separate program: after fork() + exec(), Linux keeps in ru_maxrss
 * the high-water mark of the address space the child had before exec(),
 * i.e. a copy of its parent's. Measured from bench/run-all (a Python
 * process), every contender would weigh at least as much as Python. This
 * program links libc only, so what it passes on is about 1 MB.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double
now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

int
main (int   argc,
      char *argv[])
{
  struct rusage usage;
  double start;
  FILE *out;
  pid_t pid;
  int status;

  if (argc < 3)
    {
      fprintf (stderr, "usage: bench-rusage RESULT_FILE PROGRAM [ARGUMENT…]\n");
      return 2;
    }

  start = now ();
  pid = fork ();
  if (pid < 0)
    {
      perror ("bench-rusage: fork");
      return 2;
    }
  if (pid == 0)
    {
      execvp (argv[2], argv + 2);
      fprintf (stderr, "bench-rusage: %s: %s\n", argv[2], strerror (errno));
      _exit (127);
    }

  while (wait4 (pid, &status, 0, &usage) < 0)
    {
      if (errno != EINTR)
        {
          perror ("bench-rusage: wait4");
          return 2;
        }
    }

  out = fopen (argv[1], "w");
  if (out == NULL)
    {
      perror ("bench-rusage: result file");
      return 2;
    }
  fprintf (out,
           "{\"user_s\": %.6f, \"sys_s\": %.6f, \"wall_s\": %.6f, \"maxrss_kib\": %ld, "
           "\"status\": %d}\n",
           usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6,
           usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6,
           now () - start, usage.ru_maxrss,
           WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status));
  fclose (out);

  return WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status);
}
