/* agent-gtk-init.c
 *
 * What libagent-gtk sets up once: its translations (bound when the library
 * is loaded, as libagent does, so that its widgets speak the user's language
 * without a call), libadwaita, its style sheet on every display, and its
 * types (for GtkBuilder files that name them).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "agent-gtk-config.h"

#include <adwaita.h>
#include <glib/gi18n-lib.h>

#include "agent-gtk-init.h"
#include "agent-gtk-private.h"

/* The library's messages are in its own gettext domain, GETTEXT_PACKAGE
 * ("libagent-gtk-1"). AGENT_LOCALEDIR replaces the installed catalogues'
 * directory, as for libagent: the tests point it at the build tree's. */
static void agent_gtk_init_i18n (void) __attribute__((constructor));

static void
agent_gtk_init_i18n (void)
{
  const char *localedir = g_getenv ("AGENT_LOCALEDIR");

  bindtextdomain (GETTEXT_PACKAGE, localedir != NULL && *localedir != '\0' ? localedir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
}

/* Above the theme (Adwaita's rows, cards), below the application's own
 * style sheet, which may restyle the widgets */
#define STYLE_PRIORITY (GTK_STYLE_PROVIDER_PRIORITY_THEME + 1)

static GtkCssProvider *style;

static void
add_style (GdkDisplay *display)
{
  gtk_style_context_add_provider_for_display (display, GTK_STYLE_PROVIDER (style), STYLE_PRIORITY);
}

static void
on_display_opened (GdkDisplayManager *manager,
                   GdkDisplay        *display)
{
  add_style (display);
}

/**
 * agent_gtk_init:
 *
 * Initializes libagent-gtk: libadwaita (with `adw_init()`), the style sheet
 * of the widgets on every display, and the library's types, so that a
 * [class@Gtk.Builder] file may name them (`AgentGtkChatView`…).
 *
 * The widgets call it when the first of them is made: call it yourself
 * only before building a user interface that names them from a
 * [class@Gtk.Builder] file or a template. It must be called after GTK is
 * initialized; calling it again does nothing.
 *
 * Since: 0.1
 */
void
agent_gtk_init (void)
{
  GdkDisplayManager *manager;
  GSList *displays;

  if (style != NULL)
    return;

  adw_init ();
  style = gtk_css_provider_new ();
  gtk_css_provider_load_from_resource (style, "/io/github/libagent/Gtk/style.css");
  manager = gdk_display_manager_get ();
  displays = gdk_display_manager_list_displays (manager);
  g_slist_foreach (displays, (GFunc) add_style, NULL);
  g_slist_free (displays);
  g_signal_connect (manager, "display-opened", G_CALLBACK (on_display_opened), NULL);

  g_type_ensure (AGENT_GTK_TYPE_APPROVAL_PROMPT);
  g_type_ensure (AGENT_GTK_TYPE_CHAT_VIEW);
  g_type_ensure (AGENT_GTK_TYPE_COMPOSER);
  g_type_ensure (AGENT_GTK_TYPE_ERROR_CARD);
  g_type_ensure (AGENT_GTK_TYPE_MARKDOWN_VIEW);
  g_type_ensure (AGENT_GTK_TYPE_TOOL_CARD);
}
