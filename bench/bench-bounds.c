/* bench-bounds.c — what hostile servers cost agent-cli: peak memory and time
 *
 *   bench-bounds steps [MB_PER_STEP [OPTION…]]  a model that answers every
 *                                           step with MB of text and a tool
 *                                           call (OPTIONs go to agent-cli)
 *   bench-bounds stall [SECONDS]            a model that sends one comment a
 *                                           second and never any content
 *                                           (SECONDS: --stall-timeout)
 *   bench-bounds mcp-tools N…               an MCP server with N tools: agent-cli
 *                                           starts it and sends one prompt
 *   bench-bounds mcp-register N…            in this process: connecting to an MCP
 *                                           server with N tools (max-tools 0) and
 *                                           offering them to a session
 *   bench-bounds writers N MB               N agent-cli at once, each keeping an
 *                                           answer of MB in the same store
 *   bench-bounds mcp-result TOOL AMOUNT     the model calls an MCP tool whose
 *                                           answer is huge: huge_text BYTES or
 *                                           many_blocks COUNT
 *   bench-bounds disk-full, attach-fifo…    hostile files, disks and processes
 *                                           (bench-bounds-files.c)
 *   bench-bounds json CASE                  hostile JSON, schemas and streams
 *                                           (issue 37; bench-bounds json lists
 *                                           the cases)
 *   bench-bounds scale-image [SIDE]         --scale-images 1024 --attach of a
 *                                           PNG of SIDE × SIDE pixels (40000:
 *                                           194 KB on the disk)
 *
 * Each runs agent-cli (with its default settings, its conversation kept in
 * a scratch store) as a child of bench-rusage, against a model server in
 * this process, and prints agent-cli's peak RSS (wait4()), its wall time,
 * its exit status (128 + N: killed by signal N), the requests the model
 * server got and the largest body, the bytes it wrote on stdout, the
 * lines of json-glib's criticals on stderr, and its last line there. $BENCH_AGENT_CLI runs another
 * build's agent-cli instead, to compare. Numbers only: nothing is compared
 * with a limit (bench/README.md).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#include <agent.h>

#include "agent-test-png.h"
#include "agent-test-util.h"
#include "bench-bounds.h"

#define CHUNK_TEXT (64 * 1024)

typedef enum
{
  MODEL_STEPS,        /* text, then a calculator call, every step */
  MODEL_STALL,        /* comments only */
  MODEL_ANSWER,       /* a short answer */
  MODEL_CALL_MCP,     /* a call of an MCP tool, then a short answer */
  MODEL_BIG_ANSWER,   /* text_bytes of text, no tool call */
  MODEL_CANNED,       /* bodies[request], the last one again after */
} ModelKind;

typedef struct
{
  ModelKind   kind;
  gsize       text_bytes;
  const char *mcp_tool;
  char       *mcp_arguments;
  guint       n_requests;
  guint64     max_request;
  guint       stall_seconds;
  GPtrArray  *bodies;          /* MODEL_CANNED */
  const char *content_type;    /* MODEL_CANNED */
} Model;

static void
add_event (GString    *body,
           const char *json)
{
  g_string_append_printf (body, "data: %s\n\n", json);
}

static void
add_tool_call (GString    *body,
               const char *id,
               const char *name,
               const char *arguments)
{
  g_autoptr(JsonNode) node = json_node_init_string (json_node_alloc (), arguments);
  g_autofree char *quoted = json_to_string (node, FALSE);
  g_autofree char *event = NULL;

  event = g_strdup_printf ("{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,"
                           "\"id\":\"%s\",\"type\":\"function\",\"function\":{\"name\":\"%s\","
                           "\"arguments\":%s}}]}}]}",
                           id, name, quoted);
  add_event (body, event);
  add_event (body, "{\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}");
}

static void
add_answer (GString    *body,
            const char *text)
{
  g_autofree char *event = g_strdup_printf ("{\"choices\":[{\"index\":0,\"delta\":"
                                            "{\"content\":\"%s\"}}]}", text);

  add_event (body, event);
  add_event (body, "{\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}");
}

static GString *
steps_body (Model *model)
{
  GString *body = g_string_sized_new (model->text_bytes + model->text_bytes / 8 + 1024);
  g_autofree char *chunk = g_malloc (CHUNK_TEXT + 1);
  g_autofree char *event = NULL;
  g_autofree char *id = g_strdup_printf ("call_%u", model->n_requests);

  memset (chunk, 'a' + model->n_requests % 26, CHUNK_TEXT);
  chunk[CHUNK_TEXT] = '\0';
  event = g_strdup_printf ("{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"%s\"}}]}", chunk);

  for (gsize sent = 0; sent < model->text_bytes; sent += CHUNK_TEXT)
    add_event (body, event);
  add_tool_call (body, id, "calculator", "{\"expression\":\"1+1\"}");
  return body;
}

typedef struct
{
  SoupServerMessage *message;
  guint              left;
  guint              source;
} Trickle;

static gboolean
trickle_cb (gpointer data)
{
  Trickle *trickle = data;
  SoupMessageBody *body = soup_server_message_get_response_body (trickle->message);

  if (trickle->left-- == 0)
    {
      soup_message_body_complete (body);
      soup_server_message_unpause (trickle->message);
      g_object_unref (trickle->message);
      g_free (trickle);
      return G_SOURCE_REMOVE;
    }
  soup_message_body_append (body, SOUP_MEMORY_STATIC, ": still thinking\n\n", 18);
  soup_server_message_unpause (trickle->message);
  return G_SOURCE_CONTINUE;
}

static void
handle_cb (SoupServer        *server,
           SoupServerMessage *message,
           const char        *path,
           GHashTable        *query,
           gpointer           user_data)
{
  Model *model = user_data;
  SoupMessageBody *request = soup_server_message_get_request_body (message);
  SoupMessageHeaders *headers = soup_server_message_get_response_headers (message);
  g_autoptr(GString) body = NULL;
  gsize len;

  model->n_requests++;
  model->max_request = MAX (model->max_request, (guint64) request->length);

  soup_server_message_set_status (message, 200, NULL);
  soup_message_headers_set_content_type (headers, "text/event-stream", NULL);

  switch (model->kind)
    {
    case MODEL_STEPS:
      body = steps_body (model);
      break;

    case MODEL_STALL:
      {
        Trickle *trickle = g_new0 (Trickle, 1);

        soup_message_headers_set_encoding (headers, SOUP_ENCODING_CHUNKED);
        trickle->message = g_object_ref (message);
        trickle->left = model->stall_seconds;
        g_timeout_add_seconds (1, trickle_cb, trickle);
        soup_server_message_pause (message);
        return;
      }

    case MODEL_CALL_MCP:
      body = g_string_new (NULL);
      if (model->n_requests == 1)
        add_tool_call (body, "call_mcp", model->mcp_tool, model->mcp_arguments);
      else
        add_answer (body, "done");
      break;

    case MODEL_BIG_ANSWER:
      body = steps_body (model);
      /* The text only: cut the tool call */
      g_string_truncate (body, body->len - strlen (strstr (body->str, "data: {\"choices\":[{\"index\":0,"
                                                               "\"delta\":{\"tool_calls\"")));
      add_event (body, "{\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}");
      break;

    case MODEL_CANNED:
      body = g_string_new (g_ptr_array_index (model->bodies,
                                              MIN (model->n_requests, model->bodies->len) - 1));
      soup_message_headers_set_content_type (headers, model->content_type, NULL);
      len = body->len;
      soup_message_body_append_take (soup_server_message_get_response_body (message),
                                     (guchar *) g_string_free (g_steal_pointer (&body), FALSE), len);
      return;

    case MODEL_ANSWER:
    default:
      body = g_string_new (NULL);
      add_answer (body, "ok");
      break;
    }

  g_string_append (body, "data: [DONE]\n\n");
  len = body->len;
  soup_message_body_append_take (soup_server_message_get_response_body (message),
                                 (guchar *) g_string_free (g_steal_pointer (&body), FALSE), len);
}

typedef struct
{
  gboolean  done;
  GString  *err;
  guint64   out_bytes;   /* what it wrote on stdout */
  gboolean  out_done;
  char      buffer[65536];
} Child;

/* Counts what a child writes on stdout, and drops it */
static void
out_cb (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  Child *child = user_data;
  gssize n = g_input_stream_read_finish (G_INPUT_STREAM (object), result, NULL);

  if (n <= 0)
    {
      child->out_done = TRUE;
      return;
    }
  child->out_bytes += n;
  g_input_stream_read_async (G_INPUT_STREAM (object), child->buffer, sizeof child->buffer,
                             G_PRIORITY_DEFAULT, NULL, out_cb, child);
}

static void
wait_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Child *child = user_data;

  g_subprocess_wait_finish (G_SUBPROCESS (object), result, NULL);
  child->done = TRUE;
}

static char *
last_line (const char *text)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  for (int i = (int) g_strv_length (lines) - 1; i >= 0; i--)
    if (g_strstrip (lines[i])[0] != '\0')
      return g_strndup (lines[i], 300);
  return g_strdup ("");
}

/* This build's agent-cli, or $BENCH_AGENT_CLI (another build's, to compare) */
static char *
cli_path (void)
{
  const char *other = g_getenv ("BENCH_AGENT_CLI");

  if (other != NULL && other[0] != '\0')
    return g_strdup (other);
  return g_build_filename (BENCH_BUILD_ROOT, "cli", "agent-cli", NULL);
}

/* Documented in bench-bounds.h */
char *
bench_bounds_cli_path (void)
{
  return cli_path ();
}

/* Runs agent-cli through bench-rusage; stdout goes to /dev/null, stderr
 * is kept for its last line. */
static void
run_cli (const char         *label,
         Model              *model,
         const char         *dir,
         const char * const *extra)
{
  g_autofree char *rusage = g_build_filename (BENCH_BUILD_ROOT, "bench", "bench-rusage", NULL);
  g_autofree char *cli = cli_path ();
  g_autofree char *result_file = g_build_filename (dir, "rusage.json", NULL);
  g_autofree char *err_file = g_build_filename (dir, "stderr.txt", NULL);
  g_autofree char *store = g_build_filename (dir, "store.db", NULL);
  g_autofree char *err = NULL;
  g_autofree char *line = NULL;
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *usage;
  guint n_criticals = 0;
  Child child = { 0 };

  g_ptr_array_add (argv, rusage);
  g_ptr_array_add (argv, result_file);
  g_ptr_array_add (argv, cli);
  g_ptr_array_add (argv, (gpointer) "--store");
  g_ptr_array_add (argv, store);
  for (guint i = 0; extra[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) extra[i]);
  g_ptr_array_add (argv, NULL);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_INHERIT |
                                        G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_subprocess_launcher_set_stderr_file_path (launcher, err_file);
  g_subprocess_launcher_setenv (launcher, "OPENAI_API_KEY", "bench", TRUE);
  g_subprocess_launcher_setenv (launcher, "ANTHROPIC_API_KEY", "bench", TRUE);
  g_subprocess_launcher_setenv (launcher, "GEMINI_API_KEY", "bench", TRUE);
  g_subprocess_launcher_setenv (launcher, "LC_ALL", "C.UTF-8", TRUE);

  model->n_requests = 0;
  model->max_request = 0;
  g_unlink (store);
  g_unlink (err_file);  /* the launcher does not truncate it */

  process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  if (process == NULL)
    g_error ("%s", error->message);
  g_input_stream_read_async (g_subprocess_get_stdout_pipe (process), child.buffer,
                             sizeof child.buffer, G_PRIORITY_DEFAULT, NULL, out_cb, &child);
  g_subprocess_wait_async (process, NULL, wait_cb, &child);
  while (!child.done || !child.out_done)
    g_main_context_iteration (NULL, TRUE);

  if (!json_parser_load_from_file (parser, result_file, &error))
    g_error ("%s", error->message);
  usage = json_node_get_object (json_parser_get_root (parser));
  g_file_get_contents (err_file, &err, NULL, NULL);
  line = last_line (err ? err : "");
  {
    const char *p = err;

    while (p != NULL && (p = strstr (p, "CRITICAL")) != NULL)
      {
        n_criticals++;
        p++;
      }
  }

  g_print ("%-28s peak RSS %7.1f MB  wall %7.2f s  cpu %7.2f s  exit %3d  requests %2u  "
           "largest request %8.1f MB  stdout %13" G_GUINT64_FORMAT " bytes  criticals %u\n"
           "    stderr: %s\n",
           label,
           json_object_get_int_member (usage, "maxrss_kib") / 1024.0,
           json_object_get_double_member (usage, "wall_s"),
           json_object_get_double_member (usage, "user_s") +
           json_object_get_double_member (usage, "sys_s"),
           (int) json_object_get_int_member (usage, "status"),
           model->n_requests, model->max_request / 1e6, child.out_bytes, n_criticals, line);
}

/* @n agent-cli at once, each with a conversation of its own in one store */
static void
run_writers (Model      *model,
             const char *dir,
             const char *base_url,
             guint       n)
{
  g_autofree char *cli = cli_path ();
  g_autofree char *store = g_build_filename (dir, "store.db", NULL);
  g_autoptr(GPtrArray) processes = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GString) errors = g_string_new (NULL);
  guint n_failed = 0;
  gint64 start = g_get_monotonic_time ();
  Child *children = g_new0 (Child, n);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GSubprocessLauncher) launcher = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *err_file = g_strdup_printf ("%s/stderr-%u.txt", dir, i);
      GSubprocess *process;

      launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
      g_subprocess_launcher_set_stdout_file_path (launcher, "/dev/null");
      g_subprocess_launcher_set_stderr_file_path (launcher, err_file);
      g_subprocess_launcher_setenv (launcher, "OPENAI_API_KEY", "bench", TRUE);
      g_subprocess_launcher_setenv (launcher, "LC_ALL", "C.UTF-8", TRUE);
      process = g_subprocess_launcher_spawn (launcher, &error, cli, "--store", store, "-u",
                                             base_url, "Write a lot", NULL);
      if (process == NULL)
        g_error ("%s", error->message);
      g_subprocess_wait_async (process, NULL, wait_cb, &children[i]);
      g_ptr_array_add (processes, process);
    }

  for (guint i = 0; i < n; i++)
    while (!children[i].done)
      g_main_context_iteration (NULL, TRUE);

  for (guint i = 0; i < n; i++)
    {
      GSubprocess *process = g_ptr_array_index (processes, i);

      if (!g_subprocess_get_if_exited (process) || g_subprocess_get_exit_status (process) != 0)
        {
          g_autofree char *err_file = g_strdup_printf ("%s/stderr-%u.txt", dir, i);
          g_autofree char *err = NULL;
          g_autofree char *line = NULL;

          g_file_get_contents (err_file, &err, NULL, NULL);
          line = last_line (err ? err : "");
          if (n_failed++ == 0)
            g_string_append (errors, line);
        }
    }

  g_print ("%u writers of %.1f MB        failed %u  wall %7.2f s  requests %u\n    first error: %s\n",
           n, model->text_bytes / 1e6, n_failed, (g_get_monotonic_time () - start) / 1e6,
           model->n_requests, errors->str);
  g_free (children);

  {
    g_autoptr(GDir) listing = g_dir_open (dir, 0, NULL);
    const char *name;

    while (listing != NULL && (name = g_dir_read_name (listing)) != NULL)
      if (g_str_has_prefix (name, "stderr-"))
        {
          g_autofree char *path = g_build_filename (dir, name, NULL);

          g_unlink (path);
        }
  }
}

static char *
write_mcp_config (const char *dir,
                  guint       n_tools)
{
  g_autofree char *server = g_build_filename (BENCH_BUILD_ROOT, "tests", "agent-test-mcp-server",
                                              NULL);
  g_autofree char *path = g_build_filename (dir, "mcp.json", NULL);
  g_autofree char *config = NULL;

  config = g_strdup_printf ("{\"mcpServers\":{\"hostile\":{\"command\":\"%s\","
                            "\"args\":[\"--tools\",\"%u\"],\"trusted\":true}}}",
                            server, n_tools);
  if (!g_file_set_contents (path, config, -1, NULL))
    g_error ("cannot write %s", path);
  return g_steal_pointer (&path);
}

static void
done_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

/* Connecting to a server with @n tools, and attaching them to a session */
static void
register_tools (guint n)
{
  g_autofree char *server = g_build_filename (BENCH_BUILD_ROOT, "tests", "agent-test-mcp-server",
                                              NULL);
  g_autofree char *count = g_strdup_printf ("%u", n);
  const char *args[] = { "--tools", count, NULL };
  g_autoptr(AgentMcpServerList) list = agent_mcp_server_list_new ();
  g_autoptr(AgentMcpClient) client = agent_mcp_client_new_stdio ("hostile", server, args);
  g_autoptr(AgentProvider) provider = agent_provider_new ("openai", NULL);
  g_autoptr(AgentSession) session = agent_session_new (provider);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GAsyncResult) closed = NULL;
  gint64 start, connected, attached;

  agent_mcp_client_set_max_tools (client, 0);
  agent_mcp_server_list_add (list, client);

  start = g_get_monotonic_time ();
  agent_mcp_server_list_connect_async (list, NULL, done_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  connected = g_get_monotonic_time ();
  agent_mcp_server_list_attach (list, session);
  attached = g_get_monotonic_time ();

  g_print ("%-28s connect and list %7.3f s  attach %7.3f s  session tools %u\n",
           count, (connected - start) / 1e6, (attached - connected) / 1e6,
           g_list_model_get_n_items (agent_session_get_tools (session)));

  agent_mcp_server_list_detach (list, session);
  agent_mcp_server_list_close_async (list, NULL, done_cb, &closed);
  while (closed == NULL)
    g_main_context_iteration (NULL, TRUE);
}

/* Hostile JSON, schemas and streams (issue 37): canned answers */

/* An OpenAI chat answer of @text in pieces of @piece bytes, then its
 * finish reason */
static char *
chat_text_body (const char *text,
                gsize       piece,
                const char *finish_reason)
{
  GString *body = g_string_new (NULL);
  gsize len = strlen (text);

  for (gsize at = 0; at < len; at += piece)
    {
      g_autoptr(JsonNode) node = NULL;
      g_autofree char *part = g_strndup (text + at, MIN (piece, len - at));
      g_autofree char *quoted = NULL;
      g_autofree char *event = NULL;

      node = json_node_init_string (json_node_alloc (), part);
      quoted = json_to_string (node, FALSE);
      event = g_strdup_printf ("{\"choices\":[{\"index\":0,\"delta\":{\"content\":%s}}]}",
                               quoted);
      add_event (body, event);
    }
  {
    g_autofree char *end = g_strdup_printf ("{\"choices\":[{\"index\":0,\"delta\":{},"
                                            "\"finish_reason\":\"%s\"}]}", finish_reason);

    add_event (body, end);
  }
  g_string_append (body, "data: [DONE]\n\n");
  return g_string_free (body, FALSE);
}

static char *
chat_answer_body (const char *text)
{
  return chat_text_body (text, 64, "stop");
}

/* Anthropic events: one per line pair, typed */
static void
add_typed (GString    *body,
           const char *type,
           const char *json)
{
  g_string_append_printf (body, "event: %s\ndata: %s\n\n", type, json);
}

static char *
anthropic_body (const char *block_type,
                const char *arguments)
{
  GString *body = g_string_new (NULL);

  add_typed (body, "message_start", "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\","
             "\"type\":\"message\",\"role\":\"assistant\",\"model\":\"bench\",\"content\":[],"
             "\"usage\":{\"input_tokens\":5,\"output_tokens\":1}}}");
  add_typed (body, "content_block_start", "{\"type\":\"content_block_start\",\"index\":0,"
             "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}");
  add_typed (body, "content_block_delta", "{\"type\":\"content_block_delta\",\"index\":0,"
             "\"delta\":{\"type\":\"text_delta\",\"text\":\"Let me work it out.\"}}");
  add_typed (body, "content_block_stop", "{\"type\":\"content_block_stop\",\"index\":0}");
  if (block_type != NULL)
    {
      g_autofree char *start = NULL;

      start = g_strdup_printf ("{\"type\":\"content_block_start\",\"index\":1,"
                               "\"content_block\":{\"type\":\"%s\",\"id\":\"toolu_1\","
                               "\"name\":\"calculator\",\"input\":{}}}", block_type);
      add_typed (body, "content_block_start", start);
      if (arguments != NULL)
        {
          g_autoptr(JsonNode) node = json_node_init_string (json_node_alloc (), arguments);
          g_autofree char *quoted = json_to_string (node, FALSE);
          g_autofree char *delta = g_strdup_printf ("{\"type\":\"content_block_delta\","
                                                    "\"index\":1,\"delta\":{\"type\":"
                                                    "\"input_json_delta\",\"partial_json\":%s}}",
                                                    quoted);

          add_typed (body, "content_block_delta", delta);
        }
      add_typed (body, "content_block_stop", "{\"type\":\"content_block_stop\",\"index\":1}");
    }
  add_typed (body, "message_delta", block_type != NULL && arguments != NULL ?
             "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\"},"
             "\"usage\":{\"output_tokens\":9}}" :
             "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},"
             "\"usage\":{\"output_tokens\":9}}");
  add_typed (body, "message_stop", "{\"type\":\"message_stop\"}");
  return g_string_free (body, FALSE);
}

static char *
write_file (const char *dir,
            const char *name,
            const char *contents)
{
  char *path = g_build_filename (dir, name, NULL);

  if (!g_file_set_contents (path, contents, -1, NULL))
    g_error ("cannot write %s", path);
  return path;
}

static const char * const json_cases[] = {
  "deep-arguments", "deep-arguments-anthropic", "deep-schema", "schema-array", "schema-string",
  "schema-ref-loop", "schema-cut-off", "responses-completed-only", "gemini-finish-only",
  "anthropic-unknown-block", "anthropic-to-openai", "mcp-deep", NULL,
};

/* One case of `bench-bounds json CASE` */
static gboolean
run_json_case (const char *name,
               Model      *model,
               const char *dir,
               const char *base_url)
{
  static const char items_schema[] =
    "{\"type\": \"object\", \"required\": [\"items\"], \"properties\": {\"items\":"
    " {\"type\": \"array\", \"items\": {\"type\": \"object\"}}}}";
  g_autoptr(GPtrArray) bodies = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *deep = agent_test_nested_arrays (150000, NULL);

  model->kind = MODEL_CANNED;
  model->bodies = bodies;
  model->content_type = "text/event-stream";
  g_ptr_array_add (args, g_strdup ("-u"));
  g_ptr_array_add (args, g_strdup (base_url));

  if (g_str_equal (name, "deep-arguments"))
    {
      /* Text, then the calculator (run without asking) with 150,000
       * arrays as its arguments; then an answer */
      GString *body = g_string_new (NULL);

      add_event (body, "{\"choices\":[{\"index\":0,\"delta\":{\"content\":"
                       "\"Let me work it out.\"}}]}");
      add_tool_call (body, "call_1", "calculator", deep);
      g_string_append (body, "data: [DONE]\n\n");
      g_ptr_array_add (bodies, g_string_free (body, FALSE));
      g_ptr_array_add (bodies, chat_answer_body ("done"));
      g_ptr_array_add (args, g_strdup ("--tool=calculator"));
    }
  else if (g_str_equal (name, "deep-arguments-anthropic"))
    {
      g_autofree char *arguments = g_strdup_printf ("{\"expression\":%s}", deep);

      g_ptr_array_add (bodies, anthropic_body ("tool_use", arguments));
      g_ptr_array_add (bodies, anthropic_body (NULL, NULL));
      g_ptr_array_add (args, g_strdup ("--provider=anthropic"));
      g_ptr_array_add (args, g_strdup ("--tool=calculator"));
    }
  else if (g_str_equal (name, "deep-schema"))
    {
      /* A --schema file 100,000 deep */
      g_autofree char *nested = agent_test_nested_arrays (100000, NULL);
      g_autofree char *schema = g_strdup_printf ("{\"type\": \"object\", \"examples\": %s}",
                                                 nested);

      g_ptr_array_add (bodies, chat_answer_body ("{}"));
      g_ptr_array_add (args, g_strdup ("--schema"));
      g_ptr_array_add (args, write_file (dir, "deep.json", schema));
    }
  else if (g_str_equal (name, "schema-array"))
    {
      /* --json --schema, an array of 269 kB in pieces of 20 bytes */
      g_autoptr(GString) answer = g_string_new ("{\"items\": [");

      for (guint i = 0; answer->len < 269000; i++)
        g_string_append_printf (answer, "%s{\"n\": %u, \"name\": \"item number %u\"}",
                                i > 0 ? ", " : "", i, i);
      g_string_append (answer, "]}");
      g_ptr_array_add (bodies, chat_text_body (answer->str, 20, "stop"));
      g_ptr_array_add (args, g_strdup ("--json"));
      g_ptr_array_add (args, g_strdup ("--schema"));
      g_ptr_array_add (args, write_file (dir, "items.json", items_schema));
    }
  else if (g_str_equal (name, "schema-string"))
    {
      /* --json --schema, a text of 100 kB in pieces of 20 bytes, whose
       * first piece shows it begun */
      g_autoptr(GString) answer = g_string_new ("{\"note\": \"");

      while (answer->len < 100000)
        g_string_append (answer, "All work and no play. ");
      g_string_append (answer, "\"}");
      g_ptr_array_add (bodies, chat_text_body (answer->str, 20, "stop"));
      g_ptr_array_add (args, g_strdup ("--json"));
      g_ptr_array_add (args, g_strdup ("--schema"));
      g_ptr_array_add (args, write_file (dir, "note.json", "{\"type\": \"object\"}"));
    }
  else if (g_str_equal (name, "schema-ref-loop"))
    {
      static const char loop[] =
        "{\"type\": \"object\", \"properties\": {\"a\": {\"$ref\": \"#/$defs/b\"}},"
        " \"$defs\": {\"b\": {\"anyOf\": [{\"$ref\": \"#/$defs/c\"}]},"
        " \"c\": {\"$ref\": \"#/$defs/b\"}}}";

      g_ptr_array_add (bodies, chat_answer_body ("{\"b\": 1}"));
      g_ptr_array_add (args, g_strdup ("--schema"));
      g_ptr_array_add (args, write_file (dir, "loop.json", loop));
    }
  else if (g_str_equal (name, "schema-cut-off"))
    {
      /* Whole JSON, where the model ran out of tokens */
      g_ptr_array_add (bodies, chat_text_body ("{\"items\": [{\"n\": 1}]}", 8, "length"));
      g_ptr_array_add (args, g_strdup ("--schema"));
      g_ptr_array_add (args, write_file (dir, "items.json", items_schema));
    }
  else if (g_str_equal (name, "responses-completed-only"))
    {
      g_ptr_array_add (bodies, g_strdup ("event: response.completed\ndata: {\"type\":"
                                         "\"response.completed\",\"response\":{\"id\":\"r\","
                                         "\"status\":\"completed\",\"output\":[]}}\n\n"));
      g_ptr_array_add (args, g_strdup ("--provider=openai-responses"));
    }
  else if (g_str_equal (name, "gemini-finish-only"))
    {
      g_ptr_array_add (bodies, g_strdup ("data: {\"candidates\": [{\"finishReason\": "
                                         "\"STOP\"}]}\r\n\r\n"));
      g_ptr_array_add (args, g_strdup ("--provider=gemini"));
    }
  else if (g_str_equal (name, "anthropic-unknown-block"))
    {
      g_ptr_array_add (bodies, anthropic_body ("hologram", NULL));
      g_ptr_array_add (args, g_strdup ("--provider=anthropic"));
    }
  else if (g_str_equal (name, "anthropic-to-openai"))
    {
      /* An Anthropic stream, to --provider openai */
      g_ptr_array_add (bodies, anthropic_body (NULL, NULL));
    }
  else if (g_str_equal (name, "mcp-deep"))
    {
      /* An MCP tool that answers 100,000 arrays deep */
      g_autofree char *config = write_mcp_config (dir, 0);

      model->kind = MODEL_CALL_MCP;
      model->mcp_tool = "deep";
      model->mcp_arguments = g_strdup ("{\"depth\":100000}");
      g_ptr_array_add (args, g_strdup ("--mcp-config"));
      g_ptr_array_add (args, g_steal_pointer (&config));
    }
  else
    {
      return FALSE;
    }

  g_ptr_array_add (args, g_strdup ("Go"));
  g_ptr_array_add (args, NULL);
  run_cli (name, model, dir, (const char * const *) args->pdata);
  g_clear_pointer (&model->mcp_arguments, g_free);
  model->bodies = NULL;
  return TRUE;
}

/* scale-image: an image small on the disk and huge decoded, attached and
 * scaled (issue 37) */
static void
scale_image (Model      *model,
             const char *dir,
             const char *base_url,
             guint32     side)
{
  g_autoptr(GBytes) png = agent_test_grey_png_new (side, side, side);
  g_autofree char *path = g_build_filename (dir, "huge.png", NULL);
  g_autofree char *label = NULL;
  g_autoptr(GError) error = NULL;

  if (!g_file_set_contents (path, g_bytes_get_data (png, NULL), g_bytes_get_size (png), &error))
    g_error ("%s", error->message);
  label = g_strdup_printf ("PNG %u × %u, %.0f KB", side, side, g_bytes_get_size (png) / 1e3);
  model->kind = MODEL_ANSWER;
  run_cli (label, model, dir,
           (const char * const[]) { "-u", base_url, "--scale-images", "1024", "--attach", path,
                                    "What is this?", NULL });
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(SoupServer) server = soup_server_new (NULL, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GSList) uris = NULL;
  g_autofree char *base_url = NULL;
  g_autofree char *dir = NULL;
  const char *mode = argc > 1 ? argv[1] : "steps";
  Model model = { 0 };

  setlocale (LC_ALL, "");

  if (!soup_server_listen_local (server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error))
    g_error ("%s", error->message);
  soup_server_add_handler (server, NULL, handle_cb, &model, NULL);
  uris = soup_server_get_uris (server);
  base_url = g_strdup_printf ("http://127.0.0.1:%d/v1", g_uri_get_port (uris->data));
  g_slist_free_full (g_steal_pointer (&uris), (GDestroyNotify) g_uri_unref);

  if (!(dir = g_dir_make_tmp ("bench-bounds-XXXXXX", &error)))
    g_error ("%s", error->message);

  if (g_str_equal (mode, "steps"))
    {
      guint mb = argc > 2 ? atoi (argv[2]) : 60;
      g_autofree char *label = g_strdup_printf ("%u MB of text per step", mb);
      g_autoptr(GPtrArray) args = g_ptr_array_new ();

      /* Options after MB go to agent-cli: --max-turn-size 0… */
      g_ptr_array_add (args, (gpointer) "-u");
      g_ptr_array_add (args, base_url);
      g_ptr_array_add (args, (gpointer) "--tool");
      g_ptr_array_add (args, (gpointer) "calculator");
      g_ptr_array_add (args, (gpointer) "--yes");
      for (int i = 3; i < argc; i++)
        g_ptr_array_add (args, argv[i]);
      g_ptr_array_add (args, (gpointer) "Go on and on");
      g_ptr_array_add (args, NULL);

      model.kind = MODEL_STEPS;
      model.text_bytes = (gsize) mb * 1000 * 1000;
      run_cli (label, &model, dir, (const char * const *) args->pdata);
    }
  else if (g_str_equal (mode, "stall"))
    {
      model.kind = MODEL_STALL;
      model.stall_seconds = 3600;
      if (argc > 2)
        run_cli ("comments only", &model, dir,
                 (const char * const[]) { "-u", base_url, "--stall-timeout", argv[2], "Hello",
                                          NULL });
      else
        run_cli ("comments only", &model, dir,
                 (const char * const[]) { "-u", base_url, "Hello", NULL });
    }
  else if (g_str_equal (mode, "mcp-tools"))
    {
      for (int i = 2; i < MAX (argc, 3); i++)
        {
          guint n = argc > 2 ? atoi (argv[i]) : 8000;
          g_autofree char *config = write_mcp_config (dir, n);
          g_autofree char *label = g_strdup_printf ("MCP server with %u tools", n);

          model.kind = MODEL_ANSWER;
          run_cli (label, &model, dir,
                   (const char * const[]) { "-u", base_url, "--mcp-config", config, "Hello",
                                            NULL });
        }
    }
  else if (g_str_equal (mode, "writers"))
    {
      model.kind = MODEL_BIG_ANSWER;
      model.text_bytes = (gsize) (argc > 3 ? atof (argv[3]) : 11) * 1000 * 1000;
      run_writers (&model, dir, base_url, argc > 2 ? atoi (argv[2]) : 100);
    }
  else if (g_str_equal (mode, "mcp-register"))
    {
      for (int i = 2; i < MAX (argc, 3); i++)
        register_tools (argc > 2 ? atoi (argv[i]) : 8000);
    }
  else if (g_str_equal (mode, "mcp-result"))
    {
      const char *tool = argc > 2 ? argv[2] : "huge_text";
      gint64 amount = argc > 3 ? g_ascii_strtoll (argv[3], NULL, 10) : 60000000;
      g_autofree char *config = write_mcp_config (dir, 0);
      g_autofree char *label = g_strdup_printf ("MCP %s %" G_GINT64_FORMAT, tool, amount);

      model.kind = MODEL_CALL_MCP;
      model.mcp_tool = tool;
      model.mcp_arguments = g_strdup_printf ("{\"%s\":%" G_GINT64_FORMAT "}",
                                             g_str_equal (tool, "many_blocks") ? "count" : "bytes",
                                             amount);
      run_cli (label, &model, dir,
               (const char * const[]) { "-u", base_url, "--mcp-config", config, "Call it",
                                        NULL });
      g_free (model.mcp_arguments);
    }
  else if (run_hostile_files (mode, argc, argv, dir))
    ;
  else if (g_str_equal (mode, "json") && argc > 2)
    {
      for (int i = 2; i < argc; i++)
        {
          if (g_str_equal (argv[i], "all"))
            {
              for (guint k = 0; json_cases[k] != NULL; k++)
                run_json_case (json_cases[k], &model, dir, base_url);
            }
          else if (!run_json_case (argv[i], &model, dir, base_url))
            {
              g_autofree char *cases = g_strjoinv (" ", (char **) json_cases);

              g_printerr ("bench-bounds json: no case %s (all, or: %s)\n", argv[i], cases);
              return 2;
            }
        }
    }
  else if (g_str_equal (mode, "scale-image"))
    scale_image (&model, dir, base_url, argc > 2 ? atoi (argv[2]) : 40000);
  else
    {
      g_autofree char *cases = g_strjoinv (" ", (char **) json_cases);

      g_printerr ("usage: bench-bounds steps [MB] | stall [SECONDS] | mcp-tools N… | mcp-register N… | "
                  "writers N MB | "
                  "mcp-result huge_text|many_blocks AMOUNT | json all|CASE… | scale-image [SIDE] | "
                  "disk-full | disk-full-tools | attach-fifo | attach-zero | attach-growing | "
                  "attach-refused | foreign-db | mcp-children | retry-zero [N] | retry-huge | "
                  "key-echo | negative-length | name-escape\n"
                  "  json cases: %s\n", cases);
      return 2;
    }

  {
    g_autoptr(GDir) listing = g_dir_open (dir, 0, NULL);
    const char *name;

    while (listing != NULL && (name = g_dir_read_name (listing)) != NULL)
      {
        g_autofree char *path = g_build_filename (dir, name, NULL);

        g_unlink (path);
      }
    g_rmdir (dir);
  }
  return 0;
}
