/* fuzz-attachment.c
 *
 * A libFuzzer target for reading a file into an attachment and sending it.
 *
 * The input is a file: its name (the bytes up to the first newline, at
 * most 200 of them, '/' and NUL made '_'; anything the file system takes,
 * invalid UTF-8 included), then its contents. It is written to a scratch
 * folder and read back with agent_content_part_new_from_file(), with and
 * without a limit that its size may pass. Whatever the input:
 *
 * - the part holds the file's bytes exactly, under a name and a MIME type
 *   in valid UTF-8, and is an image exactly when its type is image/…;
 * - a limit is honoured: a file larger than it is refused, not read;
 * - each provider either refuses the part before writing a request (an
 *   API that does not take its type) or writes a request body of valid
 *   JSON in valid UTF-8;
 * - a text file sent as text is wrapped in a <file name="…" type="…">
 *   whose attributes no name can break out of.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gprintf.h>
#include <glib/gstdio.h>

#include <agent.h>

#include "transport/agent-provider-private.h"
#include "messages/agent-content-part-private.h"

#include "fuzz-util.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

#define MAX_NAME 200

static const char *
scratch_dir (void)
{
  static char *dir;

  if (dir == NULL)
    {
      g_autoptr(GError) error = NULL;

      if (!(dir = g_dir_make_tmp ("fuzz-attachment-XXXXXX", &error)))
        failure ("%s", error->message);
    }
  return dir;
}

/* The attribute @name="…" of @header, which must be there, unbroken: no
 * quote, angle bracket or line break inside */
static void
check_attribute (const char *header,
                 const char *name)
{
  g_autofree char *start = g_strdup_printf (" %s=\"", name);
  const char *value = strstr (header, start);
  const char *end;

  if (value == NULL)
    failure ("No %s attribute in %s", name, header);
  value += strlen (start);
  end = strchr (value, '"');
  if (end == NULL)
    failure ("The %s attribute does not end: %s", name, header);
  for (const char *p = value; p < end; p++)
    if (*p == '<' || *p == '>' || *p == '\n' || *p == '\r')
      failure ("The %s attribute holds a raw %#x: %s", name, *p, header);
}

static void
check_file_text (AgentContentPart *part)
{
  g_autofree char *text = NULL;
  g_autofree char *header = NULL;
  const char *end;

  if (!_agent_content_part_is_text_file (part))
    return;

  text = _agent_content_part_dup_file_text (part);
  if (!g_str_has_prefix (text, "<file name=\"") || !g_str_has_suffix (text, "\n</file>"))
    failure ("Not a <file> element: %.200s", text);
  /* The start tag ends at the first '>' outside its attributes' values:
   * as they hold none, at the first '>' */
  end = strstr (text, "\">\n");
  if (end == NULL)
    failure ("The start tag does not end: %.200s", text);
  header = g_strndup (text, end + 2 - text);
  if (strchr (header, '>') != header + strlen (header) - 1)
    failure ("A '>' inside the start tag: %s", header);
  check_attribute (header, "name");
  check_attribute (header, "type");
}

static const AgentProviderBackend * const *
backends (void)
{
  static const AgentProviderBackend *list[] = {
    &agent_openai_chat_backend, &agent_openai_responses_backend, &agent_anthropic_backend,
    &agent_ollama_backend, &agent_gemini_backend, NULL,
  };

  return list;
}

/* Every provider refuses @part before writing a request, or writes valid
 * JSON */
static void
check_requests (AgentContentPart *part)
{
  g_autoptr(AgentContentPart) text = agent_content_part_new_text ("What is in this file?");
  AgentContentPart *parts[] = { text, part };
  g_autoptr(AgentMessage) message = agent_message_new_with_parts (AGENT_MESSAGE_ROLE_USER, parts, 2);
  g_autoptr(GListStore) messages = g_list_store_new (AGENT_TYPE_MESSAGE);

  g_list_store_append (messages, message);
  for (const AgentProviderBackend * const *backend = backends (); *backend != NULL; backend++)
    {
      g_autoptr(AgentProvider) provider = agent_provider_new ((*backend)->name, NULL);
      AgentRequest request = { provider, "model", NULL, G_LIST_MODEL (messages), NULL };
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) body = (*backend)->build_body (&request, &error);
      g_autoptr(JsonParser) parser = NULL;
      const char *bytes;
      gsize len;

      if (body == NULL)
        {
          if (!g_error_matches (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT))
            failure ("%s: %s", (*backend)->name, error ? error->message : "no error");
          /* Refused by its type, as the turn refuses it before keeping it */
          if ((*backend)->accepts_part (part, AGENT_MESSAGE_ROLE_USER))
            failure ("%s refused a part it accepts: %s", (*backend)->name, error->message);
          continue;
        }

      bytes = g_bytes_get_data (body, &len);
      if (!g_utf8_validate_len (bytes, len, NULL))
        failure ("%s: the request is not valid UTF-8", (*backend)->name);
      parser = json_parser_new ();
      if (!json_parser_load_from_data (parser, bytes, len, &error))
        failure ("%s: the request is not JSON: %s", (*backend)->name, error->message);
    }
}

static void
check_part (AgentContentPart *part,
            const char       *contents,
            gsize             len)
{
  const char *mime_type = agent_content_part_get_mime_type (part);
  const char *name = agent_content_part_get_name (part);
  GBytes *bytes = agent_content_part_get_data (part);
  gsize n;
  const void *read;

  if (bytes == NULL)
    failure ("No bytes");
  read = g_bytes_get_data (bytes, &n);
  if (n != len || (len > 0 && memcmp (read, contents, len) != 0))
    failure ("Read %" G_GSIZE_FORMAT " bytes of %" G_GSIZE_FORMAT ", or others", n, len);
  if (name == NULL || !g_utf8_validate (name, -1, NULL))
    failure ("The name is not valid UTF-8");
  if (mime_type == NULL || mime_type[0] == '\0' || !g_utf8_validate (mime_type, -1, NULL))
    failure ("The MIME type is not valid UTF-8");
  if ((agent_content_part_get_kind (part) == AGENT_CONTENT_PART_KIND_IMAGE) !=
      g_str_has_prefix (mime_type, "image/"))
    failure ("%s made a part of kind %d", mime_type, agent_content_part_get_kind (part));

  check_file_text (part);
  check_requests (part);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const char *newline = memchr (data, '\n', MIN (size, MAX_NAME + 1));
  gsize name_len = newline ? (gsize) (newline - (const char *) data) : MIN (size, 8);
  const char *contents = (const char *) data + name_len + (newline ? 1 : 0);
  gsize len = size - (contents - (const char *) data);
  g_autofree char *name = g_strndup ((const char *) data, name_len);
  g_autofree char *path = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(AgentContentPart) part = NULL;
  g_autoptr(AgentContentPart) limited = NULL;
  g_autoptr(GError) error = NULL;
  guint64 limit;

  /* A name the file system takes */
  for (gsize i = 0; i < name_len; i++)
    if (name[i] == '/' || name[i] == '\0')
      name[i] = '_';
  if (name[0] == '\0' || g_str_equal (name, ".") || g_str_equal (name, ".."))
    {
      g_free (name);
      name = g_strdup ("attachment");
    }

  path = g_build_filename (scratch_dir (), name, NULL);
  if (!g_file_set_contents (path, contents, len, &error))
    return 0;  /* a name too long for the file system */
  file = g_file_new_for_path (path);

  part = agent_content_part_new_from_file (file, NULL, &error);
  if (part == NULL)
    failure ("A regular file of %" G_GSIZE_FORMAT " bytes was not read: %s", len, error->message);
  check_part (part, contents, len);

  /* A limit the first byte of the contents picks (0 would be none) */
  limit = 1 + (len > 0 ? (guint8) contents[0] : 0);
  limited = _agent_content_part_load_file (file, limit, NULL, &error);
  if ((limited == NULL) != (len > limit))
    failure ("%" G_GSIZE_FORMAT " bytes with a limit of %" G_GUINT64_FORMAT ": %s", len, limit,
             error ? error->message : "read");
  if (limited == NULL && !g_error_matches (error, AGENT_ERROR, AGENT_ERROR_LIMIT))
    failure ("Not a limit error: %s", error->message);

  g_unlink (path);
  return 0;
}
