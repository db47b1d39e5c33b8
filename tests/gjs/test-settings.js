// test-settings.js — what requests ask, from JavaScript (GJS): the
// session's request settings through their properties, changed for one
// step in prepare-step, a setting the API does not define refused before
// sending, the output guard (a throwing handler rejects), the cache's tokens
// in the usage
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import Json from 'gi://Json';

import {
    ScriptedServer, check, checkEqual, runTests, skipUnlessIntrospection, textStream,
} from './agenttest.js';

skipUnlessIntrospection();
let Agent = null;  // imported once we know the build has it

async function setup() {
    ({default: Agent} = await import('gi://Agent?version=1.0'));
    Gio._promisify(Agent.Session.prototype, 'send_async', 'send_finish');
}

function newSession(server) {
    const provider = Agent.Provider.new('openai');
    provider.set_base_url(server.url);
    provider.set_model('scripted');
    provider.set_max_retries(0);
    return Agent.Session.new(provider);
}

async function testSettings() {
    const server = new ScriptedServer(textStream('Hi.'));
    try {
        const session = newSession(server);
        const settings = session.settings;
        settings.temperature = 0.3;
        settings.topP = 0.8;
        settings.set_stop(['END']);
        settings.set_tool_choice(Agent.ToolChoice.NONE, null);
        settings.set_provider_option('metadata.user', Json.from_string('"js"'));
        check(settings.temperatureSet, 'temperature-set follows temperature');
        session.provider.settings.frequencyPenalty = 0.5;

        const answer = await session.send_async('Hello', null);
        checkEqual(answer.get_content(), 'Hi.');
        const body = server.requests[0].body;
        checkEqual(body.temperature, 0.3);
        checkEqual(body.top_p, 0.8);
        checkEqual(body.stop, ['END']);
        checkEqual(body.frequency_penalty, 0.5);
        checkEqual(body.metadata, {user: 'js'});
        check(!('tool_choice' in body), 'no tools: no tool choice');
    } finally {
        server.close();
    }
}

async function testPrepareStep() {
    const server = new ScriptedServer(textStream('Hi.'));
    try {
        const session = newSession(server);
        session.settings.seed = 1;
        session.connect('prepare-step', (_session, request) => {
            checkEqual(request.get_settings().seed, 1);
            request.get_settings().seed = 2;
        });
        await session.send_async('Hello', null);
        checkEqual(server.requests[0].body.seed, 2);
        checkEqual(session.settings.seed, 1, 'the session keeps its own');
    } finally {
        server.close();
    }
}

async function testRefused() {
    const server = new ScriptedServer(textStream('Hi.'));
    try {
        const session = newSession(server);
        session.settings.topK = 10;
        try {
            await session.send_async('Hello', null);
            check(false, 'top-k is refused for OpenAI');
        } catch (error) {
            check(error.matches(Agent.error_quark(), Agent.Error.INVALID_ARGUMENT), `${error}`);
            check(error.message.includes('OpenAI') && error.message.includes('top-k'),
                error.message);
        }
        checkEqual(server.requests.length, 0, 'nothing sent');
    } finally {
        server.close();
    }
}

async function testOutputGuard() {
    const server = new ScriptedServer(textStream('Secret.'), textStream('Secret.'));
    try {
        const session = newSession(server);
        let calls = 0;
        session.connect('check-output', () => {
            calls++;
            if (calls === 1)
                return Agent.OutputDecision.new_replace('[withheld]');
            throw new Error('a guard that fails');
        });
        checkEqual((await session.send_async('Tell', null)).get_content(), '[withheld]');
        try {
            await session.send_async('Tell', null);
            check(false, 'a throwing handler rejects');
        } catch (error) {
            check(error.matches(Agent.error_quark(), Agent.Error.HOOK), `${error}`);
            check(error.message.includes('a guard that fails'), error.message);
        }
    } finally {
        server.close();
    }
}

async function testCachedUsage() {
    const usage = {
        id: 'chatcmpl-test', object: 'chat.completion.chunk', model: 'scripted', choices: [],
        usage: {
            prompt_tokens: 900, completion_tokens: 3, total_tokens: 903,
            prompt_tokens_details: {cached_tokens: 768},
        },
    };
    const server = new ScriptedServer([...textStream('Hi.'), usage]);
    try {
        const session = newSession(server);
        await session.send_async('Hello', null);
        checkEqual(session.usage.get_cached_tokens(), 768);
        const json = JSON.parse(Json.to_string(session.usage.to_json(), false));
        checkEqual(json['cached-input-tokens'], 768);
        check(!('cache-creation-input-tokens' in json), 'not reported');
    } finally {
        server.close();
    }
}

runTests(setup, [testSettings, testPrepareStep, testRefused, testOutputGuard, testCachedUsage]);
