// agenttest.js — helpers for the GJS tests of libagent's bindings
//
// A scripted OpenAI chat-completions server (Soup.Server on 127.0.0.1, in
// this process, chunked Server-Sent Events), stream builders, checks and a
// TAP runner for meson.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import GLib from 'gi://GLib';
import Soup from 'gi://Soup?version=3.0';
import System from 'system';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

// --- streams ---------------------------------------------------------------

function chunk(delta, finishReason = null) {
    return {
        id: 'chatcmpl-test',
        object: 'chat.completion.chunk',
        created: 1700000000,
        model: 'scripted',
        choices: [{index: 0, delta, finish_reason: finishReason}],
    };
}

/** The events of an answer that streams `deltas`, one per event. */
export function textStream(...deltas) {
    return [
        chunk({role: 'assistant', content: ''}),
        ...deltas.map(content => chunk({content})),
        chunk({}, 'stop'),
    ];
}

/** The events of an answer that calls tools: each call is [id, name, arguments]. */
export function toolCallStream(...calls) {
    const events = [chunk({role: 'assistant', content: null})];
    calls.forEach(([id, name, args], index) => {
        const header = {index, id, type: 'function', function: {name, arguments: ''}};
        events.push(chunk({tool_calls: [header]}));
        const text = JSON.stringify(args);
        for (let start = 0; start < text.length; start += 4) {
            const fragment = {index, function: {arguments: text.slice(start, start + 4)}};
            events.push(chunk({tool_calls: [fragment]}));
        }
    });
    events.push(chunk({}, 'tool_calls'));
    return events;
}

/**
 * The events of an Anthropic Messages answer: each block is a string
 * (text, in two deltas) or [id, name, arguments] for a tool_use.
 */
export function anthropicStream(...blocks) {
    const events = [{
        type: 'message_start', message: {
            id: 'msg_scripted', type: 'message', role: 'assistant', content: [],
            model: 'scripted', stop_reason: null, usage: {input_tokens: 10, output_tokens: 1},
        },
    }];
    let calls = false;
    blocks.forEach((block, index) => {
        if (typeof block === 'string') {
            const start = {type: 'text', text: ''};
            events.push({type: 'content_block_start', index, content_block: start});
            const half = Math.floor(block.length / 2);
            for (const text of [block.slice(0, half), block.slice(half)]) {
                const delta = {type: 'text_delta', text};
                events.push({type: 'content_block_delta', index, delta});
            }
        } else {
            const [id, name, args] = block;
            calls = true;
            events.push({
                type: 'content_block_start', index,
                content_block: {type: 'tool_use', id, name, input: {}},
            });
            const text = JSON.stringify(args);
            for (let start = 0; start < text.length; start += 4) {
                events.push({
                    type: 'content_block_delta', index,
                    delta: {type: 'input_json_delta', partial_json: text.slice(start, start + 4)},
                });
            }
        }
        events.push({type: 'content_block_stop', index});
    });
    events.push({
        type: 'message_delta', delta: {stop_reason: calls ? 'tool_use' : 'end_turn'},
        usage: {output_tokens: 5},
    });
    events.push({type: 'message_stop'});
    return events;
}

/** A response that sends `events`, then waits without ending. */
export function stall(events) {
    return {stall: true, events};
}

/** A response that is an HTTP error @status with the JSON @body. */
export function httpError(status, body) {
    return {status, body};
}

// --- the server ------------------------------------------------------------

/** Answers each POST to /v1/chat/completions with the next scripted response. */
export class ScriptedServer {
    constructor(...responses) {
        this.responses = responses;
        this.requests = [];
        this._server = new Soup.Server();
        this._server.add_handler('/v1/chat/completions',
            (_server, message) => this._answer(message));
        // Anthropic's Messages API: named events, no [DONE]
        this._server.add_handler('/v1/messages',
            (_server, message) => this._answer(message, true));
        this._server.add_handler('/v1/models', (_server, message) => {
            const models = {object: 'list', data: [{id: 'scripted', object: 'model'}]};
            message.set_response('application/json', Soup.MemoryUse.COPY,
                encoder.encode(JSON.stringify(models)));
            message.set_status(200, null);
        });
        this._server.listen_local(0, Soup.ServerListenOptions.IPV4_ONLY);
        // The base URL of OpenAI's APIs, and of Anthropic's (which adds /v1)
        this.rootUrl = this._server.get_uris()[0].to_string().replace(/\/$/, '');
        this.url = `${this.rootUrl}/v1`;
    }

    _answer(message, anthropic = false) {
        const bytes = message.get_request_body().flatten().get_data();
        this.requests.push({
            path: message.get_uri().get_path(),
            body: JSON.parse(decoder.decode(bytes)),
            authorization: message.get_request_headers().get_one('Authorization'),
        });
        const response = this.responses.shift();
        if (!response) {
            message.set_status(500, 'No scripted response left');
            return;
        }
        if (response.status) {
            message.set_status(response.status, null);
            message.set_response('application/json', Soup.MemoryUse.COPY,
                encoder.encode(JSON.stringify(response.body)));
            return;
        }
        const events = response.stall ? response.events : response;
        message.set_status(200, null);
        message.get_response_headers().set_content_type('text/event-stream', null);
        message.get_response_headers().set_encoding(Soup.Encoding.CHUNKED);
        const body = message.get_response_body();
        const write = text => body.append_bytes(new GLib.Bytes(encoder.encode(text)));
        events.forEach(event => write(anthropic
            ? `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`
            : `data: ${JSON.stringify(event)}\n\n`));
        if (!response.stall) {
            if (!anthropic)
                write('data: [DONE]\n\n');
            body.complete();
        }
    }

    messages(index) {
        return this.requests[index].body.messages;
    }

    toolMessage(index, callId) {
        const found = this.messages(index)
            .filter(m => m.role === 'tool' && m.tool_call_id === callId);
        checkEqual(found.length, 1, `request ${index} answers ${callId} once`);
        return found[0];
    }

    /** The Anthropic tool_result block answering `callId` in request `index`. */
    toolResult(index, callId) {
        const found = this.messages(index)
            .filter(m => Array.isArray(m.content))
            .flatMap(m => m.content)
            .filter(b => b.type === 'tool_result' && b.tool_use_id === callId);
        checkEqual(found.length, 1, `request ${index} answers ${callId} once`);
        return found[0];
    }

    close() {
        this._server.disconnect();
    }
}

/** Runs `body(server)` with a server answering `responses`, then closes it. */
export async function withServer(responses, body) {
    const server = new ScriptedServer(...responses);
    try {
        return await body(server);
    } finally {
        server.close();
    }
}

// --- checks and TAP ---------------------------------------------------------

export function check(condition, what) {
    if (!condition)
        throw new Error(what);
}

export function checkEqual(actual, expected, what = '') {
    const a = JSON.stringify(actual);
    const e = JSON.stringify(expected);
    if (a !== e)
        throw new Error(`${what}: expected ${e}, got ${a}`);
}

/** Rejects if `promise` has not settled within `seconds`. */
function withTimeout(promise, seconds) {
    let source = 0;
    const timeout = new Promise((_resolve, reject) => {
        source = GLib.timeout_add_seconds(GLib.PRIORITY_DEFAULT, seconds, () => {
            source = 0;
            reject(new Error(`timed out after ${seconds} s`));
            return GLib.SOURCE_REMOVE;
        });
    });
    return Promise.race([promise, timeout]).finally(() => source && GLib.source_remove(source));
}

/**
 * Runs the main loop while `setup()` and then `tests` (async functions)
 * run in order, reports TAP and exits. The loop runs from the top of the
 * script, not from a promise job, so that promises settle while it runs.
 */
export function runTests(setup, tests) {
    const loop = new GLib.MainLoop(null, false);
    let failed = 0;

    (async () => {
        await setup();
        print(`1..${tests.length}`);
        for (const [i, test] of tests.entries()) {
            try {
                // eslint-disable-next-line no-await-in-loop
                await withTimeout(test(), 30);
                print(`ok ${i + 1} - ${test.name}`);
            } catch (error) {
                failed++;
                print(`not ok ${i + 1} - ${test.name}`);
                for (const line of `${error}\n${error.stack ?? ''}`.trim().split('\n'))
                    print(`# ${line}`);
            }
        }
    })().catch(error => {
        failed++;
        print(`Bail out! ${error}`);
    }).finally(() => loop.quit());

    loop.run();
    System.exit(failed ? 1 : 0);
}

/** Exits with 77 (skipped) when the build has no introspection data. */
export function skipUnlessIntrospection() {
    if (GLib.getenv('AGENT_INTROSPECTION') === 'disabled') {
        print('# introspection is disabled in this build');
        System.exit(77);
    }
}
