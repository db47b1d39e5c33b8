// test-tools.js — tools from JavaScript, where they could go silently
// wrong: the keys of a tool object checked (requires_approval spelt as the
// GObject property is read too), a tool that requires approval never run
// unapproved, a returned true being the result (answering later is
// Agent.ANSWER_LATER), arguments checked against the tool's schema before
// any handler runs, and failures marked as errors for the model, told on
// tool-failed and logged with their stack.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import GLib from 'gi://GLib';
import Gio from 'gi://Gio';

import {
    anthropicStream, check, checkEqual, runTests, skipUnlessIntrospection, textStream,
    toolCallStream, withServer,
} from './agenttest.js';

skipUnlessIntrospection();
let Agent = null;

async function setup() {
    ({default: Agent} = await import('gi://Agent?version=1.0'));
    Gio._promisify(Agent.Session.prototype, 'send_async', 'send_finish');
}

const HERE = GLib.path_get_dirname(GLib.filename_from_uri(import.meta.url)[0]);
const SCHEMA = {type: 'object', properties: {city: {type: 'string'}}, required: ['city']};

function newSession(server, tools, provider = 'openai') {
    const made = Agent.Provider.new(provider);
    made.set_base_url(provider === 'openai' ? server.url : server.rootUrl);
    made.set_model('scripted');
    made.set_max_retries(0);
    const session = Agent.Session.new(made);
    tools.forEach(tool => session.add_tool(tool));
    return session;
}

const weatherCalls = (...args) =>
    toolCallStream(...args.map((a, i) => [`call_${i + 1}`, 'get_weather', a]));

function eventsOf(session) {
    const seen = [];
    session.connect('tool-failed', (_s, call, error) => seen.push(
        ['tool-failed', call.get_id(), Agent.error_get_code(error), error.message]));
    session.connect('tool-finished', (_s, call) => seen.push(
        ['tool-finished', call.get_id(), call.is_error]));
    return seen;
}

function throws(what, body, ...expected) {
    try {
        body();
    } catch (error) {
        check(error instanceof TypeError, `${what}: a TypeError, not ${error}`);
        for (const text of expected)
            check(error.message.includes(text), `${what}: "${text}" in "${error.message}"`);
        return;
    }
    check(false, `${what} was accepted`);
}

const execute = () => 'Sunny';

async function testToolObjectKeysAreChecked() {
    const keys = 'name, description, parameters, execute, requiresApproval (or ' +
        'requires_approval), returnDirect (or return_direct), timeout';
    throws('a misspelt key', () => Agent.tool({name: 'w', execute, requireApproval: true}),
        '“requireApproval”', keys);
    throws('an unknown key', () => Agent.tool({name: 'w', execute, inputSchema: SCHEMA}),
        '“inputSchema”', keys);
    throws('a key of the session', () => Agent.tool({name: 'w', execute, approve: () => true}),
        '“approve”');
    throws('not a boolean', () => Agent.tool({name: 'w', execute, requiresApproval: 'yes'}),
        'requiresApproval must be true or false, not string');
    throws('a negative timeout', () => Agent.tool({name: 'w', execute, timeout: -1}),
        'timeout must be seconds');
    throws('both spellings', () => Agent.tool({
        name: 'w', execute, requiresApproval: true, requires_approval: false,
    }), 'requiresApproval is given twice');
    throws('no execute', () => Agent.tool({name: 'w'}), 'needs a name and an execute function');
    throws('add_tool checks too', () => Agent.Session.new(Agent.Provider.new('openai'))
        .add_tool({name: 'w', execute, requiresAproval: true}), '“requiresAproval”');

    const snake = Agent.tool({name: 'w', execute, requires_approval: true, return_direct: true});
    checkEqual([snake.requires_approval, snake.return_direct], [true, true], 'snake_case');
    const camel = Agent.tool({
        name: 'w', description: 'Weather', parameters: SCHEMA, execute,
        requiresApproval: true, returnDirect: true, timeout: 2.5,
    });
    checkEqual([camel.requires_approval, camel.return_direct, camel.timeout,
        camel.get_description()], [true, true, 2.5, 'Weather'], 'camelCase');
    const plain = Agent.tool({name: 'w', execute});
    checkEqual([plain.requires_approval, plain.return_direct, plain.timeout],
        [false, false, 0], 'the defaults');
}

async function testRequiresApprovalNeverRunsUnapproved() {
    // requires_approval, as the GObject property is spelt: it used to be
    // ignored, and the tool ran without asking
    const ran = [];
    const tool = {
        name: 'get_weather', description: 'Tells the weather', parameters: SCHEMA,
        requires_approval: true,
        execute: ({city}) => ran.push(city) && 'Sunny',
    };
    await withServer([weatherCalls({city: 'Seoul'}), textStream('Done.')], async server => {
        const session = newSession(server, [tool]);
        checkEqual((await session.send_async('Weather?', null)).get_content(), 'Done.', 'answer');
        checkEqual(ran, [], 'not run without an approval');
        checkEqual(server.toolMessage(1, 'call_1').content,
            "Not run: this tool needs the user's approval and no one could be asked", 'result');
    });
}

async function testTrueIsAResult() {
    const kept = [];
    const tool = Agent.Tool.new('get_weather', 'Tells the weather', SCHEMA, (_t, invocation) => {
        switch (invocation.args.city) {
        case 'Seoul':
            return true;
        case 'Busan':
            return false;
        case 'Jeju':
            kept.push(invocation);
            GLib.timeout_add(GLib.PRIORITY_DEFAULT, 20, () => {
                invocation.return_result('answered later');
                return GLib.SOURCE_REMOVE;
            });
            return Agent.ANSWER_LATER;
        default:
            invocation.return_result('answered, then true');  // the C protocol
            return true;
        }
    });
    const cities = ['Seoul', 'Busan', 'Jeju', 'Ulsan'];
    await withServer([weatherCalls(...cities.map(city => ({city}))), textStream('Done.')],
        async server => {
            const session = newSession(server, [tool]);
            // A returned true used to mean "later": the turn waited for the
            // garbage collector to drop the invocation, then said "gave no answer"
            checkEqual((await session.send_async('Weather?', null)).get_content(), 'Done.');
            checkEqual(cities.map((_c, i) => server.toolMessage(1, `call_${i + 1}`).content),
                ['true', 'false', 'answered later', 'answered, then true'], 'the results');
        });
    checkEqual(typeof Agent.ANSWER_LATER, 'symbol', 'the sentinel');
}

async function testTrueAllows() {
    const ran = [];
    const tool = Agent.Tool.new('get_weather', 'Tells the weather', SCHEMA, (_t, invocation) => {
        ran.push(invocation.args.city);
        return 'ok';
    });
    tool.requires_approval = true;
    const cities = ['Seoul', 'Busan', 'Jeju', 'Ulsan'];
    await withServer([weatherCalls(...cities.map(city => ({city}))), textStream('Done.')],
        async server => {
            const session = newSession(server, [tool]);
            session.connect('approve-tool-call', (_s, call, approval) => {
                const later = answer => GLib.timeout_add(GLib.PRIORITY_DEFAULT, 20, () => {
                    answer();
                    return GLib.SOURCE_REMOVE;
                });
                switch (call.parse_arguments_object().city) {
                case 'Seoul':
                    return true;
                case 'Busan':
                    later(() => approval.allow());
                    return Agent.ANSWER_LATER;
                case 'Jeju':
                    later(() => approval.deny('Asked: no'));
                    return Agent.ANSWER_LATER;
                default:
                    return undefined;
                }
            });
            checkEqual((await session.send_async('Weather?', null)).get_content(), 'Done.');
            checkEqual(ran.sort(), ['Busan', 'Seoul'], 'the allowed calls ran');
            checkEqual(cities.map((_c, i) => server.toolMessage(1, `call_${i + 1}`).content),
                ['ok', 'ok', 'Denied by the user: Asked: no', 'Denied by the user'], 'results');
        });
}

async function testArgumentsFollowTheSchema() {
    const ran = [];
    const tool = {
        name: 'get_weather', description: 'Tells the weather',
        parameters: {...SCHEMA, properties: {...SCHEMA.properties, days: {type: 'integer'}}},
        execute: ({city, days}) => {
            ran.push([city, days ?? 1]);
            return `Sunny in ${city}`;
        },
    };
    await withServer([weatherCalls({city: 5}, {city: 'Seoul', days: 'two'}, {city: 'Busan'}),
        textStream('Done.')], async server => {
        const session = newSession(server, [tool]);
        check(session.validate_tool_arguments, 'on by default');
        const guarded = [];
        session.connect('check-tool-call', (_s, call) => guarded.push(call.get_id()) && true);
        const seen = eventsOf(session);
        checkEqual((await session.send_async('Weather?', null)).get_content(), 'Done.',
            'the loop went on');
        checkEqual(ran, [['Busan', 1]], 'only the call that follows the schema ran');
        checkEqual(guarded, ['call_3'], 'no hook saw the others');
        const first = 'The arguments do not follow the schema of “get_weather”: $.city: ' +
            'expected string, got integer';
        const second = 'The arguments do not follow the schema of “get_weather”: $.days: ' +
            'expected integer, got string';
        checkEqual(server.toolMessage(1, 'call_1').content, first, 'the path, to the model');
        checkEqual(server.toolMessage(1, 'call_2').content, second, 'the second');
        checkEqual(seen, [['tool-failed', 'call_1', 'schema', first],
            ['tool-finished', 'call_1', true], ['tool-failed', 'call_2', 'schema', second],
            ['tool-finished', 'call_2', true], ['tool-finished', 'call_3', false]], 'signals');
    });

    await withServer([weatherCalls({city: 5}), textStream('Done.')], async server => {
        const session = newSession(server, [tool]);
        session.validate_tool_arguments = false;
        checkEqual((await session.send_async('Weather?', null)).get_content(), 'Done.');
        checkEqual(ran[ran.length - 1], [5, 1], 'off: the handler sees what the model sent');
    });
}

async function testFailuresAreErrorsForTheModel() {
    const tool = {
        name: 'get_weather', description: 'Tells the weather', parameters: SCHEMA,
        execute: () => {
            throw new Error('No forecast under the sea');
        },
    };
    const calls = anthropicStream('Let me look.', ['toolu_1', 'get_weather', {city: 'Atlantis'}],
        ['toolu_2', 'get_weather', {city: 7}]);
    await withServer([calls, anthropicStream('Sorry.')], async server => {
        const session = newSession(server, [tool], 'anthropic');
        const seen = eventsOf(session);
        const events = [];
        for await (const event of session.stream('Weather?'))
            events.push(event);
        checkEqual(server.requests[1].path, '/v1/messages', 'Anthropic');
        const raised = server.toolResult(1, 'toolu_1');
        checkEqual([raised.content, raised.is_error], ['No forecast under the sea', true],
            'the exception, marked as an error');
        checkEqual(server.toolResult(1, 'toolu_2').is_error, true, 'arguments off the schema');
        checkEqual(seen[0], ['tool-failed', 'toolu_1', 'tool', 'No forecast under the sea'],
            'tool-failed');
        checkEqual(seen[2].slice(0, 3), ['tool-failed', 'toolu_2', 'schema'], 'tool-failed');
        const failed = events.filter(e => e.type === 'tool-failed');
        checkEqual(failed[0], {
            type: 'tool-failed', id: 'toolu_1', name: 'get_weather', code: 'tool',
            message: 'No forecast under the sea',
        }, 'the stream has it too');
    });
}

function run(argv, env) {
    const launcher = new Gio.SubprocessLauncher({
        flags: Gio.SubprocessFlags.STDOUT_PIPE | Gio.SubprocessFlags.STDERR_PIPE,
    });
    for (const [name, value] of Object.entries(env))
        value === null ? launcher.unsetenv(name) : launcher.setenv(name, value, true);
    const process = launcher.spawnv(argv);
    return new Promise((resolve, reject) => {
        process.communicate_utf8_async(null, null, (p, result) => {
            try {
                const [, stdout, stderr] = p.communicate_utf8_finish(result);
                resolve({status: p.get_exit_status(), stdout, stderr});
            } catch (error) {
                reject(error);
            }
        });
    });
}

async function testStacksAreLogged() {
    const gjs = GLib.getenv('AGENT_GJS') ?? 'gjs';
    const script = `${HERE}/tools-failing.js`;
    const {status, stdout, stderr: errors} = await run([gjs, '-m', script],
        {G_MESSAGES_DEBUG: 'Agent-Tools'});
    checkEqual(status, 0, `the exit status: ${errors}`);
    const results = JSON.parse(stdout.split('\n').find(line => line.startsWith('{"guard"')));
    const stderr = stdout + errors;  // GLib writes debug messages on standard output
    checkEqual(results.guard, 'Blocked: the check-tool-call hook failed: guard crashed',
        'the reason says the hook failed');
    checkEqual(results.tool, 'Cannot divide by zero', "the tool's exception");
    check(stderr.includes('Agent-Tools-DEBUG'), `the Agent-Tools domain: ${stderr}`);
    check(stderr.includes('The tool “divide” (call call_2) threw an exception:\n' +
        'RangeError: Cannot divide by zero'), `the tool: ${stderr}`);
    check(/divide@.*tools-failing\.js:\d+/.test(stderr), `its stack: ${stderr}`);
    check(stderr.includes('The check-tool-call hook, for “get_weather” (call call_1), threw ' +
        'an exception:\nError: guard crashed'), `the hook: ${stderr}`);
    check(/guard@.*tools-failing\.js:\d+/.test(stderr), `its stack: ${stderr}`);

    const quiet = await run([gjs, '-m', script], {G_MESSAGES_DEBUG: null});
    checkEqual(quiet.status, 0, 'the exit status');
    check(!`${quiet.stdout}${quiet.stderr}`.includes('threw an exception'),
        `nothing without G_MESSAGES_DEBUG: ${quiet.stdout}${quiet.stderr}`);
}

runTests(setup, [
    testToolObjectKeysAreChecked,
    testRequiresApprovalNeverRunsUnapproved,
    testTrueIsAResult,
    testTrueAllows,
    testArgumentsFollowTheSchema,
    testFailuresAreErrorsForTheModel,
    testStacksAreLogged,
]);
