/* bench-socket.c — the floor: the response read off a plain socket
 *
 * The request written by hand on a blocking TCP socket, then every byte of
 * the response read into a 64 KiB buffer and discarded: no HTTP parsing,
 * no SSE, no JSON, no main loop. What receiving the stream costs at the
 * least. bench/run-all runs it as `bench-stream --child socket URL`.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <gio/gio.h>

#include "bench-client.h"
#include "bench-util.h"

#define READ_BUFFER_SIZE (64 * 1024)

/* The server's latency stamps (" @<ns>") in what was just read. */
static void
find_stamps (const char *data,
             gsize       len,
             gint64      now,
             GArray     *latencies_us)
{
  const char *end = data + len;
  const char *p = data;

  while ((p = memmem (p, end - p, " @", 2)) != NULL)
    {
      gint64 stamp = 0;

      for (p += 2; p < end && g_ascii_isdigit (*p); p++)
        stamp = stamp * 10 + (*p - '0');
      if (stamp > 0)
        {
          double latency = (now - stamp) / 1e3;

          g_array_append_val (latencies_us, latency);
        }
    }
}

static gboolean
write_all (int          fd,
           const char  *data,
           gsize        len,
           GError     **error)
{
  while (len > 0)
    {
      gssize n = write (fd, data, len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno), "write: %s",
                       g_strerror (errno));
          return FALSE;
        }
      data += n;
      len -= n;
    }

  return TRUE;
}

gboolean
bench_run_socket (const char  *base_url,
                  BenchRun    *run,
                  GArray      *latencies_us,
                  GError     **error)
{
  g_autoptr(GUri) uri = g_uri_parse (base_url, G_URI_FLAGS_NONE, error);
  g_autofree char *request = NULL;
  g_autofree char *buffer = g_malloc (READ_BUFFER_SIZE);
  struct sockaddr_in address = { .sin_family = AF_INET };
  gboolean ok = FALSE;
  BenchCpu cpu;
  double wall;
  int fd;

  memset (run, 0, sizeof *run);
  if (uri == NULL)
    return FALSE;

  address.sin_port = htons (g_uri_get_port (uri));
  address.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  request = g_strdup_printf ("POST %s/chat/completions HTTP/1.1\r\n"
                             "Host: 127.0.0.1:%d\r\n"
                             "Content-Type: application/json\r\n"
                             "Accept: text/event-stream\r\n"
                             "Content-Length: 2\r\n"
                             "Connection: close\r\n"
                             "\r\n"
                             "{}",
                             g_uri_get_path (uri), g_uri_get_port (uri));

  bench_cpu_now (&cpu);
  wall = bench_wall_now ();

  fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0 || connect (fd, (struct sockaddr *) &address, sizeof address) < 0)
    {
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno), "%s: %s", base_url,
                   g_strerror (errno));
      goto out;
    }
  setsockopt (fd, IPPROTO_TCP, TCP_NODELAY, &(int) { 1 }, sizeof (int));

  if (!write_all (fd, request, strlen (request), error))
    goto out;

  /* The server closes the connection after the body. */
  for (;;)
    {
      gssize n = read (fd, buffer, READ_BUFFER_SIZE);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno), "read: %s",
                       g_strerror (errno));
          goto out;
        }
      if (n == 0)
        break;

      run->body_bytes += n;
      if (latencies_us != NULL)
        find_stamps (buffer, n, bench_monotonic_ns (), latencies_us);
    }

  run->cpu = bench_cpu_since (&cpu, &run->cpu_user, &run->cpu_sys);
  run->n_blocked = bench_blocked_since (&cpu);
  run->wall = bench_wall_now () - wall;
  ok = TRUE;

out:
  if (fd >= 0)
    close (fd);
  return ok;
}
