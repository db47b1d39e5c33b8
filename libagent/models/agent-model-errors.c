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

  if (g_str_has_prefix (message, "model ") && g_str_has_suffix (message, " not found") &&
      model != NULL)
    return _agent_model_error_not_installed (model);

  /* "model \"x\" not found, try pulling it first" (older servers) */
  if (g_str_has_prefix (message, "model ") && strstr (message, " not found, try pulling") != NULL &&
      model != NULL)
    return _agent_model_error_not_installed (model);

  return NULL;
}
