/* agent-test-server.c
 *
 * The SoupServer reads each request; a streamed response then takes the
 * connection over (soup_server_message_steal_connection()) and is written
 * by the SSE writer the benchmarks use too (tests/common/agent-test-sse.c):
 * each chunk in one write, as production servers write.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <netinet/in.h>
#include <netinet/tcp.h>

#include <string.h>

#include "agent-test-feed.h"
#include "agent-test-server.h"
#include "agent-test-sse.h"
#include "agent-test-util.h"

typedef enum
{
  ACTION_BYTES,
  ACTION_DELAY,
  ACTION_WAIT,
} ActionType;

/* Connections waiting to be accepted, as many as test-load opens at once */
#define LISTEN_BACKLOG 256

typedef struct
{
  ActionType  type;
  GBytes     *bytes;
  guint       msec;
} Action;

struct _AgentTestResponse
{
  guint   status;
  char   *reason;     /* the reason phrase, NULL for the usual one */
  char   *content_type;
  GPtrArray *headers;   /* name, value, name, value, … */
  GArray *actions;
  char   *body;
  guint   drop : 1;
  guint   drop_at_boundary : 1;
  guint   hang_up : 1;
};

typedef struct
{
  char               *path;
  const char         *method;     /* interned */
  SoupMessageHeaders *headers;
  JsonNode           *body;
  char               *text;       /* the body as it came */
  GBytes             *bytes;      /* and as bytes (a NUL does not end it) */
  guint16             port;       /* the client's: one per connection */
} Request;

/* A streamed response: its connection, taken from the SoupServer once the
 * request is read, written by the shared SSE writer */
typedef struct
{
  AgentTestServer    *server;
  AgentTestSseWriter *writer;
} Stream;

struct _AgentTestServer
{
  SoupServer *server;
  char       *base_url;
  GQueue      responses;
  GPtrArray  *requests;
  GPtrArray  *streams;
  guint       n_aborted;

  GSocketService  *service;
  GTlsCertificate *certificate;

  AgentTestResponder responder;
  gpointer           responder_data;
};

static void
action_clear (gpointer data)
{
  Action *action = data;

  g_clear_pointer (&action->bytes, g_bytes_unref);
}

static void
response_free (AgentTestResponse *self)
{
  g_array_unref (self->actions);
  g_ptr_array_unref (self->headers);
  g_free (self->content_type);
  g_free (self->reason);
  g_free (self->body);
  g_free (self);
}

static void
request_free (gpointer data)
{
  Request *request = data;

  g_free (request->path);
  g_clear_pointer (&request->headers, soup_message_headers_unref);
  g_clear_pointer (&request->body, json_node_unref);
  g_free (request->text);
  g_clear_pointer (&request->bytes, g_bytes_unref);
  g_free (request);
}

static void
stream_free (Stream *stream)
{
  GIOStream *connection = g_object_ref (agent_test_sse_writer_get_stream (stream->writer));

  agent_test_sse_writer_free (stream->writer);
  g_io_stream_close (connection, NULL, NULL);
  g_object_unref (connection);
  g_free (stream);
}

/* The response was written to its end (@complete), or ended otherwise: the
 * client went away, or it was to break (agent_test_response_set_drop()) */
static void
stream_done_cb (AgentTestSseWriter *writer,
                gboolean            complete,
                const GError       *error,
                gpointer            data)
{
  Stream *stream = data;
  AgentTestServer *self = stream->server;

  if (!complete)
    self->n_aborted++;
  g_ptr_array_remove (self->streams, stream);
}

/* The head goes with the first bytes of the body: until then (a delay, a
 * wait) the client gets nothing at all, as from a server still thinking */
static void
add_head (Stream            *stream,
          AgentTestResponse *response)
{
  agent_test_sse_writer_add_head (stream->writer, response->status, response->reason,
                                  response->content_type,
                                  (const char * const *) response->headers->pdata, TRUE);
}

static void
server_cb (SoupServer        *server,
           SoupServerMessage *message,
           const char        *path,
           GHashTable        *query,
           gpointer           user_data)
{
  AgentTestServer *self = user_data;
  SoupMessageBody *request_body = soup_server_message_get_request_body (message);
  g_autoptr(GBytes) bytes = soup_message_body_flatten (request_body);
  AgentTestResponse *response;
  Request *request;
  Stream *stream;

  /* An Ollama turn with tools, images or a reasoning effort first asks
   * what its model can do (agent-turn-capabilities.c: /api/show with
   * "verbose": false): a scripted server does not say, and neither records
   * nor scripts that question. The fake Ollama (agent-test-ollama.c), a
   * responder, answers it. */
  if (self->responder == NULL && g_str_equal (path, "/api/show") &&
      g_strstr_len (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                    "\"verbose\":false") != NULL)
    {
      soup_server_message_set_status (message, SOUP_STATUS_OK, NULL);
      soup_server_message_set_response (message, "application/json", SOUP_MEMORY_STATIC, "{}", 2);
      return;
    }

  request = g_new0 (Request, 1);
  request->path = g_strdup (path);
  request->method = g_intern_string (soup_server_message_get_method (message));
  request->headers = soup_message_headers_ref (soup_server_message_get_request_headers (message));
  request->port = g_inet_socket_address_get_port (
    G_INET_SOCKET_ADDRESS (soup_server_message_get_remote_address (message)));
  request->text = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  request->bytes = g_bytes_ref (bytes);
  if (g_bytes_get_size (bytes) > 0)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();

      if (json_parser_load_from_data (parser, g_bytes_get_data (bytes, NULL),
                                      g_bytes_get_size (bytes), NULL))
        request->body = json_node_ref (json_parser_get_root (parser));
    }
  g_ptr_array_add (self->requests, request);

  if (self->responder != NULL)
    self->responder (self, request->path, request->body, self->responder_data);
  response = g_queue_pop_head (&self->responses);
  if (response == NULL)
    {
      static const char body[] = "{\"error\":{\"message\":\"no scripted response\"}}";

      soup_server_message_set_status (message, SOUP_STATUS_INTERNAL_SERVER_ERROR, NULL);
      soup_server_message_set_response (message, "application/json", SOUP_MEMORY_STATIC,
                                        body, sizeof body - 1);
      return;
    }

  if (response->hang_up)
    {
      /* No answer at all: the connection closes once the request is read,
       * as when a server drops a kept-alive connection just as a new
       * request comes on it. Taken from the SoupServer, it writes nothing. */
      g_autoptr(GIOStream) connection = soup_server_message_steal_connection (message);

      response_free (response);
      g_io_stream_close (connection, NULL, NULL);
      return;
    }

  soup_server_message_set_status (message, response->status, response->reason);
  for (guint i = 0; i + 1 < response->headers->len; i += 2)
    soup_message_headers_replace (soup_server_message_get_response_headers (message),
                                  g_ptr_array_index (response->headers, i),
                                  g_ptr_array_index (response->headers, i + 1));

  if (response->body != NULL)
    {
      soup_server_message_set_response (message, response->content_type, SOUP_MEMORY_COPY,
                                        response->body, strlen (response->body));
      response_free (response);
      return;
    }

  {
    g_autoptr(GIOStream) connection = soup_server_message_steal_connection (message);
    GArray *actions = response->actions;
    gboolean head_added = FALSE;

    stream = g_new0 (Stream, 1);
    stream->server = self;
    stream->writer = agent_test_sse_writer_new (connection);
    g_ptr_array_add (self->streams, stream);
    agent_test_sse_writer_set_callbacks (stream->writer, NULL, stream_done_cb, stream);
    /* The client, in this process, gets a chunk at a time */
    agent_test_sse_writer_set_paced (stream->writer, TRUE);

    /* The server closes the connection after each response */
    g_ptr_array_add (response->headers, NULL);
    for (guint i = 0; i < actions->len; i++)
      {
        Action *action = &g_array_index (actions, Action, i);
        gsize len;
        const char *data;

        switch (action->type)
          {
          case ACTION_BYTES:
            if (!head_added)
              add_head (stream, response);
            head_added = TRUE;
            data = g_bytes_get_data (action->bytes, &len);
            agent_test_sse_writer_add_chunk (stream->writer, data, len);
            break;

          case ACTION_DELAY:
            agent_test_sse_writer_add_delay (stream->writer, action->msec);
            break;

          case ACTION_WAIT:
            agent_test_sse_writer_add_wait (stream->writer);
            break;

          default:
            g_assert_not_reached ();
          }
      }
    if (!head_added)
      add_head (stream, response);
    agent_test_sse_writer_end (stream->writer,
                               !response->drop ? AGENT_TEST_SSE_END
                               : response->drop_at_boundary ? AGENT_TEST_SSE_CLOSE
                               : AGENT_TEST_SSE_CUT);
    response_free (response);
    agent_test_sse_writer_start (stream->writer);
  }
}

static gboolean
incoming_cb (GSocketService    *service,
             GSocketConnection *connection,
             GObject           *source_object,
             AgentTestServer   *self)
{
  g_autoptr(GSocketAddress) local = g_socket_connection_get_local_address (connection, NULL);
  g_autoptr(GSocketAddress) remote = g_socket_connection_get_remote_address (connection, NULL);
  g_autoptr(GIOStream) stream = NULL;
  g_autoptr(GError) error = NULL;

  /* As production servers do: each write leaves at once, not held back by
   * Nagle's algorithm for the client's delayed ACK (40 ms) */
  g_socket_set_option (g_socket_connection_get_socket (connection), IPPROTO_TCP, TCP_NODELAY,
                       1, NULL);

  if (self->certificate != NULL)
    stream = g_tls_server_connection_new (G_IO_STREAM (connection), self->certificate, &error);
  else
    stream = g_object_ref (G_IO_STREAM (connection));

  if (stream == NULL ||
      !soup_server_accept_iostream (self->server, stream, local, remote, &error))
    g_error ("Cannot take a connection: %s", error->message);

  return TRUE;
}

/* Listens on 127.0.0.1 with a backlog of LISTEN_BACKLOG: GSocket's
 * default of 10 would make the kernel drop the connections of a burst of
 * clients beyond it, which then try again a second later. The connections
 * are accepted here and handed to the SoupServer (with TLS, when the
 * server has a certificate): its own listener, in libsoup 3.2, loses the
 * GSocket of every connection it accepted, which would show as a leak of
 * test-load's hundreds of connections. Returns the port. */
static guint16
listen_local (AgentTestServer *self)
{
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(GError) error = NULL;

  self->service = g_socket_service_new ();
  g_socket_listener_set_backlog (G_SOCKET_LISTENER (self->service), LISTEN_BACKLOG);
  if (!g_socket_listener_add_address (G_SOCKET_LISTENER (self->service), address,
                                      G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP,
                                      NULL, &bound, &error))
    g_error ("Cannot listen on 127.0.0.1: %s", error->message);

  g_signal_connect (self->service, "incoming", G_CALLBACK (incoming_cb), self);
  g_socket_service_start (self->service);

  return g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
}

static AgentTestServer *
server_new (GTlsCertificate *certificate)
{
  AgentTestServer *self = g_new0 (AgentTestServer, 1);
  guint16 port;

  self->server = soup_server_new (NULL, NULL);
  self->certificate = certificate != NULL ? g_object_ref (certificate) : NULL;
  self->requests = g_ptr_array_new_with_free_func (request_free);
  self->streams = g_ptr_array_new_with_free_func ((GDestroyNotify)stream_free);
  g_queue_init (&self->responses);

  soup_server_add_handler (self->server, NULL, server_cb, self, NULL);
  port = listen_local (self);
  self->base_url = g_strdup_printf ("%s://127.0.0.1:%u/v1", certificate ? "https" : "http", port);

  return self;
}

AgentTestServer *
agent_test_server_new (void)
{
  return server_new (NULL);
}

/* Keeps each connection open after an answer written whole (a JSON body;
 * a streamed answer, written by the SSE writer, closes its connection), as
 * API servers do. A SoupServer (libsoup 3.2) closes every connection after
 * its answer while it has no listener of its own (soup-server.c,
 * request_finished()), and the connections here are handed to it by
 * incoming_cb(): a listener on a port of its own, which nothing connects
 * to, lets them stay. Without it, a client may write its next request on a
 * connection the server is closing, a race that load or valgrind makes
 * likely. */
void
agent_test_server_set_keep_alive (AgentTestServer *self)
{
  g_autoptr(GError) error = NULL;

  if (!soup_server_listen_local (self->server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error))
    g_error ("Cannot keep connections alive: %s", error->message);
}

/* The same over TLS, with the certificate and key in PEM files */
AgentTestServer *
agent_test_server_new_tls (const char *certificate_file,
                           const char *key_file)
{
  g_autoptr(GTlsCertificate) certificate = NULL;
  g_autoptr(GError) error = NULL;

  certificate = g_tls_certificate_new_from_files (certificate_file, key_file, &error);
  g_assert_no_error (error);
  return server_new (certificate);
}

void
agent_test_server_free (AgentTestServer *self)
{
  if (self == NULL)
    return;

  /* Let the server see its clients go (they closed their connections)
   * before it stops listening, then let the disconnections run. */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_socket_service_stop (self->service);
  g_socket_listener_close (G_SOCKET_LISTENER (self->service));
  soup_server_disconnect (self->server);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_clear_object (&self->service);
  g_clear_object (&self->certificate);
  g_ptr_array_unref (self->streams);
  g_clear_object (&self->server);
  g_queue_clear_full (&self->responses, (GDestroyNotify)response_free);
  g_ptr_array_unref (self->requests);
  g_free (self->base_url);
  g_free (self);
}

const char *
agent_test_server_get_base_url (AgentTestServer *self)
{
  return self->base_url;
}

AgentTestResponse *
agent_test_server_add_response (AgentTestServer *self,
                                guint            status)
{
  AgentTestResponse *response = g_new0 (AgentTestResponse, 1);

  response->status = status;
  response->content_type = g_strdup ("text/event-stream");
  response->headers = g_ptr_array_new_with_free_func (g_free);
  response->actions = g_array_new (FALSE, TRUE, sizeof (Action));
  g_array_set_clear_func (response->actions, action_clear);
  g_queue_push_tail (&self->responses, response);

  return response;
}

guint
agent_test_server_get_n_requests (AgentTestServer *self)
{
  return self->requests->len;
}

JsonNode *
agent_test_server_get_request_body (AgentTestServer *self,
                                    guint            index)
{
  g_assert_cmpuint (index, <, self->requests->len);
  return ((Request *)g_ptr_array_index (self->requests, index))->body;
}

/* The body as the client wrote it: what a parse would change (numbers
 * beyond a double's precision) stays as it was. */
const char *
agent_test_server_get_request_text (AgentTestServer *self,
                                    guint            index)
{
  g_assert_cmpuint (index, <, self->requests->len);
  return ((Request *)g_ptr_array_index (self->requests, index))->text;
}

/* The body as bytes: a binary one (multipart with a file) whole */
GBytes *
agent_test_server_get_request_bytes (AgentTestServer *self,
                                     guint            index)
{
  g_assert_cmpuint (index, <, self->requests->len);
  return ((Request *)g_ptr_array_index (self->requests, index))->bytes;
}

const char *
agent_test_server_get_request_header (AgentTestServer *self,
                                      guint            index,
                                      const char      *name)
{
  g_assert_cmpuint (index, <, self->requests->len);
  return soup_message_headers_get_one (((Request *)g_ptr_array_index (self->requests, index))->headers,
                                       name);
}

const char *
agent_test_server_get_request_path (AgentTestServer *self,
                                    guint            index)
{
  g_assert_cmpuint (index, <, self->requests->len);
  return ((Request *)g_ptr_array_index (self->requests, index))->path;
}

const char *
agent_test_server_get_request_method (AgentTestServer *self,
                                      guint            index)
{
  g_assert_cmpuint (index, <, self->requests->len);
  return ((Request *)g_ptr_array_index (self->requests, index))->method;
}

/* The client's port the request came from: two requests with the same
 * came on one connection (the test server listens on 127.0.0.1 only). */
guint16
agent_test_server_get_request_port (AgentTestServer *self,
                                    guint            index)
{
  g_assert_cmpuint (index, <, self->requests->len);
  return ((Request *)g_ptr_array_index (self->requests, index))->port;
}

guint
agent_test_server_get_n_pending (AgentTestServer *self)
{
  return g_queue_get_length (&self->responses);
}

gboolean
agent_test_server_is_waiting (AgentTestServer *self)
{
  return agent_test_server_get_n_waiting (self) > 0;
}

static gboolean
server_is_waiting (gpointer data)
{
  return agent_test_server_is_waiting (data);
}

/* Runs the main loop until a response reached its wait. */
void
agent_test_server_wait_until_waiting (AgentTestServer *self)
{
  agent_test_wait_until (server_is_waiting, self);
}

/* How many responses wait at an agent_test_response_add_wait() now. */
guint
agent_test_server_get_n_waiting (AgentTestServer *self)
{
  guint n = 0;

  for (guint i = 0; i < self->streams->len; i++)
    if (agent_test_sse_writer_is_waiting (((Stream *) g_ptr_array_index (self->streams, i))->writer))
      n++;

  return n;
}

/* Scripts responses as the requests come: @responder is called for each
 * request, before its response is taken from the queue, and may add it
 * there. For servers whose answer depends on the request (concurrent
 * sessions, whose requests come in any order). */
void
agent_test_server_set_responder (AgentTestServer    *self,
                                 AgentTestResponder  responder,
                                 gpointer            user_data)
{
  self->responder = responder;
  self->responder_data = user_data;
}

void
agent_test_server_release (AgentTestServer *self)
{
  /* Those waiting now: a stream may end, and go, as one is released */
  g_autoptr(GPtrArray) waiting = g_ptr_array_new ();

  for (guint i = 0; i < self->streams->len; i++)
    if (agent_test_sse_writer_is_waiting (((Stream *) g_ptr_array_index (self->streams, i))->writer))
      g_ptr_array_add (waiting, g_ptr_array_index (self->streams, i));
  for (guint i = 0; i < waiting->len; i++)
    if (g_ptr_array_find (self->streams, g_ptr_array_index (waiting, i), NULL))
      agent_test_sse_writer_release (((Stream *) g_ptr_array_index (waiting, i))->writer);
}

guint
agent_test_server_get_n_aborted (AgentTestServer *self)
{
  return self->n_aborted;
}

void
agent_test_response_set_content_type (AgentTestResponse *self,
                                      const char        *content_type)
{
  g_free (self->content_type);
  self->content_type = g_strdup (content_type);
}

/* The reason phrase of the status line ("200 Whatever"), for servers
 * that put more than "OK" there. */
void
agent_test_response_set_reason (AgentTestResponse *self,
                                const char        *reason)
{
  g_free (self->reason);
  self->reason = g_strdup (reason);
}

void
agent_test_response_add_header (AgentTestResponse *self,
                                const char        *name,
                                const char        *value)
{
  g_ptr_array_add (self->headers, g_strdup (name));
  g_ptr_array_add (self->headers, g_strdup (value));
}

void
agent_test_response_add_bytes (AgentTestResponse *self,
                               const char        *data,
                               gssize             len)
{
  Action action = { ACTION_BYTES };

  if (len < 0)
    len = strlen (data);
  action.bytes = g_bytes_new (data, len);
  g_array_append_val (self->actions, action);
}

void
agent_test_response_add_sse (AgentTestResponse *self,
                             const char        *json)
{
  g_autoptr(GString) event = g_string_new (NULL);

  agent_test_sse_append_event (event, NULL, json);
  agent_test_response_add_bytes (self, event->str, event->len);
}

void
agent_test_response_add_sse_printf (AgentTestResponse *self,
                                    const char        *format,
                                    ...)
{
  g_autofree char *json = NULL;
  va_list args;

  va_start (args, format);
  json = g_strdup_vprintf (format, args);
  va_end (args);

  agent_test_response_add_sse (self, json);
}

void
agent_test_response_add_done (AgentTestResponse *self)
{
  g_autoptr(GString) event = g_string_new (NULL);

  agent_test_sse_append_done (event);
  agent_test_response_add_bytes (self, event->str, event->len);
}

void
agent_test_response_add_delay (AgentTestResponse *self,
                               guint              msec)
{
  Action action = { ACTION_DELAY };

  action.msec = msec;
  g_array_append_val (self->actions, action);
}

void
agent_test_response_add_wait (AgentTestResponse *self)
{
  Action action = { ACTION_WAIT };

  g_array_append_val (self->actions, action);
}

/* The connection breaks in the middle of a chunk after the scripted
 * bytes, as when a network or a server dies mid-transfer. */
void
agent_test_response_set_drop (AgentTestResponse *self)
{
  self->drop = TRUE;
}

/* The connection closes cleanly between two chunks, without the chunked
 * terminator. (libsoup 3.2 reports this as a clean end of the body.) */
void
agent_test_response_set_drop_at_boundary (AgentTestResponse *self)
{
  self->drop = TRUE;
  self->drop_at_boundary = TRUE;
}

/* The connection closes when the request has come, with no answer. */
void
agent_test_response_set_hang_up (AgentTestResponse *self)
{
  self->hang_up = TRUE;
}

void
agent_test_response_set_body (AgentTestResponse *self,
                              const char        *content_type,
                              const char        *body)
{
  agent_test_response_set_content_type (self, content_type);
  g_free (self->body);
  self->body = g_strdup (body);
}

static gboolean
add_bytes (gpointer     user_data,
           const char  *bytes,
           gsize        len,
           GError     **error)
{
  agent_test_response_add_bytes (user_data, bytes, len);
  return TRUE;
}

/* The file at @path, written in pieces of 1 to @max_piece bytes drawn from
 * a GRand seeded with @seed, or whole if @max_piece is 0. */
void
agent_test_response_add_file_in_pieces (AgentTestResponse *self,
                                        const char        *path,
                                        guint32            seed,
                                        gsize              max_piece)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  g_autofree char *contents = NULL;
  gsize len;

  if (!g_file_get_contents (path, &contents, &len, &error))
    g_error ("%s", error->message);

  if (max_piece == 0)
    agent_test_feed_pieces (add_bytes, self, contents, len, MAX (len, 1), NULL, NULL);
  else
    agent_test_feed_pieces (add_bytes, self, contents, len, max_piece, rand, NULL);
}
