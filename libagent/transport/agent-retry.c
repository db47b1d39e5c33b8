/* agent-retry.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <stdlib.h>

#include "transport/agent-retry-private.h"

#define BACKOFF_BASE_US (500 * 1000)
#define BACKOFF_MAX_US  (8 * G_USEC_PER_SEC)
/* The shortest wait a server's Retry-After may ask for, doubling with each
 * attempt up to FLOOR_MAX_US */
#define FLOOR_BASE_US   (25 * 1000)
#define FLOOR_MAX_US    G_USEC_PER_SEC

/* 408, 409 (a conflict that clears), 429 and the 5xx are worth another
 * try; the other errors would fail the same way again. */
gboolean
_agent_retry_status_is_retryable (guint status)
{
  return status == SOUP_STATUS_REQUEST_TIMEOUT ||
         status == SOUP_STATUS_CONFLICT ||
         status == 429 ||
         (status >= 500 && status <= 599);
}


/* How long the server asked to wait, in µs: `retry-after-ms`, or
 * `Retry-After` as seconds or as an HTTP date. -1 when it did not say (or
 * said something unreadable). It may be more than AGENT_RETRY_MAX_WAIT_US,
 * which is not waited for: the error then says what was asked. */
gint64
_agent_retry_after (SoupMessageHeaders *headers,
                    GDateTime          *now)
{
  const char *value;
  char *end = NULL;

  if ((value = soup_message_headers_get_one (headers, "retry-after-ms")) != NULL)
    {
      double ms = g_ascii_strtod (value, &end);

      if (end != value && *end == '\0' && ms >= 0)
        return ms * 1000 < AGENT_RETRY_MAX_REPORTED_US ? (gint64) (ms * 1000)
                                                       : AGENT_RETRY_MAX_REPORTED_US;
    }

  if ((value = soup_message_headers_get_one (headers, "Retry-After")) != NULL)
    {
      g_autoptr(GDateTime) date = NULL;
      guint64 seconds;

      if (g_ascii_string_to_unsigned (value, 10, 0, G_MAXUINT32, &seconds, NULL))
        return (gint64) seconds * G_USEC_PER_SEC;

      if ((date = soup_date_time_new_from_http_string (value)) != NULL)
        {
          gint64 wait = g_date_time_difference (date, now);

          return CLAMP (wait, 0, AGENT_RETRY_MAX_REPORTED_US);
        }
    }

  return -1;
}

/* Exponential backoff with jitter: about 0.5 s, 1 s, 2 s, … capped at 8 s,
 * each scaled by a factor between 0.75 and 1.25 (@random in [0, 1)) so
 * that clients that failed together do not come back together. */
gint64
_agent_retry_backoff (guint  attempt,
                      double random)
{
  gint64 delay = BACKOFF_BASE_US << MIN (attempt, 10);

  delay = MIN (delay, BACKOFF_MAX_US);
  return (gint64) (delay * (0.75 + 0.5 * random));
}

/* What is waited before attempt @attempt + 2 when the server asked for
 * @retry_after µs: that, but never less than a floor of 25 ms, 50 ms,
 * 100 ms… up to a second. A server that answers every request with
 * "Retry-After: 0" (or a few µs) would otherwise take away all backoff:
 * max-retries requests at once. */
gint64
_agent_retry_floor (guint  attempt,
                    gint64 retry_after)
{
  gint64 floor = MIN (FLOOR_BASE_US << MIN (attempt, 10), FLOOR_MAX_US);

  return MAX (retry_after, floor);
}
