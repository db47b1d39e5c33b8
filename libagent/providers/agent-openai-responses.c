/* agent-openai-responses.c — PLACEHOLDER while the backend is written (issue 4).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "agent-provider-private.h"

static GBytes *
openai_responses_build_body (const AgentRequest  *request,
                   GError             **error)
{
  g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_FAILED, "openai-responses: not written yet");
  return NULL;
}

static char *
openai_responses_build_path (const AgentRequest *request)
{
  return g_strdup ("/");
}

static void
openai_responses_add_headers (AgentProvider      *provider,
                    SoupMessageHeaders *headers)
{
}

static gpointer
openai_responses_decoder_new (AgentAccumulator *accumulator)
{
  return accumulator;
}

static void
openai_responses_decoder_free (gpointer decoder)
{
}

static gboolean
openai_responses_decode (gpointer     decoder,
               const char  *event_type,
               const char  *data,
               gsize        len,
               gboolean    *done,
               GError     **error)
{
  g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_FAILED, "openai-responses: not written yet");
  return FALSE;
}

static char **
openai_responses_parse_models (const AgentJson *root)
{
  return NULL;
}

const AgentProviderBackend agent_openai_responses_backend = {
  .name = "openai-responses",
  .display_name = N_("OpenAI Responses"),
  .default_base_url = "https://api.openai.com/v1",
  .api_key_variable = "OPENAI_API_KEY",
  .default_model = "gpt-4o-mini",
  .framing = AGENT_FRAMING_SSE,
  .build_body = openai_responses_build_body,
  .build_path = openai_responses_build_path,
  .add_headers = openai_responses_add_headers,
  .decoder_new = openai_responses_decoder_new,
  .decoder_free = openai_responses_decoder_free,
  .decode = openai_responses_decode,
  .models_path = "/",
  .parse_models = openai_responses_parse_models,
};
