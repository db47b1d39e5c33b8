#!/usr/bin/env -S gjs -m
// desktop-assistant.js — an application that uses the models the user set
// up once, through the desktop assistant service, with no key or server of
// its own: an editor that asks for a summary of its open document, which
// the model reads by calling the editor's own tool
//
//   gjs -m desktop-assistant.js [--profile NAME] [--list-profiles] [PROMPT]
//
// The first time, the user is asked whether this program may use their
// models (agent-chat, or a notification); Preferences › Apps in agent-chat
// takes the answer back. docs/desktop-service.md has the whole story.
//
// Against the build tree (see examples/README.md):
//
//   meson devenv -C _build --workdir . gjs -m examples/gjs/desktop-assistant.js
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import Agent from 'gi://Agent?version=1.0';
import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import System from 'system';

Gio._promisify(Agent.Session.prototype, 'send_async', 'send_finish');
Gio._promisify(Agent.Provider.prototype, 'list_models_async', 'list_models_finish');

// What the editor has open
const DOCUMENT = `Meeting notes, 3 March

- The release moves to 14 March: the translations are late.
- Ana writes the announcement; Tom checks the screenshots.
- Next meeting: 10 March, 10:00.
`;

// The tool runs here, in the application, not in the service: the model
// asks for it, and the application decides what to give.
const openDocument = {
    name: 'open_document',
    description: 'Returns the text of the document open in the editor',
    parameters: {type: 'object', properties: {}},
    execute: () => DOCUMENT,
};

const USAGE = 'Usage: desktop-assistant.js [--profile NAME] [--list-profiles] [PROMPT]';

function parseArguments(argv) {
    const options = {
        profile: '', listProfiles: false, prompt: 'Summarize my open document in one sentence.',
    };
    for (let i = 0; i < argv.length; i++) {
        const [flag, inline] = argv[i].split(/=(.*)/s);
        if (flag === '--profile')
            options.profile = inline ?? argv[++i];
        else if (flag === '--list-profiles')
            options.listProfiles = true;
        else if (argv[i].startsWith('--'))
            throw new Error(USAGE);
        else
            options.prompt = argv[i];
    }
    return options;
}

async function main(argv) {
    if (argv.includes('--help')) {
        print(USAGE);
        return;
    }
    const options = parseArguments(argv);
    // No base URL, no key: the service has them, and never hands them out
    const provider = Agent.Provider.new('desktop');
    provider.set_model(options.profile);

    if (options.listProfiles) {
        for (const name of await provider.list_models_async(null))
            print(name);
        return;
    }

    const session = Agent.Session.new(provider);
    session.add_tool(openDocument);
    session.connect('text-delta', (_session, _message, delta) => Agent.write(delta));
    session.connect('tool-started', (_session, call) =>
        printerr(`[${call.get_name()} ${call.get_arguments()}]`));

    const cancellable = new Gio.Cancellable();
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, 2 /* SIGINT */, () => {
        cancellable.cancel();
        return GLib.SOURCE_CONTINUE;
    });

    await session.send_async(options.prompt, cancellable);
    print();
}

const loop = new GLib.MainLoop(null, false);
let status = 0;
main(System.programArgs).catch(error => {
    printerr(`\nerror: ${error.message}`);
    status = 1;
}).finally(() => loop.quit());
loop.run();
System.exit(status);
