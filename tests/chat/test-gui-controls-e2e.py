#!/usr/bin/python3
# test-gui-controls-e2e.py: the controls of agent-chat's conversation and
# message field, used as a person uses them: the pointer moved to where the
# accessibility tree (AT-SPI) says a control is, and clicked (xdotool); the
# wheel turned over parts of an answer. The paperclip opens the file
# chooser, whose file is attached; Jump to Bottom, while an answer streams
# and after, brings the end into view and follows it again; the wheel over
# a code block or a table scrolls the conversation, and only horizontal
# motion (Shift+wheel, the horizontal wheel) scrolls the block sideways.
# Against a scripted server, under dbus-run-session and xvfb-run (a screen
# of 800×700).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import re
import sys

import pyatspi

# This folder's helpers, and agenttestgui.py, shared with tests/gtk
sys.path[:0] = [os.path.dirname(os.path.abspath(__file__)),
                os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'gui-common')]
from agenttestgui import (WINDOW_SIZE, App, FocusTracker, all_nodes, choose_file,  # noqa: E402
                          click_at, extents, find_node, names, point_at, run_test, screenshot, send,
                          shows, showing, state, tap, turn_over, walking, wheel, x_window)
from scriptedserver import ScriptedServer  # noqa: E402

N_TESTS = 9

STORY = "\n\n".join("Part %d of the story, which goes on for a while." % i for i in range(1, 81))
WIDE = "x = '" + "wide " * 60 + "'"
BLOCKS = ("\n\n".join("Before %d, a paragraph to scroll past." % i for i in range(1, 26)) +
          "\n\n```python\n" + "\n".join([WIDE] * 6) + "\n```\n\n" +
          "| " + " | ".join("Column %d" % i for i in range(1, 13)) + " |\n" +
          "|" + "---|" * 12 + "\n" +
          "\n".join("| " + " | ".join("value %d.%d" % (r, i) for i in range(1, 13)) + " |"
                    for r in range(1, 5)) +
          "\n\nAfter the table.\n\nThe end.")


def conversation(app):
    return find_node(app, "Conversation", pyatspi.ROLE_LIST)


def parts_on_screen(app):
    """The numbers of the story's parts that show within the conversation."""
    def walk():
        view = conversation(app)
        box = extents(view) if view is not None else None
        if box is None:
            return []
        found = []
        for node in all_nodes(view):
            match = re.match(r"Part (\d+) of the story", node.name or "")
            where = extents(node) if match and node.getRole() == pyatspi.ROLE_LABEL else None
            if where is not None and where[1] >= box[1] and where[1] + where[3] <= box[1] + box[3]:
                found.append(int(match.group(1)))
        return found
    return walking(walk) or []


def jump_button(app):
    node = find_node(app, "Jump to Bottom")
    return node if showing(node) else None


def pane(app, name):
    """The scroll pane of a code block ("Code") or a table ("Table")."""
    return find_node(app, name, pyatspi.ROLE_SCROLL_PANE)


def sideways(node):
    """The value of @node's horizontal scrollbar (0 at its start; GTK 4.8
    gives it to the range in the scrollbar)."""
    def walk():
        for inner in all_nodes(node):
            if inner.getRole() == pyatspi.ROLE_SCROLL_BAR and \
               inner.getState().contains(pyatspi.STATE_HORIZONTAL):
                for part in all_nodes(inner):
                    try:
                        return part.queryValue().currentValue
                    except NotImplementedError:
                        continue
        return None
    return walking(walk)


def top(node):
    where = extents(node) if node is not None else None
    return where[1] if where is not None else None


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

        # The paperclip: a click opens the file chooser; the file typed there
        # is attached; the keyboard is back in the message field
        attach = find_node(app, "Attach Files", pyatspi.ROLE_PUSH_BUTTON)
        usable = showing(attach) and state(attach, pyatspi.STATE_SENSITIVE)
        screenshot("controls-attach-button")
        if attach is not None:
            click_at(attach)
        chooser = focus.wait(lambda: x_window("^Attach Files$"), 15)
        screenshot("controls-file-chooser")
        tap(usable and chooser, "a click on the paperclip (%s) opens the file chooser" %
            ("sensitive" if usable else "insensitive"))
        if chooser:
            choose_file(focus, notes)
        attached = focus.wait(lambda: "Remove notes.txt" in names(app), 15)
        node = focus.wait(lambda: focus.node if focus.node is not None and
                          focus.node.name == "Message" else None, 5)
        tap(attached and node is not None,
            "the file chosen is attached, and the keyboard is back in the message field")
        remove = find_node(app, "Remove notes.txt")
        if remove is not None:
            click_at(remove)
        focus.wait(lambda: "Remove notes.txt" not in names(app), 5)

        # Jump to Bottom while an answer streams: scrolled up, it shows; a
        # click brings the end back, and the view follows it again
        story = server.add_text(STORY, pause_after=450)
        send("Tell me a long story")
        focus.wait(lambda: max(parts_on_screen(app) or [0]) >= 40, 30)
        view = conversation(app)
        for _ in range(4):
            wheel(view, 4, 3)
            if focus.wait(lambda: jump_button(app), 3):
                break
        button = focus.wait(lambda: jump_button(app), 10)
        screenshot("controls-jump-streaming")
        usable = button is not None and state(button, pyatspi.STATE_SENSITIVE)
        streamed = max(parts_on_screen(app) or [0])
        if button is not None:
            click_at(button)
        back = focus.wait(lambda: not jump_button(app) and
                          max(parts_on_screen(app) or [0]) > streamed, 10)
        tap(usable and back, "while an answer streams, Jump to Bottom (%s) brings its end back"
            % ("sensitive" if usable else "insensitive"))
        story.release()
        done = focus.wait(lambda: turn_over(app) and 80 in parts_on_screen(app), 30)
        tap(done, "and the view follows the answer to its end (%r)" % parts_on_screen(app)[-2:])

        # After the answer
        for _ in range(4):
            wheel(view, 4, 3)
            if focus.wait(lambda: jump_button(app), 3):
                break
        button = focus.wait(lambda: jump_button(app), 10)
        usable = button is not None and state(button, pyatspi.STATE_SENSITIVE)
        if button is not None:
            click_at(button)
        back = focus.wait(lambda: not jump_button(app) and 80 in parts_on_screen(app), 10)
        tap(usable and back, "after it, Jump to Bottom brings the end back")

        # An answer with a wide code block and a wide table, at the end of the view
        server.add_text(BLOCKS, words=False)
        send("Show me code and a table")
        focus.wait(lambda: shows(app, "The end.") and turn_over(app), 30)
        code = focus.wait(lambda: pane(app, "Code"), 10)
        table = pane(app, "Table")
        screenshot("controls-blocks")
        print("# code at %r, table at %r, conversation at %r" %
              (extents(code) if code else None, extents(table) if table else None,
               extents(conversation(app))), flush=True)

        # Sideways: Shift+wheel over the table, the horizontal wheel over the code
        y = top(table)
        wheel(table, 5, 3, shift=True)
        moved = focus.wait(lambda: (sideways(table) or 0) > 0, 5)
        tap(moved and top(table) == y,
            "Shift+wheel over a table scrolls it sideways, not the conversation")
        y = top(code)
        wheel(code, 7, 3)
        moved = focus.wait(lambda: (sideways(code) or 0) > 0, 5)
        tap(moved and top(code) == y, "the horizontal wheel over a code block scrolls it sideways")

        # Up and down: the conversation, whatever is under the pointer
        y = top(table)
        before = sideways(table)
        wheel(table, 4, 2)
        moved = focus.wait(lambda: (top(table) or 0) > y, 5)
        tap(moved and sideways(table) == before,
            "the wheel over a table scrolls the conversation (%r → %r)" % (y, top(table)))
        y = top(code)
        wheel(code, 4, 2)
        up = focus.wait(lambda: (top(code) or 0) > y, 5)
        y = top(code)
        wheel(code, 5, 2)
        down = focus.wait(lambda: (top(code) or y) < y, 5)
        screenshot("controls-wheel-over-code")
        tap(up and down, "and over a code block, up and down")
        point_at(view)
    finally:
        chat.kill()
        server.close()


run_test("test-gui-controls-", N_TESTS, main)
