/* test-web-search.c — web_search against loopback SearXNG-, Brave- and
 * Tavily-shaped servers, the backends by name, and both web tools through
 * a session's turn
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>
#include <libsoup/soup.h>

#include "agent-test-openai.h"
#include "agent-test-server.h"
#include "agent-test-tavily.h"
#include "agent-test-turn.h"
#include "agent-test-util.h"

#define KEY "brave-key-0123456789abcdef"
#define TAVILY_KEY "tvly-test-key-5f3e2d1c0b9a"

typedef struct
{
  SoupServer *server;
  char       *base;
  guint       n_requests;
  char       *last_query;
  char       *last_count;
  char       *last_key;
} Search;

static const char searxng_answer[] =
  "{\"query\": \"gnome\", \"results\": ["
  "{\"title\": \"GNOME\", \"url\": \"https://www.gnome.org/\", "
  "\"content\": \"The <b>GNOME</b> desktop &amp; more\"},"
  "{\"title\": \"No URL\"},"
  "{\"title\": 7, \"url\": \"https://example.org/odd\", \"content\": null},"
  "{\"title\": \"Third\", \"url\": \"https://example.org/3\", \"content\": \"three\"}]}";

static const char brave_answer[] =
  "{\"type\": \"search\", \"web\": {\"type\": \"search\", \"results\": ["
  "{\"title\": \"Brave one\", \"url\": \"https://one.example/\", "
  "\"description\": \"The <strong>first</strong> result\"},"
  "{\"title\": \"Brave two\", \"url\": \"https://two.example/\", \"description\": \"second\"}]}}";

static void
handle (SoupServer        *server,
        SoupServerMessage *message,
        const char        *path,
        GHashTable        *query,
        gpointer           user_data)
{
  Search *search = user_data;
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (message);
  const char *q = query != NULL ? g_hash_table_lookup (query, "q") : NULL;

  search->n_requests++;
  g_free (search->last_query);
  search->last_query = g_strdup (q);

  if (g_str_equal (path, "/searx/search"))
    {
      if (g_strcmp0 (g_hash_table_lookup (query, "format"), "json") != 0)
        soup_server_message_set_status (message, 403, NULL);
      else
        {
          soup_server_message_set_status (message, 200, NULL);
          soup_server_message_set_response (message, "application/json", SOUP_MEMORY_STATIC,
                                            searxng_answer, strlen (searxng_answer));
        }
    }
  else if (g_str_equal (path, "/res/v1/web/search"))
    {
      const char *key = soup_message_headers_get_one (headers, "X-Subscription-Token");

      g_free (search->last_count);
      search->last_count = g_strdup (g_hash_table_lookup (query, "count"));
      g_free (search->last_key);
      search->last_key = g_strdup (key);
      if (g_strcmp0 (key, KEY) != 0)
        {
          soup_server_message_set_status (message, 401, NULL);
          soup_server_message_set_response (message, "application/json", SOUP_MEMORY_COPY,
                                            "{\"error\": \"bad token " KEY "\"}", 40);
        }
      else
        {
          soup_server_message_set_status (message, 200, NULL);
          soup_server_message_set_response (message, "application/json", SOUP_MEMORY_STATIC,
                                            brave_answer, strlen (brave_answer));
        }
    }
  else if (g_str_equal (path, "/broken/search"))
    {
      soup_server_message_set_status (message, 200, NULL);
      soup_server_message_set_response (message, "text/html", SOUP_MEMORY_STATIC,
                                        "<html>nope", 10);
    }
  else if (g_str_equal (path, "/page"))
    {
      soup_server_message_set_status (message, 200, NULL);
      soup_server_message_set_response (message, "text/html", SOUP_MEMORY_STATIC,
                                        "<p>Fetched words</p>", 20);
    }
  else
    soup_server_message_set_status (message, 404, NULL);
}

static Search *
search_new (void)
{
  Search *search = g_new0 (Search, 1);
  g_autoptr(GError) error = NULL;
  GSList *uris;

  search->server = soup_server_new (NULL, NULL);
  soup_server_add_handler (search->server, NULL, handle, search, NULL);
  soup_server_listen_local (search->server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error);
  g_assert_no_error (error);
  uris = soup_server_get_uris (search->server);
  search->base = g_strdup_printf ("http://127.0.0.1:%u", g_uri_get_port (uris->data));
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);

  return search;
}

static void
search_free (Search *search)
{
  soup_server_disconnect (search->server);
  g_object_unref (search->server);
  g_free (search->base);
  g_free (search->last_query);
  g_free (search->last_count);
  g_free (search->last_key);
  g_free (search);
}

static char *
run_tool (AgentTool  *tool,
          const char *arguments,
          gboolean   *is_error)
{
  return agent_test_invoke_tool (tool, arguments, NULL, is_error);
}

static JsonArray *
parse_results (const char *text,
               JsonNode  **root)
{
  g_autoptr(GError) error = NULL;

  *root = json_from_string (text, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_ARRAY (*root));
  return json_node_get_array (*root);
}

static void
test_searxng (void)
{
  Search *search = search_new ();
  g_autofree char *base = g_strconcat (search->base, "/searx/", NULL);
  g_autoptr(AgentSearchBackend) backend = agent_search_backend_new_searxng (base, NULL);
  g_autoptr(AgentTool) tool = agent_web_search_tool_new (backend);
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *result = NULL;
  gboolean is_error = TRUE;
  JsonArray *results;
  JsonObject *first;

  g_assert_cmpstr (agent_search_backend_get_name (backend), ==, "SearXNG");
  g_assert_cmpstr (agent_tool_get_name (tool), ==, "web_search");
  g_assert_true (agent_tool_get_requires_approval (tool));

  result = run_tool (tool, "{\"query\": \"gnome & gtk\", \"count\": 2}", &is_error);
  g_assert_false (is_error);
  g_assert_cmpstr (search->last_query, ==, "gnome & gtk");

  /* the result without a URL is skipped; the count is kept */
  results = parse_results (result, &root);
  g_assert_cmpuint (json_array_get_length (results), ==, 2);
  first = json_array_get_object_element (results, 0);
  g_assert_cmpstr (json_object_get_string_member (first, "title"), ==, "GNOME");
  g_assert_cmpstr (json_object_get_string_member (first, "url"), ==, "https://www.gnome.org/");
  g_assert_cmpstr (json_object_get_string_member (first, "snippet"), ==,
                   "The **GNOME** desktop & more");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (results, 1),
                                                  "url"),
                   ==, "https://example.org/odd");

  search_free (search);
}

static void
test_brave (void)
{
  Search *search = search_new ();
  g_autofree char *url = g_strconcat (search->base, "/res/v1/web/search", NULL);
  g_autoptr(AgentSearchBackend) backend = agent_search_backend_new_brave (KEY, url, NULL);
  g_autoptr(AgentTool) tool = agent_web_search_tool_new (backend);
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *result = NULL;
  gboolean is_error = TRUE;
  JsonArray *results;

  result = run_tool (tool, "{\"query\": \"libsoup\"}", &is_error);
  g_assert_false (is_error);
  g_assert_cmpstr (search->last_query, ==, "libsoup");
  g_assert_cmpstr (search->last_key, ==, KEY);
  g_assert_cmpstr (search->last_count, ==, "5");

  results = parse_results (result, &root);
  g_assert_cmpuint (json_array_get_length (results), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (results, 0),
                                                  "snippet"),
                   ==, "The **first** result");

  search_free (search);
}

/* A wrong key is refused: the error says so and never shows it */
static void
test_brave_refused (void)
{
  Search *search = search_new ();
  g_autofree char *url = g_strconcat (search->base, "/res/v1/web/search", NULL);
  g_autoptr(AgentSearchBackend) backend =
    agent_search_backend_new_brave ("wrong-key-9876543210", url, NULL);
  g_autoptr(AgentTool) tool = agent_web_search_tool_new (backend);
  g_autofree char *result = NULL;
  gboolean is_error = FALSE;

  result = run_tool (tool, "{\"query\": \"x\"}", &is_error);
  g_assert_true (is_error);
  agent_test_assert_contains (result, "Brave Search refused the API key (HTTP 401)");
  g_assert_null (strstr (result, "wrong-key"));
  g_assert_null (strstr (result, KEY));

  search_free (search);
}

static void
test_errors (void)
{
  Search *search = search_new ();
  g_autofree char *broken_url = g_strconcat (search->base, "/broken", NULL);
  g_autofree char *missing_url = g_strconcat (search->base, "/nothing", NULL);
  g_autoptr(AgentSearchBackend) broken = agent_search_backend_new_searxng (broken_url, NULL);
  g_autoptr(AgentSearchBackend) missing = agent_search_backend_new_searxng (missing_url, NULL);
  g_autoptr(AgentTool) broken_tool = agent_web_search_tool_new (broken);
  g_autoptr(AgentTool) missing_tool = agent_web_search_tool_new (missing);
  g_autoptr(GError) error = NULL;
  g_autofree char *not_json = NULL;
  g_autofree char *not_found = NULL;
  g_autofree char *no_query = NULL;
  g_autofree char *bad_count = NULL;
  gboolean is_error = FALSE;
  AgentSearchBackend *none;
  AgentTool *tool;

  not_json = run_tool (broken_tool, "{\"query\": \"x\"}", &is_error);
  g_assert_true (is_error);
  agent_test_assert_contains (not_json, "SearXNG did not answer with JSON");

  not_found = run_tool (missing_tool, "{\"query\": \"x\"}", &is_error);
  g_assert_true (is_error);
  agent_test_assert_contains (not_found, "HTTP 404");
  agent_test_assert_contains (not_found, missing_url);

  no_query = run_tool (missing_tool, "{\"q\": \"x\"}", &is_error);
  g_assert_true (is_error);
  agent_test_assert_contains (no_query, "“query” must be a string");

  bad_count = run_tool (missing_tool, "{\"query\": \"x\", \"count\": \"many\"}", &is_error);
  g_assert_true (is_error);
  agent_test_assert_contains (bad_count, "“count” must be a whole number");

  none = agent_search_backend_new_searxng ("ftp://searx.example", &error);
  g_assert_null (none);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  agent_test_assert_contains (error->message, "“ftp://searx.example”");
  g_clear_error (&error);

  none = agent_search_backend_new_brave ("", NULL, &error);
  g_assert_null (none);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  agent_test_assert_contains (error->message, "API key");
  g_clear_error (&error);

  /* No backend, no tool: web_search is not among the built-in tools */
  g_assert_false (g_strv_contains (agent_builtin_tool_list_names (), "web_search"));
  g_assert_true (g_strv_contains (agent_builtin_tool_list_names (), "fetch_url"));
  tool = agent_builtin_tool_new ("web_search", &error);
  g_assert_null (tool);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  agent_test_assert_contains (error->message, "needs a search backend");

  search_free (search);
}

/* Tavily: a JSON POST with the key as a bearer token */
static void
test_tavily (void)
{
  AgentTestTavily *tavily = agent_test_tavily_new (TAVILY_KEY);
  g_autoptr(AgentSearchBackend) backend = NULL;
  g_autoptr(AgentTool) tool = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *result = NULL;
  g_autofree char *base = g_strconcat (tavily->base, "/", NULL);
  gboolean is_error = TRUE;
  JsonArray *results;
  JsonObject *first;

  backend = agent_search_backend_new_tavily (TAVILY_KEY, base, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (agent_search_backend_get_name (backend), ==, "Tavily");
  tool = agent_web_search_tool_new (backend);

  result = run_tool (tool, "{\"query\": \"gnome \\\"shell\\\" & gtk\", \"count\": 3}",
                     &is_error);
  g_assert_false (is_error);
  g_assert_cmpuint (tavily->n_requests, ==, 1);
  g_assert_cmpstr (tavily->last_bearer, ==, "Bearer " TAVILY_KEY);
  g_assert_cmpstr (tavily->last_content_type, ==, "application/json");
  g_assert_cmpstr (tavily->last_query, ==, "gnome \"shell\" & gtk");
  g_assert_cmpint (tavily->last_max_results, ==, 3);

  /* The result without a URL is skipped */
  results = parse_results (result, &root);
  g_assert_cmpuint (json_array_get_length (results), ==, 2);
  first = json_array_get_object_element (results, 0);
  g_assert_cmpstr (json_object_get_string_member (first, "title"), ==, "Tavily one");
  g_assert_cmpstr (json_object_get_string_member (first, "url"), ==,
                   "https://one.tavily.example/");
  g_assert_cmpstr (json_object_get_string_member (first, "snippet"), ==, "The first & best");

  /* The count's default */
  g_clear_pointer (&result, g_free);
  result = run_tool (tool, "{\"query\": \"x\"}", &is_error);
  g_assert_false (is_error);
  g_assert_cmpint (tavily->last_max_results, ==, 5);

  agent_test_tavily_free (tavily);
}

static void
assert_search_fails (AgentSearchBackend *backend,
                     const char         *query,
                     int                 code,
                     guint               status,
                     const char         *expected)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) results = NULL;

  results = agent_search_backend_search (backend, query, 5, NULL, &error);
  g_assert_null (results);
  g_assert_error (error, AGENT_ERROR, code);
  g_assert_cmpuint (agent_error_get_http_status (error), ==, status);
  agent_test_assert_contains (error->message, expected);
  g_assert_null (strstr (error->message, TAVILY_KEY));
  g_assert_null (strstr (error->message, "wrong-tavily"));
}

/* Tavily's errors keep their HTTP status and the service's words, never
 * a key, even when the service echoes it */
static void
test_tavily_errors (void)
{
  AgentTestTavily *tavily = agent_test_tavily_new (TAVILY_KEY);
  g_autoptr(AgentSearchBackend) good = agent_search_backend_new_tavily (TAVILY_KEY,
                                                                         tavily->base, NULL);
  g_autoptr(AgentSearchBackend) wrong =
    agent_search_backend_new_tavily ("wrong-tavily-key-0123456789", tavily->base, NULL);
  g_autoptr(GError) error = NULL;
  AgentSearchBackend *none;

  assert_search_fails (wrong, "x", AGENT_ERROR_AUTHENTICATION, 401,
                       "Tavily refused the API key (HTTP 401): Unauthorized");
  assert_search_fails (good, "too many", AGENT_ERROR_HTTP, 429,
                       "Tavily takes no more searches for now (HTTP 429");
  assert_search_fails (good, "break", AGENT_ERROR_HTTP, 500, "HTTP 500: Internal error");
  g_assert_cmpuint (tavily->n_requests, ==, 3);
  /* A caller that does not want the error */
  g_assert_null (agent_search_backend_search (wrong, "x", 1, NULL, NULL));

  none = agent_search_backend_new_tavily (NULL, NULL, &error);
  g_assert_null (none);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  agent_test_assert_contains (error->message, "Tavily needs an API key");
  g_clear_error (&error);

  none = agent_search_backend_new_tavily (TAVILY_KEY, "file:///etc", &error);
  g_assert_null (none);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  agent_test_assert_contains (error->message, "“file:///etc”");
  g_assert_null (strstr (error->message, TAVILY_KEY));

  agent_test_tavily_free (tavily);
}

/* The services by name, their URLs and variables */
static void
test_by_name (void)
{
  AgentTestTavily *tavily = agent_test_tavily_new (TAVILY_KEY);
  const char * const *names = agent_search_backend_list_names ();
  g_autoptr(AgentSearchBackend) searxng = NULL;
  g_autoptr(AgentSearchBackend) brave = NULL;
  g_autoptr(AgentSearchBackend) by_name = NULL;
  g_autoptr(JsonNode) results = NULL;
  g_autoptr(GError) error = NULL;
  AgentSearchBackend *none;

  g_assert_cmpuint (g_strv_length ((char **) names), ==, 3);
  g_assert_true (g_strv_contains (names, "searxng"));
  g_assert_true (g_strv_contains (names, "brave"));
  g_assert_true (g_strv_contains (names, "tavily"));
  g_assert_cmpstr (agent_search_backend_get_api_key_variable ("tavily"), ==, "TAVILY_API_KEY");
  g_assert_cmpstr (agent_search_backend_get_api_key_variable ("brave"), ==, "BRAVE_API_KEY");
  g_assert_null (agent_search_backend_get_api_key_variable ("searxng"));
  g_assert_null (agent_search_backend_get_api_key_variable ("altavista"));
  g_assert_cmpstr (agent_search_backend_get_default_url ("tavily"), ==, "https://api.tavily.com");
  g_assert_null (agent_search_backend_get_default_url ("searxng"));

  searxng = agent_search_backend_new_for_name ("searxng", "https://searx.example", "ignored",
                                               &error);
  g_assert_no_error (error);
  g_assert_cmpstr (agent_search_backend_get_name (searxng), ==, "SearXNG");
  brave = agent_search_backend_new_for_name ("brave", NULL, KEY, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (agent_search_backend_get_name (brave), ==, "Brave Search");

  by_name = agent_search_backend_new_for_name ("tavily", tavily->base, TAVILY_KEY, &error);
  g_assert_no_error (error);
  results = agent_search_backend_search (by_name, "by name", 50, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (json_array_get_length (json_node_get_array (results)), ==, 2);
  g_assert_cmpint (tavily->last_max_results, ==, 20);

  none = agent_search_backend_new_for_name ("altavista", NULL, NULL, &error);
  g_assert_null (none);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  agent_test_assert_contains (error->message, "“altavista”");
  g_clear_error (&error);
  none = agent_search_backend_new_for_name ("searxng", NULL, NULL, &error);
  g_assert_null (none);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  none = agent_search_backend_new_for_name ("tavily", NULL, "", &error);
  g_assert_null (none);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT);

  agent_test_tavily_free (tavily);
}

static gboolean
approve_cb (AgentSession      *session,
            AgentToolCall     *call,
            AgentToolApproval *approval,
            guint             *n_approvals)
{
  (*n_approvals)++;
  agent_tool_approval_allow (approval);
  return TRUE;
}

/* A model searches, then fetches a result's page, each approved */
static void
test_session_turn (void)
{
  Search *search = search_new ();
  g_autoptr(AgentTestServer) model = agent_test_server_new ();
  g_autoptr(AgentProvider) provider = agent_test_openai_provider_new (model);
  g_autoptr(AgentSession) session = agent_session_new (provider);
  g_autofree char *base = g_strconcat (search->base, "/searx", NULL);
  g_autoptr(AgentSearchBackend) backend = agent_search_backend_new_searxng (base, NULL);
  g_autoptr(AgentTool) web_search = agent_web_search_tool_new (backend);
  const char * const hosts[] = { "127.0.0.1", NULL };
  g_autoptr(AgentTool) fetch_url = agent_fetch_url_tool_new_full (hosts, 0, 0, NULL);
  g_autofree char *page = g_strdup_printf ("{\"url\": \"%s/page\"}", search->base);
  AgentTestToolChunk search_call = { 0, "c0", "web_search", "{\"query\": \"words\"}" };
  AgentTestToolChunk fetch_call = { 0, "c1", "fetch_url", page };
  const char * const answer[] = { "Done.", NULL };
  AgentTestTurn turn = { 0 };
  guint n_approvals = 0;

  agent_session_add_tool (session, web_search);
  agent_session_add_tool (session, fetch_url);
  g_signal_connect (session, "approve-tool-call", G_CALLBACK (approve_cb), &n_approvals);
  agent_test_openai_add_tool_response (model, &search_call, 1, 10, 5);
  agent_test_openai_add_tool_response (model, &fetch_call, 1, 10, 5);
  agent_test_openai_add_text_response (model, answer, 10, 5);

  agent_test_turn_run (&turn, session, "Find words", NULL);
  g_assert_no_error (turn.error);
  g_assert_cmpuint (n_approvals, ==, 2);
  agent_test_assert_contains (agent_test_openai_tool_message_content (model, 1, "c0"),
                              "\"url\":\"https://www.gnome.org/\"");
  agent_test_assert_contains (agent_test_openai_tool_message_content (model, 2, "c1"),
                              "Fetched words");
  agent_test_turn_clear (&turn);

  search_free (search);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/web-search/searxng", test_searxng);
  g_test_add_func ("/web-search/brave", test_brave);
  g_test_add_func ("/web-search/brave-refused", test_brave_refused);
  g_test_add_func ("/web-search/errors", test_errors);
  g_test_add_func ("/web-search/tavily", test_tavily);
  g_test_add_func ("/web-search/tavily-errors", test_tavily_errors);
  g_test_add_func ("/web-search/by-name", test_by_name);
  g_test_add_func ("/web-search/session-turn", test_session_turn);

  return g_test_run ();
}
