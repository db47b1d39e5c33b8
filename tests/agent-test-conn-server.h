/* agent-test-conn-server.h
 *
 * A small HTTP/1.1 server for the connection tests: it accepts its TCP
 * connections itself (a GThreadedSocketService, one thread each), counts
 * them, and keeps them alive between requests as an API server does
 * (tests/agent-test-server.c closes the connection of each streamed answer,
 * and keeps that of another only when told
 * agent_test_server_set_keep_alive()). Each request gets the next scripted
 * action (a whole answer, or a way of failing). The answer is an OpenAI chat
 * completion stream: a call of the calculator tool when the request has
 * tools and ends with the user's message, otherwise the text
 * "Answer N." (N: the request's number, from 1).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef enum
{
  /* The answer, and the connection stays open */
  AGENT_TEST_CONN_ANSWER,
  /* The answer with "Connection: close", then the server closes */
  AGENT_TEST_CONN_ANSWER_CLOSE,
  /* The answer without a word of closing, then the server closes: a
   * connection an idle timeout of the server ended */
  AGENT_TEST_CONN_ANSWER_THEN_CLOSE,
  /* The answer, chunked, its last chunk written 5 ms after the rest (as
   * a write, or a TLS record, of its own); the connection stays open */
  AGENT_TEST_CONN_ANSWER_LATE_END,
  /* The answer up to its end marker, chunked, without the last chunk;
   * then nothing until the client closes the connection */
  AGENT_TEST_CONN_ANSWER_NO_END,
  /* The request is read, then the connection closed without a byte: the
   * server closed the idle connection while the request was on its way */
  AGENT_TEST_CONN_DROP,
  /* The headers and the first text delta, then the connection closes */
  AGENT_TEST_CONN_CUT,
  /* The headers and the first text delta, then nothing: the server waits
   * until the client closes the connection */
  AGENT_TEST_CONN_HANG,
  /* The answer with "Content-Length: -5", then the server closes */
  AGENT_TEST_CONN_NEGATIVE_LENGTH,
} AgentTestConnAction;

typedef struct _AgentTestConnServer AgentTestConnServer;

AgentTestConnServer *agent_test_conn_server_new               (gboolean             chunked);
void                 agent_test_conn_server_free              (AgentTestConnServer *self);
const char          *agent_test_conn_server_get_base_url      (AgentTestConnServer *self);
void                 agent_test_conn_server_push              (AgentTestConnServer *self,
                                                               AgentTestConnAction  action);
guint                agent_test_conn_server_get_n_connections (AgentTestConnServer *self);
guint                agent_test_conn_server_get_n_requests    (AgentTestConnServer *self);
guint                agent_test_conn_server_get_n_hung_up     (AgentTestConnServer *self);
guint                agent_test_conn_server_get_connection_of (AgentTestConnServer *self,
                                                               guint                request);

G_END_DECLS
