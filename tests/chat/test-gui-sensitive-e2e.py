#!/usr/bin/python3
# test-gui-sensitive-e2e.py: no dead controls in the real agent-chat. In
# each of its usual states — an empty chat, an answer streaming (scrolled
# up, Jump to Bottom showing), after the answer, a file attached, a narrow
# window of 360 pixels (the chat, then the sidebar) and Preferences open —
# the accessibility tree (AT-SPI) is walked, and every button a person can
# see must be sensitive, unless it says why it is not (a description: its
# tooltip). Against a scripted server, the keyboard and the pointer driven
# by xdotool; under dbus-run-session and xvfb-run (800×700).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import re
import sys

import pyatspi

# This folder's helpers, and agenttestgui.py, shared with tests/gtk
sys.path[:0] = [os.path.dirname(os.path.abspath(__file__)),
                os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'gui-common')]
from agenttestgui import (WINDOW_SIZE, App, FocusTracker, buttons_shown, choose_file,  # noqa: E402
                          click_at, find_node, focus_mapped, names, run_test, screenshot, send,
                          shows, showing, tap, turn_over, walking, wheel, x_window, xdotool)
from scriptedserver import ScriptedServer  # noqa: E402

N_TESTS = 7

STORY = "\n\n".join("Part %d of the story, which goes on for a while." % i for i in range(1, 61))


def main_window(app):
    return walking(lambda: next(n for n in app if n.getRole() == pyatspi.ROLE_FRAME and
                                find_node(n, "Conversation", pyatspi.ROLE_LIST)))


def check(app, what, expected, node=None):
    """Every button of the window @node (the main one by default) that
    shows is sensitive, or says why not (a description other than its
    name: the tooltip of a button meant to be disabled); the buttons named
    in @expected show (the walk saw them)."""
    node = node if node is not None else main_window(app)
    shown = buttons_shown(node) if node is not None else None
    screenshot("sensitive-" + re.sub(r"\W+", "-", what))
    if shown is None:
        tap(False, "%s: the tree could be walked" % what)
        return
    dead = ["%r" % name for name, sensitive, description in shown
            if not sensitive and (not description or description == name)]
    missing = [name for name in expected if name not in [n for n, _, _ in shown]]
    print("# %s: %d buttons shown" % (what, len(shown)), flush=True)
    tap(not dead and not missing, "%s: every button shown is sensitive (%s)" %
        (what, "insensitive: " + ", ".join(dead) if dead else
         "not shown: " + ", ".join(missing) if missing else "ok"))


def main(home):
    notes = os.path.join(home, "notes.txt")
    with open(notes, "w") as f:
        f.write("Day 1: Paris\n")
    server = ScriptedServer()
    chat = App(home, server.url, "scripted", WINDOW_SIZE)
    focus = FocusTracker()
    try:
        app = chat.start()
        if app is None:
            tap(False, "the app starts")
            return
        check(app, "an empty chat", ["Send", "Attach Files", "New Chat", "Main Menu"])

        # Streaming, scrolled up: Jump to Bottom shows
        story = server.add_text(STORY, pause_after=300)
        send("Tell me a long story")
        focus.wait(lambda: shows(app, "Part 30 of the story, which goes on for a while."), 30)
        view = find_node(app, "Conversation", pyatspi.ROLE_LIST)
        wheel(view, 4, 6)
        focus.wait(lambda: showing(find_node(app, "Jump to Bottom")), 5)
        check(app, "an answer streaming, scrolled up", ["Stop", "Attach Files", "Jump to Bottom"])
        story.release()
        focus.wait(lambda: shows(app, "Part 60 of the story, which goes on for a while.") and
                   turn_over(app), 30)
        check(app, "after the answer", ["Send", "Attach Files", "Copy Message"])

        # A file attached, through the file chooser (Ctrl+O)
        xdotool("key", "ctrl+o")
        choose_file(focus, notes)
        focus.wait(lambda: "Remove notes.txt" in names(app), 15)
        check(app, "a file attached", ["Send", "Remove notes.txt"])

        # Preferences
        focus_mapped()
        xdotool("key", "ctrl+comma")
        preferences = focus.wait(lambda: walking(lambda: next(
            (n for n in app if n.name == "Preferences"), None)), 10)
        if preferences is not None:
            check(app, "Preferences", ["Models of This Server"], preferences)
        else:
            tap(False, "Preferences: it opens")
        xdotool("key", "Escape")
        focus.wait(lambda: walking(lambda: next((n for n in app if n.name == "Preferences"),
                                                None)) is None, 10)

        # Narrow: the chat, then the sidebar
        window = x_window("Agent Chat|scripted")
        if window is not None:
            xdotool("windowsize", window, "360", "660")
        back = focus.wait(lambda: showing(find_node(app, "Conversations",
                                                    pyatspi.ROLE_PUSH_BUTTON)), 10)
        check(app, "360 pixels wide, the chat", ["Send", "Conversations"])
        if back:
            click_at(find_node(app, "Conversations", pyatspi.ROLE_PUSH_BUTTON))
        focus.wait(lambda: showing(find_node(app, "Search Conversations")), 10)
        check(app, "360 pixels wide, the sidebar", ["New Chat"])
    finally:
        chat.kill()
        server.close()


run_test("test-gui-sensitive-", N_TESTS, main)
