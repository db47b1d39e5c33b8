// ai-sdk.mjs — the Vercel AI SDK as a contender
//
// streamText() over @ai-sdk/openai's chat completions model, consuming
// fullStream. @ai-sdk/openai's chat model does not read DeepSeek's
// reasoning_content, so on the reasoning workload only the content deltas
// arrive (bench/run-all knows). No tools are declared: the 4 calls of the
// tools workload are counted from their tool-input-delta parts.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import { createOpenAI } from '@ai-sdk/openai';
import { streamText } from 'ai';

import { API_KEY, Counter, MODEL, PROMPT, parseArgs } from './peer.mjs';

const { baseURL, latency } = parseArgs();
const openai = createOpenAI({ baseURL, apiKey: API_KEY });
const counter = new Counter(latency);
const calls = new Map();

counter.start();
const result = streamText({
  model: openai.chat(MODEL),
  prompt: PROMPT,
  maxRetries: 0,
});

for await (const part of result.fullStream) {
  switch (part.type) {
    case 'text-delta':
      counter.text(part.text);
      break;
    case 'reasoning-delta':
      counter.reasoning(part.text);
      break;
    case 'tool-input-start':
      calls.set(part.id, 0);
      break;
    case 'tool-input-delta':
      counter.toolFragment(part.delta);
      calls.set(part.id, (calls.get(part.id) ?? 0) + Buffer.byteLength(part.delta));
      break;
    case 'error':
      console.error('ai-sdk:', part.error);
      process.exit(1);
  }
}
counter.stop();

counter.c.tool_calls = calls.size;
for (const bytes of calls.values())
  counter.c.argument_bytes += bytes;
counter.print();
