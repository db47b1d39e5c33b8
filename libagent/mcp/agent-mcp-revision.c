/* agent-mcp-revision.c — what sets the MCP protocol revisions apart
 *
 * Every difference between the revisions this client speaks is a member of
 * the table below; the rest of the client asks the table, never a version
 * string:
 *
 *   revision     handshake                   HTTP sessions   list_changed
 *   2026-07-28   none: server/discover,      none            subscriptions/listen
 *                _meta on every request
 *   2025-11-25   initialize, then            Mcp-Session-Id  on the GET stream
 *   … 2024-11-05 notifications/initialized   and GET stream  (or any answer)
 *
 * Choosing one (basic/versioning.mdx of 2026-07-28): the client first asks
 * server/discover with its newest version in _meta. A DiscoverResult, or an
 * UnsupportedProtocolVersionError that lists what the server speaks, means a
 * stateless server: the newest version both speak wins. Any other answer
 * (an unknown method, an HTTP 400 without a modern error, silence) means an
 * older server: the initialize handshake follows, as before. What a server
 * turned out to be is remembered for the life of the process, so that a
 * reconnection to an older server makes no failed probe again.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "mcp/agent-mcp-private.h"
#include "agent-version.h"

static const AgentMcpRevision revisions[] = {
  { .version = "2026-07-28", .stateless = TRUE, .sessions = FALSE, .listen = TRUE,
    .method_headers = TRUE, .param_headers = TRUE, .client_notifications_over_http = FALSE,
    .ping_method = "server/discover" },
  { .version = "2025-11-25", .stateless = FALSE, .sessions = TRUE, .listen = FALSE,
    .method_headers = FALSE, .client_notifications_over_http = TRUE, .ping_method = "ping" },
  { .version = "2025-06-18", .stateless = FALSE, .sessions = TRUE, .listen = FALSE,
    .method_headers = FALSE, .client_notifications_over_http = TRUE, .ping_method = "ping" },
  { .version = "2025-03-26", .stateless = FALSE, .sessions = TRUE, .listen = FALSE,
    .method_headers = FALSE, .client_notifications_over_http = TRUE, .ping_method = "ping" },
  { .version = "2024-11-05", .stateless = FALSE, .sessions = TRUE, .listen = FALSE,
    .method_headers = FALSE, .client_notifications_over_http = TRUE, .ping_method = "ping" },
};

const char * const agent_mcp_protocol_versions[] = {
  "2026-07-28",
  "2025-11-25",
  "2025-06-18",
  "2025-03-26",
  "2024-11-05",
  NULL
};

G_STATIC_ASSERT (G_N_ELEMENTS (revisions) + 1 == G_N_ELEMENTS (agent_mcp_protocol_versions));

const AgentMcpRevision *
_agent_mcp_revision_find (const char *version)
{
  for (guint i = 0; version != NULL && i < G_N_ELEMENTS (revisions); i++)
    if (g_str_equal (revisions[i].version, version))
      return &revisions[i];

  return NULL;
}

/* Our newest stateless revision, or older one */
const AgentMcpRevision *
_agent_mcp_revision_newest (gboolean stateless)
{
  for (guint i = 0; i < G_N_ELEMENTS (revisions); i++)
    if (revisions[i].stateless == stateless)
      return &revisions[i];

  g_assert_not_reached ();
}

/* The newest revision we speak among @offered, or NULL */
const AgentMcpRevision *
_agent_mcp_revision_choose (const char * const *offered)
{
  for (guint i = 0; offered != NULL && i < G_N_ELEMENTS (revisions); i++)
    if (g_strv_contains (offered, revisions[i].version))
      return &revisions[i];

  return NULL;
}

/* "2026-07-28, 2025-11-25, …": what we speak, newest first */
char *
_agent_mcp_revision_list (const char * const *versions)
{
  if (versions == NULL || versions[0] == NULL)
    return g_strdup (_("none"));

  return g_strjoinv (", ", (char **) versions);
}

/* The error for a server that speaks none of our versions: both lists */
GError *
_agent_mcp_revision_no_common_error (const char         *server,
                                     const char * const *offered)
{
  g_autofree char *theirs = _agent_mcp_revision_list (offered);
  g_autofree char *ours = _agent_mcp_revision_list (agent_mcp_protocol_versions);

  return g_error_new (AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                      _("The MCP server “%s” speaks protocol versions %s; libagent speaks %s"),
                      server, theirs, ours);
}

/* What a stateless request carries in _meta: our version, capabilities and
 * identity. Takes @params (may be NULL) and returns it, made if needed. */
cJSON *
_agent_mcp_revision_add_meta (const AgentMcpRevision *self,
                              cJSON                  *params,
                              const cJSON            *capabilities)
{
  cJSON *meta;
  cJSON *info;

  if (self == NULL || !self->stateless)
    return params;

  if (params == NULL)
    params = cJSON_CreateObject ();
  if ((meta = cJSON_GetObjectItemCaseSensitive (params, "_meta")) == NULL ||
      !cJSON_IsObject (meta))
    {
      cJSON_DeleteItemFromObjectCaseSensitive (params, "_meta");
      meta = cJSON_AddObjectToObject (params, "_meta");
    }

  cJSON_DeleteItemFromObjectCaseSensitive (meta, AGENT_MCP_META_PROTOCOL_VERSION);
  cJSON_DeleteItemFromObjectCaseSensitive (meta, AGENT_MCP_META_CLIENT_INFO);
  cJSON_DeleteItemFromObjectCaseSensitive (meta, AGENT_MCP_META_CLIENT_CAPABILITIES);
  cJSON_AddStringToObject (meta, AGENT_MCP_META_PROTOCOL_VERSION, self->version);
  info = cJSON_AddObjectToObject (meta, AGENT_MCP_META_CLIENT_INFO);
  cJSON_AddStringToObject (info, "name", "libagent");
  cJSON_AddStringToObject (info, "version", AGENT_VERSION_S);
  cJSON_AddItemToObject (meta, AGENT_MCP_META_CLIENT_CAPABILITIES,
                         capabilities != NULL ? cJSON_Duplicate (capabilities, TRUE)
                                              : cJSON_CreateObject ());

  return params;
}

static gboolean
is_plain_header_value (const char *value)
{
  gsize len = strlen (value);

  if (len == 0)
    return TRUE;
  if (value[0] == ' ' || value[0] == '\t' || value[len - 1] == ' ' || value[len - 1] == '\t')
    return FALSE;
  if (g_str_has_prefix (value, "=?base64?") && g_str_has_suffix (value, "?="))
    return FALSE;

  for (const char *p = value; *p != '\0'; p++)
    if (!(*p == ' ' || *p == '\t' || (*p >= 0x21 && *p <= 0x7e)))
      return FALSE;

  return TRUE;
}

/* @value as an Mcp-Name header carries it: as is when it is visible ASCII,
 * else in the base64 sentinel form (streamable-http.mdx, Value Encoding) */
char *
_agent_mcp_revision_header_value (const char *value)
{
  g_autofree char *encoded = NULL;

  if (is_plain_header_value (value))
    return g_strdup (value);

  encoded = g_base64_encode ((const guchar *) value, strlen (value));
  return g_strdup_printf ("=?base64?%s?=", encoded);
}

/* What older servers turned out to be, for the life of the process: the
 * endpoint (a command line, a URL) → its revision */
static GMutex remembered_lock;
static GHashTable *remembered;

void
_agent_mcp_revision_remember (const char             *endpoint,
                              const AgentMcpRevision *revision)
{
  g_mutex_lock (&remembered_lock);
  if (remembered == NULL)
    remembered = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  if (revision != NULL)
    g_hash_table_replace (remembered, g_strdup (endpoint), (gpointer) revision);
  else
    g_hash_table_remove (remembered, endpoint);
  g_mutex_unlock (&remembered_lock);
}

const AgentMcpRevision *
_agent_mcp_revision_remembered (const char *endpoint)
{
  const AgentMcpRevision *revision = NULL;

  g_mutex_lock (&remembered_lock);
  if (remembered != NULL)
    revision = g_hash_table_lookup (remembered, endpoint);
  g_mutex_unlock (&remembered_lock);

  return revision;
}
