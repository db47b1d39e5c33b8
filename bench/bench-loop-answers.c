/* bench-loop-answers.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <stdarg.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "bench-loop-answers.h"
#include "bench-workload.h"

static char *
step_expression (guint step)
{
  return g_strdup_printf ("%u * 7 + 1", step + 1);
}

static char *
step_result (guint step)
{
  return g_strdup_printf ("%u", (step + 1) * 7 + 1);
}

static void
add_event (GPtrArray *events,
           GString   *event)
{
  g_ptr_array_add (events, g_string_free_to_bytes (g_string_new_len (event->str, event->len)));
  g_string_truncate (event, 0);
}

GPtrArray *
bench_loop_answer_events (guint step,
                          guint n_steps,
                          guint serial)
{
  GPtrArray *events = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GString) event = g_string_new (NULL);

  if (step + 1 < n_steps)
    {
      g_autofree char *id = g_strdup_printf ("call_loop%u_%u", serial, step);
      g_autofree char *expression = step_expression (step);
      /* The arguments in token-sized pieces, as a model writes them */
      const char *head[] = { "{\"", "expression", "\":", " \"" };

      bench_format_tool_call_start_event (event, 0, id, BENCH_LOOP_TOOL);
      add_event (events, event);
      for (guint i = 0; i < G_N_ELEMENTS (head); i++)
        {
          bench_format_tool_call_arguments_event (event, 0, head[i]);
          add_event (events, event);
        }
      bench_format_tool_call_arguments_event (event, 0, expression);
      add_event (events, event);
      bench_format_tool_call_arguments_event (event, 0, "\"}");
      add_event (events, event);
      bench_format_finish_event (event, "tool_calls");
      add_event (events, event);
      bench_format_usage_event (event, 12, 0);
      add_event (events, event);
    }
  else
    {
      static const char * const tokens[] = {
        "The", " calculator", " gave", " the", " four", " results", " one", " after",
        " another", ";", " the", " loop", " is", " done", ".",
      };

      for (guint i = 0; i < G_N_ELEMENTS (tokens); i++)
        {
          bench_format_content_event (event, tokens[i]);
          add_event (events, event);
        }
      bench_format_finish_event (event, "stop");
      add_event (events, event);
      bench_format_usage_event (event, G_N_ELEMENTS (tokens), 0);
      add_event (events, event);
    }

  bench_format_done_event (event);
  add_event (events, event);

  return events;
}

/* json-glib 1.6 has no _with_default for these */
static JsonArray *
member_array (JsonObject *object,
              const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  return node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

static JsonObject *
member_object (JsonObject *object,
               const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

/* The text of a message's content: a string, or an array of text parts */
static char *
content_text (JsonObject *message)
{
  JsonNode *content = json_object_get_member (message, "content");
  GString *text;

  if (content == NULL || JSON_NODE_HOLDS_NULL (content))
    return NULL;
  if (JSON_NODE_HOLDS_VALUE (content) && json_node_get_value_type (content) == G_TYPE_STRING)
    return g_strdup (json_node_get_string (content));
  if (!JSON_NODE_HOLDS_ARRAY (content))
    return NULL;

  text = g_string_new (NULL);
  for (guint i = 0; i < json_array_get_length (json_node_get_array (content)); i++)
    {
      JsonNode *part = json_array_get_element (json_node_get_array (content), i);

      if (JSON_NODE_HOLDS_OBJECT (part) &&
          json_object_has_member (json_node_get_object (part), "text"))
        g_string_append (text, json_object_get_string_member_with_default (
                                 json_node_get_object (part), "text", ""));
    }

  return g_string_free (text, FALSE);
}

static void
add_problem (GPtrArray  *problems,
             const char *format,
             ...) G_GNUC_PRINTF (2, 3);

static void
add_problem (GPtrArray  *problems,
             const char *format,
             ...)
{
  va_list args;

  va_start (args, format);
  g_ptr_array_add (problems, g_strdup_vprintf (format, args));
  va_end (args);
}

guint
bench_loop_read_request (GBytes    *body,
                         guint      n_steps,
                         gboolean  *results_ok,
                         GPtrArray *problems)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *request;
  JsonArray *messages;
  JsonArray *tools;
  guint last_user = 0;
  guint step = 0;
  guint n_bad = 0;
  gboolean has_tool = FALSE;
  gsize len;
  const char *data = g_bytes_get_data (body, &len);

  if (!json_parser_load_from_data (parser, data, len, &error) ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      add_problem (problems, "request body: %s", error ? error->message : "not an object");
      return 0;
    }

  request = json_node_get_object (json_parser_get_root (parser));
  if (!json_object_get_boolean_member_with_default (request, "stream", FALSE))
    add_problem (problems, "a request without \"stream\": true");

  tools = member_array (request, "tools");
  for (guint i = 0; tools != NULL && i < json_array_get_length (tools); i++)
    {
      JsonNode *tool = json_array_get_element (tools, i);
      JsonObject *function;

      if (JSON_NODE_HOLDS_OBJECT (tool) &&
          (function = member_object (json_node_get_object (tool), "function")) &&
          g_strcmp0 (json_object_get_string_member_with_default (function, "name", NULL),
                     BENCH_LOOP_TOOL) == 0)
        has_tool = TRUE;
    }
  if (!has_tool)
    add_problem (problems, "a request without the %s tool", BENCH_LOOP_TOOL);

  messages = member_array (request, "messages");
  if (messages == NULL)
    {
      add_problem (problems, "a request without messages");
      return 0;
    }

  for (guint i = 0; i < json_array_get_length (messages); i++)
    {
      JsonNode *node = json_array_get_element (messages, i);

      if (JSON_NODE_HOLDS_OBJECT (node) &&
          g_strcmp0 (json_object_get_string_member_with_default (json_node_get_object (node),
                                                                 "role", NULL), "user") == 0)
        last_user = i;
    }

  for (guint i = last_user + 1; i < json_array_get_length (messages); i++)
    {
      JsonNode *node = json_array_get_element (messages, i);
      g_autofree char *want = NULL;
      g_autofree char *got = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (node) ||
          g_strcmp0 (json_object_get_string_member_with_default (json_node_get_object (node),
                                                                 "role", NULL), "tool") != 0)
        continue;

      want = step_result (step);
      got = content_text (json_node_get_object (node));
      if (got == NULL || g_strcmp0 (g_strstrip (got), want) != 0)
        {
          add_problem (problems, "tool result %u is “%s”, not %s", step + 1,
                          got ? got : "(none)", want);
          n_bad++;
        }
      step++;
    }

  *results_ok = step > 0 && n_bad == 0;

  if (step >= n_steps)
    {
      add_problem (problems, "%u tool results in a loop of %u steps", step, n_steps);
      step = n_steps - 1;
    }

  return step;
}
