/* agent-test-feed.h
 *
 * Feeding a stream to a push parser in pieces: whole, one byte at a time,
 * in pieces of a fixed size, in random pieces, or cut in two. Whatever the
 * pieces, a parser must give the same result.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Takes the next @len bytes; FALSE with @error set stops the feeding. */
typedef gboolean (*AgentTestFeedFunc) (gpointer     user_data,
                                       const char  *bytes,
                                       gsize        len,
                                       GError     **error);

typedef enum
{
  AGENT_TEST_FEED_WHOLE,   /* one piece, even an empty one */
  AGENT_TEST_FEED_BYTES,   /* one byte at a time */
  AGENT_TEST_FEED_RANDOM,  /* mostly 1 to 23 bytes, one piece in eight 1 to 4095 */
} AgentTestFeedMode;

gboolean agent_test_feed        (AgentTestFeedFunc   feed,
                                 gpointer            user_data,
                                 const char         *bytes,
                                 gsize               len,
                                 AgentTestFeedMode   mode,
                                 GRand              *rand,
                                 GError            **error);
gboolean agent_test_feed_pieces (AgentTestFeedFunc   feed,
                                 gpointer            user_data,
                                 const char         *bytes,
                                 gsize               len,
                                 gsize               piece,
                                 GRand              *rand,
                                 GError            **error);
gboolean agent_test_feed_cut    (AgentTestFeedFunc   feed,
                                 gpointer            user_data,
                                 const char         *bytes,
                                 gsize               len,
                                 gsize               cut,
                                 GError            **error);

G_END_DECLS
