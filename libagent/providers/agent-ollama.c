/* agent-ollama.c — PLACEHOLDER while the backend is written (issue 4).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "agent-provider-private.h"

static GBytes *
ollama_build_body (const AgentRequest  *request,
                   GError             **error)
{
  g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_FAILED, "ollama: not written yet");
  return NULL;
}

static char *
ollama_build_path (const AgentRequest *request)
{
  return g_strdup ("/");
}

static void
ollama_add_headers (AgentProvider      *provider,
                    SoupMessageHeaders *headers)
{
}

static gpointer
ollama_decoder_new (AgentAccumulator *accumulator)
{
  return accumulator;
}

static void
ollama_decoder_free (gpointer decoder)
{
}

static gboolean
ollama_decode (gpointer     decoder,
               const char  *event_type,
               const char  *data,
               gsize        len,
               gboolean    *done,
               GError     **error)
{
  g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_FAILED, "ollama: not written yet");
  return FALSE;
}

static char **
ollama_parse_models (const AgentJson *root)
{
  return NULL;
}

const AgentProviderBackend agent_ollama_backend = {
  .name = "ollama",
  .display_name = N_("Ollama"),
  .default_base_url = "http://localhost:11434",
  .api_key_variable = NULL,
  .default_model = "llama3.2",
  .framing = AGENT_FRAMING_NDJSON,
  .build_body = ollama_build_body,
  .build_path = ollama_build_path,
  .add_headers = ollama_add_headers,
  .decoder_new = ollama_decoder_new,
  .decoder_free = ollama_decoder_free,
  .decode = ollama_decode,
  .models_path = "/",
  .parse_models = ollama_parse_models,
};
