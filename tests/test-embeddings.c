/* test-embeddings.c — agent_provider_embed_async() against each API's shape
 *
 * A loopback server (agent-test-server.c with a responder) that computes
 * each text's vector as a real embedding server would, only simpler: the
 * counts of its words, each word hashed into one of DIMS dimensions. The
 * test computes the same vectors and compares.
 *
 * The server's base URL ends in /v1, and every API's path follows it.
 *
 * - /embeddings/openai: POST /embeddings {model, input}; the items come
 *   back in reverse order and are placed by their index.
 * - /embeddings/ollama: POST /api/embed {model, input} → embeddings[][].
 * - /embeddings/gemini: POST /v1beta/models/{model}:batchEmbedContents with
 *   one request per text, each naming "models/{model}".
 * - /embeddings/batches: 150 texts go in requests of 64, 64 and 22, and
 *   each vector is its own text's.
 * - /embeddings/similarity: texts on the same topic are closer.
 * - /embeddings/empty: no texts, no request, no vectors.
 * - /embeddings/anthropic: %AGENT_ERROR_UNSUPPORTED, nothing sent.
 * - /embeddings/http-error: an HTTP 500 is an error with its status, and
 *   the key the server echoes is not in it.
 * - /embeddings/malformed, /wrong-count, /ragged, /bad-index: answers
 *   that cannot be used are %AGENT_ERROR_PROTOCOL saying why.
 * - /embeddings/cancel: a cancelled call fails with G_IO_ERROR_CANCELLED.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "agent-test-server.h"
#include "agent-test-util.h"

#define DIMS 64
#define KEY  "sk-embed-secret-0123456789"

typedef enum
{
  ANSWER_GOOD,
  ANSWER_HTTP_500,
  ANSWER_MALFORMED,
  ANSWER_ONE_FEWER,
  ANSWER_RAGGED,
  ANSWER_BAD_INDEX,
} Answer;

typedef struct
{
  AgentTestServer *server;
  AgentProvider   *provider;
  Answer           answer;
  GPtrArray       *batch_sizes;  /* of GUINT_TO_POINTER */
} Fixture;

/* The test's embedding: word counts hashed into DIMS dimensions */
static void
text_vector (const char *text,
             float      *out)
{
  g_autofree char *lower = g_utf8_strdown (text, -1);
  g_auto(GStrv) words = g_regex_split_simple ("[^a-z0-9]+", lower, 0, 0);

  memset (out, 0, sizeof (float) * DIMS);
  for (guint i = 0; words[i] != NULL; i++)
    if (words[i][0] != '\0')
      out[g_str_hash (words[i]) % DIMS] += 1;
}

static void
add_vector (GString    *json,
            const char *text)
{
  float vector[DIMS];

  text_vector (text, vector);
  g_string_append_c (json, '[');
  for (guint i = 0; i < DIMS; i++)
    g_string_append_printf (json, "%s%g", i > 0 ? "," : "", vector[i]);
  g_string_append_c (json, ']');
}

/* The texts a request asks about, whichever API's shape it has */
static GPtrArray *
request_texts (const char *path,
               JsonNode   *body)
{
  GPtrArray *texts = g_ptr_array_new ();
  JsonObject *object = json_node_get_object (body);

  if (g_str_has_suffix (path, ":batchEmbedContents"))
    {
      JsonArray *requests = json_object_get_array_member (object, "requests");

      for (guint i = 0; i < json_array_get_length (requests); i++)
        {
          JsonObject *request = json_array_get_object_element (requests, i);
          JsonObject *content = json_object_get_object_member (request, "content");
          JsonArray *parts = json_object_get_array_member (content, "parts");

          g_autofree char *suffix = g_strconcat (json_object_get_string_member (request, "model")
                                                   + strlen ("models/"),
                                                 ":batchEmbedContents", NULL);

          /* Each request names the model of the path */
          g_assert_true (g_str_has_prefix (json_object_get_string_member (request, "model"),
                                           "models/"));
          g_assert_true (g_str_has_suffix (path, suffix));
          g_assert_cmpuint (json_array_get_length (parts), ==, 1);
          g_ptr_array_add (texts, (char *) json_object_get_string_member (
                                    json_array_get_object_element (parts, 0), "text"));
        }
    }
  else
    {
      JsonArray *input = json_object_get_array_member (object, "input");

      g_assert_nonnull (json_object_get_string_member (object, "model"));
      for (guint i = 0; i < json_array_get_length (input); i++)
        g_ptr_array_add (texts, (char *) json_array_get_string_element (input, i));
    }
  return texts;
}

static void
respond (AgentTestServer *server,
         const char      *path,
         JsonNode        *body,
         gpointer         user_data)
{
  Fixture *f = user_data;
  g_autoptr(GPtrArray) texts = request_texts (path, body);
  g_autoptr(GString) json = g_string_new (NULL);
  guint n = texts->len;
  AgentTestResponse *response;

  g_ptr_array_add (f->batch_sizes, GUINT_TO_POINTER (n));
  if (f->answer == ANSWER_HTTP_500)
    {
      response = agent_test_server_add_response (server, 500);
      agent_test_response_set_body (response, "application/json",
                                    "{\"error\":{\"message\":\"boom for key " KEY "\"}}");
      return;
    }
  if (f->answer == ANSWER_MALFORMED)
    {
      response = agent_test_server_add_response (server, 200);
      agent_test_response_set_body (response, "application/json", "{\"data\": [");
      return;
    }
  if (f->answer == ANSWER_ONE_FEWER)
    n--;

  if (g_str_has_suffix (path, "/embeddings"))
    {
      /* In reverse order: the index says where each goes */
      g_string_append (json, "{\"object\":\"list\",\"data\":[");
      for (guint i = n; i-- > 0;)
        {
          guint index = f->answer == ANSWER_BAD_INDEX ? i + 100 : i;

          g_string_append_printf (json, "%s{\"object\":\"embedding\",\"index\":%u,\"embedding\":",
                                  i + 1 < n ? "," : "", index);
          add_vector (json, texts->pdata[i]);
          g_string_append_c (json, '}');
        }
      g_string_append (json, "],\"model\":\"m\"}");
    }
  else
    {
      gboolean gemini = g_str_has_suffix (path, ":batchEmbedContents");

      g_string_append (json, "{\"embeddings\":[");
      for (guint i = 0; i < n; i++)
        {
          g_string_append (json, i > 0 ? "," : "");
          g_string_append (json, gemini ? "{\"values\":" : "");
          if (f->answer == ANSWER_RAGGED && i == 1)
            g_string_append (json, "[1,2,3]");
          else
            add_vector (json, texts->pdata[i]);
          g_string_append (json, gemini ? "}" : "");
        }
      g_string_append (json, "]}");
    }
  response = agent_test_server_add_response (server, 200);
  agent_test_response_set_body (response, "application/json", json->str);
}

static void
fixture_init (Fixture    *f,
              const char *provider)
{
  g_autoptr(GError) error = NULL;

  f->server = agent_test_server_new ();
  agent_test_server_set_responder (f->server, respond, f);
  f->batch_sizes = g_ptr_array_new ();
  f->provider = agent_provider_new (provider, &error);
  g_assert_no_error (error);
  agent_provider_set_base_url (f->provider, agent_test_server_get_base_url (f->server));
  agent_provider_set_api_key (f->provider, KEY);
}

static void
fixture_clear (Fixture *f)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_finalize_object (f->provider);
  agent_test_server_free (f->server);
  g_ptr_array_unref (f->batch_sizes);
}

static void
done_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static AgentEmbeddings *
embed (Fixture             *f,
       const char * const  *texts,
       const char          *model,
       GCancellable        *cancellable,
       GError             **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  agent_provider_embed_async (f->provider, texts, model, cancellable, done_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return agent_provider_embed_finish (f->provider, result, error);
}

static void
assert_vectors (AgentEmbeddings    *embeddings,
                const char * const *texts)
{
  guint n = g_strv_length ((char **) texts);

  g_assert_cmpuint (agent_embeddings_get_n_vectors (embeddings), ==, n);
  g_assert_cmpuint (agent_embeddings_get_dimensions (embeddings), ==, DIMS);
  g_assert_cmpuint (g_bytes_get_size (agent_embeddings_get_data (embeddings)), ==,
                    (gsize) n * DIMS * sizeof (float));
  for (guint i = 0; i < n; i++)
    {
      float expected[DIMS];
      const float *vector;
      guint n_values = 0;

      text_vector (texts[i], expected);
      vector = agent_embeddings_get_vector (embeddings, i, &n_values);
      g_assert_cmpuint (n_values, ==, DIMS);
      g_assert_cmpmem (vector, sizeof expected, expected, sizeof expected);
    }
}

static const char * const three[] = {
  "The quick brown fox jumps over the lazy dog",
  "Sourdough bread needs a starter, flour and water",
  "Rust and C both compile to machine code",
  NULL
};

static void
check_api (const char *provider,
           const char *model,
           const char *path)
{
  Fixture f = { 0 };
  g_autoptr(AgentEmbeddings) embeddings = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *body;

  fixture_init (&f, provider);
  embeddings = embed (&f, three, model, NULL, &error);
  g_assert_no_error (error);
  assert_vectors (embeddings, three);
  g_assert_cmpstr (agent_embeddings_get_model (embeddings), ==, model);

  g_assert_cmpuint (agent_test_server_get_n_requests (f.server), ==, 1);
  g_assert_cmpstr (agent_test_server_get_request_method (f.server, 0), ==, "POST");
  g_assert_cmpstr (agent_test_server_get_request_path (f.server, 0), ==, path);
  body = json_node_get_object (agent_test_server_get_request_body (f.server, 0));
  if (!g_str_equal (provider, "gemini"))
    g_assert_cmpstr (json_object_get_string_member (body, "model"), ==, model);

  g_clear_object (&embeddings);
  fixture_clear (&f);
}

static void
test_openai (void)
{
  check_api ("openai", "text-embedding-3-small", "/v1/embeddings");
}

static void
test_ollama (void)
{
  check_api ("ollama", "nomic-embed-text", "/v1/api/embed");
}

static void
test_gemini (void)
{
  check_api ("gemini", "text-embedding-004",
             "/v1/v1beta/models/text-embedding-004:batchEmbedContents");
}

static void
test_batches (void)
{
  Fixture f = { 0 };
  g_autoptr(AgentEmbeddings) embeddings = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) texts = NULL;

  for (guint i = 0; i < 150; i++)
    {
      g_autofree char *text = g_strdup_printf ("text number %u about topic%u", i, i % 7);

      g_strv_builder_add (builder, text);
    }
  texts = g_strv_builder_end (builder);

  fixture_init (&f, "ollama");
  embeddings = embed (&f, (const char * const *) texts, "nomic-embed-text", NULL, &error);
  g_assert_no_error (error);
  assert_vectors (embeddings, (const char * const *) texts);
  g_assert_cmpuint (f.batch_sizes->len, ==, 3);
  g_assert_cmpuint (GPOINTER_TO_UINT (f.batch_sizes->pdata[0]), ==, 64);
  g_assert_cmpuint (GPOINTER_TO_UINT (f.batch_sizes->pdata[1]), ==, 64);
  g_assert_cmpuint (GPOINTER_TO_UINT (f.batch_sizes->pdata[2]), ==, 22);

  g_clear_object (&embeddings);
  fixture_clear (&f);
}

static void
test_similarity (void)
{
  static const char * const texts[] = {
    "bread flour water starter bake",
    "bake bread with flour",
    "compile code with a compiler",
    NULL
  };
  Fixture f = { 0 };
  g_autoptr(AgentEmbeddings) embeddings = NULL;
  g_autoptr(GError) error = NULL;

  fixture_init (&f, "openai");
  embeddings = embed (&f, texts, "m", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat_with_epsilon (agent_embeddings_similarity (embeddings, 0, embeddings, 0), 1.0,
                                  1e-6);
  g_assert_cmpfloat (agent_embeddings_similarity (embeddings, 0, embeddings, 1), >,
                     agent_embeddings_similarity (embeddings, 0, embeddings, 2));

  g_clear_object (&embeddings);
  fixture_clear (&f);
}

static void
test_empty (void)
{
  static const char * const none[] = { NULL };
  Fixture f = { 0 };
  g_autoptr(AgentEmbeddings) embeddings = NULL;
  g_autoptr(GError) error = NULL;

  fixture_init (&f, "openai");
  embeddings = embed (&f, none, "m", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (agent_embeddings_get_n_vectors (embeddings), ==, 0);
  g_assert_cmpuint (agent_test_server_get_n_requests (f.server), ==, 0);

  g_clear_object (&embeddings);
  fixture_clear (&f);
}

static void
test_anthropic (void)
{
  Fixture f = { 0 };
  g_autoptr(AgentEmbeddings) embeddings = NULL;
  g_autoptr(GError) error = NULL;

  fixture_init (&f, "anthropic");
  embeddings = embed (&f, three, "claude", NULL, &error);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_UNSUPPORTED);
  g_assert_null (embeddings);
  agent_test_assert_contains (error->message, "Anthropic");
  g_assert_cmpuint (agent_test_server_get_n_requests (f.server), ==, 0);
  fixture_clear (&f);
}

static void
check_bad_answer (const char *provider,
                  Answer      answer,
                  int         code,
                  const char *says)
{
  Fixture f = { 0 };
  g_autoptr(AgentEmbeddings) embeddings = NULL;
  g_autoptr(GError) error = NULL;

  fixture_init (&f, provider);
  f.answer = answer;
  embeddings = embed (&f, three, "m", NULL, &error);
  g_assert_error (error, AGENT_ERROR, code);
  g_assert_null (embeddings);
  agent_test_assert_contains (error->message, says);
  g_assert_null (strstr (error->message, KEY));
  fixture_clear (&f);
}

static void
test_http_error (void)
{
  check_bad_answer ("openai", ANSWER_HTTP_500, AGENT_ERROR_HTTP, "500");
}

static void
test_malformed (void)
{
  check_bad_answer ("openai", ANSWER_MALFORMED, AGENT_ERROR_PROTOCOL, "not a JSON object");
}

static void
test_wrong_count (void)
{
  check_bad_answer ("openai", ANSWER_ONE_FEWER, AGENT_ERROR_PROTOCOL, "2 vectors for 3 texts");
  check_bad_answer ("ollama", ANSWER_ONE_FEWER, AGENT_ERROR_PROTOCOL, "2 vectors for 3 texts");
}

static void
test_ragged (void)
{
  check_bad_answer ("gemini", ANSWER_RAGGED, AGENT_ERROR_PROTOCOL, "different lengths");
}

static void
test_bad_index (void)
{
  check_bad_answer ("openai", ANSWER_BAD_INDEX, AGENT_ERROR_PROTOCOL, "index");
}

static void
test_cancel (void)
{
  Fixture f = { 0 };
  g_autoptr(AgentEmbeddings) embeddings = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;

  fixture_init (&f, "ollama");
  g_cancellable_cancel (cancellable);
  embeddings = embed (&f, three, "m", cancellable, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (embeddings);
  fixture_clear (&f);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/embeddings/openai", test_openai);
  g_test_add_func ("/embeddings/ollama", test_ollama);
  g_test_add_func ("/embeddings/gemini", test_gemini);
  g_test_add_func ("/embeddings/batches", test_batches);
  g_test_add_func ("/embeddings/similarity", test_similarity);
  g_test_add_func ("/embeddings/empty", test_empty);
  g_test_add_func ("/embeddings/anthropic", test_anthropic);
  g_test_add_func ("/embeddings/http-error", test_http_error);
  g_test_add_func ("/embeddings/malformed", test_malformed);
  g_test_add_func ("/embeddings/wrong-count", test_wrong_count);
  g_test_add_func ("/embeddings/ragged", test_ragged);
  g_test_add_func ("/embeddings/bad-index", test_bad_index);
  g_test_add_func ("/embeddings/cancel", test_cancel);

  return g_test_run ();
}
