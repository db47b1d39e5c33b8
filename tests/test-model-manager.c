/* test-model-manager.c — managing Ollama's models: list, show, pull, delete, unload
 *
 * Against a fake Ollama (agent-test-ollama.c) that speaks the shapes of
 * Ollama's docs/api.md over real HTTP on 127.0.0.1.
 *
 * - /models/list: /api/tags, then /api/show for each model; sorted by name;
 *   a model the server fails to describe is listed without its details.
 * - /models/list/bounded: at most 4 /api/show at once.
 * - /models/list/cancel: a listing cancelled while its descriptions are
 *   asked for fails with G_IO_ERROR_CANCELLED.
 * - /models/show, /models/show/unknown: one model; a model that is not
 *   installed is %AGENT_ERROR_MODEL_NOT_FOUND pointing to the pull.
 * - /models/running: /api/ps with size_vram and expires_at.
 * - /models/pull/layers: progress for several layers, bytes per layer and
 *   overall, never backwards, 1 at "success"; the model is installed.
 * - /models/pull/cancel-resume: cancelled mid-layer the connection closes;
 *   the next pull resumes and succeeds.
 * - /models/pull/dropped: the connection breaks mid-line: a network error
 *   saying the pull can be resumed; the progress seen stays.
 * - /models/pull/no-space, /no-registry, /unknown: the error lines of
 *   Ollama, each with its code.
 * - /models/delete: a running model is unloaded, then deleted; an unknown
 *   one is %AGENT_ERROR_MODEL_NOT_FOUND.
 * - /models/delete/hang-up: the server closes the unload's kept-alive
 *   connection when the delete comes on it; libsoup sends the DELETE again
 *   on a new connection, with its body, and the model is deleted.
 * - /models/unload: keep_alive 0; an unknown model is not found.
 * - /models/chat/not-installed: a turn with a model Ollama does not have
 *   fails with %AGENT_ERROR_MODEL_NOT_FOUND pointing to the pull, whether
 *   the chat or the model's description says so.
 * - /models/unsupported: OpenAI-compatible servers have no manager: the
 *   calls fail naming the provider, and nothing is sent.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <agent.h>

#include "agent-test-ollama.h"
#include "agent-test-provider.h"
#include "agent-test-util.h"

typedef struct
{
  AgentTestOllama   *ollama;
  AgentProvider     *provider;
  AgentModelManager *manager;
} Fixture;

static void
fixture_init (Fixture *f)
{
  g_autoptr(GError) error = NULL;

  f->ollama = agent_test_ollama_new ();
  f->provider = agent_provider_new ("ollama", &error);
  g_assert_no_error (error);
  agent_provider_set_base_url (f->provider, agent_test_ollama_get_base_url (f->ollama));
  f->manager = agent_model_manager_new (f->provider);
  g_assert_true (agent_model_manager_get_supported (f->manager));

  agent_test_ollama_add_model (f->ollama, "llava:7b", "llama", "7B", "Q4_0", 4733363377, 32768,
                               "completion,vision");
  agent_test_ollama_add_model (f->ollama, "qwen3:8b", "qwen3", "8.2B", "Q4_K_M", 5225376047,
                               40960, "completion,tools,thinking");
  agent_test_ollama_add_model (f->ollama, "nomic-embed-text", "nomic-bert", "137M", "F16",
                               274302450, 2048, "embedding");
}

static void
fixture_clear (Fixture *f)
{
  /* What is left of the last request: its GTask, returned in an idle */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_finalize_object (f->manager);
  g_assert_finalize_object (f->provider);
  agent_test_ollama_free (f->ollama);
}

static void
result_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static gboolean
has_result (gpointer data)
{
  return *(GAsyncResult **) data != NULL;
}

/* The result, or a failure after AGENT_TEST_WAIT_LIMIT_SECONDS */
static GAsyncResult *
wait_result (GAsyncResult **result)
{
  agent_test_wait_until (has_result, result);
  return *result;
}

static GListModel *
list (Fixture  *f,
      GError  **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  agent_model_manager_list_async (f->manager, NULL, result_cb, &result);
  return agent_model_manager_list_finish (f->manager, wait_result (&result), error);
}

static AgentModelInfo *
info_at (GListModel *models,
         guint       i)
{
  g_autoptr(AgentModelInfo) info = g_list_model_get_item (models, i);

  return info;  /* the list holds it */
}

static void
test_list (void)
{
  Fixture f;
  g_autoptr(GError) error = NULL;
  g_autoptr(GListModel) models = NULL;
  g_autofree char *names = NULL;
  AgentModelInfo *info;

  fixture_init (&f);
  agent_test_ollama_set_show_fails (f.ollama, "nomic-embed-text");
  models = list (&f, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (models), ==, 3);
  g_assert_cmpuint (agent_test_ollama_count (f.ollama, "/api/tags"), ==, 1);
  g_assert_cmpuint (agent_test_ollama_count (f.ollama, "/api/show"), ==, 3);

  info = info_at (models, 0);
  g_assert_cmpstr (agent_model_info_get_name (info), ==, "llava:7b");
  g_assert_true (agent_model_info_get_details_known (info));
  g_assert_cmpuint (agent_model_info_get_size (info), ==, 4733363377);
  g_assert_cmpstr (agent_model_info_get_family (info), ==, "llama");
  g_assert_cmpstr (agent_model_info_get_parameter_size (info), ==, "7B");
  g_assert_cmpstr (agent_model_info_get_quantization (info), ==, "Q4_0");
  g_assert_cmpuint (agent_model_info_get_context_length (info), ==, 32768);
  g_assert_cmpint (agent_model_info_get_capabilities (info), ==,
                   AGENT_MODEL_CAPABILITY_COMPLETION | AGENT_MODEL_CAPABILITY_VISION);
  g_assert_nonnull (agent_model_info_get_modified_at (info));
  g_assert_cmpint (g_date_time_get_year (agent_model_info_get_modified_at (info)), ==, 2025);
  g_assert_cmpuint (strlen (agent_model_info_get_digest (info)), ==, 64);
  g_assert_null (agent_model_info_get_expires_at (info));

  /* Listed, not described: what /api/tags said stays */
  info = info_at (models, 1);
  g_assert_cmpstr (agent_model_info_get_name (info), ==, "nomic-embed-text:latest");
  g_assert_false (agent_model_info_get_details_known (info));
  g_assert_cmpstr (agent_model_info_get_family (info), ==, "nomic-bert");
  g_assert_cmpuint (agent_model_info_get_context_length (info), ==, 0);
  g_assert_cmpint (agent_model_info_get_capabilities (info), ==, AGENT_MODEL_CAPABILITY_NONE);

  info = info_at (models, 2);
  g_assert_cmpstr (agent_model_info_get_name (info), ==, "qwen3:8b");
  g_assert_true (agent_model_info_has_capabilities (info, AGENT_MODEL_CAPABILITY_TOOLS |
                                                          AGENT_MODEL_CAPABILITY_THINKING));
  g_assert_false (agent_model_info_has_capabilities (info, AGENT_MODEL_CAPABILITY_VISION));
  names = agent_model_capabilities_to_string (agent_model_info_get_capabilities (info));
  g_assert_cmpstr (names, ==, "completion,tools,thinking");

  g_clear_object (&models);
  fixture_clear (&f);
}

static gboolean
four_waiting (gpointer data)
{
  return agent_test_server_get_n_waiting (data) == 4;
}

static void
test_list_bounded (void)
{
  Fixture f;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GListModel) models = NULL;
  g_autoptr(GError) error = NULL;
  AgentTestServer *server;

  fixture_init (&f);
  server = agent_test_ollama_get_server (f.ollama);
  for (guint i = 0; i < 5; i++)
    {
      g_autofree char *name = g_strdup_printf ("extra%u:1b", i);

      agent_test_ollama_add_model (f.ollama, name, "llama", "1B", "Q8_0", 1000 + i, 4096,
                                   "completion");
    }
  agent_test_ollama_set_hold_shows (f.ollama, TRUE);

  agent_model_manager_list_async (f.manager, NULL, result_cb, &result);
  agent_test_wait_until (four_waiting, server);
  /* Nothing more is asked while four are open */
  for (guint i = 0; i < 50; i++)
    g_main_context_iteration (NULL, FALSE);
  g_assert_cmpuint (agent_test_ollama_count (f.ollama, "/api/show"), ==, 4);
  g_assert_null (result);

  agent_test_ollama_set_hold_shows (f.ollama, FALSE);
  agent_test_server_release (server);
  models = agent_model_manager_list_finish (f.manager, wait_result (&result), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (models), ==, 8);
  g_assert_cmpuint (agent_test_ollama_count (f.ollama, "/api/show"), ==, 8);
  for (guint i = 0; i < 8; i++)
    g_assert_true (agent_model_info_get_details_known (info_at (models, i)));

  g_clear_object (&models);
  g_clear_object (&result);
  fixture_clear (&f);
}

static void
test_list_cancel (void)
{
  Fixture f;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GListModel) models = NULL;
  g_autoptr(GError) error = NULL;

  fixture_init (&f);
  agent_test_ollama_set_hold_shows (f.ollama, TRUE);
  agent_model_manager_list_async (f.manager, cancellable, result_cb, &result);
  agent_test_server_wait_until_waiting (agent_test_ollama_get_server (f.ollama));
  g_cancellable_cancel (cancellable);
  models = agent_model_manager_list_finish (f.manager, wait_result (&result), &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (models);

  g_clear_object (&result);
  fixture_clear (&f);
}

static AgentModelInfo *
show (Fixture     *f,
      const char  *model,
      GError     **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  agent_model_manager_show_async (f->manager, model, NULL, result_cb, &result);
  return agent_model_manager_show_finish (f->manager, wait_result (&result), error);
}

static void
test_show (void)
{
  Fixture f;
  g_autoptr(GError) error = NULL;
  g_autoptr(AgentModelInfo) info = NULL;
  JsonNode *body;

  fixture_init (&f);
  info = show (&f, "qwen3:8b", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (agent_model_info_get_name (info), ==, "qwen3:8b");
  g_assert_cmpstr (agent_model_info_get_family (info), ==, "qwen3");
  g_assert_cmpuint (agent_model_info_get_context_length (info), ==, 40960);
  g_assert_true (agent_model_info_has_capabilities (info, AGENT_MODEL_CAPABILITY_THINKING));

  g_assert_cmpstr (agent_test_server_get_request_method (agent_test_ollama_get_server (f.ollama),
                                                         0), ==, "POST");
  body = agent_test_server_get_request_body (agent_test_ollama_get_server (f.ollama), 0);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (body), "model"), ==,
                   "qwen3:8b");

  g_clear_object (&info);
  fixture_clear (&f);
}

static void
test_show_unknown (void)
{
  Fixture f;
  g_autoptr(GError) error = NULL;
  g_autoptr(AgentModelInfo) info = NULL;

  fixture_init (&f);
  info = show (&f, "mistral", &error);
  g_assert_null (info);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_MODEL_NOT_FOUND);
  agent_test_assert_contains (error->message, "mistral");
  agent_test_assert_contains (error->message, "agent-cli --pull mistral");
  g_assert_cmpstr (agent_error_get_code (error), ==, "model-not-found");

  fixture_clear (&f);
}

static void
test_running (void)
{
  Fixture f;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GListModel) models = NULL;
  g_autoptr(GError) error = NULL;
  AgentModelInfo *info;
  GDateTime *expires_at;

  fixture_init (&f);
  agent_test_ollama_set_running (f.ollama, "qwen3:8b", 5137025024,
                                 "2024-06-04T14:38:31.83753-07:00");
  agent_model_manager_list_running_async (f.manager, NULL, result_cb, &result);
  models = agent_model_manager_list_running_finish (f.manager, wait_result (&result), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (models), ==, 1);
  info = info_at (models, 0);
  g_assert_cmpstr (agent_model_info_get_name (info), ==, "qwen3:8b");
  g_assert_cmpuint (agent_model_info_get_size_vram (info), ==, 5137025024);
  expires_at = agent_model_info_get_expires_at (info);
  g_assert_nonnull (expires_at);
  g_assert_cmpint (g_date_time_get_hour (expires_at), ==, 14);
  g_assert_cmpint (g_date_time_get_minute (expires_at), ==, 38);
  g_assert_cmpuint (agent_test_ollama_count (f.ollama, "/api/show"), ==, 0);

  g_clear_object (&models);
  g_clear_object (&result);
  fixture_clear (&f);
}

/* What the pull-progress signal said, and whether it went backwards */
typedef struct
{
  GPtrArray         *statuses;
  AgentPullProgress *progress;
  guint64            last_overall;
  double             last_fraction;
  gboolean           backwards;
  GCancellable      *cancel_at_half;
} Heard;

static void
progress_cb (AgentModelManager *manager,
             AgentPullProgress *progress,
             Heard             *heard)
{
  guint64 overall = agent_pull_progress_get_overall_completed (progress);

  if (heard->progress == NULL)
    heard->progress = g_object_ref (progress);
  g_assert_true (heard->progress == progress);
  g_ptr_array_add (heard->statuses, g_strdup (agent_pull_progress_get_status (progress)));
  if (overall < heard->last_overall)
    heard->backwards = TRUE;
  heard->last_overall = overall;
  heard->last_fraction = agent_pull_progress_get_fraction (progress);
  g_assert_cmpuint (agent_pull_progress_get_completed (progress), <=,
                    MAX (agent_pull_progress_get_total (progress),
                         agent_pull_progress_get_completed (progress)));
}

static void
heard_init (Heard             *heard,
            AgentModelManager *manager)
{
  memset (heard, 0, sizeof *heard);
  heard->statuses = g_ptr_array_new_with_free_func (g_free);
  heard->last_fraction = -2;
  g_signal_connect (manager, "pull-progress", G_CALLBACK (progress_cb), heard);
}

static void
heard_clear (Heard             *heard,
             AgentModelManager *manager)
{
  g_signal_handlers_disconnect_by_data (manager, heard);
  g_ptr_array_unref (heard->statuses);
  g_clear_object (&heard->progress);
}

static gboolean
pull (Fixture       *f,
      const char    *model,
      GCancellable  *cancellable,
      GError       **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  agent_model_manager_pull_async (f->manager, model, cancellable, result_cb, &result);
  return agent_model_manager_pull_finish (f->manager, wait_result (&result), error);
}

static void
test_pull_layers (void)
{
  Fixture f;
  Heard heard;
  g_autoptr(GError) error = NULL;
  const char *last;

  fixture_init (&f);
  heard_init (&heard, f.manager);
  agent_test_ollama_add_to_registry (f.ollama, "llama3.2");
  g_assert_false (agent_test_ollama_has_model (f.ollama, "llama3.2"));

  g_assert_true (pull (&f, "llama3.2", NULL, &error));
  g_assert_no_error (error);
  g_assert_true (agent_test_ollama_has_model (f.ollama, "llama3.2"));

  /* pulling manifest, 3 layers of 3 lines, verifying, writing, success */
  g_assert_cmpuint (heard.statuses->len, ==, 1 + 9 + 3);
  g_assert_cmpstr (g_ptr_array_index (heard.statuses, 0), ==, "pulling manifest");
  g_assert_true (g_str_has_prefix (g_ptr_array_index (heard.statuses, 1), "pulling "));
  last = g_ptr_array_index (heard.statuses, heard.statuses->len - 1);
  g_assert_cmpstr (last, ==, "success");
  g_assert_false (heard.backwards);
  g_assert_cmpstr (agent_pull_progress_get_model (heard.progress), ==, "llama3.2");
  g_assert_cmpuint (agent_pull_progress_get_overall_total (heard.progress), ==,
                    4000000 + 1024 + 96);
  g_assert_cmpuint (agent_pull_progress_get_overall_completed (heard.progress), ==,
                    4000000 + 1024 + 96);
  g_assert_cmpfloat (heard.last_fraction, ==, 1.0);
  g_assert_cmpfloat (agent_pull_progress_get_fraction (heard.progress), ==, 1.0);

  heard_clear (&heard, f.manager);
  fixture_clear (&f);
}

static void
cancel_when_waiting (AgentModelManager *manager,
                     AgentPullProgress *progress,
                     Heard             *heard)
{
  /* The second line of the first layer: half of it is there */
  if (agent_pull_progress_get_completed (progress) > 0 && heard->cancel_at_half != NULL)
    g_cancellable_cancel (heard->cancel_at_half);
}

static gboolean
one_aborted (gpointer data)
{
  return agent_test_server_get_n_aborted (data) == 1;
}

static gboolean
waiting_or_aborted (gpointer data)
{
  return agent_test_server_get_n_waiting (data) == 1 || agent_test_server_get_n_aborted (data) == 1;
}

static void
test_pull_cancel_resume (void)
{
  Fixture f;
  Heard heard;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  guint64 first_resumed;

  fixture_init (&f);
  heard_init (&heard, f.manager);
  heard.cancel_at_half = cancellable;
  g_signal_connect (f.manager, "pull-progress", G_CALLBACK (cancel_when_waiting), &heard);
  agent_test_ollama_add_to_registry (f.ollama, "llama3.2");
  agent_test_ollama_set_next_pull (f.ollama, AGENT_TEST_PULL_WAIT);

  g_assert_false (pull (&f, "llama3.2", cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  /* The connection was closed: what the server writes after its pause
   * goes nowhere */
  agent_test_wait_until (waiting_or_aborted, agent_test_ollama_get_server (f.ollama));
  agent_test_server_release (agent_test_ollama_get_server (f.ollama));
  agent_test_wait_until (one_aborted, agent_test_ollama_get_server (f.ollama));
  g_assert_false (agent_test_ollama_has_model (f.ollama, "llama3.2"));
  g_assert_cmpuint (agent_pull_progress_get_completed (heard.progress), ==, 2000000);

  /* Pulled again, it resumes and succeeds */
  heard.cancel_at_half = NULL;
  heard_clear (&heard, f.manager);
  g_signal_handlers_disconnect_by_func (f.manager, cancel_when_waiting, &heard);
  heard_init (&heard, f.manager);
  g_assert_true (pull (&f, "llama3.2", NULL, &error));
  g_assert_no_error (error);
  g_assert_true (agent_test_ollama_has_model (f.ollama, "llama3.2"));
  g_assert_cmpstr (g_ptr_array_index (heard.statuses, heard.statuses->len - 1), ==, "success");
  g_assert_false (heard.backwards);
  first_resumed = agent_pull_progress_get_overall_total (heard.progress);
  g_assert_cmpuint (first_resumed, ==, 4000000 + 1024 + 96);

  heard_clear (&heard, f.manager);
  fixture_clear (&f);
}

static void
test_pull_dropped (void)
{
  Fixture f;
  Heard heard;
  g_autoptr(GError) error = NULL;

  fixture_init (&f);
  heard_init (&heard, f.manager);
  agent_test_ollama_add_to_registry (f.ollama, "llama3.2");
  agent_test_ollama_set_next_pull (f.ollama, AGENT_TEST_PULL_DROP);

  g_assert_false (pull (&f, "llama3.2", NULL, &error));
  g_assert_true (g_error_matches (error, AGENT_ERROR, AGENT_ERROR_NETWORK) ||
                 g_error_matches (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL));
  agent_test_assert_contains (error->message, "llama3.2");
  agent_test_assert_contains (error->message, "resumes");
  /* What was heard stays */
  g_assert_cmpuint (agent_pull_progress_get_completed (heard.progress), ==, 2000000);
  g_assert_false (agent_test_ollama_has_model (f.ollama, "llama3.2"));

  heard_clear (&heard, f.manager);
  fixture_clear (&f);
}

static void
test_pull_errors (void)
{
  static const struct {
    AgentTestPull  pull;
    const char    *model;
    int            code;
    const char    *says;
  } cases[] = {
    { AGENT_TEST_PULL_NO_SPACE, "llama3.2", AGENT_ERROR_NO_SPACE, "no space left on device" },
    { AGENT_TEST_PULL_NO_REGISTRY, "llama3.2", AGENT_ERROR_REGISTRY, "registry.ollama.ai" },
    { AGENT_TEST_PULL_OK, "no-such-model", AGENT_ERROR_MODEL_NOT_FOUND, "no-such-model" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      Fixture f;
      Heard heard;
      g_autoptr(GError) error = NULL;

      fixture_init (&f);
      heard_init (&heard, f.manager);
      agent_test_ollama_add_to_registry (f.ollama, "llama3.2");
      agent_test_ollama_set_next_pull (f.ollama, cases[i].pull);
      g_assert_false (pull (&f, cases[i].model, NULL, &error));
      g_assert_error (error, AGENT_ERROR, cases[i].code);
      agent_test_assert_contains (error->message, cases[i].says);
      g_assert_cmpstr (g_ptr_array_index (heard.statuses, 0), ==, "pulling manifest");
      g_assert_false (agent_test_ollama_has_model (f.ollama, cases[i].model));
      heard_clear (&heard, f.manager);
      fixture_clear (&f);
    }
}

static gboolean
run_bool (Fixture       *f,
          void         (*start) (AgentModelManager *, const char *, GCancellable *,
                                 GAsyncReadyCallback, gpointer),
          gboolean     (*finish) (AgentModelManager *, GAsyncResult *, GError **),
          const char    *model,
          GError       **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  start (f->manager, model, NULL, result_cb, &result);
  return finish (f->manager, wait_result (&result), error);
}

static void
test_delete (void)
{
  Fixture f;
  g_autoptr(GError) error = NULL;
  AgentTestServer *server;
  JsonNode *unload;
  JsonObject *object;

  fixture_init (&f);
  server = agent_test_ollama_get_server (f.ollama);
  agent_test_ollama_set_running (f.ollama, "qwen3:8b", 1000, "2030-01-01T00:00:00Z");

  g_assert_true (run_bool (&f, agent_model_manager_delete_async, agent_model_manager_delete_finish,
                           "qwen3:8b", &error));
  g_assert_no_error (error);
  g_assert_false (agent_test_ollama_has_model (f.ollama, "qwen3:8b"));
  /* Unloaded first, as `ollama rm` does */
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 2);
  g_assert_cmpstr (agent_test_server_get_request_path (server, 0), ==, "/api/generate");
  unload = agent_test_server_get_request_body (server, 0);
  object = json_node_get_object (unload);
  g_assert_cmpstr (json_object_get_string_member (object, "model"), ==, "qwen3:8b");
  g_assert_cmpint (json_object_get_int_member (object, "keep_alive"), ==, 0);
  g_assert_cmpstr (agent_test_server_get_request_path (server, 1), ==, "/api/delete");
  g_assert_cmpstr (agent_test_server_get_request_method (server, 1), ==, "DELETE");

  g_assert_false (run_bool (&f, agent_model_manager_delete_async,
                            agent_model_manager_delete_finish, "qwen3:8b", &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_MODEL_NOT_FOUND);
  agent_test_assert_contains (error->message, "qwen3:8b");

  fixture_clear (&f);
}

static void
test_delete_hang_up (void)
{
  Fixture f;
  g_autoptr(GError) error = NULL;
  AgentTestServer *server;
  JsonNode *body;

  fixture_init (&f);
  server = agent_test_ollama_get_server (f.ollama);
  agent_test_ollama_set_hang_up (f.ollama, "/api/delete");

  run_bool (&f, agent_model_manager_delete_async, agent_model_manager_delete_finish, "qwen3:8b",
            &error);
  g_assert_no_error (error);
  g_assert_false (agent_test_ollama_has_model (f.ollama, "qwen3:8b"));
  /* The unload, the delete that got no answer, and the delete again */
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 3);
  /* The delete came on the unload's kept-alive connection, and again on
   * a new one */
  g_assert_cmpuint (agent_test_server_get_request_port (server, 1), ==,
                    agent_test_server_get_request_port (server, 0));
  g_assert_cmpuint (agent_test_server_get_request_port (server, 2), !=,
                    agent_test_server_get_request_port (server, 1));
  for (guint i = 1; i < 3; i++)
    {
      g_assert_cmpstr (agent_test_server_get_request_path (server, i), ==, "/api/delete");
      body = agent_test_server_get_request_body (server, i);
      g_assert_nonnull (body);
      g_assert_cmpstr (json_object_get_string_member (json_node_get_object (body), "model"), ==,
                       "qwen3:8b");
    }

  fixture_clear (&f);
}

static void
test_unload (void)
{
  Fixture f;
  g_autoptr(GError) error = NULL;

  fixture_init (&f);
  agent_test_ollama_set_running (f.ollama, "llava:7b", 1000, "2030-01-01T00:00:00Z");
  g_assert_true (agent_test_ollama_is_running (f.ollama, "llava:7b"));
  g_assert_true (run_bool (&f, agent_model_manager_unload_async, agent_model_manager_unload_finish,
                           "llava:7b", &error));
  g_assert_no_error (error);
  g_assert_false (agent_test_ollama_is_running (f.ollama, "llava:7b"));
  g_assert_true (agent_test_ollama_has_model (f.ollama, "llava:7b"));

  g_assert_false (run_bool (&f, agent_model_manager_unload_async,
                            agent_model_manager_unload_finish, "gemma3", &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_MODEL_NOT_FOUND);

  fixture_clear (&f);
}

static gboolean
chat (AgentSession  *session,
      const char    *text,
      GError       **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(AgentMessage) answer = NULL;

  agent_session_send_async (session, text, NULL, result_cb, &result);
  answer = agent_session_send_finish (session, wait_result (&result), error);
  return answer != NULL;
}

static void
test_chat_not_installed (void)
{
  Fixture f;
  g_autoptr(AgentSession) session = NULL;
  g_autoptr(AgentTool) calculator = agent_calculator_tool_new ();
  g_autoptr(GError) error = NULL;

  fixture_init (&f);
  agent_provider_set_model (f.provider, "mistral");
  session = agent_session_new (f.provider);

  /* Asked with a plain prompt: the chat answers 404 */
  g_assert_false (chat (session, "Hello", &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_MODEL_NOT_FOUND);
  agent_test_assert_contains (error->message, "“mistral” is not installed");
  agent_test_assert_contains (error->message, "agent-cli --pull mistral");
  g_assert_cmpuint (agent_error_get_http_status (error), ==, 404);
  g_assert_cmpuint (agent_test_ollama_count (f.ollama, "/api/chat"), ==, 1);
  g_clear_error (&error);

  /* With tools, the model's description comes first, and says the same:
   * nothing is sent */
  agent_session_add_tool (session, calculator);
  g_assert_false (chat (session, "What is 6*7?", &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_MODEL_NOT_FOUND);
  agent_test_assert_contains (error->message, "agent-cli --pull mistral");
  g_assert_cmpuint (agent_test_ollama_count (f.ollama, "/api/show"), ==, 1);
  g_assert_cmpuint (agent_test_ollama_count (f.ollama, "/api/chat"), ==, 1);
  g_clear_error (&error);

  /* Installed, the same session answers */
  agent_provider_set_model (f.provider, "qwen3:8b");
  g_assert_true (chat (session, "Hello again", &error));
  g_assert_no_error (error);

  g_assert_finalize_object (g_steal_pointer (&session));
  fixture_clear (&f);
}

static void
test_unsupported (void)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentProvider) provider = agent_test_provider_new (server, "openai");
  g_autoptr(AgentModelManager) manager = agent_model_manager_new (provider);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GListModel) models = NULL;
  g_autoptr(GError) error = NULL;
  gboolean supported = TRUE;

  g_object_get (manager, "supported", &supported, NULL);
  g_assert_false (supported);
  g_assert_true (agent_model_manager_get_provider (manager) == provider);

  agent_model_manager_list_async (manager, NULL, result_cb, &result);
  models = agent_model_manager_list_finish (manager, wait_result (&result), &error);
  g_assert_null (models);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_UNSUPPORTED);
  agent_test_assert_contains (error->message, agent_provider_get_display_name (provider));
  g_clear_object (&result);
  g_clear_error (&error);

  agent_model_manager_pull_async (manager, "llama3.2", NULL, result_cb, &result);
  g_assert_false (agent_model_manager_pull_finish (manager, wait_result (&result), &error));
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_UNSUPPORTED);
  g_assert_cmpuint (agent_test_server_get_n_requests (server), ==, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/models/list", test_list);
  g_test_add_func ("/models/list/bounded", test_list_bounded);
  g_test_add_func ("/models/list/cancel", test_list_cancel);
  g_test_add_func ("/models/show", test_show);
  g_test_add_func ("/models/show/unknown", test_show_unknown);
  g_test_add_func ("/models/running", test_running);
  g_test_add_func ("/models/pull/layers", test_pull_layers);
  g_test_add_func ("/models/pull/cancel-resume", test_pull_cancel_resume);
  g_test_add_func ("/models/pull/dropped", test_pull_dropped);
  g_test_add_func ("/models/pull/errors", test_pull_errors);
  g_test_add_func ("/models/delete", test_delete);
  g_test_add_func ("/models/delete/hang-up", test_delete_hang_up);
  g_test_add_func ("/models/unload", test_unload);
  g_test_add_func ("/models/chat/not-installed", test_chat_not_installed);
  g_test_add_func ("/models/unsupported", test_unsupported);

  return g_test_run ();
}
