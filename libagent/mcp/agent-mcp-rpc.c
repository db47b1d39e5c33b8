/* agent-mcp-rpc.c — JSON-RPC 2.0 over an MCP transport
 *
 * Requests get increasing integer ids and wait in a table for their
 * answer, with an optional time limit and a GCancellable: a request
 * cancelled or timed out is answered at once on our side, and the server
 * is told with notifications/cancelled (never for initialize, which the
 * specification forbids cancelling). Progress notifications find their
 * request by its progress token, which is its id.
 *
 * The server's own requests get an answer: ping an empty result at once,
 * the others whatever the client's request callback answers, then or
 * later (elicitation waits for the user): they wait in a table of their
 * own, with a GCancellable that notifications/cancelled from the server,
 * the end of our request they are part of, or the end of the connection
 * cancels. While one waits, the time limits
 * of our requests are held: the tool call that asked waits for the user
 * too. A request may come with a check of its result, made on the
 * parsed text before it becomes a JsonNode: what a hostile server sends in
 * bulk (a million content blocks, 100,000 tools) is refused before it
 * takes memory. A request that reports progress starts its time limit
 * again with each report. Lines that are not JSON-RPC are skipped and remembered:
 * a server that prints its banner on stdout still works, and one that
 * prints only garbage times out with an error that shows it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "mcp/agent-mcp-private.h"

struct _AgentMcpRpc
{
  AgentMcpTransport    *transport;
  char                 *server_name;
  AgentMcpRpcCallbacks  callbacks;
  gpointer              user_data;
  AgentJsonParser      *parser;
  GHashTable           *pending;        /* id → Pending */
  GHashTable           *incoming;       /* id (its JSON text) → Incoming */
  gint64                next_id;
  guint                 n_garbage;
  char                 *first_garbage;
  guint                 dispatching;    /* depth of message_cb() */
  guint                 shut_down : 1;
  guint                 free_later : 1; /* freed while dispatching */
  guint                 held : 1;       /* no time limits: the user authorizes */
  const AgentMcpRevision *revision;     /* what requests carry */
  cJSON                *capabilities;   /* the client's, for _meta */
  gint                  modern_code;    /* see _agent_mcp_rpc_take_modern_error() */
  char                **supported;
};

typedef struct
{
  AgentMcpRpc          *rpc;
  gint64                id;
  char                 *method;
  GTask                *task;
  GSource              *timeout_source;
  GSource              *cancel_source;
  double                timeout;
  AgentMcpProgressFunc  progress;
  gpointer              progress_data;
  GDestroyNotify        progress_destroy;
  AgentMcpCheckFunc     check;
  gpointer              check_data;
} Pending;

/* A request of the server, waiting for its answer */
typedef struct
{
  GCancellable *cancellable;
  gint64        related;      /* our request it is part of, or -1 */
} Incoming;

static void
incoming_free (gpointer data)
{
  Incoming *incoming = data;

  g_object_unref (incoming->cancellable);
  g_free (incoming);
}

static void end_related (AgentMcpRpc *self,
                         gint64       id);

static void
destroy_source (GSource **source)
{
  if (*source != NULL)
    {
      g_source_destroy (*source);
      g_clear_pointer (source, g_source_unref);
    }
}

static void
pending_free (gpointer data)
{
  Pending *pending = data;

  destroy_source (&pending->timeout_source);
  destroy_source (&pending->cancel_source);
  if (pending->progress_destroy != NULL)
    pending->progress_destroy (pending->progress_data);
  g_clear_object (&pending->task);
  g_free (pending->method);
  g_free (pending);
}

/* Takes the request out of the table; the caller answers its task. */
static GTask *
take_pending (AgentMcpRpc *self,
              gint64       id)
{
  Pending *pending = g_hash_table_lookup (self->pending, &id);
  GTask *task;

  if (pending == NULL)
    return NULL;

  task = g_steal_pointer (&pending->task);
  g_hash_table_remove (self->pending, &id);
  end_related (self, id);
  return task;
}

static void
send_json (AgentMcpRpc *self,
           cJSON       *message,
           gint64       id)
{
  char *text = cJSON_PrintUnformatted (message);
  g_autoptr(GBytes) bytes = NULL;

  if (text == NULL)
    return;
  bytes = g_bytes_new_with_free_func (text, strlen (text), cJSON_free, text);
  _agent_mcp_transport_send (self->transport, bytes, id);
}

void
_agent_mcp_rpc_notify (AgentMcpRpc *self,
                       const char  *method,
                       cJSON       *params)
{
  g_autoptr(cJSON) message = cJSON_CreateObject ();

  cJSON_AddStringToObject (message, "jsonrpc", "2.0");
  cJSON_AddStringToObject (message, "method", method);
  if (params != NULL)
    cJSON_AddItemToObject (message, "params", params);

  if (!self->shut_down)
    send_json (self, message, -1);
}

static void
send_cancelled (AgentMcpRpc *self,
                gint64       id,
                const char  *reason)
{
  cJSON *params = cJSON_CreateObject ();

  cJSON_AddNumberToObject (params, "requestId", (double) id);
  cJSON_AddStringToObject (params, "reason", reason);
  _agent_mcp_rpc_notify (self, "notifications/cancelled", params);
  _agent_mcp_transport_cancel_request (self->transport, id);
}

/* Time limits and cancellation */

static char *
garbage_note (AgentMcpRpc *self)
{
  if (self->n_garbage == 0)
    return g_strdup ("");

  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       " (it wrote %u line that is not JSON-RPC: “%s”)",
                                       " (it wrote %u lines that are not JSON-RPC, the first: “%s”)",
                                       self->n_garbage),
                          self->n_garbage, self->first_garbage);
}

static gboolean
timeout_cb (gpointer data)
{
  Pending *pending = data;
  AgentMcpRpc *self = pending->rpc;
  gint64 id = pending->id;
  g_autoptr(GTask) task = NULL;
  g_autofree char *note = garbage_note (self);
  g_autofree char *method = g_strdup (pending->method);
  double timeout = pending->timeout;

  g_clear_pointer (&pending->timeout_source, g_source_unref);
  task = take_pending (self, id);

  if (!g_str_equal (method, "initialize"))
    send_cancelled (self, id, "timed out");

  g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_TIMEOUT,
                           _("The MCP server “%s” did not answer %s within %g s%s"),
                           self->server_name, method, timeout, note);
  return G_SOURCE_REMOVE;
}

static gboolean
cancelled_cb (GCancellable *cancellable,
              gpointer      data)
{
  Pending *pending = data;
  AgentMcpRpc *self = pending->rpc;
  gint64 id = pending->id;
  g_autoptr(GTask) task = NULL;
  gboolean is_initialize = g_str_equal (pending->method, "initialize");

  g_clear_pointer (&pending->cancel_source, g_source_unref);
  task = take_pending (self, id);

  if (!is_initialize)
    send_cancelled (self, id, "cancelled by the user");

  g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                           _("The request to the MCP server “%s” was cancelled"),
                           self->server_name);
  return G_SOURCE_REMOVE;
}

static gboolean
timeouts_held (AgentMcpRpc *self)
{
  return self->held || g_hash_table_size (self->incoming) > 0;
}

static void
start_timeout (Pending *pending)
{
  destroy_source (&pending->timeout_source);
  if (timeouts_held (pending->rpc))
    return;
  pending->timeout_source = g_timeout_source_new ((guint) MIN (pending->timeout * 1000,
                                                               G_MAXUINT));
  g_source_set_callback (pending->timeout_source, timeout_cb, pending, NULL);
  g_source_set_static_name (pending->timeout_source, "[agent-mcp-timeout]");
  g_source_attach (pending->timeout_source, g_main_context_get_thread_default ());
}

void
_agent_mcp_rpc_request_async (AgentMcpRpc          *self,
                              const char           *method,
                              cJSON                *params,
                              double                timeout,
                              AgentMcpProgressFunc  progress,
                              gpointer              progress_data,
                              GDestroyNotify        progress_destroy,
                              AgentMcpCheckFunc     check,
                              gpointer              check_data,
                              GCancellable         *cancellable,
                              GAsyncReadyCallback   callback,
                              gpointer              user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  g_autoptr(cJSON) message = NULL;
  Pending *pending;
  gint64 *key;

  g_task_set_source_tag (task, _agent_mcp_rpc_request_async);
  /* Cancellation is answered by cancelled_cb(), once. */
  g_task_set_check_cancellable (task, FALSE);

  if (self->shut_down)
    {
      if (progress_destroy != NULL)
        progress_destroy (progress_data);
      g_clear_pointer (&params, cJSON_Delete);
      g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_NETWORK,
                               _("The MCP server “%s” is not connected"), self->server_name);
      return;
    }

  if (g_cancellable_is_cancelled (cancellable))
    {
      if (progress_destroy != NULL)
        progress_destroy (progress_data);
      g_clear_pointer (&params, cJSON_Delete);
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                               _("The request to the MCP server “%s” was cancelled"),
                               self->server_name);
      return;
    }

  pending = g_new0 (Pending, 1);
  pending->rpc = self;
  pending->id = self->next_id++;
  pending->method = g_strdup (method);
  pending->task = g_steal_pointer (&task);
  pending->timeout = timeout;
  pending->progress = progress;
  pending->progress_data = progress_data;
  pending->progress_destroy = progress_destroy;
  pending->check = check;
  pending->check_data = check_data;

  key = g_new (gint64, 1);
  *key = pending->id;
  g_hash_table_insert (self->pending, key, pending);

  if (timeout > 0)
    start_timeout (pending);

  if (cancellable != NULL)
    {
      /* A source, not a handler: cancellation may come from any thread, and
       * is handled here, on our main context. */
      pending->cancel_source = g_cancellable_source_new (cancellable);
      g_source_set_callback (pending->cancel_source, G_SOURCE_FUNC (cancelled_cb), pending, NULL);
      g_source_set_static_name (pending->cancel_source, "[agent-mcp-cancel]");
      g_source_attach (pending->cancel_source, g_main_context_get_thread_default ());
    }

  params = _agent_mcp_revision_add_meta (self->revision, params, self->capabilities);
  if (progress != NULL)
    {
      cJSON *meta;

      if (params == NULL)
        params = cJSON_CreateObject ();
      if ((meta = cJSON_GetObjectItemCaseSensitive (params, "_meta")) == NULL)
        meta = cJSON_AddObjectToObject (params, "_meta");
      cJSON_AddNumberToObject (meta, "progressToken", (double) pending->id);
    }

  message = cJSON_CreateObject ();
  cJSON_AddStringToObject (message, "jsonrpc", "2.0");
  cJSON_AddNumberToObject (message, "id", (double) pending->id);
  cJSON_AddStringToObject (message, "method", method);
  if (params != NULL)
    cJSON_AddItemToObject (message, "params", params);

  send_json (self, message, pending->id);
}

JsonNode *
_agent_mcp_rpc_request_finish (GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == _agent_mcp_rpc_request_async,
                        NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* What the server sends */

static gboolean
read_id (const AgentJson *value,
         gint64          *id)
{
  const char *text;

  if (agent_json_int (value, id))
    return TRUE;

  /* Some servers echo ids as strings. */
  if ((text = agent_json_string (value, NULL)) != NULL)
    return g_ascii_string_to_signed (text, 10, 0, G_MAXINT64, id, NULL);

  return FALSE;
}

static void
send_answer (AgentMcpRpc  *self,
             const char   *id_text,
             JsonObject   *result,
             const GError *error)
{
  g_autoptr(cJSON) message = cJSON_CreateObject ();

  cJSON_AddStringToObject (message, "jsonrpc", "2.0");
  cJSON_AddItemToObject (message, "id", cJSON_Parse (id_text));
  if (error == NULL)
    {
      g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), result);
      g_autofree char *text = json_to_string (node, FALSE);

      cJSON_AddItemToObject (message, "result", cJSON_Parse (text));
    }
  else
    {
      cJSON *object = cJSON_AddObjectToObject (message, "error");

      cJSON_AddNumberToObject (object, "code",
                               error->domain == AGENT_MCP_RPC_ERROR ?
                               error->code : AGENT_MCP_RPC_INTERNAL_ERROR);
      cJSON_AddStringToObject (object, "message", error->message);
    }

  send_json (self, message, -1);
}

static void
answer_request (AgentMcpRpc     *self,
                const AgentJson *message,
                const char      *method)
{
  AgentJson id = agent_json_member (message, "id");
  AgentJson params = agent_json_member (message, "params");
  g_autofree char *id_text = agent_json_serialize (&id);
  g_autoptr(JsonObject) params_object = NULL;
  g_autoptr(GCancellable) cancellable = NULL;
  g_autoptr(GError) error = NULL;
  Incoming *incoming;

  if (g_str_equal (method, "ping") || self->callbacks.request == NULL)
    {
      g_autoptr(JsonObject) empty = json_object_new ();

      if (!g_str_equal (method, "ping"))
        error = g_error_new_literal (AGENT_MCP_RPC_ERROR, AGENT_MCP_RPC_METHOD_NOT_FOUND,
                                     "Method not found");
      send_answer (self, id_text, empty, error);
      return;
    }

  if (g_hash_table_contains (self->incoming, id_text))
    {
      error = g_error_new_literal (AGENT_MCP_RPC_ERROR, AGENT_MCP_RPC_INVALID_REQUEST,
                                   "A request with this id is already in progress");
      send_answer (self, id_text, NULL, error);
      return;
    }

  if (agent_json_is (&params, AGENT_JSON_OBJECT))
    {
      g_autoptr(JsonNode) node = agent_json_to_node (&params);

      params_object = json_object_ref (json_node_get_object (node));
    }
  else
    params_object = json_object_new ();

  cancellable = g_cancellable_new ();
  incoming = g_new0 (Incoming, 1);
  incoming->cancellable = g_object_ref (cancellable);
  incoming->related = -1;
  /* The request our one pending request waits on (a tool call that asks
   * the user): it ends with it. Over stdio nothing else says which, and
   * with several pending nothing does. */
  if (g_hash_table_size (self->pending) == 1)
    {
      GHashTableIter iter;
      gint64 *key;

      g_hash_table_iter_init (&iter, self->pending);
      if (g_hash_table_iter_next (&iter, (gpointer *) &key, NULL))
        incoming->related = *key;
    }
  g_hash_table_insert (self->incoming, g_strdup (id_text), incoming);
  if (g_hash_table_size (self->incoming) == 1)
    _agent_mcp_rpc_hold_timeouts (self, self->held);

  self->callbacks.request (self->user_data, id_text, method, params_object, cancellable);
}

void
_agent_mcp_rpc_respond (AgentMcpRpc  *self,
                        const char   *id,
                        JsonObject   *result,
                        const GError *error)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (id != NULL);
  g_return_if_fail (result != NULL || error != NULL);

  /* Withdrawn by the server, or the connection ended */
  if (!g_hash_table_remove (self->incoming, id))
    return;

  if (!self->shut_down)
    send_answer (self, id, result, error);

  /* The last request of the server answered: our requests' time limits
   * start again, whole. */
  if (g_hash_table_size (self->incoming) == 0)
    _agent_mcp_rpc_hold_timeouts (self, self->held);
}

/* Takes the server's request @id out of the table, and cancels it */
static gboolean
withdraw (AgentMcpRpc *self,
          const char  *id)
{
  g_autofree char *key = NULL;
  Incoming *incoming = NULL;
  g_autoptr(GCancellable) cancellable = NULL;

  if (!g_hash_table_steal_extended (self->incoming, id, (gpointer *) &key,
                                    (gpointer *) &incoming))
    return FALSE;

  cancellable = g_steal_pointer (&incoming->cancellable);
  g_free (incoming);
  g_cancellable_cancel (cancellable);
  if (g_hash_table_size (self->incoming) == 0)
    _agent_mcp_rpc_hold_timeouts (self, self->held);
  return TRUE;
}

/* notifications/cancelled for one of the server's own requests */
static gboolean
withdraw_request (AgentMcpRpc     *self,
                  const AgentJson *params)
{
  AgentJson request_id = agent_json_member (params, "requestId");
  g_autofree char *id_text = NULL;

  if (!agent_json_exists (&request_id))
    return FALSE;

  id_text = agent_json_serialize (&request_id);
  return withdraw (self, id_text);
}

/* Our request @id ended (answered, failed, cancelled, timed out): the
 * server's requests that were part of it end too. The server, which may
 * still wait for them, is told. */
static void
end_related (AgentMcpRpc *self,
             gint64       id)
{
  g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, self->incoming);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (((Incoming *) value)->related == id)
      g_ptr_array_add (ids, g_strdup (key));

  for (guint i = 0; i < ids->len; i++)
    {
      const char *incoming_id = g_ptr_array_index (ids, i);
      g_autoptr(GError) error = g_error_new_literal (AGENT_MCP_RPC_ERROR,
                                                     AGENT_MCP_RPC_REQUEST_CANCELLED,
                                                     "The request it was part of ended");

      if (!self->shut_down)
        send_answer (self, incoming_id, NULL, error);
      withdraw (self, incoming_id);
    }
}

static void
handle_progress (AgentMcpRpc     *self,
                 const AgentJson *params)
{
  AgentJson token = agent_json_member (params, "progressToken");
  AgentJson value;
  Pending *pending;
  double progress = 0;
  double total = -1;
  gint64 id;

  if (!read_id (&token, &id) || !(pending = g_hash_table_lookup (self->pending, &id)) ||
      pending->progress == NULL)
    return;

  /* Progress is not silence: the time limit starts again */
  if (pending->timeout_source != NULL)
    start_timeout (pending);

  value = agent_json_member (params, "progress");
  agent_json_double (&value, &progress);
  value = agent_json_member (params, "total");
  if (!agent_json_double (&value, &total) || total <= 0)
    total = -1;

  pending->progress (progress, total, agent_json_member_string (params, "message", NULL),
                     pending->progress_data);
}

/* An error only a server of a stateless revision sends: what it speaks */
static void
remember_modern_error (AgentMcpRpc     *self,
                       const AgentJson *error,
                       gint64           code)
{
  AgentJson data = agent_json_member (error, "data");
  AgentJson supported = agent_json_member (&data, "supported");
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  AgentJsonIter iter;
  AgentJson element;
  guint n = 0;

  self->modern_code = (gint) code;
  g_clear_pointer (&self->supported, g_strfreev);
  if (code != AGENT_MCP_ERROR_UNSUPPORTED_VERSION || !agent_json_is (&supported, AGENT_JSON_ARRAY))
    return;

  agent_json_iter_init (&iter, &supported);
  while (agent_json_iter_next (&iter, NULL, NULL, &element) && n++ < 64)
    {
      const char *version = agent_json_string (&element, NULL);

      if (version != NULL && strlen (version) < 64)
        g_strv_builder_add (builder, version);
    }
  self->supported = g_strv_builder_end (builder);
}

void
_agent_mcp_rpc_set_revision (AgentMcpRpc            *self,
                             const AgentMcpRevision *revision)
{
  self->revision = revision;
}

void
_agent_mcp_rpc_set_capabilities (AgentMcpRpc *self,
                                 cJSON       *capabilities)
{
  g_clear_pointer (&self->capabilities, cJSON_Delete);
  self->capabilities = capabilities;
}

gint
_agent_mcp_rpc_take_modern_error (AgentMcpRpc   *self,
                                  char        ***supported)
{
  gint code = self->modern_code;

  self->modern_code = 0;
  if (supported != NULL)
    *supported = g_steal_pointer (&self->supported);
  else
    g_clear_pointer (&self->supported, g_strfreev);

  return code;
}

static gboolean
accepts_input_required (const char *method)
{
  return g_strcmp0 (method, "tools/call") == 0 || g_strcmp0 (method, "prompts/get") == 0 ||
         g_strcmp0 (method, "resources/read") == 0;
}

static void
handle_answer (AgentMcpRpc     *self,
               const AgentJson *message,
               gint64           id)
{
  AgentJson error = agent_json_member (message, "error");
  AgentJson result = agent_json_member (message, "result");
  Pending *pending = g_hash_table_lookup (self->pending, &id);
  g_autofree char *method = pending ? g_strdup (pending->method) : NULL;
  AgentMcpCheckFunc check = pending ? pending->check : NULL;
  gpointer check_data = pending ? pending->check_data : NULL;
  g_autoptr(GTask) task = take_pending (self, id);
  GError *refused;

  if (task == NULL)
    return;  /* cancelled or timed out meanwhile, or not ours */

  if (agent_json_is (&result, AGENT_JSON_OBJECT) && check != NULL &&
      (refused = check (&result, check_data)) != NULL)
    {
      g_task_return_error (task, refused);
      return;
    }

  if (agent_json_exists (&error))
    {
      const char *text = agent_json_member_string (&error, "message", NULL);
      AgentJson code_value = agent_json_member (&error, "code");
      gint64 code = 0;

      if (agent_json_int (&code_value, &code) &&
          code >= AGENT_MCP_ERROR_MODERN_FIRST && code <= AGENT_MCP_ERROR_MODERN_LAST)
        remember_modern_error (self, &error, code);

      /* A call's headers that do not match: the call lists the tools again
       * and retries (agent-mcp-call.c) */
      if (code == AGENT_MCP_ERROR_HEADER_MISMATCH && g_strcmp0 (method, "tools/call") == 0)
        g_task_return_new_error (task, AGENT_MCP_RPC_ERROR, AGENT_MCP_ERROR_HEADER_MISMATCH, "%s",
                                 text ? text : _("The MCP server reported an error"));
      else
        g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_FAILED, "%s",
                                 text ? text : _("The MCP server reported an error"));
    }
  else if (agent_json_is (&result, AGENT_JSON_OBJECT) &&
           g_strcmp0 (agent_json_member_string (&result, "resultType", NULL),
                      "input_required") == 0 && !accepts_input_required (method))
    /* 2026-07-28: only these may ask for input (agent-mcp-mrtr.c) */
    g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                             _("The MCP server “%s” asked for input to answer %s, which "
                               "may not ask for any"),
                             self->server_name, method);
  else if (agent_json_is (&result, AGENT_JSON_OBJECT))
    g_task_return_pointer (task, agent_json_to_node (&result), (GDestroyNotify) json_node_unref);
  else
    g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                             _("The MCP server “%s” sent an answer without a result"),
                             self->server_name);
}

static void
dispatch_one (AgentMcpRpc     *self,
              const AgentJson *message)
{
  const char *method = agent_json_member_string (message, "method", NULL);
  AgentJson id_value = agent_json_member (message, "id");
  AgentJson params;
  gint64 id;

  if (method != NULL && agent_json_exists (&id_value))
    {
      answer_request (self, message, method);
      return;
    }

  if (method != NULL)
    {
      params = agent_json_member (message, "params");

      if (g_str_equal (method, "notifications/progress"))
        handle_progress (self, &params);
      else if (g_str_equal (method, "notifications/cancelled") &&
               agent_json_is (&params, AGENT_JSON_OBJECT) && withdraw_request (self, &params))
        ;
      else if (self->callbacks.notification != NULL)
        self->callbacks.notification (self->user_data, method,
                                      agent_json_exists (&params) ? &params : NULL);
      return;
    }

  if (read_id (&id_value, &id))
    handle_answer (self, message, id);
}

static void
remember_garbage (AgentMcpRpc *self,
                  const char  *text,
                  gsize        len)
{
  self->n_garbage++;
  if (self->first_garbage == NULL)
    {
      self->first_garbage = _agent_mcp_transport_excerpt (self->transport, text, len, 80);
    }
}

static void dispatch (AgentMcpRpc *self,
                      const char  *text,
                      gsize        len);

static void rpc_free (AgentMcpRpc *self);

/* What comes from the transport may end the connection (an unsupported
 * protocol version, a server gone): the client then frees this while it
 * is still at work here, and the freeing waits until it is done. */
static void
enter (AgentMcpRpc *self)
{
  self->dispatching++;
}

static void
leave (AgentMcpRpc *self)
{
  self->dispatching--;
  if (self->free_later && self->dispatching == 0)
    rpc_free (self);
}

static void
message_cb (gpointer    user_data,
            const char *text,
            gsize       len)
{
  AgentMcpRpc *self = user_data;

  enter (self);
  dispatch (self, text, len);
  leave (self);
}

/* A message nested too deeply to be read: if it answers a request (its id
 * is found without reading the rest), the request fails saying so, at
 * once, rather than "did not answer" when its time is up */
static gboolean
fail_too_deep (AgentMcpRpc  *self,
               const char   *text,
               gsize         len,
               const GError *parse_error)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *method = NULL;
  Pending *pending;
  gint64 id;

  if (!_agent_json_error_is_too_deep (parse_error) ||
      !_agent_json_find_top_level_int (text, len, "id", &id) ||
      (pending = g_hash_table_lookup (self->pending, &id)) == NULL)
    return FALSE;

  method = g_strdup (pending->method);
  task = take_pending (self, id);
  g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                           _("The MCP server “%s” answered %s with a message that cannot be "
                             "read: %s"),
                           self->server_name, method, parse_error->message);
  return TRUE;
}

static void
dispatch (AgentMcpRpc *self,
          const char  *text,
          gsize        len)
{
  g_autoptr(GError) parse_error = NULL;
  AgentJson root;

  if (self->shut_down)
    return;

  if (!agent_json_parser_parse (self->parser, text, len, &root, &parse_error) ||
      !(agent_json_is (&root, AGENT_JSON_OBJECT) || agent_json_is (&root, AGENT_JSON_ARRAY)))
    {
      if (!fail_too_deep (self, text, len, parse_error))
        remember_garbage (self, text, len);
      return;
    }

  /* The values are views into the parser's document: handlers copy what
   * they keep, and nothing they call parses again before they return. */
  if (agent_json_is (&root, AGENT_JSON_ARRAY))
    {
      g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
      AgentJsonIter iter;
      AgentJson element;

      /* A batch: each message is parsed again on its own. */
      agent_json_iter_init (&iter, &root);
      while (agent_json_iter_next (&iter, NULL, NULL, &element))
        g_ptr_array_add (texts, agent_json_serialize (&element));

      for (guint i = 0; i < texts->len && !self->shut_down; i++)
        {
          const char *element_text = g_ptr_array_index (texts, i);

          if (agent_json_parser_parse (self->parser, element_text, strlen (element_text),
                                       &root, NULL) &&
              agent_json_is (&root, AGENT_JSON_OBJECT))
            dispatch_one (self, &root);
        }
      return;
    }

  dispatch_one (self, &root);
}

static void
closed_cb (gpointer      user_data,
           const GError *error)
{
  AgentMcpRpc *self = user_data;

  enter (self);
  _agent_mcp_rpc_shutdown (self, error);
  if (self->callbacks.closed != NULL)
    self->callbacks.closed (self->user_data, error);
  leave (self);
}

static void
request_failed_cb (gpointer      user_data,
                   gint64        id,
                   const GError *error)
{
  AgentMcpRpc *self = user_data;
  g_autoptr(GTask) task = NULL;

  enter (self);
  task = take_pending (self, id);
  if (task != NULL)
    g_task_return_error (task, g_error_copy (error));
  leave (self);
}

/* Life */

AgentMcpRpc *
_agent_mcp_rpc_new (AgentMcpTransport          *transport,
                    const char                 *server_name,
                    const AgentMcpRpcCallbacks *callbacks,
                    gpointer                    user_data)
{
  static const AgentMcpTransportCallbacks transport_callbacks = {
    .message = message_cb,
    .closed = closed_cb,
    .request_failed = request_failed_cb,
  };
  AgentMcpRpc *self = g_new0 (AgentMcpRpc, 1);

  self->transport = g_object_ref (transport);
  self->server_name = g_strdup (server_name);
  self->callbacks = *callbacks;
  self->user_data = user_data;
  self->parser = agent_json_parser_new ();
  self->pending = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, pending_free);
  self->incoming = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, incoming_free);
  self->next_id = 1;

  _agent_mcp_transport_set_callbacks (transport, &transport_callbacks, self);
  return self;
}

AgentMcpTransport *
_agent_mcp_rpc_get_transport (AgentMcpRpc *self)
{
  return self->transport;
}

void
_agent_mcp_rpc_shutdown (AgentMcpRpc  *self,
                         const GError *error)
{
  GHashTableIter iter;
  gpointer value;
  g_autoptr(GPtrArray) tasks = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) cancellables = g_ptr_array_new_with_free_func (g_object_unref);

  self->shut_down = TRUE;

  g_hash_table_iter_init (&iter, self->pending);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      Pending *pending = value;

      g_ptr_array_add (tasks, g_steal_pointer (&pending->task));
      g_hash_table_iter_remove (&iter);
    }

  /* The server's requests will not be answered: they are withdrawn. */
  g_hash_table_iter_init (&iter, self->incoming);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      g_ptr_array_add (cancellables, g_object_ref (((Incoming *) value)->cancellable));
      g_hash_table_iter_remove (&iter);
    }

  /* Answered once the tables are consistent: a callback may start anew. */
  for (guint i = 0; i < tasks->len; i++)
    g_task_return_error (g_ptr_array_index (tasks, i), g_error_copy (error));
  for (guint i = 0; i < cancellables->len; i++)
    g_cancellable_cancel (g_ptr_array_index (cancellables, i));
}

static void
rpc_free (AgentMcpRpc *self)
{
  g_clear_object (&self->transport);
  g_clear_pointer (&self->pending, g_hash_table_unref);
  g_clear_pointer (&self->incoming, g_hash_table_unref);
  g_clear_pointer (&self->parser, agent_json_parser_free);
  g_free (self->server_name);
  g_free (self->first_garbage);
  g_strfreev (self->supported);
  g_clear_pointer (&self->capabilities, cJSON_Delete);
  g_free (self);
}

void
_agent_mcp_rpc_free (AgentMcpRpc *self)
{
  static const AgentMcpTransportCallbacks none = { NULL, };

  if (self == NULL)
    return;

  if (!self->shut_down)
    {
      g_autoptr(GError) error = g_error_new (AGENT_ERROR, AGENT_ERROR_NETWORK,
                                             _("The MCP server “%s” was disconnected"),
                                             self->server_name);

      _agent_mcp_rpc_shutdown (self, error);
    }

  memset (&self->callbacks, 0, sizeof self->callbacks);
  _agent_mcp_transport_set_callbacks (self->transport, &none, NULL);

  if (self->dispatching > 0)
    self->free_later = TRUE;
  else
    rpc_free (self);
}

/* While the user authorizes in a browser, requests wait without a time
 * limit; released, each gets its whole limit again. */
void
_agent_mcp_rpc_hold_timeouts (AgentMcpRpc *self,
                              gboolean     hold)
{
  GHashTableIter iter;
  Pending *pending;

  self->held = !!hold;
  g_hash_table_iter_init (&iter, self->pending);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &pending))
    if (pending->timeout > 0)
      start_timeout (pending);
}
