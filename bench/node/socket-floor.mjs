// socket-floor.mjs — the floor: the same bytes read off the socket, discarded
//
// A raw HTTP/1.1 request on a net.Socket; every 'data' buffer is counted
// and dropped (no HTTP parsing, no SSE, no JSON). The server closes the
// connection after the body. With [latency], each buffer is scanned for
// the server's " @<ns>" stamps, so the floor's latency is the kernel's
// and node's event loop's alone.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import net from 'node:net';

import { Counter, MODEL, PROMPT, parseArgs } from './peer.mjs';

const { baseURL, latency } = parseArgs();
const url = new URL(baseURL.replace(/\/$/, '') + '/chat/completions');
const body = JSON.stringify({ model: MODEL, stream: true,
                              messages: [{ role: 'user', content: PROMPT }] });
const counter = new Counter(latency);
const stamp = / @(\d+)"/g;

counter.start();
const socket = net.connect({ host: url.hostname, port: Number(url.port), noDelay: true });
socket.on('connect', () => {
  socket.write(`POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\n` +
               'Content-Type: application/json\r\nAccept: text/event-stream\r\n' +
               `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
});
socket.on('data', (data) => {
  counter.c.body_bytes += data.length;
  if (latency) {
    const now = process.hrtime.bigint();
    for (const match of data.toString('latin1').matchAll(stamp))
      counter.latencies.push(Number(now - BigInt(match[1])) / 1e3);
  }
});
socket.on('error', (error) => {
  console.error('socket-floor:', error.message);
  process.exit(1);
});
socket.on('close', () => counter.print());
