/* fuzz-sse.c
 *
 * A libFuzzer target for AgentSseParser.
 *
 * The input is the event stream. A hash of it picks a size limit (small for
 * one input in four, so that the limits are reached), maybe an event at
 * which the callback fails, and the sizes of the pieces it is fed in. The
 * stream is parsed whole, in those pieces, one byte at a time, and again
 * after a reset; every run must give the same events and the same outcome as
 * a plain, slow reading of the specification written below.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <stdint.h>
#include <string.h>

#include "agent-error.h"
#include "wire/agent-sse-parser-private.h"

typedef enum
{
  OUTCOME_OK,
  OUTCOME_LIMIT_ERROR,
  OUTCOME_CALLBACK_ERROR,
} OutcomeKind;

typedef struct
{
  /* Each event as type NUL id NUL length data. */
  GString     *log;
  guint        n_events;
  OutcomeKind  kind;
  gboolean     partial;
  gint64       retry;
} Outcome;

typedef struct
{
  gsize    max_size;
  guint    fail_at;
  guint32  seed;
  Outcome *outcome;
} Run;

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

static void
outcome_init (Outcome *outcome)
{
  memset (outcome, 0, sizeof *outcome);
  outcome->log = g_string_new (NULL);
  outcome->retry = -1;
}

static void
outcome_clear (Outcome *outcome)
{
  g_string_free (outcome->log, TRUE);
}

static void
outcome_assert_equal (const Outcome *a,
                      const Outcome *b)
{
  g_assert_cmpint (a->kind, ==, b->kind);
  g_assert_cmpuint (a->n_events, ==, b->n_events);
  g_assert_cmpmem (a->log->str, a->log->len, b->log->str, b->log->len);

  if (a->kind == OUTCOME_OK)
    {
      g_assert_cmpint (a->partial, ==, b->partial);
      g_assert_cmpint (a->retry, ==, b->retry);
    }
}

static void
log_event (Outcome    *outcome,
           const char *type,
           const char *id,
           const char *data,
           gsize       data_len)
{
  guint64 len = data_len;

  g_string_append_len (outcome->log, type, strlen (type) + 1);
  g_string_append_len (outcome->log, id, strlen (id) + 1);
  g_string_append_len (outcome->log, (const char *) &len, sizeof len);
  g_string_append_len (outcome->log, data, data_len);
}

/* Returns FALSE if the event is the one to fail at. */
static gboolean
count_event (Run     *run,
             GError **error)
{
  run->outcome->n_events++;

  if (run->fail_at != 0 && run->outcome->n_events == run->fail_at)
    {
      g_set_error_literal (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "fuzz");
      return FALSE;
    }

  return TRUE;
}

static gboolean
on_event (const AgentSseEvent  *event,
          gpointer              user_data,
          GError              **error)
{
  Run *run = user_data;

  g_assert_nonnull (event->type);
  g_assert_nonnull (event->data);
  g_assert_nonnull (event->last_event_id);
  g_assert_cmpint (event->data[event->data_len], ==, '\0');
  g_assert_cmpuint (event->data_len, <, run->max_size);
  /* The type counts towards the limit, unless it is the default one. */
  if (strcmp (event->type, "message") != 0)
    g_assert_cmpuint (event->data_len + strlen (event->type), <, run->max_size);
  g_assert_cmpuint (strlen (event->last_event_id), <=, run->max_size);

  if (!count_event (run, error))
    return FALSE;

  log_event (run->outcome, event->type, event->last_event_id, event->data, event->data_len);

  return TRUE;
}

static guint32
next_random (guint32 *state)
{
  guint32 x = *state;

  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;

  return *state = x;
}

/* Feeds @data in pieces of @piece bytes, or of random sizes if @piece is 0. */
static void
parse (AgentSseParser *parser,
       Run            *run,
       const guint8   *data,
       gsize           size,
       gsize           piece)
{
  g_autoptr(GError) error = NULL;
  guint32 state = run->seed | 1;
  gsize pos = 0;

  agent_sse_parser_set_max_size (parser, run->max_size);

  do
    {
      gsize len = piece;

      if (len == 0)
        {
          guint32 r = next_random (&state);

          /* Empty pieces now and then, mostly small ones, a few large. */
          if (r % 16 == 0)
            len = 0;
          else if (r % 16 == 1)
            len = 1 + (r >> 8) % 2048;
          else
            len = 1 + (r >> 8) % 16;
        }

      len = MIN (len, size - pos);

      if (!agent_sse_parser_feed (parser, (const char *) data + pos, len, &error))
        break;

      pos += len;
    }
  while (pos < size);

  if (error == NULL && agent_sse_parser_finish (parser, &error))
    {
      run->outcome->kind = OUTCOME_OK;
      run->outcome->partial = agent_sse_parser_had_partial_event (parser);
      run->outcome->retry = agent_sse_parser_get_retry (parser);

      return;
    }

  if (error->domain == G_FILE_ERROR)
    {
      g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED);
      g_assert_cmpuint (run->outcome->n_events, ==, run->fail_at);
      run->outcome->kind = OUTCOME_CALLBACK_ERROR;
    }
  else
    {
      /* The one error of its own: a size limit */
      g_assert_error (error, AGENT_ERROR, AGENT_ERROR_LIMIT);
      run->outcome->kind = OUTCOME_LIMIT_ERROR;
    }

  g_clear_error (&error);

  /* A failed parser refuses everything after. */
  g_assert_false (agent_sse_parser_feed (parser, "data: x\n\n", 9, &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
  g_clear_error (&error);
  g_assert_false (agent_sse_parser_finish (parser, &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
}

/* The specification, read plainly, on the whole stream at once. */

typedef struct
{
  GString *data;
  GString *type;
  GString *id;
} Buffers;

static gboolean
reference_line (Run          *run,
                Buffers      *buffers,
                const guint8 *line,
                gsize         len)
{
  gsize name_len = 0;
  gsize value_start;

  if (len > run->max_size)
    {
      run->outcome->kind = OUTCOME_LIMIT_ERROR;
      return FALSE;
    }

  if (len == 0)
    {
      if (buffers->data->len > 0)
        {
          g_autoptr(GError) error = NULL;

          g_string_truncate (buffers->data, buffers->data->len - 1);

          if (!count_event (run, &error))
            {
              run->outcome->kind = OUTCOME_CALLBACK_ERROR;
              return FALSE;
            }

          log_event (run->outcome,
                     buffers->type->len > 0 ? buffers->type->str : "message",
                     buffers->id->str,
                     buffers->data->str,
                     buffers->data->len);
        }

      g_string_truncate (buffers->data, 0);
      g_string_truncate (buffers->type, 0);

      return TRUE;
    }

  if (line[0] == ':')
    return TRUE;

  while (name_len < len && line[name_len] != ':')
    name_len++;

  value_start = name_len < len ? name_len + 1 : len;
  if (value_start < len && line[value_start] == ' ')
    value_start++;

#define IS_FIELD(name) (name_len == strlen (name) && memcmp (line, name, name_len) == 0)

  if (IS_FIELD ("data"))
    {
      if (buffers->data->len + buffers->type->len + (len - value_start) + 1 > run->max_size)
        {
          run->outcome->kind = OUTCOME_LIMIT_ERROR;
          return FALSE;
        }

      g_string_append_len (buffers->data, (const char *) line + value_start, len - value_start);
      g_string_append_c (buffers->data, '\n');
    }
  else if (IS_FIELD ("event"))
    {
      if (buffers->data->len + (len - value_start) > run->max_size)
        {
          run->outcome->kind = OUTCOME_LIMIT_ERROR;
          return FALSE;
        }

      g_string_truncate (buffers->type, 0);
      g_string_append_len (buffers->type, (const char *) line + value_start, len - value_start);
    }
  else if (IS_FIELD ("id"))
    {
      gboolean has_nul = FALSE;

      for (gsize i = value_start; i < len; i++)
        has_nul |= line[i] == '\0';

      if (!has_nul)
        {
          g_string_truncate (buffers->id, 0);
          g_string_append_len (buffers->id, (const char *) line + value_start, len - value_start);
        }
    }
  else if (IS_FIELD ("retry"))
    {
      gboolean digits = value_start < len;
      guint64 value = 0;

      for (gsize i = value_start; i < len; i++)
        {
          if (line[i] < '0' || line[i] > '9')
            digits = FALSE;
          else if (value > G_MAXINT64 / 10)
            value = (guint64) G_MAXINT64 + 1;
          else
            value = value * 10 + (line[i] - '0');
        }

      if (digits)
        run->outcome->retry = (gint64) MIN (value, (guint64) G_MAXINT64);
    }

#undef IS_FIELD

  return TRUE;
}

static void
reference_parse (Run          *run,
                 const guint8 *data,
                 gsize         size)
{
  Buffers buffers;
  gsize pos = 0;

  buffers.data = g_string_new (NULL);
  buffers.type = g_string_new (NULL);
  buffers.id = g_string_new (NULL);

  run->outcome->kind = OUTCOME_OK;

  if (size >= 3 && memcmp (data, "\xEF\xBB\xBF", 3) == 0)
    pos = 3;

  while (pos < size)
    {
      gsize start = pos;

      while (pos < size && data[pos] != '\r' && data[pos] != '\n')
        pos++;

      if (pos == size)
        {
          /* The last line has no line ending: it is dropped. */
          if (pos - start > run->max_size)
            run->outcome->kind = OUTCOME_LIMIT_ERROR;
          run->outcome->partial = TRUE;
          break;
        }

      if (!reference_line (run, &buffers, data + start, pos - start))
        break;

      if (data[pos] == '\r' && pos + 1 < size && data[pos + 1] == '\n')
        pos += 2;
      else
        pos += 1;
    }

  if (buffers.data->len > 0)
    run->outcome->partial = TRUE;

  g_string_free (buffers.data, TRUE);
  g_string_free (buffers.type, TRUE);
  g_string_free (buffers.id, TRUE);
}

static guint32
hash_input (const guint8 *data,
            gsize         size)
{
  guint32 hash = 2166136261u;

  for (gsize i = 0; i < size; i++)
    hash = (hash ^ data[i]) * 16777619u;

  return hash;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(AgentSseParser) parser = NULL;
  guint32 hash = hash_input (data, size);
  Outcome expected;
  Run run;

  g_log_set_always_fatal (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);

  run.max_size = (hash & 3) == 0 ? 1 + (hash >> 8) % 96 : AGENT_SSE_DEFAULT_MAX_SIZE;
  run.fail_at = ((hash >> 2) & 7) == 0 ? 1 + (hash >> 16) % 8 : 0;

  outcome_init (&expected);
  run.outcome = &expected;
  reference_parse (&run, data, size);

  for (guint i = 0; i < 4; i++)
    {
      Outcome outcome;

      /* Whole, in random pieces, one byte at a time, and in other random
       * pieces with a parser that is reset rather than new. */
      if (i == 3)
        agent_sse_parser_reset (parser);
      else
        g_clear_pointer (&parser, agent_sse_parser_free);

      if (parser == NULL)
        parser = agent_sse_parser_new (on_event, &run);

      outcome_init (&outcome);
      run.outcome = &outcome;
      run.seed = hash + i;

      parse (parser, &run, data, size, i == 0 ? size : i == 2 ? 1 : 0);
      outcome_assert_equal (&expected, &outcome);

      outcome_clear (&outcome);
    }

  outcome_clear (&expected);

  return 0;
}
