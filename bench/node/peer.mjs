// peer.mjs — what the JavaScript contenders of bench/run-all share
//
// A contender is run as `node SCRIPT BASE_URL [latency]`: it streams one
// chat completion from the benchmark server (bench-stream --serve), counts
// what its application-level handlers see, and prints one JSON object on
// stdout (see bench/README.md, "bench/run-all"). CPU is this process's
// (process.cpuUsage(): getrusage, all threads) from the request to the end
// of the stream; wall time from process.hrtime, which on Linux is
// CLOCK_MONOTONIC, the clock the server stamps latency deltas with.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

export function parseArgs () {
  const [baseURL, mode] = process.argv.slice(2);
  if (!baseURL) {
    console.error(`usage: node ${process.argv[1]} BASE_URL [latency]`);
    process.exit(2);
  }
  return { baseURL, latency: mode === 'latency' };
}

export class Counter {
  constructor (latency) {
    this.latency = latency;
    this.latencies = [];
    this.c = {
      text_deltas: 0,
      text_bytes: 0,
      reasoning_deltas: 0,
      reasoning_bytes: 0,
      tool_deltas: 0,
      argument_bytes: 0,
      tool_calls: 0,
      body_bytes: 0,
    };
  }

  start () {
    this.cpu0 = process.cpuUsage();
    this.wall0 = process.hrtime.bigint();
  }

  // A stamped delta is " @<CLOCK_MONOTONIC ns of the server's write>".
  text (delta) {
    if (!delta)
      return;
    if (this.latency) {
      const now = process.hrtime.bigint();
      if (delta.startsWith(' @'))
        this.latencies.push(Number(now - BigInt(delta.slice(2))) / 1e3);
    }
    this.c.text_deltas++;
    this.c.text_bytes += Buffer.byteLength(delta);
  }

  reasoning (delta) {
    if (!delta)
      return;
    this.c.reasoning_deltas++;
    this.c.reasoning_bytes += Buffer.byteLength(delta);
  }

  // Argument fragments; the empty one that opens a call is not counted.
  toolFragment (fragment) {
    if (!fragment)
      return;
    this.c.tool_deltas++;
  }

  stop () {
    const cpu = process.cpuUsage(this.cpu0);
    this.result = {
      cpu_user_s: cpu.user / 1e6,
      cpu_sys_s: cpu.system / 1e6,
      cpu_s: (cpu.user + cpu.system) / 1e6,
      wall_s: Number(process.hrtime.bigint() - this.wall0) / 1e9,
    };
  }

  print () {
    if (this.result === undefined)
      this.stop();
    const result = { ...this.c, ...this.result };
    if (this.latency)
      result.latencies_us = this.latencies;
    process.stdout.write(JSON.stringify(result) + '\n');
  }
}

export const PROMPT = 'Write the answer, please.';
export const MODEL = 'gpt-4o';
export const API_KEY = 'sk-bench-not-a-secret';
