/* agent-mcp-elicitation-schema.c — the restricted schema of a form
 *
 * An elicitation in form mode describes what it asks for with a JSON
 * Schema restricted by the MCP specification (2025-11-25) to a flat object
 * of primitive fields:
 *
 *   string   minLength, maxLength, format (email, uri, date, date-time),
 *            and as a single-select enum: "enum" (with the legacy
 *            "enumNames" for titles) or "oneOf" of {const, title}
 *   number, integer   minimum, maximum
 *   boolean
 *   array    a multi-select enum: items {"enum": [...]} or items
 *            {"anyOf": [{const, title}, ...]}, minItems, maxItems
 *
 * and "required", the names that must be given. The schema is checked
 * when the request comes (a server that asks for something else is
 * refused with "invalid params"), the content the user gives before it
 * is sent (an error that names the field, for the user: translated).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "mcp/agent-mcp-private.h"

/* The schema */

static gboolean
has_member_of_type (JsonObject *object,
                    const char *member,
                    JsonNodeType type)
{
  JsonNode *node = json_object_get_member (object, member);

  return node != NULL && JSON_NODE_TYPE (node) == type;
}

static gboolean
is_number (JsonNode *node)
{
  GType type;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  type = json_node_get_value_type (node);
  return type == G_TYPE_INT64 || type == G_TYPE_DOUBLE;
}

/* The values of an "enum" or "oneOf"/"anyOf" list of {const, title}:
 * every one a string, or NULL when it is not a list of strings */
static GPtrArray *
choices_of (JsonObject *field)
{
  g_autoptr(GPtrArray) choices = g_ptr_array_new ();
  JsonArray *array = NULL;
  gboolean titled = FALSE;

  if (has_member_of_type (field, "enum", JSON_NODE_ARRAY))
    array = json_object_get_array_member (field, "enum");
  else if (has_member_of_type (field, "oneOf", JSON_NODE_ARRAY))
    array = json_object_get_array_member (field, "oneOf"), titled = TRUE;
  else if (has_member_of_type (field, "anyOf", JSON_NODE_ARRAY))
    array = json_object_get_array_member (field, "anyOf"), titled = TRUE;
  else
    return NULL;

  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);

      if (titled && JSON_NODE_HOLDS_OBJECT (element))
        element = json_object_get_member (json_node_get_object (element), "const");
      if (element == NULL || !JSON_NODE_HOLDS_VALUE (element) ||
          json_node_get_value_type (element) != G_TYPE_STRING)
        return NULL;
      g_ptr_array_add (choices, (gpointer) json_node_get_string (element));
    }

  return g_steal_pointer (&choices);
}

/* Sent to the server, in English as JSON-RPC errors are */
static GError *
schema_error (const char *name,
              const char *what)
{
  return g_error_new (AGENT_MCP_RPC_ERROR, AGENT_MCP_RPC_INVALID_PARAMS,
                      "The requested schema's field \"%s\" %s", name, what);
}

static GError *
check_field (const char *name,
             JsonNode   *node)
{
  JsonObject *field;
  const char *type;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return schema_error (name, "is not an object");
  field = json_node_get_object (node);
  type = _agent_mcp_string (field, "type");

  if (g_strcmp0 (type, "string") == 0)
    {
      const char *format = _agent_mcp_string (field, "format");
      g_autoptr(GPtrArray) choices = choices_of (field);

      if (format != NULL && !g_str_equal (format, "email") && !g_str_equal (format, "uri") &&
          !g_str_equal (format, "date") && !g_str_equal (format, "date-time"))
        return schema_error (name, "has a format that is not email, uri, date or date-time");
      if (choices == NULL && (json_object_has_member (field, "enum") ||
                              json_object_has_member (field, "oneOf")))
        return schema_error (name, "has choices that are not strings");
    }
  else if (g_strcmp0 (type, "number") == 0 || g_strcmp0 (type, "integer") == 0)
    {
      if ((json_object_has_member (field, "minimum") &&
           !is_number (json_object_get_member (field, "minimum"))) ||
          (json_object_has_member (field, "maximum") &&
           !is_number (json_object_get_member (field, "maximum"))))
        return schema_error (name, "has a minimum or maximum that is not a number");
    }
  else if (g_strcmp0 (type, "boolean") == 0)
    ;
  else if (g_strcmp0 (type, "array") == 0)
    {
      g_autoptr(GPtrArray) choices = NULL;

      if (has_member_of_type (field, "items", JSON_NODE_OBJECT))
        choices = choices_of (json_object_get_object_member (field, "items"));
      if (choices == NULL)
        return schema_error (name, "is a list without a list of choices");
    }
  else
    return schema_error (name, "is not a string, number, integer, boolean or list of choices");

  return NULL;
}

/* Whether @schema is one a form can ask: an object of primitive fields */
gboolean
_agent_mcp_elicitation_check_schema (JsonObject  *schema,
                                     GError     **error)
{
  JsonObject *properties;
  g_autoptr(GList) names = NULL;

  if (g_strcmp0 (_agent_mcp_string (schema, "type"), "object") != 0 ||
      !has_member_of_type (schema, "properties", JSON_NODE_OBJECT))
    {
      g_set_error (error, AGENT_MCP_RPC_ERROR, AGENT_MCP_RPC_INVALID_PARAMS,
                   "The requested schema is not an object with properties");
      return FALSE;
    }

  properties = json_object_get_object_member (schema, "properties");
  names = json_object_get_members (properties);
  for (GList *l = names; l != NULL; l = l->next)
    {
      GError *field_error = check_field (l->data, json_object_get_member (properties, l->data));

      if (field_error != NULL)
        {
          g_propagate_error (error, field_error);
          return FALSE;
        }
    }

  if (json_object_has_member (schema, "required") &&
      !has_member_of_type (schema, "required", JSON_NODE_ARRAY))
    {
      g_set_error (error, AGENT_MCP_RPC_ERROR, AGENT_MCP_RPC_INVALID_PARAMS,
                   "The requested schema's \"required\" is not a list");
      return FALSE;
    }

  return TRUE;
}

/* The content */

static gboolean
field_error (GError     **error,
             const char  *name,
             const char  *format,
             ...) G_GNUC_PRINTF (3, 4);

static gboolean
field_error (GError     **error,
             const char  *name,
             const char  *format,
             ...)
{
  g_autofree char *what = NULL;
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);

  /* Translators: the first %s is a field of a form, the second what is
   * wrong with its value */
  g_set_error (error, AGENT_ERROR, AGENT_ERROR_SCHEMA, _("“%s”: %s"), name, what);
  return FALSE;
}

static gboolean
is_email (const char *text)
{
  const char *at = strchr (text, '@');

  /* What a form can check: one "@" between a name and a domain with a
   * dot, nothing blank. Whether the address exists is the server's
   * business. */
  return at != NULL && at != text && strchr (at + 1, '@') == NULL &&
         strchr (at + 1, '.') != NULL && at[1] != '.' && text[strlen (text) - 1] != '.' &&
         strpbrk (text, " \t\r\n") == NULL;
}

static gboolean
is_date (const char *text)
{
  guint year, month, day;
  char end;

  return strlen (text) == 10 && text[4] == '-' && text[7] == '-' &&
         sscanf (text, "%4u-%2u-%2u%c", &year, &month, &day, &end) == 3 &&
         g_ascii_isdigit (text[0]) && g_ascii_isdigit (text[5]) && g_ascii_isdigit (text[8]) &&
         g_date_valid_dmy (day, month, year);
}

static gboolean
is_date_time (const char *text)
{
  /* RFC 3339: a date, "T", a time and an offset (no offset is refused) */
  g_autoptr(GDateTime) date_time = NULL;
  g_autofree char *date = NULL;

  if (strlen (text) < 20 || (text[10] != 'T' && text[10] != 't'))
    return FALSE;
  date = g_strndup (text, 10);
  if (!is_date (date))
    return FALSE;
  date_time = g_date_time_new_from_iso8601 (text, NULL);
  return date_time != NULL;
}

static gboolean
check_string (JsonObject  *field,
              const char  *name,
              const char  *value,
              GError     **error)
{
  const char *format = _agent_mcp_string (field, "format");
  g_autoptr(GPtrArray) choices = choices_of (field);
  glong length = g_utf8_strlen (value, -1);

  if (choices != NULL)
    {
      for (guint i = 0; i < choices->len; i++)
        if (g_str_equal (value, g_ptr_array_index (choices, i)))
          return TRUE;
      return field_error (error, name, _("“%s” is not one of the choices"), value);
    }

  if (json_object_has_member (field, "minLength") &&
      length < json_object_get_int_member (field, "minLength"))
    return field_error (error, name,
                        g_dngettext (GETTEXT_PACKAGE, "must be at least %d character long",
                                     "must be at least %d characters long",
                                     json_object_get_int_member (field, "minLength")),
                        (int) json_object_get_int_member (field, "minLength"));
  if (json_object_has_member (field, "maxLength") &&
      length > json_object_get_int_member (field, "maxLength"))
    return field_error (error, name,
                        g_dngettext (GETTEXT_PACKAGE, "must be at most %d character long",
                                     "must be at most %d characters long",
                                     json_object_get_int_member (field, "maxLength")),
                        (int) json_object_get_int_member (field, "maxLength"));

  if (g_strcmp0 (format, "email") == 0 && !is_email (value))
    return field_error (error, name, _("“%s” is not an email address"), value);
  if (g_strcmp0 (format, "uri") == 0 && !g_uri_is_valid (value, G_URI_FLAGS_NONE, NULL))
    return field_error (error, name, _("“%s” is not an absolute URI"), value);
  if (g_strcmp0 (format, "date") == 0 && !is_date (value))
    return field_error (error, name, _("“%s” is not a date (YYYY-MM-DD)"), value);
  if (g_strcmp0 (format, "date-time") == 0 && !is_date_time (value))
    return field_error (error, name,
                        _("“%s” is not a date and time with an offset "
                          "(YYYY-MM-DDTHH:MM:SSZ)"),
                        value);

  return TRUE;
}

static gboolean
check_number (JsonObject  *field,
              const char  *name,
              JsonNode    *value,
              gboolean     integer,
              GError     **error)
{
  double number;
  char text[G_ASCII_DTOSTR_BUF_SIZE];

  if (!is_number (value))
    return field_error (error, name, integer ? _("must be an integer") : _("must be a number"));

  number = json_node_get_double (value);
  if (integer && json_node_get_value_type (value) == G_TYPE_DOUBLE &&
      (number != floor (number) || !isfinite (number)))
    return field_error (error, name, _("must be an integer"));

  if (json_object_has_member (field, "minimum") &&
      number < json_object_get_double_member (field, "minimum"))
    return field_error (error, name, _("must be at least %s"),
                        g_ascii_formatd (text, sizeof text, "%g",
                                         json_object_get_double_member (field, "minimum")));
  if (json_object_has_member (field, "maximum") &&
      number > json_object_get_double_member (field, "maximum"))
    return field_error (error, name, _("must be at most %s"),
                        g_ascii_formatd (text, sizeof text, "%g",
                                         json_object_get_double_member (field, "maximum")));

  return TRUE;
}

static gboolean
check_choices (JsonObject  *field,
               const char  *name,
               JsonNode    *value,
               GError     **error)
{
  g_autoptr(GPtrArray) choices = choices_of (json_object_get_object_member (field, "items"));
  JsonArray *array;
  guint length;

  if (!JSON_NODE_HOLDS_ARRAY (value))
    return field_error (error, name, _("must be a list of choices"));

  array = json_node_get_array (value);
  length = json_array_get_length (array);
  for (guint i = 0; i < length; i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      const char *text;
      gboolean found = FALSE;

      if (!JSON_NODE_HOLDS_VALUE (element) ||
          json_node_get_value_type (element) != G_TYPE_STRING)
        return field_error (error, name, _("must be a list of choices"));
      text = json_node_get_string (element);
      for (guint j = 0; j < choices->len && !found; j++)
        found = g_str_equal (text, g_ptr_array_index (choices, j));
      if (!found)
        return field_error (error, name, _("“%s” is not one of the choices"), text);
      for (guint j = 0; j < i; j++)
        if (g_str_equal (text, json_array_get_string_element (array, j)))
          return field_error (error, name, _("“%s” is chosen twice"), text);
    }

  if (json_object_has_member (field, "minItems") &&
      length < json_object_get_int_member (field, "minItems"))
    return field_error (error, name,
                        g_dngettext (GETTEXT_PACKAGE, "needs at least %d choice",
                                     "needs at least %d choices",
                                     json_object_get_int_member (field, "minItems")),
                        (int) json_object_get_int_member (field, "minItems"));
  if (json_object_has_member (field, "maxItems") &&
      length > json_object_get_int_member (field, "maxItems"))
    return field_error (error, name,
                        g_dngettext (GETTEXT_PACKAGE, "takes at most %d choice",
                                     "takes at most %d choices",
                                     json_object_get_int_member (field, "maxItems")),
                        (int) json_object_get_int_member (field, "maxItems"));

  return TRUE;
}

static gboolean
check_value (JsonObject  *field,
             const char  *name,
             JsonNode    *value,
             GError     **error)
{
  const char *type = _agent_mcp_string (field, "type");

  if (g_str_equal (type, "string"))
    {
      if (!JSON_NODE_HOLDS_VALUE (value) || json_node_get_value_type (value) != G_TYPE_STRING)
        return field_error (error, name, _("must be text"));
      return check_string (field, name, json_node_get_string (value), error);
    }
  if (g_str_equal (type, "number") || g_str_equal (type, "integer"))
    return check_number (field, name, value, g_str_equal (type, "integer"), error);
  if (g_str_equal (type, "boolean"))
    {
      if (!JSON_NODE_HOLDS_VALUE (value) || json_node_get_value_type (value) != G_TYPE_BOOLEAN)
        return field_error (error, name, _("must be true or false"));
      return TRUE;
    }
  return check_choices (field, name, value, error);
}

/* Whether @content answers @schema, which _agent_mcp_elicitation_check_schema()
 * accepted */
gboolean
_agent_mcp_elicitation_check_content (JsonObject  *schema,
                                      JsonObject  *content,
                                      GError     **error)
{
  JsonObject *properties = json_object_get_object_member (schema, "properties");
  g_autoptr(GList) names = json_object_get_members (content);

  for (GList *l = names; l != NULL; l = l->next)
    {
      const char *name = l->data;
      JsonNode *field = json_object_get_member (properties, name);

      if (field == NULL)
        return field_error (error, name, _("is not asked for"));
      if (!check_value (json_node_get_object (field), name,
                        json_object_get_member (content, name), error))
        return FALSE;
    }

  if (json_object_has_member (schema, "required"))
    {
      JsonArray *required = json_object_get_array_member (schema, "required");

      for (guint i = 0; i < json_array_get_length (required); i++)
        {
          JsonNode *element = json_array_get_element (required, i);

          if (JSON_NODE_HOLDS_VALUE (element) &&
              json_node_get_value_type (element) == G_TYPE_STRING &&
              !json_object_has_member (content, json_node_get_string (element)))
            return field_error (error, json_node_get_string (element), _("is required"));
        }
    }

  return TRUE;
}
