/* agent-model-errors.c — what a model server's errors mean
 *
 * Ollama says what went wrong in a sentence, {"error": "…"}, in the body
 * of an HTTP error or as the last line of a stream that had begun (a pull
 * answers 200 before it knows). The sentences come from its server
 * (github.com/ollama/ollama, server/routes.go and server/images.go):
 *
 * - "model 'x' not found" (404): /api/chat, /api/show, /api/delete,
 *   /api/generate of a model that is not installed
 * - "pull model manifest: file does not exist": the registry has no such
 *   model or tag
 * - "pull model manifest: Get \"https://registry.ollama.ai/…\": dial tcp:
 *   …": the registry cannot be reached (offline, DNS, proxy, TLS)
 * - "write …-partial-0: no space left on device": the disk is full during
 *   a download (the part already written stays, and resumes)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "agent-error-private.h"
#include "models/agent-models-private.h"

GError *
_agent_model_error_not_installed (const char *model)
{
  /* Translators: the first and second %s are a model's name */
  return g_error_new (AGENT_ERROR, AGENT_ERROR_MODEL_NOT_FOUND,
                      _("Model “%s” is not installed; pull it with `agent-cli --pull %s`"),
                      model, model);
}

GError *
_agent_model_error_from_ollama (const char *message,
                                const char *model)
{
  if (message == NULL)
    return NULL;

  if (strstr (message, "no space left on device") != NULL)
    return g_error_new (AGENT_ERROR, AGENT_ERROR_NO_SPACE,
                        _("The server's disk is full: %s"), message);

  if (g_str_has_prefix (message, "pull model manifest: "))
    {
      if (strstr (message, "file does not exist") != NULL)
        /* Translators: %s is a model's name */
        return g_error_new (AGENT_ERROR, AGENT_ERROR_MODEL_NOT_FOUND,
                            _("The registry has no model “%s”; check its name and tag"),
                            model);
      return g_error_new (AGENT_ERROR, AGENT_ERROR_REGISTRY,
                          _("The server could not reach the model registry: %s"),
                          message + strlen ("pull model manifest: "));
    }

  /* "model 'x' not found", "model \"x\" not found, try pulling it first" */
  if (g_str_has_prefix (message, "model ") && strstr (message, " not found") != NULL &&
      model != NULL)
    return _agent_model_error_not_installed (model);

  return NULL;
}

/* "model 'x' not found" (or "model \"x\" not found, try pulling it
 * first"): x, or NULL */
static char *
dup_missing_model (const char *message)
{
  const char *start;
  const char *end;
  char quote;

  if (message == NULL || !g_str_has_prefix (message, "model ") ||
      strstr (message, " not found") == NULL)
    return NULL;
  start = message + strlen ("model ");
  quote = *start;
  if (quote != '\'' && quote != '"')
    return NULL;
  end = strchr (start + 1, quote);
  if (end == NULL || end == start + 1 || !g_str_has_prefix (end + 1, " not found"))
    return NULL;
  return g_strndup (start + 1, end - start - 1);
}

void
_agent_model_error_refine_http (GError     **error,
                                guint        status,
                                const char  *body,
                                gsize        len)
{
  g_autoptr(AgentJsonParser) parser = NULL;
  g_autofree char *model = NULL;
  AgentJson root;
  AgentJson member;

  if (status != 404 || body == NULL || len == 0)
    return;
  parser = agent_json_parser_new ();
  if (!agent_json_parser_parse (parser, body, len, &root, NULL))
    return;
  member = agent_json_member (&root, "error");
  if (!(model = dup_missing_model (agent_json_string (&member, NULL))))
    return;

  g_clear_error (error);
  *error = _agent_model_error_not_installed (model);
  _agent_error_set_http_status (*error, status);
}
