/* agent-read-file.c — the built-in read_file tool
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include <glib/gi18n-lib.h>
#include <gio/gunixinputstream.h>

#include "tools/agent-builtin-tools.h"
#include "agent-error.h"
#include "agent-util-private.h"

#define MAX_BYTES (64 * 1024)

static JsonNode *
read_file_parameters (void)
{
  g_autoptr(JsonBuilder) builder = json_builder_new_immutable ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, "object");
  json_builder_set_member_name (builder, "properties");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "path");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, "string");
  json_builder_set_member_name (builder, "description");
  json_builder_add_string_value (builder,
                                 "The path of the file, absolute or relative to the "
                                 "current directory");
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "required");
  json_builder_begin_array (builder);
  json_builder_add_string_value (builder, "path");
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

static char *
read_file (AgentTool     *tool,
           JsonNode      *arguments,
           GCancellable  *cancellable,
           gpointer       user_data,
           GError       **error)
{
  JsonObject *object = json_node_get_object (arguments);
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GFile) file = NULL;
  g_autofree char *local_path = NULL;
  struct stat st;
  int fd;
  g_autofree char *buffer = NULL;
  const char *path;
  goffset size;
  gsize n_read = 0;
  JsonNode *node;

  node = json_object_get_member (object, "path");
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    {
      g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_TOOL,
                           _("“path” must be a string, for example {\"path\": \"notes.txt\"}"));
      return NULL;
    }
  path = json_node_get_string (node);

  file = g_file_new_for_commandline_arg (path);
  local_path = g_file_get_path (file);
  if (local_path == NULL)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_TOOL, _("“%s” is not a local file"), path);
      return NULL;
    }

  if ((fd = _agent_open_regular_file (local_path, cancellable, &st)) < 0)
    {
      int saved_errno = errno;

      if (saved_errno == ECANCELED)
        g_cancellable_set_error_if_cancelled (cancellable, error);
      else if (saved_errno == 0)
        g_set_error (error, AGENT_ERROR, AGENT_ERROR_TOOL, _("“%s” is not a regular file"), path);
      else
        g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                     _("Could not open “%s”: %s"), path, g_strerror (saved_errno));
      return NULL;
    }
  stream = g_unix_input_stream_new (fd, TRUE);

  size = st.st_size;
  buffer = g_malloc (MAX_BYTES + 1);
  if (!g_input_stream_read_all (stream, buffer, MAX_BYTES, &n_read,
                                cancellable, error))
    return NULL;
  buffer[n_read] = '\0';

  if (memchr (buffer, '\0', n_read) != NULL)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_TOOL,
                   _("“%s” is not a text file"), path);
      return NULL;
    }

  /* A file cut at the limit may end in the middle of a character. */
  if (!g_utf8_validate_len (buffer, n_read, NULL))
    {
      const char *end = NULL;

      g_utf8_validate_len (buffer, n_read, &end);
      if (size <= MAX_BYTES || n_read - (end - buffer) > 3)
        {
          g_set_error (error, AGENT_ERROR, AGENT_ERROR_TOOL,
                       _("“%s” is not a UTF-8 text file"), path);
          return NULL;
        }
      n_read = end - buffer;
      buffer[n_read] = '\0';
    }

  if (size > MAX_BYTES)
    return g_strdup_printf (_("%s\n[The file has %lld bytes; only the first %zu are "
                              "shown.]"),
                            buffer, (long long) size, (size_t) n_read);

  return g_steal_pointer (&buffer);
}

/**
 * agent_read_file_tool_new:
 *
 * Creates the `read_file` tool: `{"path": "…"}` returns the text of a
 * UTF-8 file on this computer (at most 64 KiB of it). Reading files
 * needs the user's approval ([property@Agent.Tool:requires-approval] is
 * set); the file is read in a worker thread.
 *
 * Returns: (transfer full): a new [class@Agent.Tool]
 *
 * Since: 0.1
 */
AgentTool *
agent_read_file_tool_new (void)
{
  g_autoptr(JsonNode) parameters = read_file_parameters ();
  AgentTool *tool;

  tool = agent_tool_new_blocking ("read_file",
                                  "Reads a UTF-8 text file on the user's computer and returns "
                                  "its contents (at most 64 KiB). The user must approve each read.",
                                  parameters, read_file, NULL, NULL);
  agent_tool_set_requires_approval (tool, TRUE);

  return tool;
}
