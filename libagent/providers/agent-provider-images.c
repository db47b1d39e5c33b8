/* agent-provider-images.c — what each API makes of images: the largest
 * image it documents as useful
 *
 * An image larger than what the API uses is scaled down by the server
 * anyway; sent at that size instead (AgentSession:scale-images), it costs
 * the same tokens and a fraction of the bytes. The rules, as each provider
 * documents them (docs/design.md, "Attachments"):
 *
 * - OpenAI (chat completions and Responses), detail "high" or "auto": the
 *   image fitted into 2048 × 2048, then its shorter side to 768 pixels.
 * - Anthropic: at most 1568 pixels on the longer side and about 1.15
 *   megapixels (1092 × 1092).
 * - Gemini: images are scaled to at most 3072 × 3072.
 * - Ollama: nothing documented; each model's vision encoder resizes to
 *   its own input (LLaVA 336 or 672, Llama 3.2 Vision 1120, Gemma 3 896).
 *   Images go at most 2048 on the longer side.
 *
 * The writers of a request's parts are reached through callbacks that
 * carry a message and no request (_agent_openai_add_messages() and the
 * like), so the rule a request is written with is the thread's while its
 * body is built (_agent_provider_get_writing_images(), set around
 * build_body() in agent-provider-http.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "providers/agent-provider-parts-private.h"

const AgentImageRule _agent_openai_images = {
  .max_side = 2048,
  .max_short = 768,
};

const AgentImageRule _agent_anthropic_images = {
  .max_side = 1568,
  .max_area = 1092 * 1092,
};

const AgentImageRule _agent_gemini_images = {
  .max_side = 3072,
};

const AgentImageRule _agent_ollama_images = {
  .max_side = 2048,
};

/* Documented in agent-provider-parts-private.h */
const char *
_agent_part_get_sent_base64 (AgentContentPart  *part,
                             const char       **mime_type)
{
  return _agent_content_part_get_sent (part, _agent_provider_get_writing_images (), mime_type, NULL, NULL);
}

/* Documented in agent-provider-parts-private.h */
char *
_agent_part_dup_sent_data_url (AgentContentPart *part)
{
  const char *mime_type = NULL;
  const char *base64 = _agent_part_get_sent_base64 (part, &mime_type);

  return g_strconcat ("data:", mime_type, ";base64,", base64, NULL);
}
