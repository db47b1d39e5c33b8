/* agent-demo-stream.h
 *
 * Streaming Server-Sent Events with a pause between them.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <libsoup/soup.h>

G_BEGIN_DECLS

void demo_stream_start (SoupServerMessage *msg,
                        GPtrArray         *events,
                        guint              delay_ms);

G_END_DECLS
