/* agent-content-part-scale.c — images measured, decoded within bounds, and
 * scaled down before they are sent
 *
 * With gdk-pixbuf (-Dpixbuf, on by default when it is found); without it,
 * asking to scale is an error, never a silent no-op, and an image's size
 * is not known.
 *
 * An image's size is read from its header: the bytes go to a
 * GdkPixbufLoader a slice at a time until it says the size
 * (::size-prepared), and it is told to stop there (a size of 0 × 0, the
 * convention of gdk_pixbuf_get_file_info()). A decode is bounded the same
 * way: an image whose pixels, as decoded, would be more than
 * AGENT_CONTENT_PART_MAX_IMAGE_PIXELS is refused at its header, before a
 * pixel is allocated (a 194 KB PNG of 40000 × 40000 pixels took 4.6 GB and
 * 40 s). A JPEG asked for smaller is decoded smaller by libjpeg itself (at
 * 1/2, 1/4 or 1/8), so a large photo scales within the bound.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#ifdef HAVE_GDK_PIXBUF
# include <gdk-pixbuf/gdk-pixbuf.h>
#endif

#include "agent-error.h"
#include "messages/agent-content-part-private.h"

/* The bytes a loader gets at a time: the header of every format fits */
#define SLICE (64 * 1024)

/* The size of @width × @height fitted into @max_side on the longer side,
 * @max_short on the shorter, and @max_area pixels (0: no such bound),
 * keeping the aspect; never larger than it is */
void
_agent_image_fit (int      width,
                  int      height,
                  int      max_side,
                  int      max_short,
                  guint64  max_area,
                  int     *fit_width,
                  int     *fit_height)
{
  double scale = 1.0;
  int longer = MAX (width, height);
  int shorter = MIN (width, height);

  if (max_side > 0 && longer > max_side)
    scale = MIN (scale, (double) max_side / longer);
  if (max_short > 0 && shorter > max_short)
    scale = MIN (scale, (double) max_short / shorter);
  if (max_area > 0 && (guint64) width * (guint64) height > max_area)
    scale = MIN (scale, sqrt ((double) max_area / ((double) width * (double) height)));

  if (scale >= 1.0)
    {
      *fit_width = width;
      *fit_height = height;
      return;
    }
  /* Rounded down: the bounds hold */
  *fit_width = CLAMP ((int) (width * scale), 1, width);
  *fit_height = CLAMP ((int) (height * scale), 1, height);
}

#ifdef HAVE_GDK_PIXBUF
typedef struct
{
  int      want_width;   /* the size to decode at; 0: as it is; -1: the header only */
  int      want_height;
  int      width;        /* as the header says */
  int      height;
  guint64  decoded;      /* the pixels a decode would allocate */
  gboolean seen;
  gboolean refused;
} Header;

/* libjpeg decodes at 1/2, 1/4 or 1/8 when asked for less (gdk-pixbuf's
 * io-jpeg.c picks the smallest that is not smaller than asked) */
static guint64
decoded_pixels (GdkPixbufLoader *loader,
                Header          *header,
                int              width,
                int              height)
{
  GdkPixbufFormat *format = gdk_pixbuf_loader_get_format (loader);
  g_autofree char *name = format != NULL ? gdk_pixbuf_format_get_name (format) : NULL;
  int denom = 1;

  if (g_strcmp0 (name, "jpeg") == 0 && header->want_width > 0)
    while (denom < 8 &&
           width / (denom * 2) >= header->want_width &&
           height / (denom * 2) >= header->want_height)
      denom *= 2;

  return (guint64) ((width + denom - 1) / denom) * (guint64) ((height + denom - 1) / denom);
}

static void
on_size_prepared (GdkPixbufLoader *loader,
                  int              width,
                  int              height,
                  gpointer         user_data)
{
  Header *header = user_data;

  header->seen = TRUE;
  header->width = width;
  header->height = height;

  /* Only the size was wanted: the loader stops there */
  if (header->want_width < 0)
    {
      gdk_pixbuf_loader_set_size (loader, 0, 0);
      return;
    }

  header->decoded = decoded_pixels (loader, header, width, height);
  if (width <= 0 || height <= 0 || header->decoded > AGENT_CONTENT_PART_MAX_IMAGE_PIXELS)
    {
      header->refused = TRUE;
      gdk_pixbuf_loader_set_size (loader, 0, 0);
      return;
    }
  if (header->want_width > 0 && (header->want_width != width || header->want_height != height))
    gdk_pixbuf_loader_set_size (loader, header->want_width, header->want_height);
}

/* Feeds @data to a new loader a slice at a time, until it is all in or
 * the header said enough; the loader, closed */
static GdkPixbufLoader *
run_loader (GBytes  *data,
            Header  *header,
            GError **error)
{
  g_autoptr(GdkPixbufLoader) loader = gdk_pixbuf_loader_new ();
  g_autoptr(GError) local_error = NULL;
  gsize len;
  const guchar *bytes = g_bytes_get_data (data, &len);
  gboolean written = TRUE;

  g_signal_connect (loader, "size-prepared", G_CALLBACK (on_size_prepared), header);
  for (gsize offset = 0; offset < len && written; offset += SLICE)
    {
      written = gdk_pixbuf_loader_write (loader, bytes + offset, MIN (SLICE, len - offset),
                                         &local_error);
      if (header->refused || (header->seen && header->want_width < 0))
        break;
    }
  if (!gdk_pixbuf_loader_close (loader, written ? &local_error : NULL) && written)
    written = FALSE;

  if (header->refused || (header->seen && header->want_width < 0))
    return g_steal_pointer (&loader);
  if (!written)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("The image could not be read: %s"),
                   local_error != NULL ? local_error->message : _("unknown format"));
      return NULL;
    }
  return g_steal_pointer (&loader);
}

/* The image of @data decoded at @width × @height (0 × 0: as it is), or
 * %NULL with @error set: unreadable, or larger than the bound */
static GdkPixbuf *
load_bounded (GBytes  *data,
              int      width,
              int      height,
              GError **error)
{
  Header header = { .want_width = width, .want_height = height };
  g_autoptr(GdkPixbufLoader) loader = run_loader (data, &header, error);
  GdkPixbuf *pixbuf;

  if (loader == NULL)
    return NULL;
  if (header.refused)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_LIMIT,
                   /* TRANSLATORS: the image's width and height, its megapixels, then the
                    * most megapixels libagent decodes and that as a square */
                   _("The image is %d × %d pixels (%.0f megapixels): images of up to %.0f "
                     "megapixels (%d × %d) are read"),
                   header.width, header.height,
                   (double) header.width * header.height / 1e6,
                   AGENT_CONTENT_PART_MAX_IMAGE_PIXELS / 1e6, 8192, 8192);
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

/* @pixbuf written as @type ("png", "jpeg" at quality 90) */
static GBytes *
save (GdkPixbuf   *pixbuf,
      const char  *type,
      GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  char *buffer = NULL;
  gsize len;
  gboolean saved;

  if (strcmp (type, "jpeg") == 0)
    saved = gdk_pixbuf_save_to_buffer (pixbuf, &buffer, &len, type, &local_error,
                                       "quality", "90", NULL);
  else
    saved = gdk_pixbuf_save_to_buffer (pixbuf, &buffer, &len, type, &local_error, NULL);
  if (!saved)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_FAILED,
                   _("The scaled image could not be written: %s"), local_error->message);
      return NULL;
    }
  return g_bytes_new_take (buffer, len);
}
#endif

/* Documented in agent-content-part-private.h */
gboolean
_agent_image_read_size (GBytes *data,
                        int    *width,
                        int    *height)
{
#ifdef HAVE_GDK_PIXBUF
  Header header = { .want_width = -1, .want_height = -1 };
  g_autoptr(GdkPixbufLoader) loader = run_loader (data, &header, NULL);

  if (loader == NULL || !header.seen || header.width <= 0 || header.height <= 0)
    return FALSE;
  *width = header.width;
  *height = header.height;
  return TRUE;
#else
  return FALSE;
#endif
}

/* Documented in agent-content-part-private.h */
AgentContentPart *
_agent_content_part_scale_to_fit (AgentContentPart  *self,
                                  int                max_side,
                                  int                max_short,
                                  guint64            max_area,
                                  GError           **error)
{
  if (agent_content_part_get_kind (self) != AGENT_CONTENT_PART_KIND_IMAGE ||
      agent_content_part_get_data (self) == NULL)
    {
      g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                           _("Only an image with its bytes can be scaled"));
      return NULL;
    }

#ifdef HAVE_GDK_PIXBUF
  {
    g_autoptr(GdkPixbuf) scaled = NULL;
    g_autoptr(GBytes) data = NULL;
    g_autoptr(GBytes) jpeg = NULL;
    const char *type;
    int width, height, new_width, new_height;

    if (!_agent_content_part_get_image_size (self, &width, &height))
      {
        /* Read again for the reason */
        g_autoptr(GdkPixbuf) pixbuf = load_bounded (agent_content_part_get_data (self), 0, 0,
                                                    error);

        if (pixbuf != NULL)
          g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                               _("The image could not be read"));
        return NULL;
      }

    _agent_image_fit (width, height, max_side, max_short, max_area, &new_width, &new_height);
    if (new_width == width && new_height == height)
      return g_object_ref (self);

    scaled = load_bounded (agent_content_part_get_data (self), new_width, new_height, error);
    if (scaled == NULL)
      return NULL;

    /* Transparency needs a PNG; a photo goes as a JPEG; an opaque PNG as
     * the smaller of the two (a screenshot stays sharp, a photo saved as
     * PNG shrinks) */
    type = gdk_pixbuf_get_has_alpha (scaled) ||
           g_strcmp0 (agent_content_part_get_mime_type (self), "image/png") == 0 ? "png" : "jpeg";
    if (!(data = save (scaled, type, error)))
      return NULL;
    if (strcmp (type, "png") == 0 && !gdk_pixbuf_get_has_alpha (scaled) &&
        (jpeg = save (scaled, "jpeg", NULL)) != NULL &&
        g_bytes_get_size (jpeg) < g_bytes_get_size (data))
      {
        g_bytes_unref (data);
        data = g_steal_pointer (&jpeg);
        type = "jpeg";
      }

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

/**
 * agent_content_part_scale_image:
 * @self: an image [class@Agent.ContentPart]
 * @max_pixels: the most pixels the image may have on its longer side
 * @error: return location for a [struct@GLib.Error]
 *
 * Scales an image down, keeping its aspect, so that neither side is
 * longer than @max_pixels; an image that is small enough comes back as
 * it is. A scaled image is a PNG if it has an alpha channel, a JPEG (of
 * quality 90) if the original was not a PNG, and else whichever of the two
 * is smaller (a screenshot stays a PNG, a photo saved as PNG shrinks).
 *
 * The image's size is read from its header first. An image that would
 * take more than %AGENT_CONTENT_PART_MAX_IMAGE_PIXELS pixels to decode is
 * refused with %AGENT_ERROR_LIMIT before any of it is decoded (a JPEG is
 * decoded at 1/2, 1/4 or 1/8 of its size when that is enough for
 * @max_pixels, so large photos scale).
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

  return _agent_content_part_scale_to_fit (self, (int) MIN (max_pixels, G_MAXINT), 0, 0, error);
}
