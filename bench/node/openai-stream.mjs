// openai-stream.mjs — openai-node's streaming helper as a contender
//
// client.chat.completions.stream(): the helper that accumulates the
// message (tool calls included) and emits content.delta and
// tool_calls.function.arguments.delta events. Reasoning (DeepSeek's
// reasoning_content) is not part of OpenAI's API, so the helper has no
// event for it: it is read from each raw chunk, as an application would.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import OpenAI from 'openai';

import { API_KEY, Counter, MODEL, PROMPT, parseArgs } from './peer.mjs';

const { baseURL, latency } = parseArgs();
const client = new OpenAI({ baseURL, apiKey: API_KEY, maxRetries: 0 });
const counter = new Counter(latency);

counter.start();
const stream = client.chat.completions.stream({
  model: MODEL,
  messages: [{ role: 'user', content: PROMPT }],
  stream: true,
  stream_options: { include_usage: true },
});
stream.on('content.delta', ({ delta }) => counter.text(delta));
stream.on('tool_calls.function.arguments.delta', ({ arguments_delta }) =>
  counter.toolFragment(arguments_delta));
stream.on('chunk', (chunk) => {
  const delta = chunk.choices[0]?.delta;
  if (delta?.reasoning_content)
    counter.reasoning(delta.reasoning_content);
});

const completion = await stream.finalChatCompletion();
counter.stop();

for (const call of completion.choices[0].message.tool_calls ?? []) {
  counter.c.tool_calls++;
  counter.c.argument_bytes += Buffer.byteLength(call.function.arguments);
}
counter.print();
