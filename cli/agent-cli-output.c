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
  guint          objects : 1;       /* --schema: the answers are objects */
  GString       *held;              /* --schema, plain: the answer's text, not shown */
  guint          chunk_index;       /* the call whose fragments are being shown */
  CliOutputFailedFunc failed_func;
  gpointer       failed_data;
  int            write_errno;
  guint          write_failed : 1;  /* standard output could not be written to */
  GSource       *flush_source;      /* an idle writing what stdout's buffer holds */
  gint64         pending_since;     /* when it began to hold it (the main loop's time) */
};

/* Standard output is written once the main loop has handled what arrived
 * (all the deltas of one read of the stream: one write() for them, not one
 * each, which cost agent-cli a third of its CPU on a fast stream), and at
 * the latest this long after the first byte held */
#define MAX_HOLD_USEC (20 * G_TIME_SPAN_MILLISECOND)

/* Standard output failed and it was said; why it failed (errno) */
static gboolean failure_reported;
static int failure_errno;

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

  cli_output_flush (self);
  g_clear_object (&self->generator);
  g_string_free (self->line, TRUE);
  if (self->held != NULL)
    g_string_free (self->held, TRUE);
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

static void
write_failed (CliOutput *self)
{
  self->write_failed = TRUE;
  self->write_errno = errno != 0 ? errno : EIO;
  failure_errno = self->write_errno;
  if (self->failed_func != NULL)
    self->failed_func (self->failed_data);
}

/* Writes what standard output holds, now: before anything goes to
 * standard error or the terminal, so that they come in order */
void
cli_output_flush (CliOutput *self)
{
  if (self->flush_source != NULL)
    {
      g_source_destroy (self->flush_source);
      g_clear_pointer (&self->flush_source, g_source_unref);
    }
  if (self->write_failed)
    return;
  errno = 0;
  if (fflush (stdout) != 0)
    write_failed (self);
}

static gboolean
flush_cb (gpointer data)
{
  cli_output_flush (data);
  return G_SOURCE_REMOVE;
}

/* Standard error, once standard output's buffer is written */
static FILE *
to_stderr (CliOutput *self)
{
  cli_output_flush (self);
  return stderr;
}

/* Writes to standard output, soon (above). After a failure nothing more is
 * written: the run is ending. */
static void
put (CliOutput  *self,
     const char *text,
     gsize       len)
{
  if (self->write_failed || len == 0)
    return;

  errno = 0;
  if (fwrite (text, 1, len, stdout) != len)
    {
      write_failed (self);
      return;
    }
  /* The main loop's time, read once an iteration (no clock_gettime() a
   * delta): the bound matters when the stream keeps the loop busy */
  if (self->flush_source == NULL)
    {
      self->flush_source = g_idle_source_new ();
      g_source_set_priority (self->flush_source, G_PRIORITY_HIGH_IDLE);
      g_source_set_callback (self->flush_source, flush_cb, self, NULL);
      g_source_set_static_name (self->flush_source, "[agent-cli-flush]");
      g_source_attach (self->flush_source, NULL);
      self->pending_since = g_source_get_time (self->flush_source);
    }
  else if (g_source_get_time (self->flush_source) - self->pending_since >= MAX_HOLD_USEC)
    cli_output_flush (self);
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
  cli_output_flush (self);
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
        say_write_failed (errno != 0 ? errno : failure_errno);
      if (status == EXIT_SUCCESS)
        status = EXIT_FAILURE;
    }

  return status;
}

/* --json: one object per line */
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

/* A member of an event: a string, or null */
void
cli_output_add_string (JsonBuilder *builder,
                       const char  *name,
                       const char  *value)
{
  json_builder_set_member_name (builder, name);
  if (value != NULL)
    json_builder_add_string_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

/* The HTTP status of the answer that failed, when a server answered */
static void
add_http_status (JsonBuilder  *builder,
                 const GError *error)
{
  guint status = agent_error_get_http_status (error);

  if (status == 0)
    return;
  json_builder_set_member_name (builder, "http-status");
  json_builder_add_int_value (builder, status);
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
  cli_output_add_string (builder, "id", agent_tool_call_get_id (call));
  cli_output_add_string (builder, "name", agent_tool_call_get_name (call));
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
      fprintf (to_stderr (self), "%s\n", self->color ? RESET : "");
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
    fprintf (to_stderr (self), "%s%s%s\n", style, text, RESET);
  else
    fprintf (to_stderr (self), "%s\n", text);
}

void
cli_output_text_delta (CliOutput  *self,
                       const char *text)
{
  g_autofree char *shown = NULL;

  if (self->json)
    {
      JsonBuilder *builder = begin ("text-delta");

      cli_output_add_string (builder, "text", text);
      end (self, builder);
      return;
    }

  /* The object is printed whole, once checked */
  if (self->objects)
    {
      g_string_append (self->held, text);
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
  if (self->json || self->objects)
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

      cli_output_add_string (builder, "text", text);
      end (self, builder);
      return;
    }

  if (!self->in_reasoning)
    {
      end_text_line (self);
      fprintf (to_stderr (self), "%s", self->color ? DIM : "");
      self->in_reasoning = TRUE;
    }
  shown = cli_escape_for_terminal (text, TRUE);
  fputs (shown, to_stderr (self));
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
      cli_output_add_string (builder, "arguments-delta", arguments_delta);
      end (self, builder);
      return;
    }

  /* Fragments of parallel calls interleave: each run of one call's
   * fragments goes on its own line, headed by the call. */
  if (!self->chunks_started || self->chunk_index != agent_tool_call_get_index (call))
    {
      g_autofree char *name = cli_escape_for_terminal (agent_tool_call_get_name (call), FALSE);

      if (self->chunks_started)
        fputc ('\n', to_stderr (self));
      else
        end_text_line (self);
      fprintf (to_stderr (self), "%s", self->color ? DIM : "");
      fprintf (to_stderr (self), _("[tool call %u: %s] "), agent_tool_call_get_index (call),
               name[0] != '\0' ? name : "…");
      self->chunks_started = TRUE;
      self->chunk_index = agent_tool_call_get_index (call);
    }
  shown = cli_escape_for_terminal (arguments_delta, FALSE);
  fputs (shown, to_stderr (self));
}

void
cli_output_tool_call (CliOutput     *self,
                      AgentToolCall *call)
{
  if (self->json)
    {
      JsonBuilder *builder = begin ("tool-call");

      add_call (builder, call);
      cli_output_add_string (builder, "arguments", agent_tool_call_get_arguments (call));
      end (self, builder);
      return;
    }

  if (self->chunks_started)
    {
      fprintf (to_stderr (self), "%s\n", self->color ? RESET : "");
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
      cli_output_add_string (builder, "arguments", agent_tool_call_get_arguments (call));
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
      cli_output_add_string (builder, is_error ? "error" : "result", result);
      end (self, builder);
      return;
    }

  if (is_error)
    say (self, RED, "✗ %s: %s", agent_tool_call_get_name (call), result);
  else
    say (self, BOLD, "← %s: %s", agent_tool_call_get_name (call), result);
}

/* Why a call failed: --json only (plain output shows it with the result) */
void
cli_output_tool_failed (CliOutput     *self,
                        AgentToolCall *call,
                        const GError  *error)
{
  JsonBuilder *builder;

  if (!self->json)
    return;

  builder = begin ("tool-failed");
  add_call (builder, call);
  cli_output_add_string (builder, "code", agent_error_get_code (error));
  cli_output_add_string (builder, "message", error->message);
  end (self, builder);
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
      cli_output_add_string (builder, "code", agent_error_get_code (error));
      add_http_status (builder, error);
      cli_output_add_string (builder, "message", error->message);
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

      cli_output_add_string (builder, "finish-reason", agent_message_get_finish_reason (message));
      add_usage (builder, agent_message_get_usage (message));
      add_metrics (builder, agent_message_get_metrics (message));
      end (self, builder);
      return;
    }

  /* --schema: the text of a step that called tools is not the object */
  if (self->objects && agent_message_get_n_tool_calls (message) > 0 && self->held->len > 0)
    {
      say (self, DIM, "%s", self->held->str);
      g_string_truncate (self->held, 0);
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
      cli_output_add_string (builder, "text", text);
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
      cli_output_add_string (builder, "role", "assistant");
      cli_output_add_string (builder, "content", agent_message_get_content (message));
      if (agent_message_get_reasoning (message) != NULL)
        cli_output_add_string (builder, "reasoning", agent_message_get_reasoning (message));
      if (agent_message_get_refusal (message) != NULL)
        cli_output_add_string (builder, "refusal", agent_message_get_refusal (message));
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

      cli_output_add_string (builder, "code", agent_error_get_code (error));
      add_http_status (builder, error);
      cli_output_add_string (builder, "message", error->message);
      end (self, builder);
      return;
    }

  /* What the model answered instead of the object */
  if (self->objects && self->held->len > 0)
    {
      say (self, NULL, _("The answer, as it came:\n%s"), self->held->str);
      g_string_truncate (self->held, 0);
    }

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    say (self, NULL, _("Interrupted."));
  else if (g_error_matches (error, AGENT_ERROR, AGENT_ERROR_CONTEXT_LENGTH))
    /* The kind, as --json names it, and what the user can do */
    say (self, RED, _("Error (%s): %s\nStart a new conversation, or let agent-cli compact this "
                      "one (--compact auto)."),
         agent_error_get_code (error), error->message);
  else
    say (self, RED, _("Error: %s"), error->message);
}

/* Prints @error, which it takes; EXIT_FAILURE, to return */
int
cli_output_fail (CliOutput *self,
                 GError    *error)
{
  cli_output_error (self, error);
  g_error_free (error);
  return EXIT_FAILURE;
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
cli_output_session_notice (CliOutput  *self,
                           const char *code,
                           const char *message)
{
  if (self->json)
    {
      JsonBuilder *builder = begin ("notice");

      cli_output_add_string (builder, "code", code);
      cli_output_add_string (builder, "message", message);
      end (self, builder);
      return;
    }

  say (self, DIM, "%s", message);
}

JsonBuilder *
cli_output_begin_event (const char *type)
{
  return begin (type);
}

void
cli_output_end_event (CliOutput   *self,
                      JsonBuilder *builder)
{
  end (self, builder);
}

/* A file attached to the prompt: its name, type and size, never its bytes */
void
cli_output_attachment (CliOutput        *self,
                       AgentContentPart *part)
{
  const char *name = agent_content_part_get_name (part);
  const char *mime_type = agent_content_part_get_mime_type (part);
  gsize size = agent_content_part_get_size (part);

  if (self->json)
    {
      JsonBuilder *builder = begin ("attachment");

      cli_output_add_string (builder, "name", name);
      cli_output_add_string (builder, "mime_type", mime_type);
      json_builder_set_member_name (builder, "size");
      json_builder_add_int_value (builder, size);
      end (self, builder);
      return;
    }

  {
    g_autofree char *size_text = g_format_size (size);

    /* TRANSLATORS: a file attached to the prompt: its name, MIME type and size */
    say (self, DIM, _("Attached %s (%s, %s)"), name ? name : "", mime_type, size_text);
  }
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

/* The context policy compacted the conversation (agent-cli-context.c) */
void
cli_output_compacted (CliOutput    *self,
                      const char   *strategy,
                      guint         start,
                      guint         stop,
                      gint64        tokens_before,
                      gint64        tokens_after,
                      AgentMessage *summary)
{
  if (self->json)
    {
      JsonBuilder *builder = begin ("compacted");

      cli_output_add_string (builder, "strategy", strategy);
      json_builder_set_member_name (builder, "start");
      json_builder_add_int_value (builder, start);
      json_builder_set_member_name (builder, "end");
      json_builder_add_int_value (builder, stop);
      json_builder_set_member_name (builder, "tokens-before");
      json_builder_add_int_value (builder, tokens_before);
      json_builder_set_member_name (builder, "tokens-after");
      json_builder_add_int_value (builder, tokens_after);
      if (summary != NULL)
        cli_output_add_string (builder, "summary", agent_message_get_content (summary));
      end (self, builder);
      return;
    }

  {
    g_autofree char *before = g_strdup_printf ("%" G_GINT64_FORMAT, tokens_before);
    g_autofree char *after = g_strdup_printf ("%" G_GINT64_FORMAT, tokens_after);
    g_autofree char *text = NULL;

    /* Translators: the first %s is a strategy (summarize, keep-last,
     * trim-tool-results), the last two numbers of tokens */
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "Compacted the conversation (%s): %u message replaced, "
                                         "about %s tokens down to %s",
                                         "Compacted the conversation (%s): %u messages replaced, "
                                         "about %s tokens down to %s",
                                         stop - start),
                            strategy, stop - start, before, after);
    end_text_line (self);
    say (self, DIM, "%s", text);
  }
}

/* --schema: answers are objects. With --json, object-delta events as the
 * object arrives and an object event when it is whole; otherwise only the
 * whole object, as indented JSON on standard output. */
void
cli_output_set_objects (CliOutput *self,
                        gboolean   objects)
{
  self->objects = !!objects && !self->json;
  if (self->objects && self->held == NULL)
    self->held = g_string_new (NULL);
}

/* What changed since the line before (the session's object-delta): each
 * line carries its pieces of the object once, not the whole object again.
 * The changes are the session's own for the emission, shared with nothing
 * (json_node_copy() of the object would share its arrays and objects, and
 * the immutable builder would seal the session's live object with them). */
void
cli_output_object_delta (CliOutput *self,
                         JsonNode  *changes)
{
  JsonBuilder *builder;

  if (!self->json)
    return;

  builder = begin ("object-delta");
  json_builder_set_member_name (builder, "changes");
  json_builder_add_value (builder, json_node_ref (changes));
  end (self, builder);
}

void
cli_output_object (CliOutput *self,
                   JsonNode  *object)
{
  g_autofree char *text = NULL;

  if (self->json)
    {
      JsonBuilder *builder = begin ("object");

      /* The checked object, sealed already */
      json_builder_set_member_name (builder, "object");
      json_builder_add_value (builder, json_node_ref (object));
      end (self, builder);
      return;
    }

  if (self->held != NULL)
    g_string_truncate (self->held, 0);
  end_text_line (self);
  text = json_to_string (object, TRUE);
  /* On a terminal, what the model wrote cannot reach it raw */
  if (isatty (STDOUT_FILENO))
    {
      g_autofree char *shown = cli_escape_for_terminal (text, TRUE);

      put (self, shown, strlen (shown));
    }
  else
    {
      put (self, text, strlen (text));
    }
  put (self, "\n", 1);
}
