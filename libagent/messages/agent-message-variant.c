/* agent-message-variant.c — a message as a GVariant, and back
 *
 * What a message needs to be sent to a model again, exactly: the desktop
 * service (docs/desktop-service.md) receives a request's messages over
 * D-Bus in this form, and sends back the model's answer in it, provider
 * data and all (Gemini's thought signatures, Anthropic's thinking
 * signatures, OpenAI Responses' items), so that the next request of the
 * caller's loop carries them.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "json/agent-json-private.h"
#include "messages/agent-message-private.h"
#include "messages/agent-tool-call-private.h"

/* Bounds on what one message may hold: a hostile variant is refused
 * before anything of that size is built */
#define MAX_PARTS      4096
#define MAX_TOOL_CALLS 256

static const char * const role_names[] = { "system", "user", "assistant", "tool" };
static const char * const kind_names[] = { "text", "image", "file", "audio" };

static void
add_string (GVariantBuilder *builder,
            const char      *key,
            const char      *value)
{
  if (value != NULL)
    g_variant_builder_add (builder, "{sv}", key, g_variant_new_string (value));
}

static void
add_json (GVariantBuilder *builder,
          const char      *key,
          JsonNode        *node)
{
  g_autofree char *text = NULL;

  if (node == NULL)
    return;
  text = agent_json_node_to_string (node, FALSE);
  add_string (builder, key, text);
}

static GVariant *
part_to_variant (AgentContentPart *part)
{
  AgentContentPartKind kind = agent_content_part_get_kind (part);
  GVariantBuilder builder;
  GBytes *data;

  g_variant_builder_init (&builder, G_VARIANT_TYPE_VARDICT);
  add_string (&builder, "kind", kind_names[kind]);
  if (kind == AGENT_CONTENT_PART_KIND_TEXT)
    add_string (&builder, "text", agent_content_part_get_text (part));
  add_string (&builder, "mime-type", agent_content_part_get_mime_type (part));
  add_string (&builder, "name", agent_content_part_get_name (part));
  add_string (&builder, "uri", agent_content_part_get_uri (part));
  if ((data = agent_content_part_get_data (part)) != NULL)
    g_variant_builder_add (&builder, "{sv}", "data",
                           g_variant_new_from_bytes (G_VARIANT_TYPE_BYTESTRING, data, TRUE));
  return g_variant_builder_end (&builder);
}

/**
 * agent_message_to_variant:
 * @self: an [class@Agent.Message]
 *
 * Writes @self as a `a{sv}` dictionary, as the desktop service's `RunStep`
 * takes messages (docs/desktop-service.md): `role` (s: `system`, `user`,
 * `assistant` or `tool`), `parts` (aa{sv}: each with `kind` — `text`,
 * `image`, `file` or `audio` — and `text`, `mime-type`, `name`, `uri` (s)
 * and `data` (ay) as the part has them), `tool-calls` (a(sss): id, name and
 * arguments), `tool-call-details` (aa{sv}, one a call: `type` and
 * `provider-data`), `tool-call-id`, `tool-name` (s), `is-error` (b),
 * `reasoning`, `refusal`, `finish-reason`, `response-id`, `model` (s),
 * `provider-data` (s, JSON), `summary` ((uu), a summary's messages) and the
 * usage, `prompt-tokens`, `completion-tokens`, `total-tokens` (x).
 *
 * [ctor@Agent.Message.new_from_variant] reads it back.
 *
 * Returns: (transfer floating): the message as a `a{sv}` variant
 *
 * Since: 0.1
 */
GVariant *
agent_message_to_variant (AgentMessage *self)
{
  g_autoptr(GListModel) parts = NULL;
  GVariantBuilder builder;
  guint n_calls;

  g_return_val_if_fail (AGENT_IS_MESSAGE (self), NULL);

  g_variant_builder_init (&builder, G_VARIANT_TYPE_VARDICT);
  add_string (&builder, "role", role_names[self->role]);

  parts = agent_message_list_parts (self);
  if (g_list_model_get_n_items (parts) > 0)
    {
      GVariantBuilder list;

      g_variant_builder_init (&list, G_VARIANT_TYPE ("aa{sv}"));
      for (guint i = 0; i < g_list_model_get_n_items (parts); i++)
        {
          g_autoptr(AgentContentPart) part = g_list_model_get_item (parts, i);

          g_variant_builder_add_value (&list, part_to_variant (part));
        }
      g_variant_builder_add (&builder, "{sv}", "parts", g_variant_builder_end (&list));
    }

  n_calls = agent_message_get_n_tool_calls (self);
  if (n_calls > 0)
    {
      GVariantBuilder calls;
      GVariantBuilder details;

      g_variant_builder_init (&calls, G_VARIANT_TYPE ("a(sss)"));
      g_variant_builder_init (&details, G_VARIANT_TYPE ("aa{sv}"));
      for (guint i = 0; i < n_calls; i++)
        {
          AgentToolCall *call = agent_message_get_tool_call (self, i);
          GVariantBuilder detail;

          g_variant_builder_add (&calls, "(sss)", call->id ? call->id : "",
                                 call->name ? call->name : "", call->arguments->str);
          g_variant_builder_init (&detail, G_VARIANT_TYPE_VARDICT);
          add_string (&detail, "type", call->type);
          add_json (&detail, "provider-data", call->provider_data);
          g_variant_builder_add_value (&details, g_variant_builder_end (&detail));
        }
      g_variant_builder_add (&builder, "{sv}", "tool-calls", g_variant_builder_end (&calls));
      g_variant_builder_add (&builder, "{sv}", "tool-call-details",
                             g_variant_builder_end (&details));
    }

  add_string (&builder, "tool-call-id", self->tool_call_id);
  add_string (&builder, "tool-name", self->tool_name);
  if (self->is_error)
    g_variant_builder_add (&builder, "{sv}", "is-error", g_variant_new_boolean (TRUE));
  add_string (&builder, "reasoning", agent_message_get_reasoning (self));
  add_string (&builder, "refusal", agent_message_get_refusal (self));
  add_string (&builder, "finish-reason", self->finish_reason);
  add_string (&builder, "response-id", self->response_id);
  add_string (&builder, "model", self->model);
  add_json (&builder, "provider-data", self->provider_data);
  if (self->is_summary)
    g_variant_builder_add (&builder, "{sv}", "summary",
                           g_variant_new ("(uu)", self->summary_start, self->summary_end));
  if (self->usage != NULL)
    {
      gint64 prompt = agent_usage_get_prompt_tokens (self->usage);
      gint64 completion = agent_usage_get_completion_tokens (self->usage);
      gint64 total = agent_usage_get_total_tokens (self->usage);

      if (prompt >= 0)
        g_variant_builder_add (&builder, "{sv}", "prompt-tokens", g_variant_new_int64 (prompt));
      if (completion >= 0)
        g_variant_builder_add (&builder, "{sv}", "completion-tokens",
                               g_variant_new_int64 (completion));
      if (total >= 0)
        g_variant_builder_add (&builder, "{sv}", "total-tokens", g_variant_new_int64 (total));
    }

  return g_variant_builder_end (&builder);
}

/* Reading */

/* The value of @key in @dict if it has @type; NULL if it is absent. An
 * error naming the key if it has another type. */
static gboolean
lookup (GVariant            *dict,
        const char          *key,
        const GVariantType  *type,
        GVariant           **out,
        GError             **error)
{
  g_autoptr(GVariant) value = g_variant_lookup_value (dict, key, NULL);

  *out = NULL;
  if (value == NULL)
    return TRUE;
  if (!g_variant_is_of_type (value, type))
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("The message's “%s” is of type “%s”, not “%s”"),
                   key, g_variant_get_type_string (value), g_variant_type_peek_string (type));
      return FALSE;
    }
  *out = g_steal_pointer (&value);
  return TRUE;
}

static gboolean
lookup_string (GVariant    *dict,
               const char  *key,
               char       **out,
               GError     **error)
{
  g_autoptr(GVariant) value = NULL;

  *out = NULL;
  if (!lookup (dict, key, G_VARIANT_TYPE_STRING, &value, error))
    return FALSE;
  if (value != NULL)
    *out = g_variant_dup_string (value, NULL);
  return TRUE;
}

static int
find_name (const char * const *names,
           guint               n_names,
           const char         *name)
{
  for (guint i = 0; i < n_names; i++)
    if (g_str_equal (names[i], name))
      return i;
  return -1;
}

/* @text as a JSON value; an error naming @key if it is not JSON */
static gboolean
parse_json (const char  *key,
            const char  *text,
            JsonNode   **out,
            GError     **error)
{
  g_autoptr(GError) parse_error = NULL;

  *out = NULL;
  if (text == NULL)
    return TRUE;
  *out = agent_json_parse (text, -1, &parse_error);
  if (*out == NULL)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("The message's “%s” is not JSON: %s"), key, parse_error->message);
      return FALSE;
    }
  return TRUE;
}

static AgentContentPart *
part_from_variant (GVariant  *dict,
                   guint      position,
                   GError   **error)
{
  g_autofree char *kind_name = NULL;
  g_autofree char *text = NULL;
  g_autofree char *mime_type = NULL;
  g_autofree char *name = NULL;
  g_autofree char *uri = NULL;
  g_autoptr(GVariant) data = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) local_error = NULL;
  int kind;

  if (!lookup_string (dict, "kind", &kind_name, &local_error) ||
      !lookup_string (dict, "text", &text, &local_error) ||
      !lookup_string (dict, "mime-type", &mime_type, &local_error) ||
      !lookup_string (dict, "name", &name, &local_error) ||
      !lookup_string (dict, "uri", &uri, &local_error) ||
      !lookup (dict, "data", G_VARIANT_TYPE_BYTESTRING, &data, &local_error))
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("Part %u: %s"), position + 1, local_error->message);
      return NULL;
    }
  if (kind_name == NULL || (kind = find_name (kind_names, G_N_ELEMENTS (kind_names), kind_name)) < 0)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("Part %u: the message's “kind” is “%s”, not text, image, file or audio"),
                   position + 1, kind_name ? kind_name : "");
      return NULL;
    }

  if (kind == AGENT_CONTENT_PART_KIND_TEXT)
    return agent_content_part_new_text (text ? text : "");

  if (uri != NULL && data == NULL)
    return agent_content_part_new_for_uri (kind, mime_type, uri);
  if (data == NULL || mime_type == NULL)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("Part %u: an attachment needs “mime-type” and “data”, or a “uri”"),
                   position + 1);
      return NULL;
    }
  bytes = g_variant_get_data_as_bytes (data);
  switch (kind)
    {
    case AGENT_CONTENT_PART_KIND_IMAGE:
      return agent_content_part_new_image (mime_type, bytes);
    case AGENT_CONTENT_PART_KIND_AUDIO:
      return agent_content_part_new_audio (mime_type, bytes);
    case AGENT_CONTENT_PART_KIND_FILE:
    default:
      return agent_content_part_new_file (mime_type, bytes, name);
    }
}

static gboolean
read_parts (GVariant    *dict,
            GPtrArray   *parts,
            GError     **error)
{
  g_autoptr(GVariant) list = NULL;
  gsize n;

  if (!lookup (dict, "parts", G_VARIANT_TYPE ("aa{sv}"), &list, error))
    return FALSE;
  if (list == NULL)
    return TRUE;
  n = g_variant_n_children (list);
  if (n > MAX_PARTS)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("The message has %u parts; at most %u are taken"),
                   (guint) MIN (n, G_MAXUINT), MAX_PARTS);
      return FALSE;
    }
  for (gsize i = 0; i < n; i++)
    {
      g_autoptr(GVariant) child = g_variant_get_child_value (list, i);
      AgentContentPart *part = part_from_variant (child, i, error);

      if (part == NULL)
        return FALSE;
      g_ptr_array_add (parts, part);
    }
  return TRUE;
}

static gboolean
read_tool_calls (GVariant      *dict,
                 AgentMessage  *message,
                 GError       **error)
{
  g_autoptr(GVariant) calls = NULL;
  g_autoptr(GVariant) details = NULL;
  gsize n;

  if (!lookup (dict, "tool-calls", G_VARIANT_TYPE ("a(sss)"), &calls, error) ||
      !lookup (dict, "tool-call-details", G_VARIANT_TYPE ("aa{sv}"), &details, error))
    return FALSE;
  if (calls == NULL)
    return TRUE;
  n = g_variant_n_children (calls);
  if (n > MAX_TOOL_CALLS)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("The message has %u tool calls; at most %u are taken"),
                   (guint) MIN (n, G_MAXUINT), MAX_TOOL_CALLS);
      return FALSE;
    }
  if (details != NULL && g_variant_n_children (details) != n)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("The message's “tool-call-details” has %u entries for %u tool calls"),
                   (guint) MIN (g_variant_n_children (details), G_MAXUINT), (guint) n);
      return FALSE;
    }

  for (gsize i = 0; i < n; i++)
    {
      g_autoptr(AgentToolCall) call = NULL;
      g_autoptr(JsonNode) provider_data = NULL;
      g_autofree char *type = NULL;
      g_autofree char *data_text = NULL;
      const char *id, *name, *arguments;

      g_variant_get_child (calls, i, "(&s&s&s)", &id, &name, &arguments);
      if (name[0] == '\0')
        {
          g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                       _("Tool call %u of the message has no name"), (guint) i + 1);
          return FALSE;
        }
      if (details != NULL)
        {
          g_autoptr(GVariant) detail = g_variant_get_child_value (details, i);

          if (!lookup_string (detail, "type", &type, error) ||
              !lookup_string (detail, "provider-data", &data_text, error) ||
              !parse_json ("provider-data", data_text, &provider_data, error))
            return FALSE;
        }
      call = agent_tool_call_new (id[0] ? id : NULL, name, arguments);
      if (type != NULL)
        _agent_tool_call_set_type (call, type);
      if (provider_data != NULL)
        agent_tool_call_set_provider_data (call, provider_data);
      agent_message_add_tool_call (message, call);
    }
  return TRUE;
}

static gboolean
lookup_tokens (GVariant  *dict,
               const char *key,
               gint64    *out,
               GError   **error)
{
  g_autoptr(GVariant) value = NULL;

  *out = -1;
  if (!lookup (dict, key, G_VARIANT_TYPE_INT64, &value, error))
    return FALSE;
  if (value != NULL)
    *out = g_variant_get_int64 (value);
  return TRUE;
}

/**
 * agent_message_new_from_variant:
 * @variant: a `a{sv}` dictionary, as [method@Agent.Message.to_variant] writes it
 * @error: return location for a #GError
 *
 * Reads a message that [method@Agent.Message.to_variant] wrote. Keys it does
 * not know are ignored; a key of the wrong type, an unknown role or part kind,
 * provider data that is not JSON, or more than 4096 parts or 256 tool calls
 * fail with %AGENT_ERROR_INVALID_ARGUMENT naming what was wrong.
 *
 * Returns: (transfer full): the message, or %NULL with @error set
 *
 * Since: 0.1
 */
AgentMessage *
agent_message_new_from_variant (GVariant  *variant,
                                GError   **error)
{
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(AgentMessage) message = NULL;
  g_autoptr(GVariant) is_error = NULL;
  g_autoptr(GVariant) summary = NULL;
  g_autoptr(JsonNode) provider_data = NULL;
  g_autofree char *role_name = NULL;
  g_autofree char *tool_call_id = NULL;
  g_autofree char *tool_name = NULL;
  g_autofree char *reasoning = NULL;
  g_autofree char *refusal = NULL;
  g_autofree char *finish_reason = NULL;
  g_autofree char *response_id = NULL;
  g_autofree char *model = NULL;
  g_autofree char *data_text = NULL;
  gint64 prompt, completion, total;
  int role;

  g_return_val_if_fail (variant != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!g_variant_is_of_type (variant, G_VARIANT_TYPE_VARDICT))
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("A message is a “a{sv}” dictionary, not “%s”"),
                   g_variant_get_type_string (variant));
      return NULL;
    }

  if (!lookup_string (variant, "role", &role_name, error))
    return NULL;
  if (role_name == NULL)
    {
      g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                           _("The message has no “role”"));
      return NULL;
    }
  if ((role = find_name (role_names, G_N_ELEMENTS (role_names), role_name)) < 0)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("The message's “role” is “%s”, not system, user, assistant or tool"),
                   role_name);
      return NULL;
    }

  if (!read_parts (variant, parts, error) ||
      !lookup_string (variant, "tool-call-id", &tool_call_id, error) ||
      !lookup_string (variant, "tool-name", &tool_name, error) ||
      !lookup (variant, "is-error", G_VARIANT_TYPE_BOOLEAN, &is_error, error) ||
      !lookup_string (variant, "reasoning", &reasoning, error) ||
      !lookup_string (variant, "refusal", &refusal, error) ||
      !lookup_string (variant, "finish-reason", &finish_reason, error) ||
      !lookup_string (variant, "response-id", &response_id, error) ||
      !lookup_string (variant, "model", &model, error) ||
      !lookup_string (variant, "provider-data", &data_text, error) ||
      !parse_json ("provider-data", data_text, &provider_data, error) ||
      !lookup (variant, "summary", G_VARIANT_TYPE ("(uu)"), &summary, error) ||
      !lookup_tokens (variant, "prompt-tokens", &prompt, error) ||
      !lookup_tokens (variant, "completion-tokens", &completion, error) ||
      !lookup_tokens (variant, "total-tokens", &total, error))
    return NULL;

  if (role == AGENT_MESSAGE_ROLE_TOOL && tool_call_id == NULL)
    {
      g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                           _("A tool message needs a “tool-call-id”"));
      return NULL;
    }

  message = agent_message_new_with_parts (role, (AgentContentPart **) parts->pdata, parts->len);
  if (!read_tool_calls (variant, message, error))
    return NULL;

  message->tool_call_id = g_steal_pointer (&tool_call_id);
  message->tool_name = g_steal_pointer (&tool_name);
  message->is_error = is_error != NULL && g_variant_get_boolean (is_error);
  if (reasoning != NULL)
    _agent_message_append (&message->reasoning, reasoning, strlen (reasoning));
  if (refusal != NULL)
    _agent_message_append (&message->refusal, refusal, strlen (refusal));
  message->finish_reason = g_steal_pointer (&finish_reason);
  message->response_id = g_steal_pointer (&response_id);
  message->model = g_steal_pointer (&model);
  if (provider_data != NULL)
    agent_message_set_provider_data (message, provider_data);
  if (summary != NULL)
    {
      guint start, end;

      g_variant_get (summary, "(uu)", &start, &end);
      _agent_message_set_summary (message, start, end);
    }
  if (prompt >= 0 || completion >= 0 || total >= 0)
    {
      g_autoptr(AgentUsage) usage = agent_usage_new (prompt, completion, total);

      message->usage = g_steal_pointer (&usage);
    }

  return g_steal_pointer (&message);
}
