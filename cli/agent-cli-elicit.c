/* agent-cli-elicit.c — an MCP server asks the user, on the terminal
 *
 * When standard input and standard error are a terminal, a server's
 * request (AgentMcpClient::elicitation) is asked there, one at a time:
 * the server's name and message, then "Answer? [y/N/c]" (Enter or n
 * declines, c cancels), then one question per field of the form with its
 * type, default, choices by number and whether it is required; an answer
 * that does not fit is asked again with what is wrong. Enter keeps the
 * default, or leaves an optional field out. Ctrl-D cancels. A URL is
 * printed and opened only if the user says so.
 *
 * Without a terminal there is no one to ask: the request is declined.
 * With --json, an "mcp-elicitation" line says what was asked and the
 * action taken.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <gio/gunixinputstream.h>

#include "agent-cli-elicit.h"
#include "agent-cli-output.h"

typedef enum
{
  STAGE_CONFIRM,
  STAGE_FIELD,
} Stage;

struct _CliElicitor
{
  GQueue               queue;     /* of AgentMcpElicitation, the first being asked */
  GDataInputStream    *in;
  GCancellable        *reading;
  gboolean             json;
  Stage                stage;
  GPtrArray           *fields;    /* names of the form's fields */
  guint                field;
  JsonObject          *content;
};

static void ask_next (CliElicitor *self);
static void ask (CliElicitor *self);

CliElicitor *
cli_elicitor_new (gboolean json)
{
  CliElicitor *self = g_new0 (CliElicitor, 1);

  g_queue_init (&self->queue);
  self->json = json;
  if (isatty (STDIN_FILENO) && isatty (STDERR_FILENO))
    {
      g_autoptr(GInputStream) stream = g_unix_input_stream_new (STDIN_FILENO, FALSE);

      self->in = g_data_input_stream_new (stream);
    }
  return self;
}

void
cli_elicitor_free (CliElicitor *self)
{
  if (self == NULL)
    return;

  if (self->reading != NULL)
    g_cancellable_cancel (self->reading);
  g_clear_object (&self->reading);
  /* What is left unanswered is cancelled as its last reference goes */
  for (GList *l = self->queue.head; l != NULL; l = l->next)
    g_signal_handlers_disconnect_by_data (l->data, self);
  g_queue_clear_full (&self->queue, g_object_unref);
  g_clear_pointer (&self->fields, g_ptr_array_unref);
  g_clear_pointer (&self->content, json_object_unref);
  g_clear_object (&self->in);
  g_free (self);
}

static const char *
action_name (AgentMcpElicitationAction action)
{
  static const char * const names[] = { "accept", "decline", "cancel" };

  return names[action];
}

static void
print_event (CliElicitor               *self,
             AgentMcpElicitation       *request,
             AgentMcpElicitationAction  action)
{
  g_autoptr(JsonBuilder) builder = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *line = NULL;
  gboolean url = agent_mcp_elicitation_get_mode (request) == AGENT_MCP_ELICITATION_MODE_URL;

  if (!self->json)
    return;

  builder = json_builder_new_immutable ();
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, "mcp-elicitation");
  /* The server's name in "name", as in the other mcp-* lines; "server"
   * too, for the scripts that read it before */
  json_builder_set_member_name (builder, "name");
  json_builder_add_string_value (builder, agent_mcp_elicitation_get_server_name (request));
  json_builder_set_member_name (builder, "server");
  json_builder_add_string_value (builder, agent_mcp_elicitation_get_server_name (request));
  json_builder_set_member_name (builder, "mode");
  json_builder_add_string_value (builder, url ? "url" : "form");
  json_builder_set_member_name (builder, "message");
  json_builder_add_string_value (builder, agent_mcp_elicitation_get_message (request));
  if (url)
    {
      json_builder_set_member_name (builder, "url");
      json_builder_add_string_value (builder, agent_mcp_elicitation_get_url (request));
    }
  json_builder_set_member_name (builder, "action");
  json_builder_add_string_value (builder, action_name (action));
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  line = json_to_string (root, FALSE);
  printf ("%s\n", line);
  fflush (stdout);
}

static void
say (const char *format,
     ...) G_GNUC_PRINTF (1, 2);

static void
say (const char *format,
     ...)
{
  g_autofree char *text = NULL;
  va_list args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);

  /* After the answer's text that standard output still holds */
  fflush (stdout);
  fputs (text, stderr);
  fflush (stderr);
}

/* The request being asked is answered (or went away): the next one */
static void
finish (CliElicitor               *self,
        AgentMcpElicitationAction  action)
{
  g_autoptr(AgentMcpElicitation) request = g_queue_pop_head (&self->queue);

  g_signal_handlers_disconnect_by_data (request, self);
  g_clear_pointer (&self->fields, g_ptr_array_unref);
  g_clear_pointer (&self->content, json_object_unref);

  if (!agent_mcp_elicitation_get_answered (request))
    {
      if (action == AGENT_MCP_ELICITATION_ACTION_DECLINE)
        agent_mcp_elicitation_decline (request);
      else if (action == AGENT_MCP_ELICITATION_ACTION_CANCEL)
        agent_mcp_elicitation_cancel (request);
    }
  print_event (self, request, action);

  ask_next (self);
}

static JsonObject *
field_schema (CliElicitor *self,
              const char  *name)
{
  AgentMcpElicitation *request = g_queue_peek_head (&self->queue);
  JsonObject *schema = agent_mcp_elicitation_get_requested_schema (request);

  return json_object_get_object_member (json_object_get_object_member (schema, "properties"),
                                        name);
}

static gboolean
is_required (CliElicitor *self,
             const char  *name)
{
  AgentMcpElicitation *request = g_queue_peek_head (&self->queue);
  JsonObject *schema = agent_mcp_elicitation_get_requested_schema (request);
  JsonArray *required;

  if (!json_object_has_member (schema, "required"))
    return FALSE;
  required = json_object_get_array_member (schema, "required");
  for (guint i = 0; i < json_array_get_length (required); i++)
    if (g_strcmp0 (json_node_get_string (json_array_get_element (required, i)), name) == 0)
      return TRUE;
  return FALSE;
}

/* The choices of a field, as {const, title} pairs: (const, title, const,
 * title, …), or NULL if it has none */
static GPtrArray *
choices_of (JsonObject *field)
{
  GPtrArray *choices = NULL;
  JsonArray *array = NULL;
  JsonArray *names = NULL;

  if (g_strcmp0 (json_object_get_string_member_with_default (field, "type", ""), "array") == 0)
    field = json_object_get_object_member (field, "items");
  if (json_object_has_member (field, "enum"))
    {
      array = json_object_get_array_member (field, "enum");
      if (json_object_has_member (field, "enumNames"))
        names = json_object_get_array_member (field, "enumNames");
    }
  else if (json_object_has_member (field, "oneOf"))
    array = json_object_get_array_member (field, "oneOf");
  else if (json_object_has_member (field, "anyOf"))
    array = json_object_get_array_member (field, "anyOf");
  if (array == NULL)
    return NULL;

  choices = g_ptr_array_new ();
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      const char *value, *title;

      if (JSON_NODE_HOLDS_OBJECT (element))
        {
          value = json_object_get_string_member_with_default (json_node_get_object (element),
                                                              "const", "");
          title = json_object_get_string_member_with_default (json_node_get_object (element),
                                                              "title", value);
        }
      else
        {
          value = json_node_get_string (element);
          title = names && i < json_array_get_length (names) ?
                  json_array_get_string_element (names, i) : value;
        }
      g_ptr_array_add (choices, (gpointer) value);
      g_ptr_array_add (choices, (gpointer) title);
    }
  return choices;
}

/* A default as the user would type it: 3.14, not 3.1400000000000001 */
static char *
default_text (JsonNode *value)
{
  if (JSON_NODE_HOLDS_VALUE (value) && json_node_get_value_type (value) == G_TYPE_DOUBLE)
    {
      char text[G_ASCII_DTOSTR_BUF_SIZE];
      double number = json_node_get_double (value);

      g_ascii_formatd (text, sizeof text, "%.15g", number);
      if (g_ascii_strtod (text, NULL) != number)
        g_ascii_dtostr (text, sizeof text, number);
      return g_strdup (text);
    }
  return json_to_string (value, FALSE);
}

static void
ask_field (CliElicitor *self)
{
  const char *name = g_ptr_array_index (self->fields, self->field);
  JsonObject *field = field_schema (self, name);
  const char *type = json_object_get_string_member_with_default (field, "type", "string");
  const char *title = json_object_get_string_member_with_default (field, "title", name);
  const char *description = json_object_get_string_member_with_default (field, "description",
                                                                        NULL);
  g_autoptr(GPtrArray) choices = choices_of (field);
  g_autoptr(GString) question = g_string_new (NULL);
  g_autofree char *safe_title = cli_escape_for_terminal (title, FALSE);

  if (description != NULL)
    {
      g_autofree char *safe = cli_escape_for_terminal (description, FALSE);

      say ("  %s\n", safe);
    }
  for (guint i = 0; choices != NULL && i < choices->len; i += 2)
    {
      g_autofree char *safe = cli_escape_for_terminal (g_ptr_array_index (choices, i + 1), FALSE);

      say ("    %u) %s\n", i / 2 + 1, safe);
    }

  g_string_append (question, safe_title);
  if (choices != NULL)
    g_string_append (question, g_str_equal (type, "array") ?
                     /* Translators: how to answer a multi-select question */
                     _(" (numbers, separated by commas)") :
                     /* Translators: how to answer a single-select question */
                     _(" (a number)"));
  else if (g_str_equal (type, "boolean"))
    g_string_append (question, _(" (y/n)"));
  else if (g_str_equal (type, "integer"))
    g_string_append (question, _(" (an integer)"));
  else if (g_str_equal (type, "number"))
    g_string_append (question, _(" (a number)"));
  else if (json_object_has_member (field, "format"))
    g_string_append_printf (question, " (%s)", json_object_get_string_member (field, "format"));
  if (json_object_has_member (field, "default"))
    {
      g_autofree char *text = default_text (json_object_get_member (field, "default"));
      g_autofree char *safe = cli_escape_for_terminal (text, FALSE);

      /* Translators: the default of a field, kept when the user presses Enter */
      g_string_append_printf (question, _(" [default: %s]"), safe);
    }
  if (is_required (self, name))
    /* Translators: marks a field that must be answered */
    g_string_append (question, _(" (required)"));
  g_string_append (question, ": ");
  say ("%s", question->str);
}

/* The value of @line for @field, or NULL with the reason in @error */
static JsonNode *
parse_value (JsonObject  *field,
             const char  *line,
             GError     **error)
{
  const char *type = json_object_get_string_member_with_default (field, "type", "string");
  g_autoptr(GPtrArray) choices = choices_of (field);
  JsonNode *node = NULL;

  if (choices != NULL)
    {
      g_auto(GStrv) parts = g_str_equal (type, "array") ? g_strsplit (line, ",", -1)
                                                        : g_strsplit (line, "\n", 1);
      g_autoptr(JsonArray) array = json_array_new ();

      for (guint i = 0; parts[i] != NULL; i++)
        {
          const char *part = g_strstrip (parts[i]);
          guint64 number;
          const char *value = part;

          if (g_ascii_string_to_unsigned (part, 10, 1, choices->len / 2, &number, NULL))
            value = g_ptr_array_index (choices, 2 * (number - 1));
          if (*part != '\0')
            json_array_add_string_element (array, value);
        }
      if (g_str_equal (type, "array"))
        return json_node_init_array (json_node_alloc (), array);
      if (json_array_get_length (array) == 1)
        return json_node_init_string (json_node_alloc (),
                                      json_array_get_string_element (array, 0));
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("choose one number"));
      return NULL;
    }

  if (g_str_equal (type, "boolean"))
    {
      if (g_ascii_strcasecmp (line, "y") == 0 || g_ascii_strcasecmp (line, "yes") == 0 ||
          g_ascii_strcasecmp (line, "true") == 0)
        return json_node_init_boolean (json_node_alloc (), TRUE);
      if (g_ascii_strcasecmp (line, "n") == 0 || g_ascii_strcasecmp (line, "no") == 0 ||
          g_ascii_strcasecmp (line, "false") == 0)
        return json_node_init_boolean (json_node_alloc (), FALSE);
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("answer y or n"));
      return NULL;
    }

  if (g_str_equal (type, "integer"))
    {
      gint64 number;

      if (g_ascii_string_to_signed (line, 10, G_MININT64, G_MAXINT64, &number, NULL))
        return json_node_init_int (json_node_alloc (), number);
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("must be an integer"));
      return NULL;
    }

  if (g_str_equal (type, "number"))
    {
      char *end = NULL;
      double number = g_ascii_strtod (line, &end);

      if (end != line && *end == '\0')
        return json_node_init_double (json_node_alloc (), number);
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("must be a number"));
      return NULL;
    }

  node = json_node_init_string (json_node_alloc (), line);
  return node;
}

/* Checks the value of the current field with what was given before; the
 * fields still to come do not count yet */
static gboolean
check_field (CliElicitor  *self,
             const char   *name,
             GError      **error)
{
  AgentMcpElicitation *request = g_queue_peek_head (&self->queue);
  g_autofree char *prefix = g_strdup_printf (_("“%s”: %s"), name, "");
  g_autoptr(GError) local_error = NULL;

  if (agent_mcp_elicitation_validate (request, self->content, &local_error) ||
      !g_str_has_prefix (local_error->message, prefix))
    return TRUE;

  g_propagate_error (error, g_steal_pointer (&local_error));
  return FALSE;
}

static void
answer_field (CliElicitor *self,
              const char  *line)
{
  const char *name = g_ptr_array_index (self->fields, self->field);
  JsonObject *field = field_schema (self, name);
  g_autoptr(GError) error = NULL;
  JsonNode *value;

  if (*line == '\0')
    {
      if (json_object_has_member (field, "default"))
        json_object_set_member (self->content, name,
                                json_node_copy (json_object_get_member (field, "default")));
      else if (is_required (self, name))
        {
          say (_("  This field is required.\n"));
          ask_field (self);
          return;
        }
    }
  else if ((value = parse_value (field, line, &error)) == NULL)
    {
      say ("  %s\n", error->message);
      ask_field (self);
      return;
    }
  else
    {
      json_object_set_member (self->content, name, value);
      if (!check_field (self, name, &error))
        {
          json_object_remove_member (self->content, name);
          say ("  %s\n", error->message);
          ask_field (self);
          return;
        }
    }

  if (++self->field < self->fields->len)
    {
      ask_field (self);
      return;
    }

  /* All asked: what the server refuses to take is asked again */
  {
    AgentMcpElicitation *request = g_queue_peek_head (&self->queue);

    if (!agent_mcp_elicitation_accept (request, self->content, &error))
      {
        say ("  %s\n", error->message);
        self->field = 0;
        ask_field (self);
        return;
      }
    finish (self, AGENT_MCP_ELICITATION_ACTION_ACCEPT);
  }
}

static gboolean
has_display (void)
{
  return g_getenv ("DISPLAY") != NULL || g_getenv ("WAYLAND_DISPLAY") != NULL;
}

static void
answer_confirm (CliElicitor *self,
                const char  *line)
{
  AgentMcpElicitation *request = g_queue_peek_head (&self->queue);
  JsonObject *schema;
  g_autoptr(GList) names = NULL;

  if (g_ascii_strcasecmp (line, "c") == 0)
    {
      finish (self, AGENT_MCP_ELICITATION_ACTION_CANCEL);
      return;
    }
  if (g_ascii_strcasecmp (line, "y") != 0 && g_ascii_strcasecmp (line, "yes") != 0)
    {
      finish (self, AGENT_MCP_ELICITATION_ACTION_DECLINE);
      return;
    }

  if (agent_mcp_elicitation_get_mode (request) == AGENT_MCP_ELICITATION_MODE_URL)
    {
      g_autoptr(GError) error = NULL;

      if (has_display () &&
          !g_app_info_launch_default_for_uri (agent_mcp_elicitation_get_url (request), NULL,
                                              &error))
        say ("agent-cli: %s\n", error->message);
      agent_mcp_elicitation_accept (request, NULL, NULL);
      finish (self, AGENT_MCP_ELICITATION_ACTION_ACCEPT);
      return;
    }

  schema = agent_mcp_elicitation_get_requested_schema (request);
  names = json_object_get_members (json_object_get_object_member (schema, "properties"));
  self->fields = g_ptr_array_new_with_free_func (g_free);
  for (GList *l = names; l != NULL; l = l->next)
    g_ptr_array_add (self->fields, g_strdup (l->data));
  self->content = json_object_new ();
  self->field = 0;
  self->stage = STAGE_FIELD;

  if (self->fields->len == 0)
    answer_field (self, "");
  else
    ask_field (self);
}

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  CliElicitor *self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;

  line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (object), result, NULL,
                                                    &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;  /* the elicitor is gone */
  g_clear_object (&self->reading);

  /* The question was withdrawn meanwhile */
  if (g_queue_is_empty (&self->queue))
    return;

  /* Ctrl-D */
  if (line == NULL)
    {
      say ("\n");
      finish (self, AGENT_MCP_ELICITATION_ACTION_CANCEL);
      return;
    }

  g_strstrip (line);
  if (self->stage == STAGE_CONFIRM)
    answer_confirm (self, line);
  else
    answer_field (self, line);

  if (!g_queue_is_empty (&self->queue) && self->reading == NULL)
    {
      self->reading = g_cancellable_new ();
      g_data_input_stream_read_line_async (self->in, G_PRIORITY_DEFAULT, self->reading, read_cb,
                                           self);
    }
}

static void
ask (CliElicitor *self)
{
  AgentMcpElicitation *request = g_queue_peek_head (&self->queue);
  const char *name = agent_mcp_elicitation_get_server_name (request);
  g_autofree char *server = cli_escape_for_terminal (name, FALSE);
  g_autofree char *message = cli_escape_for_terminal (agent_mcp_elicitation_get_message (request),
                                                      FALSE);

  self->stage = STAGE_CONFIRM;
  say (_("The MCP server “%s” asks: %s\n"), server, message);
  if (agent_mcp_elicitation_get_mode (request) == AGENT_MCP_ELICITATION_MODE_URL)
    {
      g_autofree char *url = cli_escape_for_terminal (agent_mcp_elicitation_get_url (request),
                                                      FALSE);

      say (_("It asks you to open %s\n"), url);
      /* Translators: y opens the URL, Enter or n declines, c cancels */
      say ("%s", _("Open it? [y/N/c] "));
    }
  else
    /* Translators: y answers the questions, Enter or n declines, c cancels */
    say ("%s", _("Answer? [y/N/c] "));

  if (self->reading == NULL)
    {
      self->reading = g_cancellable_new ();
      g_data_input_stream_read_line_async (self->in, G_PRIORITY_DEFAULT, self->reading, read_cb,
                                           self);
    }
}

static void
closed_cb (AgentMcpElicitation *request,
           CliElicitor         *self)
{
  gboolean current = g_queue_peek_head (&self->queue) == request;
  const char *name = agent_mcp_elicitation_get_server_name (request);
  g_autofree char *server = cli_escape_for_terminal (name, FALSE);

  say (_("\nThe MCP server “%s” withdrew its question.\n"), server);
  /* The line being read, if any, answers the next question */
  if (current)
    finish (self, AGENT_MCP_ELICITATION_ACTION_CANCEL);
  else
    {
      g_signal_handlers_disconnect_by_data (request, self);
      g_queue_remove (&self->queue, request);
      g_object_unref (request);
    }
}

static void
ask_next (CliElicitor *self)
{
  if (!g_queue_is_empty (&self->queue))
    ask (self);
}

static void
elicitation_cb (AgentMcpClient      *client,
                AgentMcpElicitation *request,
                CliElicitor         *self)
{
  if (self->in == NULL)
    {
      agent_mcp_elicitation_decline (request);
      print_event (self, request, AGENT_MCP_ELICITATION_ACTION_DECLINE);
      if (!self->json)
        {
          g_autofree char *server = cli_escape_for_terminal (
            agent_mcp_elicitation_get_server_name (request), FALSE);

          say (_("The MCP server “%s” asked a question; without a terminal it was declined.\n"),
               server);
        }
      return;
    }

  g_signal_connect (request, "closed", G_CALLBACK (closed_cb), self);
  g_queue_push_tail (&self->queue, g_object_ref (request));
  if (self->queue.length == 1)
    ask (self);
}

void
cli_elicitor_attach (CliElicitor    *self,
                     AgentMcpClient *client)
{
  agent_mcp_client_set_handles_elicitation (client, TRUE);
  g_signal_connect (client, "elicitation", G_CALLBACK (elicitation_cb), self);
}
