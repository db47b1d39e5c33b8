/* agent-test-mcp-server.c — a hostile MCP server over stdio, for tests and benchmarks
 *
 *   agent-test-mcp-server [--tools N] [--pid-file FILE] [--linger] [--mute]
 *
 * Speaks just enough MCP (one JSON-RPC message a line) to be connected to,
 * then misbehaves on request. tools/list answers, in one page, the tools
 * below and N more ("tool_00000"…), each with a schema. Its tools:
 *
 *   huge_text   {"bytes": N}           one text block of N bytes ("x"…)
 *   many_blocks {"count": N}           N text blocks of one character each
 *   silent      {}                     never answered
 *   progress    {"steps": N, "ms": M}  N progress reports M ms apart, then "done"
 *   echo        {"text": "…"}          the text back
 *   deep        {"depth": N}           a result whose structuredContent nests N arrays
 *   raw         {…}                    the tools/call line it read, as it came
 *
 * --pid-file writes its process id there once it runs; --linger keeps it
 * alive after its input ends (a server that ignores the end of its input);
 * --mute reads what comes and never answers, the handshake included.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>
#include <json-glib/json-glib.h>

static void
write_line (GString *line)
{
  g_string_append_c (line, '\n');
  fwrite (line->str, 1, line->len, stdout);
  fflush (stdout);
}

static void
answer (JsonNode   *id,
        const char *result)
{
  g_autofree char *id_text = json_to_string (id, FALSE);
  g_autoptr(GString) line = g_string_new (NULL);

  g_string_printf (line, "{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":%s}", id_text, result);
  write_line (line);
}

static void
list_tools (JsonNode *id,
            guint     n_extra)
{
  static const char * const own[] = {
    "{\"name\":\"huge_text\",\"description\":\"One text block of `bytes` bytes\","
    "\"inputSchema\":{\"type\":\"object\",\"properties\":{\"bytes\":{\"type\":\"integer\"}}}}",
    "{\"name\":\"many_blocks\",\"description\":\"`count` text blocks\","
    "\"inputSchema\":{\"type\":\"object\",\"properties\":{\"count\":{\"type\":\"integer\"}}}}",
    "{\"name\":\"silent\",\"description\":\"Never answers\","
    "\"inputSchema\":{\"type\":\"object\",\"properties\":{}}}",
    "{\"name\":\"progress\",\"description\":\"Progress reports, then done\","
    "\"inputSchema\":{\"type\":\"object\",\"properties\":{\"steps\":{\"type\":\"integer\"},"
    "\"ms\":{\"type\":\"integer\"}}}}",
    "{\"name\":\"echo\",\"description\":\"The text back\","
    "\"inputSchema\":{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}}}}",
    "{\"name\":\"deep\",\"description\":\"A result nested `depth` arrays deep\","
    "\"inputSchema\":{\"type\":\"object\",\"properties\":{\"depth\":{\"type\":\"integer\"}}}}",
    "{\"name\":\"raw\",\"description\":\"The request line, as it came\","
    "\"inputSchema\":{\"type\":\"object\"}}",
  };
  g_autofree char *id_text = json_to_string (id, FALSE);
  g_autoptr(GString) line = g_string_new (NULL);

  g_string_printf (line, "{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"tools\":[", id_text);
  for (guint i = 0; i < G_N_ELEMENTS (own); i++)
    g_string_append_printf (line, "%s%s", i > 0 ? "," : "", own[i]);
  for (guint i = 0; i < n_extra; i++)
    g_string_append_printf (line,
                            ",{\"name\":\"tool_%05u\",\"description\":\"Filler tool %u\","
                            "\"inputSchema\":{\"type\":\"object\",\"properties\":"
                            "{\"value\":{\"type\":\"string\"}}}}",
                            i, i);
  g_string_append (line, "]}}");
  write_line (line);
}

static gint64
int_argument (JsonObject *arguments,
              const char *name)
{
  if (arguments == NULL || !json_object_has_member (arguments, name))
    return 0;
  return json_object_get_int_member (arguments, name);
}

static void
call_tool (JsonNode   *id,
           JsonObject *params,
           const char *request)
{
  const char *name = json_object_get_string_member_with_default (params, "name", "");
  JsonObject *arguments = json_object_has_member (params, "arguments") ?
                          json_object_get_object_member (params, "arguments") : NULL;
  g_autofree char *id_text = json_to_string (id, FALSE);
  g_autoptr(GString) line = g_string_new (NULL);

  g_string_printf (line, "{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"content\":[", id_text);

  if (g_str_equal (name, "silent"))
    return;
  else if (g_str_equal (name, "progress"))
    {
      JsonObject *meta = json_object_has_member (params, "_meta") ?
                         json_object_get_object_member (params, "_meta") : NULL;
      g_autofree char *token = meta && json_object_has_member (meta, "progressToken") ?
        json_to_string (json_object_get_member (meta, "progressToken"), FALSE) : g_strdup ("0");
      gint64 steps = int_argument (arguments, "steps");

      for (gint64 i = 0; i < steps; i++)
        {
          g_autoptr(GString) note = g_string_new (NULL);

          g_usleep (int_argument (arguments, "ms") * 1000);
          g_string_printf (note, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\","
                                 "\"params\":{\"progressToken\":%s,\"progress\":%" G_GINT64_FORMAT
                                 ",\"total\":%" G_GINT64_FORMAT "}}",
                           token, i + 1, steps);
          write_line (note);
        }
      g_string_append (line, "{\"type\":\"text\",\"text\":\"done\"}");
    }
  else if (g_str_equal (name, "huge_text"))
    {
      gint64 bytes = int_argument (arguments, "bytes");

      g_string_append (line, "{\"type\":\"text\",\"text\":\"");
      for (gint64 i = 0; i < bytes; i++)
        g_string_append_c (line, 'x');
      g_string_append (line, "\"}");
    }
  else if (g_str_equal (name, "deep"))
    {
      gint64 depth = int_argument (arguments, "depth");

      g_string_append (line, "{\"type\":\"text\",\"text\":\"deep\"}],\"structuredContent\":{\"v\":");
      for (gint64 i = 0; i < depth; i++)
        g_string_append_c (line, '[');
      for (gint64 i = 0; i < depth; i++)
        g_string_append_c (line, ']');
      g_string_append (line, "}}}");
      write_line (line);
      return;
    }
  else if (g_str_equal (name, "many_blocks"))
    {
      gint64 count = int_argument (arguments, "count");

      for (gint64 i = 0; i < count; i++)
        g_string_append_printf (line, "%s{\"type\":\"text\",\"text\":\"x\"}", i > 0 ? "," : "");
    }
  else if (g_str_equal (name, "raw"))
    {
      /* Unparsed: what a parse would change (numbers) shows as written */
      g_autofree char *received = g_strchomp (g_strdup (request));
      g_autoptr(JsonNode) node = json_node_init_string (json_node_alloc (), received);
      g_autofree char *quoted = json_to_string (node, FALSE);

      g_string_append_printf (line, "{\"type\":\"text\",\"text\":%s}", quoted);
    }
  else
    {
      const char *text = arguments ?
        json_object_get_string_member_with_default (arguments, "text", "") : "";
      g_autoptr(JsonNode) node = json_node_init_string (json_node_alloc (), text);
      g_autofree char *quoted = json_to_string (node, FALSE);

      g_string_append_printf (line, "{\"type\":\"text\",\"text\":%s}", quoted);
    }

  g_string_append (line, "]}}");
  write_line (line);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autofree char *pid_file = NULL;
  gboolean linger = FALSE;
  gboolean mute = FALSE;
  int n_tools = 0;
  const GOptionEntry entries[] = {
    { "tools", 0, 0, G_OPTION_ARG_INT, &n_tools, "Offer N more tools", "N" },
    { "pid-file", 0, 0, G_OPTION_ARG_FILENAME, &pid_file, "Write the process id to FILE", "FILE" },
    { "linger", 0, 0, G_OPTION_ARG_NONE, &linger, "Stay after the input ended", NULL },
    { "mute", 0, 0, G_OPTION_ARG_NONE, &mute, "Never answer", NULL },
    { NULL }
  };
  char *text = NULL;
  size_t size = 0;
  ssize_t len;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, NULL))
    return 2;

  if (pid_file != NULL)
    {
      g_autofree char *pid = g_strdup_printf ("%d\n", (int) getpid ());

      if (!g_file_set_contents (pid_file, pid, -1, NULL))
        return 2;
    }

  while ((len = getline (&text, &size, stdin)) > 0)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      JsonObject *message;
      JsonNode *id;
      const char *method;

      if (!json_parser_load_from_data (parser, text, len, NULL) ||
          !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
        continue;
      message = json_node_get_object (json_parser_get_root (parser));
      method = json_object_get_string_member_with_default (message, "method", NULL);
      id = json_object_get_member (message, "id");
      if (method == NULL || id == NULL || mute)
        continue;

      if (g_str_equal (method, "initialize"))
        answer (id, "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{\"tools\":{}},"
                    "\"serverInfo\":{\"name\":\"hostile\",\"version\":\"1.0\"}}");
      else if (g_str_equal (method, "tools/list"))
        list_tools (id, n_tools);
      else if (g_str_equal (method, "tools/call"))
        call_tool (id, json_object_get_object_member (message, "params"), text);
      else
        answer (id, "{}");
    }
  free (text);

  while (linger)
    pause ();
  return 0;
}
