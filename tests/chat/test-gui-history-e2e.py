#!/usr/bin/python3
# test-gui-history-e2e.py: what the real agent-chat keeps showing of the
# turns after them, read through the accessibility tree (AT-SPI), driven by
# the pointer and the keys (xdotool), against a scripted server. A turn
# that compacted the conversation leaves no answer awaited behind it; a
# turn that failed stays failed, with Retry, when the next message is sent
# and after a restart, and its Retry asks the question again; the toast of
# an edit, or of a conversation deleted, never covers the message field, and
# the edit's Undo (reached with the keys) gives the keyboard back to the
# message. Under dbus-run-session and xvfb-run (800×700).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sys

import pyatspi

# This folder's helpers, and agenttestgui.py, shared with tests/gtk
sys.path[:0] = [os.path.dirname(os.path.abspath(__file__)),
                os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'gui-common')]
from agenttestgui import (WINDOW_SIZE, App, FocusTracker, all_nodes, click_at,  # noqa: E402
                          extents, focused, names, point_at, run_test,
                          screenshot, send, shows, showing, state, tap, turn_over, walking, xdotool)
from scriptedserver import ScriptedServer  # noqa: E402

N_TESTS = 9
FAILURE = "The engine broke, on purpose"


def showing_named(app, name, role=None):
    """The nodes called @name (with @role) that show."""
    return walking(lambda: [n for n in all_nodes(app) if n.name == name and
                            (role is None or n.getRole() == role) and showing(n)]) or []


def awaited(app):
    """How many "Waiting for the model…" show."""
    return len(showing_named(app, "Waiting for the model…"))


def overlap(a, b):
    """Whether boxes @a and @b (x, y, width, height) overlap."""
    return a is not None and b is not None and \
        a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def composer_parts(app):
    """The message field, its Send and Attach buttons."""
    parts = []
    for name, role in (("Message", pyatspi.ROLE_TEXT), ("Edited Message", pyatspi.ROLE_TEXT),
                       ("Send", pyatspi.ROLE_PUSH_BUTTON),
                       ("Attach Files", pyatspi.ROLE_PUSH_BUTTON)):
        parts += showing_named(app, name, role)
    return parts


def toast_covers_composer(app, title):
    """(whether the toast called @title shows, whether it covers the
    message field or its buttons)."""
    def walk():
        toast = next((n for n in all_nodes(app) if n.name == title and showing(n)), None)
        if toast is None:
            return (False, False)
        # The toast: the label, and the box it is in with its buttons
        boxes = [extents(toast), extents(toast.parent)]
        return (True, any(overlap(box, extents(part)) for box in boxes
                          for part in composer_parts(app)))
    return walking(walk) or (False, False)


def last_user_text(request):
    for message in reversed((request or {}).get("messages", [])):
        if message.get("role") == "user":
            content = message.get("content")
            return content if isinstance(content, str) else None
    return None


def main(home):
    server = ScriptedServer()
    server.context_windows = {"scripted": 128000}
    # (No title asked of the model: each request gets the answer scripted for it)
    chat = App(home, server.url, "scripted",
               "context-strategy='summarize'\ncontext-keep-turns=uint32 1\n"
               "generate-titles=false\n" + WINDOW_SIZE)
    focus = FocusTracker()
    try:
        app = chat.start()
        if app is None:
            tap(False, "the app starts")
            return

        # A turn past 80 % of the window: the next one is compacted first
        server.add_text("Paris, Lyon and Nice.", usage=(110000, 2000))
        send("Plan three days in France")
        focus.wait(lambda: shows(app, "Paris, Lyon and Nice.") and turn_over(app), 30)
        # The window known (the server's list of models): 112 k of 128 k
        focus.wait(lambda: any(name.startswith("Context:") and "128" in name
                               for name in names(app)), 20)
        server.add_text("They planned three days in France.", usage=(30000, 50))
        server.add_text("Book early.", usage=(200, 10))
        send("Any advice")
        done = focus.wait(lambda: shows(app, "Book early.") and turn_over(app) and
                          shows(app, "Earlier messages summarized"), 30)
        screenshot("history-compacted")
        tap(done and awaited(app) == 0,
            "after a turn that compacted the conversation, no answer is awaited (%d)"
            % awaited(app))

        # Edit and Resend from the message's button: the toast is over the
        # conversation, not the message field
        later = showing_named(app, "Any advice")
        edit = None
        if later:
            point_at(later[0])
            focus.pump(0.5)
            edit = focus.wait(lambda: next(iter(showing_named(app, "Edit and Resend",
                                                              pyatspi.ROLE_PUSH_BUTTON)), None), 5)
        if edit is not None:
            click_at(edit)
        focus.wait(lambda: shows(app, "Editing Message"), 10)
        server.add_text("Go in May.")
        xdotool("key", "ctrl+a")
        xdotool("type", "--delay", "20", "Any advice for May?")
        xdotool("key", "Return")
        # The pointer goes to rest on the toast as soon as it shows, which
        # keeps it (libadwaita's toasts go after 5 s otherwise)
        undo = focus.wait(lambda: showing_named(app, "Undo", pyatspi.ROLE_PUSH_BUTTON), 10)
        if undo:
            point_at(undo[0])
        focus.wait(lambda: shows(app, "Go in May.") and turn_over(app), 30)
        toast, covers = focus.wait(lambda: (lambda t: t if t[0] else None)(
            toast_covers_composer(app, "Message edited")), 10) or (False, False)
        screenshot("history-edit-toast")
        tap(toast and not covers, "the edit's toast shows, and leaves the message field clear")

        # Its Undo, reached with the keyboard: the messages come back, the
        # keyboard goes to the message
        where = None
        for key in ["shift+Tab"] * 8 + ["Tab"] * 16:
            where = focus.press(key, settle=0.1)
            if where == ("push button", "Undo"):
                break
        focus.press("Return")
        restored = focus.wait(lambda: shows(app, "Book early.") and not shows(app, "Go in May."),
                              10)
        focus.pump(0.5)
        where = focused(app)
        screenshot("history-after-undo")
        tap(restored and where in ([("text", "Message")], [("text", "Edited Message")]),
            "Undo brings the turns back, and the keyboard to the message (%r)" % (where,))
        # The edit is given up: the message field empty again
        xdotool("key", "Escape")
        focus.wait(lambda: not shows(app, "Editing Message"), 5)

        # A failed turn, then the next message: the failure stays, with Retry
        # (a 400 is not tried again)
        server.add_error(400, FAILURE)
        send("What about Nice?")
        focus.wait(lambda: shows(app, FAILURE) and turn_over(app), 30)
        server.add_text("Sunny all week.")
        send("And the weather?")
        answered = focus.wait(lambda: shows(app, "Sunny all week.") and turn_over(app), 30)
        screenshot("history-failed-turn-kept")
        kept = showing_named(app, FAILURE) or [n for n in all_nodes(app)
                                               if FAILURE in (n.name or "") and showing(n)]
        retry = showing_named(app, "Retry", pyatspi.ROLE_PUSH_BUTTON)
        tap(answered and kept and retry and state(retry[0], pyatspi.STATE_SENSITIVE),
            "the next message sent, the failed turn still says why, with Retry")
        question = showing_named(app, "What about Nice?")
        later = showing_named(app, "And the weather?")
        where = [extents(n[0])[1] if n else None for n in (question, retry, later)]
        tap(None not in where and where[0] < where[1] < where[2],
            "under its question, before the next one (%r)" % where)

        # After a restart
        tap(chat.quit() == 0, "Ctrl+Q quits")
        app = chat.start()
        if app is None:
            tap(False, "the app starts again")
            return
        back = focus.wait(lambda: shows(app, "Sunny all week.") and shows(app, FAILURE), 20)
        retry = showing_named(app, "Retry", pyatspi.ROLE_PUSH_BUTTON)
        screenshot("history-restarted")
        tap(back and retry, "restarted, the failed turn is still failed, with Retry")

        # Retry asks the question again
        server.add_text("Nice is lovely in May.")
        n_requests = len(server.requests)
        if retry:
            point_at(retry[0])
            focus.pump(0.3)
            click_at(retry[0])
        again = focus.wait(lambda: shows(app, "Nice is lovely in May.") and turn_over(app), 30)
        asked = server.requests[n_requests] if len(server.requests) > n_requests else None
        tap(again and last_user_text(asked) == "What about Nice?",
            "its Retry asks the question again (%r)" % last_user_text(asked))

        # A conversation deleted from the sidebar (Ctrl+F, Tab to its row,
        # Delete): its toast, with Undo, leaves the message field clear too
        focus.press("ctrl+f")
        focus.press("Tab")
        focus.press("Delete")
        title = "“Plan three days in France” deleted"
        toast, covers = focus.wait(lambda: (lambda t: t if t[0] else None)(
            toast_covers_composer(app, title)), 10) or (False, False)
        screenshot("history-delete-toast")
        tap(toast and not covers, "a deleted conversation's toast leaves the message field clear")
    finally:
        chat.kill()
        server.close()


run_test("test-gui-history-", N_TESTS, main)
