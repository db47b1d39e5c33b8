// tools-failing.js — a turn whose tool and check-tool-call hook throw, run
// by test-tools.js with and without G_MESSAGES_DEBUG=Agent-Tools: the last
// line of standard output is the results the model was sent, as JSON.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import Agent from 'gi://Agent?version=1.0';
import GLib from 'gi://GLib';

import {ScriptedServer, textStream, toolCallStream} from './agenttest.js';

function divide({a, b}) {
    if (b === 0)
        throw new RangeError('Cannot divide by zero');
    return a / b;
}

function guard(_session, call) {
    if (call.get_name() === 'get_weather')
        throw new Error('guard crashed');
    return true;
}

const server = new ScriptedServer(
    toolCallStream(['call_1', 'get_weather', {city: 'Seoul'}], ['call_2', 'divide', {a: 1, b: 0}]),
    textStream('Done.'));
const provider = Agent.Provider.new('openai');
provider.set_base_url(server.url);
provider.set_model('scripted');
provider.set_max_retries(0);
const session = Agent.Session.new(provider);
session.add_tool({name: 'get_weather', execute: () => 'Sunny'});
session.add_tool({name: 'divide', execute: divide});
session.connect('check-tool-call', guard);

const loop = new GLib.MainLoop(null, false);
session.send_async('Go', null, (s, result) => {
    s.send_finish(result);
    print(JSON.stringify({
        guard: server.toolMessage(1, 'call_1').content,
        tool: server.toolMessage(1, 'call_2').content,
    }));
    server.close();
    loop.quit();
});
loop.run();
