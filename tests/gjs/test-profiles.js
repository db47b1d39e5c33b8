// test-profiles.js — profiles from JavaScript (GJS): a list saved and read
// back, a change another list writes seen through ::changed, a provider
// made from a profile (create_provider_async) talking to a scripted server
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import Gio from 'gi://Gio';
import GLib from 'gi://GLib';

import {
    ScriptedServer, check, checkEqual, runTests, skipUnlessIntrospection, textStream,
} from './agenttest.js';

skipUnlessIntrospection();
let Agent = null;  // imported once we know the build has it

async function setup() {
    ({default: Agent} = await import('gi://Agent?version=1.0'));
    Gio._promisify(Agent.Session.prototype, 'send_async', 'send_finish');
    Gio._promisify(Agent.Profile.prototype, 'create_provider_async', 'create_provider_finish');
}

function withFolder(body) {
    const dir = GLib.dir_make_tmp('test-profiles-XXXXXX');
    const path = GLib.build_filenamev([dir, 'profiles.ini']);
    const done = () => {
        GLib.unlink(path);
        GLib.rmdir(dir);
    };
    return body(path).finally(done);
}

async function testRoundTrip() {
    await withFolder(async path => {
        const profiles = Agent.ProfileList.new(path);
        profiles.load();
        const profile = Agent.Profile.new('Cloud', 'anthropic');
        profile.model = 'claude-test';
        profile.settings.seed = 7;
        profiles.add(profile);
        profiles.defaultName = 'Cloud';
        profiles.save();

        const again = Agent.ProfileList.new(path);
        again.load();
        checkEqual(again.get_n_items(), 1);
        const read = again.get_item(0);
        checkEqual(read.name, 'Cloud');
        checkEqual(read.provider, 'anthropic');
        checkEqual(read.model, 'claude-test');
        checkEqual(read.baseUrl, null);
        checkEqual(read.settings.seed, 7);
        checkEqual(again.defaultName, 'Cloud');

        let refused = null;
        try {
            again.rename('Cloud', 'with [brackets]');
        } catch (error) {
            refused = error;
        }
        check(refused?.matches(Agent.error_quark(), Agent.Error.INVALID_ARGUMENT),
            `an invalid name is refused: ${refused}`);
    });
}

async function testChanged() {
    await withFolder(async path => {
        const app = Agent.ProfileList.new(path);
        app.load();
        const changed = new Promise(resolve => {
            app.connect('changed', () => resolve(app.get_n_items()));
        });
        const cli = Agent.ProfileList.new(path);
        cli.load();
        cli.add(Agent.Profile.new('Added', 'ollama'));
        cli.save();
        checkEqual(await changed, 1);
        checkEqual(app.lookup('Added').provider, 'ollama');
    });
}

async function testProvider() {
    const server = new ScriptedServer(textStream('Hi.'));
    try {
        const profile = Agent.Profile.new('Scripted', 'openai');
        profile.baseUrl = server.url;
        profile.model = 'scripted';
        profile.settings.temperature = 0.25;
        const provider = await profile.create_provider_async(null);
        provider.set_max_retries(0);
        checkEqual(provider.model, 'scripted');
        const session = Agent.Session.new(provider);
        await session.send_async('Hello', null);
        checkEqual(server.requests[0].body.model, 'scripted');
        checkEqual(server.requests[0].body.temperature, 0.25);
    } finally {
        server.close();
    }
}

runTests(setup, [testRoundTrip, testChanged, testProvider]);
