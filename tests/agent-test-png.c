/* agent-test-png.c — PNG files written byte by byte: a 1-bit grey image of
 * any size costs an eighth of a byte a pixel to compress, and nothing to
 * decode until a loader allocates it (tests/test-images.c, bench-bounds)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <gio/gio.h>

#include "agent-test-png.h"

/* PNG's CRC-32 (ISO 3309), a bit at a time: the tests write little */
static guint32
crc32_update (guint32       crc,
              const guint8 *data,
              gsize         len)
{
  crc = ~crc;
  for (gsize i = 0; i < len; i++)
    {
      crc ^= data[i];
      for (int k = 0; k < 8; k++)
        crc = (crc >> 1) ^ (0xedb88320u & -(crc & 1));
    }
  return ~crc;
}

static void
append_be32 (GByteArray *array,
             guint32     value)
{
  guint8 bytes[4] = { value >> 24, value >> 16, value >> 8, value };

  g_byte_array_append (array, bytes, 4);
}

static void
append_chunk (GByteArray   *png,
              const char   *type,
              const guint8 *data,
              gsize         len)
{
  guint32 crc;

  append_be32 (png, len);
  g_byte_array_append (png, (const guint8 *) type, 4);
  g_byte_array_append (png, data, len);
  crc = crc32_update (crc32_update (0, (const guint8 *) type, 4), data, len);
  append_be32 (png, crc);
}

/* A black 1-bit PNG of @width × @height; with @rows_written less than
 * @height, its pixel data stops there (the file is cut, as a hostile one
 * may be: only a loader that trusts the header allocates it all). 40000 ×
 * 40000 pixels whole take 194 KB. */
GBytes *
agent_test_grey_png_new (guint32 width,
              guint32 height,
              guint32 rows_written)
{
  g_autoptr(GByteArray) png = g_byte_array_new ();
  g_autoptr(GConverter) compressor = G_CONVERTER (g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_ZLIB, 9));
  g_autoptr(GByteArray) idat = g_byte_array_new ();
  gsize row_len = 1 + (width + 7) / 8;
  g_autofree guint8 *row = g_malloc0 (row_len);
  guint8 out[65536];
  guint8 header[13];

  g_byte_array_append (png, (const guint8 *) "\x89PNG\r\n\x1a\n", 8);
  header[0] = width >> 24; header[1] = width >> 16; header[2] = width >> 8; header[3] = width;
  header[4] = height >> 24; header[5] = height >> 16; header[6] = height >> 8; header[7] = height;
  header[8] = 1;   /* bit depth */
  header[9] = 0;   /* grey */
  header[10] = header[11] = header[12] = 0;
  append_chunk (png, "IHDR", header, sizeof header);

  for (guint32 y = 0; y <= rows_written; y++)
    {
      gboolean last = y == rows_written;
      gsize read = 0, written = 0;
      gsize offset = 0;
      GConverterResult result;

      do
        {
          g_autoptr(GError) error = NULL;

          result = g_converter_convert (compressor, row + offset, last ? 0 : row_len - offset,
                                        out, sizeof out,
                                        last ? G_CONVERTER_INPUT_AT_END : G_CONVERTER_NO_FLAGS,
                                        &read, &written, &error);
          g_assert_no_error (error);
          offset += read;
          g_byte_array_append (idat, out, written);
        }
      while (last ? result != G_CONVERTER_FINISHED : offset < row_len);
    }
  append_chunk (png, "IDAT", idat->data, idat->len);
  append_chunk (png, "IEND", NULL, 0);

  return g_byte_array_free_to_bytes (g_steal_pointer (&png));
}


/* A user's message: @text, then the image @png */
AgentMessage *
agent_test_image_message_new (const char *text,
                              GBytes     *png)
{
  g_autoptr(AgentContentPart) words = agent_content_part_new_text (text);
  g_autoptr(AgentContentPart) image = agent_content_part_new_image ("image/png", png);
  AgentContentPart *parts[] = { words, image };

  return agent_message_new_with_parts (AGENT_MESSAGE_ROLE_USER, parts, 2);
}
