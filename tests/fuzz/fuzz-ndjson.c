/* fuzz-ndjson.c
 *
 * A libFuzzer target for AgentNdjsonSplitter.
 *
 * The input is the stream. A hash of it picks a line limit (small for one
 * input in four), maybe a line at which the callback fails, and the sizes of
 * the pieces it is fed in. The stream is split whole, in those pieces and one
 * byte at a time; every run must give the same lines and the same outcome as
 * a plain, slow splitting written below.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <stdint.h>
#include <string.h>

#include "agent-error.h"
#include "wire/agent-ndjson-private.h"

typedef enum
{
  OUTCOME_OK,
  OUTCOME_LIMIT_ERROR,
  OUTCOME_CALLBACK_ERROR,
} OutcomeKind;

typedef struct
{
  /* Each line as length then bytes. */
  GString     *log;
  guint        n_lines;
  OutcomeKind  kind;
} Outcome;

typedef struct
{
  gsize    max_line;
  guint    fail_at;
  guint32  seed;
  Outcome *outcome;
} Run;

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

static void
log_line (Outcome    *outcome,
          const char *line,
          gsize       len)
{
  guint64 len64 = len;

  g_string_append_len (outcome->log, (const char *) &len64, sizeof len64);
  g_string_append_len (outcome->log, line, len);
}

static gboolean
count_line (Run     *run,
            GError **error)
{
  run->outcome->n_lines++;

  if (run->fail_at != 0 && run->outcome->n_lines == run->fail_at)
    {
      g_set_error_literal (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "fuzz");
      return FALSE;
    }

  return TRUE;
}

static gboolean
on_line (const char  *line,
         gsize        len,
         gpointer     user_data,
         GError     **error)
{
  Run *run = user_data;

  g_assert_nonnull (line);
  g_assert_cmpuint (len, >, 0);
  g_assert_cmpuint (len, <=, run->max_line);
  g_assert_cmpint (line[len], ==, '\0');
  g_assert_null (memchr (line, '\n', len));

  if (!count_line (run, error))
    return FALSE;

  log_line (run->outcome, line, len);

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

static void
split (Run          *run,
       const guint8 *data,
       gsize         size,
       gsize         piece)
{
  g_autoptr(AgentNdjsonSplitter) splitter = agent_ndjson_splitter_new (on_line, run);
  g_autoptr(GError) error = NULL;
  guint32 state = run->seed | 1;
  gsize pos = 0;

  agent_ndjson_splitter_set_max_line (splitter, run->max_line);

  do
    {
      gsize len = piece;

      if (len == 0)
        {
          guint32 r = next_random (&state);

          if (r % 16 == 0)
            len = 0;
          else if (r % 16 == 1)
            len = 1 + (r >> 8) % 2048;
          else
            len = 1 + (r >> 8) % 16;
        }

      len = MIN (len, size - pos);

      if (!agent_ndjson_splitter_feed (splitter, (const char *) data + pos, len, &error))
        break;

      pos += len;
    }
  while (pos < size);

  if (error == NULL && agent_ndjson_splitter_finish (splitter, &error))
    {
      run->outcome->kind = OUTCOME_OK;
      return;
    }

  if (error->domain == G_FILE_ERROR)
    {
      g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED);
      g_assert_cmpuint (run->outcome->n_lines, ==, run->fail_at);
      run->outcome->kind = OUTCOME_CALLBACK_ERROR;
    }
  else
    {
      /* The one error of its own: a size limit */
      g_assert_error (error, AGENT_ERROR, AGENT_ERROR_LIMIT);
      run->outcome->kind = OUTCOME_LIMIT_ERROR;
    }

  g_clear_error (&error);

  /* A failed splitter refuses everything after. */
  g_assert_false (agent_ndjson_splitter_feed (splitter, "{}\n", 3, &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
  g_clear_error (&error);
  g_assert_false (agent_ndjson_splitter_finish (splitter, &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL);
}

static void
reference_split (Run          *run,
                 const guint8 *data,
                 gsize         size)
{
  gsize pos = 0;

  run->outcome->kind = OUTCOME_OK;

  while (pos < size)
    {
      gsize start = pos;
      gsize len;

      while (pos < size && data[pos] != '\n')
        pos++;

      len = pos - start;
      if (len > 0 && data[start + len - 1] == '\r')
        len--;

      if (len > run->max_line)
        {
          run->outcome->kind = OUTCOME_LIMIT_ERROR;
          return;
        }

      if (len > 0)
        {
          g_autoptr(GError) error = NULL;

          if (!count_line (run, &error))
            {
              run->outcome->kind = OUTCOME_CALLBACK_ERROR;
              return;
            }

          log_line (run->outcome, (const char *) data + start, len);
        }

      pos++;
    }
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
  guint32 hash = hash_input (data, size);
  Outcome expected = { 0, };
  Run run;

  g_log_set_always_fatal (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);

  run.max_line = (hash & 3) == 0 ? 1 + (hash >> 8) % 64 : AGENT_NDJSON_DEFAULT_MAX_LINE;
  run.fail_at = ((hash >> 2) & 7) == 0 ? 1 + (hash >> 16) % 8 : 0;

  expected.log = g_string_new (NULL);
  run.outcome = &expected;
  reference_split (&run, data, size);

  for (guint i = 0; i < 3; i++)
    {
      Outcome outcome = { 0, };

      outcome.log = g_string_new (NULL);
      run.outcome = &outcome;
      run.seed = hash + i;

      /* Whole, in random pieces, one byte at a time. */
      split (&run, data, size, i == 0 ? size : i == 2 ? 1 : 0);

      g_assert_cmpint (outcome.kind, ==, expected.kind);
      g_assert_cmpuint (outcome.n_lines, ==, expected.n_lines);
      g_assert_cmpmem (outcome.log->str, outcome.log->len, expected.log->str, expected.log->len);

      g_string_free (outcome.log, TRUE);
    }

  g_string_free (expected.log, TRUE);

  return 0;
}
