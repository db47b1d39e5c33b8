/* agent-retry-private.h
 *
 * When and after how long a failed request is tried again.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <libsoup/soup.h>

G_BEGIN_DECLS

/* The longest Retry-After honoured; a server asking for more is not
 * retried, and the error says what it asked. */
#define AGENT_RETRY_MAX_WAIT_US (60 * G_USEC_PER_SEC)
/* Longer waits asked for are told as this (about 31 years), so that they
 * add up: "more than 31 years" */
#define AGENT_RETRY_MAX_REPORTED_US (G_GINT64_CONSTANT (1000000000) * G_USEC_PER_SEC)

gboolean _agent_retry_status_is_retryable (guint               status);
gint64   _agent_retry_after               (SoupMessageHeaders *headers,
                                           GDateTime          *now);
gint64   _agent_retry_backoff             (guint               attempt,
                                           double              random);
gint64   _agent_retry_floor               (guint               attempt,
                                           gint64              retry_after);

G_END_DECLS
