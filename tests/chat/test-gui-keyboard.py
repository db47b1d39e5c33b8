#!/usr/bin/python3
# test-gui-keyboard.py: agent-chat with the keyboard alone, as a screen
# reader reads it. The real app against a scripted server (an answer with a
# code block, a tool call, a failed turn), driven by xdotool, read through
# the accessibility tree (AT-SPI): Tab reaches every message and every
# action in it, the Menu key and Shift+F10 open a message's context menu,
# Edit and Resend and its Undo work from there, every control has a name,
# and the sidebar's rows have a context menu, F2 and Delete.
# Runs under dbus-run-session and xvfb-run.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import shutil
import subprocess
import sys
import tempfile

import pyatspi

# This folder's helpers, and agenttestgui.py, shared with tests/gtk
sys.path[:0] = [os.path.dirname(os.path.abspath(__file__)),
                os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'gui-common')]
from agenttestgui import (FocusTracker, all_nodes, app_env, find_app, find_node,  # noqa: E402
                          finish, focus_window, menu_items, names, tap, text_of, walking,
                          xdotool)
from scriptedserver import ScriptedServer  # noqa: E402

N_TESTS = 19

# Roles of the widgets one acts on: each must have a name a person can hear
CONTROL_ROLES = {
    pyatspi.ROLE_PUSH_BUTTON, pyatspi.ROLE_TOGGLE_BUTTON, pyatspi.ROLE_CHECK_BOX,
    pyatspi.ROLE_RADIO_BUTTON, pyatspi.ROLE_MENU_ITEM, pyatspi.ROLE_CHECK_MENU_ITEM,
    pyatspi.ROLE_RADIO_MENU_ITEM, pyatspi.ROLE_ENTRY, pyatspi.ROLE_TEXT,
    pyatspi.ROLE_PASSWORD_TEXT, pyatspi.ROLE_COMBO_BOX, pyatspi.ROLE_SPIN_BUTTON,
    pyatspi.ROLE_SLIDER, pyatspi.ROLE_LINK, pyatspi.ROLE_MENU,
}


def bad_name(name):
    """Why @name is no name for a control, or None: empty, a type name
    (what GTK says of a widget nobody named), or a mnemonic said aloud."""
    if not name or not name.strip():
        return "no name"
    if name.startswith(("Gtk", "Adw", "Agent")) and " " not in name:
        return "a type name"
    if name.startswith("_") or " _" in name:
        return "a mnemonic underscore"
    return None


def takes_focus(node):
    """Whether Tab can stop at @node: focusable, and for a scroll pane,
    nothing inside it focusable (GtkScrolledWindow steps aside then)."""
    if not node.getState().contains(pyatspi.STATE_FOCUSABLE):
        return False
    if node.getRole() != pyatspi.ROLE_SCROLL_PANE:
        return True
    return not any(inner.getState().contains(pyatspi.STATE_FOCUSABLE)
                   for inner in all_nodes(node) if inner is not node and
                   inner.getRole() not in (pyatspi.ROLE_SCROLL_BAR, pyatspi.ROLE_FILLER))


def unnamed_controls(app):
    found = []
    for node in all_nodes(app):
        try:
            role = node.getRole()
            focusable = takes_focus(node)
            if role in CONTROL_ROLES or (focusable and role != pyatspi.ROLE_FRAME):
                why = bad_name(node.name)
                if why is not None:
                    parent = node.parent
                    window = parent
                    while window is not None and window.getRole() not in (
                            pyatspi.ROLE_FRAME, pyatspi.ROLE_DIALOG, pyatspi.ROLE_WINDOW):
                        window = window.parent
                    found.append("%s %r (%s), in %s %r of %r" % (
                        node.getRoleName(), node.name, why,
                        parent.getRoleName() if parent else "", parent.name if parent else "",
                        window.name if window else ""))
        except Exception:
            # Gone while the tree was walked (a row recycled)
            continue
    return found


def field_label(app, value):
    """The names of what labels the label showing @value."""
    node = next((n for n in all_nodes(app) if n.getRole() == pyatspi.ROLE_LABEL and
                 (n.name == value or text_of(n) == value)), None)
    if node is None:
        return None
    print("# field %r: %r" % (node.name, text_of(node)), flush=True)
    for relation in node.getRelationSet():
        if relation.getRelationType() == pyatspi.RELATION_LABELLED_BY:
            return " ".join(relation.getTarget(i).name for i in range(relation.getNTargets()))
    return None


def turn_over(app):
    shown = names(app)
    return "Send" in shown and "Stop" not in shown


def tab_cycle(focus, key, limit=80):
    """The (role, name) of each stop of a full cycle of @key from the
    composer, back to it."""
    stops = []
    for _ in range(limit):
        where = focus.press(key)
        if where is None:
            stops.append(("", "(the focus did not move)"))
            break
        if where == ("text", "Message"):
            break
        stops.append(where)
    return stops


def main(home):
    print("1..%d" % N_TESTS, flush=True)
    server = ScriptedServer()
    server.add_text("Here is some code:\n\n```sh\necho hi\n```\n", words=False)
    server.add_tool_call("calculator", '{"expression":"6*7"}')
    server.add_text("It is 42.")
    server.add_error(400, "Bad request, on purpose")

    env = app_env()
    env["XDG_DATA_HOME"] = os.path.join(home, "data")
    process = subprocess.Popen([os.environ["AGENT_CHAT"], "--provider", "openai",
                                "--base-url", server.url, "--model", "scripted"], env=env)
    focus = FocusTracker()
    try:
        app = focus.wait(find_app, 60)
        if app is None:
            tap(False, "the app starts")
            return
        focus_window()
        for prompt, wait in (("Show me code", "echo hi"), ("What is 6*7?", "It is 42."),
                             ("Fail now", "Bad request, on purpose")):
            xdotool("type", "--delay", "20", prompt)
            xdotool("key", "Return")
            focus.wait(lambda: any(wait in n for n in names(app)), 30)
            focus.wait(lambda: turn_over(app), 30)
        tap(any("on purpose" in n for n in names(app)), "three turns, the last one failed")

        # Tab, from the composer around the window and back: every message and
        # every action in it on the way
        focus.press("shift+Tab")
        focus.press("Tab")
        stops = tab_cycle(focus, "Tab")
        print("# Tab stops: %r" % stops, flush=True)
        reached = {name for role, name in stops}
        wanted = ["Your message", "Answer", "Copy Message", "Edit and Resend",
                  "Regenerate Answer", "Copy Code", "Show the Arguments as JSON", "Result",
                  "Retry"]
        missing = [name for name in wanted if name not in reached]
        tap(not missing, "Tab reaches every message and action (missing: %s)" % missing)
        stops = tab_cycle(focus, "shift+Tab")
        print("# Shift+Tab stops: %r" % stops, flush=True)
        missing = [name for name in wanted if name not in {name for role, name in stops}]
        tap(not missing, "and Shift+Tab too, backwards (missing: %s)" % missing)

        # The whole tree: a name for every control
        bad = unnamed_controls(app)
        tap(not bad, "every control has a name (%s)" % "; ".join(bad[:8]))

        # The tool card's arguments as fields: each value labelled by its name
        tap(field_label(app, "6*7") == "expression",
            "a tool card's field is labelled by its name (got %r)" % field_label(app, "6*7"))

        # Into the conversation, and Home: its first message, its text as its
        # description
        where = None
        for _ in range(80):
            where = focus.press("Tab")
            if where is None or where in (("panel", "Your message"), ("panel", "Answer")):
                break
        focus.press("Home")
        where = (focus.node.getRoleName(), focus.node.name) if focus.node else None
        text = focus.node.description if focus.node else None
        tap(where == ("panel", "Your message") and text == "Show me code",
            "Tab gets into the conversation, Home to its first message (%r, %r)" % (where, text))
        focus.press("Menu")
        items = focus.wait(lambda: menu_items(app), 5) or []
        tap("Copy" in items and "Edit and Resend" in items and "Regenerate" not in items,
            "the Menu key opens the message's context menu (%r)" % items)
        focus.press("Escape")
        closed = focus.wait(lambda: not menu_items(app), 5)
        focus.pump(0.3)
        where = (focus.node.getRoleName(), focus.node.name) if focus.node else None
        tap(closed and where == ("panel", "Your message"),
            "Escape closes it, the focus back on the message (%r)" % (where,))

        # The answer's, with Shift+F10 (Down goes to the next message)
        focus.press("Down")
        focus.press("shift+F10")
        items = focus.wait(lambda: menu_items(app), 5) or []
        tap("Copy" in items and "Regenerate" in items and "Edit and Resend" not in items,
            "Shift+F10 opens the answer's (%r)" % items)
        focus.press("Escape")
        focus.wait(lambda: not menu_items(app), 5)

        # Edit and Resend of the first message, from its menu: nothing goes yet
        focus.press("Up")
        focus.press("Menu")
        focus.wait(lambda: "Edit and Resend" in menu_items(app), 5)
        edit = find_node(app, "Edit and Resend", pyatspi.ROLE_MENU_ITEM)
        where = None
        for _ in range(4):
            where = focus.press("Down")
            if where is not None and where[1] == "Edit and Resend":
                break
        focus.press("Return")
        composer = focus.wait(lambda: next((n for n in all_nodes(app)
                                            if n.getRole() == pyatspi.ROLE_TEXT and
                                            n.getState().contains(pyatspi.STATE_FOCUSED)),
                                           None), 5)
        text = walking(lambda: composer.queryText().getText(0, -1)) if composer else None
        tap(edit is not None and text == "Show me code" and "Editing Message" in names(app),
            "Edit and Resend puts the message in the composer (%r)" % text)
        tap("It is 42." in names(app) and "Fail now" in names(app),
            "and nothing is deleted until it is sent")

        # Sent: the turns after it go, with Undo
        server.add_text("Edited answer.")
        xdotool("key", "ctrl+a")
        xdotool("type", "--delay", "20", "Show me other code")
        xdotool("key", "Return")
        focus.wait(lambda: "Edited answer." in names(app), 30)
        focus.wait(lambda: turn_over(app), 30)
        gone = "It is 42." not in names(app)
        undo = focus.wait(lambda: find_node(app, "Message edited"), 5)
        tap(gone and undo is not None, "sent, the turns after it go, and a toast offers Undo")
        xdotool("key", "alt+u")
        back = focus.wait(lambda: "It is 42." in names(app) and "Fail now" in names(app), 10)
        tap(back and "Edited answer." not in names(app), "Undo (Alt+U) brings them back")

        # The sidebar, from Ctrl+F: the row, its menu, F2, Delete
        focus.press("Escape")
        focus.press("ctrl+f")
        row = focus.press("Tab")
        tap(row is not None and row[1] == "Show me code",
            "the sidebar's row takes the focus, named by its title (%r)" % (row,))
        focus.press("Menu")
        items = focus.wait(lambda: menu_items(app), 5) or []
        tap("Rename…" in items and "Delete" in items, "the Menu key opens its menu (%r)" % items)
        focus.press("Escape")
        focus.wait(lambda: not menu_items(app), 5)
        focus.press("F2")
        dialog = focus.wait(lambda: find_node(app, "Rename Conversation"), 5)
        if dialog is not None:
            xdotool("key", "ctrl+a")
            xdotool("type", "--delay", "20", "Renamed")
            xdotool("key", "Return")
            # Not a look at the tree while the dialog goes: GTK 4.8's AT-SPI
            # bridge crashes answering for a window being destroyed
            focus.pump(1.5)
        tap(dialog is not None and focus.wait(lambda: "Renamed" in names(app), 5),
            "F2 renames it")
        focus.press("ctrl+f")
        focus.press("Tab")
        focus.press("Delete")
        deleted = focus.wait(lambda: find_node(app, "“Renamed” deleted"), 5)
        tap(deleted is not None and "Renamed" not in [n.name for n in all_nodes(app)
                                                      if n.getRole() == pyatspi.ROLE_LABEL],
            "Delete deletes it, with Undo on offer")

        # With the toast on screen, the window still names every control
        window = walking(lambda: next(n for n in app if n.getRole() == pyatspi.ROLE_FRAME and
                                      find_node(n, "Conversation", pyatspi.ROLE_LIST)))
        bad = unnamed_controls(window) if window is not None else ["no window"]
        tap(not bad, "the toast's buttons have names too (%s)" % "; ".join(bad[:8]))

        # The shortcuts window tells of the new keys
        xdotool("key", "ctrl+question")
        shortcuts = focus.wait(lambda: find_node(app, "Rename Conversation"), 5)
        shown = names(app)
        tap(shortcuts is not None and "Delete Conversation" in shown and "Context Menu" in shown,
            "the shortcuts window lists F2, Delete and the context menu")

    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
        server.close()


home = tempfile.mkdtemp(prefix="test-gui-keyboard-")
try:
    main(home)
finally:
    shutil.rmtree(home, ignore_errors=True)
sys.exit(finish(N_TESTS))
