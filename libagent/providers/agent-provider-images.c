/* agent-provider-images.c — what each API makes of images and documents:
 * the largest image it documents as useful, and the tokens it bills
 *
 * An image larger than what the API uses is scaled down by the server
 * anyway; sent at that size instead (AgentSession:scale-images), it costs
 * the same tokens and a fraction of the bytes. The rules, as each provider
 * documents them (docs/design.md, "Attachments"):
 *
 * - OpenAI (chat completions and Responses), detail "high" or "auto": the
 *   image fitted into 2048 × 2048, then its shorter side to 768 pixels;
 *   85 tokens and 170 for each tile of 512 × 512 that it covers. A PDF is
 *   sent as its text and an image of each page: about 1,000 tokens a page
 *   (an estimate: the text varies).
 * - Anthropic: at most 1568 pixels on the longer side and about 1.15
 *   megapixels (1092 × 1092); width × height / 750 tokens. A PDF page
 *   "typically 1,500 to 3,000 tokens": 2,000.
 * - Gemini: an image of at most 384 × 384 is 258 tokens; a larger one is
 *   tiled in 768 × 768 tiles of 258 tokens each; images are scaled to at
 *   most 3072 × 3072. A PDF page is 258 tokens.
 * - Ollama: nothing documented; each model's vision encoder resizes to
 *   its own input (LLaVA 336 or 672, Llama 3.2 Vision 1120, Gemma 3 896).
 *   Images go at most 2048 on the longer side; 576 tokens an image (LLaVA's
 *   24 × 24 patches), an estimate.
 *
 * A text document is sent as text: 4 bytes a token, as any text.
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

static inline gint64
tiles (int length,
       int tile)
{
  return (length + tile - 1) / tile;
}

static gint64
openai_image_tokens (int width,
                     int height)
{
  int w, h;

  if (width <= 0 || height <= 0)
    return 85 + 170 * 4;
  _agent_image_fit (width, height, 2048, 768, 0, &w, &h);
  return 85 + 170 * tiles (w, 512) * tiles (h, 512);
}

static gint64
anthropic_image_tokens (int width,
                        int height)
{
  int w, h;

  if (width <= 0 || height <= 0)
    return 1590;
  _agent_image_fit (width, height, 1568, 0, 1092 * 1092, &w, &h);
  return MAX (1, ((gint64) w * h + 749) / 750);
}

static gint64
gemini_image_tokens (int width,
                     int height)
{
  int w, h;

  if (width <= 0 || height <= 0)
    return 258;
  _agent_image_fit (width, height, 3072, 0, 0, &w, &h);
  if (w <= 384 && h <= 384)
    return 258;
  return 258 * tiles (w, 768) * tiles (h, 768);
}

static gint64
ollama_image_tokens (int width,
                     int height)
{
  return 576;
}

const AgentImageRule _agent_openai_images = {
  .max_side = 2048,
  .max_short = 768,
  .image_tokens = openai_image_tokens,
  .page_tokens = 1000,
};

const AgentImageRule _agent_anthropic_images = {
  .max_side = 1568,
  .max_area = 1092 * 1092,
  .image_tokens = anthropic_image_tokens,
  .page_tokens = 2000,
};

const AgentImageRule _agent_gemini_images = {
  .max_side = 3072,
  .image_tokens = gemini_image_tokens,
  .page_tokens = 258,
};

const AgentImageRule _agent_ollama_images = {
  .max_side = 2048,
  .image_tokens = ollama_image_tokens,
  .page_tokens = 1000,
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
