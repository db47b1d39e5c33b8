/* agent-anthropic.c — PLACEHOLDER while the backend is written (issue 4).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "agent-provider-private.h"

static GBytes *
anthropic_build_body (const AgentRequest  *request,
                   GError             **error)
{
  g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_FAILED, "anthropic: not written yet");
  return NULL;
}

static char *
anthropic_build_path (const AgentRequest *request)
{
  return g_strdup ("/");
}

static void
anthropic_add_headers (AgentProvider      *provider,
                    SoupMessageHeaders *headers)
{
}

static gpointer
anthropic_decoder_new (AgentAccumulator *accumulator)
{
  return accumulator;
}

static void
anthropic_decoder_free (gpointer decoder)
{
}

static gboolean
anthropic_decode (gpointer     decoder,
               const char  *event_type,
               const char  *data,
               gsize        len,
               gboolean    *done,
               GError     **error)
{
  g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_FAILED, "anthropic: not written yet");
  return FALSE;
}

static char **
anthropic_parse_models (const AgentJson *root)
{
  return NULL;
}

const AgentProviderBackend agent_anthropic_backend = {
  .name = "anthropic",
  .display_name = N_("Anthropic Messages"),
  .default_base_url = "https://api.anthropic.com",
  .api_key_variable = "ANTHROPIC_API_KEY",
  .default_model = "claude-sonnet-4-5",
  .framing = AGENT_FRAMING_SSE,
  .build_body = anthropic_build_body,
  .build_path = anthropic_build_path,
  .add_headers = anthropic_add_headers,
  .decoder_new = anthropic_decoder_new,
  .decoder_free = anthropic_decoder_free,
  .decode = anthropic_decode,
  .models_path = "/",
  .parse_models = anthropic_parse_models,
};
