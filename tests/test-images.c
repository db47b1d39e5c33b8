/* test-images.c — images measured, decoded within bounds, scaled for each
 * provider, and encoded once
 *
 * - /images/bounds/…: an image whose decode would take more than
 *   AGENT_CONTENT_PART_MAX_IMAGE_PIXELS is refused from its header, with
 *   an error that says its size and the bound (a 40000 × 40000 PNG of a
 *   few kilobytes took 4.6 GB and 40 s); one within it still scales.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#ifdef HAVE_GDK_PIXBUF
# include <gdk-pixbuf/gdk-pixbuf.h>
#endif

#include "agent-test-png.h"
#include "agent-test-util.h"

#ifdef HAVE_GDK_PIXBUF
static void
assert_refused (GBytes     *data,
                const char *size)
{
  g_autoptr(AgentContentPart) image = agent_content_part_new_image ("image/png", data);
  g_autoptr(GError) error = NULL;
  g_autoptr(AgentContentPart) scaled = agent_content_part_scale_image (image, 1024, &error);

  g_assert_null (scaled);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_LIMIT);
  /* Its size, and the bound, in the message */
  agent_test_assert_contains (error->message, size);
  agent_test_assert_contains (error->message, "8192 × 8192");
}
#endif

/* 40000 × 40000 in 200 bytes: refused from the header */
static void
test_bounds_header (void)
{
#ifdef HAVE_GDK_PIXBUF
  g_autoptr(GBytes) png = agent_test_grey_png_new (40000, 40000, 0);

  assert_refused (png, "40000 × 40000");
#else
  g_test_skip ("libagent was built without gdk-pixbuf");
#endif
}

/* A whole image one pixel row over the bound: refused too; a smaller one
 * scales */
static void
test_bounds_whole (void)
{
#ifdef HAVE_GDK_PIXBUF
  g_autoptr(GBytes) over = agent_test_grey_png_new (8192, 8193, 8193);
  g_autoptr(GBytes) within = agent_test_grey_png_new (2048, 1024, 1024);
  g_autoptr(AgentContentPart) image = agent_content_part_new_image ("image/png", within);
  g_autoptr(AgentContentPart) scaled = NULL;
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GdkPixbuf) pixbuf = NULL;
  g_autoptr(GError) error = NULL;

  assert_refused (over, "8192 × 8193");

  scaled = agent_content_part_scale_image (image, 512, &error);
  g_assert_no_error (error);
  stream = g_memory_input_stream_new_from_bytes (agent_content_part_get_data (scaled));
  pixbuf = gdk_pixbuf_new_from_stream (stream, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gdk_pixbuf_get_width (pixbuf), ==, 512);
  g_assert_cmpint (gdk_pixbuf_get_height (pixbuf), ==, 256);
#else
  g_test_skip ("libagent was built without gdk-pixbuf");
#endif
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/images/bounds/header", test_bounds_header);
  g_test_add_func ("/images/bounds/whole", test_bounds_whole);

  return g_test_run ();
}
