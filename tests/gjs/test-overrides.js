// test-overrides.js — libagent as a JavaScript developer writes it:
// handlers that return values, throw or are async; typed hooks that fail
// closed; tools from objects; turns as async generators; lifetimes that
// cannot trap. The overrides (bindings/gjs/overrides/Agent.js) load with
// `gi://Agent`, found through GJS_PATH.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import GLib from 'gi://GLib';
import Gio from 'gi://Gio';
import System from 'system';

import {
    check, checkEqual, runTests, skipUnlessIntrospection, stall, textStream, toolCallStream,
    withServer,
} from './agenttest.js';

skipUnlessIntrospection();
let Agent = null;

async function setup() {
    ({default: Agent} = await import('gi://Agent?version=1.0'));
    Gio._promisify(Agent.Session.prototype, 'send_async', 'send_finish');
}

const SCHEMA = {type: 'object', properties: {city: {type: 'string'}}, required: ['city']};
const sleep = ms => new Promise(resolve => GLib.timeout_add(GLib.PRIORITY_DEFAULT, ms, () => {
    resolve();
    return GLib.SOURCE_REMOVE;
}));

function newSession(server, ...tools) {
    const provider = Agent.Provider.new('openai');
    provider.set_base_url(server.url);
    provider.set_model('scripted');
    provider.set_max_retries(0);
    const session = Agent.Session.new(provider);
    tools.forEach(tool => session.add_tool(tool));
    return session;
}

function calls(...cities) {
    return toolCallStream(...cities.map((city, i) => [`call_${i + 1}`, 'get_weather', {city}]));
}

/** Runs a turn asking for the weather in `cities`; returns {city: [content, isError]}. */
function resultsFor(handler, cities, {tool: toolSetup, session: sessionSetup} = {}) {
    const tool = Agent.Tool.new('get_weather', 'Tells the weather', SCHEMA, handler);
    toolSetup?.(tool);
    return withServer([calls(...cities), textStream('Done.')], async server => {
        const session = newSession(server, tool);
        const errors = {};
        session.connect('tool-finished', (_s, call) => {
            errors[call.get_id()] = call.is_error;
        });
        sessionSetup?.(session);
        checkEqual((await session.send_async('Weather?', null)).get_content(), 'Done.', 'answer');
        const got = {};
        cities.forEach((city, i) => {
            got[city] = [server.toolMessage(1, `call_${i + 1}`).content, errors[`call_${i + 1}`]];
        });
        return got;
    });
}

async function testHandlerReturnsValues() {
    const values = {
        text: 'Sunny', object: {temperature: 21}, list: [1, 'two'], number: 21.5, none: null,
        nul: 'a\0b', undef: undefined,
    };
    const got = await resultsFor((_t, invocation) => values[invocation.args.city],
        Object.keys(values));
    checkEqual(got.text, ['Sunny', false], 'a string, as it is');
    checkEqual(got.object, ['{"temperature":21}', false], 'an object, as JSON');
    checkEqual(got.list, ['[1,"two"]', false], 'an array');
    checkEqual(got.number, ['21.5', false], 'a number');
    checkEqual(got.none, ['null', false], 'null');
    checkEqual(got.undef, ['null', false], 'undefined');
    checkEqual(got.nul, ['The result contains a NUL character, which cannot be sent', true],
        'a NUL is an error, not a cut');
}

async function testHandlerThrowsAndAwaits() {
    const got = await resultsFor(async (_t, invocation) => {
        await sleep(10);
        const {city} = invocation.args;
        if (city === 'Atlantis')
            throw new Error('No forecast under the sea');
        if (city === 'Nowhere')
            throw new GLib.Error(Gio.IOErrorEnum, Gio.IOErrorEnum.NOT_FOUND, 'No such city');
        return {city};
    }, ['Seoul', 'Atlantis', 'Nowhere']);
    checkEqual(got.Seoul, ['{"city":"Seoul"}', false], 'awaited');
    checkEqual(got.Atlantis, ['No forecast under the sea', true], 'a rejection');
    checkEqual(got.Nowhere, ['No such city', true], 'a GLib.Error');

    const thrown = await resultsFor(() => {
        throw new TypeError('bad input');
    }, ['Seoul']);
    checkEqual(thrown.Seoul, ['bad input', true], 'a synchronous throw');
}

async function testCProtocolAndDroppedInvocation() {
    const got = await resultsFor((_t, invocation) => {
        const {city} = invocation.args;
        if (city === 'Seoul') {
            invocation.return_result('answered, then true');
            return true;
        }
        if (city === 'Busan') {
            invocation.return_result('answered, then nothing');
            return undefined;
        }
        if (city === 'Jeju') {
            GLib.timeout_add(GLib.PRIORITY_DEFAULT, 20, () => {
                invocation.return_result('answered later');
                return GLib.SOURCE_REMOVE;
            });
            return Agent.ANSWER_LATER;
        }
        // Later, and keeps nothing: once collected, the call answers.
        GLib.idle_add(GLib.PRIORITY_DEFAULT, () => {
            System.gc();
            return GLib.SOURCE_REMOVE;
        });
        return Agent.ANSWER_LATER;
    }, ['Seoul', 'Busan', 'Jeju', 'Ulsan']);
    checkEqual(got.Seoul[0], 'answered, then true', 'the C protocol');
    checkEqual(got.Busan[0], 'answered, then nothing', 'no "completed twice"');
    checkEqual(got.Jeju[0], 'answered later', 'Agent.ANSWER_LATER');
    checkEqual(got.Ulsan, ['The tool “get_weather” gave no answer', true], 'dropped');
}

async function testToolFromAnObject() {
    const weather = {
        name: 'get_weather',
        description: 'Tells the weather in a city',
        parameters: SCHEMA,
        execute: async ({city}, invocation) => ({city, call: invocation.get_tool_call().get_id()}),
    };
    await withServer([calls('Seoul'), textStream('Done.')], async server => {
        const session = newSession(server, weather);
        checkEqual((await session.send_async('Weather?', null)).get_content(), 'Done.', 'answer');
        const offered = server.requests[0].body.tools[0].function;
        checkEqual(offered.parameters, SCHEMA, 'the schema');
        checkEqual(offered.description, 'Tells the weather in a city', 'the description');
        checkEqual(JSON.parse(server.toolMessage(1, 'call_1').content),
            {city: 'Seoul', call: 'call_1'}, 'executed');
    });
}

async function testApprovalValues() {
    const ran = [];
    const approve = (_s, call, approval) => {
        const {city} = call.parse_arguments_object();
        switch (city) {
        case 'Seoul': return false;
        case 'Busan': return 'Not on Sundays';
        case 'Incheon': throw new Error('Not from here');
        case 'Ulsan': return 1;
        case 'Jeju': return sleep(10).then(() => true);
        case 'Daegu': return Promise.reject(new Error('Dialog failed'));
        default:
            approval.allow();
            return true;
        }
    };
    const got = await resultsFor((_t, invocation) => {
        ran.push(invocation.args.city);
        return 'ok';
    }, ['Seoul', 'Busan', 'Incheon', 'Ulsan', 'Jeju', 'Daegu', 'Gwangju'], {
        tool: tool => (tool.requires_approval = true),
        session: session => session.connect('approve-tool-call', approve),
    });
    checkEqual(ran.sort(), ['Gwangju', 'Jeju'], 'the allowed calls ran');
    checkEqual(got.Seoul[0], 'Denied by the user', 'false');
    checkEqual(got.Busan[0], 'Denied by the user: Not on Sundays', 'a reason');
    checkEqual(got.Incheon[0], 'Denied by the user: Not from here', 'a throw');
    checkEqual(got.Ulsan[0],
        'Denied by the user: the approve-tool-call handler returned number, not an answer',
        'a wrong type');
    checkEqual(got.Daegu[0], 'Denied by the user: Dialog failed', 'a rejection');
}

async function testCheckToolCallIsTypedAndFailsClosed() {
    const ran = [];
    const decide = {
        Seoul: () => true,
        Busan: () => false,
        Incheon: () => 'Not there',
        Ulsan: () => undefined,
        Jeju: () => 1,
        Daegu: () => Agent.ToolDecision.new_allow(),
        Suwon: () => Agent.ToolDecision.new_block('Typed no'),
        Pyongyang: () => {
            throw new Error('guard crashed');
        },
    };
    const got = await resultsFor((_t, invocation) => {
        ran.push(invocation.args.city);
        return 'ok';
    }, Object.keys(decide), {
        session: session => session.connect('check-tool-call',
            (_s, call) => decide[call.parse_arguments_object().city]()),
    });
    checkEqual(ran.sort(), ['Daegu', 'Seoul'], 'only the allowed calls ran');
    checkEqual(got.Busan[0], 'Blocked: a check-tool-call hook refused it', 'false');
    checkEqual(got.Incheon[0], 'Blocked: Not there', 'a reason');
    checkEqual(got.Ulsan[0], 'Blocked: the check-tool-call hook gave no decision', 'undefined');
    checkEqual(got.Jeju[0], 'Blocked: the check-tool-call hook returned number, not a decision',
        'a wrong type');
    checkEqual(got.Suwon[0], 'Blocked: Typed no', 'typed');
    checkEqual(got.Pyongyang[0], 'Blocked: the check-tool-call hook failed: guard crashed',
        'a throw blocks, and says the hook failed');
}

async function testFilterToolResultTakesJson() {
    const got = await resultsFor(() => 'key=sk-123', ['Seoul', 'Busan', 'Jeju'], {
        session: session => session.connect('filter-tool-result', (_s, call) => {
            const {city} = call.parse_arguments_object();
            if (city === 'Seoul')
                return {redacted: true};
            if (city === 'Busan')
                throw new Error('filter crashed');
            return null;
        }),
    });
    checkEqual(got.Seoul[0], '{"redacted":true}', 'an object, as JSON');
    checkEqual(got.Busan[0],
        'The result was withheld: the filter-tool-result hook failed: filter crashed', 'a throw');
    checkEqual(got.Jeju[0], 'key=sk-123', 'null keeps it');
}

async function testStreamIsAnAsyncGenerator() {
    const tool = Agent.Tool.new('get_weather', 'Tells the weather', SCHEMA, () => ({sky: 'sunny'}));
    await withServer([calls('Seoul'), textStream('It is ', 'sunny.')], async server => {
        const session = newSession(server, tool);
        const events = [];
        for await (const event of session.stream('Weather?'))
            events.push(event);
        checkEqual(events.map(e => e.type), ['tool-call', 'step-finished', 'tool-started',
            'tool-finished', 'text-delta', 'text-delta', 'step-finished', 'done'], 'the events');
        checkEqual(events[3], {type: 'tool-finished', id: 'call_1', name: 'get_weather',
            result: '{"sky":"sunny"}'}, 'a result');
        checkEqual(events[events.length - 1].message, {role: 'assistant', content: 'It is sunny.'},
            'done');
    });

    await withServer([], async server => {  // HTTP 500
        const seen = [];
        try {
            for await (const event of newSession(server).stream('Hi'))
                seen.push(event.type);
            check(false, 'the stream should throw');
        } catch (error) {
            check(error instanceof GLib.Error && error.matches(Agent.Error, Agent.Error.HTTP),
                `an HTTP error, not ${error}`);
        }
        checkEqual(seen, ['error'], 'the error event first');
    });

    await withServer([stall(textStream('Hello ', 'there').slice(0, 2))], async server => {
        const session = newSession(server);
        for await (const event of session.stream('Hi')) {
            checkEqual(event, {type: 'text-delta', text: 'Hello '}, 'the first delta');
            break;
        }
        while (session.busy)
            await sleep(5);  // eslint-disable-line no-await-in-loop
        checkEqual(session.memory.get_item(1).get_state(), Agent.MessageState.INTERRUPTED,
            'leaving the loop cancelled the turn');
    });
}

async function testDisposeMidTurnCancels() {
    // GJS refuses any use of a JavaScript wrapper once its object was
    // disposed, send_finish() included: the test watches the callback and
    // the memory, which outlives the session.
    await withServer([stall(textStream('Hello ', 'there').slice(0, 2))], async server => {
        const session = newSession(server);
        const memory = session.memory;
        let called = false;
        session.connect('text-delta', () => GLib.idle_add(GLib.PRIORITY_DEFAULT, () => {
            session.run_dispose();
            return GLib.SOURCE_REMOVE;
        }));
        session.send_async('Hi', null, () => {
            called = true;
        });
        while (!called)
            await sleep(5);  // eslint-disable-line no-await-in-loop
        checkEqual(memory.get_n_items(), 2, 'memory consistent');
        checkEqual(memory.get_item(1).get_state(), Agent.MessageState.INTERRUPTED, 'cancelled');
    });
}

async function testBusyGoesFalseLast() {
    await withServer([textStream('One.')], async server => {
        const session = newSession(server);
        const log = [];
        session.connect('completed', () => log.push('completed'));
        session.connect('notify::busy', () => log.push(session.busy ? 'busy' : 'idle'));
        session.send_async('Hi', null, (s, result) => {
            s.send_finish(result);
            log.push('callback');
        });
        while (log.length < 4)
            await sleep(5);  // eslint-disable-line no-await-in-loop
        checkEqual(log, ['busy', 'completed', 'callback', 'idle'], 'busy goes false last');
    });
}

async function testWritePrintsAsItIs() {
    // In a program of its own: what reaches its standard output
    const code = "const Agent = imports.gi.Agent; Agent.write('Hel'); Agent.write('lo'); " +
        "Agent.write(''); print(' world'); Agent.write('é'); Agent.write(42);";
    const process = Gio.Subprocess.new([GLib.getenv('AGENT_GJS') ?? 'gjs', '-c', code],
        Gio.SubprocessFlags.STDOUT_PIPE | Gio.SubprocessFlags.STDERR_PIPE);
    const [stdout, stderr] = await new Promise((resolve, reject) => {
        process.communicate_utf8_async(null, null, (p, result) => {
            try {
                resolve(p.communicate_utf8_finish(result).slice(1));
            } catch (error) {
                reject(error);
            }
        });
    });
    checkEqual(process.get_exit_status(), 0, `the exit status: ${stderr}`);
    checkEqual(stdout, 'Hello world\né42', 'no newline added, in order with print()');
}

runTests(setup, [
    testHandlerReturnsValues,
    testHandlerThrowsAndAwaits,
    testCProtocolAndDroppedInvocation,
    testToolFromAnObject,
    testApprovalValues,
    testCheckToolCallIsTypedAndFailsClosed,
    testFilterToolResultTakesJson,
    testStreamIsAnAsyncGenerator,
    testDisposeMidTurnCancels,
    testBusyGoesFalseLast,
    testWritePrintsAsItIs,
]);
