#!/usr/bin/python3
# test-gui-long-chat-e2e.py: a long conversation in the real agent-chat,
# read as a person reads it. A stored chat of 260 turns (564 messages, 22
# turns calling a tool), written by agent-test-gui-store, opens at its end;
# its scrollbar says where the view is in the whole conversation (in
# messages: its range is the conversation's, its value the first message
# on screen); one drag of the scrollbar's thumb to the top, with the
# pointer (xdotool), brings the first message, and the thumb stays there;
# Ctrl+End and Ctrl+Home, from the message field, go to the last message
# and the first; Home and End, with the focus in the conversation, too.
# What is on screen is read through the accessibility tree (AT-SPI): the
# messages whose extents are within the conversation's.
# Runs under dbus-run-session and xvfb-run (a screen of 800×700).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import re
import subprocess
import sys

import pyatspi

# This folder's helpers, and agenttestgui.py, shared with tests/gtk
sys.path[:0] = [os.path.dirname(os.path.abspath(__file__)),
                os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'gui-common')]
from agenttestgui import (WINDOW_SIZE, App, FocusTracker, all_nodes, click_at, drag,  # noqa: E402
                          extents, find_node, point_at, run_test, screenshot, tap, walking, xdotool)

N_TESTS = 8
N_TURNS = 260
N_TOOL_TURNS = 22
# The rows: a question and an answer a turn, and the answers calling a tool
N_ROWS = 2 * N_TURNS + N_TOOL_TURNS


def conversation(app):
    return find_node(app, "Conversation", pyatspi.ROLE_LIST)


def on_screen(app):
    """The numbers of the turns whose messages show within the
    conversation, top to bottom ("Question 3", "Answer 3, …" are turn 3):
    what is under points down its middle, as the accessibility tree's hit
    test finds it. (GTK 4.8 keeps the extents of the rows out of view as
    they were when last in view; and its hit test answers only with the
    nodes that a reader was told of: the list is walked first.)"""
    def walk():
        view = conversation(app)
        box = extents(view) if view is not None else None
        if box is None:
            return []
        for node in all_nodes(view):
            pass
        window = view
        while window is not None and window.getRole() != pyatspi.ROLE_FRAME:
            window = window.parent
        seen = []
        for y in range(box[1] + 4, box[1] + box[3] - 2, 16):
            node = window.queryComponent().getAccessibleAtPoint(box[0] + box[2] // 2, y,
                                                                 pyatspi.WINDOW_COORDS)
            while node is not None and node.getRole() != pyatspi.ROLE_LIST:
                found = re.match(r"(?:Question|Answer) (\d+)", node.description or "")
                if node.getRole() == pyatspi.ROLE_PANEL and found:
                    if not seen or seen[-1] != int(found.group(1)):
                        seen.append(int(found.group(1)))
                    break
                node = node.parent
        return seen
    return walking(walk) or []


def scroll_bar(app):
    """The conversation's vertical scrollbar: the one along its right edge."""
    def walk():
        view = conversation(app)
        box = extents(view) if view is not None else None
        if box is None:
            return None
        for node in all_nodes(app):
            if node.getRole() != pyatspi.ROLE_SCROLL_BAR or \
               not node.getState().contains(pyatspi.STATE_VERTICAL):
                continue
            where = extents(node)
            if where is not None and where[3] > box[3] / 2 and \
               abs(where[0] + where[2] - (box[0] + box[2])) < 24:
                return node
        return None
    return walking(walk)


def position(app):
    """(value, minimum, maximum) of the scrollbar (GTK 4.8 gives them to
    the range in it), or None."""
    bar = scroll_bar(app)
    for node in all_nodes(bar) if bar is not None else []:
        try:
            value = node.queryValue()
            return (value.currentValue, value.minimumValue, value.maximumValue)
        except Exception:
            continue
    return None


def says_where(app):
    """Whether the scrollbar's value, as a part of its range, is where the
    first message on screen is in the whole conversation (within 3 %)."""
    turns = on_screen(app)
    where = position(app)
    print("# on screen: turns %r, scrollbar %r" % (turns[:3], where), flush=True)
    if not turns or where is None or where[2] <= where[1]:
        return False
    return abs((where[0] - where[1]) / (where[2] - where[1]) - (turns[0] - 1) / (N_TURNS - 1)) \
        < 0.03


def main(home):
    database = os.path.join(home, "data", "agent-chat", "conversations.db")
    os.makedirs(os.path.dirname(database))
    made = subprocess.run([os.environ["AGENT_TEST_GUI_STORE"], database, str(N_TURNS),
                           str(N_TOOL_TURNS)], capture_output=True, text=True)
    chat = App(home, "http://127.0.0.1:9/v1", "scripted",
               "last-conversation=int64 %s\n%s" % (made.stdout.strip(), WINDOW_SIZE))
    focus = FocusTracker()
    try:
        app = chat.start()
        if app is None:
            tap(False, "the app starts")
            return
        end = focus.wait(lambda: N_TURNS in on_screen(app), 30)
        where = position(app)
        print("# at the end: turns %r, scrollbar %r" % (on_screen(app), where), flush=True)
        tap(end and where is not None and where[2] - where[1] >= N_ROWS * 0.9 and
            says_where(app),
            "opened at its end, the scrollbar spans the whole conversation, in messages (%r)"
            % (where,))

        # One drag of the thumb, from the bottom of the scrollbar to its top
        view = conversation(app)
        point_at(view)
        focus.pump(0.5)
        bar = scroll_bar(app)
        box = extents(bar) if bar is not None else None
        screenshot("long-chat-before-drag")
        if box is not None:
            x = box[0] + box[2] // 2
            drag(x, box[1] + box[3] - 4, x, box[1] - 60)
        first = focus.wait(lambda: on_screen(app)[:1] == [1], 20)
        screenshot("long-chat-dragged-to-top")
        print("# dragged: turns %r, scrollbar %r" % (on_screen(app)[:4], position(app)),
              flush=True)
        tap(box is not None and first, "one drag of the thumb to the top shows the first message")
        # The list brings the messages after it in meanwhile: the view stays
        focus.pump(1.0)
        where = position(app)
        tap(on_screen(app)[:1] == [1] and where is not None and where[0] - where[1] < 1,
            "the first message stays, and the thumb at the top (%r)" % (where,))

        # The keyboard, from the message field: Ctrl+End, Ctrl+Home
        message = find_node(app, "Message", pyatspi.ROLE_TEXT)
        if message is not None:
            click_at(message)
        focus.pump(0.3)
        xdotool("key", "ctrl+End")
        last = focus.wait(lambda: N_TURNS in on_screen(app), 20)
        tap(last and says_where(app),
            "Ctrl+End goes to the last message (%r, %r)" % (on_screen(app)[-2:], position(app)))
        xdotool("key", "ctrl+Home")
        first = focus.wait(lambda: on_screen(app)[:1] == [1], 20)
        tap(first and says_where(app),
            "Ctrl+Home goes to the first (%r, %r)" % (on_screen(app)[:2], position(app)))

        # Halfway, by the wheel and the scrollbar: it still says where
        xdotool("key", "ctrl+End")
        focus.wait(lambda: N_TURNS in on_screen(app), 20)
        point_at(view)
        focus.pump(0.3)
        bar = scroll_bar(app)
        box = extents(bar) if bar is not None else None
        if box is not None:
            x = box[0] + box[2] // 2
            drag(x, box[1] + box[3] - 4, x, box[1] + box[3] // 2)
        middle = focus.wait(lambda: 90 < (on_screen(app) or [0])[0] < 170, 20)
        print("# halfway: turns %r, scrollbar %r" % (on_screen(app)[:3], position(app)),
              flush=True)
        tap(middle and says_where(app), "dragged halfway, the middle of the conversation shows")

        # Home and End with the focus in the conversation
        where = None
        for _ in range(40):
            where = focus.press("shift+Tab")
            if where is None or where in (("panel", "Your message"), ("panel", "Answer")):
                break
        focus.press("End")
        last = focus.wait(lambda: N_TURNS in on_screen(app), 20)
        tap(where is not None and last, "End, in the conversation, goes to its last message "
            "(from %r: %r)" % (where, on_screen(app)[-2:]))
        focus.press("Home")
        first = focus.wait(lambda: on_screen(app)[:1] == [1], 20)
        node = focus.node
        tap(first and node is not None and node.description == "Question 1",
            "Home to its first, which takes the focus (%r)" % (node.description if node else None,))
        screenshot("long-chat-home")
    finally:
        chat.kill()


run_test("test-gui-long-chat-", N_TESTS, main)
