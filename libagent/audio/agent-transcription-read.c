/* agent-transcription-read.c — a transcription's answer, as it arrives
 *
 * Asked to stream, a server that can (OpenAI's gpt-4o-transcribe) answers
 * with server-sent events: transcript.text.delta events, each a piece of
 * the text handed on at once, then a transcript.text.done with the whole
 * text. One that cannot answers whole, as it would unasked: JSON
 * ({"text", "language", "duration"}) or, in the text formats (text, srt,
 * vtt), the text itself. The answer's Content-Type tells which.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "audio/agent-transcription-private.h"
#include "json/agent-json-private.h"
#include "wire/agent-sse-parser-private.h"
#include "wire/agent-wire-util-private.h"

struct _AgentTranscriptRead
{
  AgentProvider            *provider;
  AgentTranscriptDeltaFunc  delta_func;
  gpointer                  delta_data;
  AgentSseParser           *sse;
  AgentJsonParser          *parser;
  GString                  *streamed;    /* the deltas so far */
  char                     *done_text;   /* transcript.text.done's */
  gboolean                  is_sse;
  gboolean                  sniffed;
};

/* Documented in agent-transcription-private.h */
AgentTranscriptRead *
_agent_transcript_read_new (AgentProvider            *provider,
                            AgentTranscriptDeltaFunc  delta_func,
                            gpointer                  delta_data)
{
  AgentTranscriptRead *self = g_new0 (AgentTranscriptRead, 1);

  self->provider = g_object_ref (provider);
  self->delta_func = delta_func;
  self->delta_data = delta_data;
  self->parser = agent_json_parser_new ();
  self->streamed = g_string_new (NULL);
  return self;
}

/* Documented in agent-transcription-private.h */
void
_agent_transcript_read_free (AgentTranscriptRead *self)
{
  g_clear_pointer (&self->sse, agent_sse_parser_free);
  g_clear_pointer (&self->parser, agent_json_parser_free);
  g_string_free (self->streamed, TRUE);
  g_free (self->done_text);
  g_object_unref (self->provider);
  g_free (self);
}

/* One event of a streamed transcription */
static gboolean
event_cb (const AgentSseEvent  *event,
          gpointer              user_data,
          GError              **error)
{
  AgentTranscriptRead *self = user_data;
  AgentJson root;
  AgentJson error_member;
  const char *type;

  if (event->data_len == 0 || strcmp (event->data, "[DONE]") == 0)
    return TRUE;
  if (!agent_json_parser_parse (self->parser, event->data, event->data_len, &root, NULL) ||
      !agent_json_is (&root, AGENT_JSON_OBJECT))
    {
      g_autofree char *cut = agent_excerpt (event->data, event->data_len, 80, NULL);

      g_set_error (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                   _("The server sent an event that is not a JSON object: “%s”"), cut);
      return FALSE;
    }

  error_member = agent_json_member (&root, "error");
  if (agent_json_exists (&error_member))
    {
      char **secrets = _agent_provider_dup_secrets (self->provider);

      g_propagate_error (error, _agent_provider_error_from_json_value (
                                  (const char * const *) secrets, AGENT_ERROR_PROVIDER,
                                  _("The server reported an error"), &root));
      _agent_secrets_free (secrets);
      return FALSE;
    }

  type = agent_json_member_string (&root, "type", NULL);
  if (g_strcmp0 (type, "transcript.text.delta") == 0)
    {
      const char *delta = agent_json_member_string (&root, "delta", NULL);

      if (delta != NULL && delta[0] != '\0')
        {
          g_string_append (self->streamed, delta);
          self->delta_func (delta, self->delta_data);
        }
    }
  else if (g_strcmp0 (type, "transcript.text.done") == 0)
    {
      g_free (self->done_text);
      self->done_text = g_strdup (agent_json_member_string (&root, "text", NULL));
    }
  return TRUE;
}

/* Documented in agent-transcription-private.h */
gboolean
_agent_transcript_read_chunk (const char    *content_type,
                              const guint8  *data,
                              gsize          len,
                              gpointer       user_data,
                              GError       **error)
{
  AgentTranscriptRead *self = user_data;

  if (!self->sniffed)
    {
      self->sniffed = TRUE;
      self->is_sse = content_type != NULL &&
                     g_ascii_strncasecmp (content_type, "text/event-stream", 17) == 0;
      if (self->is_sse)
        self->sse = agent_sse_parser_new (event_cb, self);
    }
  if (!self->is_sse)
    return TRUE;
  return agent_sse_parser_feed (self->sse, (const char *) data, len, error);
}

/* Documented in agent-transcription-private.h */
gboolean
_agent_transcript_read_end (AgentTranscriptRead  *self,
                            GError              **error)
{
  if (!self->is_sse)
    return TRUE;
  return agent_sse_parser_finish (self->sse, error);
}

/* Documented in agent-transcription-private.h */
gboolean
_agent_transcript_read_is_streamed (AgentTranscriptRead *self)
{
  return self->is_sse;
}

/* Documented in agent-transcription-private.h */
const char *
_agent_transcript_read_get_streamed (AgentTranscriptRead *self)
{
  return self->streamed->str;
}

/* Documented in agent-transcription-private.h */
char *
_agent_transcript_read_dup_text (AgentTranscriptRead *self)
{
  return g_strdup (self->done_text != NULL ? self->done_text : self->streamed->str);
}

/* Documented in agent-transcription-private.h */
gboolean
_agent_transcript_read_whole (AgentTranscriptRead  *self,
                              GBytes               *answer,
                              const char           *format,
                              char                **text,
                              char                **language,
                              double               *duration,
                              gboolean             *plain,
                              GError              **error)
{
  gsize len;
  const char *data = g_bytes_get_data (answer, &len);
  AgentJson root;
  AgentJson member;
  const char *json_text;

  *duration = 0;
  *plain = strcmp (format, "json") != 0 && strcmp (format, "verbose_json") != 0;
  if (*plain)
    {
      if (!g_utf8_validate (data, len, NULL))
        {
          g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                               _("The server's transcript is not UTF-8 text"));
          return FALSE;
        }
      *text = g_strndup (data, len);
      *language = NULL;
      return TRUE;
    }

  if (!agent_json_parser_parse (self->parser, data, len, &root, NULL) ||
      !agent_json_is (&root, AGENT_JSON_OBJECT) ||
      (json_text = agent_json_member_string (&root, "text", NULL)) == NULL)
    {
      g_autofree char *cut = agent_excerpt (data, len, 80, NULL);

      g_set_error (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                   _("The server's answer is not a transcript ({\"text\": …}): “%s”"), cut);
      return FALSE;
    }
  member = agent_json_member (&root, "duration");
  if (!agent_json_double (&member, duration) || *duration < 0)
    *duration = 0;
  *text = g_strdup (json_text);
  *language = g_strdup (agent_json_member_string (&root, "language", NULL));
  return TRUE;
}
