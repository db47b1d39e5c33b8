#!/usr/bin/python3
# test-gui-popovers-e2e.py: every popover of the real agent-chat closes on
# Escape and gives the keyboard back where it was: the model picker (with
# and without a search typed; and Ctrl+, while it is open opens
# Preferences), the main menu, a message's context menu, a conversation's
# menu in the sidebar, the message field's context menu and its emoji
# chooser, and the model list of Preferences. Each is opened as a person
# opens it (a click, a right click, the keys), by xdotool; what is open and
# where the focus is are read through the accessibility tree (AT-SPI).
# Against a scripted server, under dbus-run-session and xvfb-run (800×700).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import re
import sys

import pyatspi

# This folder's helpers, and agenttestgui.py, shared with tests/gtk
sys.path[:0] = [os.path.dirname(os.path.abspath(__file__)),
                os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'gui-common')]
from agenttestgui import (WINDOW_SIZE, App, FocusTracker, all_nodes, click_at,  # noqa: E402
                          extents, find_node, focus_mapped, focused, menu_items, run_test,
                          screenshot, send, shows, showing, tap, turn_over, walking, xdotool)
from scriptedserver import ScriptedServer  # noqa: E402

N_TESTS = 9


def present(app, name, role=None):
    """Whether a node called @name (with @role) shows."""
    return showing(find_node(app, name, role))


def window_named(app, name):
    return walking(lambda: next((n for n in app if n.name == name), None))


def right_click(node):
    x, y, width, height = extents(node)
    xdotool("mousemove", str(x + width // 2), str(y + height // 2), "click", "3")


class Popover:
    """Checks that a popover opened by @opening closes on Escape, the
    focus back where it was (or on the control that opened it: one of
    @openers)."""

    def __init__(self, focus, app):
        self.focus = focus
        self.app = app

    def check(self, what, opening, is_open, openers=(), keys=None, window=None):
        focus = self.focus
        app = window if window is not None else self.app
        if window is None:
            # From the message field, where the keyboard usually is (with no
            # window manager, the window is given the keyboard first)
            focus_mapped()
            click_at(find_node(app, "Message", pyatspi.ROLE_TEXT))
            focus.wait(lambda: focused(app) == [("text", "Message")], 5)
        before = focused(app)
        focus.moves.clear()
        opening()
        opened = focus.wait(is_open, 10)
        print("# focus moves: %r" % focus.moves, flush=True)
        if keys:
            xdotool("type", "--delay", "40", keys)
            focus.pump(0.5)
        screenshot("popover-" + re.sub(r"\W+", "-", what))
        xdotool("key", "Escape")
        closed = focus.wait(lambda: not is_open(), 5)

        def returned():
            now = focused(app)
            return now if now and (now == before or (len(now) == 1 and now[0] in openers)) \
                else None
        focus.moves.clear()
        back = focus.wait(returned, 5)
        after = focused(app)
        print("# focus moves: %r" % focus.moves, flush=True)
        screenshot("popover-" + re.sub(r"\W+", "-", what) + "-closed")
        tap(opened and closed and back, "%s: Escape closes it (%s), the focus back (%r → %r)"
            % (what, "opened" if opened else "did not open", before, after))
        return opened and closed and back


def main(home):
    server = ScriptedServer()
    server.models = ["scripted", "other-model", "third-model"]
    chat = App(home, server.url, "scripted", WINDOW_SIZE)
    focus = FocusTracker()
    try:
        app = chat.start()
        if app is None:
            tap(False, "the app starts")
            return
        server.add_text("Paris, Lyon and Nice.")
        send("Plan three days in France")
        focus.wait(lambda: shows(app, "Paris, Lyon and Nice.") and turn_over(app), 30)
        popover = Popover(focus, app)
        picker = find_node(app, "Choose Model")

        def picker_open():
            return present(app, "Search Models")

        # The model picker: with nothing typed, and with a search typed
        popover.check("the model picker", lambda: click_at(picker), picker_open,
                      [("push button", "Choose Model")])
        popover.check("the model picker, a search typed", lambda: click_at(picker), picker_open,
                      [("push button", "Choose Model")], keys="oth")

        # The main menu
        menu_button = find_node(app, "Main Menu")
        popover.check("the main menu", lambda: click_at(menu_button),
                      lambda: "Preferences" in menu_items(app), [("push button", "Main Menu")])

        # A message's context menu, by a right click
        question = find_node(find_node(app, "Conversation", pyatspi.ROLE_LIST),
                             "Plan three days in France", pyatspi.ROLE_LABEL)
        popover.check("a message's context menu", lambda: right_click(question),
                      lambda: "Edit and Resend" in menu_items(app), [("panel", "Your message")])

        # A conversation's menu in the sidebar
        row_menu = find_node(app, "Conversation Menu", pyatspi.ROLE_PUSH_BUTTON) or \
            find_node(app, "Conversation Menu")
        popover.check("a conversation's menu", lambda: click_at(row_menu),
                      lambda: "Delete" in menu_items(app),
                      [("push button", "Conversation Menu"),
                       ("list item", "Plan three days in France")])

        # The message field's context menu, and its emoji chooser
        message = find_node(app, "Message", pyatspi.ROLE_TEXT)
        popover.check("the message field's context menu", lambda: right_click(message),
                      lambda: "Paste" in menu_items(app) or "Insert Emoji" in menu_items(app))
        popover.check("the emoji chooser", lambda: xdotool("key", "ctrl+period"),
                      lambda: present(app, "Smileys & People") or
                      any(n.name == "Smileys & People" for n in all_nodes(app)))

        # Ctrl+, while the model picker is open: Preferences
        focus_mapped()
        click_at(picker)
        focus.wait(picker_open, 10)
        xdotool("key", "ctrl+comma")
        preferences = focus.wait(lambda: window_named(app, "Preferences"), 10)
        closed = focus.wait(lambda: not picker_open(), 5)
        screenshot("popover-picker-preferences")
        tap(preferences is not None and closed,
            "Ctrl+, while the model picker is open opens Preferences")

        # Preferences' own list of models
        models = find_node(preferences, "Models of This Server") if preferences else None
        popover.check("Preferences' list of models",
                      lambda: click_at(models) if models else None,
                      lambda: present(preferences, "Models", pyatspi.ROLE_LIST),
                      [("push button", "Models of This Server")], window=preferences)
        xdotool("key", "Escape")
        focus.wait(lambda: window_named(app, "Preferences") is None, 10)
    finally:
        chat.kill()
        server.close()


run_test("test-gui-popovers-", N_TESTS, main)
