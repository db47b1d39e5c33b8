#!/usr/bin/python3
# test-gui-read-aloud-e2e.py: Read Aloud in the real agent-chat. An answer
# of a scripted server is read by the local voice (espeak-ng) into a WAV
# file: the speakers are $AGENT_CHAT_AUDIO_SINK, played in real time. The
# pointer goes over the answer and clicks its Read Aloud (xdotool, where
# the accessibility tree says it is): the button becomes Stop Reading and
# the audio reaches the file; Stop Reading stops it (the file grows no
# more) and the button is Read Aloud again; clicked again, the answer is
# read to its end and the button comes back by itself. Shift+Tab from the
# message field reaches it, and Space starts and stops it. Under
# dbus-run-session and xvfb-run.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sys

import pyatspi

# This folder's helpers, and agenttestgui.py, shared with tests/gtk
sys.path[:0] = [os.path.dirname(os.path.abspath(__file__)),
                os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'gui-common')]
from agenttestgui import (App, FocusTracker, all_nodes, click_at, find_node,  # noqa: E402
                          point_at, run_test, screenshot, send, shows, showing, tap, turn_over,
                          walking)
from scriptedserver import ScriptedServer  # noqa: E402

N_TESTS = 8

ANSWER = "The sea is calm tonight. The tide is full, the moon lies fair upon the straits."


def action(app, name):
    """The answer's button called @name, if it shows."""
    return walking(lambda: next((n for n in all_nodes(app)
                                 if n.getRole() == pyatspi.ROLE_PUSH_BUTTON and n.name == name and
                                 showing(n)), None))


def answer_text(app):
    return walking(lambda: next((n for n in all_nodes(app) if n.getRole() == pyatspi.ROLE_LABEL and
                                 (n.name or "").startswith("The sea is calm")), None))


def size(path):
    return os.path.getsize(path) if os.path.exists(path) else 0


def main(home):
    out = os.path.join(home, "speakers.wav")
    server = ScriptedServer()
    focus = FocusTracker()
    chat = App(home, server.url, "scripted", "window-width=800\nwindow-height=700\n")
    chat.env["AGENT_CHAT_AUDIO_SINK"] = "identity sync=true ! wavenc ! filesink location=%s" % out
    try:
        app = chat.start()
        if app is None:
            tap(False, "the app starts")
            return
        server.add_text(ANSWER)
        send("Read me something about the sea")
        text = focus.wait(lambda: turn_over(app) and shows(app, "The sea is calm") and
                          answer_text(app), 30)
        button = None
        if text is not None:
            point_at(text)
            button = focus.wait(lambda: action(app, "Read Aloud"), 10)
        tap(button is not None, "the answer offers Read Aloud")
        if button is None:
            return

        # Read Aloud: Stop Reading, and the audio reaches the speakers
        click_at(button)
        stop = focus.wait(lambda: action(app, "Stop Reading"), 10)
        screenshot("read-aloud-reading")
        tap(stop is not None, "a click reads the answer: the button is Stop Reading")
        heard = focus.wait(lambda: size(out) > 8000, 20)
        tap(heard, "the voice reaches the speakers (%d bytes)" % size(out))

        # Stop Reading: the button is Read Aloud again, the audio stops
        if stop is not None:
            click_at(stop)
        back = focus.wait(lambda: action(app, "Read Aloud"), 10)
        stopped = size(out)
        focus.pump(1.5)
        tap(back is not None and size(out) == stopped,
            "Stop Reading stops it (%d bytes, then %d)" % (stopped, size(out)))

        # Read to its end: the button comes back by itself
        click_at(back if back is not None else button)
        reading = focus.wait(lambda: action(app, "Stop Reading"), 10)
        done = focus.wait(lambda: action(app, "Read Aloud"), 60) if reading else None
        tap(reading is not None and done is not None and size(out) > stopped,
            "read to its end, the button is Read Aloud again (%d bytes)" % size(out))
        tap(not shows(app, "Read Aloud failed"), "no error was shown")

        # The keyboard: Shift+Tab from the message field reaches it, Space reads and stops
        click_at(find_node(app, "Message", pyatspi.ROLE_TEXT))
        focus.pump(0.5)
        reached = None
        for _ in range(12):
            moved = focus.press("shift+Tab")
            if moved is not None and moved[1] == "Read Aloud":
                reached = moved
                break
        tap(reached is not None, "Shift+Tab from the message field reaches Read Aloud")
        spoken = None
        if reached is not None:
            focus.press("space")
            spoken = focus.wait(lambda: action(app, "Stop Reading"), 10)
            focus.press("space")
        tap(spoken is not None and focus.wait(lambda: action(app, "Read Aloud"), 10),
            "Space reads the answer (Stop Reading) and Space again stops it")
    finally:
        chat.kill()
        server.close()


run_test("test-gui-read-aloud-", N_TESTS, main)
