// test-bindings.js — libagent from JavaScript (GJS), through GObject Introspection
//
// A session against a scripted Soup.Server in this process: tools written
// in JavaScript that answer at once, after a timeout or from an async call,
// or throw; a cancelled turn; approvals answered from JavaScript; a memory
// implemented in JavaScript; async calls awaited through Gio._promisify.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import GLib from 'gi://GLib';
import GObject from 'gi://GObject';
import Gio from 'gi://Gio';
import Json from 'gi://Json';

import {
    check, checkEqual, runTests, skipUnlessIntrospection, stall, textStream, toolCallStream,
    withServer,
} from './agenttest.js';

skipUnlessIntrospection();
let Agent = null;  // imported once we know the build has it

async function setup() {
    ({default: Agent} = await import('gi://Agent?version=1.0'));
    Gio._promisify(Agent.Session.prototype, 'send_async', 'send_finish');
    Gio._promisify(Agent.Session.prototype, 'continue_async', 'continue_finish');
    Gio._promisify(Agent.Provider.prototype, 'list_models_async', 'list_models_finish');
    Gio._promisify(Gio.File.prototype, 'load_contents_async', 'load_contents_finish');
    ArrayMemory = defineArrayMemory();
}

const SCHEMA = {
    type: 'object',
    properties: {city: {type: 'string', description: 'The city, e.g. Seoul'}},
    required: ['city'],
};
const SEOUL = ['call_1', 'get_weather', {city: 'Seoul'}];

function newSession(server, ...tools) {
    const provider = Agent.Provider.new('openai');
    provider.set_base_url(server.url);
    provider.set_model('scripted');
    provider.set_api_key('sk-test-key');
    provider.set_max_retries(0);
    const session = Agent.Session.new(provider);
    tools.forEach(tool => session.add_tool(tool));
    return session;
}

function weatherTool(handler) {
    return Agent.Tool.new('get_weather', 'Tells the weather in a city',
        Json.from_string(JSON.stringify(SCHEMA)), handler);
}

function cityOf(invocation) {
    return invocation.get_arguments().get_object().get_string_member('city');
}

function forecast(invocation) {
    return `Sunny, 21 °C in ${cityOf(invocation)}`;
}

function recordToolResults(session) {
    const results = [];
    session.connect('tool-finished', (_session, call) =>
        results.push([call.get_id(), call.get_state(), call.get_result(), call.is_error]));
    return results;
}

/** Runs a turn; returns the text of its final message. */
async function answer(session, text) {
    return (await session.send_async(text, null)).get_content();
}

/** Runs a turn in which the model asks for the weather in Seoul; returns
 * the tool result that the second request carried. */
async function weatherResult(handler) {
    let result = null;
    await withServer([toolCallStream(SEOUL), textStream('Done.')], async server => {
        const session = newSession(server, weatherTool(handler));
        checkEqual(await answer(session, 'Weather?'), 'Done.', 'the answer');
        result = server.toolMessage(1, 'call_1').content;
    });
    return result;
}

async function testToolRoundTrip() {
    const calls = [];
    const getWeather = (tool, invocation) => {
        calls.push([tool.get_name(), invocation.get_tool_call().get_id()]);
        invocation.return_result(forecast(invocation));
        return true;
    };

    const responses = [toolCallStream(SEOUL), textStream('It is ', 'sunny ', 'in Seoul.')];
    await withServer(responses, async server => {
        const session = newSession(server, weatherTool(getWeather));
        const deltas = [];
        session.connect('text-delta', (_session, _message, delta) => deltas.push(delta));
        const results = recordToolResults(session);

        const message = await session.send_async('What is the weather in Seoul?', null);

        checkEqual(message.get_content(), 'It is sunny in Seoul.', 'the answer');
        checkEqual(deltas, ['It is ', 'sunny ', 'in Seoul.'], 'the streamed text');
        checkEqual(calls, [['get_weather', 'call_1']], 'the tool calls');
        const {SUCCEEDED} = Agent.ToolCallState;
        checkEqual(results, [['call_1', SUCCEEDED, 'Sunny, 21 °C in Seoul', false]],
            'tool-finished');

        const offered = server.requests[0].body.tools;
        checkEqual(offered.map(t => t.function.name), ['get_weather'], 'tools offered');
        checkEqual(offered[0].function.parameters, SCHEMA, 'the schema sent');
        checkEqual(server.requests[0].authorization, 'Bearer sk-test-key', 'the key');

        const messages = server.messages(1);
        checkEqual(messages.map(m => m.role), ['user', 'assistant', 'tool'], 'request 2');
        checkEqual(messages[1].tool_calls[0].id, 'call_1', 'the call sent back');
        checkEqual(JSON.parse(messages[1].tool_calls[0].function.arguments), {city: 'Seoul'},
            'the arguments sent back');
        checkEqual(server.toolMessage(1, 'call_1').content, 'Sunny, 21 °C in Seoul',
            'the result sent');
        check(!session.busy, 'the session is idle');
    });
}

async function testToolAnswersAfterATimeout() {
    const getWeather = (_tool, invocation) => {
        GLib.timeout_add(GLib.PRIORITY_DEFAULT, 50, () => {
            invocation.return_result(forecast(invocation));
            return GLib.SOURCE_REMOVE;
        });
        return Agent.ANSWER_LATER;
    };

    checkEqual(await weatherResult(getWeather), 'Sunny, 21 °C in Seoul', 'the late result');
}

async function testToolAnswersFromAnAsyncCall() {
    const [file, stream] = Gio.File.new_tmp('forecast-XXXXXX.txt');
    const template = new TextEncoder().encode('Cloudy, 12 °C in {city}');
    stream.get_output_stream().write_all(template, null);
    stream.close(null);

    async function readForecast(invocation) {
        const [contents] = await file.load_contents_async(invocation.get_cancellable());
        return new TextDecoder().decode(contents).replace('{city}', cityOf(invocation));
    }

    const getWeather = (_tool, invocation) => {
        readForecast(invocation).then(
            text => invocation.return_result(text),
            error => invocation.return_error_literal(error.message));
        return Agent.ANSWER_LATER;
    };

    try {
        checkEqual(await weatherResult(getWeather), 'Cloudy, 12 °C in Seoul',
            'the result read asynchronously');
    } finally {
        file.delete(null);
    }
}

async function testToolErrorsBecomeResults() {
    const getWeather = (_tool, invocation) => {
        if (cityOf(invocation) === 'Atlantis')
            throw new Error('No forecast under the sea');
        throw new GLib.Error(Gio.IOErrorEnum, Gio.IOErrorEnum.NOT_FOUND, 'No such city');
    };
    const calls = [
        ['call_1', 'get_weather', {city: 'Atlantis'}],
        ['call_2', 'get_weather', {city: 'Nowhere'}],
    ];

    await withServer([toolCallStream(...calls), textStream('Sorry.')], async server => {
        const session = newSession(server, weatherTool(getWeather));
        const results = recordToolResults(session);

        checkEqual(await answer(session, 'Weather?'), 'Sorry.', 'the turn goes on');

        const failed = Agent.ToolCallState.FAILED;
        checkEqual(results.sort(), [
            ['call_1', failed, 'No forecast under the sea', true],
            ['call_2', failed, 'No such city', true],
        ], 'the error results');
        checkEqual(server.toolMessage(1, 'call_1').content, 'No forecast under the sea',
            'the exception sent to the model');
        checkEqual(server.toolMessage(1, 'call_2').content, 'No such city', 'the GLib.Error sent');
    });
}

function checkCancelled(error) {
    check(error instanceof GLib.Error && error.matches(Gio.IOErrorEnum, Gio.IOErrorEnum.CANCELLED),
        `cancelled, not ${error}`);
}

async function testCancelWhileStreaming() {
    await withServer([stall(textStream('Hello ', 'there').slice(0, 2))], async server => {
        const session = newSession(server);
        const cancellable = new Gio.Cancellable();
        session.connect('text-delta', () => cancellable.cancel());

        await session.send_async('Hi', cancellable).then(
            () => check(false, 'the turn should fail'), checkCancelled);

        const memory = session.memory;
        checkEqual([0, 1].map(i => memory.get_item(i).get_role()),
            [Agent.MessageRole.USER, Agent.MessageRole.ASSISTANT], 'the memory');
        checkEqual(memory.get_n_items(), 2, 'two messages');
        checkEqual(memory.get_item(1).get_content(), 'Hello ', 'what streamed is kept');
        checkEqual(memory.get_item(1).get_state(), Agent.MessageState.INTERRUPTED,
            'marked interrupted');
        check(!session.busy, 'the session is idle');
    });
}

async function testCancelWhileAToolRuns() {
    const cancellable = new Gio.Cancellable();
    const seen = [];
    const held = [];
    const getWeather = (_tool, invocation) => {
        // Never answers by itself: it keeps the invocation, as a tool that
        // answers later does, and waits for the turn to be cancelled.
        held.push(invocation);
        invocation.get_cancellable().connect(() => seen.push('cancelled'));
        GLib.idle_add(GLib.PRIORITY_DEFAULT, () => cancellable.cancel());
        return Agent.ANSWER_LATER;
    };

    await withServer([toolCallStream(SEOUL)], async server => {
        const session = newSession(server, weatherTool(getWeather));
        const results = recordToolResults(session);

        await session.send_async('Weather?', cancellable).then(
            () => check(false, 'the turn should fail'), checkCancelled);

        checkEqual(seen, ['cancelled'], "the tool's cancellable");
        checkEqual(results.map(r => r.slice(0, 2)), [['call_1', Agent.ToolCallState.CANCELLED]],
            'the call');
        checkEqual(session.memory.get_n_items(), 3, 'every call is answered in memory');
        checkEqual(session.memory.get_item(2).get_role(), Agent.MessageRole.TOOL,
            'the last is a result');
        checkEqual(server.requests.length, 1, 'no request after the cancel');
    });
}

function approvalSession(server, answer) {
    const ran = [];
    const tool = weatherTool((_tool, invocation) => {
        ran.push(invocation.get_tool_call().get_id());
        invocation.return_result(forecast(invocation));
        return true;
    });
    tool.requires_approval = true;
    const session = newSession(server, tool);
    const asked = [];
    session.connect('approve-tool-call', (_session, call, approval) => {
        asked.push([call.get_name(), call.get_arguments(), approval.get_tool().get_name()]);
        GLib.idle_add(GLib.PRIORITY_DEFAULT, () => {  // answered later, from the loop
            answer(approval);
            return GLib.SOURCE_REMOVE;
        });
        return Agent.ANSWER_LATER;
    });
    return {session, ran, asked};
}

async function testApprovalAllowed() {
    await withServer([toolCallStream(SEOUL), textStream('Sunny.')], async server => {
        const {session, ran, asked} = approvalSession(server, approval => approval.allow());

        checkEqual(await answer(session, 'Weather?'), 'Sunny.', 'the answer');
        checkEqual(asked, [['get_weather', '{"city":"Seoul"}', 'get_weather']], 'asked');
        checkEqual(ran, ['call_1'], 'the tool ran');
        checkEqual(server.toolMessage(1, 'call_1').content, 'Sunny, 21 °C in Seoul', 'its result');
    });
}

async function testApprovalDenied() {
    await withServer([toolCallStream(SEOUL), textStream('As you wish.')], async server => {
        const deny = approval => approval.deny('Not today');
        const {session, ran, asked} = approvalSession(server, deny);
        const results = recordToolResults(session);

        checkEqual(await answer(session, 'Weather?'), 'As you wish.', 'answer');
        checkEqual(asked.length, 1, 'asked once');
        checkEqual(ran, [], 'the tool did not run');
        checkEqual(results[0][1], Agent.ToolCallState.DENIED, 'the call was denied');
        const content = server.toolMessage(1, 'call_1').content;
        check(content.includes('Not today'), `the reason reaches the model: ${content}`);
    });
}

/** A memory in a JavaScript array, that logs what it is told. */
let ArrayMemory = null;
const defineArrayMemory = () => GObject.registerClass({
    Implements: [Gio.ListModel, Agent.Memory],
}, class ArrayMemory extends GObject.Object {
    constructor() {
        super();
        this.messages = [];
        this.log = [];
    }

    vfunc_get_item_type() {
        return Agent.Message.$gtype;
    }

    vfunc_get_n_items() {
        return this.messages.length;
    }

    vfunc_get_item(position) {
        return this.messages[position] ?? null;
    }

    vfunc_append(message) {
        this.log.push(['append', message.get_role(), message.get_n_tool_calls()]);
        this.messages.push(message);
        this.items_changed(this.messages.length - 1, 0, 1);
        return true;
    }

    vfunc_truncate(nItems) {
        this.log.push(['truncate', nItems]);
        const removed = this.messages.splice(nItems).length;
        this.items_changed(nItems, removed, 0);
        return true;
    }
});

async function testJavaScriptMemory() {
    const tool = weatherTool((_tool, invocation) => {
        invocation.return_result(forecast(invocation));
        return true;
    });
    const responses = [
        toolCallStream(SEOUL), textStream('Sunny in Seoul.'), textStream('Again: sunny.'),
    ];

    await withServer(responses, async server => {
        const session = newSession(server, tool);
        const memory = new ArrayMemory();
        session.memory = memory;

        checkEqual(await answer(session, 'Weather in Seoul?'), 'Sunny in Seoul.', 'answer');

        const {USER, ASSISTANT, TOOL} = Agent.MessageRole;
        checkEqual(memory.log, [['append', USER, 0], ['append', ASSISTANT, 1], ['append', TOOL, 0],
            ['append', ASSISTANT, 0]], 'the messages, in order');
        checkEqual(memory.messages[2].get_tool_call_id(), 'call_1', 'the result answers the call');
        checkEqual(server.messages(1).map(m => m.role), ['user', 'assistant', 'tool'],
            'request 2 is built from the JavaScript memory');

        check(memory.truncate(3), 'truncated');
        const again = await session.continue_async(null);
        checkEqual(again.get_content(), 'Again: sunny.', 'regenerated');
        checkEqual(memory.log.slice(4), [['truncate', 3], ['append', ASSISTANT, 0]], 'the log');
    });
}

/* Regenerate, switch back, send, delete: the request carries the active path */
async function testBranches() {
    const responses = [
        textStream('One.'), textStream('Two.'), textStream('Two, again.'), textStream('Three.'),
    ];

    await withServer(responses, async server => {
        const session = newSession(server);
        const memory = session.memory;

        checkEqual(await answer(session, 'First'), 'One.', 'answer 1');
        checkEqual(await answer(session, 'Second'), 'Two.', 'answer 2');
        check(memory.branch(3), 'branched at the last answer');
        const again = await session.continue_async(null);
        checkEqual(again.get_content(), 'Two, again.', 'regenerated');
        checkEqual([memory.get_sibling_index(3) + 1, memory.get_n_siblings(3)], [2, 2], '"2 / 2"');

        const changes = [];
        memory.connect('items-changed', (_m, position, removed, added) =>
            changes.push([position, removed, added]));
        check(memory.select_sibling(3, 0), 'switched back');
        checkEqual(changes, [[3, 1, 1]], 'the list changed at 3 only');
        checkEqual(memory.get_item(3).get_content(), 'Two.', 'the old answer is back');
        let refused = null;
        try {
            memory.select_sibling(3, 5);
        } catch (error) {
            refused = error;
        }
        check(refused?.matches(Agent.Error, Agent.Error.INVALID_ARGUMENT),
            'a sibling that is not there is refused');

        checkEqual(await answer(session, 'Third'), 'Three.', 'answer 3');
        checkEqual(server.messages(3).map(m => m.content),
            ['First', 'One.', 'Second', 'Two.', 'Third'], 'the request holds the old answer');

        check(memory.delete_branch(3), 'deleted the old answer and what followed');
        const contents = [];
        for (let i = 0; i < memory.get_n_items(); i++)
            contents.push(memory.get_item(i).get_content());
        checkEqual(contents, ['First', 'One.', 'Second', 'Two, again.'], 'its neighbour is there');
        checkEqual(memory.get_n_siblings(3), 1, 'one sibling left');
    });
}

async function testListModels() {
    await withServer([], async server => {
        const provider = newSession(server).get_provider();
        checkEqual(await provider.list_models_async(null), ['scripted'], 'the models');
    });
}

runTests(setup, [
    testToolRoundTrip,
    testToolAnswersAfterATimeout,
    testToolAnswersFromAnAsyncCall,
    testToolErrorsBecomeResults,
    testCancelWhileStreaming,
    testCancelWhileAToolRuns,
    testApprovalAllowed,
    testApprovalDenied,
    testJavaScriptMemory,
    testBranches,
    testListModels,
]);
