/* weather.c — a model that can call a get_weather tool, its answer streamed
 * to standard output
 *
 *   weather [--provider NAME] [--base-url URL] [--model NAME] [PROMPT]
 *
 * The API key comes from the provider's usual environment variable
 * (OPENAI_API_KEY, ANTHROPIC_API_KEY, …). Ctrl-C cancels the turn.
 *
 * Build it against an installed libagent with
 *
 *   cc weather.c -o weather $(pkg-config --cflags --libs libagent-1)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <glib-unix.h>
#include <stdio.h>

#include <agent.h>

static const char weather_schema[] =
  "{"
  "  \"type\": \"object\","
  "  \"properties\": {"
  "    \"city\": { \"type\": \"string\", \"description\": \"The city, e.g. Seoul\" }"
  "  },"
  "  \"required\": [\"city\"]"
  "}";

typedef struct
{
  GMainLoop    *loop;
  GCancellable *cancellable;
  int           status;
} Example;

/* The tool: a real one would ask a weather service, from a thread or with
 * an async call, and complete the invocation later. This one makes the
 * forecast up and answers at once. */
static gboolean
get_weather (AgentTool           *tool,
             AgentToolInvocation *invocation,
             gpointer             user_data,
             GError             **error)
{
  JsonObject *arguments = json_node_get_object (agent_tool_invocation_get_arguments (invocation));
  const char *city = json_object_get_string_member_with_default (arguments, "city", "");
  g_autofree char *forecast = NULL;

  if (city[0] == '\0')
    {
      agent_tool_invocation_return_error_literal (invocation, "Which city?");
      return TRUE;
    }

  forecast = g_strdup_printf ("Sunny, 21 °C in %s (a made-up forecast)", city);
  agent_tool_invocation_return_result (invocation, forecast);

  return TRUE;
}

static void
on_text_delta (AgentSession *session,
               AgentMessage *message,
               const char   *delta,
               gpointer      user_data)
{
  fputs (delta, stdout);
  fflush (stdout);
}

static void
on_tool_started (AgentSession  *session,
                 AgentToolCall *call,
                 gpointer       user_data)
{
  g_printerr ("[%s %s]\n", agent_tool_call_get_name (call), agent_tool_call_get_arguments (call));
}

static void
on_done (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  Example *example = user_data;
  g_autoptr(AgentMessage) message = NULL;
  g_autoptr(GError) error = NULL;

  message = agent_session_send_finish (AGENT_SESSION (source), result, &error);
  if (message != NULL)
    g_print ("\n");
  else
    {
      g_printerr ("\nerror: %s\n", error->message);
      example->status = 1;
    }

  g_main_loop_quit (example->loop);
}

static gboolean
on_sigint (gpointer user_data)
{
  Example *example = user_data;

  g_cancellable_cancel (example->cancellable);
  return G_SOURCE_CONTINUE;
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *provider_name = NULL;
  g_autofree char *base_url = NULL;
  g_autofree char *model = NULL;
  const GOptionEntry entries[] = {
    { "provider", 0, 0, G_OPTION_ARG_STRING, &provider_name,
      "openai (default), openai-responses, anthropic, ollama or gemini", "NAME" },
    { "base-url", 0, 0, G_OPTION_ARG_STRING, &base_url,
      "The server, if not the provider's own", "URL" },
    { "model", 0, 0, G_OPTION_ARG_STRING, &model,
      "The model to ask", "NAME" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("[PROMPT]");
  g_autoptr(AgentProvider) provider = NULL;
  g_autoptr(AgentSession) session = NULL;
  g_autoptr(AgentTool) weather = NULL;
  g_autoptr(AgentTool) calculator = NULL;
  g_autoptr(JsonNode) schema = NULL;
  g_autoptr(GError) error = NULL;
  const char *variable;
  const char *prompt;
  Example example = { 0 };
  guint sigint;

  g_option_context_set_summary (context, "Asks a model that can call a get_weather tool.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  prompt = argc > 1 ? argv[1] : "What is the weather in Seoul?";

  provider = agent_provider_new (provider_name != NULL ? provider_name : "openai", &error);
  if (provider == NULL)
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  if (base_url != NULL)
    agent_provider_set_base_url (provider, base_url);
  if (model != NULL)
    agent_provider_set_model (provider, model);
  variable = agent_provider_get_api_key_variable (provider);
  if (variable != NULL && g_getenv (variable) != NULL)
    agent_provider_set_api_key (provider, g_getenv (variable));

  schema = json_from_string (weather_schema, &error);
  g_assert_no_error (error);

  session = agent_session_new (provider);
  weather = agent_tool_new ("get_weather", "Tells the weather in a city",
                            schema, get_weather, NULL, NULL);
  calculator = agent_calculator_tool_new ();
  agent_session_add_tool (session, weather);
  agent_session_add_tool (session, calculator);
  g_signal_connect (session, "text-delta", G_CALLBACK (on_text_delta), NULL);
  g_signal_connect (session, "tool-started", G_CALLBACK (on_tool_started), NULL);

  example.loop = g_main_loop_new (NULL, FALSE);
  example.cancellable = g_cancellable_new ();
  sigint = g_unix_signal_add (SIGINT, on_sigint, &example);

  agent_session_send_async (session, prompt, example.cancellable, on_done, &example);
  g_main_loop_run (example.loop);

  g_source_remove (sigint);
  g_main_loop_unref (example.loop);
  g_object_unref (example.cancellable);

  return example.status;
}
