#!/usr/bin/python3
# desktop_assistant.py — an application that uses the models the user set
# up once, through the desktop assistant service, with no key or server of
# its own: an editor that asks for a summary of its open document, which
# the model reads by calling the editor's own tool
#
#   desktop_assistant.py [--profile NAME] [--list-profiles] [PROMPT]
#
# The first time, the user is asked whether this program may use their
# models (agent-chat, or a notification); Preferences › Apps in agent-chat
# takes the answer back. docs/desktop-service.md has the whole story.
#
# Against the build tree (see examples/README.md):
#
#   meson devenv -C _build --workdir . /usr/bin/python3 examples/python/desktop_assistant.py
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import argparse
import signal
import sys

import gi

gi.require_version('Agent', '1.0')
from gi.repository import Agent, Gio, GLib  # noqa: E402

# What the editor has open
DOCUMENT = '''Meeting notes, 3 March

- The release moves to 14 March: the translations are late.
- Ana writes the announcement; Tom checks the screenshots.
- Next meeting: 10 March, 10:00.
'''


@Agent.tool
def open_document() -> str:
    """Returns the text of the document open in the editor

    The tool runs here, in the application, not in the service: the model
    asks for it, and the application decides what to give.
    """
    return DOCUMENT


def main():
    parser = argparse.ArgumentParser(
        description="Asks the user's own model, through the desktop assistant service.")
    parser.add_argument('--profile', default='',
                        help="the user's profile to use (default: the user's default)")
    parser.add_argument('--list-profiles', action='store_true',
                        help="list the user's profiles and exit")
    parser.add_argument('prompt', nargs='?', default='Summarize my open document in one sentence.')
    args = parser.parse_args()

    # No base URL, no key: the service has them, and never hands them out
    provider = Agent.Provider.new('desktop')
    provider.set_model(args.profile)
    loop = GLib.MainLoop()
    status = 0

    def listed(provider, result):
        nonlocal status
        try:
            for name in provider.list_models_finish(result):
                print(name)
        except GLib.Error as error:
            print(f'error: {error.message}', file=sys.stderr)
            status = 1
        loop.quit()

    if args.list_profiles:
        provider.list_models_async(None, listed)
        loop.run()
        return status

    session = Agent.Session.new(provider)
    session.add_tool(open_document)
    session.connect('text-delta',
                    lambda _session, _message, delta: print(delta, end='', flush=True))
    session.connect('tool-started', lambda _session, call: print(
        f'[{call.get_name()} {call.get_arguments()}]', file=sys.stderr))

    cancellable = Gio.Cancellable()
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGINT, lambda: cancellable.cancel() or True)

    def done(session, result):
        nonlocal status
        try:
            session.send_finish(result)
            print()
        except GLib.Error as error:
            print(f'\nerror: {error.message}', file=sys.stderr)
            status = 1
        loop.quit()

    session.send_async(args.prompt, cancellable, done)
    loop.run()
    return status


if __name__ == '__main__':
    sys.exit(main())
