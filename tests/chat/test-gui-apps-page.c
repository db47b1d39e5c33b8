/* test-gui-apps-page.c — Preferences › Apps (AgentChatPreferencesApps)
 * where agent-desktop-service is not: on the GUI tests' own bus, which can
 * start no such service, the page says so and lists no app. (With the
 * service, tests/chat/test-gui-desktop-consent-e2e.py drives the page.)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <adwaita.h>

#include "agent-chat-preferences-apps.h"
#include "agent-test-util.h"

static void
collect_groups (GtkWidget *widget,
                GPtrArray *groups)
{
  if (ADW_IS_PREFERENCES_GROUP (widget))
    g_ptr_array_add (groups, widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_groups (child, groups);
}

static AdwPreferencesGroup *
the_group (GtkWidget *page)
{
  g_autoptr(GPtrArray) groups = g_ptr_array_new ();

  collect_groups (page, groups);
  g_assert_cmpuint (groups->len, ==, 1);
  return g_ptr_array_index (groups, 0);
}

static gboolean
says_not_there (gpointer data)
{
  const char *description = adw_preferences_group_get_description (the_group (data));

  return description != NULL && strstr (description, "not installed or not running") != NULL;
}

static void
count_rows (GtkWidget *widget,
            guint     *n_rows)
{
  if (ADW_IS_EXPANDER_ROW (widget))
    (*n_rows)++;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    count_rows (child, n_rows);
}

static gboolean
is_gone (gpointer data)
{
  return *(GtkWidget **) data == NULL;
}

static void
test_no_service (void)
{
  GtkWidget *window = adw_preferences_window_new ();
  GtkWidget *page = agent_chat_preferences_apps_new ();
  guint n_rows = 0;

  g_object_add_weak_pointer (G_OBJECT (page), (gpointer *) &page);
  adw_preferences_window_add (ADW_PREFERENCES_WINDOW (window), ADW_PREFERENCES_PAGE (page));
  gtk_window_present (GTK_WINDOW (window));
  g_assert_cmpstr (adw_preferences_group_get_title (the_group (page)), ==,
                   "Apps Using Your Models");
  agent_test_wait_until (says_not_there, page);
  count_rows (page, &n_rows);
  g_assert_cmpuint (n_rows, ==, 0);

  /* Listed again, the same */
  agent_chat_preferences_apps_refresh (AGENT_CHAT_PREFERENCES_APPS (page));
  adw_preferences_group_set_description (the_group (page), NULL);
  agent_test_wait_until (says_not_there, page);

  gtk_window_destroy (GTK_WINDOW (window));
  /* Its call to the bus ended, nothing keeps it */
  agent_test_wait_until (is_gone, &page);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();
  g_test_add_func ("/chat/apps-page/no-service", test_no_service);
  return g_test_run ();
}
