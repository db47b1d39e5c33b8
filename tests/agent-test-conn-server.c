/* agent-test-conn-server.c
 *
 * See agent-test-conn-server.h. Each connection is served by a thread of
 * its own with blocking reads and writes; what the tests look at (the
 * counters, the requests' connections) is under one mutex.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <json-glib/json-glib.h>

#include "agent-test-conn-server.h"
#include "agent-test-sse.h"

/* How long agent_test_conn_server_free() waits for the connections to end */
#define FREE_WAIT_SECONDS 30

struct _AgentTestConnServer
{
  GSocketService *service;
  char           *base_url;
  gboolean        chunked;

  GMutex          mutex;
  GCond           cond;
  GQueue          actions;       /* of AgentTestConnAction, as pointers */
  GArray         *connection_of; /* of guint: each request's connection, from 1 */
  guint           n_connections;
  guint           n_active;      /* connection threads running */
  guint           n_hung_up;     /* hanging answers whose client closed */
};

#define EVENT_PREFIX "{\"id\":\"chatcmpl-conn\",\"object\":\"chat.completion.chunk\"," \
                     "\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":"

/* An event of a chat completion stream: @delta, and @finish_reason or null */
static char *
event_new (const char *delta,
           const char *finish_reason)
{
  g_autoptr(GString) event = g_string_new (NULL);
  g_autofree char *json = NULL;

  json = g_strdup_printf (EVENT_PREFIX "%s,\"finish_reason\":%s%s%s}]}", delta,
                          finish_reason != NULL ? "\"" : "",
                          finish_reason != NULL ? finish_reason : "null",
                          finish_reason != NULL ? "\"" : "");
  agent_test_sse_append_event (event, NULL, json);
  return g_string_free (g_steal_pointer (&event), FALSE);
}

/* Whether the request asks for a tool call: it has tools and ends with the
 * user's message (after a tool result comes the text). */
static gboolean
wants_tool_call (const char *request_body)
{
  g_autoptr(JsonNode) node = json_from_string (request_body, NULL);
  JsonObject *object;
  JsonArray *messages;
  JsonObject *last;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return FALSE;
  object = json_node_get_object (node);
  if (!json_object_has_member (object, "tools") ||
      !json_object_has_member (object, "messages"))
    return FALSE;
  messages = json_object_get_array_member (object, "messages");
  if (messages == NULL || json_array_get_length (messages) == 0)
    return FALSE;
  last = json_array_get_object_element (messages, json_array_get_length (messages) - 1);
  return last != NULL && g_strcmp0 (json_object_get_string_member_with_default (last, "role", ""),
                                    "user") == 0;
}

/* The SSE events of the answer to request @number, as separate strings
 * (each its own chunk when chunked). */
static GPtrArray *
build_events (guint       number,
              const char *request_body)
{
  GPtrArray *events = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GString) done = g_string_new (NULL);

  g_ptr_array_add (events, event_new ("{\"role\":\"assistant\",\"content\":\"\"}", NULL));
  if (wants_tool_call (request_body))
    {
      g_autofree char *call = NULL;

      call = g_strdup_printf ("{\"tool_calls\":[{\"index\":0,\"id\":\"call_%u\","
                              "\"type\":\"function\",\"function\":{\"name\":\"calculator\","
                              "\"arguments\":\"{\\\"expression\\\": \\\"6 * 7\\\"}\"}}]}",
                              number);
      g_ptr_array_add (events, event_new (call, NULL));
      g_ptr_array_add (events, event_new ("{}", "tool_calls"));
    }
  else
    {
      g_autofree char *delta = g_strdup_printf ("{\"content\":\"%u.\"}", number);

      g_ptr_array_add (events, event_new ("{\"content\":\"Answer \"}", NULL));
      g_ptr_array_add (events, event_new (delta, NULL));
      g_ptr_array_add (events, event_new ("{}", "stop"));
    }

  agent_test_sse_append_done (done);
  g_ptr_array_add (events, g_string_free (g_steal_pointer (&done), FALSE));
  return events;
}

/* Reads one request into @buffer (which keeps what came after it).
 * Returns its body, or NULL at the end of the connection. */
static char *
read_request (GInputStream *input,
              GByteArray   *buffer)
{
  guint8 chunk[4096];
  gsize header_end = 0;
  gsize content_length = 0;
  g_autofree char *headers = NULL;
  const char *p;
  char *body;

  for (;;)
    {
      gssize n;

      if (buffer->len >= 4)
        {
          for (gsize i = 0; i + 4 <= buffer->len; i++)
            if (memcmp (buffer->data + i, "\r\n\r\n", 4) == 0)
              {
                header_end = i + 4;
                break;
              }
          if (header_end > 0)
            break;
        }

      n = g_input_stream_read (input, chunk, sizeof chunk, NULL, NULL);
      if (n <= 0)
        return NULL;
      g_byte_array_append (buffer, chunk, n);
    }

  headers = g_ascii_strdown ((const char *) buffer->data, header_end);
  if ((p = strstr (headers, "\r\ncontent-length:")) != NULL)
    content_length = g_ascii_strtoull (p + strlen ("\r\ncontent-length:"), NULL, 10);

  while (buffer->len < header_end + content_length)
    {
      gssize n = g_input_stream_read (input, chunk, sizeof chunk, NULL, NULL);

      if (n <= 0)
        return NULL;
      g_byte_array_append (buffer, chunk, n);
    }

  body = g_strndup ((const char *) buffer->data + header_end, content_length);
  g_byte_array_remove_range (buffer, 0, header_end + content_length);
  return body;
}

/* Serves one request; returns FALSE when the connection is to end. */
static gboolean
serve (AgentTestConnServer *self,
       GIOStream           *stream,
       guint                connection,
       GByteArray          *buffer)
{
  g_autofree char *request_body = NULL;
  g_autoptr(GPtrArray) events = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(AgentTestSseWriter) writer = NULL;
  AgentTestConnAction action = AGENT_TEST_CONN_ANSWER;
  gboolean partial;
  gboolean late_end;
  gboolean no_end;
  guint number;

  if (!(request_body = read_request (g_io_stream_get_input_stream (stream), buffer)))
    return FALSE;

  g_mutex_lock (&self->mutex);
  g_array_append_val (self->connection_of, connection);
  number = self->connection_of->len;
  if (!g_queue_is_empty (&self->actions))
    action = GPOINTER_TO_INT (g_queue_pop_head (&self->actions));
  g_mutex_unlock (&self->mutex);

  if (action == AGENT_TEST_CONN_DROP)
    return FALSE;

  events = build_events (number, request_body);
  partial = action == AGENT_TEST_CONN_CUT || action == AGENT_TEST_CONN_HANG;
  no_end = action == AGENT_TEST_CONN_ANSWER_NO_END;
  late_end = action == AGENT_TEST_CONN_ANSWER_LATE_END;

  writer = agent_test_sse_writer_new (stream);
  if (action == AGENT_TEST_CONN_NEGATIVE_LENGTH || (!self->chunked && !partial && !late_end &&
                                                    !no_end))
    {
      /* The body whole, after a Content-Length (a wrong one, or its own) */
      g_autoptr(GString) body = g_string_new (NULL);
      g_autofree char *length = NULL;

      for (guint i = 0; i < events->len; i++)
        g_string_append (body, g_ptr_array_index (events, i));
      length = action == AGENT_TEST_CONN_NEGATIVE_LENGTH ? g_strdup ("-5")
                                                          : g_strdup_printf ("%zu", body->len);
      agent_test_http_append_status (out, 200, NULL);
      agent_test_http_append_header (out, "Content-Type", "text/event-stream");
      if (action == AGENT_TEST_CONN_ANSWER_CLOSE || action == AGENT_TEST_CONN_NEGATIVE_LENGTH)
        agent_test_http_append_header (out, "Connection", "close");
      agent_test_http_append_header (out, "Content-Length", length);
      g_string_append (out, "\r\n");
      g_string_append_len (out, body->str, body->len);
      agent_test_sse_writer_add_bytes (writer, out->str, out->len);
    }
  else
    {
      /* Chunked: each event a chunk, all in one write (the last chunk in
       * one of its own, 5 ms later, if late_end); a cut or hanging answer
       * stops after the role and the first text delta */
      agent_test_http_append_status (out, 200, NULL);
      agent_test_http_append_header (out, "Content-Type", "text/event-stream");
      if (action == AGENT_TEST_CONN_ANSWER_CLOSE)
        agent_test_http_append_header (out, "Connection", "close");
      agent_test_http_append_header (out, "Transfer-Encoding", "chunked");
      g_string_append (out, "\r\n");
      for (guint i = 0; i < (partial ? 2 : events->len); i++)
        agent_test_http_append_chunk (out, g_ptr_array_index (events, i),
                                      strlen (g_ptr_array_index (events, i)));
      agent_test_sse_writer_add_bytes (writer, out->str, out->len);
      if (late_end)
        agent_test_sse_writer_add_delay (writer, 5);
      agent_test_sse_writer_end (writer, action == AGENT_TEST_CONN_CUT ? AGENT_TEST_SSE_CLOSE
                                         : partial || no_end ? AGENT_TEST_SSE_HANG
                                         : AGENT_TEST_SSE_END);
    }

  if (!agent_test_sse_writer_write_all (writer, NULL))
    return FALSE;

  if (action == AGENT_TEST_CONN_HANG || no_end)
    {
      guint8 chunk[256];

      /* Until the client closes (whatever it sends meanwhile is dropped) */
      while (g_input_stream_read (g_io_stream_get_input_stream (stream), chunk, sizeof chunk,
                                  NULL, NULL) > 0)
        ;
      g_mutex_lock (&self->mutex);
      self->n_hung_up++;
      g_mutex_unlock (&self->mutex);
      return FALSE;
    }

  return action == AGENT_TEST_CONN_ANSWER || action == AGENT_TEST_CONN_ANSWER_LATE_END;
}

static gboolean
run_cb (GThreadedSocketService *service,
        GSocketConnection      *connection,
        GObject                *source_object,
        gpointer                user_data)
{
  AgentTestConnServer *self = user_data;
  g_autoptr(GByteArray) buffer = g_byte_array_new ();
  guint number;

  g_mutex_lock (&self->mutex);
  number = ++self->n_connections;
  self->n_active++;
  g_mutex_unlock (&self->mutex);

  while (serve (self, G_IO_STREAM (connection), number, buffer))
    ;
  g_io_stream_close (G_IO_STREAM (connection), NULL, NULL);

  g_mutex_lock (&self->mutex);
  self->n_active--;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->mutex);
  return TRUE;
}

AgentTestConnServer *
agent_test_conn_server_new (gboolean chunked)
{
  AgentTestConnServer *self = g_new0 (AgentTestConnServer, 1);
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) effective = NULL;
  g_autoptr(GError) error = NULL;

  g_mutex_init (&self->mutex);
  g_cond_init (&self->cond);
  g_queue_init (&self->actions);
  self->connection_of = g_array_new (FALSE, FALSE, sizeof (guint));
  self->chunked = chunked;

  self->service = g_threaded_socket_service_new (16);
  g_socket_listener_add_address (G_SOCKET_LISTENER (self->service), address,
                                 G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, NULL,
                                 &effective, &error);
  g_assert_no_error (error);
  g_signal_connect (self->service, "run", G_CALLBACK (run_cb), self);
  g_socket_service_start (self->service);

  self->base_url = g_strdup_printf ("http://127.0.0.1:%u/v1",
                                    g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (effective)));
  return self;
}

/* After the clients are gone: waits for the connections to end. */
void
agent_test_conn_server_free (AgentTestConnServer *self)
{
  gint64 deadline = g_get_monotonic_time () + FREE_WAIT_SECONDS * G_TIME_SPAN_SECOND;

  g_socket_service_stop (self->service);
  g_socket_listener_close (G_SOCKET_LISTENER (self->service));

  /* The client's side may need its main context to close (libsoup ends
   * its connections from there) */
  g_mutex_lock (&self->mutex);
  while (self->n_active > 0)
    {
      g_mutex_unlock (&self->mutex);
      while (g_main_context_iteration (NULL, FALSE))
        ;
      g_mutex_lock (&self->mutex);
      if (self->n_active == 0)
        break;
      if (g_get_monotonic_time () > deadline)
        g_error ("%u connections of the test server still open", self->n_active);
      g_cond_wait_until (&self->cond, &self->mutex,
                         MIN (deadline, g_get_monotonic_time () + 10 * G_TIME_SPAN_MILLISECOND));
    }
  g_mutex_unlock (&self->mutex);

  g_object_unref (self->service);
  g_queue_clear (&self->actions);
  g_array_unref (self->connection_of);
  g_mutex_clear (&self->mutex);
  g_cond_clear (&self->cond);
  g_free (self->base_url);
  g_free (self);
}

const char *
agent_test_conn_server_get_base_url (AgentTestConnServer *self)
{
  return self->base_url;
}

/* What the next request that has none gets (after these, answers) */
void
agent_test_conn_server_push (AgentTestConnServer *self,
                             AgentTestConnAction  action)
{
  g_mutex_lock (&self->mutex);
  g_queue_push_tail (&self->actions, GINT_TO_POINTER (action));
  g_mutex_unlock (&self->mutex);
}

static guint
get_counter (AgentTestConnServer *self,
             guint               *counter)
{
  guint value;

  g_mutex_lock (&self->mutex);
  value = *counter;
  g_mutex_unlock (&self->mutex);
  return value;
}

guint
agent_test_conn_server_get_n_connections (AgentTestConnServer *self)
{
  return get_counter (self, &self->n_connections);
}

guint
agent_test_conn_server_get_n_requests (AgentTestConnServer *self)
{
  return get_counter (self, &self->connection_of->len);
}

/* Hanging answers whose client closed the connection */
guint
agent_test_conn_server_get_n_hung_up (AgentTestConnServer *self)
{
  return get_counter (self, &self->n_hung_up);
}

/* The connection (from 1) request @request (from 0) came on */
guint
agent_test_conn_server_get_connection_of (AgentTestConnServer *self,
                                          guint                request)
{
  guint value;

  g_mutex_lock (&self->mutex);
  g_assert_cmpuint (request, <, self->connection_of->len);
  value = g_array_index (self->connection_of, guint, request);
  g_mutex_unlock (&self->mutex);
  return value;
}
