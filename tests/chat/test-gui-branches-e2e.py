#!/usr/bin/python3
# test-gui-branches-e2e.py: the "‹ 2 / 3 ›" of agent-chat's messages, in
# the real app against a scripted server, by real input (xdotool) at the
# positions the accessibility tree (AT-SPI) gives: Regenerate an answer
# by a click on its button, "Answer 2 of 2"; Previous by the pointer
# brings the first answer back, Next and Alt+Left by the keys; the branch
# chosen is the one the app reopens on; an edited question's Undo
# switches back to the version it replaced, the edit one click away. At
# 760 px in the light style and 360 px in the dark one (style_runs()).
# Runs under dbus-run-session and xvfb-run.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sys

import pyatspi

# This folder's helpers, and agenttestgui.py, shared with tests/gtk
sys.path[:0] = [os.path.dirname(os.path.abspath(__file__)),
                os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'gui-common')]
from agenttestgui import (App, FocusTracker, all_nodes, click_at, focused, point_at,  # noqa: E402
                          run_test, screenshot, send, shows, showing, style_runs, tap,
                          text_of, turn_over, walking, xdotool)
from scriptedserver import ScriptedServer  # noqa: E402

STEPS = 8


def showing_button(app, name):
    """The push button called @name that shows, or None."""
    return walking(lambda: next((n for n in all_nodes(app) if n.name == name and
                                 n.getRole() == pyatspi.ROLE_PUSH_BUTTON and showing(n)),
                                None))


def showing_text(app, text):
    """The node that shows @text as its name, or None."""
    return walking(lambda: next((n for n in all_nodes(app) if n.name == text and showing(n)),
                                None))


def press_button(focus, app, over, name):
    """Puts the pointer on the node named @over (its row's actions show),
    then clicks the button called @name. Returns whether it was there."""
    node = focus.wait(lambda: showing_text(app, over), 10)
    if node is not None:
        point_at(node)
        focus.pump(0.5)
    button = focus.wait(lambda: showing_button(app, name), 10)
    if button is None:
        return False
    click_at(button)
    return True


def message_field(app):
    """The text of the message field, or None."""
    field = walking(lambda: next((n for n in all_nodes(app)
                                  if n.getRole() == pyatspi.ROLE_TEXT and
                                  n.name in ("Message", "Edited Message")), None))
    return text_of(field) if field is not None else None


def shows_only(app, present, absent):
    return shows(app, present) and not shows(app, absent) and turn_over(app)


def check(home, server, focus, width, dark):
    style = "%d%s" % (width, "-dark" if dark else "")
    results = []

    def step(ok, name):
        results.append(ok)
        tap(ok, "%s (%s)" % (name, style))

    chat = App(home, server.url, "scripted", "window-width=%d\nwindow-height=700\n" % width)
    if dark:
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
            step(False, "the app starts")
            return results
        server.add_text("First answer.")
        send("Which city?")
        first = focus.wait(lambda: shows(app, "First answer.") and turn_over(app), 30)
        step(bool(first) and not shows(app, "Answer 1 of"), "an answer, without arrows")

        # Regenerate, by a click on its button
        server.add_text("Second answer.")
        clicked = press_button(focus, app, "First answer.", "Regenerate Answer")
        second = focus.wait(lambda: shows_only(app, "Second answer.", "First answer.") and
                            shows(app, "Answer 2 of 2"), 30)
        screenshot("branches-%s-2-of-2" % style)
        step(clicked and bool(second) and showing_button(app, "Previous answer") is not None,
             "Regenerate makes a second answer, “2 / 2”, with Previous")

        # Previous, by the pointer
        previous = showing_button(app, "Previous answer")
        if previous is not None:
            click_at(previous)
        back = focus.wait(lambda: shows_only(app, "First answer.", "Second answer.") and
                          shows(app, "Answer 1 of 2"), 10)
        focus.pump(0.5)
        screenshot("branches-%s-1-of-2" % style)
        step(previous is not None and bool(back), "Previous brings the first answer back")

        # Next, by the keys: the keyboard stayed on the arrows
        where = focused(app)
        if where == [("push button", "Next answer")]:
            xdotool("key", "space")
        again = focus.wait(lambda: shows_only(app, "Second answer.", "First answer.") and
                           shows(app, "Answer 2 of 2"), 10)
        step(bool(again), "the keyboard on Next (%r), Space shows the second answer" % (where,))

        # Alt+Left, the focus in the answer's row
        focus.pump(0.3)
        xdotool("key", "alt+Left")
        left = focus.wait(lambda: shows_only(app, "First answer.", "Second answer.") and
                          shows(app, "Answer 1 of 2"), 10)
        step(bool(left), "Alt+Left goes back to the first answer")

        # The branch chosen is the one that reopens
        chat.quit()
        app = chat.start()
        reopened = app is not None and focus.wait(
            lambda: shows_only(app, "First answer.", "Second answer.") and
            shows(app, "Answer 1 of 2"), 20)
        step(bool(reopened), "restarted: the first answer, “1 / 2”")
        if app is None:
            return results

        # Edit and Resend makes a second version of the question
        server.add_text("Edited answer.")
        edit = press_button(focus, app, "Which city?", "Edit and Resend")
        focus.wait(lambda: shows(app, "Editing Message"), 10)
        xdotool("key", "ctrl+a")
        xdotool("type", "--delay", "20", "Which town?")
        xdotool("key", "Return")
        # The pointer goes to rest on the toast as soon as it shows, which
        # keeps it (libadwaita's toasts go after 5 s otherwise)
        undo = focus.wait(lambda: showing_button(app, "Undo"), 10)
        if undo is not None:
            point_at(undo)
        edited = focus.wait(lambda: shows_only(app, "Edited answer.", "First answer.") and
                            shows(app, "Version 2 of 2"), 30)
        screenshot("branches-%s-edited" % style)
        step(edit and bool(edited), "the edited question is a second version, “2 / 2”")

        # Undo: back to the first version, the edit in the message field
        undo = focus.wait(lambda: showing_button(app, "Undo"), 10)
        if undo is not None:
            click_at(undo)
        undone = focus.wait(lambda: shows_only(app, "First answer.", "Edited answer.") and
                            shows(app, "Version 1 of 2"), 10)
        kept = focus.wait(lambda: message_field(app) == "Which town?" and "Which town?", 10)
        step(undo is not None and bool(undone) and bool(kept),
             "Undo (%s) switches back to the first version (%s); the edit is in the field (%r)"
             % ("clicked" if undo else "not found", bool(undone), message_field(app)))
        return results
    finally:
        chat.kill()


def main(home):
    server = ScriptedServer()
    focus = FocusTracker()
    try:
        for i, (width, dark) in enumerate(style_runs()):
            results = check(os.path.join(home, "run%d" % i), server, focus, width, dark)
            for _ in range(STEPS - len(results)):
                tap(False, "not reached (%d px)" % width)
    finally:
        server.close()


run_test("test-gui-branches-", STEPS * len(style_runs()), main)
