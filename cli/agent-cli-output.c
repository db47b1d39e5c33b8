/* agent-cli-output.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "agent-cli-output.h"

struct _CliOutput
{
  JsonGenerator *generator;
  GString       *line;
  guint          json : 1;
  guint          color : 1;
  guint          in_text : 1;       /* the last thing on stdout was answer text */
  guint          in_reasoning : 1;
  guint          chunks_started : 1;
  guint          chunk_index;       /* the call whose fragments are being shown */
  CliOutputFailedFunc failed_func;
  gpointer       failed_data;
  int            write_errno;
  guint          write_failed : 1;  /* standard output could not be written to */
};

/* Standard output failed and it was said */
static gboolean failure_reported;

#define DIM   "\033[2m"
#define BOLD  "\033[1m"
#define RED   "\033[31m"
#define RESET "\033[0m"

/* Whether @c, shown raw, could move the cursor, clear the line or reorder
 * the text: C0 and C1 controls, DEL, and the bidirectional overrides and
 * isolates. */
static gboolean
is_dangerous_char (gunichar c)
{
  return c < 0x20 || (c >= 0x7f && c <= 0x9f) ||
         (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

/* @text (written by a model, a tool or a server) made safe to show on a
 * terminal: the characters above escaped as \n, \t, \r or \u{…}, and
 * invalid UTF-8 as \x… bytes, so that it cannot set the window title,
 * clear the screen or reorder what the user reads. With @keep_lines,
 * line breaks and tabs stay as they are (the lines of an answer), and so
 * does the \r of a \r\n. */
char *
cli_escape_for_terminal (const char *text,
                         gboolean    keep_lines)
{
  GString *out = g_string_new (NULL);
  const char *p = text != NULL ? text : "";

  while (*p != '\0')
    {
      gunichar c = g_utf8_get_char_validated (p, -1);

      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          g_string_append_printf (out, "\\x%02x", (guchar) *p);
          p++;
          continue;
        }

      if (keep_lines && (c == '\n' || c == '\t' || (c == '\r' && p[1] == '\n')))
        g_string_append_c (out, (char) c);
      else if (c == '\n')
        g_string_append (out, "\\n");
      else if (c == '\r')
        g_string_append (out, "\\r");
      else if (c == '\t')
        g_string_append (out, "\\t");
      else if (is_dangerous_char (c))
        g_string_append_printf (out, "\\u{%x}", c);
      else
        g_string_append_len (out, p, g_utf8_next_char (p) - p);
      p = g_utf8_next_char (p);
    }

  return g_string_free (out, FALSE);
}

CliOutput *
cli_output_new (gboolean json)
{
  CliOutput *self = g_new0 (CliOutput, 1);

  self->json = !!json;
  self->color = isatty (STDERR_FILENO) && g_getenv ("NO_COLOR") == NULL;
  self->generator = json_generator_new ();
  self->line = g_string_new (NULL);

  return self;
}

void
cli_output_free (CliOutput *self)
{
  if (self == NULL)
    return;

  g_clear_object (&self->generator);
  g_string_free (self->line, TRUE);
  g_free (self);
}

void
cli_output_set_failed_func (CliOutput           *self,
                            CliOutputFailedFunc  func,
                            gpointer             user_data)
{
  self->failed_func = func;
  self->failed_data = user_data;
}

/* Writes to standard output, at once. After a failure nothing more is
 * written: the run is ending. */
static void
put (CliOutput  *self,
     const char *text,
     gsize       len)
{
  if (self->write_failed)
    return;

  errno = 0;
  if ((len > 0 && fwrite (text, 1, len, stdout) != len) || fflush (stdout) != 0)
    {
      self->write_failed = TRUE;
      self->write_errno = errno != 0 ? errno : EIO;
      if (self->failed_func != NULL)
        self->failed_func (self->failed_data);
    }
}

/* @error_number: errno, or 0 when it is not known */
static void
say_write_failed (int error_number)
{
  g_autofree char *message = error_number != 0
    ? g_strdup_printf (_("Could not write to standard output: %s"), g_strerror (error_number))
    : g_strdup (_("Could not write to standard output"));

  /* On standard error, also with --json: standard output is gone */
  g_printerr ("agent-cli: %s\n", message);
  failure_reported = TRUE;
}

/* If standard output failed, says so (once) and returns TRUE: the run
 * ends with an error. */
gboolean
cli_output_report_failure (CliOutput *self)
{
  if (!self->write_failed)
    return FALSE;

  if (!failure_reported)
    say_write_failed (self->write_errno);
  return TRUE;
}

/* The exit status of a run that would end with @status, once what is left
 * in standard output is written: a failure there is one of the run. */
int
cli_output_finish (int status)
{
  errno = 0;
  if (fflush (stdout) != 0 || ferror (stdout))
    {
      if (!failure_reported)
        say_write_failed (errno);
      if (status == EXIT_SUCCESS)
        status = EXIT_FAILURE;
    }

  return status;
}

/* --json: one object per line, flushed at once */
static void
emit (CliOutput   *self,
      JsonBuilder *builder)
{
  g_autoptr(JsonNode) root = json_builder_get_root (builder);

  g_string_truncate (self->line, 0);
  json_generator_set_root (self->generator, root);
  json_generator_to_gstring (self->generator, self->line);
  g_string_append_c (self->line, '\n');
  put (self, self->line->str, self->line->len);
}

static JsonBuilder *
begin (const char *type)
{
  JsonBuilder *builder = json_builder_new_immutable ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, type);
  return builder;
}

static void
add_string (JsonBuilder *builder,
            const char  *name,
            const char  *value)
{
  json_builder_set_member_name (builder, name);
  if (value != NULL)
    json_builder_add_string_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

/* Usage and metrics in the form the library writes them; null when absent */
static void
add_usage (JsonBuilder *builder,
           AgentUsage  *usage)
{
  json_builder_set_member_name (builder, "usage");
  if (usage != NULL)
    json_builder_add_value (builder, agent_usage_to_json (usage));
  else
    json_builder_add_null_value (builder);
}

static void
add_metrics (JsonBuilder  *builder,
             AgentMetrics *metrics)
{
  json_builder_set_member_name (builder, "metrics");
  if (metrics != NULL)
    json_builder_add_value (builder, agent_metrics_to_json (metrics));
  else
    json_builder_add_null_value (builder);
}

static void
add_call (JsonBuilder   *builder,
          AgentToolCall *call)
{
  add_string (builder, "id", agent_tool_call_get_id (call));
  add_string (builder, "name", agent_tool_call_get_name (call));
}

static void
end (CliOutput   *self,
     JsonBuilder *builder)
{
  json_builder_end_object (builder);
  emit (self, builder);
  g_object_unref (builder);
}

/* Plain output: the answer on stdout, everything else on stderr. */
static void
end_text_line (CliOutput *self)
{
  if (self->in_text)
    {
      put (self, "\n", 1);
      self->in_text = FALSE;
    }
  if (self->in_reasoning)
    {
      fprintf (stderr, "%s\n", self->color ? RESET : "");
      self->in_reasoning = FALSE;
    }
}

static void
say (CliOutput  *self,
     const char *style,
     const char *format,
     ...) G_GNUC_PRINTF (3, 4);

static void
say (CliOutput  *self,
     const char *style,
     const char *format,
     ...)
{
  g_autofree char *formatted = NULL;
  g_autofree char *text = NULL;
  va_list args;

  va_start (args, format);
  formatted = g_strdup_vprintf (format, args);
  va_end (args);
  /* It quotes what models, tools and servers wrote */
  text = cli_escape_for_terminal (formatted, TRUE);

  end_text_line (self);
  if (self->color && style != NULL)
    fprintf (stderr, "%s%s%s\n", style, text, RESET);
  else
    fprintf (stderr, "%s\n", text);
}

void
cli_output_text_delta (CliOutput  *self,
                       const char *text)
{
  g_autofree char *shown = NULL;

  if (self->json)
    {
      JsonBuilder *builder = begin ("text-delta");

      add_string (builder, "text", text);
      end (self, builder);
      return;
    }

  if (self->in_reasoning)
    end_text_line (self);
  shown = cli_escape_for_terminal (text, TRUE);
  put (self, shown, strlen (shown));
  if (text[0] != '\0')
    self->in_text = text[strlen (text) - 1] != '\n';
}

/* Another piece of the answer follows: a blank line before it, on a
 * terminal (--json carries the text as it came) */
void
cli_output_text_break (CliOutput *self)
{
  if (self->json)
    return;

  put (self, self->in_text ? "\n\n" : "\n", self->in_text ? 2 : 1);
  self->in_text = FALSE;
}

void
cli_output_reasoning_delta (CliOutput  *self,
                            const char *text)
{
  g_autofree char *shown = NULL;

  if (self->json)
    {
      JsonBuilder *builder = begin ("reasoning-delta");

      add_string (builder, "text", text);
      end (self, builder);
      return;
    }

  if (!self->in_reasoning)
    {
      end_text_line (self);
      fprintf (stderr, "%s", self->color ? DIM : "");
      self->in_reasoning = TRUE;
    }
  shown = cli_escape_for_terminal (text, TRUE);
  fputs (shown, stderr);
}

void
cli_output_tool_call_delta (CliOutput     *self,
                            AgentToolCall *call,
                            const char    *arguments_delta)
{
  g_autofree char *shown = NULL;

  if (self->json)
    {
      JsonBuilder *builder = begin ("tool-call-delta");

      json_builder_set_member_name (builder, "index");
      json_builder_add_int_value (builder, agent_tool_call_get_index (call));
      add_call (builder, call);
      add_string (builder, "arguments-delta", arguments_delta);
      end (self, builder);
      return;
    }

  /* Fragments of parallel calls interleave: each run of one call's
   * fragments goes on its own line, headed by the call. */
  if (!self->chunks_started || self->chunk_index != agent_tool_call_get_index (call))
    {
      g_autofree char *name = cli_escape_for_terminal (agent_tool_call_get_name (call), FALSE);

      if (self->chunks_started)
        fputc ('\n', stderr);
      else
        end_text_line (self);
      fprintf (stderr, "%s", self->color ? DIM : "");
      fprintf (stderr, _("[tool call %u: %s] "), agent_tool_call_get_index (call),
               name[0] != '\0' ? name : "…");
      self->chunks_started = TRUE;
      self->chunk_index = agent_tool_call_get_index (call);
    }
  shown = cli_escape_for_terminal (arguments_delta, FALSE);
  fputs (shown, stderr);
}

void
cli_output_tool_call (CliOutput     *self,
                      AgentToolCall *call)
{
  if (self->json)
    {
      JsonBuilder *builder = begin ("tool-call");

      add_call (builder, call);
      add_string (builder, "arguments", agent_tool_call_get_arguments (call));
      end (self, builder);
      return;
    }

  if (self->chunks_started)
    {
      fprintf (stderr, "%s\n", self->color ? RESET : "");
      self->chunks_started = FALSE;
    }
}

void
cli_output_tool_started (CliOutput     *self,
                         AgentToolCall *call)
{
  if (self->json)
    {
      JsonBuilder *builder = begin ("tool-started");

      add_call (builder, call);
      add_string (builder, "arguments", agent_tool_call_get_arguments (call));
      end (self, builder);
      return;
    }

  say (self, BOLD, "→ %s %s",
       agent_tool_call_get_name (call) ? agent_tool_call_get_name (call) : "?",
       agent_tool_call_get_arguments (call));
}

void
cli_output_tool_finished (CliOutput     *self,
                          AgentToolCall *call)
{
  gboolean is_error = agent_tool_call_is_error (call);
  const char *result = agent_tool_call_get_result (call);

  if (self->json)
    {
      JsonBuilder *builder = begin ("tool-finished");

      add_call (builder, call);
      add_string (builder, is_error ? "error" : "result", result);
      end (self, builder);
      return;
    }

  if (is_error)
    say (self, RED, "✗ %s: %s", agent_tool_call_get_name (call), result);
  else
    say (self, BOLD, "← %s: %s", agent_tool_call_get_name (call), result);
}

void
cli_output_retry (CliOutput    *self,
                  guint         attempt,
                  double        delay,
                  const GError *error)
{
  if (self->json)
    {
      JsonBuilder *builder = begin ("retry");

      json_builder_set_member_name (builder, "attempt");
      json_builder_add_int_value (builder, attempt);
      /* Milliseconds: json-glib prints every digit of a double */
      json_builder_set_member_name (builder, "delay-ms");
      json_builder_add_int_value (builder, (gint64) (delay * 1000 + 0.5));
      add_string (builder, "code", agent_error_get_code (error));
      add_string (builder, "message", error->message);
      end (self, builder);
      return;
    }

  say (self, DIM, _("%s — trying again in %.1f s (attempt %u)"), error->message, delay, attempt);
}

void
cli_output_step_finished (CliOutput    *self,
                          AgentMessage *message)
{
  if (self->json)
    {
      JsonBuilder *builder = begin ("step-finished");

      add_string (builder, "finish-reason", agent_message_get_finish_reason (message));
      add_usage (builder, agent_message_get_usage (message));
      add_metrics (builder, agent_message_get_metrics (message));
      end (self, builder);
      return;
    }

  /* A step that only called tools printed no text; one that did ends its line. */
  end_text_line (self);
}

void
cli_output_tool_progress (CliOutput     *self,
                          AgentToolCall *call,
                          double         fraction,
                          const char    *text)
{
  if (self->json)
    {
      JsonBuilder *builder = begin ("tool-progress");

      add_call (builder, call);
      json_builder_set_member_name (builder, "fraction");
      if (fraction < 0)
        json_builder_add_null_value (builder);
      else
        json_builder_add_double_value (builder, fraction);
      add_string (builder, "text", text);
      end (self, builder);
      return;
    }

  if (fraction >= 0)
    say (self, DIM, "… %s: %.0f%% %s", agent_tool_call_get_name (call), fraction * 100,
         text ? text : "");
  else
    say (self, DIM, "… %s: %s", agent_tool_call_get_name (call), text ? text : "");
}

void
cli_output_done (CliOutput    *self,
                 AgentMessage *message,
                 AgentUsage   *usage,
                 AgentMetrics *metrics)
{
  if (self->json)
    {
      JsonBuilder *builder = begin ("done");

      json_builder_set_member_name (builder, "message");
      json_builder_begin_object (builder);
      add_string (builder, "role", "assistant");
      add_string (builder, "content", agent_message_get_content (message));
      if (agent_message_get_reasoning (message) != NULL)
        add_string (builder, "reasoning", agent_message_get_reasoning (message));
      if (agent_message_get_refusal (message) != NULL)
        add_string (builder, "refusal", agent_message_get_refusal (message));
      json_builder_end_object (builder);
      add_usage (builder, usage);
      add_metrics (builder, metrics);
      end (self, builder);
      return;
    }

  if (agent_message_get_refusal (message) != NULL)
    say (self, RED, _("The model refused: %s"), agent_message_get_refusal (message));
  end_text_line (self);
}

void
cli_output_error (CliOutput    *self,
                  const GError *error)
{
  if (self->json)
    {
      JsonBuilder *builder = begin ("error");

      add_string (builder, "code", agent_error_get_code (error));
      add_string (builder, "message", error->message);
      end (self, builder);
      return;
    }

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    say (self, NULL, _("Interrupted."));
  else
    say (self, RED, _("Error: %s"), error->message);
}

void
cli_output_notice (CliOutput  *self,
                   const char *text)
{
  if (self->json)
    return;

  say (self, DIM, "%s", text);
}

void
cli_output_models (CliOutput          *self,
                   const char * const *names)
{
  if (self->json)
    {
      JsonBuilder *builder = begin ("models");

      json_builder_set_member_name (builder, "models");
      json_builder_begin_array (builder);
      for (guint i = 0; names[i] != NULL; i++)
        json_builder_add_string_value (builder, names[i]);
      json_builder_end_array (builder);
      end (self, builder);
      return;
    }

  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autofree char *line = cli_escape_for_terminal (names[i], FALSE);

      put (self, line, strlen (line));
      put (self, "\n", 1);
    }
}
