/* agent-test-sse.h — the one SSE writer of the loopback servers of the tests
 * (tests/agent-test-server.c, tests/agent-test-conn-server.c) and of the
 * benchmarks (bench/bench-server.c)
 *
 * An HTTP/1.1 response written by hand on a connection the server owns: the
 * head, then the body as chunked transfer-encoding with each chunk in one
 * write (one send(), or one TLS record), as production servers (nginx, Node,
 * Go, uvicorn) write an event stream. libsoup's own server would send a
 * chunk's size line, its data and its CRLF in three send() calls.
 *
 * What is written is a queue: bytes, chunks, pauses (a delay, or a wait until
 * agent_test_sse_writer_release(); paced, a turn of the main loop between two
 * writes) and an end — the body completed, or one
 * of the ways a network or a server fails (agent_test_sse_writer_end()).
 * The writer runs on the thread-default main context without blocking
 * (agent_test_sse_writer_start(): it notices a client that goes away while
 * it waits), or blocking in a thread of its own
 * (agent_test_sse_writer_write_all()).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Framing, appended to @out */
void agent_test_sse_append_event       (GString    *out,
                                        const char *type,
                                        const char *data);
void agent_test_sse_append_done        (GString    *out);
void agent_test_http_append_status     (GString    *out,
                                        guint       status,
                                        const char *reason);
void agent_test_http_append_header     (GString    *out,
                                        const char *name,
                                        const char *value);
void agent_test_http_append_chunk      (GString    *out,
                                        const char *data,
                                        gsize       len);
void agent_test_http_append_last_chunk (GString    *out);

typedef enum
{
  /* The last chunk: the body is complete */
  AGENT_TEST_SSE_END,
  /* A chunk's size line that promises more than follows, part of an event,
   * then the connection breaks: a network or a server that died in the
   * middle of a transfer */
  AGENT_TEST_SSE_CUT,
  /* The connection closes between two chunks, without the last chunk */
  AGENT_TEST_SSE_CLOSE,
  /* Nothing more, the connection left open: a server that hangs */
  AGENT_TEST_SSE_HANG,
} AgentTestSseEnding;

typedef struct _AgentTestSseWriter AgentTestSseWriter;

/* Called when the bytes added by one agent_test_sse_writer_add_bytes() or
 * _add_chunk() call are all written (handed to the kernel) */
typedef void (*AgentTestSseWrittenFunc) (AgentTestSseWriter *writer,
                                         gpointer            user_data);
/* Called once, when the writer is done: @complete when the body was ended
 * with AGENT_TEST_SSE_END and all of it written; otherwise @error says why
 * not (the client went away, a write failed, or the ending broke the
 * connection on purpose). The writer may be freed from here. */
typedef void (*AgentTestSseDoneFunc)    (AgentTestSseWriter *writer,
                                         gboolean            complete,
                                         const GError       *error,
                                         gpointer            user_data);

AgentTestSseWriter *agent_test_sse_writer_new           (GIOStream               *stream);
void                agent_test_sse_writer_free          (AgentTestSseWriter      *self);
GIOStream          *agent_test_sse_writer_get_stream    (AgentTestSseWriter      *self);
void                agent_test_sse_writer_set_callbacks (AgentTestSseWriter      *self,
                                                         AgentTestSseWrittenFunc  written,
                                                         AgentTestSseDoneFunc     done,
                                                         gpointer                 user_data);
void                agent_test_sse_writer_add_head      (AgentTestSseWriter      *self,
                                                         guint                    status,
                                                         const char              *reason,
                                                         const char              *content_type,
                                                         const char * const      *headers,
                                                         gboolean                 close);
void                agent_test_sse_writer_add_bytes     (AgentTestSseWriter      *self,
                                                         const char              *data,
                                                         gsize                    len);
void                agent_test_sse_writer_add_chunk     (AgentTestSseWriter      *self,
                                                         const char              *data,
                                                         gsize                    len);
void                agent_test_sse_writer_add_delay     (AgentTestSseWriter      *self,
                                                         guint                    msec);
void                agent_test_sse_writer_add_wait      (AgentTestSseWriter      *self);
void                agent_test_sse_writer_end           (AgentTestSseWriter      *self,
                                                         AgentTestSseEnding       ending);
void                agent_test_sse_writer_set_paced     (AgentTestSseWriter      *self,
                                                         gboolean                 paced);
void                agent_test_sse_writer_start         (AgentTestSseWriter      *self);
gboolean            agent_test_sse_writer_is_waiting    (AgentTestSseWriter      *self);
void                agent_test_sse_writer_release       (AgentTestSseWriter      *self);
gboolean            agent_test_sse_writer_write_all     (AgentTestSseWriter      *self,
                                                         GError                 **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AgentTestSseWriter, agent_test_sse_writer_free)

G_END_DECLS
