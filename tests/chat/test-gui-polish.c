/* test-gui-polish.c
 *
 * The finish of agent-chat, under a real display (Xvfb): the composer's
 * placeholder; message actions that show with the focus (or the pointer),
 * not under every message; Preferences that name providers and tools for
 * people and take a system prompt of several lines; search snippets as
 * plain text from the match on; Undo of the deletion of the open chat that
 * opens it again; the tool-call chunk toggle that says what it does, in a
 * header of 360 px; and answers rendered whole: tables, highlighted code
 * that follows the dark style, block quotes, task lists, readable math,
 * none widening the window.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "markdown/agent-gtk-code-private.h"
#include "agent-gtk-composer-private.h"
#include "agent-gtk-markdown-view-private.h"
#include "markdown/agent-gtk-markdown-parser-private.h"
#include "agent-gtk-message-row-private.h"
#include "agent-chat-preferences.h"
#include "agent-chat-secret-store.h"
#include "agent-test-chat.h"
#include "agent-test-openai.h"
#include "agent-test-util.h"
#if AGENT_HAS_STORE
# include "agent-chat-sidebar.h"
# include "agent-chat-snippet.h"
#endif

/* The composer says what it is for while it is empty */
static void
test_placeholder (Fixture       *fixture,
                  gconstpointer  data)
{
  AgentGtkComposer *composer = agent_chat_window_get_composer (fixture->window);
  GtkWidget *placeholder = _agent_gtk_composer_get_placeholder (composer);

  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (placeholder)), ==, "Send a message…");
  g_assert_true (gtk_widget_get_visible (placeholder));
  agent_gtk_composer_set_text (composer, "Hi");
  g_assert_false (gtk_widget_get_visible (placeholder));
  agent_gtk_composer_set_text (composer, NULL);
  g_assert_true (gtk_widget_get_visible (placeholder));
}

static GtkWidget *
actions_of (GtkWidget *row)
{
  GtkWidget *actions = find_with_class (row, GTK_TYPE_BOX, "message-actions");

  g_assert_nonnull (actions);
  return actions;
}
/* A message's actions keep their place, out of sight, until the row has
 * the focus (or the pointer); Tab still reaches them. (Its "‹ 2 / 3 ›",
 * among them, shows always: test-gui-turns.) */
static void
test_actions_on_focus (void)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *row = agent_gtk_message_row_new ();
  GtkWidget *other = gtk_button_new_with_label ("Elsewhere");
  GtkWidget *window;
  g_autoptr(AgentMessage) question = agent_message_new (AGENT_MESSAGE_ROLE_USER, "Question?");
  GtkWidget *actions;
  GtkWidget *copy;

  gtk_box_append (GTK_BOX (box), row);
  gtk_box_append (GTK_BOX (box), other);
  window = show_in_window (box);
  agent_gtk_message_row_set_item (AGENT_GTK_MESSAGE_ROW (row), G_OBJECT (question));
  iterate ();
  actions = actions_of (row);
  g_assert_true (gtk_widget_get_visible (actions));
  copy = find_button (actions, "Copy Message");
  g_assert_nonnull (copy);

  gtk_widget_grab_focus (other);
  iterate ();
  g_assert_cmpfloat (gtk_widget_get_opacity (copy), ==, 0.0);

  gtk_widget_grab_focus (row);
  iterate ();
  g_assert_cmpfloat (gtk_widget_get_opacity (copy), ==, 1.0);
  /* and on to the buttons */
  gtk_widget_child_focus (window, GTK_DIR_TAB_FORWARD);
  iterate ();
  g_assert_true (gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (window)), actions));
  g_assert_cmpfloat (gtk_widget_get_opacity (copy), ==, 1.0);

  gtk_widget_grab_focus (other);
  iterate ();
  g_assert_cmpfloat (gtk_widget_get_opacity (copy), ==, 0.0);

  agent_gtk_message_row_set_item (AGENT_GTK_MESSAGE_ROW (row), NULL);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Providers and tools by the names people know; the system prompt takes
 * several lines */
static void
test_preferences_names (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autoptr(AgentChatSecretStore) secrets = agent_chat_secret_store_new (FALSE);
  GtkWidget *preferences = agent_chat_preferences_new (NULL, fixture->settings, secrets,
                                                       agent_chat_window_get_connection (fixture->window),
                                                       NULL);
  g_autoptr(GPtrArray) combos = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GPtrArray) views = NULL;
  g_autoptr(GString) titles = g_string_new (NULL);
  g_autoptr(AgentTool) calculator = agent_builtin_tool_new ("calculator", NULL);
  g_autofree char *prompt = NULL;
  GListModel *providers;
  GtkTextView *view = NULL;

  gtk_window_present (GTK_WINDOW (preferences));
  iterate ();

  combos = find_all (preferences, ADW_TYPE_COMBO_ROW);
  providers = adw_combo_row_get_model (g_ptr_array_index (combos, 0));
  /* Every provider but the desktop assistant's (the last), which is
   * agent-chat's own models shared */
  g_assert_cmpuint (g_list_model_get_n_items (providers), ==,
                    g_strv_length ((char **) agent_provider_list_names ()) - 1);
  g_assert_cmpstr (agent_provider_list_names ()[g_list_model_get_n_items (providers)], ==,
                   "desktop");
  for (guint i = 0; i < g_list_model_get_n_items (providers); i++)
    g_string_append_printf (titles, "%s|", gtk_string_list_get_string (GTK_STRING_LIST (providers),
                                                                      i));
  g_assert_cmpstr (titles->str, ==,
                   "OpenAI or Compatible|OpenAI Responses|Anthropic|Ollama|Google Gemini|");
  /* The window's provider (openai) is the one selected */
  g_assert_cmpuint (adw_combo_row_get_selected (g_ptr_array_index (combos, 0)), ==, 0);

  rows = find_all (preferences, ADW_TYPE_ACTION_ROW);
  g_string_truncate (titles, 0);
  for (guint i = 0; i < rows->len; i++)
    {
      AdwActionRow *row = g_ptr_array_index (rows, i);
      const char *subtitle = adw_action_row_get_subtitle (row);

      g_string_append_printf (titles, "%s|", adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)));
      g_assert_true (subtitle == NULL ||
                     g_strcmp0 (subtitle, agent_tool_get_description (calculator)) != 0);
    }
  agent_test_assert_contains (titles->str, "|Calculator|");
  agent_test_assert_contains (titles->str, "|Read Files|");
  g_assert_null (strstr (titles->str, "read_file"));

  views = find_all (preferences, GTK_TYPE_TEXT_VIEW);
  for (guint i = 0; i < views->len; i++)
    if (gtk_widget_has_css_class (g_ptr_array_index (views, i), "system-prompt"))
      view = g_ptr_array_index (views, i);
  g_assert_nonnull (view);
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (view), "Be brief.\nAnswer in German.", -1);
  prompt = g_settings_get_string (fixture->settings, "system-prompt");
  g_assert_cmpstr (prompt, ==, "Be brief.\nAnswer in German.");
  g_settings_set_string (fixture->settings, "system-prompt", "From elsewhere");
  {
    GtkTextIter start, end;
    g_autofree char *shown = NULL;

    gtk_text_buffer_get_bounds (gtk_text_view_get_buffer (view), &start, &end);
    shown = gtk_text_buffer_get_text (gtk_text_view_get_buffer (view), &start, &end, FALSE);
    g_assert_cmpstr (shown, ==, "From elsewhere");
  }
  g_settings_reset (fixture->settings, "system-prompt");
  gtk_window_destroy (GTK_WINDOW (preferences));
}

/* The toggle says what it does, in the header and the menu; the header
 * holds it at the narrowest width */
static void
test_chunk_toggle (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(GPtrArray) toggles = find_all (GTK_WIDGET (fixture->window), GTK_TYPE_TOGGLE_BUTTON);
  GtkWidget *toggle = NULL;
  graphene_rect_t bounds;
  GtkWidget *header;

  for (guint i = 0; i < toggles->len; i++)
    if (g_strcmp0 (gtk_actionable_get_action_name (g_ptr_array_index (toggles, i)),
                   "win.show-tool-call-chunks") == 0)
      toggle = g_ptr_array_index (toggles, i);
  g_assert_nonnull (toggle);
  g_assert_cmpstr (gtk_widget_get_tooltip_text (toggle), ==, "Show Tool Calls as They Are Written");

  {
    GtkWidget *menu_button = NULL;
    g_autoptr(GPtrArray) buttons = find_all (GTK_WIDGET (fixture->window), GTK_TYPE_MENU_BUTTON);
    GMenuModel *menu;
    gboolean found = FALSE;

    for (guint i = 0; i < buttons->len; i++)
      if (gtk_menu_button_get_primary (g_ptr_array_index (buttons, i)))
        menu_button = g_ptr_array_index (buttons, i);
    g_assert_nonnull (menu_button);
    menu = gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (menu_button));
    for (int i = 0; i < g_menu_model_get_n_items (menu); i++)
      {
        g_autoptr(GMenuModel) section = g_menu_model_get_item_link (menu, i, G_MENU_LINK_SECTION);

        for (int j = 0; section != NULL && j < g_menu_model_get_n_items (section); j++)
          {
            g_autofree char *label = NULL;
            g_autofree char *action = NULL;

            g_menu_model_get_item_attribute (section, j, "label", "s", &label);
            g_menu_model_get_item_attribute (section, j, "action", "s", &action);
            if (g_strcmp0 (action, "win.show-tool-call-chunks") == 0)
              found = g_str_equal (label, "Show Tool Calls as They Are _Written");
          }
      }
    g_assert_true (found);
  }

  /* 360 px: the toggle is there, whole, inside its header */
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 360, 600);
  gtk_window_unmaximize (GTK_WINDOW (fixture->window));
  iterate ();
  agent_test_wait_until ((gboolean (*) (gpointer)) gtk_widget_get_mapped, toggle);
  while (gtk_widget_get_width (GTK_WIDGET (fixture->window)) > 360)
    iterate ();
  header = gtk_widget_get_ancestor (toggle, ADW_TYPE_HEADER_BAR);
  g_assert_true (gtk_widget_compute_bounds (toggle, header, &bounds));
  g_assert_cmpfloat (bounds.size.width, >, 0);
  g_assert_cmpfloat (bounds.origin.x, >=, 0);
  g_assert_cmpfloat (bounds.origin.x + bounds.size.width, <=, gtk_widget_get_width (header));
  g_assert_true (gtk_widget_get_child_visible (toggle));
}

#if AGENT_HAS_STORE && !ADW_CHECK_VERSION (1, 4, 0)
/* The leaflet's widgets of its shadow that are shown */
static guint
shadow_parts_shown (AdwLeaflet *leaflet)
{
  guint shown = 0;

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (leaflet));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      const char *name = gtk_widget_get_css_name (child);

      if (gtk_widget_get_visible (child)
          && (g_str_equal (name, "dimming") || g_str_equal (name, "shadow")
              || g_str_equal (name, "border") || g_str_equal (name, "outline")))
        shown++;
    }
  return shown;
}

static void
wait_for_shadow_hidden (AdwLeaflet *leaflet)
{
  while (shadow_parts_shown (leaflet) > 0)
    g_main_context_iteration (NULL, TRUE);
}

/* What the shadow was when the leaflet folded, unfolded or began a slide */
static void
on_slide (AdwLeaflet *leaflet,
          GParamSpec *pspec,
          guint      *shown)
{
  if (g_str_equal (pspec->name, "folded") || adw_leaflet_get_child_transition_running (leaflet))
    *shown = shadow_parts_shown (leaflet);
}

/* libadwaita 1.2's leaflet (with a store, so with the sidebar): its panes
 * are its first children (its shadow's widgets after them, whose classes
 * it sets at every allocation: before them, the panes were restyled,
 * conversation and all, every frame of a stream); its shadow's widgets are
 * hidden but while a pane slides (their classes, set anew at every
 * allocation, would have the window restyled, so laid out again, a frame
 * later); narrow, it shows the chat, with the sidebar one step back */
static void
test_narrow_panes (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(GPtrArray) leaflets = find_all (GTK_WIDGET (fixture->window), ADW_TYPE_LEAFLET);
  g_autoptr(GtkSelectionModel) pages = NULL;
  AdwLeaflet *leaflet;
  GtkWidget *child;
  GtkWidget *sidebar = NULL;
  GtkWidget *content;
  guint shown_at_slide = G_MAXUINT;

  g_assert_cmpuint (leaflets->len, ==, 1);
  leaflet = g_ptr_array_index (leaflets, 0);
  pages = adw_leaflet_get_pages (leaflet);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (pages)), ==, 3);
  child = gtk_widget_get_first_child (GTK_WIDGET (leaflet));
  for (guint i = 0; i < 3; i++, child = gtk_widget_get_next_sibling (child))
    {
      g_autoptr(AdwLeafletPage) page = g_list_model_get_item (G_LIST_MODEL (pages), i);

      g_assert_true (child == adw_leaflet_page_get_child (page));
      if (i == 0)
        sidebar = child;
    }
  content = adw_leaflet_get_visible_child (leaflet);
  g_assert_true (content != sidebar);
  /* Wide (an earlier test may have left the window narrow) */
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 1000, 600);
  while (adw_leaflet_get_folded (leaflet))
    iterate ();
  wait_for_shadow_hidden (leaflet);
  g_signal_connect (leaflet, "notify::folded", G_CALLBACK (on_slide), &shown_at_slide);
  g_signal_connect (leaflet, "notify::child-transition-running", G_CALLBACK (on_slide),
                    &shown_at_slide);

  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 360, 600);
  gtk_window_unmaximize (GTK_WINDOW (fixture->window));
  /* The chat at its narrowest is a little wider than 360 px: the window
   * stops there, folded; the sidebar slides away over its shadow */
  while (!adw_leaflet_get_folded (leaflet))
    iterate ();
  g_assert_cmpuint (shown_at_slide, ==, 4);
  wait_for_shadow_hidden (leaflet);
  g_assert_true (adw_leaflet_get_visible_child (leaflet) == content);
  shown_at_slide = G_MAXUINT;
  g_assert_true (adw_leaflet_navigate (leaflet, ADW_NAVIGATION_DIRECTION_BACK));
  g_assert_true (adw_leaflet_get_visible_child (leaflet) == sidebar);
  g_assert_true (shown_at_slide == 4 || shown_at_slide == G_MAXUINT);  /* (animations off) */
  wait_for_shadow_hidden (leaflet);
  g_assert_false (adw_leaflet_get_child_transition_running (leaflet));

  /* Wide again, both panes */
  shown_at_slide = G_MAXUINT;
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 1000, 600);
  while (adw_leaflet_get_folded (leaflet))
    iterate ();
  g_assert_cmpuint (shown_at_slide, ==, 4);
  wait_for_shadow_hidden (leaflet);
  g_signal_handlers_disconnect_by_func (leaflet, on_slide, &shown_at_slide);
  g_assert_true (gtk_widget_get_child_visible (content));
  g_assert_true (gtk_widget_get_child_visible (sidebar));
}
#endif

#if AGENT_HAS_STORE
/* Snippets: plain text, on one line, from a little before the match */
static void
test_snippet (void)
{
  static const struct { const char *snippet; const char *expected; } cases[] = {
    { "Use the <b>calculator</b>", "Use the <b>calculator</b>" },
    { "**Bold** and `code` with <b>match</b>", "Bold and code with <b>match</b>" },
    { "# Title\n\n> quoted <b>word</b>", "Title quoted <b>word</b>" },
    { "see [the docs](https://example.com/x) for <b>more</b>", "see the docs for <b>more</b>" },
    { "read_file &amp; snake_case <b>x</b>", "read_file &amp; snake_case <b>x</b>" },
    { "…one two three four five six seven eight nine ten eleven <b>twelve</b> end",
      "…eight nine ten eleven <b>twelve</b> end" },
    { "no match here", "no match here" },
    { "", "" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *markup = agent_chat_snippet_to_markup (cases[i].snippet, 24);

      g_assert_cmpstr (markup, ==, cases[i].expected);
      g_assert_true (pango_parse_markup (markup, -1, 0, NULL, NULL, NULL, NULL));
    }
}

static void
chat (Fixture    *fixture,
      const char *prompt,
      const char *answer)
{
  const char *deltas[] = { answer, NULL };

  agent_test_openai_add_text_response (fixture->server, deltas, 1, 1);
  agent_chat_window_send (fixture->window, prompt);
  agent_test_wait_until (session_idle, agent_chat_window_get_session (fixture->window));
  iterate ();
}

static AgentMemory *
memory_of (Fixture *fixture)
{
  return agent_session_get_memory (agent_chat_window_get_session (fixture->window));
}

/* Undo after deleting the chat shown opens it again */
static void
test_undo_reopens (Fixture       *fixture,
                   gconstpointer  data)
{
  AgentChatSidebar *sidebar = AGENT_CHAT_SIDEBAR (agent_chat_window_get_sidebar (fixture->window));
  g_autoptr(AgentConversation) deleted = NULL;
  GtkWidget *undo;

  chat (fixture, "Keep me", "Kept.");
  deleted = g_object_ref (AGENT_CONVERSATION (memory_of (fixture)));
  g_assert_true (agent_chat_sidebar_delete (sidebar, deleted));
  iterate ();
  g_assert_true (memory_of (fixture) != AGENT_MEMORY (deleted));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (memory_of (fixture))), ==, 0);

  undo = find_button (GTK_WIDGET (fixture->window), "_Undo");
  g_assert_nonnull (undo);
  g_signal_emit_by_name (undo, "clicked");
  iterate ();
  g_assert_true (memory_of (fixture) == AGENT_MEMORY (deleted));
  g_assert_true (agent_chat_sidebar_get_conversation (sidebar) == deleted);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (memory_of (fixture))), ==, 2);
}
#endif

/* Answers rendered whole */

static const char rich[] =
  "| Name | Value |\n"
  "|:-----|------:|\n"
  "| a | 1 |\n"
  "| **b** | 2 |\n"
  "\n"
  "> quoted text\n"
  "\n"
  "- [ ] todo\n"
  "- [x] done\n"
  "\n"
  "Inline $x^2 + \\alpha$ and\n"
  "\n"
  "$$\\frac{a+b}{2} \\leq \\sqrt{y_i}$$\n"
  "\n"
  "```python\n"
  "def f():\n"
  "    return 1\n"
  "```\n";

static char *
attributes_text (GtkLabel *label)
{
  PangoAttrList *attributes = gtk_label_get_attributes (label);

  return attributes ? pango_attr_list_to_string (attributes) : g_strdup ("");
}

/* The monospace labels of @widget */
static GPtrArray *
code_labels (GtkWidget *widget)
{
  g_autoptr(GPtrArray) labels = find_all (widget, GTK_TYPE_LABEL);
  GPtrArray *code = g_ptr_array_new ();

  for (guint i = 0; i < labels->len; i++)
    if (gtk_widget_has_css_class (g_ptr_array_index (labels, i), "monospace"))
      g_ptr_array_add (code, g_ptr_array_index (labels, i));
  return code;
}

static void
test_markdown_rich (void)
{
  GtkWidget *markdown = agent_gtk_markdown_view_new ();
  GtkWidget *window = show_in_window (markdown);
  g_autoptr(GPtrArray) grids = NULL;
  g_autoptr(GPtrArray) cells = NULL;
  g_autofree char *text = NULL;
  g_autofree char *light = NULL;
  g_autofree char *dark = NULL;
  g_autoptr(GPtrArray) codes = NULL;
  GtkLabel *quote;
  GtkLabel *code;

  agent_gtk_markdown_view_set_text (AGENT_GTK_MARKDOWN_VIEW (markdown), rich);
  iterate ();
  text = shown_text (markdown);

  /* A table: a grid, its header apart, scrolled sideways if need be */
  grids = find_all (markdown, GTK_TYPE_GRID);
  g_assert_cmpuint (grids->len, ==, 1);
  cells = find_all (g_ptr_array_index (grids, 0), GTK_TYPE_LABEL);
  g_assert_cmpuint (cells->len, ==, 6);
  g_assert_true (gtk_widget_has_css_class (g_ptr_array_index (cells, 0), "heading"));
  g_assert_cmpstr (gtk_label_get_text (gtk_grid_get_child_at (g_ptr_array_index (grids, 0), 0, 2)
                                       ? GTK_LABEL (gtk_grid_get_child_at (g_ptr_array_index (grids, 0), 0, 2))
                                       : NULL), ==, "b");
  g_assert_cmpfloat (gtk_label_get_xalign (GTK_LABEL (gtk_grid_get_child_at (
                       g_ptr_array_index (grids, 0), 1, 1))), ==, 1.0);
  g_assert_true (GTK_IS_SCROLLED_WINDOW (gtk_widget_get_ancestor (g_ptr_array_index (grids, 0),
                                                                  GTK_TYPE_SCROLLED_WINDOW)));

  /* A quote, with its bar */
  quote = GTK_LABEL (find_with_class (markdown, GTK_TYPE_LABEL, "blockquote"));
  g_assert_nonnull (quote);
  g_assert_cmpstr (gtk_label_get_text (quote), ==, "quoted text");

  /* Tasks with their boxes; math as text */
  agent_test_assert_contains (text, "☐  todo");
  agent_test_assert_contains (text, "☑  done");
  agent_test_assert_contains (text, "x² + α");
  agent_test_assert_contains (text, "(a+b)/2 ≤ √yᵢ");
  g_assert_null (strstr (text, "\\frac"));

  /* Code, highlighted as Python, in the colours of the style */
  codes = code_labels (markdown);
  g_assert_cmpuint (codes->len, ==, 1);
  code = g_ptr_array_index (codes, 0);
  g_assert_cmpstr (_agent_gtk_code_get_language (gtk_widget_get_parent (GTK_WIDGET (code))), ==, "python3");
  light = attributes_text (code);
  agent_test_assert_contains (light, "foreground");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                      ADW_COLOR_SCHEME_FORCE_DARK);
  iterate ();
  dark = attributes_text (code);
  agent_test_assert_contains (dark, "foreground");
  g_assert_cmpstr (light, !=, dark);
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                      ADW_COLOR_SCHEME_DEFAULT);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* The clipboard's text, read (asynchronously, as a paste reads it) */
typedef struct
{
  GdkClipboard *clipboard;
  gboolean      asked;
  gboolean      done;
  char         *text;
} ClipboardText;

static void
on_clipboard_text (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  ClipboardText *copied = user_data;

  copied->text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (object), result, NULL);
  copied->done = TRUE;
}

static gboolean
clipboard_read (gpointer data)
{
  ClipboardText *copied = data;

  /* Under X11 the copy can land after the first read: read until it has */
  if (copied->done && copied->text == NULL)
    copied->asked = copied->done = FALSE;
  if (!copied->asked)
    {
      copied->asked = TRUE;
      gdk_clipboard_read_text_async (copied->clipboard, NULL, on_clipboard_text, copied);
    }
  return copied->done;
}

/* A wide table and a long line of code scroll: they never widen the window;
 * a long code block keeps its Copy, with all its lines. A long paragraph,
 * and a word longer than the view, wrap: their labels' minimum (a few
 * characters, agent-gtk-private.h) keeps the view narrow. */
static void
test_markdown_wide (void)
{
  GtkWidget *markdown = agent_gtk_markdown_view_new ();
  GtkWidget *window = show_in_window (markdown);
  g_autoptr(GString) source = g_string_new ("| ");
  g_autoptr(GString) code = g_string_new (NULL);
  g_autoptr(GPtrArray) buttons = NULL;
  ClipboardText copied = { NULL, };
  int minimum, natural;

  for (guint i = 0; i < 30; i++)
    g_string_append_printf (source, "Column%u | ", i);
  g_string_append (source, "\n|");
  for (guint i = 0; i < 30; i++)
    g_string_append (source, "---|");
  g_string_append (source, "\n\n```c\n");
  for (guint i = 0; i < 200; i++)
    g_string_append_printf (code, "int line_%u = %u; /* a comment that goes on and on and on */\n",
                            i, i);
  g_string_append (source, code->str);
  g_string_append (source, "```\n\n");
  for (guint i = 0; i < 2000; i++)
    g_string_append_printf (source, "word%u ", i);
  g_string_append (source, "\n\nhttps://example.com/");
  for (guint i = 0; i < 300; i++)
    g_string_append_c (source, 'a' + i % 26);
  g_string_append (source, "\n");
  agent_gtk_markdown_view_set_text (AGENT_GTK_MARKDOWN_VIEW (markdown), source->str);
  iterate ();

  gtk_widget_measure (markdown, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &natural, NULL, NULL);
  g_assert_cmpint (minimum, <=, 300);
  g_assert_cmpint (gtk_widget_get_width (window), <=, 400);

  buttons = find_all (markdown, GTK_TYPE_BUTTON);
  g_assert_cmpuint (buttons->len, ==, 1);
  g_assert_cmpstr (gtk_widget_get_tooltip_text (g_ptr_array_index (buttons, 0)), ==, "Copy Code");
  /* Copy Code copies the code, as the fence holds it */
  g_string_truncate (code, code->len - 1);
  gtk_widget_activate (g_ptr_array_index (buttons, 0));
  copied.clipboard = gtk_widget_get_clipboard (markdown);
  agent_test_wait_until (clipboard_read, &copied);
  g_assert_cmpstr (copied.text, ==, code->str);
  g_free (copied.text);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Their texts, a line each */
static char *
code_text (GPtrArray *labels)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < labels->len; i++)
    g_string_append_printf (text, "%s%s", i > 0 ? "\n" : "",
                            gtk_label_get_text (g_ptr_array_index (labels, i)));
  return g_string_free (text, FALSE);
}

/* A code block that streams is shown in pieces of lines: the lines that
 * came before are not set (and laid out) again with each new one; all of
 * it highlighted. Once its fence closes, it is one label again, so that a
 * selection can take any part of it; unless it is long: 600 lines are
 * three labels (Pango's work on one label grows faster than its lines). */
static void
test_markdown_code_streams (void)
{
  GtkWidget *markdown = agent_gtk_markdown_view_new ();
  GtkWidget *window = show_in_window (markdown);
  g_autoptr(GString) source = g_string_new ("Some C:\n\n```c\n");
  g_autoptr(GString) code = g_string_new (NULL);
  g_autoptr(GPtrArray) labels = NULL;
  g_autofree char *shown = NULL;
  g_autofree char *attributes = NULL;
  GtkWidget *first = NULL;
  guint first_changes = 0;

  /* The language read before: highlighted as it streams */
  agent_gtk_markdown_view_set_text (AGENT_GTK_MARKDOWN_VIEW (markdown), "```c\nint x;\n```\n");
  iterate ();
  for (guint i = 0; i < 100; i++)
    {
      g_autofree char *line = g_strdup_printf ("int line_%u = %u; /* a comment */\n", i, i);

      g_string_append (source, line);
      g_string_append (code, line);
      agent_gtk_markdown_view_set_text (AGENT_GTK_MARKDOWN_VIEW (markdown), source->str);
      if (i == 40)
        {
          g_clear_pointer (&labels, g_ptr_array_unref);
          labels = code_labels (markdown);
          first = g_ptr_array_index (labels, 0);
          g_signal_connect (first, "notify::label", G_CALLBACK (agent_test_count_notify), &first_changes);
        }
    }
  iterate ();

  g_clear_pointer (&labels, g_ptr_array_unref);
  labels = code_labels (markdown);
  g_assert_cmpuint (labels->len, >, 1);
  g_assert_true (g_ptr_array_index (labels, 0) == first);
  g_assert_cmpuint (first_changes, ==, 0);
  shown = code_text (labels);
  /* The code, without its last line's end (md4c's block) */
  g_string_truncate (code, code->len - 1);
  g_assert_cmpstr (shown, ==, code->str);
  attributes = attributes_text (g_ptr_array_index (labels, labels->len - 1));
  agent_test_assert_contains (attributes, "foreground");

  /* Closed: one label, all of it, highlighted to its end */
  g_string_append (source, "```\n\nAfter.\n");
  agent_gtk_markdown_view_set_text (AGENT_GTK_MARKDOWN_VIEW (markdown), source->str);
  iterate ();
  g_clear_pointer (&labels, g_ptr_array_unref);
  labels = code_labels (markdown);
  g_assert_cmpuint (labels->len, ==, 1);
  g_assert_cmpstr (gtk_label_get_text (g_ptr_array_index (labels, 0)), ==, code->str);
  {
    PangoAttrList *list = gtk_label_get_attributes (g_ptr_array_index (labels, 0));
    g_autoptr(GSList) all = list ? pango_attr_list_get_attributes (list) : NULL;
    guint last_end = 0;

    for (GSList *l = all; l != NULL; l = l->next)
      last_end = MAX (last_end, ((PangoAttribute *) l->data)->end_index);
    g_slist_free_full (g_steal_pointer (&all), (GDestroyNotify) pango_attribute_destroy);
    /* The colours go on into the last line */
    g_assert_cmpuint (last_end, >, code->len - strlen ("/* a comment */"));
  }

  /* Long, whole at once */
  g_string_assign (source, "```c\n");
  g_string_truncate (code, 0);
  for (guint i = 0; i < 600; i++)
    g_string_append_printf (code, "%sint line_%u = %u;", i > 0 ? "\n" : "", i, i);
  g_string_append_printf (source, "%s\n```\n", code->str);
  agent_gtk_markdown_view_set_text (AGENT_GTK_MARKDOWN_VIEW (markdown), source->str);
  iterate ();
  g_clear_pointer (&labels, g_ptr_array_unref);
  labels = code_labels (markdown);
  g_assert_cmpuint (labels->len, ==, 3);
  g_clear_pointer (&shown, g_free);
  shown = code_text (labels);
  g_assert_cmpstr (shown, ==, code->str);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* A language seen for the first time is read at idle, not in the frame
 * that shows its first block: the block shows its code at once, plain,
 * and highlighted once the loop is idle. The language then stays loaded:
 * the next block in it, even after the first is gone, is highlighted at
 * once. */
static void
test_markdown_language_at_idle (void)
{
  static const char source[] = "Some Ruby:\n\n```ruby\nputs \"hello\" # greet\n```\n";
  GtkWidget *markdown = agent_gtk_markdown_view_new ();
  GtkWidget *window = show_in_window (markdown);
  GtkLabel *code;

  iterate ();
  agent_gtk_markdown_view_set_text (AGENT_GTK_MARKDOWN_VIEW (markdown), source);
  code = GTK_LABEL (find_with_class (markdown, GTK_TYPE_LABEL, "monospace"));
  g_assert_nonnull (code);
  g_assert_cmpstr (gtk_label_get_text (code), ==, "puts \"hello\" # greet");
  g_assert_null (_agent_gtk_code_get_language (gtk_widget_get_parent (GTK_WIDGET (code))));
  g_assert_null (gtk_label_get_attributes (code));

  iterate ();
  code = GTK_LABEL (find_with_class (markdown, GTK_TYPE_LABEL, "monospace"));
  g_assert_cmpstr (_agent_gtk_code_get_language (gtk_widget_get_parent (GTK_WIDGET (code))), ==, "ruby");
  g_assert_nonnull (gtk_label_get_attributes (code));
  gtk_window_destroy (GTK_WINDOW (window));
  iterate ();

  markdown = agent_gtk_markdown_view_new ();
  window = show_in_window (markdown);
  agent_gtk_markdown_view_set_text (AGENT_GTK_MARKDOWN_VIEW (markdown), source);
  code = GTK_LABEL (find_with_class (markdown, GTK_TYPE_LABEL, "monospace"));
  g_assert_cmpstr (_agent_gtk_code_get_language (gtk_widget_get_parent (GTK_WIDGET (code))), ==, "ruby");
  g_assert_nonnull (gtk_label_get_attributes (code));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* What the math becomes */
static void
test_latex (void)
{
  static const struct { const char *latex; const char *text; } cases[] = {
    { "x^2", "x²" },
    { "a_{n+1}", "aₙ₊₁" },
    { "e^{i\\pi} + 1 = 0", "e^iπ + 1 = 0" },
    { "\\frac{1}{2}", "1/2" },
    { "\\sum_{k=1}^{n} k", "∑ₖ₌₁ⁿ k" },
    { "\\text{speed} = \\frac{d}{t}", "speed = d/t" },
    { "\\vec{v}", "v\xe2\x83\x97" },
    { "x^{\\alpha}", "x^α" },
    { "\\unknown", "unknown" },
    { "", "" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = _agent_gtk_latex_to_text (cases[i].latex);

      g_assert_cmpstr (text, ==, cases[i].text);
    }
}

int
main (int   argc,
      char *argv[])
{
  char *data_home = agent_test_gui_init (&argc, &argv);

  g_test_add ("/gui/polish/placeholder", Fixture, NULL,
              fixture_set_up, test_placeholder, fixture_tear_down);
  g_test_add_func ("/gui/polish/actions-on-focus", test_actions_on_focus);
  g_test_add_func ("/gui/markdown/rich", test_markdown_rich);
  g_test_add_func ("/gui/markdown/wide", test_markdown_wide);
  g_test_add_func ("/gui/markdown/language-at-idle", test_markdown_language_at_idle);
  g_test_add_func ("/gui/markdown/code-streams", test_markdown_code_streams);
  g_test_add_func ("/gui/markdown/latex", test_latex);
  g_test_add ("/gui/polish/preferences-names", Fixture, NULL,
              fixture_set_up, test_preferences_names, fixture_tear_down);
  g_test_add ("/gui/polish/chunk-toggle", Fixture, NULL,
              fixture_set_up, test_chunk_toggle, fixture_tear_down);
#if AGENT_HAS_STORE && !ADW_CHECK_VERSION (1, 4, 0)
  g_test_add ("/gui/polish/narrow-panes", Fixture, NULL,
              store_fixture_set_up, test_narrow_panes, fixture_tear_down);
#endif
#if AGENT_HAS_STORE
  g_test_add_func ("/gui/polish/snippet", test_snippet);
  g_test_add ("/gui/polish/undo-reopens", Fixture, NULL,
              store_fixture_set_up, test_undo_reopens, fixture_tear_down);
#endif

  return agent_test_gui_run (data_home);
}
