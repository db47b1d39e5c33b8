/* fuzz-decoder.c
 *
 * A libFuzzer target for one provider's whole decoding pipeline: framing
 * (SSE or NDJSON), the provider's event decoder and the accumulator. It is
 * built once per provider, FUZZ_BACKEND naming the backend.
 *
 * The input is a response body. It is decoded whole, then again in pieces
 * whose sizes a hash of the input picks; both runs must end the same way
 * (the same error or none, the same text, reasoning, refusal, finish reason
 * and tool calls), whatever the pieces. And whatever the input, what the
 * pipeline hands on is valid UTF-8: the text, the reasoning, the tool
 * calls' names and arguments, the error message.
 *
 * For the OpenAI chat API (FUZZ_COMPARE_SCAN), a third run reads every
 * event with simdjson's DOM, never with the scan of the usual chunk: it
 * must end the same too.
 *
 * A difference aborts (failure()), so that libFuzzer keeps the input.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <stdint.h>
#include <string.h>

#include "fuzz-util.h"

#include "wire/agent-accumulator-private.h"
#include "transport/agent-provider-private.h"
#include "wire/agent-stream-decoder-private.h"
#ifdef FUZZ_COMPARE_SCAN
#include "providers/agent-openai-chat-private.h"
#endif

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

/* Everything a run ends with, as one text to compare */
static char *
describe_run (const uint8_t *data,
              size_t         size,
              guint32        seed,
              gboolean       scan)
{
  AgentAccumulator *accumulator = agent_accumulator_new (NULL, NULL);
  AgentStreamDecoder *decoder = agent_stream_decoder_new (&FUZZ_BACKEND.stream, accumulator, NULL);
  GString *out = g_string_new (NULL);
  GError *error = NULL;
  gboolean ok = TRUE;
  AgentMessage *message;
  gsize offset = 0;

#ifdef FUZZ_COMPARE_SCAN
  _agent_openai_chat_decoder_set_scan (agent_stream_decoder_get_provider_decoder (decoder), scan);
#else
  (void) scan;
#endif

  while (ok && offset < size)
    {
      gsize piece = size - offset;

      if (seed != 0)
        {
          seed = seed * 1103515245 + 12345;
          piece = MIN (piece, 1 + (seed >> 16) % 64);
        }
      ok = agent_stream_decoder_feed (decoder, (const char *) data + offset, piece, &error);
      offset += piece;
    }
  if (ok)
    ok = agent_stream_decoder_finish (decoder, &error);

  message = agent_accumulator_get_message (accumulator);

#define ADD(label, text) G_STMT_START {                             \
    const char *value_ = (text);                                     \
    if (value_ != NULL && !g_utf8_validate (value_, -1, NULL))       \
      failure ("%s is not valid UTF-8: %s", label,                   \
               g_strescape (value_, NULL));                          \
    g_string_append_printf (out, "%s=%s\n", label, value_ ? value_ : "(null)"); \
  } G_STMT_END

  g_string_append_printf (out, "ok=%d\n", ok);
  ADD ("error", error != NULL ? error->message : NULL);
  ADD ("content", agent_message_get_content (message));
  ADD ("reasoning", agent_message_get_reasoning (message));
  ADD ("refusal", agent_message_get_refusal (message));
  ADD ("finish", agent_message_get_finish_reason (message));
  for (guint i = 0; i < agent_message_get_n_tool_calls (message); i++)
    {
      AgentToolCall *call = agent_message_get_tool_call (message, i);

      ADD ("call id", agent_tool_call_get_id (call));
      ADD ("call name", agent_tool_call_get_name (call));
      ADD ("call arguments", agent_tool_call_get_arguments (call));
    }
#undef ADD

  g_clear_error (&error);
  agent_stream_decoder_free (decoder);
  agent_accumulator_free (accumulator);

  return g_string_free (out, FALSE);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  guint32 seed = 2166136261u;
  g_autofree char *whole = NULL;
  g_autofree char *pieces = NULL;

  /* FNV-1a of the input's first bytes: never 0, which means whole */
  for (size_t i = 0; i < MIN (size, 64); i++)
    seed = (seed ^ data[i]) * 16777619u;
  seed |= 1;

  whole = describe_run (data, size, 0, TRUE);
  pieces = describe_run (data, size, seed, TRUE);

  if (strcmp (whole, pieces) != 0)
    failure ("Fed whole:\n%s\nFed in pieces:\n%s", whole, pieces);

#ifdef FUZZ_COMPARE_SCAN
  {
    g_autofree char *dom = describe_run (data, size, 0, FALSE);

    if (strcmp (whole, dom) != 0)
      failure ("With the scan:\n%s\nWith the DOM alone:\n%s", whole, dom);
  }
#endif

  return 0;
}
