/* agent-test-embedder.c — a loopback embedding server with fixed vectors
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "agent-test-embedder.h"

static const char * const common_words[] = {
  "a", "an", "and", "are", "as", "at", "be", "by", "do", "for", "from", "how", "i", "in", "is",
  "it", "its", "my", "not", "of", "on", "or", "so", "that", "the", "they", "this", "to", "what",
  "when", "with", NULL
};

/* Documented in agent-test-embedder.h */
void
agent_test_embedder_vector (const char *text,
                            float      *out)
{
  g_autofree char *lower = g_utf8_strdown (text, -1);
  g_auto(GStrv) words = g_regex_split_simple ("[^a-z0-9]+", lower, 0, 0);

  memset (out, 0, sizeof (float) * AGENT_TEST_EMBEDDER_DIMS);
  for (guint i = 0; words[i] != NULL; i++)
    if (words[i][0] != '\0' && !g_strv_contains (common_words, words[i]))
      out[g_str_hash (words[i]) % AGENT_TEST_EMBEDDER_DIMS] += 1;
  /* Never the zero vector, which is no direction */
  out[0] += 0.01f;
}

static void
respond (AgentTestServer *server,
         const char      *path,
         JsonNode        *body,
         gpointer         user_data)
{
  AgentTestEmbedder *self = user_data;
  g_autoptr(GString) json = g_string_new ("{\"object\":\"list\",\"data\":[");
  AgentTestResponse *response;
  JsonArray *input;
  guint n;

  if (!g_str_has_suffix (path, "/embeddings"))
    {
      g_assert_nonnull (self->chat);
      self->chat (server, path, body, self->chat_data);
      return;
    }

  input = json_object_get_array_member (json_node_get_object (body), "input");
  n = json_array_get_length (input);
  self->n_requests++;
  g_array_append_val (self->batch_sizes, n);
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (self->texts, g_strdup (json_array_get_string_element (input, i)));
  if (self->hook != NULL)
    self->hook (self, input, self->hook_data);

  if (self->n_transient > 0)
    {
      self->n_transient--;
      response = agent_test_server_add_response (server, 503);
      agent_test_response_set_body (response, "application/json",
                                    "{\"error\":{\"message\":\"busy, try again\"}}");
      return;
    }
  for (guint i = 0; self->fail_word != NULL && i < n; i++)
    if (strstr (json_array_get_string_element (input, i), self->fail_word) != NULL)
      {
        response = agent_test_server_add_response (server, 500);
        agent_test_response_set_body (response, "application/json",
                                      "{\"error\":{\"message\":\"the model broke\"}}");
        return;
      }

  for (guint i = 0; i < n; i++)
    {
      float vector[AGENT_TEST_EMBEDDER_DIMS];

      agent_test_embedder_vector (json_array_get_string_element (input, i), vector);
      g_string_append_printf (json, "%s{\"object\":\"embedding\",\"index\":%u,\"embedding\":[",
                              i > 0 ? "," : "", i);
      for (guint d = 0; d < AGENT_TEST_EMBEDDER_DIMS; d++)
        g_string_append_printf (json, "%s%g", d > 0 ? "," : "", vector[d]);
      g_string_append (json, "]}");
    }
  g_string_append (json, "],\"model\":\"test-embed\"}");
  response = agent_test_server_add_response (server, 200);
  agent_test_response_set_body (response, "application/json", json->str);
}

/* Documented in agent-test-embedder.h */
AgentTestEmbedder *
agent_test_embedder_new (void)
{
  AgentTestEmbedder *self = g_new0 (AgentTestEmbedder, 1);

  self->server = agent_test_server_new ();
  self->batch_sizes = g_array_new (FALSE, FALSE, sizeof (guint));
  self->texts = g_ptr_array_new_with_free_func (g_free);
  agent_test_server_set_responder (self->server, respond, self);
  return self;
}

/* Documented in agent-test-embedder.h */
AgentProvider *
agent_test_embedder_provider_new (AgentTestEmbedder *self)
{
  g_autoptr(GError) error = NULL;
  AgentProvider *provider = agent_provider_new ("openai", &error);

  g_assert_no_error (error);
  agent_provider_set_base_url (provider, agent_test_server_get_base_url (self->server));
  agent_provider_set_api_key (provider, "sk-embedder-test-key");
  agent_provider_set_model (provider, "test-embed");
  return provider;
}

/* Documented in agent-test-embedder.h */
void
agent_test_embedder_free (AgentTestEmbedder *self)
{
  agent_test_server_free (self->server);
  g_array_unref (self->batch_sizes);
  g_ptr_array_unref (self->texts);
  g_free (self->fail_word);
  g_free (self);
}
