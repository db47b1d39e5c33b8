/* agent-test-feed.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agent-test-feed.h"

/* The size of the next piece, drawn from @rand or not. */
typedef gsize (*PieceFunc) (GRand *rand,
                            gsize  size);

static gsize
fixed_piece (GRand *rand,
             gsize  size)
{
  return size;
}

static gsize
uniform_piece (GRand *rand,
               gsize  max_piece)
{
  return g_rand_int_range (rand, 1, max_piece + 1);
}

static gsize
mixed_piece (GRand *rand,
             gsize  unused)
{
  /* Mostly small pieces, sometimes a large one. */
  if (g_rand_int_range (rand, 0, 8) == 0)
    return g_rand_int_range (rand, 1, 4096);
  return g_rand_int_range (rand, 1, 24);
}

static gboolean
feed_in_pieces (AgentTestFeedFunc   feed,
                gpointer            user_data,
                const char         *bytes,
                gsize               len,
                PieceFunc           next_piece,
                GRand              *rand,
                gsize               size,
                GError            **error)
{
  for (gsize offset = 0; offset < len;)
    {
      /* (not inside MIN (), which would draw twice) */
      gsize piece = next_piece (rand, size);

      piece = MIN (piece, len - offset);
      if (!feed (user_data, bytes + offset, piece, error))
        return FALSE;
      offset += piece;
    }

  return TRUE;
}

/* Feeds @bytes to @feed as @mode says, stopping at the first error. */
gboolean
agent_test_feed (AgentTestFeedFunc   feed,
                 gpointer            user_data,
                 const char         *bytes,
                 gsize               len,
                 AgentTestFeedMode   mode,
                 GRand              *rand,
                 GError            **error)
{
  switch (mode)
    {
    case AGENT_TEST_FEED_WHOLE:
      return feed (user_data, bytes, len, error);

    case AGENT_TEST_FEED_BYTES:
      return feed_in_pieces (feed, user_data, bytes, len, fixed_piece, NULL, 1, error);

    case AGENT_TEST_FEED_RANDOM:
      g_assert_nonnull (rand);
      return feed_in_pieces (feed, user_data, bytes, len, mixed_piece, rand, 0, error);

    default:
      g_assert_not_reached ();
    }
}

/* In pieces of @piece bytes, the last one shorter, or, given @rand, of 1
 * to @piece bytes drawn from it; nothing if @len is 0. */
gboolean
agent_test_feed_pieces (AgentTestFeedFunc   feed,
                        gpointer            user_data,
                        const char         *bytes,
                        gsize               len,
                        gsize               piece,
                        GRand              *rand,
                        GError            **error)
{
  g_assert_cmpuint (piece, >, 0);
  return feed_in_pieces (feed, user_data, bytes, len, rand ? uniform_piece : fixed_piece, rand,
                         piece, error);
}

/* In two pieces, @cut bytes and the rest, either possibly empty. */
gboolean
agent_test_feed_cut (AgentTestFeedFunc   feed,
                     gpointer            user_data,
                     const char         *bytes,
                     gsize               len,
                     gsize               cut,
                     GError            **error)
{
  g_assert_cmpuint (cut, <=, len);
  return feed (user_data, bytes, cut, error) &&
         feed (user_data, bytes + cut, len - cut, error);
}
