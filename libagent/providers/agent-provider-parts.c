/* agent-provider-parts.c — images and documents in requests
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "messages/agent-message-private.h"
#include "providers/agent-provider-parts-private.h"

gboolean
_agent_request_check_parts (const AgentRequest *request,
                            const char         *provider,
                            AgentAcceptsPart    accepts,
                            GError            **error)
{
  guint n_messages = g_list_model_get_n_items (request->messages);

  for (guint i = 0; i < n_messages; i++)
    {
      g_autoptr(AgentMessage) message = g_list_model_get_item (request->messages, i);
      guint n_attachments = agent_message_get_n_attachments (message);
      AgentMessageRole role = agent_message_get_role (message);

      /* A tool's attachments never fail a request: each provider sends
       * those its API takes, and describes the others in text */
      if (role == AGENT_MESSAGE_ROLE_TOOL)
        continue;

      /* Images go to the model from the user and from tools, in every API */
      if (n_attachments > 0 && role != AGENT_MESSAGE_ROLE_USER && role != AGENT_MESSAGE_ROLE_TOOL)
        {
          g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                       _("The %s provider takes attachments in the user's messages and in tool "
                         "results only, not in a system or assistant message"),
                       provider);
          return FALSE;
        }

      for (guint j = 0; j < n_attachments; j++)
        {
          AgentContentPart *part = agent_message_get_attachment (message, j);

          if (!accepts (part, agent_message_get_role (message)))
            {
              g_propagate_error (error, _agent_content_part_unsupported (part, provider));
              return FALSE;
            }
        }
    }

  return TRUE;
}

gboolean
_agent_mime_is_common_image (const char *mime_type)
{
  static const char * const types[] = { "image/png", "image/jpeg", "image/gif", "image/webp" };

  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    if (g_ascii_strcasecmp (mime_type, types[i]) == 0)
      return TRUE;

  return FALSE;
}

gboolean
_agent_part_has_http_uri (AgentContentPart *part)
{
  const char *uri = agent_content_part_get_uri (part);

  return uri != NULL && (g_str_has_prefix (uri, "https://") || g_str_has_prefix (uri, "http://"));
}

char *
_agent_message_describe_attachments (AgentMessage *message)
{
  g_autoptr(GString) text = g_string_new (NULL);
  guint n = agent_message_get_n_attachments (message);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *description =
        _agent_content_part_dup_description (agent_message_get_attachment (message, i));

      if (text->len > 0)
        g_string_append_c (text, '\n');
      g_string_append (text, description);
    }

  return g_string_free (g_steal_pointer (&text), FALSE);
}

static gboolean
has_accepted (AgentMessage     *message,
              AgentAcceptsPart  accepts)
{
  guint n = agent_message_get_n_attachments (message);

  for (guint i = 0; i < n; i++)
    if (accepts (agent_message_get_attachment (message, i), AGENT_MESSAGE_ROLE_USER))
      return TRUE;

  return FALSE;
}

AgentMessage *
_agent_tool_images_message (GPtrArray        *tool_results,
                            AgentAcceptsPart  accepts)
{
  g_autoptr(AgentMessage) message = NULL;

  for (guint i = 0; i < tool_results->len; i++)
    {
      AgentMessage *result = g_ptr_array_index (tool_results, i);
      guint n = agent_message_get_n_attachments (result);
      g_autofree char *header = NULL;
      g_autoptr(AgentContentPart) text = NULL;

      if (!has_accepted (result, accepts))
        continue;

      if (message == NULL)
        message = agent_message_new (AGENT_MESSAGE_ROLE_USER, NULL);

      /* Not translated: the model reads it, not the user */
      header = g_strdup_printf ("The result of tool call %s (%s) comes with these attachments:",
                                agent_message_get_tool_call_id (result),
                                agent_message_get_tool_name (result) ?
                                agent_message_get_tool_name (result) : "?");
      text = agent_content_part_new_text (header);
      agent_message_add_part (message, text);
      for (guint j = 0; j < n; j++)
        {
          AgentContentPart *part = agent_message_get_attachment (result, j);

          if (accepts (part, AGENT_MESSAGE_ROLE_USER))
            agent_message_add_part (message, part);
        }
    }

  return g_steal_pointer (&message);
}
