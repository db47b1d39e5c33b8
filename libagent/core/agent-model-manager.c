/* agent-model-manager.c — a server's models: list, show, pull, delete, unload
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "core/agent-model-manager.h"
#include "core/agent-provider-private.h"
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

/* STUB: replaced by the real requests in the next commits */
static void
not_supported (gpointer             self,
               gpointer             source_tag,
               GCancellable        *cancellable,
               GAsyncReadyCallback  callback,
               gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, source_tag);
  g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "Not written yet");
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
  g_return_if_fail (AGENT_IS_MODEL_MANAGER (self));

  not_supported (self, agent_model_manager_list_async, cancellable, callback, user_data);
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
  g_return_if_fail (AGENT_IS_MODEL_MANAGER (self));
  g_return_if_fail (model != NULL);

  not_supported (self, agent_model_manager_show_async, cancellable, callback, user_data);
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
  g_return_if_fail (AGENT_IS_MODEL_MANAGER (self));

  not_supported (self, agent_model_manager_list_running_async, cancellable, callback, user_data);
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
  g_return_if_fail (AGENT_IS_MODEL_MANAGER (self));
  g_return_if_fail (model != NULL);

  not_supported (self, agent_model_manager_pull_async, cancellable, callback, user_data);
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
  g_return_if_fail (AGENT_IS_MODEL_MANAGER (self));
  g_return_if_fail (model != NULL);

  not_supported (self, agent_model_manager_delete_async, cancellable, callback, user_data);
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
  g_return_if_fail (AGENT_IS_MODEL_MANAGER (self));
  g_return_if_fail (model != NULL);

  not_supported (self, agent_model_manager_unload_async, cancellable, callback, user_data);
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
