#!/usr/bin/python3
# test-gui-copy-code-e2e.py: the Copy button of a code block in an answer,
# clicked as a person clicks it: the pointer moved to where the
# accessibility tree (AT-SPI) says the button is, and its first button
# pressed (xdotool). Another program then pastes (clipread.py, reading
# the clipboard as a text editor's Paste does) and gets the code as the
# fence holds it; the button says it was copied (a check mark, "Copied"
# for its tooltip and for a screen reader: its accessible name, seen
# change through the tree's events) and is Copy Code again a moment
# later. Against a scripted server, under dbus-run-session and xvfb-run.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import json
import os
import subprocess
import sys

import pyatspi

# This folder's helpers, and agenttestgui.py, shared with tests/gtk
sys.path[:0] = [os.path.dirname(os.path.abspath(__file__)),
                os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'gui-common')]
from agenttestgui import (WINDOW_SIZE, App, FocusTracker, all_nodes, click_at,  # noqa: E402
                          extents, helper, run_test, screenshot, send, shows, showing, tap,
                          turn_over, walking, xdotool)
from scriptedserver import ScriptedServer  # noqa: E402

N_TESTS = 5

CODE = ("import sys\n"
        "\n"
        "for name in sys.argv[1:]:\n"
        "    print(f\"Hello, {name}!\")  # one greeting a line")
ANSWER = "Here is the script:\n\n```python\n" + CODE + "\n```\n\nRun it with Python 3."


class NameTracker:
    """The accessible names the nodes took, as the tree's events say
    (object:property-change:accessible-name, with the new name): seen even
    when the name changed back before the test looked."""

    def __init__(self):
        self.names = []
        pyatspi.Registry.registerEventListener(self.on_name,
                                               "object:property-change:accessible-name")

    def on_name(self, event):
        if isinstance(event.any_data, str):
            self.names.append(event.any_data)


def copy_buttons(app):
    """The Copy Code buttons that show."""
    return walking(lambda: [n for n in all_nodes(app) if n.getRole() == pyatspi.ROLE_PUSH_BUTTON and
                            n.name == "Copy Code" and showing(n)]) or []


def paste():
    """The text another program pastes now, or None."""
    try:
        out = subprocess.run(helper("clipread.py"), capture_output=True, text=True,
                             timeout=30).stdout
        return json.loads(out.strip() or "null")
    except (subprocess.TimeoutExpired, ValueError):
        return None


def name_of(node):
    return walking(lambda: node.name)


def main(home):
    server = ScriptedServer()
    focus = FocusTracker()
    names = NameTracker()
    chat = App(home, server.url, "scripted", WINDOW_SIZE)
    try:
        app = chat.start()
        if app is None:
            for i in range(N_TESTS):
                tap(False, "the app starts")
            return
        xdotool("key", "ctrl+n")
        server.add_text(ANSWER)
        send("A Python script that greets")
        done = focus.wait(lambda: shows(app, "Run it with Python 3.") and turn_over(app), 30)
        buttons = focus.wait(lambda: copy_buttons(app), 10) or []
        tap(done and len(buttons) == 1,
            "the answer shows with one code block and its Copy Code button: %d" % len(buttons))
        if len(buttons) != 1:
            for i in range(N_TESTS - 1):
                tap(False, "no Copy Code button to click")
            return
        button = buttons[0]

        # Not there before the click
        before = paste()

        # The pointer on the button, and a click
        names.names.clear()
        click_at(button)
        copied = focus.wait(lambda: "Copied" in names.names, 20)
        screenshot("copy-code")
        tap(copied, "clicked, the button says Copied to a screen reader (names seen: %r)"
            % names.names)

        # Another program pastes the code, as the fence holds it
        text = focus.wait(lambda: (lambda t: t if t == CODE else None)(paste()), 20)
        tap(before != CODE and text == CODE,
            "another program pastes the code (before the click: %r; after: %r)"
            % (before, paste() if text is None else text))

        # A moment later the button is Copy Code again, where it was
        again = focus.wait(lambda: name_of(button) == "Copy Code" and "Copied" in names.names and
                           "Copy Code" in names.names[names.names.index("Copied"):], 20)
        tap(again, "then it is Copy Code again: %r" % name_of(button))
        tap(extents(button) is not None and showing(button),
            "the button stays where it was: %r" % (extents(button),))
    finally:
        chat.kill()
        server.close()


run_test("test-gui-copy-code-", N_TESTS, main)
