/* bench-store.c — what keeping conversations costs
 *
 * Builds a store of 1,000 conversations (10 messages each) and one
 * conversation of 10,000 messages (user prompts, answers with reasoning,
 * usage and metrics, tool calls with their results), then measures, each
 * on a store opened afresh (a new connection, as an app starting up):
 *
 *   - opening the store and listing the 1,000 conversations (their titles);
 *   - loading the 10,000-message conversation;
 *   - full-text searches (a common word, a rare one, a prefix);
 *   - exporting the big conversation as JSON and as Markdown;
 *   - appending with synchronous=FULL, as a session does: one user message,
 *     and one assistant message with its two results (one transaction).
 *
 * The data is written with synchronous=OFF (a private switch of this
 * program) so that building it takes seconds, not the minutes of 12,000
 * fsyncs; the append figures are measured with the store's own setting.
 *
 *   bench-store [--runs N] [--dir DIR]
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gstdio.h>

#include <agent.h>

#include "store/agent-store-private.h"
#include "bench-util.h"

#define N_CONVERSATIONS 1000
#define N_PER_CONVERSATION 10
#define N_BIG 10000
#define N_APPENDS 100

static int opt_runs = 5;
static char *opt_dir;

static const GOptionEntry entries[] = {
  { "runs", 0, 0, G_OPTION_ARG_INT, &opt_runs, "Runs per measurement (default 5)", "N" },
  { "dir", 0, 0, G_OPTION_ARG_FILENAME, &opt_dir, "Where to put the database (default: a "
    "new folder in /tmp)", "DIR" },
  { NULL }
};

static const char * const words[] = {
  "the", "model", "answer", "tool", "stream", "delta", "conversation", "keyring", "search",
  "quick", "brown", "fox", "lazy", "dog", "café", "naïve", "über", "东京", "🙂", "kernel",
};

static char *
sentence (GRand *rand,
          guint  n_words)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < n_words; i++)
    g_string_append_printf (text, "%s%s", i ? " " : "",
                            words[g_rand_int_range (rand, 0, G_N_ELEMENTS (words))]);
  g_string_append (text, ".");
  return g_string_free (text, FALSE);
}

static void
append (AgentConversation *conversation,
        AgentMessage      *message)
{
  g_autoptr(GError) error = NULL;

  if (!agent_memory_append (AGENT_MEMORY (conversation), message, &error))
    g_error ("append: %s", error->message);
  g_object_unref (message);
}

static AgentMessage *
answer (GRand      *rand,
        const char *text)
{
  g_autoptr(JsonNode) raw = json_from_string ("{\"prompt_tokens\":1200,\"completion_tokens\":80,"
                                              "\"total_tokens\":1280,"
                                              "\"completion_tokens_details\":"
                                              "{\"reasoning_tokens\":30}}", NULL);
  g_autoptr(AgentUsage) usage = agent_usage_new_from_json (raw);
  g_autofree char *reasoning = sentence (rand, 30);

  return g_object_new (AGENT_TYPE_MESSAGE,
                       "role", AGENT_MESSAGE_ROLE_ASSISTANT,
                       "content", text,
                       "reasoning", reasoning,
                       "finish-reason", "stop",
                       "usage", usage,
                       "model", "bench-model",
                       "response-id", "chatcmpl-bench",
                       NULL);
}

/* Ten messages: prompt, answer; prompt, calls, two results, answer;
 * prompt, answer, prompt — in that pattern, repeated for big ones */
static void
fill (AgentConversation *conversation,
      GRand             *rand,
      guint              n_messages)
{
  guint n = 0;

  while (n < n_messages)
    {
      g_autofree char *prompt = sentence (rand, 12);
      g_autofree char *text = sentence (rand, 120);

      append (conversation, agent_message_new (AGENT_MESSAGE_ROLE_USER, prompt));
      n++;
      if (n % 10 == 3 && n + 3 <= n_messages)
        {
          AgentMessage *calls = answer (rand, NULL);
          g_autoptr(AgentToolCall) a = agent_tool_call_new ("call_a", "calculator",
                                                            "{\"expression\":\"2+2\"}");
          g_autoptr(AgentToolCall) b = agent_tool_call_new ("call_b", "read_file",
                                                            "{\"path\":\"notes.txt\"}");

          agent_message_add_tool_call (calls, a);
          agent_message_add_tool_call (calls, b);
          append (conversation, calls);
          append (conversation, agent_message_new_tool_result ("call_a", "calculator", "4", FALSE));
          append (conversation, agent_message_new_tool_result ("call_b", "read_file", text, FALSE));
          n += 3;
        }
      else if (n < n_messages)
        {
          append (conversation, answer (rand, text));
          n++;
        }
    }
}

static AgentStore *
open_store (const char *path)
{
  g_autoptr(GError) error = NULL;
  AgentStore *store = agent_store_new (path, &error);

  if (store == NULL)
    g_error ("open: %s", error->message);
  return store;
}

static void
set_synchronous (AgentStore *store,
                 const char *mode)
{
  g_autofree char *sql = g_strdup_printf ("PRAGMA synchronous = %s", mode);

  _agent_store_db_exec (_agent_store_get_db (store), sql, NULL);
}

static void
report (const char   *what,
        const double *seconds,
        guint         n,
        const char   *detail)
{
  g_print ("  %-44s %9.2f ms  (median of %u; min %.2f, max %.2f)%s%s\n", what,
           bench_median (seconds, n) * 1e3, n,
           bench_percentile (seconds, n, 0) * 1e3, bench_percentile (seconds, n, 100) * 1e3,
           detail ? "  " : "", detail ? detail : "");
}

static gint64 big_id;

static void
measure_list (const char *path,
              double     *seconds)
{
  double start = bench_wall_now ();
  g_autoptr(AgentStore) store = open_store (path);
  g_autoptr(GListModel) list = agent_store_list_conversations (store);
  guint n = g_list_model_get_n_items (list);
  gsize title_bytes = 0;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AgentConversation) conversation = g_list_model_get_item (list, i);

      title_bytes += strlen (agent_conversation_get_title (conversation));
    }
  *seconds = bench_wall_now () - start;
  g_assert (n == N_CONVERSATIONS + 1 && title_bytes > 0);
}

static void
measure_load (const char *path,
              double     *seconds)
{
  g_autoptr(AgentStore) store = open_store (path);
  double start = bench_wall_now ();
  g_autoptr(AgentConversation) conversation = agent_store_lookup_conversation (store, big_id);
  g_autoptr(GError) error = NULL;

  if (!agent_conversation_load (conversation, &error))
    g_error ("load: %s", error->message);
  *seconds = bench_wall_now () - start;
  g_assert (g_list_model_get_n_items (G_LIST_MODEL (conversation)) == N_BIG);
}

static guint
measure_search (AgentStore *store,
                const char *text,
                double     *seconds)
{
  double start = bench_wall_now ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GListModel) found = agent_store_search (store, text, &error);

  *seconds = bench_wall_now () - start;
  if (found == NULL)
    g_error ("search: %s", error->message);
  return g_list_model_get_n_items (found);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) context = g_option_context_new ("— what keeping conversations costs");
  g_autoptr(GError) error = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);
  g_autoptr(AgentStore) store = NULL;
  g_autoptr(AgentConversation) big = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autofree double *seconds = NULL;
  GStatBuf info;
  double start;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("bench-store: %s\n", error->message);
      return 1;
    }
  opt_runs = CLAMP (opt_runs, 1, 100);
  seconds = g_new0 (double, MAX (opt_runs, N_APPENDS));

  dir = opt_dir ? g_strdup (opt_dir) : g_dir_make_tmp ("bench-store-XXXXXX", NULL);
  path = g_build_filename (dir, "conversations.db", NULL);
  g_print ("bench-store (libagent %s, %s build, -O%s, SQLite %s) in %s\n", PACKAGE_VERSION,
           BENCH_BUILDTYPE, BENCH_OPTIMIZATION, sqlite3_libversion (), path);

  /* The data */
  start = bench_wall_now ();
  store = open_store (path);
  set_synchronous (store, "OFF");
  big = agent_store_create_conversation (store);
  fill (big, rand, N_BIG);
  big_id = agent_conversation_get_id (big);
  for (guint i = 0; i < N_CONVERSATIONS; i++)
    {
      g_autoptr(AgentConversation) conversation = agent_store_create_conversation (store);

      fill (conversation, rand, N_PER_CONVERSATION);
    }
  set_synchronous (store, "FULL");
  g_stat (path, &info);
  g_print ("  built %u conversations of %u messages and one of %u in %.1f s; file %.1f MB\n\n",
           N_CONVERSATIONS, N_PER_CONVERSATION, N_BIG, bench_wall_now () - start,
           info.st_size / 1e6);

  g_print ("Reading (each run opens the store afresh)\n");
  for (int i = 0; i < opt_runs; i++)
    measure_list (path, &seconds[i]);
  report ("open + list 1,001 conversations (titles)", seconds, opt_runs, NULL);
  for (int i = 0; i < opt_runs; i++)
    measure_load (path, &seconds[i]);
  report ("load one conversation of 10,000 messages", seconds, opt_runs, NULL);

  g_print ("\nSearch (FTS5)\n");
  {
    const char * const queries[] = { "kernel fox", "东京", "conv", "zebra" };

    for (guint q = 0; q < G_N_ELEMENTS (queries); q++)
      {
        g_autofree char *what = g_strdup_printf ("search “%s”", queries[q]);
        g_autofree char *detail = NULL;
        guint n = 0;

        for (int i = 0; i < opt_runs; i++)
          n = measure_search (store, queries[q], &seconds[i]);
        detail = g_strdup_printf ("%u conversations", n);
        report (what, seconds, opt_runs, detail);
      }
  }

  g_print ("\nExport of the 10,000 messages\n");
  for (guint format = 0; format < 2; format++)
    {
      gsize size = 0;

      for (int i = 0; i < opt_runs; i++)
        {
          g_autofree char *text = NULL;

          start = bench_wall_now ();
          text = agent_conversation_export (big, format, &error);
          seconds[i] = bench_wall_now () - start;
          g_assert_no_error (error);
          size = strlen (text);
        }
      {
        g_autofree char *detail = g_strdup_printf ("%.1f MB", size / 1e6);

        report (format == AGENT_EXPORT_FORMAT_JSON ? "as JSON" : "as Markdown", seconds,
                opt_runs, detail);
      }
    }

  g_print ("\nWriting, synchronous=FULL (an fsync per commit, as a session writes)\n");
  {
    g_autoptr(AgentConversation) conversation = agent_store_create_conversation (store);

    for (guint i = 0; i < N_APPENDS; i++)
      {
        start = bench_wall_now ();
        append (conversation, agent_message_new (AGENT_MESSAGE_ROLE_USER, "A prompt."));
        seconds[i] = bench_wall_now () - start;
      }
    report ("append a user message (1 commit)", seconds, N_APPENDS, NULL);

    for (guint i = 0; i < N_APPENDS; i++)
      {
        AgentMessage *calls = answer (rand, NULL);
        g_autoptr(AgentToolCall) a = agent_tool_call_new ("call_a", "calculator", "{}");
        g_autoptr(AgentToolCall) b = agent_tool_call_new ("call_b", "calculator", "{}");

        agent_message_add_tool_call (calls, a);
        agent_message_add_tool_call (calls, b);
        start = bench_wall_now ();
        append (conversation, calls);
        append (conversation, agent_message_new_tool_result ("call_a", "calculator", "1", FALSE));
        append (conversation, agent_message_new_tool_result ("call_b", "calculator", "2", FALSE));
        seconds[i] = bench_wall_now () - start;
      }
    report ("append calls + 2 results (1 commit)", seconds, N_APPENDS, NULL);
  }

  g_clear_object (&big);
  g_clear_object (&store);
  if (opt_dir == NULL)
    {
      const char * const suffixes[] = { "", "-wal", "-shm" };

      for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
        {
          g_autofree char *file = g_strconcat (path, suffixes[i], NULL);

          g_unlink (file);
        }
      g_rmdir (dir);
    }
  return 0;
}
