// test-errors.js — what an error says from JavaScript: the HTTP status of
// the answer that failed (Agent.error_get_http_status(), the http-status
// field of a stream's error and retry events), none where no server
// answered.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import GLib from 'gi://GLib';
import Gio from 'gi://Gio';

import {
    ScriptedServer, check, checkEqual, httpError, runTests, skipUnlessIntrospection, textStream,
    withServer,
} from './agenttest.js';

skipUnlessIntrospection();
let Agent = null;

async function setup() {
    ({default: Agent} = await import('gi://Agent?version=1.0'));
    Gio._promisify(Agent.Session.prototype, 'send_async', 'send_finish');
}

function newSession(url, retries = 0) {
    const provider = Agent.Provider.new('openai');
    provider.set_base_url(url);
    provider.set_model('scripted');
    provider.set_max_retries(retries);
    return Agent.Session.new(provider);
}

async function failure(promise) {
    try {
        await promise;
    } catch (error) {
        return error;
    }
    throw new Error('it did not fail');
}

async function streamUntilError(session) {
    const events = [];
    try {
        for await (const event of session.stream('Hello'))
            events.push(event);
    } catch (error) {
        return events;
    }
    throw new Error('the stream did not fail');
}

async function testHttpStatus() {
    const limited = {error: {message: 'Rate limit reached', code: 'rate_limit_exceeded'}};
    await withServer([httpError(429, limited), httpError(401, {error: 'bad key'}),
        httpError(500, {})], async server => {
        const session = newSession(server.url);
        const error = await failure(session.send_async('Hello', null));
        check(error instanceof GLib.Error, `a GLib.Error, not ${error}`);
        checkEqual(Agent.error_get_http_status(error), 429, 'the status');
        checkEqual(Agent.Error.get_http_status(error), 429, 'the same, from the enumeration');
        const refused = await failure(session.send_async('Hello', null));
        checkEqual([Agent.error_get_code(refused), Agent.error_get_http_status(refused)],
            ['authentication', 401], 'an authentication error');
        const events = await streamUntilError(session);
        const last = events[events.length - 1];
        checkEqual(last, {type: 'error', code: 'http', 'http-status': 500, message: last.message},
            'the error event');
    });
}

async function testRetryEvent() {
    await withServer([httpError(503, {error: {message: 'Overloaded'}}), textStream('Hi.')],
        async server => {
            const events = [];
            for await (const event of newSession(server.url, 1).stream('Hello'))
                events.push(event);
            const [retry] = events;
            checkEqual([retry.type, retry.attempt, retry.code, retry['http-status']],
                ['retry', 1, 'http', 503], 'the retry event');
            checkEqual(events[events.length - 1].type, 'done', 'then the answer');
        });
}

async function testNoStatusWithoutAnAnswer() {
    // A port nothing listens on: a server bound, then closed
    const closed = new ScriptedServer();
    const url = closed.url;
    closed.close();
    const session = newSession(url);
    const error = await failure(session.send_async('Hello', null));
    checkEqual(Agent.error_get_code(error), 'network', `a network error: ${error.message}`);
    checkEqual(Agent.error_get_http_status(error), 0, 'no status');
    const events = await streamUntilError(session);
    check(!('http-status' in events[events.length - 1]), 'no http-status field');
    const other = new GLib.Error(Gio.IOErrorEnum, Gio.IOErrorEnum.NOT_FOUND, 'Not found');
    checkEqual(Agent.error_get_http_status(other), 0, 'another domain');
}

runTests(setup, [
    testHttpStatus,
    testRetryEvent,
    testNoStatusWithoutAnAnswer,
]);
