// ai-sdk-tools.mjs — the Vercel AI SDK's multi-step streamText() in the
// tool loop
//
// streamText() over @ai-sdk/openai's chat completions model with a
// calculator tool (its execute() runs it) and stopWhen: stepCountIs(10):
// the SDK runs the tools the model asks for and sends their results back,
// step after step, until the model answers text. One conversation: the
// second prompt goes on from the first's response messages. The SDK sends
// its requests with the global fetch (undici), whose agent keeps
// connections alive.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import { createOpenAI } from '@ai-sdk/openai';
import { jsonSchema, stepCountIs, streamText, tool } from 'ai';

import { API_KEY, MODEL, TOOL_DESCRIPTION, TOOL_NAME, TOOL_PARAMETERS, Tally, calculate,
         parseArgs, prompt } from './loop.mjs';

const { baseURL, prompts } = parseArgs();
const openai = createOpenAI({ baseURL, apiKey: API_KEY });
const tally = new Tally(prompts);
const tools = {
  [TOOL_NAME]: tool({
    description: TOOL_DESCRIPTION,
    inputSchema: jsonSchema(TOOL_PARAMETERS),
    execute: async ({ expression }) => {
      tally.c.tool_runs++;
      return calculate(expression);
    },
  }),
};

const messages = [];
tally.start();
for (let i = 0; i < prompts; i++) {
  messages.push({ role: 'user', content: prompt(i) });
  const result = streamText({
    model: openai.chat(MODEL),
    messages,
    tools,
    stopWhen: stepCountIs(10),
    maxRetries: 0,
  });
  for await (const part of result.fullStream) {
    switch (part.type) {
      case 'text-delta':
        tally.c.text_bytes += Buffer.byteLength(part.text);
        break;
      case 'finish-step':
        tally.c.steps++;
        break;
      case 'tool-error':
        tally.c.tool_errors++;
        break;
      case 'error':
        console.error('ai-sdk:', part.error);
        process.exit(1);
    }
  }
  messages.push(...(await result.response).messages);
}
tally.stop();
tally.print();
