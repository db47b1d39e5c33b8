/* test-secret-leaks.c — an API key, or a password in the base URL, never goes
 * to another host, a debug log, an error message or a file: servers that
 * redirect, echo the key in their status line, headers and events, split
 * it across reads or put it where an excerpt is cut; through the public
 * API against real HTTP servers on 127.0.0.1. AGENT_DEBUG=http is on for
 * the whole program: the log is read from the log writer.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "agent-test-cli.h"
#include "agent-test-mcp.h"
#include "agent-test-openai.h"
#include "agent-test-provider.h"
#include "agent-test-server.h"
#include "agent-test-turn.h"
#include "agent-test-util.h"

#define SECRET   "sk-live-0123456789abcdefghijKLMNOPQRSTUVWXYZ"
#define PASSWORD "hunter2-PASSWORDxyz"
/* A piece of a secret this long is a leak */
#define PIECE    8

static const char * const providers[] = {
  "openai", "openai-responses", "anthropic", "ollama", "gemini",
};

/* What the "Agent-HTTP" log domain wrote, since the last debug_log_clear() */
static GString *debug_log;

static GLogWriterOutput
log_writer (GLogLevelFlags   level,
            const GLogField *fields,
            gsize            n_fields,
            gpointer         user_data)
{
  const char *domain = NULL;
  const char *message = NULL;

  for (gsize i = 0; i < n_fields; i++)
    {
      if (g_str_equal (fields[i].key, "GLIB_DOMAIN"))
        domain = fields[i].value;
      else if (g_str_equal (fields[i].key, "MESSAGE"))
        message = fields[i].value;
    }

  if (g_strcmp0 (domain, "Agent-HTTP") != 0)
    {
      if (g_log_writer_default_would_drop (level, domain))
        return G_LOG_WRITER_HANDLED;
      return g_log_writer_default (level, fields, n_fields, user_data);
    }

  g_string_append (debug_log, message);
  g_string_append_c (debug_log, '\n');
  return G_LOG_WRITER_HANDLED;
}

/* No piece of @secret of PIECE bytes or more is in @text. */
static void
assert_no_piece_of (const char *text,
                    const char *secret,
                    const char *where)
{
  gsize len = strlen (secret);

  g_assert_cmpuint (len, >=, PIECE);
  for (gsize i = 0; i + PIECE <= len; i++)
    {
      g_autofree char *piece = g_strndup (secret + i, PIECE);

      if (strstr (text, piece) != NULL)
        g_error ("%s holds “%s”, a piece of a secret:\n%s", where, piece, text);
    }
}

typedef struct
{
  AgentTestServer *server;
  AgentProvider   *provider;
  AgentSession    *session;
  AgentTestTurn    turn;
} Fixture;

static void
fixture_init (Fixture    *f,
              const char *provider_name)
{
  f->server = agent_test_server_new ();
  f->provider = agent_test_provider_new (f->server, provider_name);
  agent_provider_set_api_key (f->provider, SECRET);
  agent_provider_set_max_retries (f->provider, 0);
  f->session = agent_session_new (f->provider);
  g_string_truncate (debug_log, 0);
}

static void
fixture_clear (Fixture *f)
{
  agent_test_turn_clear (&f->turn);
  g_assert_finalize_object (f->session);
  g_assert_finalize_object (f->provider);
  agent_test_server_free (f->server);
}

/* Redirects */

/* A redirect to another origin (here another port) is not followed, with
 * the key in any header, nor is one that would turn the POST into a GET;
 * the error says where the server pointed. */
static void
test_redirect_cross_origin (void)
{
  static const guint statuses[] = { 301, 302, 303, 307, 308 };

  for (guint p = 0; p < G_N_ELEMENTS (providers); p++)
    for (guint s = 0; s < G_N_ELEMENTS (statuses); s++)
      {
        g_autoptr(AgentTestServer) elsewhere = agent_test_server_new ();
        g_autofree char *location = g_strconcat (agent_test_server_get_base_url (elsewhere),
                                                 "/steal", NULL);
        g_autofree char *status = g_strdup_printf ("%u", statuses[s]);
        AgentTestResponse *r;
        Fixture f = { 0 };

        fixture_init (&f, providers[p]);
        r = agent_test_server_add_response (f.server, statuses[s]);
        agent_test_response_set_body (r, "text/plain", "Moved");
        agent_test_response_add_header (r, "Location", location);

        agent_test_turn_run (&f.turn, f.session, "Hi", NULL);

        g_test_message ("%s, %u: %s", providers[p], statuses[s],
                        f.turn.error ? f.turn.error->message : "no error");
        g_assert_error (f.turn.error, AGENT_ERROR, AGENT_ERROR_HTTP);
        g_assert_cmpuint (agent_error_get_http_status (f.turn.error), ==, statuses[s]);
        agent_test_assert_contains (f.turn.error->message, status);
        agent_test_assert_contains (f.turn.error->message, location);
        /* The other host saw nothing, key or not */
        g_assert_cmpuint (agent_test_server_get_n_requests (elsewhere), ==, 0);
        g_assert_cmpuint (agent_test_server_get_n_requests (f.server), ==, 1);
        fixture_clear (&f);
      }
}

/* A 303 to the same origin would become a GET without the conversation:
 * whatever answers it is no answer to the request. */
static void
test_redirect_same_origin (void)
{
  g_autofree char *location = NULL;
  const char * const deltas[] = { "Answer to a GET nobody asked for", NULL };
  AgentTestResponse *r;
  Fixture f = { 0 };

  fixture_init (&f, "openai");
  location = g_strconcat (agent_test_server_get_base_url (f.server), "/chat/completions", NULL);
  r = agent_test_server_add_response (f.server, 303);
  agent_test_response_set_body (r, "text/plain", "See other");
  agent_test_response_add_header (r, "Location", location);
  agent_test_openai_add_text_response (f.server, deltas, 1, 1);

  agent_test_turn_run (&f.turn, f.session, "Hi", NULL);

  g_assert_error (f.turn.error, AGENT_ERROR, AGENT_ERROR_HTTP);
  agent_test_assert_contains (f.turn.error->message, "303");
  g_assert_cmpuint (agent_test_server_get_n_requests (f.server), ==, 1);
  fixture_clear (&f);
}

/* Listing models sends the key too: the same rule holds. */
static void
test_redirect_models (void)
{
  for (guint p = 0; p < G_N_ELEMENTS (providers); p++)
    {
      g_autoptr(AgentTestServer) elsewhere = agent_test_server_new ();
      g_autofree char *location = g_strconcat (agent_test_server_get_base_url (elsewhere),
                                               "/models", NULL);
      g_autoptr(GError) error = NULL;
      g_auto(GStrv) names = NULL;
      AgentTestResponse *r;
      Fixture f = { 0 };

      fixture_init (&f, providers[p]);
      r = agent_test_server_add_response (f.server, 302);
      agent_test_response_set_body (r, "text/plain", "Found");
      agent_test_response_add_header (r, "Location", location);
      r = agent_test_server_add_response (elsewhere, 200);
      agent_test_response_set_body (r, "application/json", "{\"data\":[{\"id\":\"stolen\"}]}");

      names = agent_test_list_models (f.provider, &error);

      g_assert_null (names);
      g_assert_error (error, AGENT_ERROR, AGENT_ERROR_HTTP);
      agent_test_assert_contains (error->message, location);
      g_assert_cmpuint (agent_test_server_get_n_requests (elsewhere), ==, 0);
      fixture_clear (&f);
    }
}

/* The debug log */

/* A server that echoes the key in its status line and its headers */
static void
test_debug_response_headers (void)
{
  AgentTestResponse *r;
  Fixture f = { 0 };

  fixture_init (&f, "openai");
  r = agent_test_openai_begin (f.server, "");
  agent_test_response_set_reason (r, "OK " SECRET);
  agent_test_response_add_header (r, "X-Echo", "key=" SECRET);
  agent_test_openai_add_text (r, "Fine.");
  agent_test_openai_add_end (r, "stop", 1, 1);

  agent_test_turn_run (&f.turn, f.session, "Hi", NULL);

  g_assert_no_error (f.turn.error);
  /* Shown, without the key */
  agent_test_assert_contains (debug_log->str, "200 OK [redacted]");
  agent_test_assert_contains (debug_log->str, "X-Echo: key=[redacted]");
  assert_no_piece_of (debug_log->str, SECRET, "The debug log");
  fixture_clear (&f);
}

/* Headers of the request settings whose names say they hold a credential
 * (Helicone-Auth, X-Access-Token, api-key) are not in the debug log, with
 * the API key; the others are shown */
static void
test_debug_settings_headers (void)
{
  static const char * const secret_names[] = { "Helicone-Auth", "X-Access-Token", "api-key" };
  AgentRequestSettings *settings;
  AgentTestResponse *r;
  Fixture f = { 0 };

  fixture_init (&f, "openai");
  settings = agent_session_get_settings (f.session);
  for (guint i = 0; i < G_N_ELEMENTS (secret_names); i++)
    {
      g_autofree char *value = g_strdup_printf ("%u-%s", i, PASSWORD);

      agent_request_settings_set_header (settings, secret_names[i], value);
    }
  agent_request_settings_set_header (settings, "X-Title", "Chat of the week");
  r = agent_test_openai_begin (f.server, "");
  agent_test_openai_add_text (r, "Fine.");
  agent_test_openai_add_end (r, "stop", 1, 1);

  agent_test_turn_run (&f.turn, f.session, "Hi", NULL);

  g_assert_no_error (f.turn.error);
  g_assert_cmpstr (agent_test_server_get_request_header (f.server, 0, "X-Access-Token"), ==,
                   "1-" PASSWORD);
  agent_test_assert_contains (debug_log->str, "X-Title: Chat of the week");
  for (guint i = 0; i < G_N_ELEMENTS (secret_names); i++)
    {
      g_autofree char *shown = g_strdup_printf ("%s: [redacted]", secret_names[i]);

      agent_test_assert_contains (debug_log->str, shown);
    }
  assert_no_piece_of (debug_log->str, PASSWORD, "The debug log");
  assert_no_piece_of (debug_log->str, SECRET, "The debug log");
  fixture_clear (&f);
}

/* The key split between two reads of the body */
static void
test_debug_split_key (void)
{
  AgentTestResponse *r;
  Fixture f = { 0 };
  const char *half = SECRET + strlen (SECRET) / 2;
  g_autofree char *first = g_strdup_printf ("data: {\"choices\":[{\"index\":0,\"delta\":"
                                            "{\"content\":\"your key: %.*s",
                                            (int) (half - SECRET), SECRET);
  g_autofree char *second = g_strdup_printf ("%s, right?\"}}]}\n\n", half);

  fixture_init (&f, "openai");
  r = agent_test_openai_begin (f.server, "");
  agent_test_response_add_bytes (r, first, -1);
  /* The client reads what came before the pause on its own */
  agent_test_response_add_delay (r, 200);
  agent_test_response_add_bytes (r, second, -1);
  agent_test_openai_add_end (r, "stop", 1, 1);

  agent_test_turn_run (&f.turn, f.session, "Hi", NULL);

  g_assert_no_error (f.turn.error);
  agent_test_assert_contains (debug_log->str, "your key: [redacted], right?");
  assert_no_piece_of (debug_log->str, SECRET, "The debug log");
  fixture_clear (&f);
}

/* A password in the base URL */
static void
test_debug_base_url_password (void)
{
  g_autofree char *url = NULL;
  const char * const deltas[] = { "Fine.", NULL };
  Fixture f = { 0 };

  fixture_init (&f, "openai");
  url = g_strdup_printf ("http://alice:" PASSWORD "@%s",
                         agent_test_server_get_base_url (f.server) + strlen ("http://"));
  agent_provider_set_base_url (f.provider, url);
  agent_test_openai_add_text_response (f.server, deltas, 1, 1);

  agent_test_turn_run (&f.turn, f.session, "Hi", NULL);

  g_assert_no_error (f.turn.error);
  agent_test_assert_contains (debug_log->str, "/v1/chat/completions");
  assert_no_piece_of (debug_log->str, PASSWORD, "The debug log");
  fixture_clear (&f);
}

/* Error excerpts */

/* An excerpt of something that is not an event, cut at 80, 200 or 500
 * characters depending on the provider and the case: the key is replaced
 * before the cut, wherever the cut falls. */
static void
test_excerpt_cut_key (void)
{
  static const guint cuts[] = { 80, 200, 500 };
  static const char * const shapes[] = {
    /* Not JSON */
    "data: JUNK\n\n",
    /* An error event with plain text */
    "event: error\ndata: JUNK\n\n",
    /* JSON, but without a message in its error */
    "data: {\"error\":{\"reason\":\"JUNK\"}}\n\n",
  };

  for (guint p = 0; p < G_N_ELEMENTS (providers); p++)
    for (guint s = 0; s < G_N_ELEMENTS (shapes); s++)
      for (guint c = 0; c < G_N_ELEMENTS (cuts); c++)
        {
          g_autoptr(GString) junk = g_string_new (NULL);
          g_autoptr(GString) body = g_string_new (NULL);
          gboolean ndjson = g_str_equal (providers[p], "ollama");
          AgentTestResponse *r;
          Fixture f = { 0 };

          /* The key straddles the cut */
          while (junk->len < cuts[c] - 12)
            g_string_append_c (junk, 'x');
          g_string_append (junk, SECRET " and more junk after it");
          g_string_assign (body, shapes[s]);
          g_string_replace (body, "JUNK", junk->str, 1);
          if (ndjson)
            {
              /* One line: the data alone */
              g_autofree char *line = g_strdup (strstr (body->str, "data: ") + 6);

              g_string_assign (body, line);
              g_string_truncate (body, body->len - 1);
            }

          fixture_init (&f, providers[p]);
          r = agent_test_server_add_response (f.server, 200);
          agent_test_response_set_content_type (r, ndjson ? "application/x-ndjson"
                                                          : "text/event-stream");
          agent_test_response_add_bytes (r, body->str, -1);

          agent_test_turn_run (&f.turn, f.session, "Hi", NULL);

          g_test_message ("%s, shape %u, cut %u: %s", providers[p], s, cuts[c],
                          f.turn.error ? f.turn.error->message : "no error");
          g_assert_nonnull (f.turn.error);
          assert_no_piece_of (f.turn.error->message, SECRET, "The error");
          assert_no_piece_of (debug_log->str, SECRET, "The debug log");
          fixture_clear (&f);
        }
}

/* What an MCP server printed, quoted in an error: its last words on
 * stderr (cut at 200 characters) and its first line that is not JSON-RPC
 * (cut at 80), each with a secret it was given where the cut falls */
static void
test_excerpt_cut_mcp (void)
{
  static const struct { const char *script; guint timeout; int code; } cases[] = {
    { "printf '%190s' '' | tr ' ' x >&2; echo \"$MCP_TEST_TOKEN and more\" >&2; exit 3",
      0, AGENT_ERROR_NETWORK },
    { "printf '%70s' '' | tr ' ' y; echo \"$MCP_TEST_TOKEN and more\"; exec sleep 60",
      1, AGENT_ERROR_TIMEOUT },
  };
  const char *env[] = { "MCP_TEST_TOKEN=" SECRET, NULL };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *args[] = { "-c", cases[i].script, NULL };
      g_autoptr(AgentMcpClient) client = agent_mcp_client_new_stdio ("leaky", "sh", args);
      g_autoptr(GError) error = NULL;

      agent_mcp_client_set_env (client, env);
      if (cases[i].timeout > 0)
        agent_mcp_client_set_timeout (client, cases[i].timeout);
      error = agent_test_mcp_connect_error (client);

      g_assert_error (error, AGENT_ERROR, cases[i].code);
      g_test_message ("%s", error->message);
      agent_test_assert_contains (error->message, i == 0 ? "xxxxxxxxxx" : "yyyyyyyyyy");
      assert_no_piece_of (error->message, SECRET, "The error");
      agent_test_mcp_close (client);
    }
}

/* Pieces of a key */

/* How servers echo a key they refused: its first characters, then stars */
#define ECHOED   "sk-live-0123456***"
/* Its last characters, after stars */
#define ECHOED_END "****************************************QRSTUVWXYZ"

/* A server that echoes part of the key, in the body of an HTTP error, in
 * its status line, in an error event of the stream: each piece of 8 bytes
 * or more is redacted, from the error and from the debug log */
static void
test_partial_key (void)
{
  for (guint p = 0; p < G_N_ELEMENTS (providers); p++)
    for (guint shape = 0; shape < 3; shape++)
      {
        gboolean ndjson = g_str_equal (providers[p], "ollama");
        AgentTestResponse *r;
        Fixture f = { 0 };

        fixture_init (&f, providers[p]);
        if (shape == 0)
          {
            r = agent_test_server_add_response (f.server, 401);
            agent_test_response_set_body (r, "application/json",
                                          "{\"error\":{\"message\":\"Incorrect API key provided: "
                                          ECHOED " (" ECHOED_END ")\",\"type\":\"invalid_request"
                                          "_error\"}}");
          }
        else if (shape == 1)
          {
            r = agent_test_server_add_response (f.server, 403);
            agent_test_response_set_reason (r, "Key " ECHOED " refused");
            agent_test_response_set_body (r, "text/plain", "Incorrect API key provided: "
                                          ECHOED_END);
          }
        else
          {
            r = agent_test_server_add_response (f.server, 200);
            agent_test_response_set_content_type (r, ndjson ? "application/x-ndjson"
                                                            : "text/event-stream");
            if (!ndjson)
              agent_test_response_add_bytes (r, "event: error\ndata: ", -1);
            agent_test_response_add_bytes (r, "{\"error\":{\"message\":\"Incorrect API key "
                                           "provided: " ECHOED "\"}}\n\n", -1);
          }

        agent_test_turn_run (&f.turn, f.session, "Hi", NULL);

        g_test_message ("%s, shape %u: %s", providers[p], shape,
                        f.turn.error ? f.turn.error->message : "no error");
        g_assert_nonnull (f.turn.error);
        /* What the server said is told, without the pieces */
        if (shape != 1)
          agent_test_assert_contains (f.turn.error->message, "Incorrect API key provided");
        agent_test_assert_contains (f.turn.error->message, "[redacted]");
        assert_no_piece_of (f.turn.error->message, SECRET, "The error");
        assert_no_piece_of (debug_log->str, SECRET, "The debug log");
        fixture_clear (&f);
      }
}

/* A piece of the key split between two reads of the body, in the debug
 * log: held back until the next read shows where it ends */
static void
test_debug_split_piece (void)
{
  AgentTestResponse *r;
  Fixture f = { 0 };

  fixture_init (&f, "openai");
  r = agent_test_openai_begin (f.server, "");
  agent_test_response_add_bytes (r, "data: {\"choices\":[{\"index\":0,\"delta\":"
                                 "{\"content\":\"echo: sk-live-012", -1);
  agent_test_response_add_delay (r, 200);
  agent_test_response_add_bytes (r, "3456*** ok\"}}]}\n\n", -1);
  agent_test_openai_add_end (r, "stop", 1, 1);

  agent_test_turn_run (&f.turn, f.session, "Hi", NULL);

  g_assert_no_error (f.turn.error);
  agent_test_assert_contains (debug_log->str, "echo: [redacted]*** ok");
  assert_no_piece_of (debug_log->str, SECRET, "The debug log");
  fixture_clear (&f);
}

/* An MCP server that prints a piece of a secret of its configuration */
static void
test_mcp_partial_secret (void)
{
  const char *args[] = { "-c", "echo \"token ${MCP_TEST_TOKEN%????????} refused\" >&2; exit 3",
                         NULL };
  const char *env[] = { "MCP_TEST_TOKEN=" SECRET, NULL };
  g_autoptr(AgentMcpClient) client = agent_mcp_client_new_stdio ("leaky", "sh", args);
  g_autoptr(GError) error = NULL;

  agent_mcp_client_set_env (client, env);
  error = agent_test_mcp_connect_error (client);

  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_NETWORK);
  g_test_message ("%s", error->message);
  agent_test_assert_contains (error->message, "token [redacted] refused");
  assert_no_piece_of (error->message, SECRET, "The error");
  agent_test_mcp_close (client);
}

/* agent-cli, which prints what the server said */
static void
test_cli_partial_key (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentTestProcess) cli = NULL;
  g_autofree char *url = g_strdup (agent_test_server_get_base_url (server));
  AgentTestResponse *r;

  r = agent_test_server_add_response (server, 401);
  agent_test_response_set_body (r, "application/json",
                                "{\"error\":{\"message\":\"Incorrect API key provided: " ECHOED
                                "\"}}");

  cli = agent_test_cli_run_full (AGENT_TEST_ARGS ("OPENAI_API_KEY=" SECRET), NULL,
                                 AGENT_TEST_ARGS ("--no-store", "--base-url", url,
                                                  "--max-retries", "0", "Hi"));

  agent_test_process_assert_exit (cli, 1);
  agent_test_assert_contains (cli->err->str, "Incorrect API key provided: [redacted]***");
  assert_no_piece_of (cli->err->str, SECRET, "agent-cli's standard error");
  assert_no_piece_of (cli->out->str, SECRET, "agent-cli's standard output");
}

/* The base URL's password is not stored, nor exported */

#if AGENT_HAS_STORE
static void
assert_file_lacks (const char *path,
                   const char *secret)
{
  g_autofree char *contents = NULL;
  gsize len = 0;

  if (!g_file_get_contents (path, &contents, &len, NULL))
    return;
  g_assert_null (memmem (contents, len, secret, strlen (secret)));
}

static void
test_stored_base_url (void)
{
  g_autofree char *dir = agent_test_make_dir ("test-secret-leaks-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "conversations.db", NULL);
  g_autofree char *wal = g_strconcat (path, "-wal", NULL);
  g_autofree char *url = NULL;
  g_autofree char *json = NULL;
  g_autofree char *markdown = NULL;
  g_autoptr(AgentStore) store = NULL;
  g_autoptr(AgentConversation) conversation = NULL;
  g_autoptr(GError) error = NULL;
  const char * const deltas[] = { "Stored.", NULL };
  Fixture f = { 0 };

  fixture_init (&f, "openai");
  url = g_strdup_printf ("http://alice:" PASSWORD "@%s",
                         agent_test_server_get_base_url (f.server) + strlen ("http://"));
  agent_provider_set_base_url (f.provider, url);
  agent_test_openai_add_text_response (f.server, deltas, 1, 1);

  store = agent_store_new (path, &error);
  g_assert_no_error (error);
  conversation = agent_store_create_conversation (store);
  g_assert_true (agent_conversation_record_session (conversation, f.session, &error));
  g_assert_no_error (error);
  agent_session_set_memory (f.session, AGENT_MEMORY (conversation));
  agent_test_turn_run (&f.turn, f.session, "Hi", NULL);
  g_assert_no_error (f.turn.error);

  json = agent_conversation_export (conversation, AGENT_EXPORT_FORMAT_JSON, &error);
  g_assert_no_error (error);
  markdown = agent_conversation_export (conversation, AGENT_EXPORT_FORMAT_MARKDOWN, &error);
  g_assert_no_error (error);
  /* The host is kept, to continue with; not the password */
  agent_test_assert_contains (json, "127.0.0.1");
  g_assert_null (strstr (json, PASSWORD));
  g_assert_null (strstr (markdown, PASSWORD));

  agent_session_set_memory (f.session, NULL);
  g_clear_object (&conversation);
  g_clear_object (&store);
  assert_file_lacks (path, PASSWORD);
  assert_file_lacks (wal, PASSWORD);

  fixture_clear (&f);
  agent_test_remove_dir (dir);
}
#endif

int
main (int   argc,
      char *argv[])
{
  /* Before the library reads it, once */
  g_setenv ("AGENT_DEBUG", "http", TRUE);
  debug_log = g_string_new (NULL);
  g_log_set_writer_func (log_writer, NULL, NULL);

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/secrets/redirect/cross-origin", test_redirect_cross_origin);
  g_test_add_func ("/secrets/redirect/same-origin-get", test_redirect_same_origin);
  g_test_add_func ("/secrets/redirect/models", test_redirect_models);
  g_test_add_func ("/secrets/debug/response-headers", test_debug_response_headers);
  g_test_add_func ("/secrets/debug/split-key", test_debug_split_key);
  g_test_add_func ("/secrets/debug/settings-headers", test_debug_settings_headers);
  g_test_add_func ("/secrets/debug/base-url-password", test_debug_base_url_password);
  g_test_add_func ("/secrets/excerpt/cut-key", test_excerpt_cut_key);
  g_test_add_func ("/secrets/excerpt/cut-mcp", test_excerpt_cut_mcp);
  g_test_add_func ("/secrets/pieces/partial-key", test_partial_key);
  g_test_add_func ("/secrets/pieces/debug-split", test_debug_split_piece);
  g_test_add_func ("/secrets/pieces/mcp", test_mcp_partial_secret);
  g_test_add_func ("/secrets/pieces/agent-cli", test_cli_partial_key);
#if AGENT_HAS_STORE
  g_test_add_func ("/secrets/store/base-url-password", test_stored_base_url);
#endif

  return g_test_run ();
}
