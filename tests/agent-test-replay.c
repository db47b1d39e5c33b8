/* agent-test-replay.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agent-test-replay.h"

#include "transport/agent-provider-private.h"

static void
free_gstring (gpointer data)
{
  g_string_free (data, TRUE);
}

/* Records a text, reasoning or refusal delta: never empty, always
 * NUL-terminated and valid UTF-8. */
static void
record_delta (AgentTestReplay *self,
              const char      *what,
              GString         *into,
              guint           *count,
              const char      *text,
              gsize            len)
{
  if (len == 0)
    g_string_append_printf (self->problems, "\n  an empty %s delta was reported", what);
  if (text[len] != '\0')
    g_string_append_printf (self->problems, "\n  a %s delta is not NUL-terminated", what);
  if (!g_utf8_validate_len (text, len, NULL))
    g_string_append_printf (self->problems, "\n  a %s delta is not valid UTF-8", what);

  g_string_append_len (into, text, len);
  g_string_append_printf (self->log, "%s:%s\n", what, text);
  (*count)++;
}

static void
on_text (gpointer    user_data,
         const char *text,
         gsize       len)
{
  AgentTestReplay *self = user_data;

  record_delta (self, "text", self->text, &self->n_text, text, len);
}

static void
on_reasoning (gpointer    user_data,
              const char *text,
              gsize       len)
{
  AgentTestReplay *self = user_data;

  record_delta (self, "reasoning", self->reasoning, &self->n_reasoning, text, len);
}

static void
on_refusal (gpointer    user_data,
            const char *text,
            gsize       len)
{
  AgentTestReplay *self = user_data;

  record_delta (self, "refusal", self->refusal, &self->n_refusal, text, len);
}

/* Once known, a call's id and name never change (repeats are not appended). */
static void
check_id_and_name (AgentTestReplay *self,
                   AgentToolCall   *call,
                   const char      *id,
                   const char      *name)
{
  const char *before = g_hash_table_lookup (self->known, call);
  g_autofree char *now = g_strdup_printf ("%s\n%s", id ? id : "", name ? name : "");

  if (before != NULL)
    {
      g_auto(GStrv) was = g_strsplit (before, "\n", 2);

      if ((was[0][0] != '\0' && g_strcmp0 (was[0], id) != 0) ||
          (was[1][0] != '\0' && g_strcmp0 (was[1], name) != 0))
        g_string_append_printf (self->problems, "\n  a call's id or name changed from %s", before);
    }
  g_hash_table_replace (self->known, call, g_steal_pointer (&now));
}

/* A copy that lives as long as @self, or NULL. */
static char *
keep (AgentTestReplay *self,
      const char      *string,
      gssize           len)
{
  return string != NULL ? g_string_chunk_insert_len (self->strings, string, len) : NULL;
}

static void
on_tool_call (gpointer       user_data,
              AgentToolCall *call,
              const char    *fragment,
              gsize          len)
{
  AgentTestReplay *self = user_data;
  GString *fragments = g_hash_table_lookup (self->fragments, call);
  AgentTestToolDelta delta;

  delta.call = call;
  delta.index = agent_tool_call_get_index (call);
  delta.id = keep (self, agent_tool_call_get_id (call), -1);
  delta.name = keep (self, agent_tool_call_get_name (call), -1);
  delta.fragment = keep (self, fragment, len);
  delta.len = len;
  g_array_append_val (self->tool_deltas, delta);

  check_id_and_name (self, call, delta.id, delta.name);

  if (fragments == NULL)
    {
      fragments = g_string_new (NULL);
      g_hash_table_insert (self->fragments, call, fragments);
    }

  if (agent_tool_call_get_state (call) != AGENT_TOOL_CALL_STATE_STREAMING)
    g_string_append (self->problems, "\n  a tool-call delta for a call that is not streaming");
  if (fragment == NULL || fragment[len] != '\0')
    g_string_append (self->problems, "\n  a tool-call fragment is not NUL-terminated");
  else
    g_string_append_len (fragments, fragment, len);

  if (len > 0)
    self->n_fragments++;

  g_string_append_printf (self->log, "tool:%u:%s:%s:%s\n", delta.index, delta.id, delta.name,
                          delta.fragment);
}

static const AgentAccumulatorListener listener = {
  .text_delta = on_text,
  .reasoning_delta = on_reasoning,
  .refusal_delta = on_refusal,
  .tool_call_delta = on_tool_call,
};

AgentTestReplay *
agent_test_replay_new (void)
{
  return agent_test_replay_new_for_backend (&agent_openai_chat_backend);
}

/* The same, for any provider's backend. */
AgentTestReplay *
agent_test_replay_new_for_backend (const AgentProviderBackend *backend)
{
  AgentTestReplay *self = g_new0 (AgentTestReplay, 1);

  self->text = g_string_new (NULL);
  self->reasoning = g_string_new (NULL);
  self->refusal = g_string_new (NULL);
  self->strings = g_string_chunk_new (4096);
  self->tool_deltas = g_array_new (FALSE, FALSE, sizeof (AgentTestToolDelta));
  self->fragments = g_hash_table_new_full (NULL, NULL, NULL, free_gstring);
  self->known = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  self->log = g_string_new (NULL);
  self->problems = g_string_new (NULL);
  self->accumulator = agent_accumulator_new (&listener, self);
  self->decoder = agent_stream_decoder_new (&backend->stream, self->accumulator, NULL);

  return self;
}

void
agent_test_replay_free (AgentTestReplay *self)
{
  agent_stream_decoder_free (self->decoder);
  agent_accumulator_free (self->accumulator);
  g_string_free (self->text, TRUE);
  g_string_free (self->reasoning, TRUE);
  g_string_free (self->refusal, TRUE);
  g_array_unref (self->tool_deltas);
  g_string_chunk_free (self->strings);
  g_hash_table_unref (self->fragments);
  g_hash_table_unref (self->known);
  g_string_free (self->log, TRUE);
  g_string_free (self->problems, TRUE);
  g_clear_error (&self->error);
  g_clear_error (&self->finish_error);
  g_free (self);
}

/* An AgentTestFeedFunc: feeds the decoder. Pass &replay->error as the
 * feeder's error, so that the first error stops the feeding and stays. */
gboolean
agent_test_replay_feed (gpointer     self,
                        const char  *data,
                        gsize        len,
                        GError     **error)
{
  return agent_stream_decoder_feed (((AgentTestReplay *)self)->decoder, data, len, error);
}

void
agent_test_replay_finish (AgentTestReplay *self)
{
  self->finish_ok = agent_stream_decoder_finish (self->decoder, &self->finish_error);
}

AgentMessage *
agent_test_replay_get_message (AgentTestReplay *self)
{
  return agent_accumulator_get_message (self->accumulator);
}

/* The fragments the listener heard for @call, concatenated, or NULL if it
 * never heard of it. */
const char *
agent_test_replay_get_fragments (AgentTestReplay *self,
                                 AgentToolCall   *call)
{
  GString *fragments = g_hash_table_lookup (self->fragments, call);

  return fragments != NULL ? fragments->str : NULL;
}
