/* bench-workload.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "bench-workload.h"

#define N_TOOL_CALLS 4
/* Tool-call argument fragments are 1 to this many bytes (about a token). */
#define MAX_FRAGMENT 7

/* Every chunk starts like this, as OpenAI sends it. */
#define CHUNK_PREFIX                                                     \
  "data: {\"id\":\"chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG\","              \
  "\"object\":\"chat.completion.chunk\",\"created\":1741570283,"          \
  "\"model\":\"gpt-4o-2024-08-06\",\"system_fingerprint\":\"fp_f9f4fb6dbf\","
#define CHOICE_SUFFIX "\"logprobs\":null,\"finish_reason\":null}],\"usage\":null}\n\n"

/* Tokens as a model emits them: mostly short English pieces, some longer
 * words, non-ASCII text (Latin accents, Cyrillic, Greek, CJK, emoji), and
 * characters JSON must escape (newlines, quotes, backslash, tab). */
static const char * const vocabulary[] = {
  " the", " of", " and", " to", " a", " in", " is", " that", ",", ".", " for", " it",
  " with", " as", " on", " be", "s", " this", " by", " are", " from", " not", " at",
  " or", " an", "ing", " can", " we", " you", " will", " each", " when", "\n\n", " which",
  " stream", " function", " returns", " value", " server", " client", " library",
  " asynchronous", " implementation", " GObject", " callback", " parameters",
  " JSON", " event", " buffer", " signal", " handler", " main", " loop", "\n",
  " café", " naïve", " Größe", " déjà", " résumé", " événement", " µs", " 10×",
  " Привет", " мир", " Ελληνικά", " 日本", "語", " 中文", " 😀", " —", "…",
  " \"quoted\"", " C:\\path", "\t", "```", "c\n", " 2024", " 42", " ≤", " →",
};

static const char * const tool_names[N_TOOL_CALLS] = {
  "read_file", "search_code", "write_file", "run_tests",
};

static const char * const argument_words[] = {
  "alpha", "beta", "gamma", "delta", "stream", "parser", "chunk", "event", "buffer",
  "session", "signal", "value", "index", "result", "error", "return", "static",
  "const", "char", "gsize", "while", "for", "if", "else", "struct", "self",
};

typedef enum
{
  PHASE_ROLE,
  PHASE_BODY,
  PHASE_FINISH,
  PHASE_USAGE,
  PHASE_DONE,
  PHASE_END,
} Phase;

typedef struct
{
  char   *id;
  char   *arguments;   /* the whole JSON text */
  guint  *ends;        /* end offset of each fragment after the first */
  guint   n_fragments; /* the first one (id, type, name) included */
  guint   next;        /* next fragment to send */
} ToolCall;

struct _BenchGen
{
  BenchWorkload  workload;
  guint          n;
  guint64        state;
  Phase          phase;
  guint64        i;
  ToolCall       calls[N_TOOL_CALLS];
  guint          n_active_calls;
  BenchExpect    expect;
};

const char *
bench_workload_to_string (BenchWorkload workload)
{
  switch (workload)
    {
    case BENCH_WORKLOAD_TEXT:
      return "text";
    case BENCH_WORKLOAD_TOOLS:
      return "tools";
    case BENCH_WORKLOAD_REASONING:
      return "reasoning";
    case BENCH_WORKLOAD_SHORT:
      return "short";
    case BENCH_N_WORKLOADS:
    default:
      g_return_val_if_reached (NULL);
    }
}

gboolean
bench_workload_from_string (const char    *string,
                            BenchWorkload *workload)
{
  for (guint i = 0; i < BENCH_N_WORKLOADS; i++)
    {
      if (g_strcmp0 (string, bench_workload_to_string (i)) == 0)
        {
          *workload = i;
          return TRUE;
        }
    }

  return FALSE;
}

/* xorshift64*: deterministic and the same everywhere. */
static guint32
next_random (BenchGen *self)
{
  self->state ^= self->state >> 12;
  self->state ^= self->state << 25;
  self->state ^= self->state >> 27;
  return (guint32) ((self->state * G_GUINT64_CONSTANT (2685821657736338717)) >> 32);
}

static guint
random_below (BenchGen *self,
              guint     n)
{
  return next_random (self) % n;
}

/* Appends @text as the inside of a JSON string. */
static void
append_escaped (GString    *out,
                const char *text,
                gsize       len)
{
  for (gsize i = 0; i < len; i++)
    {
      guchar c = text[i];

      switch (c)
        {
        case '"':
          g_string_append_len (out, "\\\"", 2);
          break;
        case '\\':
          g_string_append_len (out, "\\\\", 2);
          break;
        case '\n':
          g_string_append_len (out, "\\n", 2);
          break;
        case '\t':
          g_string_append_len (out, "\\t", 2);
          break;
        default:
          if (c < 0x20)
            g_string_append_printf (out, "\\u%04x", c);
          else
            g_string_append_c (out, c);
        }
    }
}

/* Common tokens come more often than rare ones. */
static const char *
pick_token (BenchGen *self)
{
  guint n = G_N_ELEMENTS (vocabulary);
  guint a = random_below (self, n);
  guint b = random_below (self, n);

  return vocabulary[(a * b) / n];
}

static void
append_choice_event (GString    *out,
                     const char *delta_start,
                     const char *text,
                     const char *delta_end)
{
  g_string_append_len (out, CHUNK_PREFIX, sizeof CHUNK_PREFIX - 1);
  g_string_append (out, "\"choices\":[{\"index\":0,\"delta\":{");
  g_string_append (out, delta_start);
  if (text != NULL)
    append_escaped (out, text, strlen (text));
  g_string_append (out, delta_end);
  g_string_append_len (out, "},", 2);
  g_string_append_len (out, CHOICE_SUFFIX, sizeof CHOICE_SUFFIX - 1);
}

void
bench_format_role_event (GString *out)
{
  append_choice_event (out, "\"role\":\"assistant\",\"content\":\"\",\"refusal\":null", NULL, "");
}

void
bench_format_content_event (GString    *out,
                            const char *text)
{
  append_choice_event (out, "\"content\":\"", text, "\"");
}

void
bench_format_finish_event (GString    *out,
                           const char *finish_reason)
{
  g_string_append_len (out, CHUNK_PREFIX, sizeof CHUNK_PREFIX - 1);
  g_string_append_printf (out,
                          "\"choices\":[{\"index\":0,\"delta\":{},\"logprobs\":null,"
                          "\"finish_reason\":\"%s\"}],\"usage\":null}\n\n",
                          finish_reason);
}

void
bench_format_usage_event (GString *out,
                          guint64  completion_tokens,
                          guint64  reasoning_tokens)
{
  guint64 prompt_tokens = 1187;

  g_string_append_len (out, CHUNK_PREFIX, sizeof CHUNK_PREFIX - 1);
  g_string_append_printf (out,
                          "\"choices\":[],\"usage\":{\"prompt_tokens\":%" G_GUINT64_FORMAT ","
                          "\"completion_tokens\":%" G_GUINT64_FORMAT ","
                          "\"total_tokens\":%" G_GUINT64_FORMAT ","
                          "\"prompt_tokens_details\":{\"cached_tokens\":1024,\"audio_tokens\":0},"
                          "\"completion_tokens_details\":{\"reasoning_tokens\":%" G_GUINT64_FORMAT ","
                          "\"audio_tokens\":0,\"accepted_prediction_tokens\":0,"
                          "\"rejected_prediction_tokens\":0}}}\n\n",
                          prompt_tokens, completion_tokens, prompt_tokens + completion_tokens,
                          reasoning_tokens);
}

void
bench_format_done_event (GString *out)
{
  g_string_append_len (out, "data: [DONE]\n\n", 14);
}

void
bench_format_tool_call_start_event (GString    *out,
                                    guint       index,
                                    const char *id,
                                    const char *name)
{
  g_string_append_len (out, CHUNK_PREFIX, sizeof CHUNK_PREFIX - 1);
  g_string_append_printf (out,
                          "\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":%u,"
                          "\"id\":\"%s\",\"type\":\"function\",\"function\":{\"name\":\"%s\","
                          "\"arguments\":\"\"}}]},",
                          index, id, name);
  g_string_append_len (out, CHOICE_SUFFIX, sizeof CHOICE_SUFFIX - 1);
}

void
bench_format_tool_call_arguments_event (GString    *out,
                                        guint       index,
                                        const char *fragment)
{
  g_string_append_len (out, CHUNK_PREFIX, sizeof CHUNK_PREFIX - 1);
  g_string_append_printf (out,
                          "\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":%u,"
                          "\"function\":{\"arguments\":\"",
                          index);
  append_escaped (out, fragment, strlen (fragment));
  g_string_append (out, "\"}}]},");
  g_string_append_len (out, CHOICE_SUFFIX, sizeof CHOICE_SUFFIX - 1);
}

/* Tool calls */

static void
make_tool_call (BenchGen *self,
                guint     index,
                guint     n_fragments)
{
  ToolCall *call = &self->calls[index];
  g_autoptr(GString) text = g_string_new (NULL);
  guint n_pieces = n_fragments - 1;
  guint length = 0;

  call->n_fragments = n_fragments;
  call->ends = g_new (guint, MAX (n_pieces, 1));
  for (guint i = 0; i < n_pieces; i++)
    {
      length += 1 + random_below (self, MAX_FRAGMENT);
      call->ends[i] = length;
    }

  call->id = g_strdup_printf ("call_%08x%08x%08x",
                              next_random (self), next_random (self), next_random (self));

  /* A JSON object of exactly @length bytes: the content string holds
   * words, escaped newlines and quotes, padded at the end with letters. */
  g_string_append_printf (text, "{\"path\":\"src/module-%u/file.c\",\"line\":%u,\"content\":\"",
                          index, 40 + random_below (self, 900));
  while (text->len + 16 + 2 < length)
    {
      guint r = random_below (self, 20);

      if (r == 0)
        g_string_append (text, "\\n");
      else if (r == 1)
        g_string_append (text, "\\\"");
      else
        g_string_append_printf (text, "%s ",
                                argument_words[random_below (self, G_N_ELEMENTS (argument_words))]);
    }
  while (text->len + 2 < length)
    g_string_append_c (text, 'x');
  g_string_append (text, "\"}");

  /* Too few fragments for the prefix: the last fragment takes the rest. */
  if (n_pieces > 0 && text->len > length)
    call->ends[n_pieces - 1] = text->len;

  call->arguments = g_string_free (g_steal_pointer (&text), FALSE);
  self->expect.argument_bytes += strlen (call->arguments);
}

static void
append_tool_fragment (BenchGen *self,
                      GString  *out)
{
  guint pick = random_below (self, self->n_active_calls);
  ToolCall *call = NULL;
  guint index = 0;

  /* The pick-th call that still has fragments. */
  for (index = 0; index < N_TOOL_CALLS; index++)
    {
      if (self->calls[index].next < self->calls[index].n_fragments)
        {
          if (pick == 0)
            {
              call = &self->calls[index];
              break;
            }
          pick--;
        }
    }
  g_assert (call != NULL);

  g_string_append_len (out, CHUNK_PREFIX, sizeof CHUNK_PREFIX - 1);
  g_string_append_printf (out, "\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":%u,",
                          index);

  if (call->next == 0)
    {
      g_string_append_printf (out,
                              "\"id\":\"%s\",\"type\":\"function\",\"function\":{\"name\":\"%s\","
                              "\"arguments\":\"\"}}]},",
                              call->id, tool_names[index]);
    }
  else
    {
      guint start = call->next == 1 ? 0 : call->ends[call->next - 2];
      guint end = call->ends[call->next - 1];

      g_string_append (out, "\"function\":{\"arguments\":\"");
      append_escaped (out, call->arguments + start, end - start);
      g_string_append (out, "\"}}]},");
    }
  g_string_append_len (out, CHOICE_SUFFIX, sizeof CHOICE_SUFFIX - 1);

  self->expect.n_tool_deltas++;
  call->next++;
  if (call->next == call->n_fragments)
    self->n_active_calls--;
}

/* The generator */

BenchGen *
bench_gen_new (BenchWorkload workload,
               guint         n)
{
  BenchGen *self = g_new0 (BenchGen, 1);

  self->workload = workload;
  self->n = n;
  self->state = G_GUINT64_CONSTANT (0x9E3779B97F4A7C15) ^ ((guint64) workload << 32) ^ n;
  self->phase = PHASE_ROLE;

  if (workload == BENCH_WORKLOAD_TOOLS)
    {
      /* At least two fragments per call: the header and some arguments. */
      n = MAX (n, 2 * N_TOOL_CALLS);
      self->n = n;
      for (guint i = 0; i < N_TOOL_CALLS; i++)
        make_tool_call (self, i, n / N_TOOL_CALLS + (i < n % N_TOOL_CALLS ? 1 : 0));
      self->n_active_calls = N_TOOL_CALLS;
      self->expect.n_tool_calls = N_TOOL_CALLS;
    }

  return self;
}

void
bench_gen_free (BenchGen *self)
{
  if (self == NULL)
    return;

  for (guint i = 0; i < N_TOOL_CALLS; i++)
    {
      g_free (self->calls[i].id);
      g_free (self->calls[i].arguments);
      g_free (self->calls[i].ends);
    }
  g_free (self);
}

static guint64
body_length (BenchGen *self)
{
  switch (self->workload)
    {
    case BENCH_WORKLOAD_TEXT:
    case BENCH_WORKLOAD_TOOLS:
    case BENCH_WORKLOAD_SHORT:
      return self->n;
    case BENCH_WORKLOAD_REASONING:
      return 2 * (guint64) self->n;
    case BENCH_N_WORKLOADS:
    default:
      g_return_val_if_reached (0);
    }
}

static void
append_body_event (BenchGen *self,
                   GString  *out)
{
  const char *token;

  switch (self->workload)
    {
    case BENCH_WORKLOAD_TEXT:
    case BENCH_WORKLOAD_SHORT:
      token = pick_token (self);
      bench_format_content_event (out, token);
      self->expect.n_text_deltas++;
      self->expect.text_bytes += strlen (token);
      break;

    case BENCH_WORKLOAD_TOOLS:
      append_tool_fragment (self, out);
      break;

    case BENCH_WORKLOAD_REASONING:
      token = pick_token (self);
      if (self->i < self->n)
        {
          append_choice_event (out, "\"content\":null,\"reasoning_content\":\"", token, "\"");
          self->expect.n_reasoning_deltas++;
          self->expect.reasoning_bytes += strlen (token);
        }
      else
        {
          append_choice_event (out, "\"content\":\"", token, "\",\"reasoning_content\":null");
          self->expect.n_text_deltas++;
          self->expect.text_bytes += strlen (token);
        }
      break;

    case BENCH_N_WORKLOADS:
    default:
      g_assert_not_reached ();
    }
}

gboolean
bench_gen_next (BenchGen *self,
                GString  *out)
{
  switch (self->phase)
    {
    case PHASE_ROLE:
      if (self->workload == BENCH_WORKLOAD_TOOLS)
        append_choice_event (out, "\"role\":\"assistant\",\"content\":null,\"refusal\":null", NULL, "");
      else if (self->workload == BENCH_WORKLOAD_REASONING)
        append_choice_event (out, "\"role\":\"assistant\",\"content\":null,\"reasoning_content\":\"\"",
                             NULL, "");
      else
        bench_format_role_event (out);
      self->phase = PHASE_BODY;
      break;

    case PHASE_BODY:
      append_body_event (self, out);
      if (++self->i == body_length (self))
        self->phase = PHASE_FINISH;
      break;

    case PHASE_FINISH:
      bench_format_finish_event (out, self->workload == BENCH_WORKLOAD_TOOLS ? "tool_calls" : "stop");
      self->phase = PHASE_USAGE;
      break;

    case PHASE_USAGE:
      bench_format_usage_event (out, body_length (self),
                                self->workload == BENCH_WORKLOAD_REASONING ? self->n : 0);
      self->phase = PHASE_DONE;
      break;

    case PHASE_DONE:
      bench_format_done_event (out);
      self->phase = PHASE_END;
      break;

    case PHASE_END:
    default:
      return FALSE;
    }

  self->expect.n_events++;
  return TRUE;
}

const BenchExpect *
bench_gen_get_expect (BenchGen *self)
{
  return &self->expect;
}

BenchStream *
bench_stream_new (BenchWorkload workload,
                  guint         n)
{
  g_autoptr(BenchGen) gen = bench_gen_new (workload, n);
  BenchStream *self = g_new0 (BenchStream, 1);
  GString *out = g_string_sized_new (256 * (gsize) n + 4096);

  self->ends = g_array_new (FALSE, FALSE, sizeof (gsize));
  while (bench_gen_next (gen, out))
    g_array_append_val (self->ends, out->len);

  self->expect = *bench_gen_get_expect (gen);
  self->bytes = g_string_free_to_bytes (out);

  return self;
}

void
bench_stream_free (BenchStream *self)
{
  if (self == NULL)
    return;

  g_bytes_unref (self->bytes);
  g_array_unref (self->ends);
  g_free (self);
}
