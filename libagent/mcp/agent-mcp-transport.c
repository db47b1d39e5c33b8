/* agent-mcp-transport.c — what the stdio and HTTP transports share
 *
 * A transport carries the text of JSON-RPC messages to and from one MCP
 * server and says when the server went away. It reports through callbacks
 * that stop for good once it closed, so a late read never reaches a client
 * that moved on.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "mcp/agent-mcp-private.h"
#include "wire/agent-wire-util-private.h"

typedef struct
{
  AgentMcpTransportCallbacks  callbacks;
  gpointer                    user_data;
  char                       *name;
  char                      **secrets;
  guint                       closed : 1;
} AgentMcpTransportPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (AgentMcpTransport, agent_mcp_transport, G_TYPE_OBJECT)

void
_agent_mcp_log (const char *server,
                const char *format,
                ...)
{
  g_autofree char *text = NULL;
  va_list args;

  if (!_agent_debug_enabled (AGENT_DEBUG_MCP))
    return;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);

  /* Asked for explicitly: shown without G_MESSAGES_DEBUG */
  g_log_structured (AGENT_MCP_LOG_DOMAIN, G_LOG_LEVEL_MESSAGE, "MESSAGE", "[%s] %s",
                    server ? server : "?", text);
}

/*
 * Replaces every secret (the values of the server's environment variables
 * and HTTP headers, which often hold keys) that appears in @text. A server
 * may echo them in what it prints.
 */
static GPtrArray *
long_enough (const char * const *secrets)
{
  GPtrArray *kept = g_ptr_array_new ();

  /* Short values ("1", "true") are no secrets and would mangle text. */
  for (guint i = 0; secrets != NULL && secrets[i] != NULL; i++)
    if (strlen (secrets[i]) >= 6)
      g_ptr_array_add (kept, (gpointer) secrets[i]);
  g_ptr_array_add (kept, NULL);

  return kept;
}

char *
_agent_mcp_redact (const char * const *secrets,
                   const char         *text)
{
  g_autoptr(GPtrArray) kept = long_enough (secrets);

  return agent_redact (text, (const char * const *) kept->pdata);
}

/* The same for an excerpt of @len bytes cut to @max_chars characters:
 * redacted before it is cut (see agent_excerpt()) */
char *
_agent_mcp_excerpt (const char * const *secrets,
                    const char         *text,
                    gsize               len,
                    guint               max_chars)
{
  g_autoptr(GPtrArray) kept = long_enough (secrets);

  return agent_excerpt (text, len, max_chars, (const char * const *) kept->pdata);
}

static void
agent_mcp_transport_finalize (GObject *object)
{
  AgentMcpTransport *self = (AgentMcpTransport *)object;
  AgentMcpTransportPrivate *priv = agent_mcp_transport_get_instance_private (self);

  g_clear_pointer (&priv->name, g_free);
  g_clear_pointer (&priv->secrets, g_strfreev);

  G_OBJECT_CLASS (agent_mcp_transport_parent_class)->finalize (object);
}

static void
agent_mcp_transport_class_init (AgentMcpTransportClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = agent_mcp_transport_finalize;
}

static void
agent_mcp_transport_init (AgentMcpTransport *self)
{
}

void
_agent_mcp_transport_set_callbacks (AgentMcpTransport                *self,
                                    const AgentMcpTransportCallbacks *callbacks,
                                    gpointer                          user_data)
{
  AgentMcpTransportPrivate *priv = agent_mcp_transport_get_instance_private (self);

  priv->callbacks = *callbacks;
  priv->user_data = user_data;
}

void
_agent_mcp_transport_set_name (AgentMcpTransport *self,
                               const char        *name)
{
  AgentMcpTransportPrivate *priv = agent_mcp_transport_get_instance_private (self);

  g_free (priv->name);
  priv->name = g_strdup (name);
}

const char *
_agent_mcp_transport_get_name (AgentMcpTransport *self)
{
  AgentMcpTransportPrivate *priv = agent_mcp_transport_get_instance_private (self);

  return priv->name;
}

void
_agent_mcp_transport_set_secrets (AgentMcpTransport  *self,
                                  const char * const *secrets)
{
  AgentMcpTransportPrivate *priv = agent_mcp_transport_get_instance_private (self);

  g_strfreev (priv->secrets);
  priv->secrets = g_strdupv ((char **) secrets);
}

char *
_agent_mcp_transport_redact (AgentMcpTransport *self,
                             const char        *text)
{
  AgentMcpTransportPrivate *priv = agent_mcp_transport_get_instance_private (self);

  return _agent_mcp_redact ((const char * const *) priv->secrets, text);
}

char *
_agent_mcp_transport_excerpt (AgentMcpTransport *self,
                              const char        *text,
                              gsize              len,
                              guint              max_chars)
{
  AgentMcpTransportPrivate *priv = agent_mcp_transport_get_instance_private (self);

  return _agent_mcp_excerpt ((const char * const *) priv->secrets, text, len, max_chars);
}

gboolean
_agent_mcp_transport_start (AgentMcpTransport  *self,
                            GError            **error)
{
  return AGENT_MCP_TRANSPORT_GET_CLASS (self)->start (self, error);
}

void
_agent_mcp_transport_send (AgentMcpTransport *self,
                           GBytes            *message,
                           gint64             id)
{
  AgentMcpTransportPrivate *priv = agent_mcp_transport_get_instance_private (self);

  if (priv->closed)
    return;

  if (_agent_debug_enabled (AGENT_DEBUG_MCP))
    _agent_mcp_log (priv->name, "→ %.*s", (int) MIN (g_bytes_get_size (message), 4096),
                    (const char *) g_bytes_get_data (message, NULL));

  AGENT_MCP_TRANSPORT_GET_CLASS (self)->send (self, message, id);
}

void
_agent_mcp_transport_cancel_request (AgentMcpTransport *self,
                                     gint64             id)
{
  if (AGENT_MCP_TRANSPORT_GET_CLASS (self)->cancel_request != NULL)
    AGENT_MCP_TRANSPORT_GET_CLASS (self)->cancel_request (self, id);
}

void
_agent_mcp_transport_set_protocol_version (AgentMcpTransport *self,
                                           const char        *version)
{
  if (AGENT_MCP_TRANSPORT_GET_CLASS (self)->set_protocol_version != NULL)
    AGENT_MCP_TRANSPORT_GET_CLASS (self)->set_protocol_version (self, version);
}

void
_agent_mcp_transport_initialized (AgentMcpTransport *self)
{
  if (AGENT_MCP_TRANSPORT_GET_CLASS (self)->initialized != NULL)
    AGENT_MCP_TRANSPORT_GET_CLASS (self)->initialized (self);
}

void
_agent_mcp_transport_close_async (AgentMcpTransport   *self,
                                  gboolean             force,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  AgentMcpTransportPrivate *priv = agent_mcp_transport_get_instance_private (self);

  /* From now on, the client hears nothing more. */
  priv->closed = TRUE;
  memset (&priv->callbacks, 0, sizeof priv->callbacks);
  priv->user_data = NULL;

  AGENT_MCP_TRANSPORT_GET_CLASS (self)->close_async (self, force, callback, user_data);
}

gboolean
_agent_mcp_transport_is_closed (AgentMcpTransport *self)
{
  AgentMcpTransportPrivate *priv = agent_mcp_transport_get_instance_private (self);

  return priv->closed;
}

void
_agent_mcp_transport_emit_message (AgentMcpTransport *self,
                                   const char        *text,
                                   gsize              len)
{
  AgentMcpTransportPrivate *priv = agent_mcp_transport_get_instance_private (self);

  if (priv->closed || priv->callbacks.message == NULL)
    return;

  if (_agent_debug_enabled (AGENT_DEBUG_MCP))
    {
      g_autofree char *shown = _agent_mcp_transport_excerpt (self, text, len, 4096);

      _agent_mcp_log (priv->name, "← %s", shown);
    }

  priv->callbacks.message (priv->user_data, text, len);
}

void
_agent_mcp_transport_emit_closed (AgentMcpTransport *self,
                                  const GError      *error)
{
  AgentMcpTransportPrivate *priv = agent_mcp_transport_get_instance_private (self);
  AgentMcpTransportCallbacks callbacks = priv->callbacks;
  gpointer user_data = priv->user_data;

  if (priv->closed)
    return;

  _agent_mcp_log (priv->name, "closed: %s", error->message);

  /* Once: the transport is done, whatever else fails after. */
  priv->closed = TRUE;
  memset (&priv->callbacks, 0, sizeof priv->callbacks);
  priv->user_data = NULL;

  if (callbacks.closed != NULL)
    callbacks.closed (user_data, error);
}

void
_agent_mcp_transport_emit_request_failed (AgentMcpTransport *self,
                                          gint64             id,
                                          const GError      *error)
{
  AgentMcpTransportPrivate *priv = agent_mcp_transport_get_instance_private (self);

  if (priv->closed || priv->callbacks.request_failed == NULL)
    return;

  priv->callbacks.request_failed (priv->user_data, id, error);
}
