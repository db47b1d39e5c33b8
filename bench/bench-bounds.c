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
 *   bench-bounds scale-image [SIDE]         --scale-images 1024 --attach of a
 *                                           PNG of SIDE × SIDE pixels (40000:
 *                                           194 KB on the disk)
 *
 * Each runs agent-cli (with its default settings, its conversation kept in
 * a scratch store) as a child of bench-rusage, against a model server in
 * this process, and prints agent-cli's peak RSS (wait4()), its wall time,
 * its exit status, the requests the model server got and the largest
 * body, and agent-cli's last line on stderr. $BENCH_AGENT_CLI runs another
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

#define CHUNK_TEXT (64 * 1024)

typedef enum
{
  MODEL_STEPS,        /* text, then a calculator call, every step */
  MODEL_STALL,        /* comments only */
  MODEL_ANSWER,       /* a short answer */
  MODEL_CALL_MCP,     /* a call of an MCP tool, then a short answer */
  MODEL_BIG_ANSWER,   /* text_bytes of text, no tool call */
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
} Child;

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
  Child child = { 0 };

  g_ptr_array_add (argv, rusage);
  g_ptr_array_add (argv, result_file);
  g_ptr_array_add (argv, cli);
  g_ptr_array_add (argv, (gpointer) "--store");
  g_ptr_array_add (argv, store);
  for (guint i = 0; extra[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) extra[i]);
  g_ptr_array_add (argv, NULL);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_INHERIT);
  g_subprocess_launcher_set_stdout_file_path (launcher, "/dev/null");
  g_subprocess_launcher_set_stderr_file_path (launcher, err_file);
  g_subprocess_launcher_setenv (launcher, "OPENAI_API_KEY", "bench", TRUE);
  g_subprocess_launcher_setenv (launcher, "LC_ALL", "C.UTF-8", TRUE);

  model->n_requests = 0;
  model->max_request = 0;
  g_unlink (store);

  process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  if (process == NULL)
    g_error ("%s", error->message);
  g_subprocess_wait_async (process, NULL, wait_cb, &child);
  while (!child.done)
    g_main_context_iteration (NULL, TRUE);

  if (!json_parser_load_from_file (parser, result_file, &error))
    g_error ("%s", error->message);
  usage = json_node_get_object (json_parser_get_root (parser));
  g_file_get_contents (err_file, &err, NULL, NULL);
  line = last_line (err ? err : "");

  g_print ("%-28s peak RSS %7.1f MB  wall %7.2f s  cpu %7.2f s  exit %2d  requests %2u  "
           "largest request %8.1f MB\n    stderr: %s\n",
           label,
           json_object_get_int_member (usage, "maxrss_kib") / 1024.0,
           json_object_get_double_member (usage, "wall_s"),
           json_object_get_double_member (usage, "user_s") +
           json_object_get_double_member (usage, "sys_s"),
           (int) json_object_get_int_member (usage, "status"),
           model->n_requests, model->max_request / 1e6, line);
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
  else if (g_str_equal (mode, "scale-image"))
    scale_image (&model, dir, base_url, argc > 2 ? atoi (argv[2]) : 40000);
  else
    {
      g_printerr ("usage: bench-bounds steps [MB] | stall [SECONDS] | mcp-tools N… | mcp-register N… | "
                  "writers N MB | "
                  "mcp-result huge_text|many_blocks AMOUNT | scale-image [SIDE]\n");
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
