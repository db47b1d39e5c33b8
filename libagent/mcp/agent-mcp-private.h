/* agent-mcp-private.h
 *
 * The inside of the MCP client:
 *
 *   AgentMcpClient ── AgentMcpRpc (JSON-RPC 2.0: ids, pending requests,
 *        │                         cancellation, time limits)
 *        │                  │ text of one message
 *        │                  ▼
 *        └──────────── AgentMcpTransport: stdio (a child process, one
 *                      message a line) or Streamable HTTP (a POST per
 *                      message, answers in JSON or SSE, a GET stream)
 *
 * Everything runs on the main context that was the thread-default one when
 * the client was created.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gio/gio.h>

#include "agent-debug-private.h"
#include "json/agent-json-private.h"
#include "messages/agent-content-part.h"
#include "mcp/agent-mcp-client.h"
#include "mcp/agent-mcp-elicitation.h"
#include "mcp/agent-mcp-prompt.h"
#include "mcp/agent-mcp-resource.h"
#include "mcp/agent-mcp-tool.h"
#include "tools/agent-tool-invocation.h"

G_BEGIN_DECLS

/* The protocol versions this client speaks, newest first. */
extern const char * const agent_mcp_protocol_versions[];

/* agent-mcp-revision.c: what sets the protocol revisions apart */

#define AGENT_MCP_META_PROTOCOL_VERSION    "io.modelcontextprotocol/protocolVersion"
#define AGENT_MCP_META_CLIENT_INFO         "io.modelcontextprotocol/clientInfo"
#define AGENT_MCP_META_CLIENT_CAPABILITIES "io.modelcontextprotocol/clientCapabilities"
#define AGENT_MCP_META_SERVER_INFO         "io.modelcontextprotocol/serverInfo"
/* UnsupportedProtocolVersionError, and the range of the errors that only a
 * server of a stateless revision sends */
#define AGENT_MCP_ERROR_UNSUPPORTED_VERSION (-32022)
/* HeaderMismatch: the headers of a request do not match its body */
#define AGENT_MCP_ERROR_HEADER_MISMATCH     (-32020)
#define AGENT_MCP_ERROR_MODERN_FIRST        (-32099)
#define AGENT_MCP_ERROR_MODERN_LAST         (-32020)

typedef struct
{
  const char *version;
  /* No initialize: server/discover, and version, capabilities and identity
   * in every request's _meta */
  guint       stateless : 1;
  /* HTTP: Mcp-Session-Id, the GET stream, DELETE on closing */
  guint       sessions : 1;
  /* Changes come through subscriptions/listen (else on their own) */
  guint       listen : 1;
  /* HTTP: Mcp-Method and Mcp-Name on every POST */
  guint       method_headers : 1;
  /* HTTP: tool parameters annotated with x-mcp-header go as Mcp-Param-*
   * headers, and a tool with an invalid annotation is left out */
  guint       param_headers : 1;
  /* HTTP: the client may POST notifications (cancelled, initialized) */
  guint       client_notifications_over_http : 1;
  /* What tells whether the server is there */
  const char *ping_method;
} AgentMcpRevision;

const AgentMcpRevision *_agent_mcp_revision_find     (const char             *version);
const AgentMcpRevision *_agent_mcp_revision_newest   (gboolean                stateless);
const AgentMcpRevision *_agent_mcp_revision_choose   (const char * const     *offered);
char                   *_agent_mcp_revision_list     (const char * const     *versions);
GError                 *_agent_mcp_revision_no_common_error (const char         *server,
                                                             const char * const *offered);
cJSON                  *_agent_mcp_revision_add_meta (const AgentMcpRevision *self,
                                                      cJSON                  *params,
                                                      const cJSON            *capabilities);
char                   *_agent_mcp_revision_header_value (const char         *value);
void                    _agent_mcp_revision_remember (const char             *endpoint,
                                                      const AgentMcpRevision *revision);
const AgentMcpRevision *_agent_mcp_revision_remembered (const char           *endpoint);

/* agent-mcp-param-headers.c: tool parameters mirrored into headers */

typedef struct
{
  char  *name;   /* the x-mcp-header: the header is Mcp-Param-{name} */
  char **path;   /* the "properties" keys from the schema's root to it */
} AgentMcpParamHeader;

void       _agent_mcp_param_header_free   (AgentMcpParamHeader *header);
GPtrArray *_agent_mcp_param_headers_parse (JsonObject          *input_schema,
                                           GError             **error);
GStrv      _agent_mcp_param_headers_values (GPtrArray          *headers,
                                            const cJSON        *arguments,
                                            const char         *server,
                                            const char         *tool,
                                            GError            **error);
/* Over Streamable HTTP under 2026-07-28: takes the annotations of @tool's
 * input schema, or warns and returns FALSE (the tool is left out) when one
 * is invalid; and gives the transport those of the tools just @listed */
gboolean   _agent_mcp_client_take_param_headers (AgentMcpClient *self,
                                                 AgentMcpTool   *tool,
                                                 JsonObject     *definition);
void       _agent_mcp_client_set_param_headers  (AgentMcpClient *self,
                                                 GPtrArray      *listed);

#define AGENT_MCP_LOG_DOMAIN "Agent-MCP"

/* The longest message a server may send (a line on stdio, a body or an
 * event over HTTP): beyond any tool result a model can read. */
#define AGENT_MCP_MAX_MESSAGE        (16 * 1024 * 1024)
/* The most content blocks in one tool result */
#define AGENT_MCP_MAX_CONTENT_BLOCKS 10000
/* The defaults of AgentMcpClient:max-tools, :max-result-size, :call-timeout */
#define AGENT_MCP_DEFAULT_MAX_TOOLS       1000
#define AGENT_MCP_DEFAULT_MAX_RESULT_SIZE (1024 * 1024)
#define AGENT_MCP_DEFAULT_CALL_TIMEOUT    300.0

void     _agent_mcp_log     (const char          *server,
                             const char          *format,
                             ...) G_GNUC_PRINTF (2, 3);
char    *_agent_mcp_redact  (const char * const  *secrets,
                             const char          *text);
char    *_agent_mcp_excerpt (const char * const  *secrets,
                             const char          *text,
                             gsize                len,
                             guint                max_chars);

/* Transports */

#define AGENT_TYPE_MCP_TRANSPORT (agent_mcp_transport_get_type ())
G_DECLARE_DERIVABLE_TYPE (AgentMcpTransport, agent_mcp_transport, AGENT, MCP_TRANSPORT, GObject)

typedef struct
{
  /* One JSON-RPC message (or batch) the server sent. */
  void (*message)        (gpointer      user_data,
                          const char   *text,
                          gsize         len);
  /* The server went away, or the transport broke: nothing more will come. */
  void (*closed)         (gpointer      user_data,
                          const GError *error);
  /* The request @id could not be delivered, or its answer could not be
   * read (HTTP only: each request has its own exchange). */
  void (*request_failed) (gpointer      user_data,
                          gint64        id,
                          const GError *error);
} AgentMcpTransportCallbacks;

struct _AgentMcpTransportClass
{
  GObjectClass parent_class;

  gboolean (*start)                (AgentMcpTransport    *self,
                                    GError              **error);
  /* @id: the id of the request in @message, or -1 for a notification or
   * a response */
  void     (*send)                 (AgentMcpTransport    *self,
                                    GBytes               *message,
                                    gint64                id);
  void     (*cancel_request)       (AgentMcpTransport    *self,
                                    gint64                id);
  void     (*set_protocol_version) (AgentMcpTransport    *self,
                                    const char           *version);
  /* The handshake is over: the server may now talk on its own. */
  void     (*initialized)          (AgentMcpTransport    *self);
  /* Ends the connection: the process exits (at once if @force: it
   * misbehaved), the HTTP session is deleted. No callback is called after
   * it. */
  void     (*close_async)          (AgentMcpTransport    *self,
                                    gboolean              force,
                                    GAsyncReadyCallback   callback,
                                    gpointer              user_data);
};

void      _agent_mcp_transport_set_callbacks      (AgentMcpTransport                *self,
                                                   const AgentMcpTransportCallbacks *callbacks,
                                                   gpointer                          user_data);
void      _agent_mcp_transport_set_name           (AgentMcpTransport                *self,
                                                   const char                       *name);
const char *_agent_mcp_transport_get_name         (AgentMcpTransport                *self);
void      _agent_mcp_transport_set_secrets        (AgentMcpTransport                *self,
                                                   const char * const               *secrets);
char     *_agent_mcp_transport_redact             (AgentMcpTransport                *self,
                                                   const char                       *text);
char     *_agent_mcp_transport_excerpt           (AgentMcpTransport                *self,
                                                   const char                       *text,
                                                   gsize                             len,
                                                   guint                             max_chars);
gboolean  _agent_mcp_transport_start              (AgentMcpTransport                *self,
                                                   GError                          **error);
void      _agent_mcp_transport_send               (AgentMcpTransport                *self,
                                                   GBytes                           *message,
                                                   gint64                            id);
void      _agent_mcp_transport_cancel_request     (AgentMcpTransport                *self,
                                                   gint64                            id);
void      _agent_mcp_transport_set_protocol_version (AgentMcpTransport              *self,
                                                     const char                     *version);
void      _agent_mcp_transport_initialized        (AgentMcpTransport                *self);
void      _agent_mcp_transport_close_async        (AgentMcpTransport                *self,
                                                   gboolean                          force,
                                                   GAsyncReadyCallback               callback,
                                                   gpointer                          user_data);
/* For subclasses: report to the client (no-ops once closed) */
void      _agent_mcp_transport_emit_message       (AgentMcpTransport                *self,
                                                   const char                       *text,
                                                   gsize                             len);
void      _agent_mcp_transport_emit_closed        (AgentMcpTransport                *self,
                                                   const GError                     *error);
void      _agent_mcp_transport_emit_request_failed (AgentMcpTransport               *self,
                                                    gint64                           id,
                                                    const GError                    *error);
gboolean  _agent_mcp_transport_is_closed          (AgentMcpTransport                *self);

AgentMcpTransport *_agent_mcp_stdio_transport_new (const char         *command,
                                                   const char * const *args,
                                                   const char * const *env,
                                                   const char         *cwd);
AgentMcpTransport *_agent_mcp_http_transport_new  (const char         *url,
                                                   const char * const *headers);
/* The x-mcp-header annotations of the tools: the server's name of a tool →
 * its GPtrArray of AgentMcpParamHeader (NULL: none) */
void      _agent_mcp_http_transport_set_param_headers (AgentMcpTransport *transport,
                                                       GHashTable        *headers);

/* JSON-RPC */

typedef struct _AgentMcpRpc AgentMcpRpc;

/* Errors of JSON-RPC: the code is the one sent to the server */
#define AGENT_MCP_RPC_ERROR (_agent_mcp_rpc_error_quark ())
GQuark _agent_mcp_rpc_error_quark (void);

#define AGENT_MCP_RPC_INVALID_REQUEST  (-32600)
#define AGENT_MCP_RPC_METHOD_NOT_FOUND (-32601)
#define AGENT_MCP_RPC_INVALID_PARAMS   (-32602)
#define AGENT_MCP_RPC_INTERNAL_ERROR   (-32603)
/* The request was cancelled (as LSP names it): the request of ours it was
 * part of ended */
#define AGENT_MCP_RPC_REQUEST_CANCELLED (-32800)

typedef struct
{
  /* A notification from the server; @params may be NULL. */
  void (*notification) (gpointer         user_data,
                        const char      *method,
                        const AgentJson *params);
  /* A request from the server (other than ping), to be answered with
   * _agent_mcp_rpc_respond() and @id, now or later. @cancellable is
   * cancelled when the server withdraws the request or the connection
   * ends: no answer is sent then. Without it, requests are answered
   * "method not found". */
  void (*request)      (gpointer         user_data,
                        const char      *id,
                        const char      *method,
                        JsonObject      *params,
                        GCancellable    *cancellable);
  /* The transport closed. */
  void (*closed)       (gpointer         user_data,
                        const GError    *error);
} AgentMcpRpcCallbacks;

/* A check of a request's result, on the parsed text: an error refuses it. */
typedef GError *(*AgentMcpCheckFunc) (const AgentJson *result,
                                      gpointer         user_data);

/* Progress of a request: @total < 0 when the server gave none. */
typedef void (*AgentMcpProgressFunc) (double      progress,
                                      double      total,
                                      const char *message,
                                      gpointer    user_data);

AgentMcpRpc *_agent_mcp_rpc_new             (AgentMcpTransport          *transport,
                                             const char                 *server_name,
                                             const AgentMcpRpcCallbacks *callbacks,
                                             gpointer                    user_data);
void         _agent_mcp_rpc_free            (AgentMcpRpc                *self);
AgentMcpTransport *_agent_mcp_rpc_get_transport (AgentMcpRpc            *self);
/* Takes @params (may be NULL). Completes with a JsonNode of the result,
 * or the error of @check. @timeout starts again with each progress
 * report. */
void         _agent_mcp_rpc_request_async   (AgentMcpRpc                *self,
                                             const char                 *method,
                                             cJSON                      *params,
                                             double                      timeout,
                                             AgentMcpProgressFunc        progress,
                                             gpointer                    progress_data,
                                             GDestroyNotify              progress_destroy,
                                             AgentMcpCheckFunc           check,
                                             gpointer                    check_data,
                                             GCancellable               *cancellable,
                                             GAsyncReadyCallback         callback,
                                             gpointer                    user_data);
JsonNode    *_agent_mcp_rpc_request_finish  (GAsyncResult               *result,
                                             GError                    **error);
void         _agent_mcp_rpc_notify          (AgentMcpRpc                *self,
                                             const char                 *method,
                                             cJSON                      *params);
/* Answers the server's request @id (as _AgentMcpRpcCallbacks.request gave
 * it) with @result, or with @error (its code if it is an
 * AGENT_MCP_RPC_ERROR, else an internal error). Nothing is sent for a
 * request the server withdrew. */
void         _agent_mcp_rpc_respond         (AgentMcpRpc                *self,
                                             const char                 *id,
                                             JsonObject                 *result,
                                             const GError               *error);
void         _agent_mcp_rpc_hold_timeouts   (AgentMcpRpc                *self,
                                             gboolean                    hold);
/* Every later request carries what @revision asks for (NULL: nothing) */
void         _agent_mcp_rpc_set_revision    (AgentMcpRpc                *self,
                                             const AgentMcpRevision     *revision);
/* The client's capabilities a stateless request carries (taken) */
void         _agent_mcp_rpc_set_capabilities (AgentMcpRpc               *self,
                                              cJSON                     *capabilities);
/* The code of the last error answer in the range only stateless servers
 * use (0 if none), and the versions its UnsupportedProtocolVersionError
 * listed (NULL if none); forgotten once read */
gint         _agent_mcp_rpc_take_modern_error (AgentMcpRpc              *self,
                                               char                   ***supported);
/* Fails every pending request with @error and stops reporting. */
void         _agent_mcp_rpc_shutdown        (AgentMcpRpc                *self,
                                             const GError               *error);

/* The client (agent-mcp-client.c: the object, its properties and signals;
 * agent-mcp-connection.c: connecting, listing tools, calling them) */

struct _AgentMcpClient
{
  GObject              parent_instance;

  /* Configuration */
  char                *name;
  char                *command;
  char               **args;
  char               **env;           /* NAME=VALUE */
  char                *cwd;
  char                *url;
  char               **headers;       /* "Name: value" */
  char                *tool_prefix;
  JsonObject          *extra;         /* members of the configuration not ours */
  double               timeout;
  double               call_timeout;
  guint                max_tools;
  guint                max_result_size;
  guint                enabled : 1;
  guint                trusted : 1;
  guint                allow_read_only : 1;
  guint                allow_destructive : 1;

  /* Connection */
  AgentMcpClientState  state;
  GError              *error;
  char                *server_name;
  char                *server_version;
  char                *protocol_version;
  const AgentMcpRevision *revision;   /* the one agreed on, or being tried */
  char                *instructions;
  JsonNode            *capabilities;  /* the server's, from the handshake */
  GListStore          *tools;         /* of AgentMcpTool */
  AgentMcpRpc         *rpc;
  GPtrArray           *waiters;       /* of GTask: connect_async() callers */
  GPtrArray           *closing;       /* of AgentMcpTransport: being closed */
  GPtrArray           *close_waiters; /* of GTask: close_async() callers */
  GPtrArray           *listing;       /* the tools of the listing in progress */
  GPtrArray           *relisting;     /* of GTask: _agent_mcp_client_relist_tools_async() */
  GHashTable          *listed_names;  /* and their names */
  char                *cursor;        /* its next page */
  guint                n_pages;
  guint                generation;    /* a new connection: older callbacks are stale */
  guint                refreshing : 1;
  guint                refresh_again : 1;
  guint                handles_elicitation : 1;

  /* subscriptions/listen (agent-mcp-listen.c) */
  GCancellable        *listen_cancellable;
  GHashTable          *listen_uris;   /* resources subscribed to */

  /* OAuth of an HTTP server (agent-mcp-client-auth.c) */
  struct _AgentMcpAuth *auth;
  AgentMcpAuthorization authorization;
};

typedef enum
{
  AGENT_MCP_CLIENT_PROP_STATE = 1,
  AGENT_MCP_CLIENT_PROP_ERROR,
  AGENT_MCP_CLIENT_PROP_SERVER_NAME,
  AGENT_MCP_CLIENT_PROP_SERVER_VERSION,
  AGENT_MCP_CLIENT_PROP_PROTOCOL_VERSION,
  AGENT_MCP_CLIENT_PROP_INSTRUCTIONS,
  AGENT_MCP_CLIENT_PROP_AUTHORIZATION,
} AgentMcpClientNotify;

void     _agent_mcp_client_notify             (AgentMcpClient             *self,
                                               AgentMcpClientNotify        what);
void     _agent_mcp_client_set_state          (AgentMcpClient             *self,
                                               AgentMcpClientState         state,
                                               const GError               *error);
void     _agent_mcp_client_disconnect         (AgentMcpClient             *self,
                                               gboolean                    force);
void     _agent_mcp_client_stop               (AgentMcpClient             *self);
void     _agent_mcp_client_clear_tools        (AgentMcpClient             *self);
void     _agent_mcp_client_connected          (AgentMcpClient             *self);
/* Lists the tools again (after the listing in progress, if any); completes
 * once the tools are the server's latest, or the listing failed or the
 * connection ended (the caller finds out when it uses them) */
void     _agent_mcp_client_relist_tools_async (AgentMcpClient             *self,
                                               GAsyncReadyCallback         callback,
                                               gpointer                    user_data);
void     _agent_mcp_client_relist_tools_finish (AgentMcpClient            *self,
                                                GAsyncResult              *result);

/* An answer on its way to one connection: when the connection ended
 * meanwhile (AgentMcpClient.generation moved on), it is stale */
typedef struct
{
  AgentMcpClient *client;
  guint           generation;
  gboolean        remembered;  /* initialize to a server known to be older */
} AgentMcpOp;

AgentMcpOp *_agent_mcp_op_new      (AgentMcpClient *self);
void        _agent_mcp_op_free     (AgentMcpOp     *op);
gboolean    _agent_mcp_op_is_stale (AgentMcpOp     *op);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (AgentMcpOp, _agent_mcp_op_free)

void     _agent_mcp_client_fail               (AgentMcpClient             *self,
                                               const GError               *error);

/* agent-mcp-handshake.c: agreeing on a revision */
void     _agent_mcp_client_handshake          (AgentMcpClient             *self);
cJSON   *_agent_mcp_client_capabilities       (AgentMcpClient             *self);

/* agent-mcp-listen.c: changes through subscriptions/listen (2026-07-28) */
void     _agent_mcp_client_listen             (AgentMcpClient             *self);
void     _agent_mcp_client_stop_listening     (AgentMcpClient             *self);
void     _agent_mcp_client_listen_for_resource (AgentMcpClient            *self,
                                                const char                *uri,
                                                gboolean                   subscribe);
gboolean _agent_mcp_client_listen_notification (AgentMcpClient            *self,
                                                const char                *method,
                                                const AgentJson           *params);

/* agent-mcp-server-request.c: what the server asks of the client. Completes
 * with the result object to send back, or an error: AGENT_MCP_RPC_ERROR with
 * the JSON-RPC code, or G_IO_ERROR_CANCELLED when @cancellable was cancelled
 * (nothing is sent then). Independent of the transport and of the protocol
 * revision. */
void        _agent_mcp_client_handle_server_request_async  (AgentMcpClient       *self,
                                                            const char           *method,
                                                            JsonObject           *params,
                                                            GCancellable         *cancellable,
                                                            GAsyncReadyCallback   callback,
                                                            gpointer              user_data);
JsonObject *_agent_mcp_client_handle_server_request_finish (AgentMcpClient       *self,
                                                            GAsyncResult         *result,
                                                            GError              **error);
void        _agent_mcp_client_emit_elicitation             (AgentMcpClient       *self,
                                                            AgentMcpElicitation  *request);

/* agent-mcp-elicitation.c, agent-mcp-elicitation-schema.c */
AgentMcpElicitation *_agent_mcp_elicitation_new (const char          *server_name,
                                                 JsonObject          *params,
                                                 GTask               *task,
                                                 GError             **error);
gboolean _agent_mcp_elicitation_check_schema  (JsonObject                 *schema,
                                               GError                    **error);
gboolean _agent_mcp_elicitation_check_content (JsonObject                 *schema,
                                               JsonObject                 *content,
                                               GError                    **error);

/* agent-mcp-approval.c: which calls ask the user */
gboolean _agent_mcp_client_tool_needs_approval (AgentMcpClient          *self,
                                                AgentMcpTool            *tool);
void     _agent_mcp_client_update_approvals   (AgentMcpClient             *self);

/* agent-mcp-client-auth.c */
void     _agent_mcp_client_setup_auth         (AgentMcpClient             *self,
                                               AgentMcpTransport          *transport);
void     _agent_mcp_client_clear_auth         (AgentMcpClient             *self);
void     _agent_mcp_client_set_authorization  (AgentMcpClient             *self,
                                               AgentMcpAuthorization       authorization);

/* agent-mcp-limits.c: what a server may send */
GError  *_agent_mcp_check_tools_page          (const AgentJson            *result,
                                               gpointer                    client);
GError  *_agent_mcp_check_call_result         (const AgentJson            *result,
                                               gpointer                    client);

/* agent-mcp-mrtr.c: requests a server may answer with input_required */
void        _agent_mcp_client_rpc_async      (AgentMcpClient        *self,
                                              const char            *method,
                                              cJSON                 *params,
                                              double                 timeout,
                                              AgentMcpProgressFunc   progress,
                                              gpointer               progress_data,
                                              GDestroyNotify         progress_destroy,
                                              AgentMcpCheckFunc      check,
                                              gpointer               check_data,
                                              GCancellable          *cancellable,
                                              GAsyncReadyCallback    callback,
                                              gpointer               user_data);
JsonNode   *_agent_mcp_client_rpc_finish     (AgentMcpClient        *self,
                                              GAsyncResult          *result,
                                              GError               **error);
void        _agent_mcp_client_answer_input_async  (AgentMcpClient   *self,
                                                   const char       *method,
                                                   JsonObject       *params,
                                                   GCancellable     *cancellable,
                                                   GAsyncReadyCallback callback,
                                                   gpointer          user_data);
JsonObject *_agent_mcp_client_answer_input_finish (AgentMcpClient   *self,
                                                   GAsyncResult     *result,
                                                   GError          **error);

/* agent-mcp-request.c: requests beyond tools, and listings */

/* The most pages of a listing, and items in all */
#define AGENT_MCP_MAX_PAGES  100
#define AGENT_MCP_MAX_LISTED 10000

/* An item of a listing, or NULL to leave it out */
typedef GObject *(*AgentMcpMakeItemFunc) (JsonObject *definition);

void        _agent_mcp_client_request_async  (AgentMcpClient        *self,
                                              const char            *method,
                                              cJSON                 *params,
                                              GCancellable          *cancellable,
                                              GAsyncReadyCallback    callback,
                                              gpointer               user_data);
JsonNode   *_agent_mcp_client_request_finish (AgentMcpClient        *self,
                                              GAsyncResult          *result,
                                              GError               **error);
void        _agent_mcp_client_list_async     (AgentMcpClient        *self,
                                              const char            *method,
                                              const char            *member,
                                              GType                  type,
                                              AgentMcpMakeItemFunc   make_item,
                                              gpointer               source_tag,
                                              GCancellable          *cancellable,
                                              GAsyncReadyCallback    callback,
                                              gpointer               user_data);
GListModel *_agent_mcp_client_list_finish    (AgentMcpClient        *self,
                                              GAsyncResult          *result,
                                              gpointer               source_tag,
                                              GError               **error);

/* agent-mcp-resources.c */
AgentMcpResource *_agent_mcp_resource_new   (JsonObject                 *definition,
                                             gboolean                    is_template);
gboolean      _agent_mcp_client_resource_notification (AgentMcpClient  *self,
                                                       const char      *method,
                                                       const AgentJson *params);
void          _agent_mcp_client_emit_resource_updated (AgentMcpClient  *self,
                                                       const char      *uri);
void          _agent_mcp_client_emit_resources_changed (AgentMcpClient *self);
AgentContentPart *_agent_mcp_contents_to_part (AgentMcpClient           *self,
                                               const char               *requested,
                                               JsonObject               *contents,
                                               GError                  **error);

/* agent-mcp-prompts.c */
AgentMcpPrompt *_agent_mcp_prompt_new       (JsonObject                 *definition);
void          _agent_mcp_client_emit_prompts_changed (AgentMcpClient   *self);

/* Between the client and its tools */

AgentMcpTool *_agent_mcp_tool_new           (AgentMcpClient             *client,
                                             JsonObject                 *definition,
                                             const char                 *prefix);

gboolean      _agent_mcp_tool_same          (AgentMcpTool               *a,
                                             AgentMcpTool               *b);
AgentMcpToolChanges _agent_mcp_tool_diff   (AgentMcpTool               *a,
                                             AgentMcpTool               *b);
void          _agent_mcp_client_emit_tool_changed (AgentMcpClient       *self,
                                                   AgentMcpTool         *tool,
                                                   AgentMcpTool         *previous,
                                                   AgentMcpToolChanges   changes);
gboolean      _agent_mcp_tool_declares_destructive (AgentMcpTool        *self);
/* Its x-mcp-header annotations (taken; NULL or empty: none) */
void          _agent_mcp_tool_set_param_headers (AgentMcpTool           *self,
                                                 GPtrArray              *headers);
GPtrArray    *_agent_mcp_tool_get_param_headers (AgentMcpTool           *self);
GError       *_agent_mcp_tool_check_structured (AgentMcpTool            *self,
                                                JsonNode                *result);
void          _agent_mcp_client_invoke      (AgentMcpClient             *self,
                                             AgentMcpTool               *tool,
                                             AgentToolInvocation        *invocation);
GPtrArray    *_agent_mcp_result_dup_images  (JsonNode                   *result);
gboolean      _agent_mcp_is_base64          (const char                 *data);
/* The string member @member of @object (may be NULL), or NULL */
const char   *_agent_mcp_string        (JsonObject                 *object,
                                             const char                 *member);
char         *_agent_mcp_result_to_text     (JsonNode                   *result,
                                             gboolean                   *is_error);

G_END_DECLS
