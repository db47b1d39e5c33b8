/* agent-content-part-tokens.c — the tokens an API bills for a part
 *
 * By the rule of the provider's API (providers/agent-provider-images.c):
 * an image by the size it is sent at, as far as its header tells it
 * without decoding (scaled by the request's rule, if it was); a PDF by its
 * pages; a text document as text, at 4 bytes a token; a recording by its
 * length. An estimate, as the rest of the context's count.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "messages/agent-content-part-private.h"

/* Documented in agent-content-part-private.h */
gint64
_agent_content_part_get_tokens (AgentContentPart     *part,
                                const AgentImageRule *images,
                                const AgentImageRule *scaled)
{
  int width = 0, height = 0;

  switch (agent_content_part_get_kind (part))
    {
    case AGENT_CONTENT_PART_KIND_TEXT:
      return (agent_content_part_get_size (part) + 3) / 4;

    case AGENT_CONTENT_PART_KIND_IMAGE:
      if (agent_content_part_get_data (part) != NULL)
        _agent_content_part_get_sent_size (part, scaled, &width, &height);
      return images->image_tokens (width, height);

    case AGENT_CONTENT_PART_KIND_AUDIO:
      return _agent_content_part_get_audio_tokens (part);

    case AGENT_CONTENT_PART_KIND_FILE:
    default:
      if (_agent_content_part_is_text_file (part))
        return (agent_content_part_get_size (part) + 3) / 4;
      if (agent_content_part_get_data (part) != NULL &&
          g_strcmp0 (agent_content_part_get_mime_type (part), "application/pdf") == 0)
        return images->page_tokens * _agent_content_part_get_pdf_pages (part);
      /* Anything else: as much as a page */
      return images->page_tokens;
    }
}
