/* test-gui-mcp.c
 *
 * agent-chat's MCP servers under a real display (Xvfb), against the real
 * reference server (server-everything, from tests/mcp/node_modules): the
 * Tool Servers page and its Add Server dialog (a server added connects and
 * shows its tools, is disabled, enabled and removed, the file following;
 * a broken one shows why it failed; the form says what is wrong), and the
 * app (a window's session gets the tools, a call asks for approval, a
 * server that dies fails alone, the servers leave with the app). The
 * servers declare that the app answers their requests for input without
 * that going into the file, and a request that comes while no window is
 * shown is declined (test-gui-mcp-elicit-e2e.py shows the form).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <signal.h>
#include <string.h>
#include <sys/stat.h>

#include <adwaita.h>
#include <glib/gstdio.h>
#include <agent.h>

#include "agent-chat-application.h"
#include "agent-chat-mcp-dialog.h"
#include "agent-chat-mcp-elicit.h"
#include "agent-chat-mcp-page.h"
#include "agent-chat-window.h"
#include "agent-test-mcp.h"
#include "agent-test-openai.h"
#include "agent-test-server.h"
#include "agent-test-util.h"

typedef struct
{
  char                *dir;
  char                *path;
  AgentChatMcpServers *servers;
  GtkWidget           *window;
  AgentChatMcpPage    *page;
} Fixture;

static gboolean
settled (gpointer data)
{
  AgentMcpClientState state = agent_mcp_client_get_state (data);

  return state == AGENT_MCP_CLIENT_STATE_READY || state == AGENT_MCP_CLIENT_STATE_FAILED;
}

static gboolean
disconnected (gpointer data)
{
  return agent_mcp_client_get_state (data) == AGENT_MCP_CLIENT_STATE_DISCONNECTED;
}

static gboolean
failed (gpointer data)
{
  return agent_mcp_client_get_state (data) == AGENT_MCP_CLIENT_STATE_FAILED;
}

static void
wait_settled (AgentMcpClient *client)
{
  agent_test_wait_until_timeout (settled, client, AGENT_TEST_MCP_WAIT_SECONDS);
  /* Let the rows catch up */
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  fixture->dir = agent_test_make_dir ("agent-chat-mcp");
  /* The folder is made when the first server is saved */
  fixture->path = g_build_filename (fixture->dir, "agent-chat", "mcp.json", NULL);
  fixture->servers = agent_chat_mcp_servers_new (fixture->path);
  fixture->page = AGENT_CHAT_MCP_PAGE (agent_chat_mcp_page_new (fixture->servers));
  fixture->window = g_object_ref_sink (adw_preferences_window_new ());
  adw_preferences_window_add (ADW_PREFERENCES_WINDOW (fixture->window),
                              ADW_PREFERENCES_PAGE (fixture->page));
  gtk_window_present (GTK_WINDOW (fixture->window));
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  agent_chat_mcp_servers_shutdown (fixture->servers);
  gtk_window_destroy (GTK_WINDOW (fixture->window));
  g_clear_object (&fixture->window);
  g_assert_finalize_object (g_steal_pointer (&fixture->servers));
  g_remove (fixture->path);
  g_clear_pointer (&fixture->path, g_free);
  agent_test_remove_dir (fixture->dir);
  g_clear_pointer (&fixture->dir, g_free);
}

static AgentChatMcpDialog *
open_dialog (Fixture    *fixture,
             const char *name,
             const char *command)
{
  GtkWidget *dialog = agent_chat_mcp_page_add_server (fixture->page);
  GObject *name_row = gtk_widget_get_template_child (dialog, AGENT_CHAT_TYPE_MCP_DIALOG,
                                                     "name_row");
  GObject *command_row = gtk_widget_get_template_child (dialog, AGENT_CHAT_TYPE_MCP_DIALOG,
                                                        "command_row");

  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (dialog)) ==
                 GTK_WINDOW (fixture->window));
  gtk_editable_set_text (GTK_EDITABLE (name_row), name);
  gtk_editable_set_text (GTK_EDITABLE (command_row), command);
  return AGENT_CHAT_MCP_DIALOG (dialog);
}

static char *
everything_command (void)
{
  g_autofree char *path = agent_test_mcp_server_path ("server-everything");
  g_autofree char *quoted = g_shell_quote (path);

  return g_strdup_printf ("node %s stdio", quoted);
}

static JsonObject *
saved_server (const char *path,
              const char *name)
{
  g_autoptr(JsonNode) root = agent_test_load_json (path);
  JsonObject *servers = json_object_get_object_member (json_node_get_object (root), "mcpServers");

  g_assert_nonnull (servers);
  if (!json_object_has_member (servers, name))
    return NULL;
  return json_object_ref (json_object_get_object_member (servers, name));
}

static guint
n_tool_rows (AgentChatMcpRow *row)
{
  g_autoptr(GPtrArray) rows = agent_chat_mcp_row_list_tools (row);

  return rows->len;
}

/* Added through the dialog: saved (owner only), connects, shows its tools;
 * disabled, enabled again, removed — the file following each time */
static void
test_add_disable_remove (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autofree char *command = everything_command ();
  AgentChatMcpDialog *dialog = open_dialog (fixture, "everything", command);
  AgentMcpClient *client;
  AgentChatMcpRow *row;
  g_autoptr(GPtrArray) tools = NULL;
  g_autoptr(JsonObject) saved = NULL;
  g_autoptr(AgentChatMcpServers) reread = NULL;
  g_autofree char *expected = NULL;
  GtkWidget *toggle;
  GStatBuf st;
  gboolean found_echo = FALSE;
  guint n;

  g_assert_true (agent_chat_mcp_dialog_add (dialog));
  g_assert_null (agent_chat_mcp_page_find_row (fixture->page, "nothing"));
  row = agent_chat_mcp_page_find_row (fixture->page, "everything");
  g_assert_nonnull (row);
  client = agent_chat_mcp_row_get_client (row);
  g_assert_cmpstr (agent_mcp_client_get_command (client), ==, "node");
  g_assert_cmpstr (agent_mcp_client_get_args (client)[1], ==, "stdio");

  saved = saved_server (fixture->path, "everything");
  g_assert_cmpstr (json_object_get_string_member (saved, "command"), ==, "node");
  g_assert_false (json_object_has_member (saved, "disabled"));
  g_assert_cmpint (g_stat (fixture->path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);

  /* Connecting, then connected with its tools listed */
  agent_test_assert_contains (adw_expander_row_get_subtitle (ADW_EXPANDER_ROW (row)),
                              "Connecting…");
  wait_settled (client);
  g_assert_cmpint (agent_mcp_client_get_state (client), ==, AGENT_MCP_CLIENT_STATE_READY);
  n = g_list_model_get_n_items (agent_mcp_client_get_tools (client));
  g_assert_cmpuint (n, >, 5);
  expected = g_strdup_printf ("Connected, %u tools\nnode ", n);
  agent_test_assert_contains (adw_expander_row_get_subtitle (ADW_EXPANDER_ROW (row)), expected);
  tools = agent_chat_mcp_row_list_tools (row);
  g_assert_cmpuint (tools->len, ==, n);
  for (guint i = 0; i < tools->len; i++)
    if (g_strcmp0 (adw_preferences_row_get_title (g_ptr_array_index (tools, i)), "echo") == 0)
      {
        g_assert_cmpstr (adw_action_row_get_subtitle (g_ptr_array_index (tools, i)), ==,
                         "Echoes back the input string");
        found_echo = TRUE;
      }
  g_assert_true (found_echo);

  /* The switch disables it: closed, no tools shown, saved as "disabled" */
  toggle = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (row), AGENT_CHAT_TYPE_MCP_ROW,
                                                      "enabled_switch"));
  g_assert_true (gtk_switch_get_active (GTK_SWITCH (toggle)));
  gtk_switch_set_active (GTK_SWITCH (toggle), FALSE);
  g_assert_false (agent_mcp_client_get_enabled (client));
  g_assert_cmpint (agent_mcp_client_get_state (client), ==, AGENT_MCP_CLIENT_STATE_DISCONNECTED);
  agent_test_assert_contains (adw_expander_row_get_subtitle (ADW_EXPANDER_ROW (row)), "Disabled");
  g_assert_cmpuint (n_tool_rows (row), ==, 0);
  g_clear_pointer (&saved, json_object_unref);
  saved = saved_server (fixture->path, "everything");
  g_assert_true (json_object_get_boolean_member (saved, "disabled"));
  reread = agent_chat_mcp_servers_new (fixture->path);
  g_assert_false (agent_mcp_client_get_enabled (
    agent_mcp_server_list_lookup (agent_chat_mcp_servers_get_list (reread), "everything")));

  /* Enabled again through the page's action: it connects again */
  gtk_widget_activate_action (GTK_WIDGET (fixture->page), "mcp.set-enabled", "(sb)",
                              "everything", TRUE);
  g_assert_true (gtk_switch_get_active (GTK_SWITCH (toggle)));
  wait_settled (client);
  g_assert_cmpint (agent_mcp_client_get_state (client), ==, AGENT_MCP_CLIENT_STATE_READY);
  g_assert_cmpuint (n_tool_rows (row), ==, n);

  /* Removed: closed, its row gone, out of the file */
  g_object_ref (client);
  gtk_widget_activate_action (GTK_WIDGET (fixture->page), "mcp.remove", "s", "everything");
  g_assert_null (agent_chat_mcp_page_find_row (fixture->page, "everything"));
  g_assert_cmpint (agent_mcp_client_get_state (client), ==, AGENT_MCP_CLIENT_STATE_DISCONNECTED);
  g_clear_pointer (&saved, json_object_unref);
  g_assert_null (saved_server (fixture->path, "everything"));
  agent_test_wait_until (disconnected, client);
  g_object_unref (client);
}

/* A server that cannot start: failed, and the row says why */
static void
test_failed (Fixture       *fixture,
             gconstpointer  data)
{
  const char *args[] = { "--no-such-option-for-node", NULL };
  g_autoptr(AgentMcpClient) missing = agent_mcp_client_new_stdio ("missing",
                                                                  "agent-no-such-program",
                                                                  NULL);
  g_autoptr(AgentMcpClient) broken = agent_mcp_client_new_stdio ("broken", "node", args);
  g_autoptr(GError) error = NULL;
  struct { AgentMcpClient *client; const char *says; } cases[] = {
    { missing, "agent-no-such-program" },
    { broken, "exited" },
  };

  g_assert_true (agent_chat_mcp_servers_add (fixture->servers, missing, &error));
  g_assert_no_error (error);
  g_assert_true (agent_chat_mcp_servers_add (fixture->servers, broken, &error));
  g_assert_no_error (error);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *name = agent_mcp_client_get_name (cases[i].client);
      AgentChatMcpRow *row = agent_chat_mcp_page_find_row (fixture->page, name);
      GtkWidget *error_row = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (row),
                                                                        AGENT_CHAT_TYPE_MCP_ROW,
                                                                        "error_row"));
      const char *message;

      wait_settled (cases[i].client);
      g_assert_cmpint (agent_mcp_client_get_state (cases[i].client), ==,
                       AGENT_MCP_CLIENT_STATE_FAILED);
      message = agent_mcp_client_get_error (cases[i].client)->message;
      agent_test_assert_contains (message, cases[i].says);
      agent_test_assert_contains (adw_expander_row_get_subtitle (ADW_EXPANDER_ROW (row)),
                                  "Failed: The MCP server");
      g_assert_true (gtk_widget_get_visible (error_row));
      g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (error_row)), ==, message);
      g_assert_cmpuint (n_tool_rows (row), ==, 0);
    }

  /* Retry tries again */
  gtk_widget_activate_action (GTK_WIDGET (fixture->page), "mcp.reconnect", "s", "broken");
  g_assert_cmpint (agent_mcp_client_get_state (broken), ==, AGENT_MCP_CLIENT_STATE_CONNECTING);
  wait_settled (broken);
  g_assert_cmpint (agent_mcp_client_get_state (broken), ==, AGENT_MCP_CLIENT_STATE_FAILED);

  /* A name that is taken */
  g_assert_false (agent_chat_mcp_servers_add (fixture->servers, broken, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS);
}

/* Types @text in the dialog's field @name: an entry row or a text view */
static void
set_field (GtkWidget  *dialog,
           const char *name,
           const char *text)
{
  GObject *child = gtk_widget_get_template_child (dialog, AGENT_CHAT_TYPE_MCP_DIALOG, name);

  if (GTK_IS_TEXT_VIEW (child))
    gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (child)), text, -1);
  else
    gtk_editable_set_text (GTK_EDITABLE (child), text);
}

static void
assert_refused (AgentChatMcpDialog *dialog,
                const char         *says)
{
  g_assert_false (agent_chat_mcp_dialog_add (dialog));
  g_assert_nonnull (agent_chat_mcp_dialog_get_error (dialog));
  agent_test_assert_contains (agent_chat_mcp_dialog_get_error (dialog), says);
  /* Nothing a variable or header holds is repeated */
  g_assert_null (strstr (agent_chat_mcp_dialog_get_error (dialog), "sk-secret"));
}

/* Typing in a field (or nothing), then Add: refused, saying @says (or
 * not tried, when NULL) */
typedef struct
{
  const char *field;
  const char *text;
  const char *says;
} FormStep;

static const FormStep program_steps[] = {
  { NULL, NULL, "Give the server a name" },
  { "name_row", "taken", "A server called “taken” exists already" },
  { "name_row", " files ", "Give the command" },
  { "command_row", "node 'unclosed", "The command could not be read" },
  { "command_row", "agent-no-such-program --stdio",
    "There is no program “agent-no-such-program” on this computer" },
  { "command_row", "node server.js --root '/home/me/My Notes'", NULL },
  { "env_view", "API_TOKEN=sk-secret-1\nnot a variable sk-secret-2\n", "Environment, line 2" },
  { "env_view", "# a comment\nAPI_TOKEN=sk-secret-1\n\nLOG_LEVEL = debug\n",
    "Environment, line 4" },
  { "env_view", "# a comment\nAPI_TOKEN=sk-secret-1\n\n", NULL },
};

static const FormStep web_steps[] = {
  { NULL, NULL, "Give the server’s web address" },
  { "url_row", "ftp://example.com/mcp", "http:// or https://" },
  { "url_row", "example.com/mcp", "http:// or https://" },
  { "url_row", "https://example.com/mcp", NULL },
  { "headers_view", "Authorization Bearer sk-secret-3", "Headers, line 1" },
  { "headers_view", "Authorization:   Bearer sk-secret-3  \nX-Trace: 1", NULL },
};

static void
fill_form (GtkWidget      *dialog,
           const FormStep *steps,
           guint           n_steps)
{
  for (guint i = 0; i < n_steps; i++)
    {
      if (steps[i].field != NULL)
        set_field (dialog, steps[i].field, steps[i].text);
      if (steps[i].says != NULL)
        assert_refused (AGENT_CHAT_MCP_DIALOG (dialog), steps[i].says);
    }
}

/* The form says what is wrong, and builds what is right */
static void
test_dialog_validation (Fixture       *fixture,
                        gconstpointer  data)
{
  AgentChatMcpDialog *dialog = open_dialog (fixture, "", "");
  GtkWidget *widget = GTK_WIDGET (dialog);
  GObject *kind_row = gtk_widget_get_template_child (widget, AGENT_CHAT_TYPE_MCP_DIALOG,
                                                     "kind_row");
  g_autoptr(AgentMcpClient) client = NULL;
  g_autoptr(AgentMcpClient) other = agent_mcp_client_new_stdio ("taken", "true", NULL);
  g_autoptr(GError) error = NULL;
  const char * const *strv;

  g_assert_true (agent_mcp_server_list_add (agent_chat_mcp_servers_get_list (fixture->servers),
                                            other));
  g_assert_null (agent_chat_mcp_dialog_get_error (dialog));
  fill_form (widget, program_steps, G_N_ELEMENTS (program_steps));
  client = agent_chat_mcp_dialog_build_client (dialog, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (agent_mcp_client_get_name (client), ==, "files");
  g_assert_cmpstr (agent_mcp_client_get_command (client), ==, "node");
  strv = agent_mcp_client_get_args (client);
  g_assert_cmpuint (g_strv_length ((char **) strv), ==, 3);
  g_assert_cmpstr (strv[2], ==, "/home/me/My Notes");
  strv = agent_mcp_client_get_env (client);
  g_assert_cmpstr (strv[0], ==, "API_TOKEN=sk-secret-1");
  g_assert_null (strv[1]);
  g_assert_false (agent_mcp_client_get_trusted (client));
  g_clear_object (&client);

  /* A web address */
  adw_combo_row_set_selected (ADW_COMBO_ROW (kind_row), 1);
  g_assert_null (agent_chat_mcp_dialog_get_error (dialog));
  fill_form (widget, web_steps, G_N_ELEMENTS (web_steps));
  client = agent_chat_mcp_dialog_build_client (dialog, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (agent_mcp_client_get_url (client), ==, "https://example.com/mcp");
  strv = agent_mcp_client_get_headers (client);
  g_assert_cmpstr (strv[0], ==, "Authorization: Bearer sk-secret-3");
  g_assert_cmpstr (strv[1], ==, "X-Trace: 1");

  /* Added: saved with its headers, in a file only its owner reads */
  g_assert_true (agent_chat_mcp_dialog_add (dialog));
  {
    g_autoptr(JsonObject) saved = saved_server (fixture->path, "files");
    JsonObject *headers = json_object_get_object_member (saved, "headers");

    g_assert_cmpstr (json_object_get_string_member (saved, "url"), ==, "https://example.com/mcp");
    g_assert_cmpstr (json_object_get_string_member (headers, "Authorization"), ==,
                     "Bearer sk-secret-3");
  }
  g_assert_true (agent_chat_mcp_servers_remove (fixture->servers, "files", &error));
  g_assert_no_error (error);
}

/* A file that cannot be read is shown, and never overwritten */
static void
test_unreadable_file (void)
{
  g_autofree char *dir = agent_test_make_dir ("agent-chat-mcp");
  g_autofree char *path = agent_test_write_file (dir, "mcp.json", "{ \"mcpServers\": ", -1);
  g_autoptr(AgentChatMcpServers) servers = agent_chat_mcp_servers_new (path);
  g_autoptr(AgentMcpClient) client = agent_mcp_client_new_stdio ("new", "true", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  GListModel *list;
  GtkWidget *page;
  GObject *label;

  g_assert_nonnull (agent_chat_mcp_servers_get_load_error (servers));
  page = g_object_ref_sink (agent_chat_mcp_page_new (servers));
  label = gtk_widget_get_template_child (page, AGENT_CHAT_TYPE_MCP_PAGE, "load_error_label");
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (label)));
  agent_test_assert_contains (gtk_label_get_text (GTK_LABEL (label)), "could not be read");

  g_assert_false (agent_chat_mcp_servers_add (servers, client, &error));
  agent_test_assert_contains (error->message, "cannot be changed until it is fixed");
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "{ \"mcpServers\": ");
  list = G_LIST_MODEL (agent_chat_mcp_servers_get_list (servers));
  g_assert_cmpuint (g_list_model_get_n_items (list), ==, 0);

  g_object_unref (page);
  g_remove (path);
  agent_test_remove_dir (dir);
}


/* The app */

static void
find_prompt (GtkWidget               *widget,
             AgentGtkApprovalPrompt **found)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (AGENT_GTK_IS_APPROVAL_PROMPT (child) && gtk_widget_is_visible (child) &&
          agent_gtk_approval_prompt_get_pending (AGENT_GTK_APPROVAL_PROMPT (child)))
        *found = AGENT_GTK_APPROVAL_PROMPT (child);
      find_prompt (child, found);
    }
}

/* The chat view's approval prompt (libagent-gtk's), once it asks */
static gboolean
approval_prompt_shows (gpointer data)
{
  AgentGtkApprovalPrompt **found = data;
  g_autoptr(GList) toplevels = gtk_window_list_toplevels ();

  for (GList *l = toplevels; l != NULL; l = l->next)
    find_prompt (l->data, found);
  return *found != NULL;
}

/* The text of its labels */
static void
prompt_text (GtkWidget *widget,
             GString   *text)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (GTK_IS_LABEL (child))
        g_string_append_printf (text, "%s\n", gtk_label_get_text (GTK_LABEL (child)));
      prompt_text (child, text);
    }
}

static gboolean
session_idle (gpointer data)
{
  return !agent_session_get_busy (data);
}

static gboolean
session_busy (gpointer data)
{
  return agent_session_get_busy (data);
}

/* Each server joins saying that the app answers requests for input — the
 * app's capability, not the user's configuration: never in the file. With
 * no window shown, a request is declined at once. */
static void
test_elicitation_without_window (Fixture       *fixture,
                                 gconstpointer  data)
{
  g_autoptr(AgentMcpClient) client = agent_test_mcp_elicitation_new ();
  g_autoptr(AgentChatMcpServers) reread = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *saved = NULL;
  AgentTestMcpResult result = { 0 };

  g_assert_false (agent_mcp_client_get_handles_elicitation (client));
  g_assert_true (agent_chat_mcp_servers_add (fixture->servers, client, &error));
  g_assert_no_error (error);
  g_assert_true (agent_mcp_client_get_handles_elicitation (client));
  g_assert_true (g_file_get_contents (fixture->path, &saved, NULL, &error));
  g_assert_no_error (error);
  agent_test_assert_contains (saved, "elicitation-server.mjs");
  g_assert_null (strstr (saved, "licitation\""));
  g_assert_null (strstr (saved, "andles"));

  /* Read again from the file: declared again */
  reread = agent_chat_mcp_servers_new (fixture->path);
  g_assert_true (agent_mcp_client_get_handles_elicitation (
    agent_mcp_server_list_lookup (agent_chat_mcp_servers_get_list (reread), "asker")));

  /* No application here, so no window shown: declined, not left waiting */
  g_assert_null (g_application_get_default ());
  wait_settled (client);
  g_assert_cmpint (agent_mcp_client_get_state (client), ==, AGENT_MCP_CLIENT_STATE_READY);
  agent_test_mcp_call (client, "ask",
                       "{\"message\":\"Name?\",\"schema\":{\"type\":\"object\","
                       "\"properties\":{\"name\":{\"type\":\"string\"}}}}",
                       &result);
  g_assert_false (result.is_error);
  agent_test_assert_contains (result.text, "\"action\":\"decline\"");
  agent_test_mcp_result_clear (&result);
}

static gboolean
mapped (gpointer data)
{
  return gtk_widget_get_mapped (data);
}

/* The app reads the file at start; a window's session gets the tools of
 * the connected servers, which ask before they run; a server that dies
 * fails alone; the servers leave with the app. */
static void
test_app (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(GSettings) settings = g_settings_new ("io.github.libagent.Chat");
  g_autofree char *config_dir = g_build_filename (g_get_user_config_dir (), "agent-chat", NULL);
  g_autofree char *server_path = agent_test_mcp_server_path ("server-everything");
  g_autofree char *config = NULL;
  g_autofree char *config_path = NULL;
  g_autoptr(AgentChatApplication) app = agent_chat_application_new ();
  g_autoptr(GError) error = NULL;
  AgentTestMcpKillable killable;
  static const AgentTestToolChunk call = { 0, "call_1", "echo", "{\"message\":\"hi\"}" };
  const char *deltas[] = { "Echoed.", NULL };
  AgentGtkApprovalPrompt *approval = NULL;
  g_autoptr(GString) asked = g_string_new (NULL);
  AgentChatMcpServers *servers;
  AgentChatWindow *window;
  AgentMcpClient *main_client;
  AgentSession *session;
  AgentTool *echo;
  GPid pid;

  {
    g_autoptr(JsonBuilder) builder = json_builder_new ();
    g_autoptr(JsonNode) root = NULL;

    json_builder_begin_object (builder);
    json_builder_set_member_name (builder, "mcpServers");
    json_builder_begin_object (builder);
    json_builder_set_member_name (builder, "main");
    json_builder_begin_object (builder);
    json_builder_set_member_name (builder, "command");
    json_builder_add_string_value (builder, "node");
    json_builder_set_member_name (builder, "args");
    json_builder_begin_array (builder);
    json_builder_add_string_value (builder, server_path);
    json_builder_add_string_value (builder, "stdio");
    json_builder_end_array (builder);
    json_builder_end_object (builder);
    json_builder_end_object (builder);
    json_builder_end_object (builder);
    root = json_builder_get_root (builder);
    config = json_to_string (root, TRUE);
  }
  g_assert_no_errno (g_mkdir_with_parents (config_dir, 0700));
  config_path = agent_test_write_file (config_dir, "mcp.json", config, -1);

  g_settings_set_string (settings, "provider", "openai");
  g_settings_set_string (settings, "base-url", agent_test_server_get_base_url (server));
  g_settings_set_string (settings, "model", "test-model");
  g_settings_set_strv (settings, "enabled-tools", NULL);

  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);
  servers = agent_chat_application_get_mcp_servers (app);
  g_assert_cmpstr (agent_chat_mcp_servers_get_path (servers), ==, config_path);
  main_client = agent_mcp_server_list_lookup (agent_chat_mcp_servers_get_list (servers), "main");
  g_assert_nonnull (main_client);
  g_assert_true (agent_mcp_client_get_handles_elicitation (main_client));
  wait_settled (main_client);
  g_assert_cmpint (agent_mcp_client_get_state (main_client), ==, AGENT_MCP_CLIENT_STATE_READY);

  /* A server's request for input would be declined: no window shows */
  g_assert_null (agent_chat_mcp_elicit_pick_window (GTK_APPLICATION (app)));
  window = g_object_ref_sink (agent_chat_window_new (app));
  g_assert_null (agent_chat_mcp_elicit_pick_window (GTK_APPLICATION (app)));
  gtk_window_present (GTK_WINDOW (window));
  agent_test_wait_until (mapped, window);
  /* and is shown over the window, now that it shows */
  g_assert_true (agent_chat_mcp_elicit_pick_window (GTK_APPLICATION (app)) ==
                 GTK_WINDOW (window));

  /* The model is offered the tools and calls one: the approval dialog
   * asks, Allow runs it */
  agent_test_openai_add_tool_response (server, &call, 1, 1, 1);
  agent_test_openai_add_text_response (server, deltas, 1, 1);
  agent_chat_window_send (window, "Echo hi");
  session = agent_chat_window_get_session (window);
  /* The turn starts once the keyring was asked for the server's key */
  agent_test_wait_until (session_busy, session);
  echo = agent_session_lookup_tool (session, "echo");
  g_assert_true (AGENT_IS_MCP_TOOL (echo));
  g_assert_true (agent_tool_get_requires_approval (echo));
  agent_test_wait_until (approval_prompt_shows, &approval);
  prompt_text (GTK_WIDGET (approval), asked);
  agent_test_assert_contains (asked->str, "“echo”");
  /* and the server it comes from */
  agent_test_assert_contains (asked->str, "tool server “main”");
  agent_gtk_approval_prompt_answer (approval, AGENT_GTK_APPROVAL_ANSWER_ALLOW_ONCE);
  agent_test_wait_until (session_idle, session);
  g_assert_cmpstr (agent_test_openai_tool_message_content (server, 1, "call_1"), ==,
                   "Echo: hi");
  /* Still offered after the turn set the built-in tools again */
  g_assert_true (agent_session_lookup_tool (session, "echo") == echo);

  /* A second server that dies: failed, the rest goes on */
  agent_test_mcp_killable_init (&killable);
  agent_mcp_client_set_tool_prefix (killable.client, "k_");
  g_assert_true (agent_chat_mcp_servers_add (servers, killable.client, &error));
  g_assert_no_error (error);
  wait_settled (killable.client);
  g_assert_cmpint (agent_mcp_client_get_state (killable.client), ==,
                   AGENT_MCP_CLIENT_STATE_READY);
  g_assert_nonnull (agent_session_lookup_tool (session, "k_echo"));
  g_assert_no_errno (kill (agent_test_mcp_killable_pid (&killable), SIGKILL));
  agent_test_wait_until (failed, killable.client);
  {
    g_autofree char *state = agent_chat_mcp_describe_state (killable.client);

    agent_test_assert_contains (state, "Failed: ");
  }
  g_assert_cmpint (agent_mcp_client_get_state (main_client), ==, AGENT_MCP_CLIENT_STATE_READY);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (window)));

  /* Retry starts it again; the app's exit closes every server */
  agent_chat_mcp_servers_reconnect (servers, killable.client);
  wait_settled (killable.client);
  g_assert_cmpint (agent_mcp_client_get_state (killable.client), ==,
                   AGENT_MCP_CLIENT_STATE_READY);
  pid = agent_test_mcp_killable_pid (&killable);
  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_null (agent_chat_mcp_elicit_pick_window (GTK_APPLICATION (app)));
  g_object_unref (window);
  agent_chat_mcp_servers_shutdown (servers);
  g_assert_cmpint (agent_mcp_client_get_state (main_client), ==,
                   AGENT_MCP_CLIENT_STATE_DISCONNECTED);
  agent_test_wait_until (agent_test_mcp_process_is_gone, GINT_TO_POINTER (pid));

  g_assert_true (agent_chat_mcp_servers_remove (servers, "everything", &error));
  g_assert_no_error (error);
  agent_test_mcp_killable_clear (&killable);
  g_remove (config_path);
  g_rmdir (config_dir);
}

int
main (int   argc,
      char *argv[])
{
  /* A config dir of its own: the app reads agent-chat/mcp.json there */
  g_autofree char *config_home = agent_test_make_dir ("agent-chat-mcp-config");
  g_autofree char *profiles = g_build_filename (config_home, "profiles.ini", NULL);
  int status;

  g_setenv ("XDG_CONFIG_HOME", config_home, TRUE);
  /* and a profiles file of its own: the app saves its first profile from
   * the settings' server there, which the shared file would keep for the
   * next run, pointing at a server long gone */
  g_setenv ("AGENT_PROFILES", profiles, TRUE);
  if (!agent_test_mcp_init (&argc, &argv))
    return 0;
  gtk_init ();
  adw_init ();

  g_test_add ("/gui/mcp/add-disable-remove", Fixture, NULL,
              fixture_set_up, test_add_disable_remove, fixture_tear_down);
  g_test_add ("/gui/mcp/failed", Fixture, NULL, fixture_set_up, test_failed, fixture_tear_down);
  g_test_add ("/gui/mcp/dialog-validation", Fixture, NULL,
              fixture_set_up, test_dialog_validation, fixture_tear_down);
  g_test_add_func ("/gui/mcp/unreadable-file", test_unreadable_file);
  g_test_add ("/gui/mcp/elicitation-without-window", Fixture, NULL,
              fixture_set_up, test_elicitation_without_window, fixture_tear_down);
  g_test_add_func ("/gui/mcp/app", test_app);

  status = g_test_run ();
  agent_test_remove_dir (config_home);
  return status;
}
