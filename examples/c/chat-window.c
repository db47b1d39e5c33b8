/* chat-window.c — the smallest embedding of libagent-gtk: a host
 * application's window with its own text (here, a note in a text view) and,
 * beside it, a chat about that text. The chat streams, shows tool calls and
 * Markdown, and has Stop; the host only makes the session and tells the
 * model about its text before each turn.
 *
 *   chat-window [--provider NAME] [--base-url URL] [--model NAME] [PROMPT]
 *
 * The key comes from the provider's usual environment variable
 * (OPENAI_API_KEY…). PROMPT, if given, is sent at once.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <agent-gtk.h>

static const char note[] =
  "Shopping list: 3 apples at 0.40 each, 2 loaves of bread at 2.10 each, "
  "1 jar of honey at 4.50.";

static char *provider_name;
static char *base_url;
static char *model;
static char *prompt;

/* Before each turn: the model is told about the host's text, as it is now */
static gboolean
on_prepare_turn (AgentGtkChatView *view,
                 GtkTextBuffer    *buffer)
{
  g_autofree char *text = NULL;
  g_autofree char *system = NULL;
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  text = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  system = g_strdup_printf ("The user is editing this note:\n\n%s", text);
  agent_session_set_system_prompt (agent_gtk_chat_view_get_session (view), system);
  return FALSE;  /* the turn may start */
}

static void
on_activate (GtkApplication *app)
{
  g_autoptr(AgentProvider) provider = NULL;
  g_autoptr(AgentSession) session = NULL;
  g_autoptr(AgentTool) calculator = NULL;
  g_autoptr(GError) error = NULL;
  GtkWidget *window, *paned, *editor, *chat, *view, *composer;
  const char *variable;

  /* The session: the host's choice of provider, key and tools */
  provider = agent_provider_new (provider_name ? provider_name : "openai", &error);
  if (provider == NULL)
    {
      g_printerr ("%s\n", error->message);
      return;
    }
  if (base_url != NULL)
    agent_provider_set_base_url (provider, base_url);
  if (model != NULL)
    agent_provider_set_model (provider, model);
  variable = agent_provider_get_api_key_variable (provider);
  if (variable != NULL && g_getenv (variable) != NULL)
    agent_provider_set_api_key (provider, g_getenv (variable));
  session = agent_session_new (provider);
  calculator = agent_calculator_tool_new ();
  agent_session_add_tool (session, calculator);

  /* The host's own text */
  editor = gtk_text_view_new ();
  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (editor), GTK_WRAP_WORD_CHAR);
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (editor)), note, -1);

  /* The chat: the conversation and, under it, the composer with Stop */
  view = agent_gtk_chat_view_new ();
  composer = agent_gtk_composer_new ();
  gtk_widget_set_vexpand (view, TRUE);
  agent_gtk_chat_view_set_session (AGENT_GTK_CHAT_VIEW (view), session);
  agent_gtk_chat_view_set_composer (AGENT_GTK_CHAT_VIEW (view), AGENT_GTK_COMPOSER (composer));
  g_signal_connect (view, "prepare-turn", G_CALLBACK (on_prepare_turn),
                    gtk_text_view_get_buffer (GTK_TEXT_VIEW (editor)));
  chat = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_box_append (GTK_BOX (chat), view);
  gtk_box_append (GTK_BOX (chat), composer);

  paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  gtk_paned_set_start_child (GTK_PANED (paned), editor);
  gtk_paned_set_end_child (GTK_PANED (paned), chat);
  gtk_paned_set_position (GTK_PANED (paned), 280);
  window = gtk_application_window_new (app);
  gtk_window_set_title (GTK_WINDOW (window), "Note with a Chat");
  gtk_window_set_default_size (GTK_WINDOW (window), 760, 520);
  gtk_window_set_child (GTK_WINDOW (window), paned);
  gtk_window_present (GTK_WINDOW (window));

  if (prompt != NULL)
    agent_gtk_chat_view_send (AGENT_GTK_CHAT_VIEW (view), prompt);
  else
    gtk_widget_grab_focus (composer);
}

int
main (int   argc,
      char *argv[])
{
  const GOptionEntry entries[] = {
    { "provider", 0, 0, G_OPTION_ARG_STRING, &provider_name, "openai (default), anthropic…",
      "NAME" },
    { "base-url", 0, 0, G_OPTION_ARG_STRING, &base_url, "The server, if not the provider's own",
      "URL" },
    { "model", 0, 0, G_OPTION_ARG_STRING, &model, "The model to ask", "NAME" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("[PROMPT]");
  g_autoptr(GtkApplication) app = NULL;
  g_autoptr(GError) error = NULL;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  prompt = argc > 1 ? argv[1] : NULL;

  app = gtk_application_new ("io.github.libagent.examples.ChatWindow",
                             G_APPLICATION_NON_UNIQUE);
  g_signal_connect (app, "activate", G_CALLBACK (on_activate), NULL);
  return g_application_run (G_APPLICATION (app), 1, argv);
}
