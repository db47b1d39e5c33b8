/* agent-chat-renderer.c
 *
 * Which of GTK's renderers draws the app's windows. GTK 4.8 draws with
 * OpenGL whenever a context can be made, and where there is no GPU (a
 * virtual machine, a remote session, a sandbox without /dev/dri) Mesa
 * makes one that rasterizes in software, llvmpipe, on the CPU the app
 * also needs. There GTK's GL renderer spends 20-120 ms on a frame of a
 * streaming answer, and its cairo renderer 5 (bench-gui, bench/RESULTS.md),
 * so the app draws with cairo when OpenGL can only be a software
 * rasterizer: when the system shows no GPU device (without loading OpenGL
 * then), or when OpenGL names one. GSK_RENDERER, when set, still decides.
 *
 * The choice is given to GTK as the display's "gsk-renderer" data, which
 * GTK reads before GSK_RENDERER (as GTK's inspector does for its own
 * display; no public API chooses a renderer in GTK 4.8), so that no
 * environment variable is changed in a running process or handed to the
 * programs the app starts.
 *
 * Workaround, GTK < 4.14: GTK 4.14 has new GPU renderers (ngl, vulkan)
 * and chooses among them itself. When the minimum is 4.14, measure
 * bench-gui under llvmpipe with GTK's own choice; drop this file if it is
 * as fast as cairo.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <epoxy/gl.h>
#include <string.h>

#include "agent-chat-renderer.h"

/**
 * agent_chat_renderer_is_software:
 * @gl_renderer: OpenGL's `GL_RENDERER` string
 *
 * Returns: whether @gl_renderer names a rasterizer that runs on the CPU
 *   (Mesa's llvmpipe, softpipe and swrast, Google's SwiftShader); a GPU
 *   driver built with LLVM ("AMD Radeon … (radeonsi, LLVM 15.0.6 …)") is
 *   not one
 */
gboolean
agent_chat_renderer_is_software (const char *gl_renderer)
{
  static const char * const software[] = {
    "llvmpipe", "softpipe", "swrast", "software rasterizer", "swiftshader",
  };
  g_autofree char *lower = NULL;

  if (gl_renderer == NULL)
    return FALSE;
  lower = g_ascii_strdown (gl_renderer, -1);
  for (guint i = 0; i < G_N_ELEMENTS (software); i++)
    if (strstr (lower, software[i]) != NULL)
      return TRUE;
  return FALSE;
}

/* Whether the system shows a GPU that OpenGL could use: a DRM device
 * (Mesa's drivers), NVIDIA's or WSL's. Without one, OpenGL can only be
 * rasterized in software (or, over ssh -X, far away). */
static gboolean
has_gpu_device (void)
{
  g_autoptr(GDir) dri = g_dir_open ("/dev/dri", 0, NULL);

  return (dri != NULL && g_dir_read_name (dri) != NULL) ||
         g_file_test ("/dev/nvidiactl", G_FILE_TEST_EXISTS) ||
         g_file_test ("/dev/dxg", G_FILE_TEST_EXISTS);
}

/**
 * agent_chat_renderer_probe_gl:
 * @display: a display
 *
 * Makes an OpenGL context on @display and asks who renders it.
 *
 * Returns: (transfer full) (nullable): OpenGL's `GL_RENDERER`, or %NULL
 *   when no context could be made
 */
char *
agent_chat_renderer_probe_gl (GdkDisplay *display)
{
  g_autoptr(GdkGLContext) context = NULL;
  g_autoptr(GError) error = NULL;
  char *name;

  g_return_val_if_fail (GDK_IS_DISPLAY (display), NULL);

  context = gdk_display_create_gl_context (display, &error);
  if (context == NULL || !gdk_gl_context_realize (context, &error))
    {
      g_debug ("No OpenGL context: %s", error ? error->message : "none made");
      return NULL;
    }
  gdk_gl_context_make_current (context);
  name = g_strdup ((const char *) glGetString (GL_RENDERER));
  gdk_gl_context_clear_current ();
  return name;
}

/**
 * agent_chat_choose_renderer:
 * @display: the display the app's windows go on, before any is realized
 *
 * Has @display's windows drawn by GTK's cairo renderer when OpenGL there
 * can only be rasterized in software: when the system shows no GPU (then
 * without loading OpenGL, which costs start-up 130 ms on bench-gui's VM),
 * or when OpenGL says so. Leaves GTK's choice otherwise, and when
 * GSK_RENDERER or an earlier choice says which renderer to use.
 *
 * Returns: (nullable): the renderer chosen ("cairo"), or %NULL when GTK
 *   chooses
 */
const char *
agent_chat_choose_renderer (GdkDisplay *display)
{
  g_autofree char *name = NULL;
  const char *chosen;

  g_return_val_if_fail (GDK_IS_DISPLAY (display), NULL);

  if (g_getenv ("GSK_RENDERER") != NULL)
    return NULL;
  if ((chosen = g_object_get_data (G_OBJECT (display), "gsk-renderer")) != NULL)
    return chosen;

  if (has_gpu_device ())
    {
      name = agent_chat_renderer_probe_gl (display);
      /* A GPU's, or no OpenGL at all (GTK then draws with cairo anyway) */
      if (!agent_chat_renderer_is_software (name))
        {
          g_debug ("OpenGL renders with %s: GTK chooses the renderer", name ? name : "nothing");
          return NULL;
        }
    }
  g_debug ("OpenGL renders in software (%s): the windows are drawn with cairo",
           name ? name : "no GPU device");
  g_object_set_data_full (G_OBJECT (display), "gsk-renderer", g_strdup ("cairo"), g_free);
  return "cairo";
}
