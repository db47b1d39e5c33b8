/* agent-request-settings-options.c — the provider's own: options and
 * headers
 *
 * Members of the request body by a dotted path, and HTTP headers, of
 * AgentRequestSettings (agent-request-settings.c has the class and
 * provider-options itself; agent-request-settings-apply.c merges, checks
 * and sends them).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "transport/agent-request-settings-private.h"

/* The members of a path "a.b.c": at least one, none empty */
static char **
split_path (const char *path)
{
  g_auto(GStrv) keys = NULL;

  if (path == NULL || *path == '\0')
    return NULL;
  keys = g_strsplit (path, ".", -1);
  for (guint i = 0; keys[i] != NULL; i++)
    if (keys[i][0] == '\0')
      return NULL;
  return g_steal_pointer (&keys);
}

/**
 * agent_request_settings_set_provider_option:
 * @self: a [class@Agent.RequestSettings]
 * @path: a member of the body, with a dot between nested members
 *   (`options.mirostat`, `metadata.user_id`)
 * @value: the value
 *
 * Sets one member of [property@Agent.RequestSettings:provider-options]:
 * `options.mirostat` and 2 give `{"options": {"mirostat": 2}}`, merged with
 * the options already set. A member whose name holds a dot can only be set
 * with [method@Agent.RequestSettings.set_provider_options].
 *
 * Since: 0.1
 */
void
agent_request_settings_set_provider_option (AgentRequestSettings *self,
                                            const char           *path,
                                            JsonNode             *value)
{
  g_auto(GStrv) keys = NULL;
  g_autoptr(JsonNode) patch = NULL;
  g_autoptr(JsonNode) merged = NULL;
  guint n;

  g_return_if_fail (AGENT_IS_REQUEST_SETTINGS (self));
  g_return_if_fail (value != NULL);
  keys = split_path (path);
  g_return_if_fail (keys != NULL);

  patch = json_node_copy (value);
  for (n = g_strv_length (keys); n > 0; n--)
    {
      JsonObject *object = json_object_new ();
      JsonNode *node = json_node_new (JSON_NODE_OBJECT);

      json_object_set_member (object, keys[n - 1], g_steal_pointer (&patch));
      json_node_take_object (node, object);
      patch = node;
    }

  merged = _agent_json_merge (self->provider_options, patch);
  agent_request_settings_set_provider_options (self, merged);
}

/* Headers */

AgentHeader *
_agent_request_settings_find_header (AgentRequestSettings *self,
                                     const char           *name)
{
  for (guint i = 0; i < self->headers->len; i++)
    {
      AgentHeader *header = g_ptr_array_index (self->headers, i);

      if (g_ascii_strcasecmp (header->name, name) == 0)
        return header;
    }
  return NULL;
}

/**
 * agent_request_settings_get_header:
 * @self: a [class@Agent.RequestSettings]
 * @name: the name of an HTTP header (any case)
 *
 * Gets the value of an HTTP header set with
 * [method@Agent.RequestSettings.set_header].
 *
 * Returns: (nullable): its value, or %NULL
 *
 * Since: 0.1
 */
const char *
agent_request_settings_get_header (AgentRequestSettings *self,
                                   const char           *name)
{
  AgentHeader *header;

  g_return_val_if_fail (AGENT_IS_REQUEST_SETTINGS (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  header = _agent_request_settings_find_header (self, name);
  return header != NULL ? header->value : NULL;
}

/**
 * agent_request_settings_set_header:
 * @self: a [class@Agent.RequestSettings]
 * @name: the name of an HTTP header
 * @value: (nullable): its value, or %NULL to remove it
 *
 * Sends the HTTP header @name with each request (OpenRouter's
 * `HTTP-Referer` and `X-Title`, Azure's `api-key`, a gateway's own). It
 * replaces a header of that name that the provider sends. A provider's
 * headers go with its model listings too.
 *
 * The value of a header whose name says it is a credential — one of whose
 * words (between `-` or `_`) is `authorization`, `auth`, `key`, `apikey`,
 * `token`, `secret`, `password`, `session` or `cookie`: `api-key`,
 * `X-Goog-Api-Key`, `Helicone-Auth` — is a secret: like the API key, it is
 * removed from every error message and debug log. A name that is not an HTTP token, a value
 * with a line break or another control character, and the headers that
 * frame the body (`Host`, `Content-Length`, `Content-Type`,
 * `Transfer-Encoding`, `Connection`) fail the turn before sending, with
 * %AGENT_ERROR_INVALID_ARGUMENT.
 *
 * Since: 0.1
 */
void
agent_request_settings_set_header (AgentRequestSettings *self,
                                   const char           *name,
                                   const char           *value)
{
  AgentHeader *header;

  g_return_if_fail (AGENT_IS_REQUEST_SETTINGS (self));
  g_return_if_fail (name != NULL && *name != '\0');

  header = _agent_request_settings_find_header (self, name);
  if (value == NULL)
    {
      if (header != NULL)
        g_ptr_array_remove (self->headers, header);
    }
  else if (header != NULL)
    {
      g_free (header->value);
      header->value = g_strdup (value);
    }
  else
    {
      header = g_new0 (AgentHeader, 1);
      header->name = g_strdup (name);
      header->value = g_strdup (value);
      g_ptr_array_add (self->headers, header);
    }

  if (self->headers->len > 0)
    self->set |= AGENT_SETTING_HEADERS;
  else
    self->set &= ~AGENT_SETTING_HEADERS;
}

/**
 * agent_request_settings_list_headers:
 * @self: a [class@Agent.RequestSettings]
 *
 * Lists the HTTP headers set with [method@Agent.RequestSettings.set_header].
 *
 * Returns: (transfer full) (array zero-terminated=1): their names, in the
 *   order they were first set
 *
 * Since: 0.1
 */
char **
agent_request_settings_list_headers (AgentRequestSettings *self)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  g_return_val_if_fail (AGENT_IS_REQUEST_SETTINGS (self), NULL);

  for (guint i = 0; i < self->headers->len; i++)
    g_strv_builder_add (builder, ((AgentHeader *) g_ptr_array_index (self->headers, i))->name);
  return g_strv_builder_end (builder);
}
