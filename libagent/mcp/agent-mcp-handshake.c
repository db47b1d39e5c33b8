/* agent-mcp-handshake.c — agreeing on a protocol revision
 *
 *   server/discover (our newest stateless version in _meta)
 *     ├─ DiscoverResult ─────────────► the newest version both speak:
 *     │                                 stateless: its capabilities, done
 *     │                                 older only: initialize
 *     ├─ UnsupportedProtocolVersion ─► the same, from its "supported" list
 *     │                                 (one more server/discover)
 *     ├─ another error only stateless servers send ─► failed
 *     └─ anything else (unknown method, HTTP 4xx, silence, a result that
 *          is no DiscoverResult) ─► an older
 *          server: initialize with our newest older version, as the
 *          revisions up to 2025-11-25 prescribe
 *
 * On stdio this is the probe of 2026-07-28's stdio.mdx; over HTTP,
 * server/discover is the "modern request first" of streamable-http.mdx,
 * whose 400 is inspected for a modern error. An older server is
 * remembered (agent-mcp-revision.c): connecting to it again goes straight
 * to initialize, and probes again only if that fails.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "mcp/agent-mcp-private.h"
#include "agent-version.h"

/* Silence to a probe means an older server that ignores what it does not
 * know: wait no longer than this for it. */
#define PROBE_TIMEOUT 10.0

static void send_initialize (AgentMcpClient *self);

/* A command line or a URL: what an older server is remembered by */
static char *
endpoint (AgentMcpClient *self)
{
  g_autoptr(GString) key = NULL;

  if (self->url != NULL)
    return g_strconcat ("url:", self->url, NULL);

  key = g_string_new ("command:");
  g_string_append (key, self->command);
  for (guint i = 0; self->args != NULL && self->args[i] != NULL; i++)
    {
      g_string_append_c (key, '\x1f');
      g_string_append (key, self->args[i]);
    }
  if (self->cwd != NULL)
    g_string_append_printf (key, "\x1e%s", self->cwd);

  return g_string_free (g_steal_pointer (&key), FALSE);
}

static void
set_info (AgentMcpClient        *self,
          char                 **field,
          const char            *value,
          AgentMcpClientNotify   what)
{
  if (g_strcmp0 (*field, value) == 0)
    return;

  g_free (*field);
  *field = g_strdup (value);
  _agent_mcp_client_notify (self, what);
}

static JsonObject *
object_member (JsonObject *object,
               const char *member)
{
  JsonNode *node;

  if (object == NULL || (node = json_object_get_member (object, member)) == NULL ||
      !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;

  return json_node_get_object (node);
}

/* Agreed: what the server told of itself, and on to its tools */
static void
agreed (AgentMcpClient         *self,
        const AgentMcpRevision *revision,
        JsonObject             *answer,
        JsonObject             *info)
{
  JsonObject *capabilities = object_member (answer, "capabilities");

  self->revision = revision;
  _agent_mcp_rpc_set_revision (self->rpc, revision);

  g_clear_pointer (&self->capabilities, json_node_unref);
  self->capabilities = json_node_init_object (json_node_alloc (),
                                              capabilities ? capabilities : json_object_new ());

  set_info (self, &self->protocol_version, revision->version,
            AGENT_MCP_CLIENT_PROP_PROTOCOL_VERSION);
  set_info (self, &self->server_name, _agent_mcp_string (info, "name"),
            AGENT_MCP_CLIENT_PROP_SERVER_NAME);
  set_info (self, &self->server_version, _agent_mcp_string (info, "version"),
            AGENT_MCP_CLIENT_PROP_SERVER_VERSION);
  set_info (self, &self->instructions, _agent_mcp_string (answer, "instructions"),
            AGENT_MCP_CLIENT_PROP_INSTRUCTIONS);

  _agent_mcp_log (self->name, "speaking protocol version %s", revision->version);
  _agent_mcp_client_connected (self);
}

/* The handshake of the revisions up to 2025-11-25 */

static void
initialize_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(AgentMcpOp) op = user_data;
  AgentMcpClient *self = op->client;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  const AgentMcpRevision *revision;
  AgentMcpTransport *transport;
  JsonObject *answer;
  const char *version;

  node = _agent_mcp_rpc_request_finish (result, &error);
  if (_agent_mcp_op_is_stale (op))
    return;

  if (node == NULL)
    {
      g_autofree char *key = endpoint (self);

      /* Perhaps no longer the older server it was: probe next time */
      if (op->remembered)
        _agent_mcp_revision_remember (key, NULL);

      if (g_error_matches (error, AGENT_ERROR, AGENT_ERROR_FAILED))
        {
          g_autoptr(GError) refused = NULL;

          refused = g_error_new (AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                                 _("The MCP server “%s” refused the handshake: %s"),
                                 self->name, error->message);
          _agent_mcp_client_fail (self, refused);
        }
      else
        _agent_mcp_client_fail (self, error);
      return;
    }

  answer = json_node_get_object (node);
  version = _agent_mcp_string (answer, "protocolVersion");
  revision = _agent_mcp_revision_find (version);
  if (revision == NULL || revision->stateless)
    {
      const char *offered[] = { version ? version : "?", NULL };

      error = _agent_mcp_revision_no_common_error (self->name, offered);
      _agent_mcp_client_fail (self, error);
      return;
    }

  transport = _agent_mcp_rpc_get_transport (self->rpc);
  _agent_mcp_transport_set_protocol_version (transport, version);
  _agent_mcp_rpc_notify (self->rpc, "notifications/initialized", NULL);
  _agent_mcp_transport_initialized (transport);

  agreed (self, revision, answer, object_member (answer, "serverInfo"));
}

static void
send_initialize_full (AgentMcpClient *self,
                      gboolean        remembered)
{
  const AgentMcpRevision *revision = _agent_mcp_revision_newest (FALSE);
  cJSON *params;
  cJSON *client_info;
  AgentMcpOp *op;

  /* No version header on the handshake: it is the server's to choose */
  _agent_mcp_rpc_set_revision (self->rpc, NULL);
  _agent_mcp_transport_set_protocol_version (_agent_mcp_rpc_get_transport (self->rpc), NULL);

  params = cJSON_CreateObject ();
  cJSON_AddStringToObject (params, "protocolVersion", revision->version);
  cJSON_AddItemToObject (params, "capabilities", _agent_mcp_client_capabilities (self));
  client_info = cJSON_AddObjectToObject (params, "clientInfo");
  cJSON_AddStringToObject (client_info, "name", "libagent");
  cJSON_AddStringToObject (client_info, "version", AGENT_VERSION_S);

  op = _agent_mcp_op_new (self);
  op->remembered = remembered;
  _agent_mcp_rpc_request_async (self->rpc, "initialize", params, self->timeout,
                                NULL, NULL, NULL, NULL, NULL, NULL, initialize_cb, op);
}

static void
send_initialize (AgentMcpClient *self)
{
  send_initialize_full (self, FALSE);
}

/* 2026-07-28: server/discover */

static void send_discover (AgentMcpClient         *self,
                           const AgentMcpRevision *revision);

/* What the server speaks, in @offered: a stateless revision is asked
 * again (@asked: the one just refused) or taken; an older one is
 * initialized; else nothing in common. */
static void
choose (AgentMcpClient         *self,
        const char * const     *offered,
        const AgentMcpRevision *asked,
        JsonObject             *discovered)
{
  const AgentMcpRevision *revision = _agent_mcp_revision_choose (offered);

  if (revision == NULL)
    {
      g_autoptr(GError) error = _agent_mcp_revision_no_common_error (self->name, offered);

      _agent_mcp_client_fail (self, error);
    }
  else if (!revision->stateless)
    {
      g_autofree char *key = endpoint (self);

      _agent_mcp_revision_remember (key, revision);
      send_initialize (self);
    }
  else if (discovered != NULL && revision == asked)
    agreed (self, revision, discovered,
            object_member (object_member (discovered, "_meta"), AGENT_MCP_META_SERVER_INFO));
  else if (revision != asked)
    send_discover (self, revision);
  else
    {
      /* It refused the version it says it speaks */
      g_autoptr(GError) error = NULL;

      error = g_error_new (AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                           _("The MCP server “%s” refused protocol version %s, which it says "
                             "it speaks"), self->name, revision->version);
      _agent_mcp_client_fail (self, error);
    }
}

static char **
string_array (JsonObject *object,
              const char *member)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  JsonNode *node = object ? json_object_get_member (object, member) : NULL;
  JsonArray *array;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return NULL;

  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array) && i < 64; i++)
    {
      JsonNode *element = json_array_get_element (array, i);

      if (JSON_NODE_HOLDS_VALUE (element) && json_node_get_value_type (element) == G_TYPE_STRING)
        g_strv_builder_add (builder, json_node_get_string (element));
    }

  return g_strv_builder_end (builder);
}

/* An answer to the probe that does not come from a stateless server: a
 * JSON-RPC error, silence, an HTTP 4xx (not a redirect: that says where
 * the server went), an answer that makes no sense */
static gboolean
is_older_server (const GError *error)
{
  guint status = agent_error_get_http_status (error);

  return g_error_matches (error, AGENT_ERROR, AGENT_ERROR_FAILED) ||
         g_error_matches (error, AGENT_ERROR, AGENT_ERROR_TIMEOUT) ||
         (g_error_matches (error, AGENT_ERROR, AGENT_ERROR_HTTP) &&
          status >= 400 && status < 500) ||
         g_error_matches (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
}

static void
discover_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(AgentMcpOp) op = user_data;
  AgentMcpClient *self = op->client;
  const AgentMcpRevision *asked = self->revision;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) supported = NULL;
  JsonObject *answer;
  gint code;

  node = _agent_mcp_rpc_request_finish (result, &error);
  if (_agent_mcp_op_is_stale (op))
    return;

  code = _agent_mcp_rpc_take_modern_error (self->rpc, &supported);
  if (node == NULL && supported != NULL)
    {
      _agent_mcp_log (self->name, "protocol version %s refused: %s", asked->version,
                      error->message);
      choose (self, (const char * const *) supported, asked, NULL);
    }
  else if (node == NULL && code != 0)
    {
      g_autoptr(GError) refused = NULL;

      refused = g_error_new (AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                             _("The MCP server “%s” refused server/discover: %s"),
                             self->name, error->message);
      _agent_mcp_client_fail (self, refused);
    }
  else if (node == NULL && is_older_server (error))
    {
      g_autofree char *key = endpoint (self);

      _agent_mcp_log (self->name, "no server/discover (%s): an older server", error->message);
      _agent_mcp_revision_remember (key, _agent_mcp_revision_newest (FALSE));
      send_initialize (self);
    }
  else if (node == NULL)
    _agent_mcp_client_fail (self, error);
  else
    {
      answer = json_node_get_object (node);
      supported = string_array (answer, "supportedVersions");
      if (supported == NULL)
        {
          g_autofree char *key = endpoint (self);

          /* Not a DiscoverResult: an older server that answers anything */
          _agent_mcp_log (self->name, "server/discover answered without supportedVersions: "
                          "an older server");
          _agent_mcp_revision_remember (key, _agent_mcp_revision_newest (FALSE));
          send_initialize (self);
          return;
        }
      choose (self, (const char * const *) supported, asked, answer);
    }
}

static void
send_discover (AgentMcpClient         *self,
               const AgentMcpRevision *revision)
{
  self->revision = revision;
  _agent_mcp_rpc_set_revision (self->rpc, revision);
  _agent_mcp_transport_set_protocol_version (_agent_mcp_rpc_get_transport (self->rpc),
                                             revision->version);
  _agent_mcp_rpc_request_async (self->rpc, "server/discover", NULL,
                                self->timeout > 0 ? MIN (self->timeout, PROBE_TIMEOUT)
                                                  : PROBE_TIMEOUT,
                                NULL, NULL, NULL, NULL, NULL, NULL, discover_cb, _agent_mcp_op_new (self));
}

/* What the client declares it can do, in initialize or in every request's
 * _meta: elicitation (form and URL) when the application handles it */
cJSON *
_agent_mcp_client_capabilities (AgentMcpClient *self)
{
  cJSON *capabilities = cJSON_CreateObject ();

  if (self->handles_elicitation)
    {
      cJSON *elicitation = cJSON_AddObjectToObject (capabilities, "elicitation");

      cJSON_AddObjectToObject (elicitation, "form");
      cJSON_AddObjectToObject (elicitation, "url");
    }

  return capabilities;
}

/* Starts agreeing on a revision, on a new connection */
void
_agent_mcp_client_handshake (AgentMcpClient *self)
{
  g_autofree char *key = endpoint (self);
  const AgentMcpRevision *remembered = _agent_mcp_revision_remembered (key);

  self->revision = NULL;
  _agent_mcp_rpc_set_capabilities (self->rpc, _agent_mcp_client_capabilities (self));
  if (remembered != NULL && !remembered->stateless)
    send_initialize_full (self, TRUE);
  else
    send_discover (self, _agent_mcp_revision_newest (TRUE));
}
