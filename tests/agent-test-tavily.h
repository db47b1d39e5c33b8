/* agent-test-tavily.h — a loopback server shaped like the Tavily API
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <libsoup/soup.h>

G_BEGIN_DECLS

/* POST /search with "Authorization: Bearer KEY" and {"query", "max_results"}:
 * a wrong key is 401 (its message echoes the token sent), the query
 * "too many" 429, the query "break" 500 (its message echoes the right key);
 * else three results, the second without a URL. It runs in a thread of
 * its own: read what it saw once the answer came. */
typedef struct
{
  GThread      *thread;
  GMainContext *context;
  GMainLoop    *loop;
  GMutex        lock;
  GCond         ready;
  SoupServer   *server;
  char         *base;            /* http://127.0.0.1:PORT */
  char         *key;             /* the key it takes */
  guint         n_requests;
  char         *last_bearer;     /* the Authorization header seen */
  char         *last_query;
  gint64        last_max_results;
  char         *last_content_type;
} AgentTestTavily;

AgentTestTavily *agent_test_tavily_new  (const char      *key);
void             agent_test_tavily_free (AgentTestTavily *self);

G_END_DECLS
