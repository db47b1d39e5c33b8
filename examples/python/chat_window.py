#!/usr/bin/python3
# chat_window.py — libagent-gtk embedded in a host application's window:
# its own text (a note in a text view) and, beside it, a chat about that
# text, streaming, with tool cards, Markdown and Stop.
#
#   chat_window.py [--provider NAME] [--base-url URL] [--model NAME] [PROMPT]
#
# The key comes from the provider's usual environment variable
# (OPENAI_API_KEY…). PROMPT, if given, is sent at once.
#
# Against the build tree (see examples/README.md):
#
#   meson devenv -C _build --workdir . /usr/bin/python3 examples/python/chat_window.py
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import argparse
import os
import sys

import gi

gi.require_version('Gtk', '4.0')
gi.require_version('Agent', '1.0')
gi.require_version('AgentGtk', '1.0')
from gi.repository import Agent, AgentGtk, Gio, Gtk  # noqa: E402

NOTE = ('Shopping list: 3 apples at 0.40 each, 2 loaves of bread at 2.10 each, '
        '1 jar of honey at 4.50.')


def on_activate(app, args):
    # The session: the host's choice of provider, key and tools
    provider = Agent.Provider.new(args.provider)
    if args.base_url:
        provider.set_base_url(args.base_url)
    if args.model:
        provider.set_model(args.model)
    key = os.environ.get(provider.get_api_key_variable() or '')
    if key:
        provider.set_api_key(key)
    session = Agent.Session.new(provider)
    session.add_tool(Agent.calculator_tool_new())

    # The host's own text
    editor = Gtk.TextView(wrap_mode=Gtk.WrapMode.WORD_CHAR)
    editor.get_buffer().set_text(NOTE)

    # The chat: the conversation and, under it, the composer with Stop
    composer = AgentGtk.Composer()
    view = AgentGtk.ChatView(session=session, composer=composer, vexpand=True)

    def on_prepare_turn(view):
        # Before each turn: the model is told about the note, as it is now
        buffer = editor.get_buffer()
        text = buffer.get_text(buffer.get_start_iter(), buffer.get_end_iter(), False)
        view.get_session().set_system_prompt('The user is editing this note:\n\n' + text)
        return False  # the turn may start

    view.connect('prepare-turn', on_prepare_turn)
    chat = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
    chat.append(view)
    chat.append(composer)

    paned = Gtk.Paned(start_child=editor, end_child=chat, position=280)
    window = Gtk.ApplicationWindow(application=app, title='Note with a Chat',
                                   default_width=760, default_height=520, child=paned)
    window.present()
    if args.prompt:
        view.send(args.prompt)
    else:
        composer.grab_focus()


def main():
    parser = argparse.ArgumentParser(description='A note, and a chat about it.')
    parser.add_argument('--provider', default='openai')
    parser.add_argument('--base-url')
    parser.add_argument('--model')
    parser.add_argument('prompt', nargs='?')
    args = parser.parse_args()

    app = Gtk.Application(application_id='io.github.libagent.examples.ChatWindowPy',
                          flags=Gio.ApplicationFlags.NON_UNIQUE)
    app.connect('activate', on_activate, args)
    return app.run([sys.argv[0]])


if __name__ == '__main__':
    sys.exit(main())
