/* agent-context-length.c — "the conversation is too long", in every API's words
 *
 * Each API says in its own way that a request does not fit the model's
 * context window; all of them become %AGENT_ERROR_CONTEXT_LENGTH, with the
 * token counts when the server gives them. The shapes, from real answers:
 *
 * - OpenAI (and vLLM, and servers that copy it): `"code":
 *   "context_length_exceeded"`, "This model's maximum context length is
 *   128000 tokens. However, your messages resulted in 130000 tokens …"
 *   (or "… you requested 4431 tokens (3431 in the messages, 1000 in the
 *   completion)"); the Responses API: "Your input exceeds the context
 *   window of this model …" with the same code, also inside the stream.
 * - Anthropic: 400 `invalid_request_error`, "prompt is too long: 200251
 *   tokens > 200000 maximum", or "input length and `max_tokens` exceed
 *   context limit: 199759 + 8192 > 200000, …".
 * - Gemini: 400 `INVALID_ARGUMENT`, "The input token count (132478)
 *   exceeds the maximum number of tokens allowed (131072)."
 * - Ollama: 400 `{"error": "the input length exceeds the context length"}`
 *   (no numbers; older versions cut the prompt silently).
 * - llama.cpp's server: `"type": "exceed_context_size_error"`, with
 *   `n_prompt_tokens` and `n_ctx`.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "transport/agent-context-length-private.h"

typedef enum
{
  ORDER_REQUESTED_LIMIT,
  ORDER_LIMIT_REQUESTED,
  ORDER_SUM_LIMIT,  /* input + max_tokens > limit */
  ORDER_NONE,
} Order;

static const struct {
  const char *pattern;
  Order       order;
} patterns[] = {
  { "maximum context length is (\\d+) tokens.*?(?:requested|resulted in) (\\d+) tokens",
    ORDER_LIMIT_REQUESTED },
  { "prompt is too long: (\\d+) tokens > (\\d+)", ORDER_REQUESTED_LIMIT },
  { "exceed context limit: (\\d+) \\+ (\\d+) > (\\d+)", ORDER_SUM_LIMIT },
  { "input token count \\((\\d+)\\) exceeds the maximum number of tokens allowed \\((\\d+)\\)",
    ORDER_REQUESTED_LIMIT },
  { "exceeds? (?:the )?(?:model's )?(?:maximum )?context (?:length|window|size)", ORDER_NONE },
  { "input length exceeds the context length", ORDER_NONE },
  { "exceeds the available context size", ORDER_NONE },
  { "context_length_exceeded", ORDER_NONE },
};

static gint64
match_number (GMatchInfo *match,
              int         group)
{
  g_autofree char *text = g_match_info_fetch (match, group);
  guint64 value;

  if (text == NULL || !g_ascii_string_to_unsigned (text, 10, 0, G_MAXINT64, &value, NULL))
    return -1;
  return (gint64) value;
}

static gboolean
match_message (const char *message,
               gint64     *requested,
               gint64     *limit)
{
  /* Not G_REGEX_OPTIMIZE: a JIT compile for one match costs more than it
   * saves, and PCRE2's JIT code reads whole words past the end of the
   * text, which memcheck reports */
  for (guint i = 0; i < G_N_ELEMENTS (patterns); i++)
    {
      g_autoptr(GRegex) regex = g_regex_new (patterns[i].pattern,
                                             G_REGEX_CASELESS | G_REGEX_DOTALL,
                                             0, NULL);
      g_autoptr(GMatchInfo) match = NULL;

      g_assert (regex != NULL);
      if (!g_regex_match (regex, message, 0, &match))
        continue;

      switch (patterns[i].order)
        {
        case ORDER_REQUESTED_LIMIT:
          *requested = match_number (match, 1);
          *limit = match_number (match, 2);
          break;

        case ORDER_LIMIT_REQUESTED:
          *limit = match_number (match, 1);
          *requested = match_number (match, 2);
          break;

        case ORDER_SUM_LIMIT:
          {
            gint64 input = match_number (match, 1);
            gint64 output = match_number (match, 2);

            *requested = input >= 0 && output >= 0 ? input + output : -1;
            *limit = match_number (match, 3);
          }
          break;

        case ORDER_NONE:
        default:
          break;
        }

      return TRUE;
    }

  return FALSE;
}

static gboolean
member_is (const AgentJson *object,
           const char      *name,
           const char      *value)
{
  const char *text = agent_json_member_string (object, name, NULL);

  return text != NULL && g_ascii_strcasecmp (text, value) == 0;
}

static gint64
member_int (const AgentJson *object,
            const char      *name)
{
  AgentJson member = agent_json_member (object, name);
  gint64 value;

  return agent_json_int (&member, &value) && value >= 0 ? value : -1;
}

/* Whether @root (an API's error object, at the top or under "error") says
 * the request did not fit the context window; then *@requested and *@limit
 * are the tokens the request needed and the window, or -1 when the server
 * did not say. */
gboolean
_agent_context_length_check (const AgentJson *root,
                             gint64          *requested,
                             gint64          *limit)
{
  AgentJson inner = agent_json_member (root, "error");
  const AgentJson *error = agent_json_is (&inner, AGENT_JSON_OBJECT) ? &inner : root;
  const char *message;
  gboolean found;

  *requested = *limit = -1;

  if (agent_json_is (&inner, AGENT_JSON_STRING))
    message = agent_json_string (&inner, NULL);
  else
    message = agent_json_member_string (error, "message", NULL);

  found = member_is (error, "code", "context_length_exceeded") ||
          member_is (error, "type", "exceed_context_size_error");

  if (message != NULL && match_message (message, requested, limit))
    found = TRUE;

  /* llama.cpp names the numbers */
  if (found && *requested < 0)
    *requested = member_int (error, "n_prompt_tokens");
  if (found && *limit < 0)
    *limit = member_int (error, "n_ctx");

  return found;
}
