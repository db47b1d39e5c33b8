#!/usr/bin/python3
# test-gui-context-e2e.py: long conversations in the real agent-chat,
# against a scripted server whose model list states the context window and
# whose answers report their usage, read through the accessibility tree
# (AT-SPI): the context meter says the tokens used of the window in words,
# and turns to a warning past the threshold; with Summarize Older Turns,
# the conversation that outgrew the window is summarized and goes on, and
# a marker says where, unfolding to the summary. Runs under
# dbus-run-session and xvfb-run.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import re
import shutil
import sys
import tempfile

# This folder's helpers, and agenttestgui.py, shared with tests/gtk
sys.path[:0] = [os.path.dirname(os.path.abspath(__file__)),
                os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'gui-common')]
from agenttestgui import (App, FocusTracker, all_nodes, finish, names, send, shows,  # noqa: E402
                          tap, turn_over, walking)
from scriptedserver import ScriptedServer  # noqa: E402

N_TESTS = 5


def meter(app):
    """What the context meter says, its numbers without separators."""
    said = [name for name in names(app) if name.startswith("Context:")]
    return re.sub(r"(?<=\d)[^\d\s](?=\d)", "", said[0]) if said else None


def unfold(app, name):
    """Runs the action of the node called @name that has one (the
    expander, not its label)."""
    def find():
        for node in all_nodes(app):
            if node.name == name:
                try:
                    action = node.queryAction()
                except NotImplementedError:
                    continue
                if action.nActions > 0:
                    action.doAction(0)
                    return True
        return False
    return walking(find)


def main(home):
    print("1..%d" % N_TESTS, flush=True)
    server = ScriptedServer()
    server.context_windows = {"scripted": 128000}
    chat = App(home, server.url, "scripted")
    with open(chat.keyfile, "a") as keyfile:
        keyfile.write("context-strategy='summarize'\ncontext-keep-turns=uint32 1\n")
    focus = FocusTracker()
    try:
        app = chat.start()
        if app is None:
            tap(False, "the app starts")
            return

        server.add_text("Paris, Lyon and Nice.", usage=(12000, 400))
        send("Plan three days in France")
        focus.wait(lambda: shows(app, "Paris, Lyon and Nice.") and turn_over(app), 30)
        said = focus.wait(lambda: meter(app) == "Context: 12400 of 128000 tokens used", 10)
        tap(said, "the meter says the tokens used of the listed window (%r)" % meter(app))

        # Past 80 % of the window: the next request is compacted first
        server.add_text("Trains are quickest.", usage=(110000, 2000))
        send("How do I travel")
        focus.wait(lambda: shows(app, "Trains are quickest.") and turn_over(app), 30)
        tap(meter(app) == "Context: 112000 of 128000 tokens used",
            "the meter follows the answer's usage (%r)" % meter(app))

        server.add_text("They planned three days in France, by train.", usage=(30000, 50))
        server.add_text("Book early.", usage=(200, 10))
        send("Any advice")
        answered = focus.wait(lambda: shows(app, "Book early.") and turn_over(app), 30)
        tap(answered and len(server.requests) == 4, "the long conversation is summarized, "
            "and goes on (%d requests)" % len(server.requests))
        summary = "They planned three days in France, by train."
        tap(shows(app, "Earlier messages summarized") and not shows(app, summary),
            "a marker, folded, says where older turns were summarized")
        unfold(app, "Earlier messages summarized")
        tap(focus.wait(lambda: shows(app, summary), 10), "unfolded, it shows the summary")
    finally:
        chat.kill()
        server.close()


home = tempfile.mkdtemp(prefix="test-gui-context-")
try:
    main(home)
finally:
    shutil.rmtree(home, ignore_errors=True)
sys.exit(finish(N_TESTS))
