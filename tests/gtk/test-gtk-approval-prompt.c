/* test-gtk-approval-prompt.c — AgentGtkApprovalPrompt presented in a
 * dialog over a host's window, on a question of its own
 * (agent_tool_approval_new()): the dialog fits the window it is over, its
 * buttons whole, and Escape in it denies the tool.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <agent-gtk.h>

#include "agent-test-util.h"
#include "agent-test-widgets.h"

/* A phone's window */
#define NARROW_WIDTH 360

#define LONG_NAME "search_the_company_knowledge_base_for_every_matching_document"
#define LONG_ARGUMENTS \
  "{\"query\":\"quarterly-revenue-reports-for-the-northern-and-southern-regions-of-the-" \
  "company-since-the-beginning-of-the-fiscal-year\",\"folders\":[\"/srv/archive/finance/" \
  "reports/quarterly/2026/northern-region/drafts-and-final-versions\"],\"limit\":50}"

static gboolean
tool_func (AgentTool            *tool,
           AgentToolInvocation  *invocation,
           gpointer              user_data,
           GError              **error)
{
  g_assert_not_reached ();
  return FALSE;
}

static AgentToolApproval *
long_question (GCancellable *cancellable)
{
  g_autoptr(AgentTool) tool = agent_tool_new (LONG_NAME, "Searches the documents", NULL,
                                              tool_func, NULL, NULL);
  g_autoptr(AgentToolCall) call = agent_tool_call_new ("call_1", LONG_NAME, LONG_ARGUMENTS);

  agent_tool_set_requires_approval (tool, TRUE);
  return agent_tool_approval_new (tool, call, cancellable);
}

static gboolean
has_no_parent (gpointer data)
{
  return gtk_widget_get_parent (data) == NULL;
}

/* Each button of @dialog that shows lies within it, at no less than the
 * width it needs */
static void
assert_buttons_whole (GtkWidget *dialog)
{
  g_autoptr(GPtrArray) buttons = find_visible (dialog, GTK_TYPE_BUTTON);
  int width = gtk_widget_get_width (dialog);

  g_assert_cmpuint (buttons->len, >=, 3);
  for (guint i = 0; i < buttons->len; i++)
    {
      GtkWidget *button = buttons->pdata[i];
      graphene_rect_t bounds;
      int minimum;

      gtk_widget_measure (button, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, NULL, NULL, NULL);
      g_assert_true (gtk_widget_compute_bounds (button, dialog, &bounds));
      g_test_message ("button %u: x %.0f, width %.0f (needs %d) in %d", i, bounds.origin.x,
                      bounds.size.width, minimum, width);
      g_assert_cmpfloat (bounds.origin.x, >=, 0);
      g_assert_cmpfloat (bounds.origin.x + bounds.size.width, <=, width);
      g_assert_cmpfloat (bounds.size.width, >=, minimum);
    }
}

/* Over a narrow window (a phone's 360 px), with a long tool name, long
 * arguments and every answer offered: the dialog, transient for the window
 * and modal, is no wider than it, and its buttons are whole; Escape denies
 * and the dialog goes */
static void
test_narrow_parent (void)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(AgentToolApproval) approval = long_question (cancellable);
  GtkWidget *parent = gtk_window_new ();
  GtkWidget *prompt;
  GtkWidget *dialog;

  gtk_window_set_default_size (GTK_WINDOW (parent), NARROW_WIDTH, 600);
  gtk_window_present (GTK_WINDOW (parent));
  wait_frames (parent, 1);
  g_assert_cmpint (gtk_widget_get_width (parent), ==, NARROW_WIDTH);

  prompt = g_object_ref_sink (agent_gtk_approval_prompt_new (approval));
  agent_gtk_approval_prompt_set_offer_conversation (AGENT_GTK_APPROVAL_PROMPT (prompt), TRUE);
  agent_gtk_approval_prompt_present (AGENT_GTK_APPROVAL_PROMPT (prompt), parent);
  dialog = GTK_WIDGET (gtk_widget_get_root (prompt));
  g_assert_true (GTK_IS_WINDOW (dialog));
  g_assert_true (dialog != parent);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (dialog)) == GTK_WINDOW (parent));
  g_assert_true (gtk_window_get_modal (GTK_WINDOW (dialog)));
  wait_frames (dialog, 1);
  assert_shows (dialog, LONG_NAME);
  assert_shows (dialog, "fiscal-year");

  g_test_message ("dialog: %d px wide over %d px", gtk_widget_get_width (dialog),
                  gtk_widget_get_width (parent));
  g_assert_cmpint (gtk_widget_get_width (dialog), >, 0);
  g_assert_cmpint (gtk_widget_get_width (dialog), <=, NARROW_WIDTH);
  assert_buttons_whole (dialog);

  /* Escape's action: denied, and the dialog goes */
  gtk_widget_activate_action (prompt, "approval.deny", NULL);
  g_assert_true (agent_tool_approval_is_answered (approval));
  g_assert_false (agent_tool_approval_get_allowed (approval));
  g_assert_false (agent_gtk_approval_prompt_get_pending (AGENT_GTK_APPROVAL_PROMPT (prompt)));
  agent_test_wait_until (has_no_parent, prompt);

  g_object_unref (prompt);
  gtk_window_destroy (GTK_WINDOW (parent));
  iterate ();
}

int
main (int   argc,
      char *argv[])
{
  char *data_home = agent_test_gui_init (&argc, &argv);

  g_test_add_func ("/gtk/approval-prompt/narrow-parent", test_narrow_parent);
  return agent_test_gui_run (data_home);
}
