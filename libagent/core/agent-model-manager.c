/* agent-model-manager.c — a server's models: list, show, pull, delete, unload
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "core/agent-model-manager-private.h"
#include "core/agent-model-request-private.h"
#include "models/agent-models-private.h"

/**
 * AgentModelManager:
 *
 * Manages the models of a provider's server, for the servers that have a
 * manager: Ollama's native API. It lists the installed models with their
 * size, family, parameter count, quantization, context length and
 * capabilities ([method@Agent.ModelManager.list_async]), describes one
 * ([method@Agent.ModelManager.show_async]), lists the running ones and when
 * they unload ([method@Agent.ModelManager.list_running_async]), pulls one
 * from the registry with progress ([method@Agent.ModelManager.pull_async],
 * [signal@Agent.ModelManager::pull-progress]), deletes one
 * ([method@Agent.ModelManager.delete_async]) and unloads one from memory now
 * ([method@Agent.ModelManager.unload_async]).
 *
 * It speaks to the provider's [property@Agent.Provider:base-url] with the
 * provider's key, time limits, TLS settings and proxy. For a provider whose
 * server has no manager (the OpenAI-compatible servers — LM Studio,
 * llama.cpp's server, vLLM — only list their models, with
 * [method@Agent.Provider.list_models_async]),
 * [property@Agent.ModelManager:supported] is %FALSE and every call fails
 * with %AGENT_ERROR_UNSUPPORTED, naming the provider.
 *
 * Errors of the server have their own codes: %AGENT_ERROR_MODEL_NOT_FOUND
 * for a model that is not installed (or not in the registry, for a pull),
 * %AGENT_ERROR_NO_SPACE when the disk is full, %AGENT_ERROR_REGISTRY when
 * the registry cannot be reached.
 *
 * Since: 0.1
 */

struct _AgentModelManager
{
  GObject        parent_instance;
  AgentProvider *provider;
};

enum {
  PROP_0,
  PROP_PROVIDER,
  PROP_SUPPORTED,
  N_PROPS
};

enum {
  PULL_PROGRESS,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (AgentModelManager, agent_model_manager, G_TYPE_OBJECT)

static void
agent_model_manager_dispose (GObject *object)
{
  AgentModelManager *self = (AgentModelManager *) object;

  g_clear_object (&self->provider);

  G_OBJECT_CLASS (agent_model_manager_parent_class)->dispose (object);
}

static void
agent_model_manager_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  AgentModelManager *self = AGENT_MODEL_MANAGER (object);

  switch (prop_id)
    {
    case PROP_PROVIDER:
      g_value_set_object (value, self->provider);
      break;

    case PROP_SUPPORTED:
      g_value_set_boolean (value, agent_model_manager_get_supported (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_model_manager_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  AgentModelManager *self = AGENT_MODEL_MANAGER (object);

  switch (prop_id)
    {
    case PROP_PROVIDER:
      self->provider = g_value_dup_object (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_model_manager_class_init (AgentModelManagerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = agent_model_manager_dispose;
  object_class->get_property = agent_model_manager_get_property;
  object_class->set_property = agent_model_manager_set_property;

  /**
   * AgentModelManager:provider:
   *
   * The provider whose server's models it manages.
   *
   * Since: 0.1
   */
  properties[PROP_PROVIDER] =
    g_param_spec_object ("provider", NULL, NULL, AGENT_TYPE_PROVIDER,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /**
   * AgentModelManager:supported:
   *
   * Whether the provider's server has a model manager (Ollama). When it has
   * none, the calls fail with %AGENT_ERROR_UNSUPPORTED.
   *
   * Since: 0.1
   */
  properties[PROP_SUPPORTED] =
    g_param_spec_boolean ("supported", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * AgentModelManager::pull-progress:
   * @self: the manager
   * @progress: how far the pull is
   *
   * Emitted for each status line the server sends while
   * [method@Agent.ModelManager.pull_async] runs, on the thread-default main
   * context of its caller. @progress is the same object for one pull, its
   * properties updated before each emission; tell pulls apart by its
   * [property@Agent.PullProgress:model].
   *
   * Since: 0.1
   */
  signals[PULL_PROGRESS] =
    g_signal_new ("pull-progress",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, AGENT_TYPE_PULL_PROGRESS);
}

static void
agent_model_manager_init (AgentModelManager *self)
{
}

void
_agent_model_manager_emit_pull_progress (AgentModelManager *self,
                                         AgentPullProgress *progress)
{
  g_signal_emit (self, signals[PULL_PROGRESS], 0, progress);
}

/**
 * agent_model_manager_new:
 * @provider: the provider whose server's models to manage
 *
 * Makes a manager of the models of @provider's server. It has the
 * provider's base URL, key and limits at the time of each call.
 *
 * Returns: (transfer full): a new [class@Agent.ModelManager]
 *
 * Since: 0.1
 */
AgentModelManager *
agent_model_manager_new (AgentProvider *provider)
{
  g_return_val_if_fail (AGENT_IS_PROVIDER (provider), NULL);

  return g_object_new (AGENT_TYPE_MODEL_MANAGER, "provider", provider, NULL);
}

/**
 * agent_model_manager_get_provider:
 * @self: a [class@Agent.ModelManager]
 *
 * Gets [property@Agent.ModelManager:provider].
 *
 * Returns: (transfer none): its provider
 *
 * Since: 0.1
 */
AgentProvider *
agent_model_manager_get_provider (AgentModelManager *self)
{
  g_return_val_if_fail (AGENT_IS_MODEL_MANAGER (self), NULL);

  return self->provider;
}

/**
 * agent_model_manager_get_supported:
 * @self: a [class@Agent.ModelManager]
 *
 * Gets [property@Agent.ModelManager:supported].
 *
 * Returns: whether the provider's server has a model manager
 *
 * Since: 0.1
 */
gboolean
agent_model_manager_get_supported (AgentModelManager *self)
{
  g_return_val_if_fail (AGENT_IS_MODEL_MANAGER (self), FALSE);

  return g_strcmp0 (agent_provider_get_name (self->provider), "ollama") == 0;
}

/* Requests */

/* At most this many /api/show at once: enough to fill a list quickly,
 * few enough not to crowd a server that is also answering */
#define MAX_SHOWS 4

static gboolean
check_supported (AgentModelManager *self,
                 GTask             *task)
{
  if (agent_model_manager_get_supported (self))
    return TRUE;

  /* Translators: %s is a provider's name, such as "OpenAI" */
  g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_UNSUPPORTED,
                           _("%s has no model manager: its server can list its models, not "
                             "pull, delete or describe them"),
                           agent_provider_get_display_name (self->provider));
  return FALSE;
}

/* {"model": "…"[, "keep_alive": 0]} */
static char *
model_body (const char *model,
            gboolean    unload)
{
  g_autoptr(cJSON) root = cJSON_CreateObject ();

  cJSON_AddStringToObject (root, "model", model);
  if (unload)
    cJSON_AddNumberToObject (root, "keep_alive", 0);
  return cJSON_PrintUnformatted (root);
}

static void
request (AgentModelManager   *self,
         const char          *method,
         const char          *path,
         const char          *model,
         gboolean             unload,
         GTask               *task,
         GAsyncReadyCallback  callback)
{
  g_autofree char *body = model != NULL ? model_body (model, unload) : NULL;

  /* @task is taken */
  _agent_model_request_async (self->provider, method, path, body, model, NULL, NULL,
                              g_task_get_cancellable (task), callback, task);
}

/* The parsed answer, or NULL with @task returned */
static gboolean
parse_answer (GTask            *task,
              GAsyncResult     *result,
              AgentJsonParser  *parser,
              GBytes          **bytes,
              AgentJson        *root)
{
  AgentModelManager *self = g_task_get_source_object (task);
  GError *error = NULL;

  if (!(*bytes = _agent_model_request_finish (self->provider, result, &error)))
    {
      g_task_return_error (task, error);
      return FALSE;
    }
  if (!agent_json_parser_parse (parser, g_bytes_get_data (*bytes, NULL),
                                g_bytes_get_size (*bytes), root, NULL) ||
      !agent_json_is (root, AGENT_JSON_OBJECT))
    {
      g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                               _("The server's answer could not be read"));
      return FALSE;
    }
  return TRUE;
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (agent_model_info_get_name (*(AgentModelInfo **) a),
                    agent_model_info_get_name (*(AgentModelInfo **) b));
}

/* {"models": [entry, …]} into a list, sorted by name */
static GListStore *
parse_entries (const AgentJson *root)
{
  AgentJson models = agent_json_member (root, "models");
  g_autoptr(GPtrArray) infos = g_ptr_array_new_with_free_func (g_object_unref);
  GListStore *store = g_list_store_new (AGENT_TYPE_MODEL_INFO);
  AgentJsonIter iter;
  AgentJson entry;

  if (agent_json_is (&models, AGENT_JSON_ARRAY))
    {
      agent_json_iter_init (&iter, &models);
      while (agent_json_iter_next (&iter, NULL, NULL, &entry))
        {
          AgentModelInfo *info = _agent_model_info_new_from_entry (&entry);

          if (info != NULL)
            g_ptr_array_add (infos, info);
        }
    }
  g_ptr_array_sort (infos, compare_names);
  g_list_store_splice (store, 0, 0, infos->pdata, infos->len);
  return store;
}

/* Listing: /api/tags, then /api/show for each, MAX_SHOWS at once */
typedef struct
{
  GListStore      *store;
  AgentJsonParser *parser;
  guint            next;
  guint            in_flight;
  GError          *cancelled;
} Listing;

static void
listing_free (gpointer data)
{
  Listing *listing = data;

  g_clear_object (&listing->store);
  g_clear_pointer (&listing->parser, agent_json_parser_free);
  g_clear_error (&listing->cancelled);
  g_free (listing);
}

/* One /api/show of a listing */
typedef struct
{
  GTask          *task;
  AgentModelInfo *info;
} Show;

static void show_next (GTask *task);

static void
listed_show_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  Show *show = user_data;
  g_autoptr(GTask) task = show->task;
  g_autoptr(AgentModelInfo) info = show->info;
  Listing *listing = g_task_get_task_data (task);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  AgentJson root;

  g_free (show);
  listing->in_flight--;
  bytes = _agent_model_request_finish (AGENT_PROVIDER (object), result, &error);
  if (bytes != NULL &&
      agent_json_parser_parse (listing->parser, g_bytes_get_data (bytes, NULL),
                               g_bytes_get_size (bytes), &root, NULL) &&
      agent_json_is (&root, AGENT_JSON_OBJECT))
    _agent_model_info_apply_show (info, &root);
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) && listing->cancelled == NULL)
    listing->cancelled = g_steal_pointer (&error);
  /* Otherwise it is listed without its details */

  show_next (task);
}

static void
show_next (GTask *task)
{
  AgentModelManager *self = g_task_get_source_object (task);
  Listing *listing = g_task_get_task_data (task);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (listing->store));

  while (listing->cancelled == NULL && listing->next < n && listing->in_flight < MAX_SHOWS)
    {
      Show *show = g_new0 (Show, 1);
      g_autofree char *body = NULL;
      const char *name;

      show->task = g_object_ref (task);
      show->info = g_list_model_get_item (G_LIST_MODEL (listing->store), listing->next++);
      name = agent_model_info_get_name (show->info);
      body = model_body (name, FALSE);
      listing->in_flight++;
      _agent_model_request_async (self->provider, SOUP_METHOD_POST, "/api/show", body, name,
                                  NULL, NULL, g_task_get_cancellable (task), listed_show_cb,
                                  show);
    }

  if (listing->in_flight > 0)
    return;
  if (listing->cancelled != NULL)
    g_task_return_error (task, g_steal_pointer (&listing->cancelled));
  else
    g_task_return_pointer (task, g_object_ref (listing->store), g_object_unref);
}

static void
tags_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Listing *listing = g_new0 (Listing, 1);
  g_autoptr(GBytes) bytes = NULL;
  AgentJson root;

  listing->parser = agent_json_parser_new ();
  g_task_set_task_data (task, listing, listing_free);
  if (!parse_answer (task, result, listing->parser, &bytes, &root))
    return;
  listing->store = parse_entries (&root);
  show_next (task);
}

static void
show_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(AgentJsonParser) parser = agent_json_parser_new ();
  g_autoptr(AgentModelInfo) info = NULL;
  g_autoptr(GBytes) bytes = NULL;
  AgentJson root;

  if (!parse_answer (task, result, parser, &bytes, &root))
    return;
  info = _agent_model_info_new (g_task_get_task_data (task));
  _agent_model_info_apply_show (info, &root);
  g_task_return_pointer (task, g_steal_pointer (&info), g_object_unref);
}

static void
running_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(AgentJsonParser) parser = agent_json_parser_new ();
  g_autoptr(GBytes) bytes = NULL;
  AgentJson root;

  if (!parse_answer (task, result, parser, &bytes, &root))
    return;
  g_task_return_pointer (task, parse_entries (&root), g_object_unref);
}

static void
done_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GBytes) bytes = NULL;
  GError *error = NULL;

  if (!(bytes = _agent_model_request_finish (AGENT_PROVIDER (object), result, &error)))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

/* Deleting: unloaded first, as `ollama rm` does, so that its memory is
 * freed now rather than when its keep-alive ends; whatever the unload
 * says, the delete follows */
static void
unloaded_for_delete_cb (GObject      *object,
                        GAsyncResult *result,
                        gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AgentModelManager *self = g_task_get_source_object (task);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  const char *model;

  bytes = _agent_model_request_finish (AGENT_PROVIDER (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (error != NULL && !g_error_matches (error, AGENT_ERROR, AGENT_ERROR_MODEL_NOT_FOUND))
    g_debug ("Unloading %s before deleting it: %s", (char *) g_task_get_task_data (task),
             error->message);
  model = g_task_get_task_data (task);
  request (self, SOUP_METHOD_DELETE, "/api/delete", model, FALSE, g_steal_pointer (&task),
           done_cb);
}

static GTask *
new_task (AgentModelManager   *self,
          const char          *model,
          gpointer             source_tag,
          GCancellable        *cancellable,
          GAsyncReadyCallback  callback,
          gpointer             user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, source_tag);
  if (model != NULL)
    g_task_set_task_data (task, g_strdup (model), g_free);
  return task;
}

/**
 * agent_model_manager_list_async:
 * @self: a [class@Agent.ModelManager]
 * @cancellable: (nullable): a [class@Gio.Cancellable]
 * @callback: (scope async): called with the list
 * @user_data: data for @callback
 *
 * Lists the models installed on the server (Ollama's `/api/tags`), each
 * described by the server (`/api/show`, a few at a time): size, family,
 * parameter count, quantization, context length and capabilities. A model
 * the server fails to describe is listed without its details
 * ([property@Agent.ModelInfo:details-known] %FALSE). Call
 * [method@Agent.ModelManager.list_finish] from @callback.
 *
 * Since: 0.1
 */
void
agent_model_manager_list_async (AgentModelManager   *self,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (AGENT_IS_MODEL_MANAGER (self));

  task = new_task (self, NULL, agent_model_manager_list_async, cancellable,
                   callback, user_data);

  if (check_supported (self, task))
    request (self, SOUP_METHOD_GET, "/api/tags", NULL, FALSE, g_steal_pointer (&task), tags_cb);
}

/**
 * agent_model_manager_list_finish:
 * @self: a [class@Agent.ModelManager]
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes [method@Agent.ModelManager.list_async].
 *
 * Returns: (transfer full) (nullable): a list of [class@Agent.ModelInfo],
 *   sorted by name, or %NULL with @error set
 *
 * Since: 0.1
 */
GListModel *
agent_model_manager_list_finish (AgentModelManager  *self,
                                 GAsyncResult       *result,
                                 GError            **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * agent_model_manager_show_async:
 * @self: a [class@Agent.ModelManager]
 * @model: the model's name
 * @cancellable: (nullable): a [class@Gio.Cancellable]
 * @callback: (scope async): called with the description
 * @user_data: data for @callback
 *
 * Asks the server to describe @model (Ollama's `/api/show`). Call
 * [method@Agent.ModelManager.show_finish] from @callback.
 *
 * Since: 0.1
 */
void
agent_model_manager_show_async (AgentModelManager   *self,
                                const char          *model,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (AGENT_IS_MODEL_MANAGER (self));
  g_return_if_fail (model != NULL);

  task = new_task (self, model, agent_model_manager_show_async, cancellable,
                   callback, user_data);

  if (check_supported (self, task))
    request (self, SOUP_METHOD_POST, "/api/show", model, FALSE, g_steal_pointer (&task), show_cb);
}

/**
 * agent_model_manager_show_finish:
 * @self: a [class@Agent.ModelManager]
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes [method@Agent.ModelManager.show_async]. A model that is not
 * installed fails with %AGENT_ERROR_MODEL_NOT_FOUND.
 *
 * Returns: (transfer full) (nullable): the model, or %NULL with @error set
 *
 * Since: 0.1
 */
AgentModelInfo *
agent_model_manager_show_finish (AgentModelManager  *self,
                                 GAsyncResult       *result,
                                 GError            **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * agent_model_manager_list_running_async:
 * @self: a [class@Agent.ModelManager]
 * @cancellable: (nullable): a [class@Gio.Cancellable]
 * @callback: (scope async): called with the list
 * @user_data: data for @callback
 *
 * Lists the models loaded in the server's memory (Ollama's `/api/ps`),
 * with the memory each holds ([property@Agent.ModelInfo:size],
 * [property@Agent.ModelInfo:size-vram]) and when it unloads
 * ([property@Agent.ModelInfo:expires-at]). Call
 * [method@Agent.ModelManager.list_running_finish] from @callback.
 *
 * Since: 0.1
 */
void
agent_model_manager_list_running_async (AgentModelManager   *self,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (AGENT_IS_MODEL_MANAGER (self));

  task = new_task (self, NULL, agent_model_manager_list_running_async,
                   cancellable, callback, user_data);

  if (check_supported (self, task))
    request (self, SOUP_METHOD_GET, "/api/ps", NULL, FALSE, g_steal_pointer (&task), running_cb);
}

/**
 * agent_model_manager_list_running_finish:
 * @self: a [class@Agent.ModelManager]
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes [method@Agent.ModelManager.list_running_async].
 *
 * Returns: (transfer full) (nullable): a list of [class@Agent.ModelInfo],
 *   or %NULL with @error set
 *
 * Since: 0.1
 */
GListModel *
agent_model_manager_list_running_finish (AgentModelManager  *self,
                                         GAsyncResult       *result,
                                         GError            **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * agent_model_manager_pull_async:
 * @self: a [class@Agent.ModelManager]
 * @model: the model's name, with its tag or not (`llama3.2`, `qwen3:8b`)
 * @cancellable: (nullable): a [class@Gio.Cancellable]
 * @callback: (scope async): called when the pull has ended
 * @user_data: data for @callback
 *
 * Downloads @model from the registry into the server (Ollama's
 * `/api/pull`), emitting [signal@Agent.ModelManager::pull-progress] as the
 * server reports. Call [method@Agent.ModelManager.pull_finish] from
 * @callback.
 *
 * Cancelling closes the connection. Ollama keeps the layers it finished
 * and the part of the one it was downloading, and a later pull of the same
 * model resumes from there; the model is not installed until a pull ends.
 *
 * Since: 0.1
 */
void
agent_model_manager_pull_async (AgentModelManager   *self,
                                const char          *model,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (AGENT_IS_MODEL_MANAGER (self));
  g_return_if_fail (model != NULL);

  task = new_task (self, model, agent_model_manager_pull_async, cancellable,
                   callback, user_data);

  if (check_supported (self, task))
    _agent_model_manager_pull (self, g_steal_pointer (&task));
}

/**
 * agent_model_manager_pull_finish:
 * @self: a [class@Agent.ModelManager]
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes [method@Agent.ModelManager.pull_async]: %TRUE once the server
 * said `success`. Fails with %AGENT_ERROR_MODEL_NOT_FOUND when the
 * registry has no such model, %AGENT_ERROR_NO_SPACE when the server's disk
 * is full, %AGENT_ERROR_REGISTRY when it cannot reach the registry,
 * %AGENT_ERROR_NETWORK when the connection broke, `G_IO_ERROR_CANCELLED`
 * when cancelled.
 *
 * Returns: whether the model is installed
 *
 * Since: 0.1
 */
gboolean
agent_model_manager_pull_finish (AgentModelManager  *self,
                                 GAsyncResult       *result,
                                 GError            **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * agent_model_manager_delete_async:
 * @self: a [class@Agent.ModelManager]
 * @model: the model's name
 * @cancellable: (nullable): a [class@Gio.Cancellable]
 * @callback: (scope async): called when the model is deleted
 * @user_data: data for @callback
 *
 * Deletes @model from the server (Ollama's `/api/delete`): its manifest,
 * and the files no other model uses. Ollama deletes a model that is
 * loaded too; the loaded copy answers until it unloads. Call
 * [method@Agent.ModelManager.delete_finish] from @callback.
 *
 * Since: 0.1
 */
void
agent_model_manager_delete_async (AgentModelManager   *self,
                                  const char          *model,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (AGENT_IS_MODEL_MANAGER (self));
  g_return_if_fail (model != NULL);

  task = new_task (self, model, agent_model_manager_delete_async, cancellable,
                   callback, user_data);

  if (check_supported (self, task))
    request (self, SOUP_METHOD_POST, "/api/generate", model, TRUE, g_steal_pointer (&task),
             unloaded_for_delete_cb);
}

/**
 * agent_model_manager_delete_finish:
 * @self: a [class@Agent.ModelManager]
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes [method@Agent.ModelManager.delete_async]. A model that is not
 * installed fails with %AGENT_ERROR_MODEL_NOT_FOUND.
 *
 * Returns: whether the model was deleted
 *
 * Since: 0.1
 */
gboolean
agent_model_manager_delete_finish (AgentModelManager  *self,
                                   GAsyncResult       *result,
                                   GError            **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * agent_model_manager_unload_async:
 * @self: a [class@Agent.ModelManager]
 * @model: the model's name
 * @cancellable: (nullable): a [class@Gio.Cancellable]
 * @callback: (scope async): called when the model is unloaded
 * @user_data: data for @callback
 *
 * Unloads @model from the server's memory now, rather than when its
 * keep-alive ends (Ollama's `/api/generate` with `keep_alive` 0). Call
 * [method@Agent.ModelManager.unload_finish] from @callback.
 *
 * Since: 0.1
 */
void
agent_model_manager_unload_async (AgentModelManager   *self,
                                  const char          *model,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (AGENT_IS_MODEL_MANAGER (self));
  g_return_if_fail (model != NULL);

  task = new_task (self, model, agent_model_manager_unload_async, cancellable,
                   callback, user_data);

  if (check_supported (self, task))
    request (self, SOUP_METHOD_POST, "/api/generate", model, TRUE, g_steal_pointer (&task),
             done_cb);
}

/**
 * agent_model_manager_unload_finish:
 * @self: a [class@Agent.ModelManager]
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes [method@Agent.ModelManager.unload_async]. A model that is not
 * installed fails with %AGENT_ERROR_MODEL_NOT_FOUND; one that is not
 * loaded is no error.
 *
 * Returns: whether the model is unloaded
 *
 * Since: 0.1
 */
gboolean
agent_model_manager_unload_finish (AgentModelManager  *self,
                                   GAsyncResult       *result,
                                   GError            **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
