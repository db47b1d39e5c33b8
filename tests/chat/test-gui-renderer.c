/* test-gui-renderer.c
 *
 * agent-chat's renderer under a real display (Xvfb, whose OpenGL is Mesa's
 * software rasterizer): which GL_RENDERER names are software, GSK_RENDERER
 * left to decide when set, and otherwise the windows drawn with cairo when
 * OpenGL on the display (asked here, through GDK) is software, by GTK's
 * choice when it is a GPU.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <gtk/gtk.h>

#include "agent-chat-renderer.h"

static void
test_software_names (void)
{
  static const struct { const char *name; gboolean software; } cases[] = {
    { "llvmpipe (LLVM 15.0.6, 256 bits)", TRUE },
    { "softpipe", TRUE },
    { "Software Rasterizer", TRUE },
    { "Mesa X11 swrast", TRUE },
    { "Google SwiftShader", TRUE },
    { "Mesa Intel(R) UHD Graphics 620 (KBL GT2)", FALSE },
    /* radeonsi is built with LLVM: a GPU all the same */
    { "AMD Radeon RX 6600 (navi23, LLVM 15.0.6, DRM 3.49, 6.1.0-13-amd64)", FALSE },
    { "NVIDIA GeForce RTX 3060/PCIe/SSE2", FALSE },
    { "virgl (AMD Radeon Graphics (renoir, LLVM 15.0.6, DRM 3.49))", FALSE },
    { "D3D12 (NVIDIA GeForce GTX 1650)", FALSE },
    { "", FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    g_assert_cmpint (agent_chat_renderer_is_software (cases[i].name), ==, cases[i].software);
  g_assert_false (agent_chat_renderer_is_software (NULL));
}

/* GSK_RENDERER set by the user: the app chooses nothing */
static void
test_user_choice (void)
{
  GdkDisplay *display = gdk_display_get_default ();

  g_setenv ("GSK_RENDERER", "cairo", TRUE);
  g_assert_null (agent_chat_choose_renderer (display));
  g_assert_null (g_object_get_data (G_OBJECT (display), "gsk-renderer"));
  g_unsetenv ("GSK_RENDERER");
}

static void
test_software_draws_with_cairo (void)
{
  GdkDisplay *display = gdk_display_get_default ();
  g_autofree char *gl = agent_chat_renderer_probe_gl (display);
  gboolean software = gl == NULL || agent_chat_renderer_is_software (gl);
  const char *chosen;
  GtkWidget *window;
  const char *type;

  g_test_message ("OpenGL on this display: %s", gl ? gl : "none");
  g_assert_null (g_getenv ("GSK_RENDERER"));
  chosen = agent_chat_choose_renderer (display);
  if (software && gl != NULL)
    g_assert_cmpstr (chosen, ==, "cairo");
  else if (!software)
    g_assert_null (chosen);
  /* Chosen once: asked again, the same */
  g_assert_cmpstr (agent_chat_choose_renderer (display), ==, chosen);

  window = gtk_window_new ();
  gtk_widget_realize (window);
  type = G_OBJECT_TYPE_NAME (gtk_native_get_renderer (GTK_NATIVE (window)));
  if (software)
    g_assert_cmpstr (type, ==, "GskCairoRenderer");
  else
    g_assert_cmpstr (type, !=, "GskCairoRenderer");
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  /* The test environment sets it for the other GUI tests */
  g_unsetenv ("GSK_RENDERER");
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/gui/renderer/software-names", test_software_names);
  g_test_add_func ("/gui/renderer/user-choice", test_user_choice);
  g_test_add_func ("/gui/renderer/software-draws-with-cairo", test_software_draws_with_cairo);
  return g_test_run ();
}
