/* test-cli.c — agent-cli as a black box: the real binary against a real HTTP server
 *
 * Each case runs $AGENT_CLI with pipes on its standard streams while this
 * process serves the scripted answers of an AgentTestServer from its main
 * loop, then checks what the child printed, how it exited and what it sent.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <signal.h>
#include <string.h>

#include <agent.h>

#include "agent-test-server.h"
#include "agent-test-util.h"

/* Only a bound where a hang would otherwise occur: never a timing check. */
#define WAIT_LIMIT_SECONDS 20

#define SECRET_KEY "sk-test-secret-123"

#define ARGS(...) ((const char * const[]) { __VA_ARGS__, NULL })

static const char *cli_path;
static const char *demo_server_path;

/* Running the child */

typedef struct
{
  GSubprocess *process;
  GString     *out;
  GString     *err;
  GPtrArray   *events;    /* JsonObject per stdout line, after cli_parse_json() */
  int          status;    /* the exit status, or -1 when a signal ended it */
  gboolean     out_eof;
  gboolean     err_eof;
  gboolean     exited;
} Cli;

static void
cli_free (Cli *self)
{
  g_clear_object (&self->process);
  g_string_free (self->out, TRUE);
  g_string_free (self->err, TRUE);
  g_clear_pointer (&self->events, g_ptr_array_unref);
  g_free (self);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Cli, cli_free)

static void read_more (Cli          *self,
                       GInputStream *stream);

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Cli *self = user_data;
  GInputStream *stream = G_INPUT_STREAM (object);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  gboolean is_out = stream == g_subprocess_get_stdout_pipe (self->process);

  bytes = g_input_stream_read_bytes_finish (stream, result, &error);
  g_assert_no_error (error);

  if (g_bytes_get_size (bytes) == 0)
    {
      if (is_out)
        self->out_eof = TRUE;
      else
        self->err_eof = TRUE;
      return;
    }

  g_string_append_len (is_out ? self->out : self->err,
                       g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  read_more (self, stream);
}

static void
read_more (Cli          *self,
           GInputStream *stream)
{
  g_input_stream_read_bytes_async (stream, 4096, G_PRIORITY_DEFAULT, NULL, read_cb, self);
}

static void
wait_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Cli *self = user_data;
  g_autoptr(GError) error = NULL;

  g_subprocess_wait_finish (G_SUBPROCESS (object), result, &error);
  g_assert_no_error (error);

  if (g_subprocess_get_if_exited (self->process))
    self->status = g_subprocess_get_exit_status (self->process);
  else
    self->status = -1;
  self->exited = TRUE;
}

/* Starts agent-cli with @args. @env holds "NAME=VALUE" to set or "NAME" to
 * unset; @input, if any, is written to its standard input, which is then
 * closed. */
static Cli *
cli_spawn (const char * const *env,
           const char         *input,
           const char * const *args)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  GOutputStream *stdin_pipe;
  Cli *self;

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                        G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                        G_SUBPROCESS_FLAGS_STDERR_PIPE);
  /* The contract is in English; colours only on terminals, but be sure. */
  g_subprocess_launcher_setenv (launcher, "LC_ALL", "C.UTF-8", TRUE);
  g_subprocess_launcher_unsetenv (launcher, "LANGUAGE");
  g_subprocess_launcher_setenv (launcher, "NO_COLOR", "1", TRUE);

  for (guint i = 0; env != NULL && env[i] != NULL; i++)
    {
      const char *equals = strchr (env[i], '=');

      if (equals != NULL)
        {
          g_autofree char *name = g_strndup (env[i], equals - env[i]);

          g_subprocess_launcher_setenv (launcher, name, equals + 1, TRUE);
        }
      else
        g_subprocess_launcher_unsetenv (launcher, env[i]);
    }

  g_ptr_array_add (argv, (char *)cli_path);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *)args[i]);
  g_ptr_array_add (argv, NULL);

  self = g_new0 (Cli, 1);
  self->out = g_string_new (NULL);
  self->err = g_string_new (NULL);
  self->process = g_subprocess_launcher_spawnv (launcher, (const char * const *)argv->pdata,
                                                &error);
  g_assert_no_error (error);

  stdin_pipe = g_subprocess_get_stdin_pipe (self->process);
  if (input != NULL)
    {
      /* Small enough for the pipe's buffer: this does not block. */
      g_output_stream_write_all (stdin_pipe, input, strlen (input), NULL, NULL, &error);
      g_assert_no_error (error);
    }
  g_output_stream_close (stdin_pipe, NULL, &error);
  g_assert_no_error (error);

  read_more (self, g_subprocess_get_stdout_pipe (self->process));
  read_more (self, g_subprocess_get_stderr_pipe (self->process));
  g_subprocess_wait_async (self->process, NULL, wait_cb, self);

  return self;
}

static gboolean
timed_out_cb (gpointer data)
{
  *(gboolean *)data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Iterates the main loop (serving the test server) until @predicate holds;
 * FALSE if it did not within WAIT_LIMIT_SECONDS. */
static gboolean
wait_until (gboolean (*predicate) (gpointer),
            gpointer   data)
{
  gboolean timed_out = FALSE;
  guint id = g_timeout_add_seconds (WAIT_LIMIT_SECONDS, timed_out_cb, &timed_out);

  while (!predicate (data) && !timed_out)
    g_main_context_iteration (NULL, TRUE);

  if (!timed_out)
    g_source_remove (id);
  return !timed_out;
}

static gboolean
cli_is_finished (gpointer data)
{
  Cli *self = data;

  return self->exited && self->out_eof && self->err_eof;
}

static void
cli_wait (Cli *self)
{
  if (!wait_until (cli_is_finished, self))
    {
      g_subprocess_force_exit (self->process);
      g_error ("agent-cli did not finish within %d seconds; stdout:\n%s\nstderr:\n%s",
               WAIT_LIMIT_SECONDS, self->out->str, self->err->str);
    }
}

/* A string member, or NULL for JSON null; the test fails if it is anything else. */
static const char *
get_string (JsonObject *object,
            const char *member)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL)
    g_error ("No member “%s”", member);
  if (JSON_NODE_HOLDS_NULL (node))
    return NULL;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    g_error ("The member “%s” is not a string", member);
  return json_node_get_string (node);
}

/* calls[nth].function.member, in a request's tool_calls or tools. */
static const char *
function_string (JsonArray  *array,
                 guint       nth,
                 const char *member)
{
  JsonObject *function;

  g_assert_cmpuint (nth, <, json_array_get_length (array));
  function = json_object_get_object_member (json_array_get_object_element (array, nth),
                                            "function");
  g_assert_nonnull (function);
  return get_string (function, member);
}

/* Parses one line of --json output: it must be a JSON object with a type. */
static JsonObject *
parse_line (const char *line,
            gsize       len)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *object;
  JsonNode *root;

  if (!json_parser_load_from_data (parser, line, len, &error))
    g_error ("Not a JSON line (%s): %.*s", error->message, (int)len, line);

  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    g_error ("Not a JSON object: %.*s", (int)len, line);

  object = json_node_get_object (root);
  if (!json_object_has_member (object, "type") ||
      json_object_get_string_member_with_default (object, "type", NULL) == NULL)
    g_error ("A JSON line without a type: %.*s", (int)len, line);

  return json_object_ref (object);
}

/* The complete lines printed so far, parsed. */
static GPtrArray *
parse_complete_lines (const GString *text)
{
  GPtrArray *events = g_ptr_array_new_with_free_func ((GDestroyNotify)json_object_unref);
  const char *start = text->str;
  const char *newline;

  while ((newline = memchr (start, '\n', text->str + text->len - start)))
    {
      g_assert_cmpint (newline - start, >, 0);
      g_ptr_array_add (events, parse_line (start, newline - start));
      start = newline + 1;
    }

  return events;
}

static const char *
event_type (JsonObject *event)
{
  return get_string (event, "type");
}

/* After --json: every line of stdout is one JSON object; nothing after the last newline. */
static void
cli_parse_json (Cli *self)
{
  if (self->out->len > 0)
    g_assert_cmpint (self->out->str[self->out->len - 1], ==, '\n');

  g_clear_pointer (&self->events, g_ptr_array_unref);
  self->events = parse_complete_lines (self->out);
}

static Cli *
cli_run_full (const char * const *env,
              const char         *input,
              const char * const *args)
{
  Cli *self = cli_spawn (env, input, args);

  cli_wait (self);
  return self;
}

static Cli *
cli_run (const char * const *args)
{
  return cli_run_full (NULL, NULL, args);
}

/* Runs with --json and parses the lines. */
static Cli *
cli_run_json (const char * const *args)
{
  Cli *self = cli_run (args);

  cli_parse_json (self);
  return self;
}

static void
assert_exit (Cli *self,
             int  status)
{
  if (self->status != status)
    g_error ("agent-cli exited with %d, not %d; stdout:\n%s\nstderr:\n%s",
             self->status, status, self->out->str, self->err->str);
}

/* Looking at the events */

static guint
count_events (Cli        *self,
              const char *type)
{
  guint n = 0;

  for (guint i = 0; i < self->events->len; i++)
    if (g_str_equal (event_type (g_ptr_array_index (self->events, i)), type))
      n++;
  return n;
}

static JsonObject *
nth_event (Cli        *self,
           const char *type,
           guint       nth)
{
  guint seen = 0;

  for (guint i = 0; i < self->events->len; i++)
    {
      JsonObject *event = g_ptr_array_index (self->events, i);

      if (g_str_equal (event_type (event), type) && seen++ == nth)
        return event;
    }

  g_error ("No %s event #%u in:\n%s", type, nth, self->out->str);
  return NULL;
}

static JsonObject *
last_event (Cli *self)
{
  g_assert_cmpuint (self->events->len, >, 0);
  return g_ptr_array_index (self->events, self->events->len - 1);
}

/* "tool-call step-finished …": the types in order, for checking sequences. */
static char *
event_types (Cli *self)
{
  g_autoptr(GString) types = g_string_new (NULL);

  for (guint i = 0; i < self->events->len; i++)
    {
      if (i > 0)
        g_string_append_c (types, ' ');
      g_string_append (types, event_type (g_ptr_array_index (self->events, i)));
    }
  return g_string_free (g_steal_pointer (&types), FALSE);
}

static char *
streamed_text (Cli *self)
{
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < self->events->len; i++)
    {
      JsonObject *event = g_ptr_array_index (self->events, i);

      if (g_str_equal (event_type (event), "text-delta"))
        g_string_append (text, get_string (event, "text"));
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static const char *
done_content (Cli *self)
{
  JsonObject *done = last_event (self);
  JsonObject *message;

  g_assert_cmpstr (event_type (done), ==, "done");
  message = json_object_get_object_member (done, "message");
  g_assert_nonnull (message);
  g_assert_cmpstr (get_string (message, "role"), ==, "assistant");
  return get_string (message, "content");
}

static void
assert_usage (JsonObject *event,
              gint64      prompt,
              gint64      completion,
              gint64      total)
{
  JsonObject *usage = json_object_get_object_member (event, "usage");

  g_assert_nonnull (usage);
  g_assert_cmpint (json_object_get_int_member (usage, "prompt-tokens"), ==, prompt);
  g_assert_cmpint (json_object_get_int_member (usage, "completion-tokens"), ==, completion);
  g_assert_cmpint (json_object_get_int_member (usage, "total-tokens"), ==, total);
}

/* The done line's usage is the sum of the steps'. */
static void
assert_usage_summed (Cli *self)
{
  gint64 prompt = 0, completion = 0, total = 0;
  guint n = count_events (self, "step-finished");

  g_assert_cmpuint (n, >, 0);
  for (guint i = 0; i < n; i++)
    {
      JsonObject *usage = json_object_get_object_member (nth_event (self, "step-finished", i),
                                                         "usage");

      prompt += json_object_get_int_member (usage, "prompt-tokens");
      completion += json_object_get_int_member (usage, "completion-tokens");
      total += json_object_get_int_member (usage, "total-tokens");
    }
  assert_usage (last_event (self), prompt, completion, total);
}

/* Checks the last line is an error with @code and returns its message. */
static const char *
assert_error (Cli        *self,
              const char *code)
{
  JsonObject *error = last_event (self);

  if (!g_str_equal (event_type (error), "error"))
    g_error ("The last line is not an error:\n%s", self->out->str);
  g_assert_cmpstr (get_string (error, "code"), ==, code);
  g_assert_nonnull (get_string (error, "message"));
  g_assert_cmpstr (get_string (error, "message"), !=, "");
  g_assert_cmpuint (count_events (self, "error"), ==, 1);
  g_assert_cmpuint (count_events (self, "done"), ==, 0);
  return get_string (error, "message");
}

/* Scripting the server: OpenAI chat-completion chunks, built with json-glib */

static void
add_chunk (AgentTestResponse *response,
           JsonBuilder       *builder)
{
  g_autoptr(JsonNode) root = json_builder_get_root (builder);
  g_autofree char *json = json_to_string (root, FALSE);

  agent_test_response_add_sse (response, json);
}

static JsonBuilder *
chunk_begin (void)
{
  JsonBuilder *builder = json_builder_new ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "id");
  json_builder_add_string_value (builder, "chatcmpl-test");
  json_builder_set_member_name (builder, "object");
  json_builder_add_string_value (builder, "chat.completion.chunk");
  json_builder_set_member_name (builder, "model");
  json_builder_add_string_value (builder, "test-model");
  json_builder_set_member_name (builder, "choices");
  json_builder_begin_array (builder);
  return builder;
}

/* Opens {"index":0,"delta":{ in the choices */
static JsonBuilder *
choice_begin (void)
{
  JsonBuilder *builder = chunk_begin ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "index");
  json_builder_add_int_value (builder, 0);
  json_builder_set_member_name (builder, "delta");
  json_builder_begin_object (builder);
  return builder;
}

static void
choice_end (AgentTestResponse *response,
            JsonBuilder       *builder,
            const char        *finish_reason)
{
  g_autoptr(JsonBuilder) owned = builder;

  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "finish_reason");
  if (finish_reason != NULL)
    json_builder_add_string_value (builder, finish_reason);
  else
    json_builder_add_null_value (builder);
  json_builder_end_object (builder);
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  add_chunk (response, builder);
}

static void
sse_role (AgentTestResponse *response)
{
  JsonBuilder *builder = choice_begin ();

  json_builder_set_member_name (builder, "role");
  json_builder_add_string_value (builder, "assistant");
  json_builder_set_member_name (builder, "content");
  json_builder_add_string_value (builder, "");
  choice_end (response, builder, NULL);
}

static void
sse_text (AgentTestResponse *response,
          const char        *text)
{
  JsonBuilder *builder = choice_begin ();

  json_builder_set_member_name (builder, "content");
  json_builder_add_string_value (builder, text);
  choice_end (response, builder, NULL);
}

static void
sse_finish (AgentTestResponse *response,
            const char        *finish_reason)
{
  choice_end (response, choice_begin (), finish_reason);
}

static void
sse_usage (AgentTestResponse *response,
           gint64             prompt,
           gint64             completion)
{
  g_autoptr(JsonBuilder) builder = chunk_begin ();

  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "usage");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "prompt_tokens");
  json_builder_add_int_value (builder, prompt);
  json_builder_set_member_name (builder, "completion_tokens");
  json_builder_add_int_value (builder, completion);
  json_builder_set_member_name (builder, "total_tokens");
  json_builder_add_int_value (builder, prompt + completion);
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  add_chunk (response, builder);
}

/* One piece of a tool call: the first of each call carries its id and name. */
typedef struct
{
  guint       wire_index;
  const char *id;
  const char *name;
  const char *fragment;
} ToolChunk;

static void
sse_tool (AgentTestResponse *response,
          const ToolChunk   *chunk)
{
  JsonBuilder *builder = choice_begin ();

  json_builder_set_member_name (builder, "tool_calls");
  json_builder_begin_array (builder);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "index");
  json_builder_add_int_value (builder, chunk->wire_index);
  if (chunk->id != NULL)
    {
      json_builder_set_member_name (builder, "id");
      json_builder_add_string_value (builder, chunk->id);
      json_builder_set_member_name (builder, "type");
      json_builder_add_string_value (builder, "function");
    }
  json_builder_set_member_name (builder, "function");
  json_builder_begin_object (builder);
  if (chunk->name != NULL)
    {
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, chunk->name);
    }
  json_builder_set_member_name (builder, "arguments");
  json_builder_add_string_value (builder, chunk->fragment ? chunk->fragment : "");
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  json_builder_end_array (builder);
  choice_end (response, builder, NULL);
}

static void
add_text_response (AgentTestServer    *server,
                   const char * const *deltas,
                   gint64              prompt,
                   gint64              completion)
{
  AgentTestResponse *response = agent_test_server_add_response (server, 200);

  sse_role (response);
  for (guint i = 0; deltas[i] != NULL; i++)
    sse_text (response, deltas[i]);
  sse_finish (response, "stop");
  sse_usage (response, prompt, completion);
  agent_test_response_add_done (response);
}

static void
add_tool_response (AgentTestServer *server,
                   const ToolChunk *chunks,
                   guint            n_chunks,
                   gint64           prompt,
                   gint64           completion)
{
  AgentTestResponse *response = agent_test_server_add_response (server, 200);

  sse_role (response);
  for (guint i = 0; i < n_chunks; i++)
    sse_tool (response, &chunks[i]);
  sse_finish (response, "tool_calls");
  sse_usage (response, prompt, completion);
  agent_test_response_add_done (response);
}

/* Looking at the requests */

static JsonObject *
request_body (AgentTestServer *server,
              guint            index)
{
  JsonNode *body = agent_test_server_get_request_body (server, index);

  g_assert_nonnull (body);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (body));
  return json_node_get_object (body);
}

static JsonArray *
request_messages (AgentTestServer *server,
                  guint            index)
{
  JsonArray *messages = json_object_get_array_member (request_body (server, index), "messages");

  g_assert_nonnull (messages);
  return messages;
}

static JsonObject *
request_message (AgentTestServer *server,
                 guint            index,
                 guint            nth)
{
  JsonArray *messages = request_messages (server, index);

  g_assert_cmpuint (nth, <, json_array_get_length (messages));
  return json_array_get_object_element (messages, nth);
}

static const char *
last_user_content (AgentTestServer *server,
                   guint            index)
{
  JsonArray *messages = request_messages (server, index);
  guint n = json_array_get_length (messages);
  JsonObject *message;

  g_assert_cmpuint (n, >, 0);
  message = json_array_get_object_element (messages, n - 1);
  g_assert_cmpstr (get_string (message, "role"), ==, "user");
  return get_string (message, "content");
}

static const char * const text_deltas[] = {
  "Hello", ", \"wörld\"", "\n", "tab\there", " \\ end", "!", NULL
};
#define TEXT_CONTENT "Hello, \"wörld\"\ntab\there \\ end!"

/* --json: text */

static void
test_json_text (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(Cli) cli = NULL;
  g_autofree char *types = NULL;
  g_autofree char *text = NULL;
  JsonObject *body;
  JsonObject *step;

  add_text_response (server, text_deltas, 10, 6);
  cli = cli_run_json (ARGS ("--json", "--base-url", agent_test_server_get_base_url (server),
                            "Say hello"));

  assert_exit (cli, 0);
  g_assert_cmpstr (cli->err->str, ==, "");

  /* One line per content delta, in order; the empty role delta prints nothing. */
  types = event_types (cli);
  g_assert_cmpstr (types, ==,
                   "text-delta text-delta text-delta text-delta text-delta text-delta "
                   "step-finished done");
  for (guint i = 0; text_deltas[i] != NULL; i++)
    g_assert_cmpstr (get_string (nth_event (cli, "text-delta", i), "text"), ==, text_deltas[i]);

  text = streamed_text (cli);
  g_assert_cmpstr (text, ==, TEXT_CONTENT);
  g_assert_cmpstr (done_content (cli), ==, TEXT_CONTENT);

  step = nth_event (cli, "step-finished", 0);
  g_assert_cmpstr (get_string (step, "finish-reason"), ==, "stop");
  assert_usage (step, 10, 6, 16);
  assert_usage (last_event (cli), 10, 6, 16);

  /* The request: no key, no Authorization header. */
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 1);
  g_assert_cmpstr (agent_test_server_get_request_path (server, 0), ==, "/v1/chat/completions");
  g_assert_null (agent_test_server_get_request_header (server, 0, "Authorization"));
  body = request_body (server, 0);
  g_assert_true (json_object_get_boolean_member (body, "stream"));
  g_assert_cmpuint (json_array_get_length (request_messages (server, 0)), ==, 1);
  g_assert_cmpstr (last_user_content (server, 0), ==, "Say hello");
  /* No tool enabled, none offered. */
  g_assert_true (!json_object_has_member (body, "tools") ||
                 json_array_get_length (json_object_get_array_member (body, "tools")) == 0);
}

/* OPENAI_API_KEY unset behaves like empty: no header. */
static void
test_json_no_key (void)
{
  static const char * const deltas[] = { "Hi", NULL };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(Cli) cli = NULL;

  add_text_response (server, deltas, 1, 1);
  cli = cli_run_full (ARGS ("OPENAI_API_KEY"), NULL,
                      ARGS ("--json", "--base-url", agent_test_server_get_base_url (server),
                            "Hi"));
  cli_parse_json (cli);

  assert_exit (cli, 0);
  g_assert_cmpstr (done_content (cli), ==, "Hi");
  g_assert_null (agent_test_server_get_request_header (server, 0, "Authorization"));
}

static gboolean
server_is_waiting (gpointer data)
{
  return agent_test_server_is_waiting (data);
}

static gboolean
has_text_delta_line (gpointer data)
{
  Cli *cli = data;
  g_autoptr(GPtrArray) events = parse_complete_lines (cli->out);

  for (guint i = 0; i < events->len; i++)
    if (g_str_equal (event_type (g_ptr_array_index (events, i)), "text-delta"))
      return TRUE;

  return cli_is_finished (cli);
}

/* Each line is flushed as it is produced: the first delta is readable while
 * the server still holds back the rest. */
static void
test_json_flush (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(GPtrArray) so_far = NULL;
  g_autoptr(Cli) cli = NULL;
  g_autofree char *types = NULL;
  AgentTestResponse *response;

  response = agent_test_server_add_response (server, 200);
  sse_role (response);
  sse_text (response, "First");
  agent_test_response_add_wait (response);
  sse_text (response, " second");
  sse_finish (response, "stop");
  sse_usage (response, 3, 2);
  agent_test_response_add_done (response);

  cli = cli_spawn (NULL, NULL, ARGS ("--json", "--base-url",
                                     agent_test_server_get_base_url (server), "Go"));

  if (!wait_until (has_text_delta_line, cli))
    g_error ("No text-delta line while the server waits; stdout so far:\n%s", cli->out->str);
  /* The server holds back the rest until released (which only works once
   * it reached the wait): the line came out before the answer was over. */
  if (!wait_until (server_is_waiting, server))
    g_error ("The test server did not reach its wait");
  g_assert_false (cli->exited);

  so_far = parse_complete_lines (cli->out);
  g_assert_cmpuint (so_far->len, ==, 1);
  g_assert_cmpstr (event_type (g_ptr_array_index (so_far, 0)), ==, "text-delta");
  g_assert_cmpstr (get_string (g_ptr_array_index (so_far, 0), "text"), ==, "First");

  agent_test_server_release (server);
  cli_wait (cli);
  cli_parse_json (cli);

  assert_exit (cli, 0);
  types = event_types (cli);
  g_assert_cmpstr (types, ==, "text-delta text-delta step-finished done");
  g_assert_cmpstr (done_content (cli), ==, "First second");
}

/* A finish reason without [DONE] is a complete answer. */
static void
test_json_no_done_marker (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(Cli) cli = NULL;
  AgentTestResponse *response;

  response = agent_test_server_add_response (server, 200);
  sse_role (response);
  sse_text (response, "Complete");
  sse_text (response, " anyway");
  sse_finish (response, "stop");
  sse_usage (response, 4, 2);

  cli = cli_run_json (ARGS ("--json", "--base-url", agent_test_server_get_base_url (server),
                            "Hi"));

  assert_exit (cli, 0);
  g_assert_cmpstr (done_content (cli), ==, "Complete anyway");
  g_assert_cmpuint (count_events (cli, "error"), ==, 0);
}

/* Tools */

static const ToolChunk calculator_chunks[] = {
  { 0, "call_1", "calculator", "" },
  { 0, NULL, NULL, "{\"expr" },
  { 0, NULL, NULL, "ession\":" },
  { 0, NULL, NULL, " \"2*7\"}" },
};
#define CALCULATOR_ARGUMENTS "{\"expression\": \"2*7\"}"

static void
test_tools_calculator (void)
{
  static const char * const answer[] = { "2*7 is ", "14.", NULL };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(Cli) cli = NULL;
  g_autofree char *types = NULL;
  JsonObject *event;
  JsonObject *message;
  JsonObject *call;
  JsonArray *tools;
  JsonArray *calls;

  add_tool_response (server, calculator_chunks, G_N_ELEMENTS (calculator_chunks), 20, 5);
  add_text_response (server, answer, 30, 4);

  cli = cli_run_json (ARGS ("--tool", "calculator", "--json",
                            "--base-url", agent_test_server_get_base_url (server),
                            "What is 2*7?"));

  assert_exit (cli, 0);
  g_assert_cmpstr (cli->err->str, ==, "");
  types = event_types (cli);
  g_assert_cmpstr (types, ==,
                   "tool-call step-finished tool-started tool-finished "
                   "text-delta text-delta step-finished done");

  event = nth_event (cli, "tool-call", 0);
  g_assert_cmpstr (get_string (event, "id"), ==, "call_1");
  g_assert_cmpstr (get_string (event, "name"), ==, "calculator");
  g_assert_cmpstr (get_string (event, "arguments"), ==, CALCULATOR_ARGUMENTS);

  event = nth_event (cli, "step-finished", 0);
  g_assert_cmpstr (get_string (event, "finish-reason"), ==, "tool_calls");
  assert_usage (event, 20, 5, 25);

  event = nth_event (cli, "tool-started", 0);
  g_assert_cmpstr (get_string (event, "id"), ==, "call_1");
  g_assert_cmpstr (get_string (event, "name"), ==, "calculator");
  g_assert_cmpstr (get_string (event, "arguments"), ==, CALCULATOR_ARGUMENTS);

  event = nth_event (cli, "tool-finished", 0);
  g_assert_cmpstr (get_string (event, "id"), ==, "call_1");
  g_assert_cmpstr (get_string (event, "name"), ==, "calculator");
  g_assert_cmpstr (get_string (event, "result"), ==, "14");
  g_assert_false (json_object_has_member (event, "error"));

  event = nth_event (cli, "step-finished", 1);
  g_assert_cmpstr (get_string (event, "finish-reason"), ==, "stop");
  assert_usage (event, 30, 4, 34);

  g_assert_cmpstr (done_content (cli), ==, "2*7 is 14.");
  assert_usage (last_event (cli), 50, 9, 59);
  assert_usage_summed (cli);

  /* Without --show-tool-call-chunks, no chunks. */
  g_assert_cmpuint (count_events (cli, "tool-call-delta"), ==, 0);

  /* The first request offered the calculator. */
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 2);
  tools = json_object_get_array_member (request_body (server, 0), "tools");
  g_assert_nonnull (tools);
  g_assert_cmpuint (json_array_get_length (tools), ==, 1);
  g_assert_cmpstr (function_string (tools, 0, "name"), ==, "calculator");

  /* The second: user, the assistant's call byte for byte, then its result. */
  g_assert_cmpuint (json_array_get_length (request_messages (server, 1)), ==, 3);
  g_assert_cmpstr (get_string (request_message (server, 1, 0), "role"), ==, "user");
  message = request_message (server, 1, 1);
  g_assert_cmpstr (get_string (message, "role"), ==, "assistant");
  calls = json_object_get_array_member (message, "tool_calls");
  g_assert_nonnull (calls);
  g_assert_cmpuint (json_array_get_length (calls), ==, 1);
  call = json_array_get_object_element (calls, 0);
  g_assert_cmpstr (get_string (call, "id"), ==, "call_1");
  g_assert_cmpstr (get_string (call, "type"), ==, "function");
  g_assert_cmpstr (function_string (calls, 0, "name"), ==, "calculator");
  g_assert_cmpstr (function_string (calls, 0, "arguments"), ==, CALCULATOR_ARGUMENTS);
  message = request_message (server, 1, 2);
  g_assert_cmpstr (get_string (message, "role"), ==, "tool");
  g_assert_cmpstr (get_string (message, "tool_call_id"), ==, "call_1");
  g_assert_cmpstr (get_string (message, "content"), ==, "14");
}

/* Two calls whose fragments interleave on the wire. */
static const ToolChunk parallel_chunks[] = {
  { 0, "call_a", "calculator", "" },
  { 1, "call_b", "calculator", "" },
  { 0, NULL, NULL, "{\"expression\":" },
  { 1, NULL, NULL, "{\"expression\"" },
  { 0, NULL, NULL, "\"2*7\"}" },
  { 1, NULL, NULL, ":\"10-4\"}" },
};
#define ARGUMENTS_A "{\"expression\":\"2*7\"}"
#define ARGUMENTS_B "{\"expression\":\"10-4\"}"

static int
event_position (Cli        *self,
                const char *type,
                const char *id)
{
  for (guint i = 0; i < self->events->len; i++)
    {
      JsonObject *event = g_ptr_array_index (self->events, i);

      if (g_str_equal (event_type (event), type) &&
          g_strcmp0 (json_object_get_string_member_with_default (event, "id", NULL), id) == 0)
        return i;
    }

  g_error ("No %s event for %s in:\n%s", type, id, self->out->str);
  return -1;
}

static JsonObject *
tool_message_for (AgentTestServer *server,
                  guint            index,
                  const char      *call_id)
{
  JsonArray *messages = request_messages (server, index);

  for (guint i = 0; i < json_array_get_length (messages); i++)
    {
      JsonObject *message = json_array_get_object_element (messages, i);

      if (g_strcmp0 (get_string (message, "role"), "tool") == 0 &&
          g_strcmp0 (json_object_get_string_member_with_default (message, "tool_call_id", NULL),
                     call_id) == 0)
        return message;
    }

  g_error ("No tool message for %s in request %u", call_id, index);
  return NULL;
}

static void
check_parallel_request (AgentTestServer *server)
{
  JsonObject *message;
  JsonArray *calls;

  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 2);
  g_assert_cmpuint (json_array_get_length (request_messages (server, 1)), ==, 4);

  message = request_message (server, 1, 1);
  g_assert_cmpstr (get_string (message, "role"), ==, "assistant");
  calls = json_object_get_array_member (message, "tool_calls");
  g_assert_cmpuint (json_array_get_length (calls), ==, 2);
  g_assert_cmpstr (get_string (json_array_get_object_element (calls, 0), "id"), ==, "call_a");
  g_assert_cmpstr (function_string (calls, 0, "arguments"), ==, ARGUMENTS_A);
  g_assert_cmpstr (get_string (json_array_get_object_element (calls, 1), "id"), ==, "call_b");
  g_assert_cmpstr (function_string (calls, 1, "arguments"), ==, ARGUMENTS_B);

  /* Both results follow the assistant message. */
  g_assert_cmpstr (get_string (request_message (server, 1, 2), "role"), ==, "tool");
  g_assert_cmpstr (get_string (request_message (server, 1, 3), "role"), ==, "tool");
  g_assert_cmpstr (get_string (tool_message_for (server, 1, "call_a"), "content"), ==, "14");
  g_assert_cmpstr (get_string (tool_message_for (server, 1, "call_b"), "content"), ==, "6");
}

static void
check_parallel_events (Cli *cli)
{
  JsonObject *event;
  int step;

  /* Both calls, in order, before the step ends; the tools run after it. */
  event = nth_event (cli, "tool-call", 0);
  g_assert_cmpstr (get_string (event, "id"), ==, "call_a");
  g_assert_cmpstr (get_string (event, "arguments"), ==, ARGUMENTS_A);
  event = nth_event (cli, "tool-call", 1);
  g_assert_cmpstr (get_string (event, "id"), ==, "call_b");
  g_assert_cmpstr (get_string (event, "arguments"), ==, ARGUMENTS_B);
  g_assert_cmpuint (count_events (cli, "tool-call"), ==, 2);

  step = event_position (cli, "step-finished", NULL);
  g_assert_cmpint (event_position (cli, "tool-call", "call_b"), <, step);
  g_assert_cmpint (step, <, event_position (cli, "tool-started", "call_a"));
  g_assert_cmpint (event_position (cli, "tool-started", "call_a"), <,
                   event_position (cli, "tool-started", "call_b"));
  g_assert_cmpint (event_position (cli, "tool-started", "call_a"), <,
                   event_position (cli, "tool-finished", "call_a"));
  g_assert_cmpint (event_position (cli, "tool-started", "call_b"), <,
                   event_position (cli, "tool-finished", "call_b"));
  g_assert_cmpint (event_position (cli, "tool-finished", "call_b"), <,
                   event_position (cli, "text-delta", NULL));
  g_assert_cmpint (event_position (cli, "tool-finished", "call_a"), <,
                   event_position (cli, "text-delta", NULL));
  g_assert_cmpuint (count_events (cli, "tool-started"), ==, 2);
  g_assert_cmpuint (count_events (cli, "tool-finished"), ==, 2);

  event = g_ptr_array_index (cli->events, event_position (cli, "tool-started", "call_b"));
  g_assert_cmpstr (get_string (event, "arguments"), ==, ARGUMENTS_B);
  event = g_ptr_array_index (cli->events, event_position (cli, "tool-finished", "call_a"));
  g_assert_cmpstr (get_string (event, "result"), ==, "14");
  event = g_ptr_array_index (cli->events, event_position (cli, "tool-finished", "call_b"));
  g_assert_cmpstr (get_string (event, "result"), ==, "6");

  g_assert_cmpstr (done_content (cli), ==, "14 and 6.");
  assert_usage_summed (cli);
}

static void
test_tools_parallel (void)
{
  static const char * const answer[] = { "14 and 6.", NULL };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(Cli) cli = NULL;

  add_tool_response (server, parallel_chunks, G_N_ELEMENTS (parallel_chunks), 20, 12);
  add_text_response (server, answer, 40, 4);

  cli = cli_run_json (ARGS ("--json", "--tool", "calculator",
                            "--base-url", agent_test_server_get_base_url (server),
                            "2*7 and 10-4?"));

  assert_exit (cli, 0);
  check_parallel_events (cli);
  check_parallel_request (server);
  g_assert_cmpuint (count_events (cli, "tool-call-delta"), ==, 0);
}

/* --show-tool-call-chunks: every delta, with the call's index, id and name. */
static void
test_tools_chunks (void)
{
  static const char * const answer[] = { "14 and 6.", NULL };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(Cli) cli = NULL;
  GString *arguments[2];
  int last_delta = -1;
  guint n_deltas = 0;

  add_tool_response (server, parallel_chunks, G_N_ELEMENTS (parallel_chunks), 20, 12);
  add_text_response (server, answer, 40, 4);

  cli = cli_run_json (ARGS ("--json", "--tool", "calculator", "--show-tool-call-chunks",
                            "--base-url", agent_test_server_get_base_url (server),
                            "2*7 and 10-4?"));

  assert_exit (cli, 0);
  check_parallel_events (cli);
  check_parallel_request (server);

  arguments[0] = g_string_new (NULL);
  arguments[1] = g_string_new (NULL);
  for (guint i = 0; i < cli->events->len; i++)
    {
      JsonObject *event = g_ptr_array_index (cli->events, i);
      gint64 index;

      if (!g_str_equal (event_type (event), "tool-call-delta"))
        continue;

      n_deltas++;
      last_delta = i;
      g_assert_true (json_object_has_member (event, "index"));
      index = json_object_get_int_member (event, "index");
      g_assert_cmpint (index, >=, 0);
      g_assert_cmpint (index, <=, 1);
      /* Every fragment on the wire came after its call's header. */
      g_assert_cmpstr (get_string (event, "id"), ==, index == 0 ? "call_a" : "call_b");
      g_assert_cmpstr (get_string (event, "name"), ==, "calculator");
      g_assert_nonnull (get_string (event, "arguments-delta"));
      g_string_append (arguments[index], get_string (event, "arguments-delta"));
    }

  /* At least each non-empty fragment, as it arrived, before the calls complete. */
  g_assert_cmpuint (n_deltas, >=, 4);
  g_assert_cmpint (last_delta, <, event_position (cli, "tool-call", "call_a"));
  g_assert_cmpstr (arguments[0]->str, ==, ARGUMENTS_A);
  g_assert_cmpstr (arguments[1]->str, ==, ARGUMENTS_B);
  g_string_free (arguments[0], TRUE);
  g_string_free (arguments[1], TRUE);
}

/* The index is the position in the message, in order of first appearance,
 * whatever numbers the server uses. */
static void
test_tools_chunks_index (void)
{
  static const ToolChunk chunks[] = {
    { 3, "call_x", "calculator", "{\"expression\":\"1+1\"}" },
    { 1, "call_y", "calculator", "{\"expression\":" },
    { 1, NULL, NULL, "\"3*3\"}" },
  };
  static const char * const answer[] = { "2 and 9.", NULL };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(Cli) cli = NULL;
  JsonArray *calls;

  add_tool_response (server, chunks, G_N_ELEMENTS (chunks), 5, 5);
  add_text_response (server, answer, 5, 5);

  cli = cli_run_json (ARGS ("--json", "--tool", "calculator", "--show-tool-call-chunks",
                            "--base-url", agent_test_server_get_base_url (server), "Sums"));

  assert_exit (cli, 0);
  for (guint i = 0; i < cli->events->len; i++)
    {
      JsonObject *event = g_ptr_array_index (cli->events, i);

      if (g_str_equal (event_type (event), "tool-call-delta"))
        g_assert_cmpint (json_object_get_int_member (event, "index"), ==,
                         g_str_equal (get_string (event, "id"), "call_x") ? 0 : 1);
    }
  g_assert_cmpstr (get_string (nth_event (cli, "tool-call", 0), "id"), ==, "call_x");
  g_assert_cmpstr (get_string (nth_event (cli, "tool-call", 1), "id"), ==, "call_y");
  g_assert_cmpstr (get_string (nth_event (cli, "tool-finished", 0), "result"), ==, "2");
  g_assert_cmpstr (get_string (nth_event (cli, "tool-finished", 1), "result"), ==, "9");

  calls = json_object_get_array_member (request_message (server, 1, 1), "tool_calls");
  g_assert_cmpuint (json_array_get_length (calls), ==, 2);
  g_assert_cmpstr (get_string (json_array_get_object_element (calls, 0), "id"), ==, "call_x");
  g_assert_cmpstr (get_string (json_array_get_object_element (calls, 1), "id"), ==, "call_y");
}

/* A call to a tool that is not enabled fails that call, not the turn. */
static void
test_tools_unknown (void)
{
  static const ToolChunk chunks[] = {
    { 0, "call_w", "weather", "{\"city\":\"Paris\"}" },
  };
  static const char * const answer[] = { "I cannot check the weather.", NULL };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(Cli) cli = NULL;
  g_autofree char *types = NULL;
  const char *error;
  JsonObject *event;
  JsonObject *message;

  add_tool_response (server, chunks, G_N_ELEMENTS (chunks), 5, 5);
  add_text_response (server, answer, 9, 6);

  cli = cli_run_json (ARGS ("--json", "--tool", "calculator",
                            "--base-url", agent_test_server_get_base_url (server), "Weather?"));

  assert_exit (cli, 0);
  types = event_types (cli);
  g_assert_cmpstr (types, ==,
                   "tool-call step-finished tool-started tool-finished text-delta "
                   "step-finished done");

  event = nth_event (cli, "tool-finished", 0);
  g_assert_cmpstr (get_string (event, "id"), ==, "call_w");
  g_assert_cmpstr (get_string (event, "name"), ==, "weather");
  g_assert_false (json_object_has_member (event, "result"));
  error = get_string (event, "error");
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error, "weather"));

  g_assert_cmpstr (done_content (cli), ==, "I cannot check the weather.");
  assert_usage_summed (cli);

  /* The model is told. */
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 2);
  message = tool_message_for (server, 1, "call_w");
  g_assert_cmpstr (get_string (message, "content"), ==, error);
}

static void
add_calculator_calls (AgentTestServer *server,
                      guint            n)
{
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *id = g_strdup_printf ("call_%u", i);
      ToolChunk chunk = { 0, id, "calculator", "{\"expression\":\"1+1\"}" };

      add_tool_response (server, &chunk, 1, 1, 1);
    }
}

static void
test_tools_max_steps (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(Cli) cli = NULL;

  add_calculator_calls (server, 3);

  cli = cli_run_json (ARGS ("--json", "--tool", "calculator", "--max-steps", "2",
                            "--base-url", agent_test_server_get_base_url (server), "Loop"));

  assert_exit (cli, 1);
  assert_error (cli, "limit");
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 2);
  g_assert_cmpuint (count_events (cli, "step-finished"), ==, 2);
}

/* A final answer on the last allowed request is a success. */
static void
test_tools_max_steps_enough (void)
{
  static const char * const answer[] = { "Two.", NULL };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(Cli) cli = NULL;

  add_calculator_calls (server, 1);
  add_text_response (server, answer, 1, 1);

  cli = cli_run_json (ARGS ("--json", "--tool", "calculator", "--max-steps", "2",
                            "--base-url", agent_test_server_get_base_url (server), "1+1?"));

  assert_exit (cli, 0);
  g_assert_cmpstr (done_content (cli), ==, "Two.");
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 2);
}

/* A tool that fails reports "error" and the model carries on. */
static void
test_tools_calculator_error (void)
{
  static const ToolChunk chunks[] = {
    { 0, "call_e", "calculator", "{\"expression\":\"2*\"}" },
  };
  static const char * const answer[] = { "That is not an expression.", NULL };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(Cli) cli = NULL;
  JsonObject *event;
  const char *error;

  add_tool_response (server, chunks, G_N_ELEMENTS (chunks), 5, 5);
  add_text_response (server, answer, 9, 6);

  cli = cli_run_json (ARGS ("--json", "--tool", "calculator",
                            "--base-url", agent_test_server_get_base_url (server), "2*?"));

  assert_exit (cli, 0);
  event = nth_event (cli, "tool-finished", 0);
  g_assert_cmpstr (get_string (event, "id"), ==, "call_e");
  g_assert_false (json_object_has_member (event, "result"));
  error = get_string (event, "error");
  g_assert_nonnull (error);
  g_assert_cmpstr (error, !=, "");
  g_assert_cmpstr (get_string (tool_message_for (server, 1, "call_e"), "content"), ==, error);
  g_assert_cmpstr (done_content (cli), ==, "That is not an expression.");
}

static void
test_tools_max_steps_default (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(Cli) cli = NULL;

  add_calculator_calls (server, 11);

  cli = cli_run_json (ARGS ("--json", "--tool", "calculator",
                            "--base-url", agent_test_server_get_base_url (server), "Loop"));

  assert_exit (cli, 1);
  assert_error (cli, "limit");
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 10);
}

/* Errors */

#define AUTH_ERROR_BODY \
  "{\"error\":{\"message\":\"Incorrect API key provided: " SECRET_KEY ". You can find your " \
  "API key at https://platform.openai.com/account/api-keys.\",\"type\":\"invalid_request_error\"," \
  "\"param\":null,\"code\":\"invalid_api_key\"}}"

static void
assert_no_secret (Cli *cli)
{
  if (strstr (cli->out->str, SECRET_KEY) != NULL || strstr (cli->err->str, SECRET_KEY) != NULL)
    g_error ("The API key leaked; stdout:\n%s\nstderr:\n%s", cli->out->str, cli->err->str);
}

static void
test_errors_authentication (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(Cli) cli = NULL;
  g_autoptr(Cli) plain = NULL;
  const char *message;

  agent_test_response_set_body (agent_test_server_add_response (server, 401),
                                "application/json", AUTH_ERROR_BODY);
  agent_test_response_set_body (agent_test_server_add_response (server, 401),
                                "application/json", AUTH_ERROR_BODY);

  cli = cli_run_full (ARGS ("OPENAI_API_KEY=" SECRET_KEY), NULL,
                      ARGS ("--json", "--base-url", agent_test_server_get_base_url (server), "Hi"));
  cli_parse_json (cli);

  assert_exit (cli, 1);
  message = assert_error (cli, "authentication");
  g_assert_nonnull (strstr (message, "Incorrect API key provided"));
  g_assert_cmpstr (agent_test_server_get_request_header (server, 0, "Authorization"), ==,
                   "Bearer " SECRET_KEY);
  assert_no_secret (cli);

  /* Plain mode says it on stderr, without the key either. */
  plain = cli_run_full (ARGS ("OPENAI_API_KEY=" SECRET_KEY), NULL,
                        ARGS ("--base-url", agent_test_server_get_base_url (server), "Hi"));
  assert_exit (plain, 1);
  g_assert_cmpstr (plain->out->str, ==, "");
  g_assert_nonnull (strstr (plain->err->str, "Incorrect API key provided"));
  assert_no_secret (plain);
}

/* An error inside the stream that echoes the key. */
static void
test_errors_provider_redacted (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(Cli) cli = NULL;
  AgentTestResponse *response;
  const char *message;

  response = agent_test_server_add_response (server, 200);
  sse_role (response);
  sse_text (response, "Partial");
  agent_test_response_add_sse (response,
                               "{\"error\":{\"message\":\"Quota exceeded for key " SECRET_KEY "\","
                               "\"type\":\"insufficient_quota\"}}");

  cli = cli_run_full (ARGS ("OPENAI_API_KEY=" SECRET_KEY), NULL,
                      ARGS ("--json", "--base-url", agent_test_server_get_base_url (server), "Hi"));
  cli_parse_json (cli);

  assert_exit (cli, 1);
  message = assert_error (cli, "provider");
  g_assert_nonnull (strstr (message, "Quota exceeded"));
  assert_no_secret (cli);
}

static void
test_errors_http (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(Cli) cli500 = NULL;
  g_autoptr(Cli) cli404 = NULL;
  const char *message;

  agent_test_response_set_body (agent_test_server_add_response (server, 500),
                                "application/json",
                                "{\"error\":{\"message\":\"The server had an error while "
                                "processing your request.\",\"type\":\"server_error\"}}");
  agent_test_response_set_body (agent_test_server_add_response (server, 404),
                                "text/plain", "Not Found");

  cli500 = cli_run_json (ARGS ("--json", "--base-url", agent_test_server_get_base_url (server),
                               "Hi"));
  assert_exit (cli500, 1);
  message = assert_error (cli500, "http");
  g_assert_nonnull (strstr (message, "500"));
  g_assert_nonnull (strstr (message, "The server had an error"));

  cli404 = cli_run_json (ARGS ("--json", "--base-url", agent_test_server_get_base_url (server),
                               "Hi"));
  assert_exit (cli404, 1);
  message = assert_error (cli404, "http");
  g_assert_nonnull (strstr (message, "404"));

  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 2);
}

/* A port nothing listens on. */
static char *
closed_port_url (void)
{
  g_autoptr(GSocket) socket = NULL;
  g_autoptr(GSocketAddress) address = NULL;
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GError) error = NULL;
  guint port;

  socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, &error);
  g_assert_no_error (error);
  address = g_inet_socket_address_new (loopback, 0);
  g_socket_bind (socket, address, FALSE, &error);
  g_assert_no_error (error);
  bound = g_socket_get_local_address (socket, &error);
  g_assert_no_error (error);
  port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
  g_socket_close (socket, NULL);

  return g_strdup_printf ("http://127.0.0.1:%u/v1", port);
}

static void
test_errors_refused (void)
{
  g_autofree char *url = closed_port_url ();
  g_autoptr(Cli) cli = NULL;

  cli = cli_run_json (ARGS ("--json", "--base-url", url, "Hi"));

  assert_exit (cli, 1);
  assert_error (cli, "network");
  g_assert_cmpuint (cli->events->len, ==, 1);
}

static void
test_errors_dropped (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(Cli) cli = NULL;
  g_autofree char *text = NULL;
  AgentTestResponse *response;

  response = agent_test_server_add_response (server, 200);
  sse_role (response);
  sse_text (response, "Partial ");
  sse_text (response, "answer");
  agent_test_response_set_drop (response);

  cli = cli_run_json (ARGS ("--json", "--base-url", agent_test_server_get_base_url (server),
                            "Hi"));

  assert_exit (cli, 1);
  assert_error (cli, "network");
  text = streamed_text (cli);
  g_assert_cmpstr (text, ==, "Partial answer");
  g_assert_cmpuint (count_events (cli, "text-delta"), ==, 2);
}

/* The body ends cleanly, but with neither a finish reason nor [DONE]. */
static void
test_errors_truncated (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(Cli) cli = NULL;
  g_autofree char *text = NULL;
  AgentTestResponse *response;

  response = agent_test_server_add_response (server, 200);
  sse_role (response);
  sse_text (response, "Cut ");
  sse_text (response, "short");

  cli = cli_run_json (ARGS ("--json", "--base-url", agent_test_server_get_base_url (server),
                            "Hi"));

  assert_exit (cli, 1);
  assert_error (cli, "protocol");
  text = streamed_text (cli);
  g_assert_cmpstr (text, ==, "Cut short");
}

/* Input and options */

static void
test_input_stdin (void)
{
  static const char * const deltas[] = { "Fine.", NULL };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(Cli) cli = NULL;

  add_text_response (server, deltas, 1, 1);

  cli = cli_run_full (NULL, "How are you,\nmodel?\n",
                      ARGS ("--json", "--base-url", agent_test_server_get_base_url (server)));
  cli_parse_json (cli);

  assert_exit (cli, 0);
  g_assert_cmpstr (done_content (cli), ==, "Fine.");
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 1);
  g_assert_cmpstr (last_user_content (server, 0), ==, "How are you,\nmodel?");
}

static void
test_input_words (void)
{
  static const char * const deltas[] = { "Yes.", NULL };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(Cli) cli = NULL;

  add_text_response (server, deltas, 1, 1);

  cli = cli_run_json (ARGS ("--json", "--base-url", agent_test_server_get_base_url (server),
                            "Is", "this", "one prompt?"));

  assert_exit (cli, 0);
  g_assert_cmpstr (last_user_content (server, 0), ==, "Is this one prompt?");
}

static void
test_options_system_and_model (void)
{
  static const char * const deltas[] = { "Ok.", NULL };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(Cli) cli = NULL;
  JsonObject *message;

  add_text_response (server, deltas, 1, 1);

  cli = cli_run_json (ARGS ("--json", "--provider", "openai",
                            "--system", "Answer in one word.", "--model", "gpt-test-9",
                            "--base-url", agent_test_server_get_base_url (server), "Hi"));

  assert_exit (cli, 0);
  g_assert_cmpstr (get_string (request_body (server, 0), "model"), ==, "gpt-test-9");
  g_assert_cmpuint (json_array_get_length (request_messages (server, 0)), ==, 2);
  message = request_message (server, 0, 0);
  g_assert_cmpstr (get_string (message, "role"), ==, "system");
  g_assert_cmpstr (get_string (message, "content"), ==, "Answer in one word.");
  message = request_message (server, 0, 1);
  g_assert_cmpstr (get_string (message, "role"), ==, "user");
  g_assert_cmpstr (get_string (message, "content"), ==, "Hi");
}

static void
test_options_base_url_slash (void)
{
  static const char * const deltas[] = { "Ok.", NULL };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autofree char *url = g_strconcat (agent_test_server_get_base_url (server), "/", NULL);
  g_autoptr(Cli) cli = NULL;

  add_text_response (server, deltas, 1, 1);

  cli = cli_run_json (ARGS ("--json", "--base-url", url, "Hi"));

  assert_exit (cli, 0);
  g_assert_cmpstr (done_content (cli), ==, "Ok.");
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 1);
  g_assert_cmpstr (agent_test_server_get_request_path (server, 0), ==, "/v1/chat/completions");
}

typedef struct
{
  const char *option;
  const char *value;
  const char *mentioned;   /* the message names what is wrong */
} BadOption;

static void
test_options_invalid (void)
{
  static const BadOption cases[] = {
    { "--base-url", "not a url", "not a url" },
    { "--base-url", "ftp://example.com/v1", "ftp://example.com/v1" },
    { "--base-url", "", "base-url" },
    { "--provider", "nope-provider", "nope-provider" },
    { "--tool", "nope-tool", "nope-tool" },
    { "--max-steps", "0", "max-steps" },
    { "--max-steps", "-2", "max-steps" },
    { "--max-steps", "many", "many" },
    { "--no-such-option", "x", "no-such-option" },
  };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *base_url = agent_test_server_get_base_url (server);
      g_autoptr(Cli) plain = NULL;
      g_autoptr(Cli) json = NULL;

      g_test_message ("%s “%s”", cases[i].option, cases[i].value);

      /* The option under test comes last, so a bad --base-url wins over the server's. */
      plain = cli_run (ARGS ("--base-url", base_url, cases[i].option, cases[i].value, "Hi"));
      assert_exit (plain, 1);
      g_assert_cmpstr (plain->out->str, ==, "");
      if (strstr (plain->err->str, cases[i].mentioned) == NULL)
        g_error ("%s “%s”: the message does not mention “%s”:\n%s", cases[i].option,
                 cases[i].value, cases[i].mentioned, plain->err->str);

      json = cli_run (ARGS ("--json", "--base-url", base_url, cases[i].option, cases[i].value,
                            "Hi"));
      assert_exit (json, 1);
      /* A usage error found by the option parser may come before --json applies;
       * anything printed on stdout must still be one error line. */
      if (json->out->len > 0)
        {
          cli_parse_json (json);
          g_assert_cmpuint (json->events->len, ==, 1);
          assert_error (json, get_string (last_event (json), "code"));
        }
      else
        g_assert_cmpstr (json->err->str, !=, "");
    }

  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 0);
}

static void
test_input_empty (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(Cli) args = NULL;
  g_autoptr(Cli) input = NULL;

  args = cli_run (ARGS ("--json", "--base-url", agent_test_server_get_base_url (server), "  "));
  cli_parse_json (args);
  assert_exit (args, 1);
  assert_error (args, "invalid-argument");

  input = cli_run_full (NULL, "\n\n", ARGS ("--json", "--base-url",
                                            agent_test_server_get_base_url (server)));
  cli_parse_json (input);
  assert_exit (input, 1);
  assert_error (input, "invalid-argument");

  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 0);
}

/* Plain output */

static void
test_plain_text (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(Cli) cli = NULL;

  add_text_response (server, text_deltas, 10, 6);

  cli = cli_run (ARGS ("--base-url", agent_test_server_get_base_url (server), "Say hello"));

  assert_exit (cli, 0);
  g_assert_cmpstr (cli->out->str, ==, TEXT_CONTENT "\n");
  g_assert_cmpstr (cli->err->str, ==, "");
}

static void
test_plain_tools (void)
{
  static const char * const answer[] = { "2*7 is ", "14.", NULL };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(Cli) cli = NULL;

  add_tool_response (server, calculator_chunks, G_N_ELEMENTS (calculator_chunks), 20, 5);
  add_text_response (server, answer, 30, 4);

  cli = cli_run (ARGS ("--tool", "calculator", "--base-url",
                       agent_test_server_get_base_url (server), "What is 2*7?"));

  assert_exit (cli, 0);
  g_assert_cmpstr (cli->out->str, ==, "2*7 is 14.\n");
  g_assert_nonnull (strstr (cli->err->str, "calculator"));
  g_assert_nonnull (strstr (cli->err->str, CALCULATOR_ARGUMENTS));
  g_assert_nonnull (strstr (cli->err->str, "14"));
  g_assert_null (strstr (cli->err->str, "\033["));
}

/* Plain mode ends a text that has no final newline with one, and only one. */
static void
test_plain_trailing_newline (void)
{
  static const char * const deltas[] = { "Line one\n", "line two\n", NULL };
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(Cli) cli = NULL;

  add_text_response (server, deltas, 1, 1);

  cli = cli_run (ARGS ("--base-url", agent_test_server_get_base_url (server), "Two lines"));

  assert_exit (cli, 0);
  g_assert_cmpstr (cli->out->str, ==, "Line one\nline two\n");
}

/* SIGINT */

static gboolean
has_two_text_delta_lines (gpointer data)
{
  Cli *cli = data;
  g_autoptr(GPtrArray) events = parse_complete_lines (cli->out);
  guint n = 0;

  for (guint i = 0; i < events->len; i++)
    if (g_str_equal (event_type (g_ptr_array_index (events, i)), "text-delta"))
      n++;

  return n >= 2 || cli_is_finished (cli);
}

static AgentTestResponse *
add_endless_response (AgentTestServer *server)
{
  AgentTestResponse *response = agent_test_server_add_response (server, 200);

  sse_role (response);
  sse_text (response, "Streamed ");
  sse_text (response, "so far");
  agent_test_response_add_wait (response);
  sse_text (response, " never");
  sse_finish (response, "stop");
  agent_test_response_add_done (response);
  return response;
}

static void
test_signal_sigint_json (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(Cli) cli = NULL;
  g_autofree char *text = NULL;
  g_autofree char *types = NULL;

  add_endless_response (server);

  cli = cli_spawn (NULL, NULL, ARGS ("--json", "--base-url",
                                     agent_test_server_get_base_url (server), "Talk"));
  if (!wait_until (has_two_text_delta_lines, cli))
    g_error ("The text did not stream; stdout so far:\n%s", cli->out->str);
  if (!wait_until (server_is_waiting, server))
    g_error ("The test server did not reach its wait");
  g_assert_false (cli->exited);

  g_subprocess_send_signal (cli->process, SIGINT);
  cli_wait (cli);
  cli_parse_json (cli);

  assert_exit (cli, 130);
  types = event_types (cli);
  g_assert_cmpstr (types, ==, "text-delta text-delta error");
  assert_error (cli, "cancelled");
  text = streamed_text (cli);
  g_assert_cmpstr (text, ==, "Streamed so far");
}

/* Ctrl-C while the server has not even answered yet. */
static void
test_signal_sigint_before_answer (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(Cli) cli = NULL;
  AgentTestResponse *response;

  response = agent_test_server_add_response (server, 200);
  agent_test_response_add_wait (response);
  sse_role (response);
  sse_text (response, "Too late");
  sse_finish (response, "stop");
  agent_test_response_add_done (response);

  cli = cli_spawn (NULL, NULL, ARGS ("--json", "--base-url",
                                     agent_test_server_get_base_url (server), "Talk"));
  if (!wait_until (server_is_waiting, server))
    g_error ("agent-cli sent no request; stderr:\n%s", cli->err->str);
  g_assert_false (cli->exited);

  g_subprocess_send_signal (cli->process, SIGINT);
  cli_wait (cli);
  cli_parse_json (cli);

  assert_exit (cli, 130);
  g_assert_cmpuint (cli->events->len, ==, 1);
  assert_error (cli, "cancelled");
}

static gboolean
has_plain_text (gpointer data)
{
  Cli *cli = data;

  return strstr (cli->out->str, "Streamed so far") != NULL || cli_is_finished (cli);
}

static void
test_signal_sigint_plain (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(Cli) cli = NULL;

  add_endless_response (server);

  cli = cli_spawn (NULL, NULL, ARGS ("--base-url", agent_test_server_get_base_url (server),
                                     "Talk"));
  if (!wait_until (has_plain_text, cli))
    g_error ("The text did not stream; stdout so far:\n%s", cli->out->str);
  g_assert_false (cli->exited);

  g_subprocess_send_signal (cli->process, SIGINT);
  cli_wait (cli);

  assert_exit (cli, 130);
  g_assert_true (g_str_has_prefix (cli->out->str, "Streamed so far"));
  g_assert_null (strstr (cli->out->str, "never"));
  g_assert_cmpstr (cli->err->str, !=, "");
}

/* The demo server */

typedef struct
{
  char     *line;
  gboolean  done;
} LineRead;

static void
read_line_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  LineRead *read = user_data;
  g_autoptr(GError) error = NULL;

  read->line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (object), result,
                                                          NULL, &error);
  g_assert_no_error (error);
  read->done = TRUE;
}

static gboolean
flag_is_set (gpointer data)
{
  return *(gboolean *)data;
}

static void
demo_wait_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_subprocess_wait_finish (G_SUBPROCESS (object), result, NULL);
  *(gboolean *)user_data = TRUE;
}

static void
test_demo_server (void)
{
  g_autoptr(GSubprocess) demo = NULL;
  g_autoptr(GDataInputStream) lines = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(Cli) cli = NULL;
  g_autofree char *url = NULL;
  g_autofree char *types = NULL;
  LineRead read = { 0 };
  gboolean demo_exited = FALSE;
  JsonObject *event;
  JsonNode *arguments;

  /* Its stdin is ours: should this process die, the demo server sees EOF and leaves. */
  demo = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                           G_SUBPROCESS_FLAGS_STDERR_SILENCE, &error,
                           demo_server_path, "--delay-ms", "0", "--quiet", "--exit-on-stdin-eof",
                           NULL);
  g_assert_no_error (error);

  lines = g_data_input_stream_new (g_subprocess_get_stdout_pipe (demo));
  g_data_input_stream_read_line_async (lines, G_PRIORITY_DEFAULT, NULL, read_line_cb, &read);
  if (!wait_until (flag_is_set, &read.done))
    {
      g_subprocess_force_exit (demo);
      g_error ("The demo server printed no URL");
    }
  url = g_steal_pointer (&read.line);
  g_assert_nonnull (url);
  g_assert_true (g_str_has_prefix (url, "http://127.0.0.1:"));

  cli = cli_run_json (ARGS ("--tool", "calculator", "--json", "--base-url", url,
                            "What is 17 * 23 + 4?"));

  assert_exit (cli, 0);
  types = event_types (cli);
  g_assert_true (g_str_has_prefix (types, "tool-call step-finished tool-started tool-finished "
                                          "text-delta"));
  g_assert_true (g_str_has_suffix (types, "text-delta step-finished done"));

  event = nth_event (cli, "tool-call", 0);
  g_assert_cmpstr (get_string (event, "name"), ==, "calculator");
  arguments = agent_test_parse_json (get_string (event, "arguments"));
  g_assert_cmpstr (get_string (json_node_get_object (arguments), "expression"), ==, "17 * 23 + 4");
  json_node_unref (arguments);

  event = nth_event (cli, "tool-finished", 0);
  g_assert_cmpstr (get_string (event, "result"), ==, "395");
  g_assert_nonnull (strstr (done_content (cli), "395"));
  assert_usage_summed (cli);

  g_subprocess_wait_async (demo, NULL, demo_wait_cb, &demo_exited);
  g_subprocess_send_signal (demo, SIGTERM);
  if (!wait_until (flag_is_set, &demo_exited))
    {
      g_subprocess_force_exit (demo);
      g_error ("The demo server did not stop on SIGTERM");
    }
  g_assert_true (g_subprocess_get_if_exited (demo));
  g_assert_cmpint (g_subprocess_get_exit_status (demo), ==, 0);
}

static const char *
built_program (const char *variable,
               const char *subdir,
               const char *name)
{
  static GPtrArray *paths;
  const char *path = g_getenv (variable);

  if (path != NULL && path[0] != '\0')
    return path;

  /* Run by hand from the build directory, without meson's environment. */
  if (paths == NULL)
    paths = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (paths, g_test_build_filename (G_TEST_BUILT, "..", subdir, name, NULL));
  return g_ptr_array_index (paths, paths->len - 1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  /* Writing a prompt to a child that already left must fail, not kill us. */
  signal (SIGPIPE, SIG_IGN);

  cli_path = built_program ("AGENT_CLI", "cli", "agent-cli");
  demo_server_path = built_program ("AGENT_DEMO_SERVER", "demo", "agent-demo-server");

  g_test_add_func ("/cli/json/text", test_json_text);
  g_test_add_func ("/cli/json/no-key", test_json_no_key);
  g_test_add_func ("/cli/json/flush", test_json_flush);
  g_test_add_func ("/cli/json/no-done-marker", test_json_no_done_marker);
  g_test_add_func ("/cli/tools/calculator", test_tools_calculator);
  g_test_add_func ("/cli/tools/parallel", test_tools_parallel);
  g_test_add_func ("/cli/tools/chunks", test_tools_chunks);
  g_test_add_func ("/cli/tools/chunks-index", test_tools_chunks_index);
  g_test_add_func ("/cli/tools/unknown", test_tools_unknown);
  g_test_add_func ("/cli/tools/max-steps", test_tools_max_steps);
  g_test_add_func ("/cli/tools/max-steps-default", test_tools_max_steps_default);
  g_test_add_func ("/cli/tools/max-steps-enough", test_tools_max_steps_enough);
  g_test_add_func ("/cli/tools/calculator-error", test_tools_calculator_error);
  g_test_add_func ("/cli/errors/authentication", test_errors_authentication);
  g_test_add_func ("/cli/errors/provider-redacted", test_errors_provider_redacted);
  g_test_add_func ("/cli/errors/http", test_errors_http);
  g_test_add_func ("/cli/errors/refused", test_errors_refused);
  g_test_add_func ("/cli/errors/dropped", test_errors_dropped);
  g_test_add_func ("/cli/errors/truncated", test_errors_truncated);
  g_test_add_func ("/cli/input/stdin", test_input_stdin);
  g_test_add_func ("/cli/input/words", test_input_words);
  g_test_add_func ("/cli/input/empty", test_input_empty);
  g_test_add_func ("/cli/options/system-and-model", test_options_system_and_model);
  g_test_add_func ("/cli/options/base-url-slash", test_options_base_url_slash);
  g_test_add_func ("/cli/options/invalid", test_options_invalid);
  g_test_add_func ("/cli/plain/text", test_plain_text);
  g_test_add_func ("/cli/plain/tools", test_plain_tools);
  g_test_add_func ("/cli/plain/trailing-newline", test_plain_trailing_newline);
  g_test_add_func ("/cli/signal/sigint-json", test_signal_sigint_json);
  g_test_add_func ("/cli/signal/sigint-plain", test_signal_sigint_plain);
  g_test_add_func ("/cli/signal/sigint-before-answer", test_signal_sigint_before_answer);
  g_test_add_func ("/cli/demo-server", test_demo_server);

  return g_test_run ();
}
