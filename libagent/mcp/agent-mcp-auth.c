/* agent-mcp-auth.c — an MCP client's authorization, on its main context
 *
 * Holds the tokens in use and runs one flow at a time (agent-mcp-auth-
 * flow.c, in a worker thread): reading the keyring before the first
 * request, refreshing an expired token, authorizing when the server
 * refuses. The HTTP transport's exchanges wait on it, each request
 * carrying the Bearer token of the moment.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-error-private.h"
#include "mcp/agent-mcp-auth-private.h"
#include "wire/agent-wire-util-private.h"

struct _AgentMcpAuth
{
  GObject         parent_instance;

  GWeakRef        client;
  GMainContext   *context;
  char           *server;
  char           *url;
  char           *client_id;     /* configured, or NULL */
  char           *client_secret;
  char           *scope;
  AgentMcpTokens *tokens;        /* in use, or NULL */
  GCancellable   *cancellable;   /* of the flow in progress, or NULL */
  GPtrArray      *waiters;       /* of GTask: on the flow in progress */
  guint           loaded : 1;    /* the keyring was read */
  guint           holding : 1;   /* the client's time limits, during a flow */
  guint           asked : 1;     /* the flow in progress asked the user */
};

G_DEFINE_FINAL_TYPE (AgentMcpAuth, agent_mcp_auth, G_TYPE_OBJECT)

static void
agent_mcp_auth_finalize (GObject *object)
{
  AgentMcpAuth *self = (AgentMcpAuth *)object;

  g_weak_ref_clear (&self->client);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_free (self->server);
  g_free (self->url);
  g_free (self->client_id);
  g_free (self->client_secret);
  g_free (self->scope);
  g_clear_pointer (&self->tokens, _agent_mcp_tokens_free);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->waiters, g_ptr_array_unref);

  G_OBJECT_CLASS (agent_mcp_auth_parent_class)->finalize (object);
}

static void
agent_mcp_auth_class_init (AgentMcpAuthClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = agent_mcp_auth_finalize;
}

static void
agent_mcp_auth_init (AgentMcpAuth *self)
{
  self->waiters = g_ptr_array_new_with_free_func (g_object_unref);
  self->context = g_main_context_ref_thread_default ();
}

AgentMcpAuth *
_agent_mcp_auth_new (AgentMcpClient *client)
{
  AgentMcpAuth *self = g_object_new (AGENT_TYPE_MCP_AUTH, NULL);

  g_weak_ref_init (&self->client, client);
  self->server = g_strdup (agent_mcp_client_get_name (client));
  return self;
}

static char *
member_string (JsonObject *object,
               const char *name)
{
  JsonNode *node = object ? json_object_get_member (object, name) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return g_strdup (json_node_get_string (node));
}

void
_agent_mcp_auth_configure (AgentMcpAuth *self,
                           const char   *url,
                           JsonObject   *oauth)
{
  g_autofree char *key = _agent_mcp_auth_store_key (url);

  /* Another server: the tokens were not for it */
  if (self->url != NULL && g_strcmp0 (self->url, key) != 0)
    {
      g_clear_pointer (&self->tokens, _agent_mcp_tokens_free);
      self->loaded = FALSE;
    }
  g_free (self->url);
  self->url = g_steal_pointer (&key);

  g_free (self->client_id);
  g_free (self->client_secret);
  g_free (self->scope);
  self->client_id = member_string (oauth, "clientId");
  self->client_secret = member_string (oauth, "clientSecret");
  self->scope = member_string (oauth, "scope");
}

char *
_agent_mcp_auth_redact (AgentMcpAuth *self,
                        const char   *text)
{
  const char *secrets[5] = { NULL, };
  guint n = 0;

  if (self->tokens != NULL)
    {
      secrets[n++] = self->tokens->access_token;
      if (self->tokens->refresh_token != NULL)
        secrets[n++] = self->tokens->refresh_token;
      if (self->tokens->client_secret != NULL)
        secrets[n++] = self->tokens->client_secret;
    }
  if (self->client_secret != NULL)
    secrets[n++] = self->client_secret;
  return agent_redact (text, secrets);
}

const char *
_agent_mcp_auth_apply (AgentMcpAuth *self,
                       SoupMessage  *message)
{
  g_autofree char *value = NULL;

  if (self->tokens == NULL || self->tokens->access_token == NULL)
    return NULL;
  value = g_strdup_printf ("Bearer %s", self->tokens->access_token);
  soup_message_headers_replace (soup_message_get_request_headers (message), "Authorization",
                                value);
  return self->tokens->access_token;
}

gboolean
_agent_mcp_auth_needs_prepare (AgentMcpAuth *self)
{
  if (!self->loaded)
    return TRUE;
  /* Expired (a minute early) and refreshable */
  return self->tokens != NULL && self->tokens->expires_at != 0 &&
         self->tokens->refresh_token != NULL &&
         g_get_real_time () / G_USEC_PER_SEC >= self->tokens->expires_at - 60;
}

/* The flow */

static void
open_uri (gpointer    data,
          const char *uri)
{
  AgentMcpAuth *self = data;
  g_autoptr(AgentMcpClient) client = g_weak_ref_get (&self->client);

  if (client != NULL && self->cancellable != NULL && !g_cancellable_is_cancelled (self->cancellable))
    {
      /* Said before the signal: its handler may show it */
      self->asked = TRUE;
      _agent_mcp_client_set_authorization (client, AGENT_MCP_AUTHORIZATION_REQUIRED);
      _agent_mcp_client_emit_authorize (client, uri);
    }
}

static void
flow_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  AgentMcpAuthRequest *request = task_data;
  AgentMcpTokens *tokens;
  GError *error = NULL;

  tokens = _agent_mcp_auth_flow_run (request, cancellable, &error);
  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, tokens, (GDestroyNotify) _agent_mcp_tokens_free);
}

static void
flow_done (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  AgentMcpAuth *self = AGENT_MCP_AUTH (object);
  g_autoptr(GPtrArray) waiters = g_steal_pointer (&self->waiters);
  g_autoptr(AgentMcpTokens) tokens = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(AgentMcpClient) client = g_weak_ref_get (&self->client);
  gboolean asked = self->asked;

  self->waiters = g_ptr_array_new_with_free_func (g_object_unref);
  g_clear_object (&self->cancellable);
  self->loaded = TRUE;
  self->asked = FALSE;

  tokens = g_task_propagate_pointer (G_TASK (result), &error);
  if (tokens != NULL)
    {
      g_clear_pointer (&self->tokens, _agent_mcp_tokens_free);
      self->tokens = g_steal_pointer (&tokens);
    }

  /* An authorization that failed or was cancelled leaves only tokens the
   * server refused, if any: the user is not signed in */
  if (client != NULL)
    _agent_mcp_client_set_authorization (client,
                                         self->tokens != NULL && (error == NULL || !asked)
                                         ? AGENT_MCP_AUTHORIZATION_AUTHORIZED
                                         : AGENT_MCP_AUTHORIZATION_NONE);

  if (error != NULL)
    _agent_mcp_log (self->server, "authorization failed: %s", error->message);

  if (self->holding)
    {
      self->holding = FALSE;
      if (client != NULL)
        _agent_mcp_client_hold_timeouts (client, FALSE);
    }

  for (guint i = 0; i < waiters->len; i++)
    {
      if (error != NULL)
        g_task_return_error (waiters->pdata[i], g_error_copy (error));
      else
        g_task_return_boolean (waiters->pdata[i], TRUE);
    }
}

static void
start (AgentMcpAuth        *self,
       SoupMessage         *refusal,
       const char          *used_token,
       gpointer             source_tag,
       GAsyncReadyCallback  callback,
       gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (self, NULL, callback, user_data);
  g_autoptr(GTask) flow = NULL;
  g_autoptr(AgentMcpClient) client = g_weak_ref_get (&self->client);
  AgentMcpAuthRequest *request;

  g_task_set_source_tag (task, source_tag);
  g_ptr_array_add (self->waiters, g_steal_pointer (&task));
  if (self->cancellable != NULL)
    return;   /* it waits on the flow in progress */

  request = g_new0 (AgentMcpAuthRequest, 1);
  request->server = g_strdup (self->server);
  request->url = g_strdup (self->url);
  request->client_id = g_strdup (self->client_id);
  request->client_secret = g_strdup (self->client_secret);
  request->scope = g_strdup (self->scope);
  request->current = self->tokens ? _agent_mcp_tokens_copy (self->tokens) : NULL;
  request->load = !self->loaded;
  request->open_uri = open_uri;
  request->open_uri_data = g_object_ref (G_OBJECT (self));
  request->context = g_main_context_ref (self->context);
  if (refusal != NULL)
    {
      request->status = soup_message_get_status (refusal);
      request->www_authenticate =
        g_strdup (soup_message_headers_get_one (soup_message_get_response_headers (refusal),
                                                "WWW-Authenticate"));
      request->refused_token = g_strdup (used_token);
      request->interactive = client != NULL && _agent_mcp_client_handles_authorize (client);
    }

  /* The keyring may ask to be unlocked, the user takes time in the
   * browser: the requests that wait for it have no time limit meanwhile */
  if (client != NULL)
    {
      self->holding = TRUE;
      _agent_mcp_client_hold_timeouts (client, TRUE);
    }

  self->cancellable = g_cancellable_new ();
  flow = g_task_new (self, self->cancellable, flow_done, NULL);
  g_task_set_source_tag (flow, start);
  g_task_set_task_data (flow, request, (GDestroyNotify) _agent_mcp_auth_request_free);
  g_task_run_in_thread (flow, flow_thread);
}

void
_agent_mcp_auth_prepare_async (AgentMcpAuth        *self,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  start (self, NULL, NULL, _agent_mcp_auth_prepare_async, callback, user_data);
}

void
_agent_mcp_auth_challenge_async (AgentMcpAuth        *self,
                                 SoupMessage         *message,
                                 const char          *used_token,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  /* Refreshed meanwhile: the request goes again with the new token */
  if (self->cancellable == NULL && self->tokens != NULL && used_token != NULL &&
      g_strcmp0 (self->tokens->access_token, used_token) != 0)
    {
      g_autoptr(GTask) task = g_task_new (self, NULL, callback, user_data);

      g_task_set_source_tag (task, _agent_mcp_auth_challenge_async);
      g_task_return_boolean (task, TRUE);
      return;
    }
  start (self, message, used_token, _agent_mcp_auth_challenge_async, callback, user_data);
}

gboolean
_agent_mcp_auth_finish (AgentMcpAuth  *self,
                        GAsyncResult  *result,
                        GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

void
_agent_mcp_auth_cancel (AgentMcpAuth *self)
{
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
}

static void
forget_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  GError *error = NULL;

  if (_agent_mcp_auth_store_clear (task_data, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

void
_agent_mcp_auth_forget_async (AgentMcpAuth        *self,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, _agent_mcp_auth_forget_async);
  _agent_mcp_auth_cancel (self);
  g_clear_pointer (&self->tokens, _agent_mcp_tokens_free);
  /* Nothing to read any more: the keyring's item goes too */
  self->loaded = TRUE;
  {
    g_autoptr(AgentMcpClient) client = g_weak_ref_get (&self->client);

    if (client != NULL)
      _agent_mcp_client_set_authorization (client, AGENT_MCP_AUTHORIZATION_NONE);
  }

  if (self->url == NULL)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }
  g_task_set_task_data (task, g_strdup (self->url), g_free);
  g_task_run_in_thread (task, forget_thread);
}

gboolean
_agent_mcp_auth_forget_finish (AgentMcpAuth  *self,
                               GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
