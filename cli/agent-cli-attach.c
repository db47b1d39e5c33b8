/* agent-cli-attach.c — files attached to the prompt (--attach FILE)
 *
 * Each file is read before anything is sent (a regular file only, up to
 * its size when opened, not at all when that is more than the session's
 * max-attachment-size), on a worker thread, its MIME type guessed by GIO
 * from its name and first bytes; --scale-images scales images down to a
 * size of the user's (the library scales them to what the provider uses
 * unless --no-scale-images: AgentSession:scale-images). The
 * first prompt goes as a message with the text and the files. --json
 * reports each as an "attachment" event (name, MIME type, size: never the
 * bytes).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agent-cli-attach.h"

static char **opt_attach;
static int opt_scale_images;
static gboolean opt_no_scale_images;

const GOptionEntry cli_attach_entries[] = {
  { "attach", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &opt_attach,
    N_("Attach FILE (an image, a PDF, a text file…) to the prompt; may be repeated"),
    N_("FILE") },
  { "scale-images", 0, 0, G_OPTION_ARG_INT, &opt_scale_images,
    N_("Scale attached images down to at most PIXELS on their longer side, keeping the aspect"),
    N_("PIXELS") },
  { "no-scale-images", 0, 0, G_OPTION_ARG_NONE, &opt_no_scale_images,
    N_("Send images at their full size, not scaled down to the largest size the provider uses"),
    NULL },
  { NULL }
};

static void
loaded_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

/* The files of --attach, as parts, each reported to @output; NULL (and no
 * error) when there are none. Each is read on a worker thread while the
 * main loop goes on, so that Ctrl-C and SIGTERM (@cancellable) stop it:
 * a regular file only (not a FIFO that nobody writes to, not /dev/zero),
 * up to its size when opened, at most max-attachment-size. */
GPtrArray *
cli_attach_load (AgentSession  *session,
                 CliOutput     *output,
                 GCancellable  *cancellable,
                 GError       **error)
{
  g_autoptr(GPtrArray) parts = NULL;
  guint64 max = 0;

  if (opt_scale_images < 0)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("--scale-images must be 1 or more pixels, not %d"), opt_scale_images);
      return NULL;
    }

  if (opt_no_scale_images)
    g_object_set (session, "scale-images", FALSE, NULL);

  if (opt_attach == NULL || opt_attach[0] == NULL)
    return NULL;

  g_object_get (session, "max-attachment-size", &max, NULL);
  parts = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; opt_attach[i] != NULL; i++)
    {
      g_autoptr(GFile) file = g_file_new_for_commandline_arg (opt_attach[i]);
      g_autoptr(GAsyncResult) result = NULL;
      g_autoptr(GError) local_error = NULL;
      g_autofree char *display = g_filename_display_name (opt_attach[i]);
      AgentContentPart *part;

      agent_content_part_new_from_file_async (file, max, cancellable, loaded_cb, &result);
      while (result == NULL)
        g_main_context_iteration (NULL, TRUE);

      part = agent_content_part_new_from_file_finish (result, &local_error);
      if (part == NULL)
        {
          if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
            g_propagate_error (error, g_steal_pointer (&local_error));
          else
            /* The message names the file and what is wrong with it */
            g_set_error (error, AGENT_ERROR,
                         g_error_matches (local_error, AGENT_ERROR, AGENT_ERROR_LIMIT) ?
                         AGENT_ERROR_LIMIT : AGENT_ERROR_INVALID_ARGUMENT,
                         "--attach: %s", local_error->message);
          return NULL;
        }

      if (opt_scale_images > 0 &&
          agent_content_part_get_kind (part) == AGENT_CONTENT_PART_KIND_IMAGE)
        {
          g_autoptr(AgentContentPart) original = part;

          part = agent_content_part_scale_image (original, opt_scale_images, &local_error);
          if (part == NULL)
            {
              g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                           _("--scale-images: “%s”: %s"), display, local_error->message);
              return NULL;
            }
        }

      g_ptr_array_add (parts, part);
      cli_output_attachment (output, part);
    }

  return g_steal_pointer (&parts);
}

/* The first prompt with the attachments after it */
AgentMessage *
cli_attach_new_message (const char *prompt,
                        GPtrArray  *attachments)
{
  g_autoptr(AgentContentPart) text = agent_content_part_new_text (prompt);
  AgentMessage *message = agent_message_new_with_parts (AGENT_MESSAGE_ROLE_USER, &text, 1);

  for (guint i = 0; i < attachments->len; i++)
    agent_message_add_part (message, g_ptr_array_index (attachments, i));

  return message;
}
