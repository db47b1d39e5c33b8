#!/usr/bin/python3
# test-gui-actions-e2e.py: an answer's actions (Copy Message, Regenerate
# Answer, and how the answer was made) show under the pointer below the
# answer's text, not over its last lines: at 360 px, where the answer
# wraps to several lines, and at 800 px; in the dark style. The pointer is
# put on the answer (xdotool) and the positions are read from the
# accessibility tree (AT-SPI). Against a scripted server, under
# dbus-run-session and xvfb-run.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sys

import pyatspi

# This folder's helpers, and agenttestgui.py, shared with tests/gtk
sys.path[:0] = [os.path.dirname(os.path.abspath(__file__)),
                os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'gui-common')]
from agenttestgui import (App, FocusTracker, all_nodes, extents, point_at, run_test,  # noqa: E402
                          screenshot, send, shows, showing, tap, turn_over, walking, xdotool)
from scriptedserver import ScriptedServer  # noqa: E402

N_TESTS = 4

ANSWER = ("Paris, Lyon and Nice: one day each. " * 4).strip()


def answer_text(app):
    """The label that shows the answer's text."""
    return walking(lambda: next((n for n in all_nodes(app) if n.getRole() == pyatspi.ROLE_LABEL and
                                 (n.name or "").startswith("Paris, Lyon")), None))


def actions_of(app, text):
    """The answer's Copy Message and Regenerate Answer buttons, as (name,
    extents): those that do not end above the answer's text (the user's
    Copy Message is beside the question, above)."""
    where = extents(text)

    def walk():
        return [(n.name, extents(n)) for n in all_nodes(app)
                if n.getRole() == pyatspi.ROLE_PUSH_BUTTON and
                n.name in ("Copy Message", "Regenerate Answer") and showing(n) and
                extents(n)[1] + extents(n)[3] > where[1]]
    return walking(walk) or []


def below(text, actions):
    """Whether every action lies wholly below the text (no row of pixels
    shared), and both are there."""
    where = extents(text)
    return (where is not None and sorted(name for name, _ in actions) ==
            ["Copy Message", "Regenerate Answer"] and
            all(box[1] >= where[1] + where[3] for _, box in actions))


def check(home, server, focus, width):
    chat = App(home, server.url, "scripted", "window-width=%d\nwindow-height=700\n" % width)
    chat.env["ADW_DEBUG_COLOR_SCHEME"] = "prefer-dark"
    # GNOME's window buttons, Close alone: with three the header bar keeps
    # the window wider than 360 px
    gtk = os.path.join(home, "config", "gtk-4.0")
    os.makedirs(gtk, exist_ok=True)
    with open(os.path.join(gtk, "settings.ini"), "w") as settings:
        settings.write("[Settings]\ngtk-decoration-layout=appmenu:close\n")
    try:
        app = chat.start()
        if app is None:
            tap(False, "the app starts at %d px" % width)
            tap(False, "the actions lie below the answer at %d px" % width)
            return
        xdotool("key", "ctrl+n")
        server.add_text(ANSWER)
        send("Plan three days in France")
        done = focus.wait(lambda: shows(app, "one day each. Paris") and turn_over(app), 30)
        text = focus.wait(lambda: answer_text(app), 10)
        tap(done and text is not None, "the answer shows at %d px" % width)
        if text is None:
            tap(False, "the actions lie below the answer at %d px" % width)
            return
        # The pointer on the answer's first line: its actions and caption show
        point_at(text, 0, -extents(text)[3] // 2 + 4)
        shown = focus.wait(lambda: any(" · " in (n.name or "") and showing(n)
                                       for n in walking(lambda: list(all_nodes(app))) or []), 10)
        ok = focus.wait(lambda: below(text, actions_of(app, text)), 10)
        screenshot("actions-%d" % width)
        tap(shown and ok, "at %d px (the window %d px), under the pointer, the actions lie "
            "below the answer's %d-px-high text at %r: %r" %
            (width, extents(app.getChildAtIndex(0))[2], extents(text)[3], extents(text),
             actions_of(app, text)))
    finally:
        chat.kill()


def main(home):
    server = ScriptedServer()
    focus = FocusTracker()
    try:
        check(os.path.join(home, "narrow"), server, focus, 360)
        check(os.path.join(home, "wide"), server, focus, 800)
    finally:
        server.close()


run_test("test-gui-actions-", N_TESTS, main)
