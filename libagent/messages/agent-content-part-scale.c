/* agent-content-part-scale.c — images scaled down before they are sent
 *
 * With gdk-pixbuf (-Dpixbuf, on by default when it is found); without it,
 * asking to scale is an error, never a silent no-op.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#ifdef HAVE_GDK_PIXBUF
# include <gdk-pixbuf/gdk-pixbuf.h>
#endif

#include "agent-error.h"
#include "messages/agent-content-part-private.h"

#ifdef HAVE_GDK_PIXBUF
static GdkPixbuf *
load_pixbuf (GBytes  *data,
             GError **error)
{
  g_autoptr(GdkPixbufLoader) loader = gdk_pixbuf_loader_new ();
  g_autoptr(GError) local_error = NULL;
  GdkPixbuf *pixbuf;

  if (!gdk_pixbuf_loader_write_bytes (loader, data, &local_error) ||
      !gdk_pixbuf_loader_close (loader, &local_error))
    {
      gdk_pixbuf_loader_close (loader, NULL);
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("The image could not be read: %s"), local_error->message);
      return NULL;
    }

  pixbuf = gdk_pixbuf_loader_get_pixbuf (loader);
  if (pixbuf == NULL)
    {
      g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                           _("The image could not be read"));
      return NULL;
    }

  return g_object_ref (pixbuf);
}
#endif

/**
 * agent_content_part_scale_image:
 * @self: an image [class@Agent.ContentPart]
 * @max_pixels: the most pixels the image may have on its longer side
 * @error: return location for a [struct@GLib.Error]
 *
 * Scales an image down, keeping its aspect, so that neither side is
 * longer than @max_pixels; an image that is small enough comes back as
 * it is. A scaled image is a PNG if the original has an alpha channel or
 * was a PNG, a JPEG otherwise.
 *
 * Scaling needs libagent built with gdk-pixbuf (%AGENT_HAS_PIXBUF, the
 * `pixbuf` build option); without it this fails with
 * %AGENT_ERROR_INVALID_ARGUMENT.
 *
 * Returns: (transfer full): the scaled part (or @self, with a new
 *   reference), or %NULL with @error set if the image cannot be read or
 *   scaled
 *
 * Since: 0.1
 */
AgentContentPart *
agent_content_part_scale_image (AgentContentPart  *self,
                                guint              max_pixels,
                                GError           **error)
{
  g_return_val_if_fail (AGENT_IS_CONTENT_PART (self), NULL);
  g_return_val_if_fail (max_pixels > 0, NULL);

  if (agent_content_part_get_kind (self) != AGENT_CONTENT_PART_KIND_IMAGE ||
      agent_content_part_get_data (self) == NULL)
    {
      g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                           _("Only an image with its bytes can be scaled"));
      return NULL;
    }

#ifdef HAVE_GDK_PIXBUF
  {
    g_autoptr(GdkPixbuf) pixbuf = NULL;
    g_autoptr(GdkPixbuf) scaled = NULL;
    g_autoptr(GError) local_error = NULL;
    g_autofree char *buffer = NULL;
    g_autoptr(GBytes) data = NULL;
    const char *type;
    gsize len;
    int width, height, new_width, new_height;

    pixbuf = load_pixbuf (agent_content_part_get_data (self), error);
    if (pixbuf == NULL)
      return NULL;

    width = gdk_pixbuf_get_width (pixbuf);
    height = gdk_pixbuf_get_height (pixbuf);
    if ((guint) MAX (width, height) <= max_pixels)
      return g_object_ref (self);

    if (width >= height)
      {
        new_width = max_pixels;
        new_height = MAX (1, (int) ((double) height * max_pixels / width + 0.5));
      }
    else
      {
        new_height = max_pixels;
        new_width = MAX (1, (int) ((double) width * max_pixels / height + 0.5));
      }

    scaled = gdk_pixbuf_scale_simple (pixbuf, new_width, new_height, GDK_INTERP_BILINEAR);
    type = gdk_pixbuf_get_has_alpha (scaled) ||
           g_strcmp0 (agent_content_part_get_mime_type (self), "image/png") == 0 ? "png" : "jpeg";
    if (!gdk_pixbuf_save_to_buffer (scaled, &buffer, &len, type, &local_error, NULL))
      {
        g_set_error (error, AGENT_ERROR, AGENT_ERROR_FAILED,
                     _("The scaled image could not be written: %s"), local_error->message);
        return NULL;
      }

    data = g_bytes_new_take (g_steal_pointer (&buffer), len);
    return _agent_content_part_new (AGENT_CONTENT_PART_KIND_IMAGE,
                                    strcmp (type, "png") == 0 ? "image/png" : "image/jpeg",
                                    data, NULL, agent_content_part_get_name (self));
  }
#else
  g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                       _("Images cannot be scaled: libagent was built without gdk-pixbuf"));
  return NULL;
#endif
}
