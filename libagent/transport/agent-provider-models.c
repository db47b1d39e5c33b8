/* agent-provider-models.c
 *
 * Asking a provider's server which models it offers.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "json/agent-json-private.h"
#include "models/agent-models-private.h"
#include "transport/agent-provider-private.h"
#include "transport/agent-step-remote-private.h"

#define MAX_MODELS_BODY (8 * 1024 * 1024)
#define READ_SIZE       (64 * 1024)

/* One listing: the request, its own cancellable (the caller's and the
 * provider's, chained, and the time limit's), and the body read so far, at
 * most MAX_MODELS_BODY + 1 bytes. */
typedef struct
{
  SoupMessage  *message;
  GCancellable *cancellable;
  GCancellable *caller_cancellable;
  gulong        caller_cancelled_id;
  GCancellable *provider_cancellable;
  gulong        provider_cancelled_id;
  GSource      *timer;
  double        limit;       /* seconds, 0 for none */
  gboolean      timed_out;
  GInputStream *stream;
  GByteArray   *body;
  char         *model;       /* fetching this model's context window */
  gboolean      props;       /* … from llama.cpp's /props */
} ListModels;

static void
list_models_free (gpointer data)
{
  ListModels *list = data;

  if (list->timer != NULL)
    {
      g_source_destroy (list->timer);
      g_source_unref (list->timer);
    }
  if (list->caller_cancelled_id != 0)
    g_cancellable_disconnect (list->caller_cancellable, list->caller_cancelled_id);
  g_clear_object (&list->caller_cancellable);
  if (list->provider_cancelled_id != 0)
    g_cancellable_disconnect (list->provider_cancellable, list->provider_cancelled_id);
  g_clear_object (&list->provider_cancellable);
  g_clear_object (&list->cancellable);
  g_clear_object (&list->stream);
  g_clear_object (&list->message);
  g_clear_pointer (&list->body, g_byte_array_unref);
  g_free (list->model);
  g_free (list);
}

static gboolean
timed_out_cb (gpointer data)
{
  ListModels *list = data;

  list->timed_out = TRUE;
  g_cancellable_cancel (list->cancellable);
  return G_SOURCE_REMOVE;
}

/* The caller's cancellable, or the provider's (it was disposed) */
static void
cancelled_cb (GCancellable *cancelled,
              ListModels   *list)
{
  g_cancellable_cancel (list->cancellable);
}

/* What went wrong on the way, in the user's words */
static void
return_transfer_error (GTask  *task,
                       GError *error)
{
  AgentProvider *self = g_task_get_source_object (task);
  ListModels *list = g_task_get_task_data (task);

  if (list->timed_out)
    {
      g_error_free (error);
      g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_TIMEOUT,
                               _("The server did not send its list of models within %g s"),
                               list->limit);
    }
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_task_return_error (task, error);
  else
    {
      g_autofree char *message = _agent_provider_redact (self, error->message);

      g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_NETWORK, _("Could not reach %s: %s"),
                               g_uri_get_host (soup_message_get_uri (list->message)), message);
      g_error_free (error);
    }
}

/* Context windows, where the model lists state them */

static gint64
member_tokens (const AgentJson *object,
               const char      *name)
{
  AgentJson member = agent_json_member (object, name);
  gint64 value;

  return agent_json_int (&member, &value) && value > 0 ? value : 0;
}

/* An OpenAI-style list, {"data": [{"id", …}]}: OpenRouter and LM Studio
 * say "context_length", Groq "context_window", vLLM "max_model_len".
 * llama.cpp's server lists its model ("owned_by": "llamacpp") with the
 * window it was trained with only: *llama_cpp says to ask its /props for
 * the one it runs with. */
static gint64
listed_context_window (const AgentJson *root,
                       const char      *model,
                       gboolean        *llama_cpp)
{
  static const char * const names[] = { "context_length", "context_window", "max_model_len",
                                        "max_context_length", "max_input_tokens" };
  AgentJson data = agent_json_member (root, "data");
  AgentJsonIter iter;
  AgentJson item;
  gint64 found = 0;

  if (!agent_json_is (&data, AGENT_JSON_ARRAY))
    data = agent_json_member (root, "models");
  if (!agent_json_is (&data, AGENT_JSON_ARRAY))
    return 0;

  agent_json_iter_init (&iter, &data);
  while (agent_json_iter_next (&iter, NULL, NULL, &item))
    {
      const char *id = agent_json_member_string (&item, "id", NULL);

      /* It serves one model, whatever the request names */
      if (g_strcmp0 (agent_json_member_string (&item, "owned_by", NULL), "llamacpp") == 0)
        *llama_cpp = TRUE;
      if (id == NULL || strcmp (id, model) != 0 || found > 0)
        continue;
      for (guint i = 0; i < G_N_ELEMENTS (names) && found == 0; i++)
        found = member_tokens (&item, names[i]);
    }

  return found;
}

/* llama.cpp's /props: {"default_generation_settings": {"n_ctx": N}, …},
 * the window of each of its slots */
static gint64
props_context_window (const AgentJson *root)
{
  AgentJson settings = agent_json_member (root, "default_generation_settings");
  gint64 tokens = member_tokens (&settings, "n_ctx");

  return tokens > 0 ? tokens : member_tokens (root, "n_ctx");
}

/* Ollama's window is the one a request asks for: the model's, within the
 * provider's max-context-window */
static gint64
capped (AgentProvider *self,
        gint64         tokens)
{
  guint64 limit = agent_provider_get_max_context_window (self);

  return limit > 0 && tokens > 0 && (guint64) tokens > limit ? (gint64) limit : tokens;
}

static void start_request (AgentProvider *self,
                           GTask         *task,
                           const char    *method,
                           const char    *url,
                           const char    *body,
                           char          *model,
                           GCancellable  *cancellable);

/* {base}/props, the base URL without its /v1 */
static char *
props_url (AgentProvider *self)
{
  const char *base = agent_provider_get_base_url (self);
  gsize len = strlen (base);

  if (g_str_has_suffix (base, "/v1"))
    len -= strlen ("/v1");
  return g_strdup_printf ("%.*s/props", (int) len, base);
}

static void
body_read (GTask *task)
{
  AgentProvider *self = g_task_get_source_object (task);
  ListModels *list = g_task_get_task_data (task);
  g_autoptr(AgentJsonParser) parser = NULL;
  guint status = soup_message_get_status (list->message);
  const char *data = (const char *) list->body->data;
  gsize len = MIN (list->body->len, MAX_MODELS_BODY);
  AgentJson root;
  char **names;

  if (SOUP_STATUS_IS_REDIRECTION (status))
    {
      char **secrets = _agent_provider_dup_secrets (self);

      g_task_return_error (task, _agent_provider_error_from_redirect ((const char * const *) secrets,
                                                                       list->message));
      _agent_secrets_free (secrets);
      return;
    }

  /* A llama.cpp too old (or too new) for /props: the window is unknown */
  if (list->props && !SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      g_task_return_int (task, 0);
      return;
    }

  if (!SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      char **secrets = _agent_provider_dup_secrets (self);

      g_task_return_error (task, _agent_provider_error_from_http ((const char * const *) secrets,
                                                                   status,
                                                                   soup_message_get_reason_phrase (list->message),
                                                                   data, len));
      _agent_secrets_free (secrets);
      return;
    }

  if (list->body->len > MAX_MODELS_BODY)
    {
      g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_LIMIT,
                               _("The server's list of models is larger than %d MiB"),
                               MAX_MODELS_BODY / (1024 * 1024));
      return;
    }

  parser = agent_json_parser_new ();
  if (list->model != NULL)
    {
      const char *backend = _agent_provider_get_backend (self)->name;
      gboolean llama_cpp = FALSE;
      gint64 tokens;

      if (!agent_json_parser_parse (parser, data, len, &root, NULL))
        {
          g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                                   _("The server's description of the model could not be read"));
          return;
        }

      if (list->props)
        tokens = props_context_window (&root);
      else if (g_str_equal (backend, "ollama"))
        tokens = capped (self, (gint64) _agent_model_context_length_from_show (&root));
      else if (g_str_equal (backend, "gemini"))
        tokens = member_tokens (&root, "inputTokenLimit");
      else if ((tokens = listed_context_window (&root, list->model, &llama_cpp)) == 0 && llama_cpp)
        {
          g_autofree char *url = props_url (self);

          /* Sets the task's data anew: list is gone */
          start_request (self, task, SOUP_METHOD_GET, url, NULL, g_strdup (list->model),
                         g_task_get_cancellable (task));
          ((ListModels *) g_task_get_task_data (task))->props = TRUE;
          return;
        }
      g_task_return_int (task, tokens);
      return;
    }

  if (!agent_json_parser_parse (parser, data, len, &root, NULL) ||
      !(names = _agent_provider_get_backend (self)->parse_models (&root)))
    {
      g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                               _("The server's list of models could not be read"));
      return;
    }

  g_task_return_pointer (task, names, (GDestroyNotify) g_strfreev);
}

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ListModels *list = g_task_get_task_data (task);
  g_autoptr(GBytes) bytes = NULL;
  GError *error = NULL;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, &error);
  if (bytes == NULL)
    {
      return_transfer_error (task, error);
      return;
    }

  /* The end, or enough to know it is too much */
  if (g_bytes_get_size (bytes) == 0 || list->body->len > MAX_MODELS_BODY)
    {
      body_read (task);
      return;
    }

  g_byte_array_append (list->body, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  g_input_stream_read_bytes_async (list->stream, READ_SIZE, G_PRIORITY_DEFAULT,
                                   list->cancellable, read_cb, g_steal_pointer (&task));
}

static void
send_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ListModels *list = g_task_get_task_data (task);
  GError *error = NULL;

  list->stream = soup_session_send_finish (SOUP_SESSION (object), result, &error);
  if (list->stream == NULL)
    {
      return_transfer_error (task, error);
      return;
    }

  list->body = g_byte_array_new ();
  g_input_stream_read_bytes_async (list->stream, READ_SIZE, G_PRIORITY_DEFAULT,
                                   list->cancellable, read_cb, g_steal_pointer (&task));
}

/* Sends @method @url (with a JSON @body, or none) and reads the answer
 * into @task, whose data it sets */
static void
start_request (AgentProvider *self,
               GTask         *task,
               const char    *method,
               const char    *url,
               const char    *body,
               char          *model,
               GCancellable  *cancellable)
{
  g_autoptr(GError) error = NULL;
  SoupSession *session;
  ListModels *list;

  list = g_new0 (ListModels, 1);
  list->model = model;
  list->message = soup_message_new (method, url);
  /* The key goes to the base URL's origin only */
  soup_message_add_flags (list->message, SOUP_MESSAGE_NO_REDIRECT);
  list->cancellable = g_cancellable_new ();
  g_task_set_task_data (task, list, list_models_free);
  soup_message_headers_replace (soup_message_get_request_headers (list->message),
                                "Accept", "application/json");
  if (body != NULL)
    {
      g_autoptr(GBytes) bytes = g_bytes_new (body, strlen (body));

      _agent_message_set_body (list->message, "application/json", bytes);
    }
  if (!_agent_provider_add_headers (self, NULL, soup_message_get_request_headers (list->message),
                                    &error) ||
      !(session = _agent_provider_get_soup_session (self, &error)))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  if (cancellable != NULL)
    {
      list->caller_cancellable = g_object_ref (cancellable);
      list->caller_cancelled_id = g_cancellable_connect (cancellable,
                                                         G_CALLBACK (cancelled_cb),
                                                         list, NULL);
    }
  list->provider_cancellable = g_object_ref (_agent_provider_get_cancellable (self));
  list->provider_cancelled_id = g_cancellable_connect (list->provider_cancellable,
                                                       G_CALLBACK (cancelled_cb), list, NULL);

  /* A list is short: connecting and the answer get the limits of a
   * request's start, together */
  if (agent_provider_get_connect_timeout (self) > 0 &&
      agent_provider_get_first_byte_timeout (self) > 0)
    {
      list->limit = agent_provider_get_connect_timeout (self) +
                    agent_provider_get_first_byte_timeout (self);
      list->timer = g_timeout_source_new ((guint) MIN (list->limit * 1000, G_MAXUINT));
      g_source_set_callback (list->timer, timed_out_cb, list, NULL);
      g_source_attach (list->timer, g_main_context_get_thread_default ());
    }

  soup_session_send_async (session, list->message, G_PRIORITY_DEFAULT, list->cancellable,
                           send_cb, g_object_ref (task));
}

/**
 * agent_provider_list_models_async:
 * @self: a [class@Agent.Provider]
 * @cancellable: (nullable): a [class@Gio.Cancellable]
 * @callback: (scope async): called with the list
 * @user_data: data for @callback
 *
 * Asks the server which models it offers (`GET /models`, `/api/tags`, …),
 * for a model picker. Call [method@Agent.Provider.list_models_finish] from
 * @callback.
 *
 * The answer may take [property@Agent.Provider:connect-timeout] plus
 * [property@Agent.Provider:first-byte-timeout] and be at most 8 MiB; beyond
 * either, the listing fails with %AGENT_ERROR_TIMEOUT or
 * %AGENT_ERROR_LIMIT.
 *
 * Since: 0.1
 */
void
agent_provider_list_models_async (AgentProvider       *self,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;

  g_return_if_fail (AGENT_IS_PROVIDER (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, agent_provider_list_models_async);
  if (_agent_provider_get_backend (self)->run_remote != NULL)
    {
      _agent_desktop_list_profiles (task);
      return;
    }
  if ((url = _agent_provider_build_url (self, _agent_provider_get_backend (self)->models_path,
                                        &error)) == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  start_request (self, task, SOUP_METHOD_GET, url, NULL, NULL, cancellable);
}

/**
 * agent_provider_fetch_context_window_async:
 * @self: a [class@Agent.Provider]
 * @model: (nullable): a model, or %NULL for [property@Agent.Provider:model]
 * @cancellable: (nullable): a [class@Gio.Cancellable]
 * @callback: (scope async): called with the answer
 * @user_data: data for @callback
 *
 * Asks the server how many tokens @model reads at once, where its API
 * says: Ollama's `POST /api/show` (`model_info`, `*.context_length`),
 * Gemini's `GET models/MODEL` (`inputTokenLimit`), or the model's entry
 * in an OpenAI-style list (`context_length` as OpenRouter and LM Studio
 * write it, `context_window`, `max_model_len`). llama.cpp's server lists
 * its model with the window it was trained with only: the window it runs
 * with (`-c`, per slot) is asked of its `GET /props`
 * (`default_generation_settings.n_ctx`).
 *
 * Ollama makes the window each request asks for (`num_ctx`): the answer
 * is the model's window capped by
 * [property@Agent.Provider:max-context-window], which is what the
 * session then sends. Set the answer as
 * [property@Agent.Session:context-window]. Call
 * [method@Agent.Provider.fetch_context_window_finish] from @callback.
 *
 * Since: 0.1
 */
void
agent_provider_fetch_context_window_async (AgentProvider       *self,
                                           const char          *model,
                                           GCancellable        *cancellable,
                                           GAsyncReadyCallback  callback,
                                           gpointer             user_data)
{
  const AgentProviderBackend *backend;
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *url = NULL;
  g_autofree char *body = NULL;
  const char *method = SOUP_METHOD_GET;

  g_return_if_fail (AGENT_IS_PROVIDER (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  backend = _agent_provider_get_backend (self);
  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, agent_provider_fetch_context_window_async);
  if (backend->run_remote != NULL)
    {
      /* Translators: %s is a provider's name, “Desktop assistant” */
      g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_UNSUPPORTED,
                               _("%s does not tell a model's context window: its profiles "
                                 "are set up in the desktop service"),
                               agent_provider_get_display_name (self));
      return;
    }

  if (model == NULL)
    model = agent_provider_get_model (self);
  if (model == NULL || *model == '\0')
    {
      g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                               _("No model was given"));
      return;
    }

  if (g_str_equal (backend->name, "ollama"))
    {
      g_autoptr(JsonBuilder) builder = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "model");
      json_builder_add_string_value (builder, model);
      json_builder_end_object (builder);
      root = json_builder_get_root (builder);
      body = json_to_string (root, FALSE);
      method = SOUP_METHOD_POST;
      path = g_strdup ("/api/show");
    }
  else if (g_str_equal (backend->name, "gemini"))
    {
      g_autofree char *escaped = g_uri_escape_string (g_str_has_prefix (model, "models/")
                                                        ? model + strlen ("models/") : model,
                                                      NULL, FALSE);

      path = g_strdup_printf ("/v1beta/models/%s", escaped);
    }
  else
    path = g_strdup (backend->models_path);

  if ((url = _agent_provider_build_url (self, path, &error)) == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  start_request (self, task, method, url, body, g_strdup (model), cancellable);
}

/**
 * agent_provider_fetch_context_window_finish:
 * @self: a [class@Agent.Provider]
 * @result: the [iface@Gio.AsyncResult] given to the callback
 * @error: return location for a [struct@GLib.Error]
 *
 * Finishes [method@Agent.Provider.fetch_context_window_async]; it fails as
 * [method@Agent.Provider.list_models_finish] does.
 *
 * Returns: the model's context window in tokens, 0 if the server does not
 *   say, or -1 with @error set
 *
 * Since: 0.1
 */
gint64
agent_provider_fetch_context_window_finish (AgentProvider  *self,
                                            GAsyncResult   *result,
                                            GError        **error)
{
  g_return_val_if_fail (AGENT_IS_PROVIDER (self), -1);
  g_return_val_if_fail (g_task_is_valid (result, self), -1);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        agent_provider_fetch_context_window_async, -1);

  return g_task_propagate_int (G_TASK (result), error);
}

/**
 * agent_provider_list_models_finish:
 * @self: a [class@Agent.Provider]
 * @result: the [iface@Gio.AsyncResult] given to the callback
 * @error: return location for a [struct@GLib.Error]
 *
 * Finishes [method@Agent.Provider.list_models_async]: the models the server
 * offers, in the order it gave them. The listing fails with
 * %AGENT_ERROR_AUTHENTICATION when the key was refused, %AGENT_ERROR_NETWORK
 * when the server could not be reached, %AGENT_ERROR_TIMEOUT or
 * %AGENT_ERROR_LIMIT beyond its limits, and %G_IO_ERROR_CANCELLED when it was
 * cancelled or the provider disposed.
 *
 * Returns: (transfer full) (array zero-terminated=1): the names of the
 *   models, as the API wants them in [property@Agent.Provider:model] (an
 *   empty array when it offers none), or %NULL with @error set. Free with
 *   g_strfreev().
 *
 * Since: 0.1
 */
char **
agent_provider_list_models_finish (AgentProvider  *self,
                                   GAsyncResult   *result,
                                   GError        **error)
{
  g_return_val_if_fail (AGENT_IS_PROVIDER (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == agent_provider_list_models_async,
                        NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
