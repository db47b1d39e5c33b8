// test-context.js — long conversations from JavaScript (GJS): the
// context-length error and its numbers, a context policy on the session,
// the compacted signal
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import Gio from 'gi://Gio';

import {
    ScriptedServer, check, checkEqual, httpError, runTests, skipUnlessIntrospection, textStream,
} from './agenttest.js';

skipUnlessIntrospection();
let Agent = null;  // imported once we know the build has it

async function setup() {
    ({default: Agent} = await import('gi://Agent?version=1.0'));
    Gio._promisify(Agent.Session.prototype, 'send_async', 'send_finish');
}

const TOO_LONG = {
    type: 'error',
    error: {type: 'invalid_request_error', message: 'prompt is too long: 200251 tokens > 200000 maximum'},
};

function newSession(server) {
    const provider = Agent.Provider.new('openai');
    provider.set_base_url(server.url);
    provider.set_model('scripted');
    provider.set_max_retries(0);
    return Agent.Session.new(provider);
}

async function testError() {
    const server = new ScriptedServer(httpError(400, TOO_LONG));
    const session = newSession(server);
    try {
        await session.send_async('Hello', null);
        check(false, 'the turn fails');
    } catch (error) {
        check(error.matches(Agent.error_quark(), Agent.Error.CONTEXT_LENGTH), `${error}`);
        // The numbers go with the GError itself
        const [isContextLength, requested, limit] = Agent.Error.get_context_tokens(error);
        check(isContextLength, 'a context-length error');
        checkEqual(requested, 200251);
        checkEqual(limit, 200000);
    } finally {
        server.close();
    }
}

async function testPolicy() {
    const server = new ScriptedServer(textStream('Hello there.'), httpError(400, TOO_LONG),
        textStream('Done.'));
    const session = newSession(server);
    const policy = Agent.ContextPolicy.new(Agent.ContextStrategy.KEEP_LAST);
    policy.keepTurns = 1;
    session.contextPolicy = policy;
    const compactions = [];
    session.connect('compacted', (_session, strategy, start, end, before, after, summary) =>
        compactions.push([strategy, start, end, before > after, summary]));

    try {
        checkEqual((await session.send_async('An old question', null)).get_content(), 'Hello there.');
        checkEqual((await session.send_async('New question', null)).get_content(), 'Done.');
    } finally {
        server.close();
    }

    checkEqual(JSON.stringify(compactions),
        JSON.stringify([[Agent.ContextStrategy.KEEP_LAST, 0, 2, true, null]]));
    checkEqual(session.contextWindow, 200000, 'the window the server named');
    checkEqual(JSON.stringify(server.messages(2).map(m => m.content)),
        JSON.stringify(['New question']));
    checkEqual(session.get_memory().get_n_items(), 4, 'the memory keeps everything');
}

runTests(setup, [testError, testPolicy]);
