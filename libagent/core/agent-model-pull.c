/* agent-model-pull.c — pulling a model, with progress
 *
 * POST /api/pull {"model"} answers NDJSON as the server downloads:
 * {"status": "pulling manifest"}, then for each layer {"status":
 * "pulling <digest>", "digest", "total"[, "completed"]}, then "verifying
 * sha256 digest", "writing manifest", "success" (Ollama's docs/api.md).
 * An error after the answer began is a line {"error": "…"}. The lines are
 * read as they arrive, through the NDJSON splitter, each bounded.
 *
 * Cancelling closes the connection, which Ollama takes as its cue to stop
 * downloading: the layers it finished stay, the one it was on stays as a
 * partial file, and the next pull of the model resumes from there.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "core/agent-model-manager-private.h"
#include "core/agent-model-request-private.h"
#include "models/agent-models-private.h"

typedef struct
{
  AgentModelManager *manager;
  AgentPullProgress *progress;
  AgentJsonParser   *parser;
  char              *model;
  gboolean           success;
} Pull;

static void
pull_free (gpointer data)
{
  Pull *pull = data;

  g_clear_object (&pull->manager);
  g_clear_object (&pull->progress);
  g_clear_pointer (&pull->parser, agent_json_parser_free);
  g_free (pull->model);
  g_free (pull);
}

static gint64
member_bytes (const AgentJson *root,
              const char      *name)
{
  AgentJson member = agent_json_member (root, name);
  gint64 value;

  return agent_json_int (&member, &value) && value >= 0 ? value : -1;
}

static gboolean
line_cb (const char  *line,
         gsize        len,
         gpointer     user_data,
         GError     **error)
{
  Pull *pull = user_data;
  const char *status;
  const char *digest;
  AgentJson root;

  /* Checked by the request: a JSON object, and no error */
  if (!agent_json_parser_parse (pull->parser, line, len, &root, error))
    return FALSE;

  status = agent_json_member_string (&root, "status", NULL);
  digest = agent_json_member_string (&root, "digest", NULL);
  if (status == NULL)
    return TRUE;
  _agent_pull_progress_update (pull->progress, status, digest, member_bytes (&root, "completed"),
                               member_bytes (&root, "total"));
  if (g_str_equal (status, "success"))
    pull->success = TRUE;
  _agent_model_manager_emit_pull_progress (pull->manager, pull->progress);
  return TRUE;
}

static void
pulled_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Pull *pull = g_task_get_task_data (task);
  g_autoptr(GBytes) bytes = NULL;
  GError *error = NULL;

  bytes = _agent_model_request_finish (AGENT_PROVIDER (object), result, &error);
  if (bytes == NULL &&
      (g_error_matches (error, AGENT_ERROR, AGENT_ERROR_NETWORK) ||
       g_error_matches (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL)))
    {
      /* Translators: the first %s is a model's name, the second what went wrong */
      g_task_return_new_error (task, AGENT_ERROR, error->code,
                               _("The pull of “%s” was interrupted (%s); pulling it again "
                                 "resumes where it stopped"),
                               pull->model, error->message);
      g_error_free (error);
    }
  else if (bytes == NULL)
    g_task_return_error (task, error);
  else if (!pull->success)
    g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_NETWORK,
                             _("The pull of “%s” ended before the server said it had "
                               "succeeded; pulling it again resumes where it stopped"),
                             pull->model);
  else
    g_task_return_boolean (task, TRUE);
}

void
_agent_model_manager_pull (AgentModelManager *self,
                           GTask             *task)
{
  Pull *pull = g_new0 (Pull, 1);
  g_autofree char *body = NULL;
  g_autoptr(cJSON) root = cJSON_CreateObject ();

  pull->manager = g_object_ref (self);
  pull->model = g_strdup (g_task_get_task_data (task));
  pull->progress = _agent_pull_progress_new (pull->model);
  pull->parser = agent_json_parser_new ();
  g_task_set_task_data (task, pull, pull_free);

  cJSON_AddStringToObject (root, "model", pull->model);
  cJSON_AddTrueToObject (root, "stream");
  body = cJSON_PrintUnformatted (root);

  _agent_model_request_async (agent_model_manager_get_provider (self), SOUP_METHOD_POST,
                              "/api/pull", body, pull->model, line_cb, pull,
                              g_task_get_cancellable (task), pulled_cb, task);
}
