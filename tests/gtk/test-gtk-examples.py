#!/usr/bin/python3
# test-gtk-examples.py: the examples that embed libagent-gtk in a host's
# window (examples/c/chat-window.c, examples/python/chat_window.py,
# examples/gjs/chat-window.js), each run for real under Xvfb against a
# scripted server (tests/python/agenttest.py's, on 127.0.0.1), its window
# read through the accessibility tree: the model is told about the host's
# note, calls the calculator (a tool card shows), and its answer streams in
# and shows, Markdown rendered.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'gui-common'))
sys.path.insert(0, os.path.join(HERE, '..', 'python'))
import pyatspi  # noqa: E402
from gi.repository import GLib  # noqa: E402
from agenttest import ScriptedServer, text_stream, tool_call_stream  # noqa: E402
from agenttestgui import all_nodes, app_env, finish, results, tap, wait_for  # noqa: E402

TITLE = 'Note with a Chat'
PROMPT = 'What does my list cost?'
EXPRESSION = '3*0.40+2*2.10+4.50'


def example_command(language):
    program = os.environ['AGENT_EXAMPLE_' + language.upper()]
    return {
        'c': [program],
        'python': ['/usr/bin/python3', program],
        'gjs': [os.environ.get('AGENT_GJS', 'gjs'), '-m', program],
    }[language]


def find_example():
    """The application whose window is the example's."""
    desktop = pyatspi.Registry.getDesktop(0)
    for i in range(desktop.childCount):
        app = desktop.getChildAtIndex(i)
        if app is None:
            continue
        for j in range(app.childCount):
            window = app.getChildAtIndex(j)
            if window is not None and window.name == TITLE:
                return app
    return None


def names(app):
    """The names in @app's accessibility tree; none while it changes under
    the walk (a node gone meanwhile), to be read again"""
    try:
        return [n.name for n in all_nodes(app) if n.name]
    except GLib.Error:
        return []


def run_example(language):
    answer = ('Your list costs ', '**9.90**', ' in all.')
    shown = 'Your list costs 9.90 in all.'
    env = app_env()
    env['OPENAI_API_KEY'] = 'sk-example-key'
    with ScriptedServer(tool_call_stream(('call_1', 'calculator', {'expression': EXPRESSION})),
                        text_stream(*answer), delay=0.05) as server:
        process = subprocess.Popen(example_command(language) + [
            '--base-url', server.url, '--model', 'scripted', PROMPT], env=env)
        try:
            app = wait_for(find_example, 60)
            tap(app is not None, '%s: the host window shows' % language)
            if app is None:
                return
            card = wait_for(lambda: 'Tool call: calculator' in names(app), 30)
            tap(card, '%s: the tool call shows as a card' % language)
            streamed = wait_for(lambda: shown in names(app), 30)
            tap(streamed, '%s: the streamed answer shows, Markdown rendered' % language)
            done = wait_for(lambda: 'Send' in names(app) and 'Stop' not in names(app), 30)
            tap(done, '%s: Stop turns back into Send once the turn is over' % language)

            first = server.requests[0]['body'] if server.requests else {}
            system = [m['content'] for m in first.get('messages', []) if m['role'] == 'system']
            tap(len(system) == 1 and '3 apples at 0.40' in system[0] and
                first['messages'][-1]['content'] == PROMPT,
                "%s: the model is told about the host's note, then asked" % language)
            result = server.tool_message(1, 'call_1')['content'] if len(server.requests) > 1 \
                else None
            tap(result is not None and '9.9' in result,
                '%s: the calculator ran: %r' % (language, result))
        finally:
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)


def main():
    languages = ['c', 'python', 'gjs']
    print('1..%d' % (6 * len(languages)), flush=True)
    for language in languages:
        before = len(results)
        run_example(language)
        # A window that never showed: its other checks fail too
        missing = 6 - (len(results) - before)
        for _ in range(missing):
            tap(False, '%s: not reached' % language)
    return finish(6 * len(languages))


if __name__ == '__main__':
    sys.exit(main())
