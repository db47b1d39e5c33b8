#!/usr/bin/env -S gjs -m
// weather.js — a model that can call a get_weather tool written in
// JavaScript, its answer streamed to standard output
//
//   gjs -m weather.js [--provider NAME] [--base-url URL] [--model NAME] [PROMPT]
//
// The API key comes from the provider's usual environment variable
// (OPENAI_API_KEY, ANTHROPIC_API_KEY, …). Ctrl-C cancels the turn.
//
// Against the build tree (see examples/README.md):
//
//   meson devenv -C _build --workdir . gjs -m examples/gjs/weather.js
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import Agent from 'gi://Agent?version=1.0';
import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import System from 'system';

// send_async()/send_finish() as a method that returns a Promise
Gio._promisify(Agent.Session.prototype, 'send_async', 'send_finish');

// The tool: a name, a description for the model, a JSON Schema of its
// arguments, and execute(). A real one would ask a weather service (an
// async function: its Promise is awaited); this one makes the forecast up.
// It returns its result (a string as it is, other values as JSON); an
// exception thrown here becomes the call's error result, which the model
// sees.
const getWeather = {
    name: 'get_weather',
    description: 'Tells the weather in a city',
    parameters: {
        type: 'object',
        properties: {city: {type: 'string', description: 'The city, e.g. Seoul'}},
        required: ['city'],
    },
    execute: ({city}) => `Sunny, 21 °C in ${city} (a made-up forecast)`,
};

const USAGE = 'Usage: weather.js [--provider NAME] [--base-url URL] [--model NAME] [PROMPT]';

function parseArguments(argv) {
    const options = {
        provider: 'openai', baseUrl: null, model: null, prompt: 'What is the weather in Seoul?',
    };
    const names = {'--provider': 'provider', '--base-url': 'baseUrl', '--model': 'model'};
    for (let i = 0; i < argv.length; i++) {
        const [flag, inline] = argv[i].split(/=(.*)/s);
        if (flag in names)
            options[names[flag]] = inline ?? argv[++i];
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
    const provider = Agent.Provider.new(options.provider);
    if (options.baseUrl)
        provider.set_base_url(options.baseUrl);
    if (options.model)
        provider.set_model(options.model);
    const key = GLib.getenv(provider.get_api_key_variable() ?? '');
    if (key)
        provider.set_api_key(key);

    const session = Agent.Session.new(provider);
    session.add_tool(getWeather);
    session.add_tool(Agent.calculator_tool_new());
    // Agent.write() prints the delta as it is (print() would add a newline)
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
