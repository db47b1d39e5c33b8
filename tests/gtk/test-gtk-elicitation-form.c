/* test-gtk-elicitation-form.c — AgentGtkElicitationForm in a host's window,
 * on real requests: tests/mcp/elicitation-server.mjs (the official SDK's
 * server) asks, the form is built from what came, filled in, and answers;
 * the tool's result says what reached the server.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <stdio.h>
#include <string.h>

#include <agent-gtk.h>

#include "agent-test-mcp.h"
#include "agent-test-util.h"
#include "agent-test-widgets.h"

#define SCHEMA \
  "{\"type\":\"object\",\"required\":[\"email\"],\"properties\":{" \
  "\"email\":{\"type\":\"string\",\"format\":\"email\",\"title\":\"Email\"," \
  "\"description\":\"Where the receipt goes\"}," \
  "\"seats\":{\"type\":\"integer\",\"title\":\"Seats\",\"minimum\":1,\"maximum\":8," \
  "\"default\":2}," \
  "\"window\":{\"type\":\"boolean\",\"title\":\"Window Seat\",\"default\":true}," \
  "\"meal\":{\"type\":\"string\",\"title\":\"Meal\",\"oneOf\":[" \
  "{\"const\":\"veg\",\"title\":\"Vegetarian\"},{\"const\":\"fish\",\"title\":\"Fish\"}]," \
  "\"default\":\"fish\"}," \
  "\"extras\":{\"type\":\"array\",\"title\":\"Extras\",\"items\":{\"enum\":[\"wifi\",\"bag\"]}}}}"

typedef struct
{
  AgentMcpClient      *client;
  AgentMcpElicitation *request;
} Asker;

static void
elicitation_cb (AgentMcpClient      *client,
                AgentMcpElicitation *request,
                Asker               *asker)
{
  g_set_object (&asker->request, request);
}

static gboolean
has_request (gpointer data)
{
  return ((Asker *) data)->request != NULL;
}

static void
asker_init (Asker *asker)
{
  asker->client = agent_test_mcp_elicitation_new ();
  asker->request = NULL;
  agent_mcp_client_set_handles_elicitation (asker->client, TRUE);
  g_signal_connect (asker->client, "elicitation", G_CALLBACK (elicitation_cb), asker);
  agent_test_mcp_connect (asker->client);
}

static void
asker_clear (Asker *asker)
{
  agent_test_mcp_close (asker->client);
  g_clear_object (&asker->request);
  g_clear_object (&asker->client);
}

/* Asks, and shows the form of the request in a window */
static GtkWidget *
ask (Asker                *asker,
     const char           *arguments,
     AgentToolInvocation **invocation,
     AgentTestMcpResult   *result)
{
  GtkWidget *form;

  *invocation = agent_test_mcp_invoke (asker->client, "ask", arguments, NULL, result);
  g_assert_true (agent_test_wait_until_timeout (has_request, asker, AGENT_TEST_MCP_WAIT_SECONDS));
  form = agent_gtk_elicitation_form_new (asker->request);
  show_in_window (form);
  wait_frames (GTK_WIDGET (gtk_widget_get_root (form)), 1);
  return form;
}

static GtkWidget *
the_entry (GtkWidget *form)
{
  g_autoptr(GPtrArray) entries = find_all (form, GTK_TYPE_ENTRY);

  g_assert_cmpuint (entries->len, >=, 1);
  return entries->pdata[0];
}

/* The fields of the schema, their defaults, what is wrong inline, and
 * Accept */
static void
test_accept (void)
{
  g_autofree char *arguments = g_strdup_printf ("{\"message\":\"Book the trip\",\"schema\":%s}",
                                                SCHEMA);
  g_autoptr(AgentToolInvocation) invocation = NULL;
  g_autoptr(GPtrArray) spins = NULL;
  g_autoptr(GPtrArray) switches = NULL;
  g_autoptr(GPtrArray) drop_downs = NULL;
  g_autoptr(GPtrArray) checks = NULL;
  AgentTestMcpResult result;
  GtkWidget *accept;
  GtkWidget *form;
  Asker asker;

  asker_init (&asker);
  form = ask (&asker, arguments, &invocation, &result);

  /* Who asks, what, and each field with its title and description */
  assert_shows (form, "“asker” Asks for Information");
  assert_shows (form, "Book the trip");
  assert_shows (form, "Email");
  assert_shows (form, "Where the receipt goes");
  assert_shows (form, "Required");
  assert_shows (form, "Window Seat");
  spins = find_all (form, GTK_TYPE_SPIN_BUTTON);
  switches = find_all (form, GTK_TYPE_SWITCH);
  drop_downs = find_all (form, GTK_TYPE_DROP_DOWN);
  checks = find_all (form, GTK_TYPE_CHECK_BUTTON);
  g_assert_cmpuint (spins->len, ==, 1);
  g_assert_cmpuint (switches->len, ==, 1);
  g_assert_cmpuint (drop_downs->len, ==, 1);
  g_assert_cmpuint (checks->len, ==, 2);
  /* The defaults, filled in; the bounds */
  g_assert_cmpint (gtk_spin_button_get_value_as_int (spins->pdata[0]), ==, 2);
  {
    double minimum, maximum;

    gtk_spin_button_get_range (spins->pdata[0], &minimum, &maximum);
    g_assert_cmpfloat (minimum, ==, 1);
    g_assert_cmpfloat (maximum, ==, 8);
  }
  g_assert_true (gtk_switch_get_active (switches->pdata[0]));
  g_assert_cmpuint (gtk_drop_down_get_selected (drop_downs->pdata[0]), ==, 1);

  /* The required email is missing: Accept waits */
  accept = find_button (form, "_Accept");
  g_assert_nonnull (accept);
  g_assert_false (gtk_widget_get_sensitive (accept));

  /* Wrong, said next to the field */
  gtk_editable_set_text (GTK_EDITABLE (the_entry (form)), "ada@");
  iterate ();
  assert_shows (form, "“ada@” is not an email address");
  g_assert_false (gtk_widget_get_sensitive (accept));

  gtk_editable_set_text (GTK_EDITABLE (the_entry (form)), "ada@example.com");
  gtk_check_button_set_active (checks->pdata[1], TRUE);
  iterate ();
  g_assert_true (gtk_widget_get_sensitive (accept));
  {
    g_autofree char *shown = shown_text (form);

    g_assert_null (strstr (shown, "is not an email address"));
  }

  gtk_widget_activate (accept);
  agent_test_mcp_wait_invocation (invocation);
  agent_test_assert_contains (result.text, "\"action\":\"accept\"");
  agent_test_assert_contains (result.text, "\"email\":\"ada@example.com\"");
  agent_test_assert_contains (result.text, "\"seats\":2");
  agent_test_assert_contains (result.text, "\"window\":true");
  agent_test_assert_contains (result.text, "\"meal\":\"fish\"");
  agent_test_assert_contains (result.text, "\"extras\":[\"bag\"]");
  /* Answered: it goes */
  g_assert_false (agent_gtk_elicitation_form_get_pending (AGENT_GTK_ELICITATION_FORM (form)));
  g_assert_false (gtk_widget_get_visible (form));

  agent_test_mcp_result_clear (&result);
  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (form)));
  asker_clear (&asker);
}

static void
test_decline (void)
{
  g_autofree char *arguments = g_strdup_printf ("{\"message\":\"Book the trip\",\"schema\":%s}",
                                                SCHEMA);
  g_autoptr(AgentToolInvocation) invocation = NULL;
  AgentTestMcpResult result;
  GtkWidget *form;
  Asker asker;

  asker_init (&asker);
  form = ask (&asker, arguments, &invocation, &result);
  gtk_widget_activate (find_button (form, "_Decline"));
  agent_test_mcp_wait_invocation (invocation);
  agent_test_assert_contains (result.text, "\"action\":\"decline\"");
  g_assert_null (strstr (result.text, "content\":{"));
  g_assert_false (gtk_widget_get_visible (form));

  agent_test_mcp_result_clear (&result);
  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (form)));
  asker_clear (&asker);
}

/* Cancel (Escape's action) in the dialog: the server is answered cancel,
 * the dialog goes; drops @form and @result */
static void
cancel_in_dialog (GtkWidget           *form,
                  AgentToolInvocation *invocation,
                  AgentTestMcpResult  *result)
{
  gtk_widget_activate_action (form, "elicitation.cancel", NULL);
  agent_test_mcp_wait_invocation (invocation);
  agent_test_assert_contains (result->text, "\"action\":\"cancel\"");
  iterate ();
  g_assert_null (gtk_widget_get_parent (form));
  agent_test_mcp_result_clear (result);
  g_object_unref (form);
}

/* In a dialog: Escape cancels, and the dialog goes */
static void
test_cancel_in_dialog (void)
{
  g_autofree char *arguments = g_strdup_printf ("{\"message\":\"Book the trip\",\"schema\":%s}",
                                                SCHEMA);
  g_autoptr(AgentToolInvocation) invocation = NULL;
  AgentTestMcpResult result;
  GtkWidget *form;
  Asker asker;

  asker_init (&asker);
  invocation = agent_test_mcp_invoke (asker.client, "ask", arguments, NULL, &result);
  g_assert_true (agent_test_wait_until_timeout (has_request, &asker, AGENT_TEST_MCP_WAIT_SECONDS));
  form = g_object_ref_sink (agent_gtk_elicitation_form_new (asker.request));
  agent_gtk_elicitation_form_present (AGENT_GTK_ELICITATION_FORM (form), NULL);
  g_assert_true (GTK_IS_WINDOW (gtk_widget_get_root (form)));
  wait_frames (GTK_WIDGET (gtk_widget_get_root (form)), 1);
  cancel_in_dialog (form, invocation, &result);
  asker_clear (&asker);
}

/* Over a narrow window (a phone's 360 px): the dialog, transient for it
 * and modal, is no wider than the window */
static void
test_narrow_parent (void)
{
  g_autofree char *arguments = g_strdup_printf ("{\"message\":\"Book the trip\",\"schema\":%s}",
                                                SCHEMA);
  g_autoptr(AgentToolInvocation) invocation = NULL;
  GtkWidget *parent = gtk_window_new ();
  AgentTestMcpResult result;
  GtkWidget *dialog;
  GtkWidget *form;
  Asker asker;

  gtk_window_set_default_size (GTK_WINDOW (parent), 360, 600);
  gtk_window_present (GTK_WINDOW (parent));
  wait_frames (parent, 1);
  g_assert_cmpint (gtk_widget_get_width (parent), ==, 360);

  asker_init (&asker);
  invocation = agent_test_mcp_invoke (asker.client, "ask", arguments, NULL, &result);
  g_assert_true (agent_test_wait_until_timeout (has_request, &asker, AGENT_TEST_MCP_WAIT_SECONDS));
  form = g_object_ref_sink (agent_gtk_elicitation_form_new (asker.request));
  agent_gtk_elicitation_form_present (AGENT_GTK_ELICITATION_FORM (form), parent);
  dialog = GTK_WIDGET (gtk_widget_get_root (form));
  g_assert_true (GTK_IS_WINDOW (dialog));
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (dialog)) == GTK_WINDOW (parent));
  g_assert_true (gtk_window_get_modal (GTK_WINDOW (dialog)));
  wait_frames (dialog, 1);
  g_assert_cmpint (gtk_widget_get_width (dialog), >, 0);
  g_assert_cmpint (gtk_widget_get_width (dialog), <=, 360);

  cancel_in_dialog (form, invocation, &result);
  gtk_window_destroy (GTK_WINDOW (parent));
  asker_clear (&asker);
}

/* The server withdraws its question: the form goes unanswered */
static void
test_withdrawn (void)
{
  g_autoptr(AgentToolInvocation) invocation = NULL;
  AgentTestMcpResult result;
  AgentTestMcpResult withdrawn;
  GtkWidget *form;
  Asker asker;

  asker_init (&asker);
  form = ask (&asker, "{\"message\":\"Name?\",\"schema\":{\"type\":\"object\",\"properties\":"
                      "{\"name\":{\"type\":\"string\"}}}}", &invocation, &result);
  g_assert_true (gtk_widget_get_visible (form));
  agent_test_mcp_call (asker.client, "withdraw", "{}", &withdrawn);
  agent_test_mcp_wait_invocation (invocation);
  g_assert_false (agent_gtk_elicitation_form_get_pending (AGENT_GTK_ELICITATION_FORM (form)));
  g_assert_false (gtk_widget_get_visible (form));

  agent_test_mcp_result_clear (&result);
  agent_test_mcp_result_clear (&withdrawn);
  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (form)));
  asker_clear (&asker);
}

/* URL mode: the message and the URL, Open; nothing else asked */
static void
test_url (void)
{
  g_autoptr(AgentToolInvocation) invocation = NULL;
  AgentTestMcpResult result;
  GtkWidget *form;
  Asker asker;

  asker_init (&asker);
  form = ask (&asker, "{\"message\":\"Pay for the trip\",\"url\":\"https://pay.example.com/t/1\",\"id\":\"pay-1\"}",
              &invocation, &result);
  assert_shows (form, "“asker” Asks You to Open a Page");
  assert_shows (form, "Pay for the trip");
  assert_shows (form, "https://pay.example.com/t/1");
  g_assert_nonnull (find_button (form, "_Open"));
  {
    g_autoptr(GPtrArray) entries = find_all (form, GTK_TYPE_ENTRY);

    g_assert_cmpuint (entries->len, ==, 0);
  }
  gtk_widget_activate (find_button (form, "_Decline"));
  agent_test_mcp_wait_invocation (invocation);
  agent_test_assert_contains (result.text, "\"action\":\"decline\"");

  agent_test_mcp_result_clear (&result);
  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (form)));
  asker_clear (&asker);
}

int
main (int   argc,
      char *argv[])
{
  char *data_home = agent_test_gui_init (&argc, &argv);
  g_autofree char *sdk = g_build_filename (agent_test_mcp_dir (), "node_modules",
                                           "@modelcontextprotocol", "sdk", NULL);

  /* (agent_test_mcp_init() without a second g_test_init()) */
  if (!g_file_test (sdk, G_FILE_TEST_IS_DIR))
    {
      if (g_strcmp0 (g_getenv ("AGENT_NO_NPM"), "1") == 0)
        {
          printf ("1..0 # SKIP %s is missing and AGENT_NO_NPM=1\n", sdk);
          return 0;
        }
      g_error ("%s is missing: run tests/mcp/install", sdk);
    }
  g_test_add_func ("/gtk/elicitation-form/accept", test_accept);
  g_test_add_func ("/gtk/elicitation-form/decline", test_decline);
  g_test_add_func ("/gtk/elicitation-form/cancel-in-dialog", test_cancel_in_dialog);
  g_test_add_func ("/gtk/elicitation-form/narrow-parent", test_narrow_parent);
  g_test_add_func ("/gtk/elicitation-form/withdrawn", test_withdrawn);
  g_test_add_func ("/gtk/elicitation-form/url", test_url);
  return agent_test_gui_run (data_home);
}
