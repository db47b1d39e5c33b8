#!/usr/bin/env -S gjs -m
// chat-window.js — libagent-gtk embedded in a host application's window:
// its own text (a note in a text view) and, beside it, a chat about that
// text, streaming, with tool cards, Markdown and Stop.
//
//   gjs -m chat-window.js [--provider NAME] [--base-url URL] [--model NAME] [PROMPT]
//
// The key comes from the provider's usual environment variable
// (OPENAI_API_KEY…). PROMPT, if given, is sent at once.
//
// Against the build tree (see examples/README.md):
//
//   meson devenv -C _build --workdir . gjs -m examples/gjs/chat-window.js
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import Agent from 'gi://Agent?version=1.0';
import AgentGtk from 'gi://AgentGtk?version=1.0';
import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import Gtk from 'gi://Gtk?version=4.0';
import System from 'system';

const NOTE = 'Shopping list: 3 apples at 0.40 each, 2 loaves of bread at 2.10 each, ' +
    '1 jar of honey at 4.50.';

function parseArguments(argv) {
    const options = {provider: 'openai', baseUrl: null, model: null, prompt: null};
    const names = {'--provider': 'provider', '--base-url': 'baseUrl', '--model': 'model'};
    for (let i = 0; i < argv.length; i++) {
        const [flag, inline] = argv[i].split(/=(.*)/s);
        if (flag in names)
            options[names[flag]] = inline ?? argv[++i];
        else
            options.prompt = argv[i];
    }
    return options;
}

function onActivate(app, options) {
    // The session: the host's choice of provider, key and tools
    const provider = Agent.Provider.new(options.provider);
    if (options.baseUrl)
        provider.set_base_url(options.baseUrl);
    if (options.model)
        provider.set_model(options.model);
    const key = GLib.getenv(provider.get_api_key_variable() ?? '');
    if (key)
        provider.set_api_key(key);
    const session = Agent.Session.new(provider);
    session.add_tool(Agent.calculator_tool_new());

    // The host's own text
    const editor = new Gtk.TextView({wrap_mode: Gtk.WrapMode.WORD_CHAR});
    editor.buffer.set_text(NOTE, -1);

    // The chat: the conversation and, under it, the composer with Stop
    const composer = new AgentGtk.Composer();
    const view = new AgentGtk.ChatView({session, composer, vexpand: true});
    view.connect('prepare-turn', () => {
        // Before each turn: the model is told about the note, as it is now
        const [start, end] = editor.buffer.get_bounds();
        const text = editor.buffer.get_text(start, end, false);
        view.session.set_system_prompt(`The user is editing this note:\n\n${text}`);
        return false; // the turn may start
    });
    const chat = new Gtk.Box({orientation: Gtk.Orientation.VERTICAL});
    chat.append(view);
    chat.append(composer);

    const paned = new Gtk.Paned({start_child: editor, end_child: chat, position: 280});
    const window = new Gtk.ApplicationWindow({
        application: app, title: 'Note with a Chat', default_width: 760, default_height: 520,
        child: paned,
    });
    window.present();
    if (options.prompt)
        view.send(options.prompt);
    else
        composer.grab_focus();
}

const options = parseArguments(System.programArgs);
const app = new Gtk.Application({
    application_id: 'io.github.libagent.examples.ChatWindowJs',
    flags: Gio.ApplicationFlags.NON_UNIQUE,
});
app.connect('activate', () => onActivate(app, options));
System.exit(app.run([System.programInvocationName]));
