#!/usr/bin/python3
# test-gui-turns-e2e.py: what agent-chat shows of a turn, in the real app
# against a scripted server, driven by the keyboard (xdotool) and read
# through the accessibility tree (AT-SPI): a waiting state from the moment
# of Send, "Retrying (2 of 3)…" with the reason, a tool card as soon as a
# call starts streaming (the chunk toggle off), a dropped connection that
# is not "Stopped", a 401 without a key that says so, each chat's draft,
# and failed turns whose errors come back after a restart, with Retry; and a
# turn that waits while agent-cli adds to the same conversation. Runs under dbus-run-session and xvfb-run.
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
from agenttestgui import (App, FocusTracker, all_nodes, finish, names, send,  # noqa: E402
                          shows, tap, turn_over, walking, xdotool)
from scriptedserver import ScriptedServer  # noqa: E402

N_TESTS = 13


def composer_text(app):
    def read():
        for node in all_nodes(app):
            if node.getRole() == pyatspi.ROLE_TEXT and node.name in ("Message", "Edited Message"):
                return node.queryText().getText(0, -1)
        return None
    return walking(read)


def open_conversation(focus, position):
    """Opens the sidebar's conversation at @position (0: the newest), with
    the keyboard."""
    focus.press("ctrl+f")
    focus.press("Tab")
    focus.press("Home")  # the list goes back to the row focused last
    for _ in range(position):
        focus.press("Down")
    focus.press("Return")
    focus.pump(0.5)


def main(home):
    print("1..%d" % N_TESTS, flush=True)
    server = ScriptedServer()
    chat = App(home, server.url, "scripted")
    focus = FocusTracker()
    try:
        app = chat.start()
        if app is None:
            tap(False, "the app starts")
            return

        # Send, and nothing has come back yet
        held = server.add_text("Hello back.", hold=True)
        send("Hello")
        waiting = focus.wait(lambda: shows(app, "Waiting for the model…"), 10)
        held.release()
        done = focus.wait(lambda: shows(app, "Hello back.") and turn_over(app), 30)
        tap(waiting and done and not shows(app, "Waiting for the model…"),
            "from Send to the first word, the answer shows it is awaited")

        # The server is busy: tried again, and said why
        server.add_error(503, "The engine is overloaded", headers={"Retry-After": "0"})
        held = server.add_text("Made it.", hold=True)
        send("Again")
        retrying = focus.wait(lambda: shows(app, "Retrying (2 of 3)…"), 20)
        reason = shows(app, "The engine is overloaded")
        held.release()
        focus.wait(lambda: shows(app, "Made it.") and turn_over(app), 30)
        tap(retrying and reason, "“Retrying (2 of 3)…”, with the reason, while the session retries")

        # A tool call: its card from its first chunk, the toggle off
        call = server.add_tool_call("calculator", '{"expression":"6*7"}', pause_after=1)
        server.add_text("It is 42.")
        send("Compute 6*7")
        card = focus.wait(lambda: shows(app, "Tool call: calculator"), 20)
        writing = shows(app, "Writing arguments…")
        call.release()
        focus.wait(lambda: shows(app, "It is 42.") and turn_over(app), 30)
        tap(card and writing, "a tool card shows as soon as the call starts streaming")

        # The connection drops mid-answer
        server.add_drop("Once upon a time there was a story that went on and on")
        send("Tell me a story")
        lost = focus.wait(lambda: shows(app, "The connection to the model server was lost"), 30)
        focus.wait(lambda: turn_over(app), 30)
        tap(lost and shows(app, "Connection lost") and not shows(app, "Stopped"),
            "a dropped connection says so, not “Stopped”")

        # A new chat, and a 401 without a key
        xdotool("key", "ctrl+n")
        focus.wait(lambda: not shows(app, "Once upon a time"), 10)
        server.add_error(401, "Incorrect API key provided")
        send("Who am I?")
        no_key = focus.wait(lambda: shows(app, "No API key is set"), 30)
        tap(no_key and not shows(app, "refused"),
            "a 401 without a key says that no key is set, not that it was refused")
        tap(shows(app, "Add one in Preferences"), "and where to set one")

        # What is typed and not sent stays with its chat
        xdotool("type", "--delay", "20", "Unsent words")
        open_conversation(focus, 1)
        focus.wait(lambda: shows(app, "Once upon a time"), 10)
        other = composer_text(app)
        open_conversation(focus, 0)
        focus.wait(lambda: shows(app, "Who am I?"), 10)
        back = composer_text(app)
        tap(other == "" and back == "Unsent words",
            "each chat keeps its draft (%r there, %r back)" % (other, back))

        # Quit, and start again: the failed turns still say why, with Retry
        tap(chat.quit() == 0, "Ctrl+Q quits")
        app = chat.start()
        if app is None:
            tap(False, "the app starts again")
            return
        kept = focus.wait(lambda: shows(app, "No API key is set") and "Retry" in names(app), 20)
        tap(kept, "restarted: the last chat's error is there, with Retry")
        open_conversation(focus, 1)
        cut = focus.wait(lambda: shows(app, "The connection to the model server was lost"), 10)
        tap(cut and shows(app, "Connection lost") and not shows(app, "Stopped"),
            "the other chat: the cut answer and its error, as they were")

        # Retry, from the keyboard: Tab to it, Return
        server.add_text("The whole story.")
        where = None
        for _ in range(80):
            where = focus.press("Tab")
            if where is None or where == ("push button", "Retry"):
                break
        focus.press("Return")
        whole = focus.wait(lambda: shows(app, "The whole story.") and turn_over(app), 30)
        tap(where == ("push button", "Retry") and whole and
            not shows(app, "The connection to the model server was lost"),
            "Retry, reached with Tab, brings the answer and the error goes")

        chat.quit()
        app = chat.start()
        again = app is not None and focus.wait(lambda: shows(app, "The whole story."), 20)
        tap(again and not shows(app, "Connection lost") and not shows(app, "was lost"),
            "and it stays gone after a restart")

        # agent-cli adds to the conversation (its answer held): the app's turn
        # waits for it, saying so, then comes after it
        cli_answer = server.add_text("From the terminal.", hold=True)
        n_requests = len(server.requests)
        cli = subprocess.Popen([os.environ["AGENT_CLI"], "--continue", "Terminal question"],
                               env=chat.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        focus.wait(lambda: len(server.requests) > n_requests, 30)
        server.add_text("After the terminal.")
        send("App question")
        waited = focus.wait(lambda: shows(app, "Waiting for another program using this "
                                          "conversation…"), 20)
        sent_meanwhile = len(server.requests) - n_requests
        cli_answer.release()
        cli_status = cli.wait(60)
        after = focus.wait(lambda: shows(app, "After the terminal.") and turn_over(app), 30)
        tap(waited and sent_meanwhile == 1 and cli_status == 0 and after and
            shows(app, "From the terminal.") and
            not shows(app, "Waiting for another program using this conversation…"),
            "a turn waits while agent-cli adds to the conversation, then follows it")
    finally:
        chat.kill()
        server.close()


home = tempfile.mkdtemp(prefix="test-gui-turns-")
try:
    main(home)
finally:
    shutil.rmtree(home, ignore_errors=True)
sys.exit(finish(N_TESTS))
