/* agent-mcp-request.c — a request beyond tools (resources, prompts), and
 * listings page after page
 *
 * A request on a client that is not connected connects first, as a tool
 * call does; it gets AgentMcpClient:timeout. A listing follows nextCursor
 * up to AGENT_MCP_MAX_PAGES pages and AGENT_MCP_MAX_LISTED items, and
 * makes each item an object with a function of the caller.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "mcp/agent-mcp-private.h"

typedef struct
{
  char  *method;
  cJSON *params;
} Request;

static void
request_free (Request *request)
{
  g_free (request->method);
  g_clear_pointer (&request->params, cJSON_Delete);
  g_free (request);
}

static void
request_done_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;
  JsonNode *node = _agent_mcp_client_rpc_finish (AGENT_MCP_CLIENT (object), result, &error);

  if (node == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, node, (GDestroyNotify) json_node_unref);
}

static void
send_request (GTask *task)
{
  AgentMcpClient *self = g_task_get_source_object (task);
  Request *request = g_task_get_task_data (task);

  if (self->rpc == NULL)
    {
      g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_NETWORK,
                               _("The MCP server “%s” is not connected"), self->name);
      g_object_unref (task);
      return;
    }

  _agent_mcp_client_rpc_async (self, request->method, g_steal_pointer (&request->params),
                               self->timeout, NULL, NULL, NULL, NULL, NULL,
                               g_task_get_cancellable (task), request_done_cb, task);
}

static void
connected_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  GTask *task = user_data;
  GError *error = NULL;

  if (!agent_mcp_client_connect_finish (AGENT_MCP_CLIENT (object), result, &error))
    {
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }
  send_request (task);
}

/* Takes @params (may be NULL). Completes with the result's JsonNode. */
void
_agent_mcp_client_request_async (AgentMcpClient      *self,
                                 const char          *method,
                                 cJSON               *params,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  Request *request = g_new0 (Request, 1);

  g_task_set_source_tag (task, _agent_mcp_client_request_async);
  g_task_set_check_cancellable (task, FALSE);
  request->method = g_strdup (method);
  request->params = params;
  g_task_set_task_data (task, request, (GDestroyNotify) request_free);

  if (self->state == AGENT_MCP_CLIENT_STATE_READY && self->rpc != NULL)
    send_request (task);
  else
    agent_mcp_client_connect_async (self, cancellable, connected_cb, task);
}

JsonNode *
_agent_mcp_client_request_finish (AgentMcpClient  *self,
                                  GAsyncResult    *result,
                                  GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Listings */

typedef struct
{
  char                *method;
  char                *member;   /* of the answer: the array of items */
  AgentMcpMakeItemFunc make_item;
  GListStore          *items;
  char                *cursor;
  guint                n_pages;
} Listing;

static void
listing_free (Listing *listing)
{
  g_free (listing->method);
  g_free (listing->member);
  g_free (listing->cursor);
  g_clear_object (&listing->items);
  g_free (listing);
}

static void request_page (GTask *task);

static void
page_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AgentMcpClient *self = AGENT_MCP_CLIENT (object);
  Listing *listing = g_task_get_task_data (task);
  g_autoptr(JsonNode) node = NULL;
  GError *error = NULL;
  JsonObject *answer;
  JsonNode *items;
  const char *cursor;

  node = _agent_mcp_client_request_finish (self, result, &error);
  if (node == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  answer = json_node_get_object (node);
  items = json_object_get_member (answer, listing->member);
  if (items != NULL && JSON_NODE_HOLDS_ARRAY (items))
    {
      JsonArray *array = json_node_get_array (items);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *element = json_array_get_element (array, i);
          g_autoptr(GObject) item = NULL;

          if (!JSON_NODE_HOLDS_OBJECT (element) ||
              !(item = listing->make_item (json_node_get_object (element))))
            continue;
          if (g_list_model_get_n_items (G_LIST_MODEL (listing->items)) >= AGENT_MCP_MAX_LISTED)
            {
              g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_LIMIT,
                                       _("The MCP server “%s” listed more than %u items "
                                         "(%s)"), self->name, AGENT_MCP_MAX_LISTED,
                                       listing->method);
              return;
            }
          g_list_store_append (listing->items, item);
        }
    }

  cursor = json_object_get_string_member_with_default (answer, "nextCursor", NULL);
  if (cursor != NULL && cursor[0] != '\0' && g_strcmp0 (cursor, listing->cursor) != 0 &&
      ++listing->n_pages < AGENT_MCP_MAX_PAGES)
    {
      g_free (listing->cursor);
      listing->cursor = g_strdup (cursor);
      request_page (g_steal_pointer (&task));
      return;
    }

  g_task_return_pointer (task, g_object_ref (listing->items), g_object_unref);
}

static void
request_page (GTask *task)
{
  Listing *listing = g_task_get_task_data (task);
  cJSON *params = NULL;

  if (listing->cursor != NULL)
    {
      params = cJSON_CreateObject ();
      cJSON_AddStringToObject (params, "cursor", listing->cursor);
    }
  _agent_mcp_client_request_async (g_task_get_source_object (task), listing->method, params,
                                   g_task_get_cancellable (task), page_cb, task);
}

/* Lists every item of @method (the array @member of its answer, page after
 * page), made objects of @type by @make_item; completes with a GListModel */
void
_agent_mcp_client_list_async (AgentMcpClient       *self,
                              const char           *method,
                              const char           *member,
                              GType                 type,
                              AgentMcpMakeItemFunc  make_item,
                              gpointer              source_tag,
                              GCancellable         *cancellable,
                              GAsyncReadyCallback   callback,
                              gpointer              user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  Listing *listing = g_new0 (Listing, 1);

  g_task_set_source_tag (task, source_tag);
  g_task_set_check_cancellable (task, FALSE);
  listing->method = g_strdup (method);
  listing->member = g_strdup (member);
  listing->make_item = make_item;
  listing->items = g_list_store_new (type);
  g_task_set_task_data (task, listing, (GDestroyNotify) listing_free);

  request_page (task);
}

GListModel *
_agent_mcp_client_list_finish (AgentMcpClient  *self,
                               GAsyncResult    *result,
                               gpointer         source_tag,
                               GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == source_tag, NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
