// test-mcp.js — MCP elicitation from JavaScript: the reference
// server-everything (run with node) asks for input; the ::elicitation
// handler keeps the request and accepts it with a plain object.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import GLib from 'gi://GLib';
import Gio from 'gi://Gio';

import {check, checkEqual, runTests, skipUnlessIntrospection} from './agenttest.js';

skipUnlessIntrospection();
let Agent = null;
let Json = null;

const directory = GLib.getenv('AGENT_MCP_TEST_DIR') ?? '';
const everything = GLib.build_filenamev([directory, 'node_modules', '@modelcontextprotocol',
    'server-everything', 'dist', 'index.js']);

async function setup() {
    ({default: Agent} = await import('gi://Agent?version=1.0'));
    ({default: Json} = await import('gi://Json?version=1.0'));
    Gio._promisify(Agent.McpClient.prototype, 'connect_async', 'connect_finish');
    Gio._promisify(Agent.McpClient.prototype, 'close_async', 'close_finish');
    Gio._promisify(Agent.McpClient.prototype, 'call_tool_async', 'call_tool_finish');
}

/** Runs the main loop until `predicate()` holds. */
function until(predicate) {
    return new Promise(resolve => {
        if (predicate()) {
            resolve();
            return;
        }
        GLib.timeout_add(GLib.PRIORITY_DEFAULT, 20, () => {
            if (!predicate())
                return GLib.SOURCE_CONTINUE;
            resolve();
            return GLib.SOURCE_REMOVE;
        });
    });
}

async function testElicitation() {
    if (GLib.getenv('AGENT_NO_NPM') === '1' || !GLib.file_test(everything, GLib.FileTest.EXISTS)) {
        check(GLib.getenv('AGENT_NO_NPM') === '1',
            'the MCP test servers are installed (tests/mcp/install)');
        return;
    }

    const client = Agent.McpClient.new_stdio('everything', 'node', [everything, 'stdio']);
    client.handles_elicitation = true;
    await client.connect_async(null);
    await until(() => [...client.tools].some(t =>
        t.get_remote_name() === 'trigger-elicitation-request'));

    const requests = [];
    client.connect('elicitation', (_client, request) => requests.push(request));
    const call = client.call_tool_async('trigger-elicitation-request', null, null);
    await until(() => requests.length > 0);

    const [request] = requests;
    checkEqual(request.server_name, 'everything', 'server-name');
    checkEqual(request.mode, Agent.McpElicitationMode.FORM, 'mode');
    checkEqual(request.schema.required, ['name'], 'the schema as an object');

    let refused = null;
    try {
        request.accept({name: 'Ada', email: 'ada@'});
    } catch (error) {
        refused = error;
    }
    check(refused !== null && refused.message.includes('“email”'),
        `invalid content is refused, naming the field: ${refused}`);
    check(!request.answered, 'still open');

    check(request.accept({name: 'Ada Lovelace', integer: 7, check: true}), 'accepted');
    check(request.answered, 'answered');
    const result = Json.to_string(await call, false);
    check(result.includes('- Name: Ada Lovelace'), `the server got the content: ${result}`);
    check(result.includes('- Favorite Integer: 7'), `an integer stays one: ${result}`);
    await client.close_async(null);
}

runTests(setup, [
    testElicitation,
]);
