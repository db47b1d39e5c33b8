/* agent-request-settings-apply.c — the settings of one request
 *
 * The layers (the provider's, the session's, a step's) merged into the
 * settings a request is built with; provider options merged as JSON; the
 * headers checked and added to the request, their secrets collected for
 * redaction.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "agent-util-private.h"
#include "transport/agent-request-settings-private.h"

/* @over merged into @base (either may be NULL), as a new node: objects
 * member by member, at any depth; any other value of @over replaces
 * @base's. What agent_request_settings_set_provider_options() documents. */
JsonNode *
_agent_json_merge (JsonNode *base,
                   JsonNode *over)
{
  JsonObject *merged;
  JsonObjectIter iter;
  const char *name;
  JsonNode *member;
  JsonNode *result;

  if (over == NULL)
    return base != NULL ? json_node_copy (base) : NULL;
  if (base == NULL || !JSON_NODE_HOLDS_OBJECT (base) || !JSON_NODE_HOLDS_OBJECT (over))
    return json_node_copy (over);

  merged = json_object_new ();
  json_object_iter_init (&iter, json_node_get_object (base));
  while (json_object_iter_next (&iter, &name, &member))
    json_object_set_member (merged, name, json_node_copy (member));

  json_object_iter_init (&iter, json_node_get_object (over));
  while (json_object_iter_next (&iter, &name, &member))
    json_object_set_member (merged, name,
                            _agent_json_merge (json_object_get_member (merged, name), member));

  result = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (result, merged);
  return result;
}

/**
 * _agent_request_settings_merge:
 * @self: the settings of the layer below, changed
 * @over: (nullable): those of the layer above
 *
 * What @over sets replaces @self's; provider options merge as JSON, and
 * headers name by name.
 */
void
_agent_request_settings_merge (AgentRequestSettings *self,
                               AgentRequestSettings *over)
{
  if (over == NULL)
    return;

  g_object_freeze_notify (G_OBJECT (self));
  if (_agent_request_settings_has (over, AGENT_SETTING_TEMPERATURE))
    agent_request_settings_set_temperature (self, over->temperature);
  if (_agent_request_settings_has (over, AGENT_SETTING_TOP_P))
    agent_request_settings_set_top_p (self, over->top_p);
  if (_agent_request_settings_has (over, AGENT_SETTING_TOP_K))
    agent_request_settings_set_top_k (self, over->top_k);
  if (_agent_request_settings_has (over, AGENT_SETTING_SEED))
    agent_request_settings_set_seed (self, over->seed);
  if (_agent_request_settings_has (over, AGENT_SETTING_STOP))
    agent_request_settings_set_stop (self, (const char * const *) over->stop);
  if (_agent_request_settings_has (over, AGENT_SETTING_PRESENCE_PENALTY))
    agent_request_settings_set_presence_penalty (self, over->presence_penalty);
  if (_agent_request_settings_has (over, AGENT_SETTING_FREQUENCY_PENALTY))
    agent_request_settings_set_frequency_penalty (self, over->frequency_penalty);
  if (_agent_request_settings_has (over, AGENT_SETTING_TOOL_CHOICE))
    agent_request_settings_set_tool_choice (self, over->tool_choice, over->tool_choice_name);
  if (_agent_request_settings_has (over, AGENT_SETTING_PARALLEL_TOOL_CALLS))
    agent_request_settings_set_parallel_tool_calls (self, over->parallel_tool_calls);
  if (_agent_request_settings_has (over, AGENT_SETTING_PROVIDER_OPTIONS))
    {
      g_autoptr(JsonNode) merged = _agent_json_merge (self->provider_options,
                                                      over->provider_options);

      agent_request_settings_set_provider_options (self, merged);
    }
  for (guint i = 0; i < over->headers->len; i++)
    {
      AgentHeader *header = g_ptr_array_index (over->headers, i);

      agent_request_settings_set_header (self, header->name, header->value);
    }
  g_object_thaw_notify (G_OBJECT (self));
}

/* Adds the values of the headers that are credentials to @secrets */
void
_agent_request_settings_add_secrets (AgentRequestSettings *self,
                                     GPtrArray            *secrets)
{
  for (guint i = 0; self != NULL && i < self->headers->len; i++)
    {
      AgentHeader *header = g_ptr_array_index (self->headers, i);
      const char *value = header->value;

      if (!_agent_header_is_secret (header->name))
        continue;
      /* A bearer token is the secret, not the word before it */
      if (g_ascii_strncasecmp (value, "Bearer ", 7) == 0)
        value += 7;
      while (*value == ' ')
        value++;
      if (*value != '\0')
        g_ptr_array_add (secrets, g_strdup (value));
    }
}

/* RFC 9110's token */
static gboolean
is_token (const char *name)
{
  if (*name == '\0')
    return FALSE;
  for (const char *p = name; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && strchr ("!#$%&'*+-.^_`|~", *p) == NULL)
      return FALSE;
  return TRUE;
}

/**
 * _agent_request_settings_add_headers:
 *
 * Adds the headers of @self to @headers, replacing those of the same name;
 * fails, without adding any, on a header that cannot be sent.
 */
gboolean
_agent_request_settings_add_headers (AgentRequestSettings  *self,
                                     SoupMessageHeaders    *headers,
                                     GError               **error)
{
  static const char * const framing[] = {
    "host", "content-length", "content-type", "transfer-encoding", "connection", NULL
  };

  if (self == NULL)
    return TRUE;

  for (guint i = 0; i < self->headers->len; i++)
    {
      AgentHeader *header = g_ptr_array_index (self->headers, i);
      g_autofree char *lower = g_ascii_strdown (header->name, -1);

      if (!is_token (header->name))
        {
          g_autofree char *shown = g_strescape (header->name, NULL);

          g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                       _("“%s” is not the name of an HTTP header"), shown);
          return FALSE;
        }
      if (g_strv_contains (framing, lower))
        {
          g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                       _("The header %s cannot be set: libagent writes it"), header->name);
          return FALSE;
        }
      for (const char *p = header->value; *p != '\0'; p++)
        if (((guchar) *p < 0x20 && *p != '\t') || *p == 0x7f)
          {
            g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                         _("The value of the header %s contains a line break or another "
                           "control character"),
                         header->name);
            return FALSE;
          }
    }

  for (guint i = 0; i < self->headers->len; i++)
    {
      AgentHeader *header = g_ptr_array_index (self->headers, i);

      soup_message_headers_replace (headers, header->name, header->value);
    }
  return TRUE;
}
