/* agent-provider-embed.c
 *
 * Embeddings through each API that has them, in batches of at most
 * MAX_BATCH texts a request, one request after the other:
 *
 * - OpenAI and compatible servers: POST {base}/embeddings
 *   {"model", "input": […]} → {"data": [{"index", "embedding": […]}]}, the
 *   items in any order (placed by their index);
 * - Ollama: POST {base}/api/embed {"model", "input": […]} →
 *   {"embeddings": [[…], …]};
 * - Gemini: POST {base}/v1beta/models/{model}:batchEmbedContents
 *   {"requests": [{"model": "models/…", "content": {"parts": [{"text"}]}}]}
 *   → {"embeddings": [{"values": […]}]}.
 *
 * Anthropic's API has none. Every answer must hold one vector per text,
 * all of the same length, or the call fails saying what was wrong.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "json/agent-json-private.h"
#include "transport/agent-model-request-private.h"
#include "transport/agent-provider-private.h"

#define MAX_BATCH 64

typedef enum
{
  API_OPENAI,
  API_OLLAMA,
  API_GEMINI,
} Api;

typedef struct
{
  Api        api;
  char      *model;
  char     **texts;
  guint      n_texts;
  guint      next;        /* the first text of the batch asked for */
  guint      batch;       /* how many texts it has */
  guint      dimensions;  /* 0 until the first vector */
  GArray    *values;      /* of float, n_texts × dimensions once known */
  gboolean  *seen;        /* of the batch's texts, which have their vector */
} Embed;

static void
embed_free (gpointer data)
{
  Embed *embed = data;

  g_free (embed->model);
  g_strfreev (embed->texts);
  g_clear_pointer (&embed->values, g_array_unref);
  g_free (embed->seen);
  g_free (embed);
}

static char *
build_body (Embed *embed)
{
  g_autoptr(cJSON) root = cJSON_CreateObject ();
  cJSON *list;

  if (embed->api == API_GEMINI)
    {
      g_autofree char *name = g_str_has_prefix (embed->model, "models/")
                                ? g_strdup (embed->model)
                                : g_strconcat ("models/", embed->model, NULL);

      list = cJSON_AddArrayToObject (root, "requests");
      for (guint i = embed->next; i < embed->next + embed->batch; i++)
        {
          cJSON *request = cJSON_CreateObject ();
          cJSON *content = cJSON_AddObjectToObject (request, "content");
          cJSON *parts = cJSON_AddArrayToObject (content, "parts");
          cJSON *part = cJSON_CreateObject ();

          cJSON_AddStringToObject (request, "model", name);
          cJSON_AddStringToObject (part, "text", embed->texts[i]);
          cJSON_AddItemToArray (parts, part);
          cJSON_AddItemToArray (list, request);
        }
    }
  else
    {
      cJSON_AddStringToObject (root, "model", embed->model);
      list = cJSON_AddArrayToObject (root, "input");
      for (guint i = embed->next; i < embed->next + embed->batch; i++)
        cJSON_AddItemToArray (list, cJSON_CreateString (embed->texts[i]));
    }

  return cJSON_PrintUnformatted (root);
}

static char *
build_path (Embed *embed)
{
  g_autofree char *escaped = NULL;
  const char *name = embed->model;

  switch (embed->api)
    {
    case API_OPENAI:
      return g_strdup ("/embeddings");
    case API_OLLAMA:
      return g_strdup ("/api/embed");
    case API_GEMINI:
    default:
      if (g_str_has_prefix (name, "models/"))
        name += strlen ("models/");
      escaped = g_uri_escape_string (name, NULL, FALSE);
      return g_strdup_printf ("/v1beta/models/%s:batchEmbedContents", escaped);
    }
}

static gboolean
fail (GError     **error,
      const char  *format,
      ...) G_GNUC_PRINTF (2, 3);

static gboolean
fail (GError     **error,
      const char  *format,
      ...)
{
  g_autofree char *detail = NULL;
  va_list args;

  va_start (args, format);
  detail = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL,
               _("The server's embeddings could not be read: %s"), detail);
  return FALSE;
}

/* The vector of the batch's text @slot, from an array of numbers */
static gboolean
read_vector (Embed            *embed,
             const AgentJson  *vector,
             guint             slot,
             GError          **error)
{
  AgentJsonIter iter;
  AgentJson value;
  float *out;
  guint n = 0;

  if (slot >= embed->batch)
    return fail (error, _("it sent %u vectors or more for %u texts"), slot + 1, embed->batch);
  if (embed->seen[slot])
    return fail (error, _("it sent two vectors for text %u"), embed->next + slot);
  if (!agent_json_is (vector, AGENT_JSON_ARRAY))
    return fail (error, _("a vector is not a list of numbers"));

  if (embed->dimensions == 0)
    {
      agent_json_iter_init (&iter, vector);
      while (agent_json_iter_next (&iter, NULL, NULL, &value))
        n++;
      if (n == 0)
        return fail (error, _("a vector is empty"));
      embed->dimensions = n;
      g_array_set_size (embed->values, (gsize) embed->n_texts * n);
    }

  out = &g_array_index (embed->values, float, (gsize) (embed->next + slot) * embed->dimensions);
  n = 0;
  agent_json_iter_init (&iter, vector);
  while (agent_json_iter_next (&iter, NULL, NULL, &value))
    {
      double number;

      if (n >= embed->dimensions)
        return fail (error, _("vectors of different lengths (%u and more than %u)"),
                     embed->dimensions, n);
      if (!agent_json_double (&value, &number) || !isfinite ((float) number))
        return fail (error, _("a vector holds something other than a number"));
      out[n++] = (float) number;
    }
  if (n != embed->dimensions)
    return fail (error, _("vectors of different lengths (%u and %u)"), embed->dimensions, n);

  embed->seen[slot] = TRUE;
  return TRUE;
}

static gboolean
read_answer (Embed            *embed,
             const AgentJson  *root,
             GError          **error)
{
  const char *name = embed->api == API_OPENAI ? "data" : "embeddings";
  AgentJson list = agent_json_member (root, name);
  AgentJsonIter iter;
  AgentJson item;
  guint position = 0;

  if (!agent_json_is (&list, AGENT_JSON_ARRAY))
    return fail (error, _("its answer has no “%s” list"), name);

  agent_json_iter_init (&iter, &list);
  while (agent_json_iter_next (&iter, NULL, NULL, &item))
    {
      AgentJson vector;
      guint slot = position;

      if (embed->api == API_OPENAI)
        {
          AgentJson index = agent_json_member (&item, "index");
          gint64 value;

          if (agent_json_exists (&index))
            {
              if (!agent_json_int (&index, &value) || value < 0 || value >= embed->batch)
                return fail (error, _("an item's index is not one of the %u texts"),
                             embed->batch);
              slot = value;
            }
          vector = agent_json_member (&item, "embedding");
        }
      else if (embed->api == API_GEMINI)
        vector = agent_json_member (&item, "values");
      else
        vector = item;

      if (!read_vector (embed, &vector, slot, error))
        return FALSE;
      position++;
    }

  if (position != embed->batch)
    return fail (error, _("it sent %u vectors for %u texts"), position, embed->batch);
  return TRUE;
}

static void request_batch (GTask *task);

static void
batch_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Embed *embed = g_task_get_task_data (task);
  g_autoptr(AgentJsonParser) parser = agent_json_parser_new ();
  g_autoptr(GBytes) bytes = NULL;
  GError *error = NULL;
  AgentJson root;

  if (!(bytes = _agent_model_request_finish (AGENT_PROVIDER (object), result, &error)))
    {
      g_task_return_error (task, error);
      return;
    }
  if (!agent_json_parser_parse (parser, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                &root, NULL) ||
      !agent_json_is (&root, AGENT_JSON_OBJECT))
    {
      g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                               _("The server's embeddings could not be read: its answer is "
                                 "not a JSON object"));
      return;
    }
  if (!read_answer (embed, &root, &error))
    {
      g_task_return_error (task, error);
      return;
    }

  embed->next += embed->batch;
  request_batch (g_steal_pointer (&task));
}

/* Asks for the next batch, or returns what all of them gave; takes @task */
static void
request_batch (GTask *task)
{
  AgentProvider *self = g_task_get_source_object (task);
  Embed *embed = g_task_get_task_data (task);
  g_autofree char *body = NULL;
  g_autofree char *path = NULL;

  if (embed->next == embed->n_texts)
    {
      gsize size = (gsize) embed->values->len * sizeof (float);
      g_autoptr(GBytes) data = g_bytes_new_take (g_array_free (g_steal_pointer (&embed->values),
                                                               FALSE), size);

      g_task_return_pointer (task, agent_embeddings_new (embed->model, embed->dimensions, data,
                                                         NULL),
                             g_object_unref);
      g_object_unref (task);
      return;
    }

  embed->batch = MIN (MAX_BATCH, embed->n_texts - embed->next);
  memset (embed->seen, 0, sizeof (gboolean) * MAX_BATCH);
  body = build_body (embed);
  path = build_path (embed);
  _agent_model_request_async (self, SOUP_METHOD_POST, path, body,
                              embed->api == API_OLLAMA ? embed->model : NULL, NULL, NULL,
                              g_task_get_cancellable (task), batch_cb, task);
}

/**
 * agent_provider_embed_async:
 * @self: a [class@Agent.Provider]
 * @texts: (array zero-terminated=1): the texts to embed
 * @model: (nullable): the embedding model, or %NULL for the provider's
 *   [property@Agent.Provider:model]
 * @cancellable: (nullable): a [class@Gio.Cancellable]
 * @callback: (scope async): called when the vectors are there
 * @user_data: data for @callback
 *
 * Asks the provider's server for the embedding of each text: a vector of
 * numbers, close to another when the texts are close in meaning (see
 * [method@Agent.Embeddings.similarity]).
 *
 * OpenAI (and compatible servers), Ollama and Gemini have embedding APIs;
 * Anthropic has none, and the call fails with %AGENT_ERROR_UNSUPPORTED.
 * Many texts are sent in several requests, at most 64 texts each, one
 * after the other. The provider's base URL, key, TLS settings and answer
 * size limit apply; errors are redacted as a turn's are.
 *
 * Since: 0.1
 */
void
agent_provider_embed_async (AgentProvider       *self,
                            const char * const  *texts,
                            const char          *model,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  const char *backend;
  Embed *embed;

  g_return_if_fail (AGENT_IS_PROVIDER (self));
  g_return_if_fail (texts != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, agent_provider_embed_async);

  embed = g_new0 (Embed, 1);
  embed->model = g_strdup (model != NULL ? model : agent_provider_get_model (self));
  embed->texts = g_strdupv ((char **) texts);
  embed->n_texts = g_strv_length (embed->texts);
  embed->values = g_array_new (FALSE, TRUE, sizeof (float));
  embed->seen = g_new0 (gboolean, MAX_BATCH);
  g_task_set_task_data (task, embed, embed_free);

  backend = _agent_provider_get_backend (self)->name;
  if (g_str_equal (backend, "ollama"))
    embed->api = API_OLLAMA;
  else if (g_str_equal (backend, "gemini"))
    embed->api = API_GEMINI;
  else if (g_str_has_prefix (backend, "openai"))
    embed->api = API_OPENAI;
  else
    {
      /* Translators: %s is a provider's name, such as "Anthropic" */
      g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_UNSUPPORTED,
                               _("%s has no embeddings API; use an OpenAI-compatible, Ollama "
                                 "or Gemini server for embeddings"),
                               agent_provider_get_display_name (self));
      return;
    }
  if (embed->model == NULL || embed->model[0] == '\0')
    {
      g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                               _("No embedding model was given"));
      return;
    }

  request_batch (g_steal_pointer (&task));
}

/**
 * agent_provider_embed_finish:
 * @self: a [class@Agent.Provider]
 * @result: the [iface@Gio.AsyncResult] given to the callback
 * @error: return location for a [struct@GLib.Error]
 *
 * Finishes [method@Agent.Provider.embed_async].
 *
 * Returns: (transfer full): one vector per text, in the order of the
 *   texts, or %NULL with @error set
 *
 * Since: 0.1
 */
AgentEmbeddings *
agent_provider_embed_finish (AgentProvider  *self,
                             GAsyncResult   *result,
                             GError        **error)
{
  g_return_val_if_fail (AGENT_IS_PROVIDER (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == agent_provider_embed_async,
                        NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
