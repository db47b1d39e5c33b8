// loop.mjs — what the JavaScript contenders of the tool loop share
//
// A contender is run as `node SCRIPT BASE_URL [PROMPTS]` against
// `bench-loop --serve` (bench/bench-loop-server.h): it sends PROMPTS
// prompts (default 1) in turn in one conversation, each running the
// server's tool loop (calls of the `calculator` tool, then a text answer)
// with the library's own multi-step helper, and prints one JSON object:
// CPU (process.cpuUsage(): getrusage, all threads) and wall time from the
// first request to the last answer, steps, tool runs and text bytes. Over
// HTTPS the certificate authority comes from NODE_EXTRA_CA_CERTS.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

export const MODEL = 'gpt-4o';
export const API_KEY = 'sk-bench-not-a-secret';

export const TOOL_NAME = 'calculator';
export const TOOL_DESCRIPTION = 'Evaluates an arithmetic expression such as "2 * 7 + 1".';
export const TOOL_PARAMETERS = {
  type: 'object',
  properties: {
    expression: { type: 'string', description: 'The expression to evaluate' },
  },
  required: ['expression'],
  additionalProperties: false,
};

export function prompt (i) {
  return `Work it out with the calculator, please (${i + 1}).`;
}

export function parseArgs () {
  const [baseURL, prompts = '1'] = process.argv.slice(2);
  const n = Number(prompts);
  if (!baseURL || !Number.isInteger(n) || n < 1) {
    console.error(`usage: node ${process.argv[1]} BASE_URL [PROMPTS]`);
    process.exit(2);
  }
  return { baseURL, prompts: n };
}

// + - * / on decimal numbers, with precedence: what the loop asks for.
export function calculate (expression) {
  const tokens = String(expression).match(/\d+(?:\.\d+)?|[-+*/]/g) ?? [];
  let sum = 0;
  let sign = 1;
  let term = Number(tokens[0]);
  for (let i = 1; i < tokens.length; i += 2) {
    const op = tokens[i];
    const value = Number(tokens[i + 1]);
    if (op === '*' || op === '/') {
      term = op === '*' ? term * value : term / value;
    } else {
      sum += sign * term;
      sign = op === '-' ? -1 : 1;
      term = value;
    }
  }
  const result = sum + sign * term;
  if (tokens.length % 2 === 0 || !Number.isFinite(result))
    throw new Error(`cannot evaluate “${expression}”`);
  return String(result);
}

export class Tally {
  constructor (prompts) {
    this.c = { prompts, steps: 0, tool_runs: 0, tool_errors: 0, text_bytes: 0 };
  }

  start () {
    this.cpu0 = process.cpuUsage();
    this.wall0 = process.hrtime.bigint();
  }

  stop () {
    const cpu = process.cpuUsage(this.cpu0);
    this.c.cpu_user_s = cpu.user / 1e6;
    this.c.cpu_sys_s = cpu.system / 1e6;
    this.c.cpu_s = (cpu.user + cpu.system) / 1e6;
    this.c.wall_s = Number(process.hrtime.bigint() - this.wall0) / 1e9;
  }

  print () {
    process.stdout.write(JSON.stringify(this.c) + '\n');
  }
}
