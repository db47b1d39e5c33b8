#!/usr/bin/python3
# test-gui-reopen-e2e.py: a stored conversation whose answer is 20,000 lines,
# opened again in agent-chat with a click on its row in the sidebar: the
# answer shows at once, its end in view (only the pages near the view are
# made; screen readers hear its row as busy until they are), and keys typed
# into the message field all the while are answered as they come — the
# window never freezes for it (for 10,000 lines it froze about a second,
# and showed the answer after 3 s); the wheel turned up then shows the
# lines that come into view, none missing (those pages stood in). Read
# through the accessibility tree (AT-SPI) and driven with xdotool, under
# dbus-run-session and xvfb-run (a screen of 800 × 700).
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
from agenttestgui import (App, FocusTracker, all_nodes, click_at, extents,  # noqa: E402
                          find_node, finish, focus_mapped, showing, tap, text_of, walking,
                          wheel, xdotool)
from scriptedserver import Response, ScriptedServer, text_events  # noqa: E402

N_TESTS = 6
N_LINES = 20000
QUESTION = "A long one, please"


def busy(node):
    try:
        # Read anew: AT-SPI's cache may hold the states of a while ago
        node.clear_cache()
        return node.getState().contains(pyatspi.STATE_BUSY)
    except Exception:
        return False


def answer_row(conversation):
    """The row of the answer, among the items of the conversation's list
    (not a walk of the whole tree: the answer's thousands of labels change
    under it while it is laid out)."""
    try:
        n = conversation.childCount
    except Exception:
        return None
    for i in range(n):
        try:
            item = conversation.getChildAtIndex(i)
            for j in range(item.childCount):
                child = item.getChildAtIndex(j)
                if child.name == "Answer" and child.getRole() == pyatspi.ROLE_PANEL:
                    return child
        except Exception:
            continue
    return None


def sidebar_row(app):
    """The sidebar's row of the stored conversation."""
    def walk():
        for node in all_nodes(app):
            if node.getRole() == pyatspi.ROLE_LIST and node.name == "Conversations":
                return next((n for n in all_nodes(node) if n.name == QUESTION and
                             n.getRole() == pyatspi.ROLE_LABEL), None)
        return None
    return walking(walk)


def main(home):
    print("1..%d" % N_TESTS, flush=True)
    server = ScriptedServer()
    chat = App(home, server.url, "scripted")
    with open(chat.keyfile, "a") as keyfile:
        keyfile.write("window-width=760\nwindow-height=640\n")
    lines = "".join("Line %d of a long answer.\n\n" % i for i in range(1, N_LINES + 1))
    server.add(Response(events=text_events(lines, words=False)))
    stored = chat.cli("--base-url", server.url, "--model", "scripted", QUESTION)
    tap("Line %d of a long answer." % N_LINES in stored,
        "agent-cli keeps a conversation whose answer is %d lines" % N_LINES)
    focus = FocusTracker()
    try:
        app = chat.start()
        tap(app is not None, "the app starts")
        if app is None:
            return

        # A click on its row in the sidebar opens it again; at once, a click
        # in the message field and a key
        row = focus.wait(lambda: sidebar_row(app), 30)
        field = find_node(app, "Message")
        conversation = find_node(app, "Conversation", pyatspi.ROLE_LIST)
        focus_mapped()
        box = field.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        if row is not None:
            click_at(row)
        xdotool("mousemove", str(box.x + 20), str(box.y + box.height // 2), "click", "1")
        # A key every 50 ms, from another program, for 4 s
        typist = subprocess.Popen(["xdotool", "type", "--delay", "50", "x" * 80])
        last = "Line %d of a long answer." % N_LINES

        def last_line_made():
            # Only the pages near the view are made, the end first: its
            # labels are there, not stand-ins of the pages far above
            return walking(lambda: any(node.name == last for node in all_nodes(answer)))

        # The field's text, read while the keys come: if it grows step by
        # step, each key was answered as it came, none held up behind the
        # opening of the answer
        answer = None
        lengths = []
        while typist.poll() is None:
            lengths.append(len(text_of(field) or ""))
            answer = answer or answer_row(conversation)
        typist.wait(60)
        answer = answer or focus.wait(lambda: answer_row(conversation), 60)
        tap(answer is not None and focus.wait(last_line_made, 30),
            "opened, the answer shows its end, the pages near the view made")
        typed = focus.wait(lambda: text_of(field) == "x" * 80, 30)
        subprocess.run(["import", "-window", "root", os.path.join(home, "reopen-typed.png")])
        shots = os.environ.get("AGENT_TEST_SCREENSHOTS")
        if shots:
            shutil.copy(os.path.join(home, "reopen-typed.png"), shots)
        tap(typed and len(set(lengths)) > 10,
            "keys typed meanwhile are answered as they come (%d lengths seen)"
            % len(set(lengths)))

        whole = focus.wait(lambda: not busy(answer), 120)
        description = ""
        try:
            description = answer.description
        except Exception:
            pass
        tap(whole and description.rstrip().endswith("Line %d of a long answer." % N_LINES),
            "then it is whole, and no longer busy")

        # The wheel, up, far past what was made at the opening (the last
        # pages): the pages that come into view are made, the ones in view
        # first, and what is seen is their lines, one after the other
        wheel(conversation, 4, times=100)

        def lines_in_view():
            box = extents(conversation)
            return sorted(int(node.name.split()[1]) for node in all_nodes(answer)
                          if node.name.startswith("Line ") and showing(node, box))

        # (the window, 640 px high, shows 18 of them)
        def made_in_view():
            shown = walking(lines_in_view) or []
            return (len(shown) >= 15 and shown[-1] < N_LINES - 100 and
                    shown == list(range(shown[0], shown[0] + len(shown))))
        scrolled = focus.wait(made_in_view, 30)
        shown = walking(lines_in_view) or []
        subprocess.run(["import", "-window", "root", os.path.join(home, "reopen-scrolled.png")])
        if shots:
            shutil.copy(os.path.join(home, "reopen-scrolled.png"), shots)
        tap(scrolled, "the wheel up: lines %s to %s in view, none missing"
            % (shown[0] if shown else "?", shown[-1] if shown else "?"))
    finally:
        chat.kill()
        server.close()


home = tempfile.mkdtemp(prefix="test-gui-reopen-")
try:
    main(home)
finally:
    shutil.rmtree(home, ignore_errors=True)
sys.exit(finish(N_TESTS))
