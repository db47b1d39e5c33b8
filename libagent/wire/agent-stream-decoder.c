/* agent-stream-decoder.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "json/agent-json-private.h"
#include "wire/agent-ndjson-private.h"
#include "wire/agent-sse-parser-private.h"
#include "wire/agent-stream-decoder-private.h"
#include "wire/agent-wire-util-private.h"

struct _AgentStreamDecoder
{
  const AgentStreamFormat    *format;
  AgentAccumulator           *accumulator;
  gpointer                    decoder;
  AgentSseParser             *sse;
  AgentNdjsonSplitter        *ndjson;
  guint64                     n_events;
  char                       *first_type;   /* the first event's SSE type, if any, as
                                             * valid UTF-8 to quote */
  guint                       done : 1;
  guint                       failed : 1;
  guint                       cut_off : 1;   /* the body ended inside an event */
};

/* A stream that ended without one event of the API: however it ended
 * (an end marker alone, another API's events, cut), it holds no answer,
 * and that is what the error says (not that it ended too soon). */
static gboolean
check_saw_event (AgentStreamDecoder  *self,
                 GError             **error)
{
  if (self->format->saw_event (self->decoder))
    return TRUE;

  if (self->first_type != NULL)
    g_set_error (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                 _("The stream ended without any event of the %s API (its first was “%s”): "
                   "the server may speak another one"),
                 _(self->format->display_name), self->first_type);
  else
    g_set_error (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                 _("The stream ended without any event of the %s API: the server may speak "
                   "another one"),
                 _(self->format->display_name));
  return FALSE;
}

/* An event the backend could not read, before any event of its API: the
 * stream may be another API's, and the error says so */
static void
explain_first_failure (AgentStreamDecoder  *self,
                       GError             **error)
{
  char *message;

  if (error == NULL || *error == NULL || !g_error_matches (*error, AGENT_ERROR, AGENT_ERROR_PROTOCOL) ||
      self->format->saw_event (self->decoder))
    return;

  message = g_strdup_printf (_("%s (no event of the %s API came before it: the server may "
                               "speak another one)"),
                             (*error)->message, _(self->format->display_name));
  g_free ((*error)->message);
  (*error)->message = message;
}

static gboolean
decode (AgentStreamDecoder  *self,
        const char          *event_type,
        const char          *data,
        gsize                len,
        GError             **error)
{
  gboolean done = FALSE;
  GError *bound;

  /* After the end marker, anything more is ignored. */
  if (self->done)
    return TRUE;

  self->n_events++;
  if (self->n_events == 1 && event_type != NULL && strcmp (event_type, "message") != 0)
    self->first_type = agent_excerpt (event_type, strlen (event_type), 64, NULL);

  if (!self->format->decode (self->decoder, event_type, data, len, &done, error))
    {
      explain_first_failure (self, error);
      return FALSE;
    }

  if G_UNLIKELY ((bound = agent_accumulator_take_error (self->accumulator)) != NULL)
    {
      g_propagate_error (error, bound);
      return FALSE;
    }

  if (done)
    {
      if (!check_saw_event (self, error))
        return FALSE;
      self->done = TRUE;
    }

  return TRUE;
}

static gboolean
sse_event_cb (const AgentSseEvent  *event,
              gpointer              user_data,
              GError              **error)
{
  return decode (user_data, event->type, event->data, event->data_len, error);
}

static gboolean
ndjson_line_cb (const char  *line,
                gsize        len,
                gpointer     user_data,
                GError     **error)
{
  return decode (user_data, NULL, line, len, error);
}

AgentStreamDecoder *
agent_stream_decoder_new (const AgentStreamFormat    *format,
                          AgentAccumulator           *accumulator,
                          const char * const         *secrets)
{
  AgentStreamDecoder *self = g_new0 (AgentStreamDecoder, 1);

  self->format = format;
  self->accumulator = accumulator;
  self->decoder = format->decoder_new (accumulator, secrets);

  if (format->framing == AGENT_FRAMING_SSE)
    self->sse = agent_sse_parser_new (sse_event_cb, self);
  else
    self->ndjson = agent_ndjson_splitter_new (ndjson_line_cb, self);

  return self;
}

void
agent_stream_decoder_free (AgentStreamDecoder *self)
{
  if (self == NULL)
    return;

  g_clear_pointer (&self->sse, agent_sse_parser_free);
  g_clear_pointer (&self->ndjson, agent_ndjson_splitter_free);
  self->format->decoder_free (self->decoder);
  g_free (self->first_type);
  g_free (self);
}

gboolean
agent_stream_decoder_feed (AgentStreamDecoder  *self,
                           const char          *data,
                           gsize                len,
                           GError             **error)
{
  gboolean ret;

  if (self->done)
    return TRUE;

  if (self->failed)
    {
      g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                           _("The stream already failed"));
      return FALSE;
    }

  if (self->sse != NULL)
    ret = agent_sse_parser_feed (self->sse, data, len, error);
  else
    ret = agent_ndjson_splitter_feed (self->ndjson, data, len, error);

  if (!ret)
    self->failed = TRUE;

  return ret;
}

/* The body ended. Returns TRUE if the answer is whole. */
gboolean
agent_stream_decoder_finish (AgentStreamDecoder  *self,
                             GError             **error)
{
  gboolean cut_off = FALSE;
  gboolean complete;

  if (self->failed)
    {
      g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                           _("The stream already failed"));
      return FALSE;
    }

  if (!self->done)
    {
      if (self->sse != NULL)
        {
          if (!agent_sse_parser_finish (self->sse, error))
            return FALSE;
          cut_off = agent_sse_parser_had_partial_event (self->sse);
          self->cut_off = cut_off;
        }
      else if (!agent_ndjson_splitter_finish (self->ndjson, error))
        return FALSE;
    }

  agent_accumulator_finish (self->accumulator);

  /* Asked even when done: it may complete the message (usage, …). Events
   * that came, none of the API's: another API's stream, however it ended
   * (a body cut inside its very first event is said to be cut). */
  complete = self->format->is_complete != NULL && self->format->is_complete (self->decoder);
  if (complete || self->done ||
      (!self->format->saw_event (self->decoder) && (self->n_events > 0 || !cut_off)))
    return check_saw_event (self, error);

  if (cut_off)
    g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                         _("The stream ended in the middle of an event, before the answer was complete"));
  else
    g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                         _("The stream ended before the answer was complete"));
  return FALSE;
}

gboolean
agent_stream_decoder_is_done (AgentStreamDecoder *self)
{
  return self->done;
}

/* After agent_stream_decoder_finish(): whether the body ended inside an
 * event (one of the API's framing, if not of its content). */
gboolean
agent_stream_decoder_was_cut_off (AgentStreamDecoder *self)
{
  return self->cut_off;
}

guint64
agent_stream_decoder_get_n_events (AgentStreamDecoder *self)
{
  return self->n_events;
}

gpointer
agent_stream_decoder_get_provider_decoder (AgentStreamDecoder *self)
{
  return self->decoder;
}

gboolean
agent_stream_event_too_deep (const GError  *parse_error,
                             GError       **error)
{
  if (!_agent_json_error_is_too_deep (parse_error))
    return FALSE;

  g_set_error (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL,
               _("The server sent an event that cannot be read: %s"), parse_error->message);
  return TRUE;
}
