// openai-tools.mjs — openai-node's tool runner in the tool loop
//
// client.chat.completions.runTools() with stream: true: the helper that
// streams each step, runs the functions the model asks for, sends their
// results back and loops until the model answers text. One conversation:
// the second prompt goes on from runner.messages. openai-node sends its
// requests with the global fetch (undici), whose agent keeps connections
// alive.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import OpenAI from 'openai';

import { API_KEY, MODEL, TOOL_DESCRIPTION, TOOL_NAME, TOOL_PARAMETERS, Tally, calculate,
         parseArgs, prompt } from './loop.mjs';

const { baseURL, prompts } = parseArgs();
const client = new OpenAI({ baseURL, apiKey: API_KEY, maxRetries: 0 });
const tally = new Tally(prompts);
const tools = [{
  type: 'function',
  function: {
    name: TOOL_NAME,
    description: TOOL_DESCRIPTION,
    parameters: TOOL_PARAMETERS,
    parse: JSON.parse,
    function: ({ expression }) => {
      tally.c.tool_runs++;
      return calculate(expression);
    },
  },
}];

let messages = [];
tally.start();
for (let i = 0; i < prompts; i++) {
  messages.push({ role: 'user', content: prompt(i) });
  const runner = client.chat.completions.runTools({
    model: MODEL,
    messages,
    tools,
    stream: true,
    stream_options: { include_usage: true },
  });
  runner.on('content', (delta) => { tally.c.text_bytes += Buffer.byteLength(delta); });
  runner.on('chatCompletion', () => { tally.c.steps++; });
  await runner.done();
  messages = runner.messages;
}
tally.stop();
tally.print();
