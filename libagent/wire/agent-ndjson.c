/* agent-ndjson.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "wire/agent-wire-util-private.h"
#include "wire/agent-ndjson-private.h"

/*
 * Each line is copied into @line before it is delivered, since the callback
 * is promised a NUL-terminated string and the fed bytes are not ours to
 * change. @line is reused, so no allocation happens once it has grown to the
 * longest line of the stream. Only the bytes of a new piece are searched for
 * a LF, never the pending ones again, which keeps one-byte pieces linear.
 */

struct _AgentNdjsonSplitter
{
  AgentNdjsonLineFunc  func;
  gpointer             user_data;

  /* The line being gathered, possibly still waiting for its LF. */
  GString             *line;

  gsize                max_line;

  /* A limit was exceeded or the callback failed. */
  guint                failed : 1;
};

static gboolean
set_too_long_error (AgentNdjsonSplitter  *self,
                    GError              **error)
{
  g_autofree char *limit = agent_wire_format_limit (self->max_line);

  g_set_error (error,
               AGENT_ERROR,
               AGENT_ERROR_LIMIT,
               _("A line of the JSON stream is longer than %s"),
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
                       _("The JSON stream cannot be split further after an error"));
  return FALSE;
}

/* Delivers the line gathered in @line, which lacks its LF, then empties it. */
static gboolean
agent_ndjson_splitter_deliver (AgentNdjsonSplitter  *self,
                               GError              **error)
{
  GString *line = self->line;
  gboolean ret;

  if (line->len > 0 && line->str[line->len - 1] == '\r')
    {
      line->len--;
      line->str[line->len] = '\0';
    }

  if (line->len == 0)
    return TRUE;

  if (line->len > self->max_line)
    return set_too_long_error (self, error);

  ret = self->func (line->str, line->len, self->user_data, error);

  line->len = 0;
  line->str[0] = '\0';

  if (!ret)
    self->failed = TRUE;

  return ret;
}

/**
 * agent_ndjson_splitter_new:
 * @func: the function called for each line
 * @user_data: data for @func
 *
 * Creates a splitter for one stream. @func must not feed or free the
 * splitter.
 *
 * Returns: (transfer full): a new splitter
 */
AgentNdjsonSplitter *
agent_ndjson_splitter_new (AgentNdjsonLineFunc func,
                           gpointer            user_data)
{
  AgentNdjsonSplitter *self;

  g_return_val_if_fail (func != NULL, NULL);

  self = g_new0 (AgentNdjsonSplitter, 1);
  self->func = func;
  self->user_data = user_data;
  self->line = g_string_sized_new (256);
  self->max_line = AGENT_NDJSON_DEFAULT_MAX_LINE;

  return self;
}

void
agent_ndjson_splitter_free (AgentNdjsonSplitter *self)
{
  if (self == NULL)
    return;

  g_string_free (self->line, TRUE);
  g_free (self);
}

/**
 * agent_ndjson_splitter_set_max_line:
 * @self: a splitter
 * @max_line: the longest line accepted, in bytes, without its line ending
 *
 * Sets the length beyond which a line is refused with %AGENT_ERROR_LIMIT.
 * The default is %AGENT_NDJSON_DEFAULT_MAX_LINE.
 */
void
agent_ndjson_splitter_set_max_line (AgentNdjsonSplitter *self,
                                    gsize                max_line)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (max_line > 0);

  self->max_line = max_line;
}

/**
 * agent_ndjson_splitter_feed:
 * @self: a splitter
 * @data: (array length=len): the next bytes of the stream
 * @len: the length of @data
 * @error: return location for a [struct@GLib.Error]
 *
 * Splits the next bytes of the stream, calling the line function for each
 * non-empty line they complete.
 *
 * Fails with %AGENT_ERROR_LIMIT when a line is too long, or with the error
 * of the line function when it fails. After a failure the splitter refuses
 * any further input.
 *
 * Returns: %TRUE if the bytes were split
 */
gboolean
agent_ndjson_splitter_feed (AgentNdjsonSplitter  *self,
                            const char           *data,
                            gsize                 len,
                            GError              **error)
{
  const char *p;
  const char *end;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (data != NULL || len == 0, FALSE);

  if G_UNLIKELY (self->failed)
    return set_failed_error (error);

  if (len == 0)
    return TRUE;

  p = data;
  end = data + len;

  while (p < end)
    {
      const char *lf = memchr (p, '\n', end - p);
      const char *eol = lf != NULL ? lf : end;

      /* One byte more than the limit may be a CR that the LF will remove. */
      if (self->line->len + (eol - p) > self->max_line + 1)
        return set_too_long_error (self, error);

      g_string_append_len (self->line, p, eol - p);

      if (lf == NULL)
        break;

      if (!agent_ndjson_splitter_deliver (self, error))
        return FALSE;

      p = lf + 1;
    }

  return TRUE;
}

/**
 * agent_ndjson_splitter_finish:
 * @self: a splitter
 * @error: return location for a [struct@GLib.Error]
 *
 * Ends the stream, delivering its last line if it lacked a newline.
 *
 * Returns: %TRUE, or %FALSE if the splitter or the line function failed
 */
gboolean
agent_ndjson_splitter_finish (AgentNdjsonSplitter  *self,
                              GError              **error)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (self->failed)
    return set_failed_error (error);

  return agent_ndjson_splitter_deliver (self, error);
}
