// SPDX-License-Identifier: LGPL-2.1-or-later
//
// An MCP server of protocol revision 2026-07-28 for the tests, written
// without the SDK: the SDK in package.json (1.32) speaks only up to
// 2025-11-25. Plain node:http and stdin, so that the same server runs over
// stdio and over Streamable HTTP, and checks what a stateless client must
// send (a strict server: what the specification lets a server ignore, it
// refuses, so that a test sees it).
//
//   node modern-server.mjs [--mode=MODE] [--http] [--param-headers] [--bad-headers]
//
// MODE: "modern" (2026-07-28 only: initialize is refused with the versions
// it speaks), "both" (2026-07-28 and, after initialize, 2025-11-25),
// "neither" (stateless, but only a version libagent does not know),
// "legacy" (2025-11-25 only: no server/discover), "old-neither" (the
// same, but initialize answers a version libagent does not know). --http listens on $PORT of 127.0.0.1 and says
// "listening on port N" on stderr.
//
// Offers tools (echo, add_tool: a new tool appears, touch: a resource is
// updated, ask: asks for input by MRTR, stats: what it saw), resources
// (two, a template, subscriptions) and prompts (one with an argument), and
// their changes through subscriptions/listen. "ask" asks a client that
// declared elicitation for a name (input_required, then the retry with
// inputResponses and the requestState it gave), "ask_anyway" asks any.
//
// --param-headers adds tools whose parameters are mirrored into headers
// (x-mcp-header): "route" answers with the Mcp-Param-* headers it got,
// "evolving" annotates its parameter only once called (the first call is a
// HeaderMismatch, as after a change the client has not listed yet),
// "mismatching" always answers HeaderMismatch. Over HTTP under 2026-07-28,
// a call of an annotated tool whose headers do not match its body is
// refused with HeaderMismatch (-32020). --bad-headers adds tools whose
// annotations are invalid (a client must leave them out).

import http from 'node:http';
import readline from 'node:readline';

const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
const args = process.argv.slice(2);
const mode = (args.find((a) => a.startsWith('--mode=')) ?? '--mode=modern').slice(7);
const overHttp = args.includes('--http');
const paramHeaders = args.includes('--param-headers');
const badHeaders = args.includes('--bad-headers');
const supported = {
  modern: [MODERN],
  both: [MODERN, LEGACY],
  neither: ['2030-01-01'],
  'old-neither': [],
  legacy: [],
}[mode];
// No server/discover: an older server
const old = mode === 'old-neither' || mode === 'legacy';
if (supported === undefined) {
  process.stderr.write(`unknown mode ${mode}\n`);
  process.exit(2);
}

const stats = {
  discover: 0, initialize: 0, requests: 0, withMeta: 0, withoutMeta: 0, sessionHeaders: 0,
  methods: [], listening: 0, cancelled: 0,
};
let legacy = false; // stdio: initialize came
let extraTools = 0;
let evolved = false; // "evolving" annotates its parameter
// The Mcp-Param-* headers of the request being handled (HTTP)
let requestParams = {};

const resources = [
  { uri: 'test://notes/one', name: 'one', title: 'Note one', mimeType: 'text/plain' },
  { uri: 'test://notes/two', name: 'two', title: 'Note two', mimeType: 'text/plain' },
];
const capabilities = {
  tools: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  prompts: { listChanged: true },
};

function tools() {
  const list = [
    { name: 'echo', description: 'Says its text back',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
    { name: 'add_tool', description: 'Adds a tool', inputSchema: { type: 'object' } },
    { name: 'touch', description: 'Changes a note',
      inputSchema: { type: 'object', properties: { uri: { type: 'string' } } } },
    { name: 'ask', description: 'Asks for a name', inputSchema: { type: 'object' } },
    { name: 'ask_anyway', description: 'Asks even a client that cannot answer',
      inputSchema: { type: 'object' } },
    { name: 'stats', description: 'What the server saw', inputSchema: { type: 'object' } },
  ];
  for (let i = 0; i < extraTools; i++)
    list.push({ name: `extra_${i}`, description: `Extra ${i}`, inputSchema: { type: 'object' } });
  if (paramHeaders)
    list.push(...headerTools());
  if (badHeaders)
    list.push(...badHeaderTools());
  return list;
}

const object = (properties) => ({ type: 'object', properties });

function headerTools() {
  const shard = evolved ? { type: 'string', 'x-mcp-header': 'Shard' } : { type: 'string' };
  return [
    { name: 'route', description: 'Says which parameters came as headers',
      inputSchema: object({
        region: { type: 'string', 'x-mcp-header': 'Region' },
        greeting: { type: 'string', 'x-mcp-header': 'Greeting' },
        text: { type: 'string', 'x-mcp-header': 'Text' },
        val: { type: 'string', 'x-mcp-header': 'Val' },
        count: { type: 'integer', 'x-mcp-header': 'Count' },
        flag: { type: 'boolean', 'x-mcp-header': 'Flag' },
        place: object({ zone: { type: 'string', 'x-mcp-header': 'Zone' } }),
        query: { type: 'string' },
      }) },
    { name: 'evolving', description: 'Annotates its shard once called',
      inputSchema: object({ shard }) },
    { name: 'mismatching', description: 'Always says the headers do not match',
      inputSchema: object({ id: { type: 'string', 'x-mcp-header': 'Id' } }) },
  ];
}

function badHeaderTools() {
  return [
    { name: 'bad_token', description: 'A header name with a space',
      inputSchema: object({ a: { type: 'string', 'x-mcp-header': 'Bad Name' } }) },
    { name: 'bad_duplicate', description: 'The same header twice',
      inputSchema: object({ a: { type: 'string', 'x-mcp-header': 'Zone' },
        b: { type: 'string', 'x-mcp-header': 'zone' } }) },
    { name: 'bad_number', description: 'A header for a number',
      inputSchema: object({ ratio: { type: 'number', 'x-mcp-header': 'Ratio' } }) },
    { name: 'bad_items', description: 'A header inside an array',
      inputSchema: object({ list: { type: 'array',
        items: { type: 'string', 'x-mcp-header': 'Item' } } }) },
  ];
}

// The x-mcp-header annotations of a schema: { name, path } each
function annotations(schema, path = [], out = []) {
  for (const [key, sub] of Object.entries(schema?.properties ?? {})) {
    if (typeof sub?.['x-mcp-header'] === 'string')
      out.push({ name: sub['x-mcp-header'], path: [...path, key] });
    annotations(sub, [...path, key], out);
  }
  return out;
}

class RpcError extends Error {
  constructor(code, message, data, status) {
    super(message);
    this.code = code;
    this.data = data;
    this.status = status ?? 400;
  }
}

const text = (t) => ({ content: [{ type: 'text', text: t }] });
const cacheable = { ttlMs: 0, cacheScope: 'private' };

// Subscriptions: { id, filter, send(message) }
const subscriptions = new Set();

function notify(kind, method, params = {}) {
  for (const s of subscriptions) {
    if (kind === 'resource' ? !(s.filter.resourceSubscriptions ?? []).includes(params.uri)
      : !s.filter[kind])
      continue;
    s.send({ jsonrpc: '2.0', method,
      params: { ...params, _meta: { 'io.modelcontextprotocol/subscriptionId': s.id } } });
  }
  // A client of 2025-11-25 on stdio hears it directly
  if (legacy && !overHttp && kind !== 'resource')
    write({ jsonrpc: '2.0', method });
}

function checkMeta(message, isModern) {
  const meta = message.params?._meta ?? {};
  const version = meta['io.modelcontextprotocol/protocolVersion'];
  if (!isModern)
    return;
  if (typeof meta['io.modelcontextprotocol/clientInfo']?.name !== 'string' ||
      typeof meta['io.modelcontextprotocol/clientCapabilities'] !== 'object')
    throw new RpcError(-32602, 'Missing clientInfo or clientCapabilities in _meta');
  if (!supported.includes(version) || version === LEGACY)
    throw new RpcError(-32022, 'Unsupported protocol version',
      { supported, requested: version });
}

function callTool(params) {
  switch (params.name) {
    case 'echo':
      return text(`echo: ${params.arguments?.text ?? ''}`);
    case 'add_tool':
      extraTools++;
      notify('toolsListChanged', 'notifications/tools/list_changed');
      return text(`${extraTools} extra`);
    case 'touch':
      notify('resource', 'notifications/resources/updated', { uri: params.arguments?.uri });
      return text('touched');
    case 'stats':
      return text(JSON.stringify(stats));
    case 'route':
      return text(JSON.stringify(requestParams));
    case 'evolving':
      return text(`shard ${params.arguments?.shard}`);
    case 'ask':
    case 'ask_anyway': {
      // Only a client that declared it may be asked (mrtr.mdx)
      const declared = params._meta?.['io.modelcontextprotocol/clientCapabilities']?.elicitation;
      if (params.name === 'ask' && !declared)
        return { ...text('this client cannot be asked'), isError: true };
      const answer = params.inputResponses?.name;
      if (answer === undefined || params.requestState !== 'asked-once')
        return {
          resultType: 'input_required',
          inputRequests: {
            name: {
              method: 'elicitation/create',
              params: {
                mode: 'form',
                message: 'What is your name?',
                requestedSchema: { type: 'object', properties: { name: { type: 'string' } },
                  required: ['name'] },
              },
            },
          },
          requestState: 'asked-once',
        };
      if (answer.action === 'accept')
        return text(`hello ${answer.content?.name}`);
      return text(answer.action);
    }
    default:
      throw new RpcError(-32602, `Unknown tool ${params.name}`);
  }
}

// The answer to one request, or throws an RpcError; @listen(id, filter)
// opens a subscription on the transport.
function handle(message, isModern, listen) {
  const params = message.params ?? {};
  switch (message.method) {
    case 'server/discover':
      return { supportedVersions: supported, capabilities, instructions: 'A server for tests',
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'modern-test', version: '1.0' } },
        ...cacheable };
    case 'tools/list':
      return { tools: tools(), ...cacheable };
    case 'tools/call':
      return callTool(params);
    case 'resources/list':
      return { resources, ...cacheable };
    case 'resources/templates/list':
      return { resourceTemplates: [{ uriTemplate: 'test://notes/{name}', name: 'note' }],
        ...cacheable };
    case 'resources/read': {
      const r = resources.find((x) => x.uri === params.uri);
      if (!r)
        throw new RpcError(-32602, `No resource ${params.uri}`);
      return { contents: [{ uri: r.uri, mimeType: 'text/plain', text: `${r.title} text` }],
        ...cacheable };
    }
    case 'prompts/list':
      return { prompts: [{ name: 'greet', description: 'A greeting',
        arguments: [{ name: 'who', required: true }] }], ...cacheable };
    case 'prompts/get':
      return { messages: [{ role: 'user',
        content: { type: 'text', text: `Say hello to ${params.arguments?.who}` } }] };
    case 'subscriptions/listen':
      if (!isModern)
        break;
      stats.listening++;
      listen(message.id, params.notifications ?? {});
      return undefined;
    case 'ping':
      if (!isModern)
        return {};
      break;
    case 'resources/subscribe':
    case 'resources/unsubscribe':
      if (!isModern)
        return {};
      break;
  }
  throw new RpcError(-32601, `Method not found: ${message.method}`, undefined, 404);
}

function initialize(message) {
  stats.initialize++;
  if (mode === 'old-neither')
    return { protocolVersion: '2024-01-01', capabilities,
      serverInfo: { name: 'old-neither', version: '1' } };
  if (mode !== 'both' && mode !== 'legacy')
    throw new RpcError(-32600,
      `This server speaks only protocol version ${supported.join(', ')}: no initialize`);
  return { protocolVersion: LEGACY, capabilities,
    serverInfo: { name: 'modern-test', version: '1.0' }, instructions: 'A server for tests' };
}

// Counts a request and tells whether it is stateless
function classify(message) {
  const meta = message.params?._meta ?? {};
  const isModern = meta['io.modelcontextprotocol/protocolVersion'] !== undefined;
  stats.requests++;
  stats.methods.push(message.method);
  if (isModern)
    stats.withMeta++;
  else
    stats.withoutMeta++;
  if (message.method === 'server/discover')
    stats.discover++;
  return isModern;
}

function errorMessage(id, e) {
  return { jsonrpc: '2.0', id, error: { code: e.code ?? -32603, message: e.message,
    ...(e.data ? { data: e.data } : {}) } };
}

function complete(result) {
  return { resultType: 'complete', ...result };
}

// stdio

function write(message) {
  process.stdout.write(JSON.stringify(message) + '\n');
}

function stdioMessage(message) {
  if (message.method === undefined)
    return;
  if (message.id === undefined) {
    if (message.method === 'notifications/cancelled') {
      stats.cancelled++;
      for (const s of subscriptions)
        if (s.id === message.params?.requestId)
          subscriptions.delete(s);
    }
    return;
  }
  const isModern = classify(message);
  try {
    if (old && isModern)
      throw new RpcError(-32601, 'Method not found');
    if (message.method === 'initialize') {
      write({ jsonrpc: '2.0', id: message.id, result: initialize(message) });
      legacy = true;
      return;
    }
    if (!isModern && !legacy)
      throw new RpcError(-32602, 'No protocol version in _meta, and no initialize');
    checkMeta(message, isModern);
    const result = handle(message, isModern, (id, filter) => {
      const s = { id, filter, send: write };
      subscriptions.add(s);
      s.send({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged',
        params: { notifications: filter, _meta: { 'io.modelcontextprotocol/subscriptionId': id } } });
    });
    if (result !== undefined)
      write({ jsonrpc: '2.0', id: message.id, result: isModern ? complete(result) : result });
  } catch (e) {
    write(errorMessage(message.id, e));
  }
}

// Streamable HTTP

function decodeHeader(value) {
  const m = /^=\?base64\?(.*)\?=$/.exec(value ?? '');
  return m ? Buffer.from(m[1], 'base64').toString('utf8') : value;
}

function checkHeaders(req, message) {
  const meta = message.params?._meta ?? {};
  const version = meta['io.modelcontextprotocol/protocolVersion'];
  if (req.headers['mcp-protocol-version'] !== version)
    throw new RpcError(-32020, `Header mismatch: MCP-Protocol-Version ` +
      `${req.headers['mcp-protocol-version']} is not ${version}`);
  if (req.headers['mcp-method'] !== message.method)
    throw new RpcError(-32020, `Header mismatch: Mcp-Method ${req.headers['mcp-method']}`);
  const named = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' }[message.method];
  if (named && decodeHeader(req.headers['mcp-name']) !== message.params?.[named])
    throw new RpcError(-32020, `Header mismatch: Mcp-Name ${req.headers['mcp-name']}`);
  if (req.headers['mcp-session-id'] !== undefined) {
    stats.sessionHeaders++;
    throw new RpcError(-32600, 'A stateless request with Mcp-Session-Id');
  }
  if (message.method === 'tools/call')
    checkParamHeaders(req, message.params);
}

// Mcp-Param-{Name}: there exactly when the annotated value is in the body
// (not null), equal to it once decoded (streamable-http.mdx)
function checkParamHeaders(req, params) {
  if (params?.name === 'mismatching')
    throw new RpcError(-32020, 'Header mismatch: this tool never likes its headers');
  // Changed since the client listed it: its first call has no Mcp-Param-Shard
  if (params?.name === 'evolving')
    evolved = true;
  const tool = tools().find((t) => t.name === params?.name);
  for (const { name, path } of annotations(tool?.inputSchema)) {
    const value = path.reduce((v, key) => v?.[key], params.arguments);
    const header = req.headers[`mcp-param-${name.toLowerCase()}`];
    if (value === undefined || value === null) {
      if (header !== undefined)
        throw new RpcError(-32020, `Header mismatch: Mcp-Param-${name} without a value`);
      continue;
    }
    if (header === undefined || decodeHeader(header) !== String(value))
      throw new RpcError(-32020, `Header mismatch: Mcp-Param-${name} ${header}`);
  }
}

function httpRequest(req, res) {
  if (req.method !== 'POST') {
    res.writeHead(405).end();
    return;
  }
  let body = '';
  req.on('data', (chunk) => { body += chunk; });
  req.on('end', () => {
    let message;
    try {
      message = JSON.parse(body);
    } catch {
      res.writeHead(400, { 'Content-Type': 'application/json' })
        .end(JSON.stringify(errorMessage(null, { code: -32700, message: 'Parse error' })));
      return;
    }
    if (message.id === undefined) {
      res.writeHead(202).end();
      return;
    }
    const isModern = classify(message);
    requestParams = Object.fromEntries(Object.entries(req.headers)
      .filter(([name]) => name.startsWith('mcp-param-')));
    const json = (status, m) => res.writeHead(status, { 'Content-Type': 'application/json' })
      .end(JSON.stringify(m));
    try {
      if (old && isModern) {
        // An older server: no session, so a 400 without a modern error
        json(400, errorMessage(null, { code: -32000, message: 'Bad Request: No valid session ID' }));
        return;
      }
      if (message.method === 'initialize') {
        json(200, { jsonrpc: '2.0', id: message.id, result: initialize(message) });
        return;
      }
      if (isModern)
        checkHeaders(req, message);
      else if (mode !== 'both' && !old)
        throw new RpcError(-32602, 'No protocol version in _meta');
      checkMeta(message, isModern);
      const result = handle(message, isModern, (id, filter) => {
        res.writeHead(200, { 'Content-Type': 'text/event-stream', 'X-Accel-Buffering': 'no' });
        const s = { id, filter, send: (m) => res.write(`data: ${JSON.stringify(m)}\n\n`) };
        subscriptions.add(s);
        res.on('close', () => { subscriptions.delete(s); stats.cancelled++; });
        s.send({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged',
          params: { notifications: filter, _meta: { 'io.modelcontextprotocol/subscriptionId': id } } });
      });
      if (result !== undefined)
        json(200, { jsonrpc: '2.0', id: message.id, result: isModern ? complete(result) : result });
    } catch (e) {
      json(e.status ?? 400, errorMessage(message.id, e));
    }
  });
}

if (overHttp) {
  const server = http.createServer(httpRequest);
  server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
    process.stderr.write(`listening on port ${server.address().port}\n`);
  });
} else {
  const lines = readline.createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      write(errorMessage(null, { code: -32700, message: 'Parse error' }));
      return;
    }
    stdioMessage(message);
  });
  lines.on('close', () => process.exit(0));
}
