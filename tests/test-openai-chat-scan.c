/* test-openai-chat-scan.c — the scan of the usual chunk against the DOM decoder
 *
 * The OpenAI chat decoder reads the usual chunk with a one-pass scan, and
 * the next one, when it differs only in its delta's text, with the last as
 * a template (agent-openai-chat-scan-private.h); any other event it reads
 * with simdjson's DOM, as it always did. Both ways must end the same: here
 * every stream is decoded with the scan and with the DOM alone, and what
 * the accumulator's listener heard (each delta, in order), the message
 * (and the other choices) and the errors must be the same, byte for byte.
 *
 *  - the recorded streams of the corpus, whole and in random pieces;
 *  - chunks of every shape the scan takes or leaves, each between two
 *    ordinary chunks (so that it meets a template), with whether the scan
 *    took it checked too;
 *  - text that tries the template: escapes, quotes, a backslash at the end;
 *  - fragments of parallel tool calls in turns, each with its template;
 *  - chunks cut short at every byte, read from a buffer of their size;
 *  - 20,000 mutations of real chunks: bytes replaced, tokens inserted,
 *    ranges dropped or repeated; half of them around the delta's text,
 *    each after the chunk unchanged, so that they meet it as a template.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "providers/agent-openai-chat-private.h"
#include "providers/agent-openai-chat-scan-private.h"

#include "agent-test-feed.h"
#include "test-accumulator-util.h"
#include "agent-test-provider.h"
#include "agent-test-replay.h"
#include "agent-test-util.h"

/* An ordinary chunk, as OpenAI sends it, around its delta's members */
#define CHUNK_START \
  "{\"id\":\"chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG\",\"object\":\"chat.completion.chunk\"," \
  "\"created\":1741570283,\"model\":\"gpt-4o-2024-08-06\",\"system_fingerprint\":\"fp_f9f4fb6dbf\"," \
  "\"choices\":[{\"index\":0,\"delta\":{"
#define CHUNK_END "},\"logprobs\":null,\"finish_reason\":null}],\"usage\":null}"
#define CHUNK(delta) CHUNK_START delta CHUNK_END

typedef struct
{
  guint n_events;
  guint n_scanned;
  guint n_templated;
} Counts;

/* Everything a decoding of @body ends with, as one text. @seed 0 feeds it
 * whole, another in random pieces. */
static char *
decode_with (const char *body,
             gsize       len,
             gboolean    scan,
             guint32     seed,
             Counts     *counts)
{
  g_autoptr(AgentTestReplay) replay = agent_test_replay_new ();
  AgentOpenaiChatDecoder *chat = agent_stream_decoder_get_provider_decoder (replay->decoder);
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  GString *out = g_string_new (NULL);
  g_autofree char *summary = NULL;
  guint n_choices;

  _agent_openai_chat_decoder_set_scan (chat, scan);
  agent_test_feed (agent_test_replay_feed, replay, body, len,
                   seed == 0 ? AGENT_TEST_FEED_WHOLE : AGENT_TEST_FEED_RANDOM, rand,
                   &replay->error);
  if (replay->error == NULL)
    agent_test_replay_finish (replay);

  summary = summarize (replay);
  g_string_append (out, summary);
  g_string_append_printf (out, "problems=%s\n", replay->problems->str);

  /* The other choices, when there are */
  n_choices = _agent_openai_chat_decoder_get_n_choices (chat);
  for (guint i = 1; i < n_choices; i++)
    {
      AgentAccumulator *accumulator = _agent_openai_chat_decoder_get_choice (chat, i);

      g_string_append_printf (out, "choice %u: ", i);
      if (accumulator != NULL)
        describe_message (out, agent_accumulator_get_message (accumulator));
    }

  if (counts != NULL)
    {
      counts->n_events += agent_stream_decoder_get_n_events (replay->decoder);
      counts->n_scanned += _agent_openai_chat_decoder_get_n_scanned (chat, &counts->n_templated);
    }

  return g_string_free (out, FALSE);
}

/* Decodes @body with the scan and without: the same end. Returns how
 * many events the scan read. */
static guint
assert_same (const char *body,
             gsize       len,
             guint32     seed,
             Counts     *counts)
{
  Counts scanned = { 0, 0, 0 };
  g_autofree char *with_scan = decode_with (body, len, TRUE, seed, &scanned);
  g_autofree char *with_dom = decode_with (body, len, FALSE, seed, NULL);

  if (g_strcmp0 (with_scan, with_dom) != 0)
    {
      g_autofree char *cut = g_strndup (body, MIN (len, 2000));
      g_autofree char *shown = g_strescape (cut, NULL);

      g_test_message ("The stream: %s", shown);
      g_assert_cmpstr (with_scan, ==, with_dom);
    }

  if (counts != NULL)
    {
      counts->n_events += scanned.n_events;
      counts->n_scanned += scanned.n_scanned;
      counts->n_templated += scanned.n_templated;
    }
  return scanned.n_scanned;
}

static char *
corpus_dir (void)
{
  return agent_test_corpus_path ("openai-chat");
}

/* The files of the corpus, with their events' data */
static GPtrArray *
corpus_bodies (void)
{
  g_autofree char *dir_path = corpus_dir ();
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  GPtrArray *bodies = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir_path, name, NULL);
      char *body;
      gsize len;

      if (!g_str_has_suffix (name, ".sse"))
        continue;
      g_assert_true (g_file_get_contents (path, &body, &len, NULL));
      g_ptr_array_add (bodies, g_bytes_new_take (body, len));
    }

  g_assert_cmpuint (bodies->len, >, 20);
  return bodies;
}

static void
test_corpus (void)
{
  g_autoptr(GPtrArray) bodies = corpus_bodies ();
  Counts counts = { 0, 0, 0 };

  for (guint i = 0; i < bodies->len; i++)
    {
      gsize len;
      const char *body = g_bytes_get_data (g_ptr_array_index (bodies, i), &len);

      assert_same (body, len, 0, &counts);
      for (guint32 seed = 1; seed <= 4; seed++)
        assert_same (body, len, seed, NULL);
    }

  g_test_message ("%u events: %u scanned, %u of them with a template",
                  counts.n_events, counts.n_scanned, counts.n_templated);
  /* The scan is what reads the recorded streams, mostly */
  g_assert_cmpuint (counts.n_scanned * 10, >=, counts.n_events * 7);
  g_assert_cmpuint (counts.n_templated * 10, >=, counts.n_events * 4);
}

typedef enum
{
  SCAN,   /* the scan reads it */
  DOM,    /* the DOM decoder does */
  FAIL,   /* the DOM decoder does, and fails the stream */
} Reader;

typedef struct
{
  const char *chunk;
  Reader      reader;
} Shape;

static const Shape shapes[] = {
  /* The usual ones */
  { CHUNK ("\"content\":\" the\""), SCAN },
  { CHUNK ("\"role\":\"assistant\",\"content\":\"\",\"refusal\":null"), SCAN },
  { CHUNK ("\"reasoning_content\":\"Hmm\""), SCAN },
  { CHUNK ("\"content\":null,\"reasoning_content\":\"Hmm\""), SCAN },
  { CHUNK ("\"reasoning\":\"a\",\"reasoning_content\":\"b\""), SCAN },
  { CHUNK ("\"reasoning_content\":\"b\",\"reasoning\":\"a\""), SCAN },
  { CHUNK ("\"reasoning\":\"a\",\"reasoning\":\"b\""), SCAN },
  { CHUNK ("\"refusal\":\"No.\""), SCAN },
  { CHUNK ("\"content\":\"a\",\"content\":\"b\""), SCAN },
  { CHUNK ("\"tool_calls\":[{\"index\":0,\"id\":\"call_1\",\"type\":\"function\","
           "\"function\":{\"name\":\"get_weather\",\"arguments\":\"\"}}]"), SCAN },
  { CHUNK ("\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"city\\\":\"}}]"), SCAN },
  { CHUNK ("\"tool_calls\":[{\"index\":3,\"function\":{\"arguments\":\"x\"}},"
           "{\"index\":1,\"function\":{\"name\":\"b\"}}]"), SCAN },
  { CHUNK ("\"tool_calls\":[{\"function\":{\"name\":\"a\",\"arguments\":\"{}\"}},"
           "{\"index\":null,\"function\":{\"name\":\"b\",\"arguments\":\"{}\"}}]"), SCAN },
  { CHUNK ("\"tool_calls\":[{\"index\":0,\"function\":null}]"), SCAN },
  /* The largest index the scan reads, and one digit more */
  { CHUNK ("\"tool_calls\":[{\"index\":999999999999999999,\"function\":{\"arguments\":\"x\"}}]"), SCAN },
  { CHUNK ("\"tool_calls\":[{\"index\":1000000000000000000,\"function\":{\"arguments\":\"x\"}}]"), DOM },
  { CHUNK ("\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":null}}]"), SCAN },
  { CHUNK ("\"tool_calls\":null,\"content\":\"x\""), SCAN },
  { CHUNK ("\"tool_calls\":\"nope\",\"content\":\"x\""), SCAN },
  { CHUNK ("\"content\":\"caf\\u00e9 \\ud83d\\ude00 \\\"q\\\" \\\\ \\/ \\b\\f\\n\\r\\t\""), SCAN },
  { CHUNK ("\"content\":\"caf\xc3\xa9 \xf0\x9f\x98\x80\""), SCAN },
  { CHUNK (""), SCAN },
  { "{\"choices\":[{\"delta\":{\"content\":\"x\"},\"index\":0}],\"id\":\"late\",\"model\":\"m\"}", SCAN },
  { "{\"choices\":[{\"delta\":{\"content\":\"x\"},\"index\":1}]}", SCAN },
  { "{\"choices\":[{\"delta\":{\"content\":\"x\"},\"index\":-1}]}", SCAN },
  { "{\"choices\":[{\"delta\":{\"content\":\"x\"},\"index\":200}]}", SCAN },
  { "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"x\"}},{\"index\":1,\"delta\":{\"content\":\"y\"}}]}", SCAN },
  { "{\"choices\":[{\"index\":null,\"delta\":{\"content\":\"x\"}}]}", SCAN },
  { "{\"choices\":[{\"index\":0,\"delta\":null,\"finish_reason\":\"stop\"}]}", SCAN },
  { "{\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"\"}]}", SCAN },
  { "{\"choices\":[{\"index\":0,\"delta\":\"x\",\"finish_reason\":7}]}", SCAN },
  { "{\"choices\":[],\"usage\":null}", SCAN },
  { "{\"choices\":null}", SCAN },
  { "{\"id\":7,\"model\":null,\"choices\":[]}", SCAN },
  { "{\"error\":null,\"choices\":[{\"index\":0,\"delta\":{\"content\":\"x\"}}]}", SCAN },
  { " \t{ \"choices\" : [ { \"index\" : 0 , \"delta\" : { \"content\" : \"x\" } } ] } \t", SCAN },
  { "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"x\"},\"logprobs\":{\"content\":[{\"token\":\"x\","
    "\"logprob\":-0.5e-3,\"bytes\":[120],\"top_logprobs\":[]}]}}],\"big\":1e999,\"huge\":123456789012345678901234567890}",
    SCAN },
  { "{\"id\":\"x\\u0000y\",\"choices\":[]}", DOM },
  { "{\"other\":\"x\\u0000y \\ud800\",\"choices\":[]}", SCAN },
  { "{\"other\":\"\xff\xfe\",\"choices\":[]}", SCAN },

  /* Left to the DOM decoder, valid or not */
  { "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"x\\u0000y\"}}]}", DOM },
  { "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"\\ud800 lone\"}}]}", DOM },
  { "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"\\udc00\"}}]}", DOM },
  { "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"bad \xc3\x28 utf-8\"}}]}", DOM },
  { "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"raw \x01 control\"}}]}", FAIL },
  { "{\"choices\":[{\"index\":0,\"delta\":{\"content\":[{\"type\":\"text\",\"text\":\"x\"}]}}]}", DOM },
  { "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":{\"a\":1}}}]}}]}", DOM },
  { "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":{\"0\":{\"index\":0}}}}]}", DOM },
  { "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[\"x\"]}}]}", DOM },
  { "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":\"0\"}]}}]}", DOM },
  { "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"index\":1}]}}]}", DOM },
  { "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":1.0,\"id\":\"a\"}]}}]}", DOM },
  { "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"name\":\"a\",\"name\":\"b\"}}]}}]}", DOM },
  { "{\"choices\":[{\"index\":0,\"index\":1,\"delta\":{\"content\":\"x\"}}]}", DOM },
  { "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"x\"},\"delta\":{\"content\":\"y\"}}]}", DOM },
  { "{\"choices\":[{\"index\":0,\"finish_reason\":\"stop\",\"finish_reason\":\"length\"}]}", DOM },
  { "{\"choices\":[{\"index\":01,\"delta\":{\"content\":\"x\"}}]}", FAIL },
  { "{\"choices\":[{\"index\":1e0,\"delta\":{\"content\":\"x\"}}]}", DOM },
  { "{\"choices\":[{\"index\":99999999999999999999,\"delta\":{\"content\":\"x\"}}]}", DOM },
  { "{\"choices\":[{\"index\":0,\"delta\":[\"content\"]}]}", DOM },
  { "{\"choices\":[null]}", DOM },
  { "{\"choices\":{\"index\":0}}", DOM },
  { "{\"choices\":\"x\"}", DOM },
  { "{\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":5,\"total_tokens\":8}}", DOM },
  { "{\"choices\":[],\"x_groq\":{\"usage\":{\"prompt_tokens\":1}}}", DOM },
  { "{\"error\":{\"message\":\"overloaded\",\"type\":\"server_error\"}}", FAIL },
  { "{\"error\":\"overloaded\"}", FAIL },
  { "{\"a\\u0041\":\"a key with an escape\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"x\"}}]}", DOM },
  { "{\"ch\\u006fices\":[{\"index\":0,\"delta\":{\"content\":\"x\"}}]}", DOM },
  { "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"x\"}}]} trailing", FAIL },
  { "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"x\"}},]}", FAIL },
  { "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"x\",}}]}", FAIL },
  { "{\"choices\":[{\"index\":0,\"delta\":{\"content\" \"x\"}}]}", FAIL },
  { "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"x\"}}]", FAIL },
  { "{\"choices\":[{\"index\":0,\"delta\":{\"content\":'x'}}]}", FAIL },
  { "{\"n\":-,\"choices\":[]}", FAIL },
  { "{\"n\":1.,\"choices\":[]}", FAIL },
  { "{\"n\":.5,\"choices\":[]}", FAIL },
  { "{\"n\":1e,\"choices\":[]}", FAIL },
  { "{\"n\":tru,\"choices\":[]}", FAIL },
  { "{\"n\":\"\\x\",\"choices\":[]}", FAIL },
  { "{\"n\":\"\\u12G4\",\"choices\":[]}", FAIL },
  /* Deeper than the scan goes: 70 arrays */
  { "{\"n\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]],\"choices\":[]}", DOM },
  { "[1,2]", FAIL },
  { "\"text\"", FAIL },
  { "", FAIL },
  { "not json at all", FAIL },
};

static char *
stream_around (const char *chunk,
               gsize       len)
{
  GString *body = g_string_new ("data: " CHUNK ("\"content\":\"Hello\"") "\n\n");

  g_string_append (body, "data: ");
  g_string_append_len (body, chunk, len);
  g_string_append (body, "\n\ndata: " CHUNK ("\"content\":\" world\"") "\n\ndata: [DONE]\n\n");
  return g_string_free (body, FALSE);
}

static void
test_shapes (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (shapes); i++)
    {
      g_autofree char *body = stream_around (shapes[i].chunk, strlen (shapes[i].chunk));
      g_autofree char *shown = g_strescape (shapes[i].chunk, NULL);
      guint n_scanned;

      g_test_message ("%s", shown);
      n_scanned = assert_same (body, strlen (body), 0, NULL);
      /* The ordinary chunks around it are always the scan's; after an
       * error there is nothing more */
      g_assert_cmpuint (n_scanned, ==, shapes[i].reader == SCAN ? 3 : shapes[i].reader == DOM ? 2 : 1);
    }
}

/* Deltas that try the template: each chunk differs from the one before
 * only in its text, which holds escapes, or what could be taken for its
 * end, or is not JSON at all. */
static void
test_template (void)
{
  /* With how many of the chunks with it and after it match a template:
   * both; only the one after it (the DOM decoder reads it, and repairs
   * it); none (it is not JSON: the stream fails) */
  static const struct { const char *text; guint templated; } texts[] = {
    { "", 2 }, { " the", 2 }, { "\\\"", 2 }, { "\\\\", 2 }, { "\\\\\\\"", 2 },
    { "a\\\"},\\\"logprobs\\\":null", 2 }, { "\\u00e9", 2 }, { "\\ud83d\\ude00", 2 },
    { "\\n\\n", 2 }, { "\xc3\xa9", 2 }, { "\\/", 2 },
    { "x\\u0000", 1 }, { "\\ud800", 1 }, { "\xc3", 1 },
    { "\\", 0 }, { "\\u12", 0 }, { "\"", 0 }, { "\"},\"a\":\"", 0 }, { "\"" CHUNK_END, 0 }, { "\x01", 0 },
  };
  /* The delta's members around its text */
  static const struct { const char *before; const char *after; } kinds[] = {
    { "\"content\":\"", "\"" },
    { "\"reasoning_content\":\"", "\"" },
    { "\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"", "\"}}]" },
  };
  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
      {
        g_autoptr(GString) body = g_string_new (NULL);
        const char *stream[] = { "Hello", texts[i].text, " again" };
        Counts counts = { 0, 0, 0 };

        for (guint j = 0; j < G_N_ELEMENTS (stream); j++)
          {
            g_string_append (body, "data: " CHUNK_START);
            g_string_append (body, kinds[k].before);
            g_string_append (body, stream[j]);
            g_string_append (body, kinds[k].after);
            g_string_append (body, CHUNK_END "\n\n");
          }
        g_string_append (body, "data: [DONE]\n\n");

        assert_same (body->str, body->len, 0, &counts);
        g_assert_cmpuint (counts.n_templated, ==, texts[i].templated);
      }
}

/* Fragments of parallel tool calls, in turns: each call's chunks match a
 * template of their own, up to four calls; beyond, none is kept long
 * enough, and every chunk is read whole. */
static void
test_alternating (void)
{
  for (guint n_calls = 1; n_calls <= 5; n_calls++)
    {
      g_autoptr(GString) body = g_string_new (NULL);
      Counts counts = { 0, 0, 0 };

      for (guint i = 0; i < n_calls; i++)
        g_string_append_printf (body, "data: " CHUNK_START "\"tool_calls\":[{\"index\":%u,\"id\":\"call_%u\","
                                "\"type\":\"function\",\"function\":{\"name\":\"f%u\",\"arguments\":\"\"}}]"
                                CHUNK_END "\n\n", i, i, i);
      for (guint round = 0; round < 10; round++)
        for (guint i = 0; i < n_calls; i++)
          g_string_append_printf (body, "data: " CHUNK_START "\"tool_calls\":[{\"index\":%u,"
                                  "\"function\":{\"arguments\":\"%u,\"}}]" CHUNK_END "\n\n", i, round);
      g_string_append (body, "data: [DONE]\n\n");

      assert_same (body->str, body->len, 0, &counts);
      g_test_message ("%u calls: %u events, %u scanned, %u with a template",
                      n_calls, counts.n_events, counts.n_scanned, counts.n_templated);
      g_assert_cmpuint (counts.n_scanned, ==, 11 * n_calls);
      /* The first fragment of each call is read whole, then the rest
       * with it */
      g_assert_cmpuint (counts.n_templated, ==, n_calls <= 4 ? 9 * n_calls : 0);
    }
}

/* Every chunk cut short, in a buffer of its own size: the scan refuses
 * each (none is JSON) and never reads past its end (under ASan). */
static void
test_cut_short (void)
{
  static const char * const chunks[] = {
    CHUNK ("\"content\":\" the\\u00e9\\\"\"") ,
    CHUNK ("\"tool_calls\":[{\"index\":12,\"function\":{\"arguments\":\"{\\\"a\\\":1}\"}}]"),
    "{\"n\":[1,2.5e3,true,false,null,{\"a\":\"b\"}],\"choices\":[]}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (chunks); i++)
    {
      AgentOpenaiChatScan *scan = _agent_openai_chat_scan_new ();
      gsize len = strlen (chunks[i]);
      guint n_changes;

      /* Whole, it is read */
      g_assert_nonnull (_agent_openai_chat_scan (scan, chunks[i], len, &n_changes));

      for (gsize cut = 0; cut < len; cut++)
        {
          g_autofree char *copy = g_memdup2 (chunks[i], MAX (cut, 1));

          g_assert_null (_agent_openai_chat_scan (scan, copy, cut, &n_changes));
        }
      _agent_openai_chat_scan_free (scan);
    }
}

static const char * const insertions[] = {
  "\"", "\\", "\\u", "\\ud800", "\\udc00", "\\u0000", "\\\"", "null", ",", ":", "{", "}", "[", "]",
  "{\"index\":1}", "\"content\":\"x\",", "\"index\":0,", "\"reasoning\":\"r\",", "\"delta\":{},",
  "\"tool_calls\":[{\"index\":0}],", "1e999", "-1", "12345678901234567890", " ", "\n", "\xc3",
  "\xff", "\x01", "\xe2\x82\xac", "true", "0.5", "\"usage\":{},",
};

/* Where a delta's text begins in @data (past its quote), or -1; *len
 * is how long it is, up to its closing quote */
static gssize
find_delta_text (const char *data,
                 gsize      *len)
{
  static const char * const keys[] = { "\"content\":\"", "\"reasoning_content\":\"", "\"arguments\":\"" };

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      const char *found = strstr (data, keys[i]);
      const char *end;

      if (found == NULL)
        continue;
      found += strlen (keys[i]);
      for (end = found; *end != '\0' && *end != '"'; end++)
        if (*end == '\\' && end[1] != '\0')
          end++;
      *len = end - found;
      return found - data;
    }
  return -1;
}

/* @data with one to three changes the random picks; if @near is not -1,
 * from @near to @near_len bytes after it */
static GString *
mutate (const char *data,
        gsize       len,
        gssize      near,
        gsize       near_len,
        GRand      *rand)
{
  GString *out = g_string_new_len (data, len);
  guint n = g_rand_int_range (rand, 1, 4);

  for (guint i = 0; i < n; i++)
    {
      guint at = out->len ? g_rand_int_range (rand, 0, out->len) : 0;
      guint span = g_rand_int_range (rand, 1, 12);

      if (near >= 0 && (gsize) near < out->len)
        {
          at = near + g_rand_int_range (rand, 0, near_len + 1);
          at = MIN (out->len - 1, at);
        }
      span = MIN (out->len - at, span);

      switch (g_rand_int_range (rand, 0, 4))
        {
        case 0:
          if (out->len > 0)
            out->str[at] = "{}[],:\"\\ 0a-e\x01\x80"[g_rand_int_range (rand, 0, 16)];
          break;
        case 1:
          g_string_insert (out, at, insertions[g_rand_int_range (rand, 0, G_N_ELEMENTS (insertions))]);
          break;
        case 2:
          g_string_erase (out, at, span);
          break;
        default:
          g_string_insert_len (out, at, out->str + at, span);
          break;
        }
    }

  return out;
}

typedef struct
{
  GPtrArray *chunks;   /* GBytes: the data of every event of the corpus, and the shapes */
} Seeds;

static void
add_event (const char *data,
           gpointer    user_data)
{
  Seeds *seeds = user_data;

  if (strcmp (data, "[DONE]") != 0)
    g_ptr_array_add (seeds->chunks, g_bytes_new (data, strlen (data)));
}

static void
test_mutations (void)
{
  g_autoptr(GPtrArray) bodies = corpus_bodies ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (20261202);
  Seeds seeds = { g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref) };
  Counts counts = { 0, 0, 0 };

  for (guint i = 0; i < bodies->len; i++)
    {
      gsize len;
      const char *body = g_bytes_get_data (g_ptr_array_index (bodies, i), &len);

      agent_test_read_sse (body, len, add_event, &seeds);
    }
  for (guint i = 0; i < G_N_ELEMENTS (shapes); i++)
    add_event (shapes[i].chunk, &seeds);

  for (guint i = 0; i < 20000; i++)
    {
      GBytes *seed = g_ptr_array_index (seeds.chunks, g_rand_int_range (rand, 0, seeds.chunks->len));
      gsize len;
      const char *data = g_bytes_get_data (seed, &len);
      /* Half of them changed around their delta's text: what meets the
       * template, and tries it */
      g_autofree char *text = g_strndup (len > 0 ? data : "", len);
      gsize near_len = 0;
      gssize near = i % 2 ? find_delta_text (text, &near_len) : -1;
      g_autoptr(GString) mutated = mutate (data, len, near, near_len, rand);
      g_autoptr(GString) body = g_string_new (NULL);

      /* The event unchanged first: the template the mutated one meets */
      g_string_append (body, "data: ");
      g_string_append_len (body, data, len);
      g_string_append (body, "\n\ndata: ");
      g_string_append_len (body, mutated->str, mutated->len);
      g_string_append (body, "\n\ndata: ");
      g_string_append_len (body, data, len);
      g_string_append (body, "\n\n");

      assert_same (body->str, body->len, 0, &counts);
    }

  g_test_message ("%u events: %u scanned, %u with a template",
                  counts.n_events, counts.n_scanned, counts.n_templated);
  g_assert_cmpuint (counts.n_scanned, >, counts.n_events / 2);
  g_assert_cmpuint (counts.n_templated, >, counts.n_events / 40);
  g_ptr_array_unref (seeds.chunks);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/openai-chat-scan/corpus", test_corpus);
  g_test_add_func ("/openai-chat-scan/shapes", test_shapes);
  g_test_add_func ("/openai-chat-scan/template", test_template);
  g_test_add_func ("/openai-chat-scan/alternating", test_alternating);
  g_test_add_func ("/openai-chat-scan/cut-short", test_cut_short);
  g_test_add_func ("/openai-chat-scan/mutations", test_mutations);

  return g_test_run ();
}
