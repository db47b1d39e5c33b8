/* agent-sse-parser.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "agent-string-private.h"
#include "wire/agent-wire-util-private.h"
#include "wire/agent-sse-parser-private.h"

/*
 * The parser works on lines. A line that lies wholly inside the piece being
 * fed is handled in place; only the unfinished tail of a piece is copied, into
 * @line, and the next piece completes it. Line ends are found with memchr():
 * the next LF and the next CR of the piece are each searched for once and
 * remembered until the parser moves past them, so every byte is looked at a
 * bounded number of times however the stream is cut.
 *
 * Memory is bounded by the limit: @line never holds more than max_size bytes,
 * and @data plus @event_type never more than max_size bytes either.
 */

/* Buffers grown past this are given back to the allocator on reset. */
#define KEEP_BUFFER_SIZE (64 * 1024)

static const char bom[] = "\xEF\xBB\xBF";

struct _AgentSseParser
{
  AgentSseEventFunc  func;
  gpointer           user_data;

  /* The start of a line whose end has not arrived yet. */
  GString           *line;

  /* The data, event type and last event ID buffers of the spec. */
  GString           *data;
  GString           *event_type;
  GString           *last_event_id;

  gsize              max_size;
  gint64             retry;

  /* How many bytes of a byte order mark began the stream so far. */
  guint              bom_matched : 2;
  /* Nothing but a part of a byte order mark arrived yet. */
  guint              at_start : 1;
  /* The last piece ended in CR: a LF starting the next one ends no line. */
  guint              skip_lf : 1;
  /* A limit was exceeded or the callback failed. */
  guint              failed : 1;
  /* The stream finished in the middle of an event. */
  guint              partial : 1;
};

static inline void
string_clear (GString *string)
{
  string->len = 0;
  string->str[0] = '\0';
}

static void
shrink_string (GString **string)
{
  if ((*string)->allocated_len > KEEP_BUFFER_SIZE)
    {
      g_string_free (*string, TRUE);
      *string = g_string_new (NULL);
    }
  else
    {
      string_clear (*string);
    }
}

static gboolean
set_too_large_error (AgentSseParser  *self,
                     gboolean         is_line,
                     GError         **error)
{
  g_autofree char *limit = agent_wire_format_limit (self->max_size);

  if (is_line)
    g_set_error (error,
                 AGENT_ERROR,
                 AGENT_ERROR_LIMIT,
                 _("A line of the event stream is longer than %s"),
                 limit);
  else
    g_set_error (error,
                 AGENT_ERROR,
                 AGENT_ERROR_LIMIT,
                 _("An event of the event stream is larger than %s"),
                 limit);

  self->failed = TRUE;

  return FALSE;
}

static gboolean
set_failed_error (GError **error)
{
  g_set_error_literal (error,
                       AGENT_ERROR,
                       AGENT_ERROR_PROTOCOL,
                       _("The event stream cannot be parsed further after an error"));
  return FALSE;
}

static gboolean
agent_sse_parser_dispatch (AgentSseParser  *self,
                           GError         **error)
{
  AgentSseEvent event;
  gboolean ret;

  if (self->data->len == 0)
    {
      string_clear (self->event_type);
      return TRUE;
    }

  /* Every data line appended a LF: drop the last one. */
  self->data->len--;
  self->data->str[self->data->len] = '\0';

  event.type = self->event_type->len > 0 ? self->event_type->str : "message";
  event.data = self->data->str;
  event.data_len = self->data->len;
  event.last_event_id = self->last_event_id->str;

  ret = self->func (&event, self->user_data, error);

  string_clear (self->data);
  string_clear (self->event_type);

  return ret;
}

static void
agent_sse_parser_set_retry (AgentSseParser *self,
                            const char     *value,
                            gsize           value_len)
{
  gint64 retry = 0;

  if (value_len == 0)
    return;

  for (gsize i = 0; i < value_len; i++)
    {
      int digit = value[i] - '0';

      if (digit < 0 || digit > 9)
        return;

      if (retry > (G_MAXINT64 - digit) / 10)
        retry = G_MAXINT64;
      else
        retry = retry * 10 + digit;
    }

  self->retry = retry;
}

/* Interprets one line, without its line ending. @line is not NUL-terminated. */
static inline gboolean
agent_sse_parser_process_line (AgentSseParser  *self,
                               const char      *line,
                               gsize            len,
                               GError         **error)
{
  const char *value;
  gsize name_len;
  gsize value_len;

  if (len == 0)
    return agent_sse_parser_dispatch (self, error);

  if (len >= 5 && memcmp (line, "data:", 5) == 0)
    {
      /* The line nearly every event is made of: skip the generic path. */
      name_len = 4;
      value = line + 5;
      value_len = len - 5;
    }
  else
    {
      const char *colon;

      if (line[0] == ':')
        return TRUE;

      colon = memchr (line, ':', len);

      if (colon != NULL)
        {
          name_len = colon - line;
          value = colon + 1;
          value_len = len - name_len - 1;
        }
      else
        {
          name_len = len;
          value = "";
          value_len = 0;
        }
    }

  if (value_len > 0 && value[0] == ' ')
    {
      value++;
      value_len--;
    }

  if (name_len == 4 && memcmp (line, "data", 4) == 0)
    {
      if (self->data->len + self->event_type->len + value_len + 1 > self->max_size)
        return set_too_large_error (self, FALSE, error);

      _agent_string_append_len (self->data, value, value_len);
      g_string_append_c (self->data, '\n');
    }
  else if (name_len == 5 && memcmp (line, "event", 5) == 0)
    {
      if (self->data->len + value_len > self->max_size)
        return set_too_large_error (self, FALSE, error);

      string_clear (self->event_type);
      g_string_append_len (self->event_type, value, value_len);
    }
  else if (name_len == 2 && memcmp (line, "id", 2) == 0)
    {
      if (memchr (value, '\0', value_len) == NULL)
        {
          string_clear (self->last_event_id);
          g_string_append_len (self->last_event_id, value, value_len);
        }
    }
  else if (name_len == 5 && memcmp (line, "retry", 5) == 0)
    {
      agent_sse_parser_set_retry (self, value, value_len);
    }

  /* Any other field is ignored. */

  return TRUE;
}

/**
 * agent_sse_parser_new:
 * @func: the function called for each event
 * @user_data: data for @func
 *
 * Creates a parser for one event stream. @func must not feed, reset or free
 * the parser.
 *
 * Returns: (transfer full): a new parser
 */
AgentSseParser *
agent_sse_parser_new (AgentSseEventFunc func,
                      gpointer          user_data)
{
  AgentSseParser *self;

  g_return_val_if_fail (func != NULL, NULL);

  self = g_new0 (AgentSseParser, 1);
  self->func = func;
  self->user_data = user_data;
  self->line = g_string_new (NULL);
  self->data = g_string_sized_new (256);
  self->event_type = g_string_new (NULL);
  self->last_event_id = g_string_new (NULL);
  self->max_size = AGENT_SSE_DEFAULT_MAX_SIZE;
  self->retry = -1;
  self->at_start = TRUE;

  return self;
}

void
agent_sse_parser_free (AgentSseParser *self)
{
  if (self == NULL)
    return;

  g_string_free (self->line, TRUE);
  g_string_free (self->data, TRUE);
  g_string_free (self->event_type, TRUE);
  g_string_free (self->last_event_id, TRUE);
  g_free (self);
}

/**
 * agent_sse_parser_set_max_size:
 * @self: a parser
 * @max_size: the longest line, and the largest event, in bytes
 *
 * Sets the limit beyond which the stream is refused with
 * %AGENT_ERROR_LIMIT: a line (without its line ending) longer than
 * @max_size, or an event whose data lines and event type, together, take
 * more than @max_size bytes (each data line counting one byte for its LF).
 *
 * The default is %AGENT_SSE_DEFAULT_MAX_SIZE.
 */
void
agent_sse_parser_set_max_size (AgentSseParser *self,
                               gsize           max_size)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (max_size > 0);

  self->max_size = max_size;
}

/**
 * agent_sse_parser_feed:
 * @self: a parser
 * @data: (array length=len): the next bytes of the stream
 * @len: the length of @data
 * @error: return location for a [struct@GLib.Error]
 *
 * Parses the next bytes of the stream, calling the event function for each
 * event they complete.
 *
 * Fails with %AGENT_ERROR_LIMIT when a limit is exceeded, or with the
 * error of the event function when it fails. After a failure the parser
 * refuses any further input until it is reset.
 *
 * Returns: %TRUE if the bytes were parsed
 */
gboolean
agent_sse_parser_feed (AgentSseParser  *self,
                       const char      *data,
                       gsize            len,
                       GError         **error)
{
  const char *p;
  const char *end;
  const char *next_lf = NULL;
  const char *next_cr = NULL;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (data != NULL || len == 0, FALSE);

  if G_UNLIKELY (self->failed)
    return set_failed_error (error);

  if (len == 0)
    return TRUE;

  p = data;
  end = data + len;

  if G_UNLIKELY (self->at_start)
    {
      while (p < end && self->bom_matched < 3 && *p == bom[self->bom_matched])
        {
          self->bom_matched++;
          p++;
        }

      if (self->bom_matched < 3)
        {
          /* Maybe the rest of the byte order mark comes with the next piece. */
          if (p == end)
            return TRUE;

          /* It was not one: the bytes taken for it begin the first line. */
          g_string_append_len (self->line, bom, self->bom_matched);
        }

      self->at_start = FALSE;
    }

  if (self->skip_lf)
    {
      self->skip_lf = FALSE;

      if (p < end && *p == '\n')
        p++;
    }

  while (p < end)
    {
      const char *eol;
      gboolean ret;

      if (next_lf == NULL || next_lf < p)
        {
          next_lf = memchr (p, '\n', end - p);
          if (next_lf == NULL)
            next_lf = end;
        }

      if (next_cr == NULL || next_cr < p)
        {
          next_cr = memchr (p, '\r', end - p);
          if (next_cr == NULL)
            next_cr = end;
        }

      eol = MIN (next_lf, next_cr);

      if (eol == end)
        {
          /* An unfinished line: keep it for the next piece. */
          if (self->line->len + (end - p) > self->max_size)
            return set_too_large_error (self, TRUE, error);

          _agent_string_append_len (self->line, p, end - p);
          break;
        }

      if G_LIKELY (self->line->len == 0)
        {
          if G_UNLIKELY ((gsize) (eol - p) > self->max_size)
            return set_too_large_error (self, TRUE, error);

          ret = agent_sse_parser_process_line (self, p, eol - p, error);
        }
      else
        {
          if (self->line->len + (eol - p) > self->max_size)
            return set_too_large_error (self, TRUE, error);

          _agent_string_append_len (self->line, p, eol - p);
          ret = agent_sse_parser_process_line (self, self->line->str, self->line->len, error);
          string_clear (self->line);
        }

      if G_UNLIKELY (!ret)
        {
          self->failed = TRUE;
          return FALSE;
        }

      p = eol + 1;

      if (*eol == '\r')
        {
          if (p == end)
            self->skip_lf = TRUE;
          else if (*p == '\n')
            p++;
        }
    }

  return TRUE;
}

/**
 * agent_sse_parser_finish:
 * @self: a parser
 * @error: return location for a [struct@GLib.Error]
 *
 * Ends the stream. As the specification requires, an event that is not
 * followed by a blank line, and a last line without a line ending, are
 * discarded; agent_sse_parser_had_partial_event() then returns %TRUE.
 *
 * Call agent_sse_parser_reset() before parsing another stream.
 *
 * Returns: %TRUE, or %FALSE if the parser failed before (or, with a limit
 *   below 3 bytes, if the stream is the start of a byte order mark)
 */
gboolean
agent_sse_parser_finish (AgentSseParser  *self,
                         GError         **error)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (self->failed)
    return set_failed_error (error);

  /* The start of a byte order mark that never finished is a line like any
   * other: one longer than the limit is refused. This only matters for a
   * limit below 3 bytes. */
  if G_UNLIKELY (self->at_start && self->bom_matched > self->max_size)
    return set_too_large_error (self, TRUE, error);

  if (self->line->len > 0 || self->data->len > 0 || (self->at_start && self->bom_matched > 0))
    self->partial = TRUE;

  string_clear (self->line);
  string_clear (self->data);
  string_clear (self->event_type);
  self->at_start = FALSE;
  self->skip_lf = FALSE;

  return TRUE;
}

/**
 * agent_sse_parser_get_retry:
 * @self: a parser
 *
 * Gets the reconnection time the stream asked for with a `retry` field.
 *
 * Returns: the time in milliseconds, or -1 if the stream did not set one
 */
gint64
agent_sse_parser_get_retry (AgentSseParser *self)
{
  g_return_val_if_fail (self != NULL, -1);

  return self->retry;
}

/**
 * agent_sse_parser_had_partial_event:
 * @self: a parser
 *
 * Checks whether the stream ended in the middle of an event: data lines not
 * followed by a blank line, or a last line without its line ending. Such a
 * stream was probably cut short.
 *
 * Before agent_sse_parser_finish(), tells whether that would be the case if
 * the stream ended now.
 *
 * Returns: %TRUE if an unfinished event was discarded
 */
gboolean
agent_sse_parser_had_partial_event (AgentSseParser *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return self->partial ||
         self->line->len > 0 ||
         self->data->len > 0 ||
         (self->at_start && self->bom_matched > 0);
}

/**
 * agent_sse_parser_reset:
 * @self: a parser
 *
 * Returns @self to the state it had when created, ready for a new stream.
 * The event function and the limit are kept.
 */
void
agent_sse_parser_reset (AgentSseParser *self)
{
  g_return_if_fail (self != NULL);

  shrink_string (&self->line);
  shrink_string (&self->data);
  shrink_string (&self->event_type);
  shrink_string (&self->last_event_id);

  self->retry = -1;
  self->bom_matched = 0;
  self->at_start = TRUE;
  self->skip_lf = FALSE;
  self->failed = FALSE;
  self->partial = FALSE;
}
