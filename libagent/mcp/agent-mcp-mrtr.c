/* agent-mcp-mrtr.c — requests a server may answer by asking for input
 *
 * Under 2026-07-28 a server does not send requests of its own: it answers
 * tools/call, prompts/get or resources/read with a result of type
 * input_required, whose inputRequests (elicitation/create, …) the client
 * answers by sending the same request again, with a new id, the answers in
 * inputResponses and the server's requestState as it came
 * (basic/patterns/mrtr.mdx). Here the rounds are one request for the
 * caller: its time limit starts again with each round (the time the user
 * takes to answer is not counted), its progress reports go on, and its
 * cancellable ends it at any round. A round goes to the client's current
 * connection: the server keeps no state between them.
 *
 * Each input request is answered as the older revisions' server requests
 * are (_agent_mcp_client_handle_server_request_async(): elicitation/create
 * becomes the application's ::elicitation, the same under both
 * revisions); a kind this client cannot answer (sampling, roots, or
 * elicitation when the client does not handle it) fails the request,
 * naming it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "mcp/agent-mcp-private.h"
#include "agent-trace-private.h"

/* A server that asks again and again */
#define MAX_ROUNDS 8

typedef struct
{
  char                 *method;
  cJSON                *params;        /* as first sent, without _meta */
  double                timeout;
  AgentMcpProgressFunc  progress;
  gpointer              progress_data;
  GDestroyNotify        progress_destroy;
  AgentMcpCheckFunc     check;
  gpointer              check_data;
  guint                 round;
  /* The round's input requests, answered one after the other */
  JsonObject           *requests;
  GList                *keys;
  GList                *next_key;
  cJSON                *responses;
  char                 *state;
  gint64                trace_begin;   /* Sysprof: the round's, 0: not traced */
} Rounds;

static void
rounds_free (Rounds *rounds)
{
  if (rounds->progress_destroy != NULL)
    rounds->progress_destroy (rounds->progress_data);
  g_free (rounds->method);
  g_clear_pointer (&rounds->params, cJSON_Delete);
  g_clear_pointer (&rounds->requests, json_object_unref);
  g_list_free (rounds->keys);
  g_clear_pointer (&rounds->responses, cJSON_Delete);
  g_free (rounds->state);
  g_free (rounds);
}

static void send_round (GTask *task);

/* Answers one input request as a server request of the older revisions
 * is answered (agent-mcp-server-request.c): elicitation/create through
 * the application's ::elicitation; what this client cannot answer fails
 * the request, naming it */
static void
input_answered_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AgentMcpClient *self = AGENT_MCP_CLIENT (object);
  const char *method = g_task_get_task_data (task);
  GError *error = NULL;
  JsonObject *answer;

  answer = _agent_mcp_client_handle_server_request_finish (self, result, &error);
  if (answer != NULL)
    g_task_return_pointer (task, answer, (GDestroyNotify) json_object_unref);
  else if (error->domain != AGENT_MCP_RPC_ERROR)
    g_task_return_error (task, error);
  else
    {
      /* Errors meant for the server: no channel for them in a retry */
      g_task_return_new_error (task, AGENT_ERROR,
                               error->code == AGENT_MCP_RPC_METHOD_NOT_FOUND ?
                               AGENT_ERROR_UNSUPPORTED : AGENT_ERROR_PROTOCOL,
                               _("The MCP server “%s” asks for input (%s), which libagent "
                                 "cannot give: %s"), self->name, method, error->message);
      g_error_free (error);
    }
}

void
_agent_mcp_client_answer_input_async (AgentMcpClient      *self,
                                      const char          *method,
                                      JsonObject          *params,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr(JsonObject) empty = NULL;

  g_task_set_source_tag (task, _agent_mcp_client_answer_input_async);
  g_task_set_task_data (task, g_strdup (method), g_free);
  if (params == NULL)
    params = empty = json_object_new ();

  /* ping is no input a server may ask for */
  if (g_str_equal (method, "ping"))
    method = "";
  _agent_mcp_client_handle_server_request_async (self, method, params, cancellable,
                                                 input_answered_cb, g_steal_pointer (&task));
}

JsonObject *
_agent_mcp_client_answer_input_finish (AgentMcpClient  *self,
                                       GAsyncResult    *result,
                                       GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
finish_round (GTask *task)
{
  Rounds *rounds = g_task_get_task_data (task);
  cJSON *params = cJSON_Duplicate (rounds->params, TRUE);

  cJSON_AddItemToObject (params, "inputResponses", g_steal_pointer (&rounds->responses));
  if (rounds->state != NULL)
    cJSON_AddStringToObject (params, "requestState", rounds->state);

  g_clear_pointer (&rounds->params, cJSON_Delete);
  rounds->params = params;
  send_round (task);
}

static void answer_next (GTask *task);

static void
answered_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Rounds *rounds = g_task_get_task_data (task);
  g_autoptr(JsonObject) answer = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *text = NULL;
  GError *error = NULL;
  const char *key = rounds->next_key->data;

  answer = _agent_mcp_client_answer_input_finish (AGENT_MCP_CLIENT (object), result, &error);
  if (answer == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  node = json_node_init_object (json_node_alloc (), answer);
  text = json_to_string (node, FALSE);
  cJSON_AddItemToObject (rounds->responses, key, cJSON_Parse (text));
  rounds->next_key = rounds->next_key->next;
  answer_next (g_steal_pointer (&task));
}

static void
answer_next (GTask *task)
{
  AgentMcpClient *self = g_task_get_source_object (task);
  Rounds *rounds = g_task_get_task_data (task);
  const char *key;
  JsonNode *request;
  JsonObject *object;
  JsonObject *params = NULL;
  const char *method;

  if (rounds->next_key == NULL)
    {
      finish_round (task);
      return;
    }

  key = rounds->next_key->data;
  request = json_object_get_member (rounds->requests, key);
  object = JSON_NODE_HOLDS_OBJECT (request) ? json_node_get_object (request) : NULL;
  method = _agent_mcp_string (object, "method");
  if (object != NULL && json_object_has_member (object, "params") &&
      JSON_NODE_HOLDS_OBJECT (json_object_get_member (object, "params")))
    params = json_object_get_object_member (object, "params");

  if (method == NULL)
    {
      g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                               _("The MCP server “%s” asked for input to answer %s without "
                                 "saying what"), self->name, rounds->method);
      g_object_unref (task);
      return;
    }

  _agent_mcp_client_answer_input_async (self, method, params, g_task_get_cancellable (task),
                                        answered_cb, task);
}

static void
round_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  GTask *task = user_data;
  AgentMcpClient *self = g_task_get_source_object (task);
  Rounds *rounds = g_task_get_task_data (task);
  GError *error = NULL;
  JsonNode *node = _agent_mcp_rpc_request_finish (result, &error);
  JsonObject *answer;
  JsonNode *requests;

  _agent_trace_end (rounds->trace_begin, "libagent", "mcp request", "%s %s%s%s", self->name,
                    rounds->method, error ? ": " : "", error ? error->message : "");

  if (node == NULL)
    {
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }

  answer = json_node_get_object (node);
  if (g_strcmp0 (_agent_mcp_string (answer, "resultType"), "input_required") != 0)
    {
      g_task_return_pointer (task, node, (GDestroyNotify) json_node_unref);
      g_object_unref (task);
      return;
    }

  if (++rounds->round >= MAX_ROUNDS)
    {
      json_node_unref (node);
      g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                               _("The MCP server “%s” asked for input to answer %s %u times"),
                               self->name, rounds->method, MAX_ROUNDS);
      g_object_unref (task);
      return;
    }

  g_free (rounds->state);
  rounds->state = g_strdup (_agent_mcp_string (answer, "requestState"));
  g_clear_pointer (&rounds->requests, json_object_unref);
  g_clear_pointer (&rounds->keys, g_list_free);
  g_clear_pointer (&rounds->responses, cJSON_Delete);
  rounds->responses = cJSON_CreateObject ();

  requests = json_object_get_member (answer, "inputRequests");
  if (requests != NULL && JSON_NODE_HOLDS_OBJECT (requests))
    {
      rounds->requests = json_object_ref (json_node_get_object (requests));
      rounds->keys = json_object_get_members (rounds->requests);
    }
  else
    rounds->requests = json_object_new ();
  rounds->next_key = rounds->keys;
  json_node_unref (node);

  /* The previous round's answers and state go: only this round's come */
  cJSON_DeleteItemFromObjectCaseSensitive (rounds->params, "inputResponses");
  cJSON_DeleteItemFromObjectCaseSensitive (rounds->params, "requestState");
  answer_next (task);
}

static void
send_round (GTask *task)
{
  AgentMcpClient *self = g_task_get_source_object (task);
  Rounds *rounds = g_task_get_task_data (task);

  if (self->rpc == NULL)
    {
      g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_NETWORK,
                               _("The MCP server “%s” is not connected"), self->name);
      g_object_unref (task);
      return;
    }

  /* The progress function stays ours across rounds */
  rounds->trace_begin = _agent_trace_begin ();
  _agent_mcp_rpc_request_async (self->rpc, rounds->method, cJSON_Duplicate (rounds->params, TRUE),
                                rounds->timeout, rounds->progress, rounds->progress_data, NULL,
                                rounds->check, rounds->check_data, g_task_get_cancellable (task),
                                round_done_cb, task);
}

/* As _agent_mcp_rpc_request_async() on the client's connection, answering
 * input_required results until the request completes */
void
_agent_mcp_client_rpc_async (AgentMcpClient       *self,
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
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  Rounds *rounds = g_new0 (Rounds, 1);

  g_task_set_source_tag (task, _agent_mcp_client_rpc_async);
  g_task_set_check_cancellable (task, FALSE);
  rounds->method = g_strdup (method);
  rounds->params = params != NULL ? params : cJSON_CreateObject ();
  rounds->timeout = timeout;
  rounds->progress = progress;
  rounds->progress_data = progress_data;
  rounds->progress_destroy = progress_destroy;
  rounds->check = check;
  rounds->check_data = check_data;
  g_task_set_task_data (task, rounds, (GDestroyNotify) rounds_free);

  send_round (task);
}

JsonNode *
_agent_mcp_client_rpc_finish (AgentMcpClient  *self,
                              GAsyncResult    *result,
                              GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == _agent_mcp_client_rpc_async,
                        NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
