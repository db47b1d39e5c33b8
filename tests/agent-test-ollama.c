/* agent-test-ollama.c — a fake Ollama for tests
 *
 * The shapes are those of Ollama's own documentation (docs/api.md of
 * github.com/ollama/ollama: /api/tags, /api/show, /api/ps, /api/pull,
 * /api/delete, /api/generate with keep_alive 0) and of its server
 * (server/routes.go, server/images.go), for what the documentation does not
 * show: the errors.
 *
 * - GET /api/tags: {"models": [{"name", "model", "modified_at", "size",
 *   "digest", "details": {"format", "family", "families",
 *   "parameter_size", "quantization_level"}}]}
 * - POST /api/show {"model"}: {"modelfile", "parameters", "template",
 *   "details", "model_info": {"general.architecture",
 *   "<arch>.context_length", …}, "capabilities": [...], "modified_at"};
 *   404 {"error": "model 'x' not found"}
 * - GET /api/ps: the running models, with "size_vram" and "expires_at"
 * - POST /api/pull {"model"}: NDJSON, {"status": "pulling manifest"}, per
 *   layer {"status": "pulling <12 hex>", "digest": "sha256:…", "total"[,
 *   "completed"]}, then "verifying sha256 digest", "writing manifest",
 *   "success"; an error after the stream started is a line {"error": "…"}
 *   with status 200: "pull model manifest: file does not exist" (not in
 *   the registry), "pull model manifest: Get \"https://registry.ollama.ai/…\":
 *   dial tcp: lookup registry.ollama.ai: no such host" (no registry),
 *   "write …-partial: no space left on device" (full disk). A layer cut
 *   short resumes where it stopped on the next pull, as Ollama's
 *   downloads do (docs/api.md: "Cancelled pulls are resumed from where
 *   they left off").
 * - DELETE /api/delete {"model"}: 200, or 404 {"error": "model 'x' not
 *   found"}. Ollama deletes a running model all the same (its runner
 *   stays until it unloads).
 * - POST /api/generate {"model", "keep_alive": 0}: {"model",
 *   "created_at", "response": "", "done": true, "done_reason": "unload"};
 *   404 {"error": "model 'x' not found"}.
 * - POST /api/chat: one NDJSON answer; 404 {"error": "model 'x' not
 *   found"} for a model that is not installed.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agent-test-ollama.h"

#define N_LAYERS 3

static const guint64 layer_sizes[N_LAYERS] = { 4000000, 1024, 96 };

typedef struct
{
  char    *name;
  char    *family;
  char    *parameter_size;
  char    *quantization;
  char    *capabilities;
  guint64  size;
  gint64   context_length;
  guint64  size_vram;        /* running: > 0 */
  char    *expires_at;
} Model;

struct _AgentTestOllama
{
  AgentTestServer *server;
  GPtrArray       *models;      /* of Model, installed */
  GHashTable      *registry;    /* name → the bytes of its first layer already here */
  GHashTable      *show_fails;  /* names */
  GHashTable      *counts;      /* path → requests */
  AgentTestPull    next_pull;
  gboolean         hold_shows;
  char            *hang_up_path; /* the next request on it gets no answer */
  char            *chat_text;
  char            *base_url;    /* without the test server's /v1 */
};

static void
model_free (gpointer data)
{
  Model *model = data;

  g_free (model->name);
  g_free (model->family);
  g_free (model->parameter_size);
  g_free (model->quantization);
  g_free (model->capabilities);
  g_free (model->expires_at);
  g_free (model);
}

static Model *
find_model (AgentTestOllama *self,
            const char      *name)
{
  g_autofree char *tagged = NULL;

  if (name == NULL)
    return NULL;
  /* "llama3.2" is "llama3.2:latest" */
  tagged = strchr (name, ':') != NULL ? g_strdup (name) : g_strconcat (name, ":latest", NULL);
  for (guint i = 0; i < self->models->len; i++)
    {
      Model *model = g_ptr_array_index (self->models, i);

      if (g_str_equal (model->name, tagged))
        return model;
    }
  return NULL;
}

static char *
digest_of (const char *name,
           guint       layer)
{
  g_autofree char *text = g_strdup_printf ("%s/%u", name, layer);

  return g_compute_checksum_for_string (G_CHECKSUM_SHA256, text, -1);
}

static void
answer_json (AgentTestServer *server,
             guint            status,
             const char      *json)
{
  agent_test_response_set_body (agent_test_server_add_response (server, status),
                                "application/json; charset=utf-8", json);
}

static void
answer_not_found (AgentTestServer *server,
                  const char      *name)
{
  g_autofree char *json = g_strdup_printf ("{\"error\":\"model '%s' not found\"}",
                                           name ? name : "");

  answer_json (server, 404, json);
}

static void
add_details (JsonBuilder *builder,
             Model       *model)
{
  json_builder_set_member_name (builder, "details");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "parent_model");
  json_builder_add_string_value (builder, "");
  json_builder_set_member_name (builder, "format");
  json_builder_add_string_value (builder, "gguf");
  json_builder_set_member_name (builder, "family");
  json_builder_add_string_value (builder, model->family);
  json_builder_set_member_name (builder, "families");
  json_builder_begin_array (builder);
  json_builder_add_string_value (builder, model->family);
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "parameter_size");
  json_builder_add_string_value (builder, model->parameter_size);
  json_builder_set_member_name (builder, "quantization_level");
  json_builder_add_string_value (builder, model->quantization);
  json_builder_end_object (builder);
}

static void
add_entry (JsonBuilder *builder,
           Model       *model,
           gboolean     running)
{
  g_autofree char *digest = digest_of (model->name, 0);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "name");
  json_builder_add_string_value (builder, model->name);
  json_builder_set_member_name (builder, "model");
  json_builder_add_string_value (builder, model->name);
  if (!running)
    {
      json_builder_set_member_name (builder, "modified_at");
      json_builder_add_string_value (builder, "2025-05-10T08:06:48.639712648-07:00");
    }
  json_builder_set_member_name (builder, "size");
  json_builder_add_int_value (builder, (gint64) model->size);
  json_builder_set_member_name (builder, "digest");
  json_builder_add_string_value (builder, digest);
  add_details (builder, model);
  if (running)
    {
      json_builder_set_member_name (builder, "expires_at");
      json_builder_add_string_value (builder, model->expires_at);
      json_builder_set_member_name (builder, "size_vram");
      json_builder_add_int_value (builder, (gint64) model->size_vram);
    }
  json_builder_end_object (builder);
}

static void
answer_builder (AgentTestServer *server,
                JsonBuilder     *builder)
{
  g_autoptr(JsonNode) root = json_builder_get_root (builder);
  g_autofree char *json = json_to_string (root, FALSE);

  answer_json (server, 200, json);
}

static void
answer_list (AgentTestOllama *self,
             gboolean         running)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "models");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->models->len; i++)
    {
      Model *model = g_ptr_array_index (self->models, i);

      if (!running || model->size_vram > 0)
        add_entry (builder, model, running);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  answer_builder (self->server, builder);
}

static void
answer_show (AgentTestOllama *self,
             const char      *name)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *json = NULL;
  g_auto(GStrv) capabilities = NULL;
  g_autofree char *context_member = NULL;
  AgentTestResponse *response;
  Model *model = find_model (self, name);

  if (model == NULL)
    {
      answer_not_found (self->server, name);
      return;
    }
  if (g_hash_table_contains (self->show_fails, model->name))
    {
      answer_json (self->server, 500, "{\"error\":\"failed to read the model's file\"}");
      return;
    }

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "modelfile");
  json_builder_add_string_value (builder, "# Modelfile generated by \"ollama show\"\nFROM x\n");
  json_builder_set_member_name (builder, "parameters");
  json_builder_add_string_value (builder, "stop                           \"<|eot_id|>\"");
  json_builder_set_member_name (builder, "template");
  json_builder_add_string_value (builder, "{{ .Prompt }}");
  add_details (builder, model);
  json_builder_set_member_name (builder, "model_info");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "general.architecture");
  json_builder_add_string_value (builder, model->family);
  json_builder_set_member_name (builder, "general.parameter_count");
  json_builder_add_int_value (builder, 8030261248);
  if (model->context_length > 0)
    {
      context_member = g_strconcat (model->family, ".context_length", NULL);
      json_builder_set_member_name (builder, context_member);
      json_builder_add_int_value (builder, model->context_length);
    }
  json_builder_set_member_name (builder, "tokenizer.ggml.tokens");
  json_builder_begin_array (builder);
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "capabilities");
  json_builder_begin_array (builder);
  capabilities = g_strsplit (model->capabilities, ",", -1);
  for (guint i = 0; capabilities[i] != NULL; i++)
    if (*capabilities[i] != '\0')
      json_builder_add_string_value (builder, capabilities[i]);
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "modified_at");
  json_builder_add_string_value (builder, "2025-05-10T08:06:48.639712648-07:00");
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json = json_to_string (root, FALSE);
  response = agent_test_server_add_response (self->server, 200);
  agent_test_response_set_content_type (response, "application/json; charset=utf-8");
  if (self->hold_shows)
    agent_test_response_add_wait (response);
  agent_test_response_add_bytes (response, json, -1);
}

static void
add_line (AgentTestResponse *response,
          const char        *format,
          ...) G_GNUC_PRINTF (2, 3);

static void
add_line (AgentTestResponse *response,
          const char        *format,
          ...)
{
  g_autofree char *line = NULL;
  va_list args;

  va_start (args, format);
  line = g_strdup_vprintf (format, args);
  va_end (args);
  agent_test_response_add_bytes (response, line, -1);
  agent_test_response_add_bytes (response, "\n", 1);
}

static void
answer_pull (AgentTestOllama *self,
             const char      *name)
{
  g_autofree char *tagged = NULL;
  AgentTestPull pull = self->next_pull;
  AgentTestResponse *response;
  gpointer resumed;

  self->next_pull = AGENT_TEST_PULL_OK;
  if (name == NULL || *name == '\0')
    {
      answer_json (self->server, 400, "{\"error\":\"missing request body\"}");
      return;
    }
  tagged = strchr (name, ':') != NULL ? g_strdup (name) : g_strconcat (name, ":latest", NULL);

  response = agent_test_server_add_response (self->server, 200);
  agent_test_response_set_content_type (response, "application/x-ndjson");
  add_line (response, "{\"status\":\"pulling manifest\"}");

  if (pull == AGENT_TEST_PULL_NO_REGISTRY)
    {
      add_line (response, "{\"error\":\"pull model manifest: Get \\\"https://registry.ollama.ai/"
                "v2/library/%s/manifests/latest\\\": dial tcp: lookup registry.ollama.ai: no "
                "such host\"}", name);
      return;
    }
  if (!g_hash_table_lookup_extended (self->registry, tagged, NULL, &resumed))
    {
      add_line (response, "{\"error\":\"pull model manifest: file does not exist\"}");
      return;
    }

  for (guint layer = 0; layer < N_LAYERS; layer++)
    {
      g_autofree char *digest = digest_of (tagged, layer);
      guint64 total = layer_sizes[layer];
      guint64 start = layer == 0 ? GPOINTER_TO_SIZE (resumed) : 0;
      guint64 half = total / 2;

      /* The first line of a layer has no "completed" */
      add_line (response, "{\"status\":\"pulling %.12s\",\"digest\":\"sha256:%s\",\"total\":%"
                G_GUINT64_FORMAT "}", digest, digest, total);
      if (layer == 0 && pull != AGENT_TEST_PULL_OK)
        {
          add_line (response, "{\"status\":\"pulling %.12s\",\"digest\":\"sha256:%s\",\"total\":%"
                    G_GUINT64_FORMAT ",\"completed\":%" G_GUINT64_FORMAT "}",
                    digest, digest, total, MAX (start, half));
          /* What is on the disk stays for the next pull */
          g_hash_table_insert (self->registry, g_strdup (tagged),
                               GSIZE_TO_POINTER (MAX (start, half)));
          if (pull == AGENT_TEST_PULL_WAIT)
            {
              agent_test_response_add_wait (response);
              /* Written into a closed connection: a few writes later, the
               * server knows */
              for (guint64 step = 1; step <= 20; step++)
                {
                  agent_test_response_add_delay (response, 10);
                  add_line (response, "{\"status\":\"pulling %.12s\",\"digest\":\"sha256:%s\","
                            "\"total\":%" G_GUINT64_FORMAT ",\"completed\":%" G_GUINT64_FORMAT
                            "}", digest, digest, total, half + (total - half) * step / 20);
                }
              /* Ends cleanly if the client is still there (it should not be) */
            }
          else if (pull == AGENT_TEST_PULL_DROP)
            {
              agent_test_response_add_bytes (response, "{\"status\":\"pulling", -1);
              agent_test_response_set_drop (response);
            }
          else
            add_line (response, "{\"error\":\"write /usr/share/ollama/.ollama/models/blobs/"
                      "sha256-%s-partial-0: no space left on device\"}", digest);
          return;
        }
      for (guint64 completed = start + (total - start) / 2; ; completed = total)
        {
          add_line (response, "{\"status\":\"pulling %.12s\",\"digest\":\"sha256:%s\",\"total\":%"
                    G_GUINT64_FORMAT ",\"completed\":%" G_GUINT64_FORMAT "}",
                    digest, digest, total, completed);
          if (completed == total)
            break;
        }
    }
  add_line (response, "{\"status\":\"verifying sha256 digest\"}");
  add_line (response, "{\"status\":\"writing manifest\"}");
  add_line (response, "{\"status\":\"success\"}");

  g_hash_table_insert (self->registry, g_strdup (tagged), GSIZE_TO_POINTER (0));
  if (find_model (self, tagged) == NULL)
    agent_test_ollama_add_model (self, tagged, "llama", "3.2B", "Q4_K_M",
                                 layer_sizes[0] + layer_sizes[1] + layer_sizes[2], 131072,
                                 "completion,tools");
}

static void
answer_delete (AgentTestOllama *self,
               const char      *name)
{
  Model *model = find_model (self, name);

  if (model == NULL)
    {
      answer_not_found (self->server, name);
      return;
    }
  /* A running model is deleted too */
  g_ptr_array_remove (self->models, model);
  answer_json (self->server, 200, "");
}

static void
answer_generate (AgentTestOllama *self,
                 JsonObject      *body)
{
  const char *name = json_object_get_string_member_with_default (body, "model", NULL);
  g_autofree char *json = NULL;
  Model *model = find_model (self, name);

  if (model == NULL)
    {
      answer_not_found (self->server, name);
      return;
    }
  if (json_object_has_member (body, "keep_alive") &&
      json_object_get_int_member_with_default (body, "keep_alive", -1) == 0)
    {
      model->size_vram = 0;
      json = g_strdup_printf ("{\"model\":\"%s\",\"created_at\":\"2025-05-10T08:06:48Z\","
                              "\"response\":\"\",\"done\":true,\"done_reason\":\"unload\"}",
                              name);
    }
  else
    json = g_strdup_printf ("{\"model\":\"%s\",\"created_at\":\"2025-05-10T08:06:48Z\","
                            "\"response\":\"\",\"done\":true,\"done_reason\":\"load\"}", name);
  answer_json (self->server, 200, json);
}

static void
answer_chat (AgentTestOllama *self,
             const char      *name)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *json = NULL;
  AgentTestResponse *response;
  g_autofree char *text = g_steal_pointer (&self->chat_text);

  if (find_model (self, name) == NULL)
    {
      answer_not_found (self->server, name);
      return;
    }

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "model");
  json_builder_add_string_value (builder, name);
  json_builder_set_member_name (builder, "message");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "role");
  json_builder_add_string_value (builder, "assistant");
  json_builder_set_member_name (builder, "content");
  json_builder_add_string_value (builder, text != NULL ? text : "OK.");
  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "done");
  json_builder_add_boolean_value (builder, FALSE);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  json = json_to_string (root, FALSE);

  response = agent_test_server_add_response (self->server, 200);
  agent_test_response_set_content_type (response, "application/x-ndjson");
  add_line (response, "%s", json);
  add_line (response, "{\"model\":\"%s\",\"message\":{\"role\":\"assistant\",\"content\":\"\"},"
            "\"done\":true,\"done_reason\":\"stop\",\"prompt_eval_count\":10,"
            "\"eval_count\":2}", name);
}

static void
respond (AgentTestServer *server,
         const char      *path,
         JsonNode        *body,
         gpointer         user_data)
{
  AgentTestOllama *self = user_data;
  JsonObject *object = body != NULL && JSON_NODE_HOLDS_OBJECT (body) ? json_node_get_object (body)
                                                                     : NULL;
  const char *name = NULL;
  guint count = GPOINTER_TO_UINT (g_hash_table_lookup (self->counts, path));

  g_hash_table_insert (self->counts, g_strdup (path), GUINT_TO_POINTER (count + 1));
  if (object != NULL)
    name = json_object_get_string_member_with_default (object, "model", NULL);

  if (g_strcmp0 (path, self->hang_up_path) == 0)
    {
      g_clear_pointer (&self->hang_up_path, g_free);
      agent_test_response_set_hang_up (agent_test_server_add_response (server, 200));
    }
  else if (g_str_equal (path, "/api/tags"))
    answer_list (self, FALSE);
  else if (g_str_equal (path, "/api/ps"))
    answer_list (self, TRUE);
  else if (g_str_equal (path, "/api/show"))
    answer_show (self, name);
  else if (g_str_equal (path, "/api/pull"))
    answer_pull (self, name);
  else if (g_str_equal (path, "/api/delete"))
    answer_delete (self, name);
  else if (g_str_equal (path, "/api/generate") && object != NULL)
    answer_generate (self, object);
  else if (g_str_equal (path, "/api/chat"))
    answer_chat (self, name);
  else
    answer_json (server, 404, "404 page not found");
}

AgentTestOllama *
agent_test_ollama_new (void)
{
  AgentTestOllama *self = g_new0 (AgentTestOllama, 1);
  const char *url;

  self->server = agent_test_server_new ();
  self->models = g_ptr_array_new_with_free_func (model_free);
  self->registry = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->show_fails = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  /* Ollama keeps its connections alive */
  agent_test_server_set_keep_alive (self->server);
  agent_test_server_set_responder (self->server, respond, self);
  url = agent_test_server_get_base_url (self->server);
  g_assert_true (g_str_has_suffix (url, "/v1"));
  self->base_url = g_strndup (url, strlen (url) - strlen ("/v1"));
  return self;
}

void
agent_test_ollama_free (AgentTestOllama *self)
{
  g_clear_pointer (&self->server, agent_test_server_free);
  g_ptr_array_unref (self->models);
  g_hash_table_unref (self->registry);
  g_hash_table_unref (self->show_fails);
  g_hash_table_unref (self->counts);
  g_free (self->chat_text);
  g_free (self->hang_up_path);
  g_free (self->base_url);
  g_free (self);
}

AgentTestServer *
agent_test_ollama_get_server (AgentTestOllama *self)
{
  return self->server;
}

const char *
agent_test_ollama_get_base_url (AgentTestOllama *self)
{
  return self->base_url;
}

void
agent_test_ollama_add_model (AgentTestOllama *self,
                             const char      *name,
                             const char      *family,
                             const char      *parameter_size,
                             const char      *quantization,
                             guint64          size,
                             gint64           context_length,
                             const char      *capabilities)
{
  Model *model = g_new0 (Model, 1);

  model->name = strchr (name, ':') != NULL ? g_strdup (name) : g_strconcat (name, ":latest", NULL);
  model->family = g_strdup (family);
  model->parameter_size = g_strdup (parameter_size);
  model->quantization = g_strdup (quantization);
  model->capabilities = g_strdup (capabilities);
  model->size = size;
  model->context_length = context_length;
  g_ptr_array_add (self->models, model);
}

gboolean
agent_test_ollama_has_model (AgentTestOllama *self,
                             const char      *name)
{
  return find_model (self, name) != NULL;
}

void
agent_test_ollama_set_running (AgentTestOllama *self,
                               const char      *name,
                               guint64          size_vram,
                               const char      *expires_at)
{
  Model *model = find_model (self, name);

  g_assert_nonnull (model);
  model->size_vram = size_vram;
  g_free (model->expires_at);
  model->expires_at = g_strdup (expires_at);
}

gboolean
agent_test_ollama_is_running (AgentTestOllama *self,
                              const char      *name)
{
  Model *model = find_model (self, name);

  return model != NULL && model->size_vram > 0;
}

void
agent_test_ollama_add_to_registry (AgentTestOllama *self,
                                   const char      *name)
{
  char *tagged = strchr (name, ':') != NULL ? g_strdup (name) : g_strconcat (name, ":latest", NULL);

  g_hash_table_insert (self->registry, tagged, GSIZE_TO_POINTER (0));
}

void
agent_test_ollama_set_next_pull (AgentTestOllama *self,
                                 AgentTestPull    pull)
{
  self->next_pull = pull;
}

void
agent_test_ollama_set_show_fails (AgentTestOllama *self,
                                  const char      *name)
{
  Model *model = find_model (self, name);

  g_assert_nonnull (model);
  g_hash_table_add (self->show_fails, g_strdup (model->name));
}

guint
agent_test_ollama_count (AgentTestOllama *self,
                         const char      *path)
{
  return GPOINTER_TO_UINT (g_hash_table_lookup (self->counts, path));
}

void
agent_test_ollama_set_hold_shows (AgentTestOllama *self,
                                  gboolean         hold)
{
  self->hold_shows = hold;
}

void
agent_test_ollama_set_chat_text (AgentTestOllama *self,
                                 const char      *text)
{
  g_free (self->chat_text);
  self->chat_text = g_strdup (text);
}

void
agent_test_ollama_set_hang_up (AgentTestOllama *self,
                               const char      *path)
{
  g_free (self->hang_up_path);
  self->hang_up_path = g_strdup (path);
}
