/* agent-gemini.c — PLACEHOLDER while the backend is written (issue 4).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "agent-provider-private.h"

static GBytes *
gemini_build_body (const AgentRequest  *request,
                   GError             **error)
{
  g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_FAILED, "gemini: not written yet");
  return NULL;
}

static char *
gemini_build_path (const AgentRequest *request)
{
  return g_strdup ("/");
}

static void
gemini_add_headers (AgentProvider      *provider,
                    SoupMessageHeaders *headers)
{
}

static gpointer
gemini_decoder_new (AgentAccumulator *accumulator)
{
  return accumulator;
}

static void
gemini_decoder_free (gpointer decoder)
{
}

static gboolean
gemini_decode (gpointer     decoder,
               const char  *event_type,
               const char  *data,
               gsize        len,
               gboolean    *done,
               GError     **error)
{
  g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_FAILED, "gemini: not written yet");
  return FALSE;
}

static char **
gemini_parse_models (const AgentJson *root)
{
  return NULL;
}

const AgentProviderBackend agent_gemini_backend = {
  .name = "gemini",
  .display_name = N_("Google Gemini"),
  .default_base_url = "https://generativelanguage.googleapis.com",
  .api_key_variable = "GEMINI_API_KEY",
  .default_model = "gemini-2.5-flash",
  .framing = AGENT_FRAMING_SSE,
  .build_body = gemini_build_body,
  .build_path = gemini_build_path,
  .add_headers = gemini_add_headers,
  .decoder_new = gemini_decoder_new,
  .decoder_free = gemini_decoder_free,
  .decode = gemini_decode,
  .models_path = "/",
  .parse_models = gemini_parse_models,
};
