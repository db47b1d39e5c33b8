/* agent-test-provider.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "agent-test-feed.h"
#include "agent-test-provider.h"
#include "agent-test-util.h"

static const guint32 seeds[] = { 1, 2, 3, 0xC0FFEE, 20240601 };

static void
free_gstring (gpointer data)
{
  g_string_free (data, TRUE);
}

/* Comparisons */

/* @s in quotes, escaped, and cut short if long; NULL unquoted. */
static void
append_quoted (GString    *out,
               const char *s)
{
  g_autofree char *escaped = NULL;

  if (s == NULL)
    {
      g_string_append (out, "NULL");
      return;
    }
  escaped = g_strescape (s, NULL);
  if (strlen (escaped) > 200)
    g_string_append_printf (out, "\"%.200s…\" (%zu bytes)", escaped, strlen (s));
  else
    g_string_append_printf (out, "\"%s\"", escaped);
}

/* Two strings, either possibly NULL, must be equal. */
void
agent_test_expect_str (GString    *problems,
                       const char *what,
                       const char *expected,
                       const char *actual)
{
  if (g_strcmp0 (expected, actual) == 0)
    return;
  g_string_append_printf (problems, "\n  %s: expected ", what);
  append_quoted (problems, expected);
  g_string_append (problems, ", got ");
  append_quoted (problems, actual);
}

void
agent_test_expect_int (GString    *problems,
                       const char *what,
                       gint64      expected,
                       gint64      actual)
{
  if (expected != actual)
    g_string_append_printf (problems,
                            "\n  %s: expected %" G_GINT64_FORMAT ", got %" G_GINT64_FORMAT,
                            what, expected, actual);
}

/* @what is the claim that did not hold. */
void
agent_test_expect_true (GString    *problems,
                        const char *what,
                        gboolean    value)
{
  if (!value)
    g_string_append_printf (problems, "\n  %s", what);
}

/* Equal as agent_test_json_equal() says; NULL only equals NULL. */
void
agent_test_expect_json (GString    *problems,
                        const char *what,
                        JsonNode   *expected,
                        JsonNode   *actual)
{
  g_autofree char *want = NULL;
  g_autofree char *got = NULL;

  if (agent_test_json_equal (expected, actual))
    return;
  want = expected ? json_to_string (expected, FALSE) : g_strdup ("(none)");
  got = actual ? json_to_string (actual, FALSE) : g_strdup ("(none)");
  g_string_append_printf (problems, "\n  %s: expected %s, got %s", what, want, got);
}

/* Members */

static JsonNode *
member (JsonObject *object,
        const char *name)
{
  return object != NULL ? json_object_get_member (object, name) : NULL;
}

JsonObject *
agent_test_member_object (JsonObject *object,
                          const char *name)
{
  JsonNode *node = member (object, name);

  return node && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

JsonArray *
agent_test_member_array (JsonObject *object,
                         const char *name)
{
  JsonNode *node = member (object, name);

  return node && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

/* The test fails if the member is an object or an array. */
const char *
agent_test_member_string (JsonObject *object,
                          const char *name)
{
  JsonNode *node = member (object, name);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return NULL;
  g_assert_true (JSON_NODE_HOLDS_VALUE (node));
  return json_node_get_string (node);
}

gint64
agent_test_member_int (JsonObject *object,
                       const char *name)
{
  JsonNode *node = member (object, name);

  return node && JSON_NODE_HOLDS_VALUE (node) ? json_node_get_int (node) : 0;
}

/* The member at @path, a name or DETAILS.NAME, as an integer; 0 if none */
static gint64
count_at (JsonObject *object,
          const char *path)
{
  g_auto(GStrv) names = g_strsplit (path, ".", 2);

  if (names[1] == NULL)
    return agent_test_member_int (object, names[0]);
  return agent_test_member_int (agent_test_member_object (object, names[0]), names[1]);
}

/* @usage is the usage object @expected (none if NULL or null); its counts are @names' members. */
void
agent_test_expect_usage (GString                   *problems,
                         AgentUsage                *usage,
                         JsonNode                  *expected,
                         const AgentTestUsageNames *names)
{
  JsonObject *object;

  if (expected == NULL || JSON_NODE_HOLDS_NULL (expected))
    {
      agent_test_expect_true (problems, "usage: expected none", usage == NULL);
      return;
    }
  if (usage == NULL)
    {
      agent_test_expect_true (problems, "usage: expected some, got none", FALSE);
      return;
    }

  agent_test_expect_json (problems, "usage (raw)", expected, agent_usage_get_raw (usage));
  object = json_node_get_object (expected);
  agent_test_expect_int (problems, "usage.prompt_tokens", count_at (object, names->prompt),
                         agent_usage_get_prompt_tokens (usage));
  agent_test_expect_int (problems, "usage.completion_tokens",
                         count_at (object, names->completion),
                         agent_usage_get_completion_tokens (usage));
  agent_test_expect_int (problems, "usage.total_tokens", count_at (object, names->total),
                         agent_usage_get_total_tokens (usage));
  agent_test_expect_int (problems, "usage.reasoning_tokens", count_at (object, names->reasoning),
                         agent_usage_get_reasoning_tokens (usage));
  agent_test_expect_int (problems, "usage.cached_tokens", count_at (object, names->cached),
                         agent_usage_get_cached_tokens (usage));
}

/* The corpus */

/* Reads @path, which ends in @suffix, and the .expected.json beside it. */
void
agent_test_corpus_file_load (AgentTestCorpusFile *self,
                             const char          *path,
                             const char          *suffix)
{
  g_autofree char *basename = g_path_get_basename (path);
  g_autofree char *expected_path = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *root;

  g_assert_true (g_str_has_suffix (basename, suffix));
  memset (self, 0, sizeof *self);
  self->path = g_strdup (path);
  self->name = g_strndup (basename, strlen (basename) - strlen (suffix));
  g_file_get_contents (path, &self->body, &self->body_len, &error);
  g_assert_no_error (error);

  expected_path = g_strdup_printf ("%.*s.expected.json", (int) (strlen (path) - strlen (suffix)),
                                   path);
  self->root = agent_test_load_json (expected_path);
  root = json_node_get_object (self->root);
  self->result = json_object_get_object_member (root, "result");
  self->transport = json_object_get_object_member (root, "transport");
  g_assert_nonnull (self->result);
  g_assert_nonnull (self->transport);
}

void
agent_test_corpus_file_clear (AgentTestCorpusFile *self)
{
  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->body, g_free);
  g_clear_pointer (&self->root, json_node_unref);
  self->result = self->transport = NULL;
}

static void
corpus_case_free (gpointer data)
{
  AgentTestCorpusCase *c = data;

  g_free (c->path);
  g_free (c);
}

/* Adds @func as PREFIX/NAME/MODE per file and mode; "cuts" only under AGENT_TEST_CUT_LIMIT. */
void
agent_test_add_corpus_cases (const char         *prefix,
                             const char         *subdir,
                             const char         *suffix,
                             const char * const *modes,
                             GTestDataFunc       func)
{
  g_auto(GStrv) files = agent_test_list_corpus (subdir, suffix);

  g_assert_nonnull (files[0]);
  for (guint i = 0; files[i] != NULL; i++)
    {
      g_autofree char *basename = g_path_get_basename (files[i]);
      GStatBuf st;

      g_assert_cmpint (g_stat (files[i], &st), ==, 0);
      basename[strlen (basename) - strlen (suffix)] = '\0';

      for (guint mode = 0; modes[mode] != NULL; mode++)
        {
          g_autofree char *path = g_strdup_printf ("%s/%s/%s", prefix, basename, modes[mode]);
          AgentTestCorpusCase *c;

          if (g_str_equal (modes[mode], "cuts") && st.st_size >= AGENT_TEST_CUT_LIMIT)
            continue;
          c = g_new0 (AgentTestCorpusCase, 1);
          c->path = g_strdup (files[i]);
          c->mode = mode;
          g_test_add_data_func_full (path, c, func, corpus_case_free);
        }
    }
}

/* Gives @func each event's data, read by a plain line splitter, not the library's; counts them. */
guint
agent_test_read_sse (const char         *body,
                     gsize               len,
                     AgentTestEventFunc  func,
                     gpointer            user_data)
{
  g_autoptr(GString) data = g_string_new (NULL);
  const char *p = body;
  const char *end = body + len;
  guint n_events = 0;

  while (p < end)
    {
      const char *eol = p;
      g_autofree char *line = NULL;

      while (eol < end && *eol != '\n' && *eol != '\r')
        eol++;
      if (eol == end)
        break;

      line = g_strndup (p, eol - p);
      p = eol + 1;
      if (*eol == '\r' && p < end && *p == '\n')
        p++;

      if (line[0] == '\0' && data->len > 0)
        {
          g_string_truncate (data, data->len - 1);
          func (data->str, user_data);
          n_events++;
          g_string_truncate (data, 0);
        }
      else if (g_str_has_prefix (line, "data:"))
        {
          const char *value = line + strlen ("data:");

          if (*value == ' ')
            value++;
          g_string_append (data, value);
          g_string_append_c (data, '\n');
        }
    }

  return n_events;
}

/* Replays */

/* Finishes @replay and checks it; FALSE, with the test failed, if wrong. */
static gboolean
check_replay (AgentTestReplay      *replay,
              AgentTestReplayCheck  check,
              gpointer              user_data,
              const char           *context)
{
  g_autofree char *problems = NULL;

  agent_test_replay_finish (replay);
  if ((problems = check (replay, user_data)) == NULL)
    return TRUE;
  g_test_fail_printf ("%s:%s", context, problems);
  return FALSE;
}

/* Decodes @body fed as @mode says, each time anew; the first replay @check finds wrong fails. */
gboolean
agent_test_replay_body (const AgentProviderBackend *backend,
                        const char                 *body,
                        gsize                       len,
                        AgentTestReplayMode         mode,
                        AgentTestReplayCheck        check,
                        gpointer                    user_data)
{
  switch (mode)
    {
    case AGENT_TEST_REPLAY_WHOLE:
    case AGENT_TEST_REPLAY_BYTES:
      {
        g_autoptr(AgentTestReplay) r = agent_test_replay_new_for_backend (backend);
        gboolean whole = mode == AGENT_TEST_REPLAY_WHOLE;

        agent_test_feed (agent_test_replay_feed, r, body, len,
                         whole ? AGENT_TEST_FEED_WHOLE : AGENT_TEST_FEED_BYTES, NULL, &r->error);
        return check_replay (r, check, user_data, whole ? "fed whole" : "fed one byte at a time");
      }

    case AGENT_TEST_REPLAY_RANDOM:
      /* For each seed, small pieces of even sizes, then mixed sizes */
      for (guint i = 0; i < 2 * G_N_ELEMENTS (seeds); i++)
        {
          g_autoptr(AgentTestReplay) r = agent_test_replay_new_for_backend (backend);
          g_autoptr(GRand) rand = g_rand_new_with_seed (seeds[i / 2]);
          g_autofree char *context = g_strdup_printf ("random pieces (%s), seed %u",
                                                      i % 2 ? "mixed sizes" : "small",
                                                      seeds[i / 2]);

          if (i % 2 == 0)
            agent_test_feed_pieces (agent_test_replay_feed, r, body, len, AGENT_TEST_MAX_PIECE,
                                    rand, &r->error);
          else
            agent_test_feed (agent_test_replay_feed, r, body, len, AGENT_TEST_FEED_RANDOM, rand,
                             &r->error);
          if (!check_replay (r, check, user_data, context))
            return FALSE;
        }
      return TRUE;

    case AGENT_TEST_REPLAY_ALL:
      for (AgentTestReplayMode each = 0; each < AGENT_TEST_REPLAY_ALL; each++)
        if ((each != AGENT_TEST_REPLAY_CUTS || len < AGENT_TEST_CUT_LIMIT) &&
            !agent_test_replay_body (backend, body, len, each, check, user_data))
          return FALSE;
      return TRUE;

    case AGENT_TEST_REPLAY_CUTS:
    case AGENT_TEST_REPLAY_LINE_CUTS:
      for (gsize cut = 1, line = 0; cut < len; cut++)
        {
          g_autoptr(AgentTestReplay) r = NULL;
          g_autofree char *context = NULL;

          /* Cutting anywhere inside a line is much the same to a line
           * splitter, and sanitizer builds are slow. */
          if (body[cut - 1] == '\n')
            line = cut;
          if (mode == AGENT_TEST_REPLAY_LINE_CUTS && cut - line > 8 && cut % 13 != 0 &&
              memchr (body + cut, '\n', MIN (3, len - cut)) == NULL)
            continue;

          r = agent_test_replay_new_for_backend (backend);
          context = g_strdup_printf ("cut at byte %zu", cut);
          agent_test_feed_cut (agent_test_replay_feed, r, body, len, cut, &r->error);
          if (!check_replay (r, check, user_data, context))
            return FALSE;
        }
      return TRUE;

    default:
      g_assert_not_reached ();
    }
}

/* What @replay's listener heard against its message, and how many deltas against @deltas. */
void
agent_test_expect_heard (GString               *problems,
                         AgentTestReplay       *replay,
                         const AgentTestDeltas *deltas)
{
  AgentMessage *message = agent_test_replay_get_message (replay);
  const char *content = agent_message_get_content (message);
  const char *reasoning = agent_message_get_reasoning (message);
  const char *refusal = agent_message_get_refusal (message);
  guint n_calls = agent_message_get_n_tool_calls (message);

  g_string_append (problems, replay->problems->str);
  agent_test_expect_str (problems, "text deltas concatenated", content ? content : "",
                         replay->text->str);
  agent_test_expect_str (problems, "reasoning deltas concatenated", reasoning ? reasoning : "",
                         replay->reasoning->str);
  agent_test_expect_str (problems, "refusal deltas concatenated", refusal ? refusal : "",
                         replay->refusal->str);
  if (deltas != NULL)
    {
      agent_test_expect_int (problems, "number of text deltas", deltas->n_text, replay->n_text);
      agent_test_expect_int (problems, "number of reasoning deltas", deltas->n_reasoning,
                             replay->n_reasoning);
      agent_test_expect_int (problems, "number of refusal deltas", deltas->n_refusal,
                             replay->n_refusal);
      agent_test_expect_int (problems, "number of argument fragments", deltas->n_fragments,
                             replay->n_fragments);
    }
  agent_test_expect_int (problems, "calls the listener heard of", n_calls,
                         g_hash_table_size (replay->fragments));

  for (guint i = 0; i < n_calls; i++)
    {
      AgentToolCall *call = agent_message_get_tool_call (message, i);

      agent_test_expect_str (problems, "a call's fragments concatenated",
                             agent_tool_call_get_arguments (call),
                             agent_test_replay_get_fragments (replay, call));
    }
}

/* Tool calls */

/* @call's id is @want_id; a session gives a call that came without one an id of its own. */
void
agent_test_expect_call_id (GString        *problems,
                           const char     *what,
                           AgentToolCall  *call,
                           const char     *want_id,
                           AgentTestCalls  calls)
{
  g_autofree char *label = g_strdup_printf ("%s: id", what);

  if (want_id != NULL || calls == AGENT_TEST_CALLS_READY)
    agent_test_expect_str (problems, label, want_id, agent_tool_call_get_id (call));
  else
    agent_test_expect_true (problems, "the session gives calls without an id one",
                            agent_tool_call_get_id (call) != NULL);
}

/* @call is ready, or failed as an unknown tool with a result that names it. */
void
agent_test_expect_call_state (GString        *problems,
                              const char     *what,
                              AgentToolCall  *call,
                              AgentTestCalls  calls)
{
  g_autofree char *label = g_strdup_printf ("%s: state", what);
  const char *result = agent_tool_call_get_result (call);
  const char *name = agent_tool_call_get_name (call);

  if (calls == AGENT_TEST_CALLS_READY)
    {
      agent_test_expect_int (problems, label, AGENT_TOOL_CALL_STATE_READY,
                             agent_tool_call_get_state (call));
      return;
    }

  agent_test_expect_int (problems, label, AGENT_TOOL_CALL_STATE_FAILED,
                         agent_tool_call_get_state (call));
  agent_test_expect_true (problems, "an unknown tool's result is an error",
                          agent_tool_call_is_error (call));
  agent_test_expect_true (problems, "an unknown tool's result names it",
                          result != NULL && name != NULL && strstr (result, name) != NULL);
}

/* Sessions */

/* A provider @name at @server's /v1 URL if its default URL ends so, else at the server's root. */
AgentProvider *
agent_test_provider_new (AgentTestServer *server,
                         const char      *name)
{
  g_autoptr(GError) error = NULL;
  AgentProvider *provider = agent_provider_new (name, &error);
  const char *url = agent_test_server_get_base_url (server);
  g_autofree char *root = g_strndup (url, strlen (url) - strlen ("/v1"));

  g_assert_no_error (error);
  g_assert_true (g_str_has_suffix (url, "/v1"));
  if (g_str_has_suffix (agent_provider_get_default_base_url (provider), "/v1"))
    agent_provider_set_base_url (provider, url);
  else
    agent_provider_set_base_url (provider, root);

  return provider;
}

static void
append_for (GHashTable *table,
            gpointer    key,
            const char *text)
{
  GString *string = g_hash_table_lookup (table, key);

  if (string == NULL)
    g_hash_table_insert (table, g_object_ref (key), (string = g_string_new (NULL)));
  g_string_append (string, text);
}

static void
text_delta_cb (AgentSession     *session,
               AgentMessage     *message,
               const char       *delta,
               AgentTestSession *self)
{
  if (message != agent_session_get_current_message (session))
    g_string_append (self->problems, "\n  text-delta for a message that is not the current one");
  g_string_append (self->text, delta);
  append_for (self->text_of, message, delta);
}

static void
reasoning_delta_cb (AgentSession     *session,
                    AgentMessage     *message,
                    const char       *delta,
                    AgentTestSession *self)
{
  self->n_reasoning++;
  g_string_append (self->reasoning, delta);
  append_for (self->reasoning_of, message, delta);
}

static void
tool_call_delta_cb (AgentSession     *session,
                    AgentToolCall    *call,
                    const char       *delta,
                    AgentTestSession *self)
{
  self->n_fragments++;
  g_string_append (self->fragments, delta);
  append_for (self->fragments_of, call, delta);
}

static void
step_finished_cb (AgentSession     *session,
                  AgentMessage     *message,
                  AgentTestSession *self)
{
  g_ptr_array_add (self->steps, g_object_ref (message));
}

static GHashTable *
heard_table_new (void)
{
  return g_hash_table_new_full (NULL, NULL, g_object_unref, free_gstring);
}

/* A server, a provider @provider_name for it, and a session of it recording its signals. */
void
agent_test_session_init (AgentTestSession *self,
                         const char       *provider_name)
{
  memset (self, 0, sizeof *self);
  self->server = agent_test_server_new ();
  self->provider = agent_test_provider_new (self->server, provider_name);
  self->session = agent_session_new (self->provider);
  self->text = g_string_new (NULL);
  self->reasoning = g_string_new (NULL);
  self->fragments = g_string_new (NULL);
  self->text_of = heard_table_new ();
  self->reasoning_of = heard_table_new ();
  self->fragments_of = heard_table_new ();
  self->steps = g_ptr_array_new_with_free_func (g_object_unref);
  self->problems = g_string_new (NULL);

  g_signal_connect (self->session, "text-delta", G_CALLBACK (text_delta_cb), self);
  g_signal_connect (self->session, "reasoning-delta", G_CALLBACK (reasoning_delta_cb), self);
  g_signal_connect (self->session, "tool-call-delta", G_CALLBACK (tool_call_delta_cb), self);
  g_signal_connect (self->session, "step-finished", G_CALLBACK (step_finished_cb), self);
}

/* Fails the test if a signal broke a promise; the session and provider must be finalized. */
void
agent_test_session_clear (AgentTestSession *self)
{
  if (self->problems->len > 0)
    g_test_fail_printf ("The session's signals:%s", self->problems->str);

  agent_test_turn_clear (&self->turn);
  g_string_free (self->text, TRUE);
  g_string_free (self->reasoning, TRUE);
  g_string_free (self->fragments, TRUE);
  g_hash_table_unref (self->text_of);
  g_hash_table_unref (self->reasoning_of);
  g_hash_table_unref (self->fragments_of);
  g_ptr_array_unref (self->steps);
  g_string_free (self->problems, TRUE);
  g_assert_finalize_object (self->session);
  g_assert_finalize_object (self->provider);
  agent_test_server_free (self->server);
}

/* What one of the tables of an AgentTestSession holds for @key; "" if nothing. */
const char *
agent_test_heard (GHashTable *table,
                  gpointer    key)
{
  GString *string = g_hash_table_lookup (table, key);

  return string != NULL ? string->str : "";
}

typedef struct
{
  char     **names;
  GError    *error;
  gboolean   finished;
} ListModels;

static void
list_models_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  ListModels *list = user_data;

  list->names = agent_provider_list_models_finish (AGENT_PROVIDER (object), result, &list->error);
  list->finished = TRUE;
}

/* agent_provider_list_models_async(), run to its end. */
char **
agent_test_list_models (AgentProvider  *provider,
                        GError        **error)
{
  ListModels list = { 0 };

  agent_provider_list_models_async (provider, NULL, list_models_cb, &list);
  agent_test_wait_for (&list.finished);
  if (list.error != NULL)
    g_propagate_error (error, list.error);

  return list.names;
}

/* Listing models fails with @code (and @message) when @server answers @status and @body. */
void
agent_test_assert_models_error (AgentProvider   *provider,
                                AgentTestServer *server,
                                guint            status,
                                const char      *body,
                                int              code,
                                const char      *message)
{
  AgentTestResponse *response = agent_test_server_add_response (server, status);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = NULL;

  agent_test_response_set_body (response, "application/json", body);
  names = agent_test_list_models (provider, &error);
  g_assert_null (names);
  g_assert_error (error, AGENT_ERROR, code);
  if (message != NULL)
    agent_test_assert_contains (error->message, message);
}

/* Writing events and requests */

/* JSON written with ' for ", to be readable in C strings: the real text. */
char *
agent_test_json_text (const char *quoted)
{
  return g_strdelimit (g_strdup (quoted), "'", '"');
}

/* An SSE event as Anthropic and OpenAI's Responses API write it, with @json's "type". */
void
agent_test_append_typed_event (GString    *body,
                               const char *json)
{
  g_autoptr(JsonNode) node = agent_test_parse_json (json);

  g_string_append_printf (body, "event: %s\ndata: %s\n\n",
                          agent_test_get_string (json_node_get_object (node), "type"), json);
}

/* The same, written to @response in one piece. */
void
agent_test_add_typed_event (AgentTestResponse *response,
                            const char        *json)
{
  g_autoptr(GString) event = g_string_new (NULL);

  agent_test_append_typed_event (event, json);
  agent_test_response_add_bytes (response, event->str, event->len);
}

/* The same, of JSON written with single quotes (agent_test_json_text()) */
void
agent_test_add_typed_quoted (AgentTestResponse *response,
                             const char        *quoted)
{
  g_autofree char *json = agent_test_json_text (quoted);

  agent_test_add_typed_event (response, json);
}

/* The body @provider writes for @model (its own if NULL) and @messages (none if NULL). */
char *
agent_test_build_body (AgentProvider *provider,
                       const char    *model,
                       const char    *system_prompt,
                       GListModel    *messages,
                       GListModel    *tools)
{
  g_autoptr(GListStore) empty = g_list_store_new (AGENT_TYPE_MESSAGE);
  AgentRequest request = {
    provider,
    model ? model : agent_provider_get_model (provider),
    system_prompt,
    messages ? messages : G_LIST_MODEL (empty),
    tools,
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) body = _agent_provider_get_backend (provider)->build_body (&request, &error);

  g_assert_no_error (error);
  g_assert_nonnull (body);
  return g_strndup (g_bytes_get_data (body, NULL), g_bytes_get_size (body));
}

/* An assistant message with calls, given as id, name, arguments, … NULL. */
AgentMessage *
agent_test_assistant_new (const char *content,
                          const char *reasoning,
                          ...)
{
  AgentMessage *message = g_object_new (AGENT_TYPE_MESSAGE,
                                        "role", AGENT_MESSAGE_ROLE_ASSISTANT,
                                        "content", content,
                                        "reasoning", reasoning,
                                        NULL);
  const char *id;
  va_list args;

  va_start (args, reasoning);
  while ((id = va_arg (args, const char *)) != NULL)
    {
      const char *name = va_arg (args, const char *);
      const char *arguments = va_arg (args, const char *);
      g_autoptr(AgentToolCall) call = agent_tool_call_new (id, name, arguments);

      agent_message_add_tool_call (message, call);
    }
  va_end (args);

  return message;
}

/* A list of the messages given, up to NULL; it takes the references. */
GListStore *
agent_test_messages_new (AgentMessage *first,
                         ...)
{
  GListStore *store = g_list_store_new (AGENT_TYPE_MESSAGE);
  va_list args;

  va_start (args, first);
  for (AgentMessage *message = first; message != NULL; message = va_arg (args, AgentMessage *))
    {
      g_list_store_append (store, message);
      g_object_unref (message);
    }
  va_end (args);

  return store;
}

/* Fails the test unless @actual is the JSON @expected. */
void
agent_test_assert_json (JsonNode   *actual,
                        const char *expected)
{
  g_autoptr(JsonNode) want = agent_test_parse_json (expected);

  if (!agent_test_json_equal (want, actual))
    {
      g_autofree char *got = actual ? json_to_string (actual, FALSE) : g_strdup ("(none)");

      g_error ("Expected %s\n     got %s", expected, got);
    }
}
