#!/usr/bin/python3
# test-gui-e2e.py: the real agent-chat against the real demo server, driven
# like a person would: the keyboard through xdotool, the screen read through
# the accessibility tree (AT-SPI). Runs under dbus-run-session and xvfb-run.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import shutil
import subprocess
import sys
import tempfile
import time


# This folder's helpers, and agenttestgui.py, shared with tests/gtk
sys.path[:0] = [os.path.dirname(os.path.abspath(__file__)),
                os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'gui-common')]
from agenttestgui import all_nodes, find_app, results, tap, wait_for  # noqa: E402


def names(app):
    return [n.name for n in all_nodes(app) if n.name]


def has_name(app, predicate):
    return any(predicate(name) for name in names(app))


def xdotool(*args):
    subprocess.run(["xdotool"] + list(args), check=True)


def main(data_home):
    print("1..6", flush=True)
    env = dict(os.environ)
    env.pop("NO_AT_BRIDGE", None)
    env["GTK_A11Y"] = "atspi"
    # The conversations it keeps go to a directory of its own
    env["XDG_DATA_HOME"] = data_home

    demo = subprocess.Popen([os.environ["AGENT_DEMO_SERVER"], "--quiet", "--delay-ms", "150",
                             "--exit-on-stdin-eof"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    url = demo.stdout.readline().strip()
    app_process = subprocess.Popen([os.environ["AGENT_CHAT"], "--provider", "openai",
                                    "--base-url", url, "--model", "demo"], env=env)
    try:
        app = wait_for(find_app, 30)
        tap(app is not None, "the app shows in the accessibility tree")
        if app is None:
            return
        window = wait_for(lambda: subprocess.run(["xdotool", "search", "--name", "Agent Chat"],
                                                 capture_output=True, text=True).stdout.split())
        xdotool("windowfocus", "--sync", window[0])
        time.sleep(0.5)

        # The composer has the focus at start: type, Return sends
        xdotool("type", "--delay", "30", "What is 17 * 23 + 4?")
        xdotool("key", "Return")
        answer = "The result of 17 * 23 + 4 is 395."
        tap(wait_for(lambda: has_name(app, lambda n: n == "Tool call: calculator"), 30) is not None,
            "the tool call shows as a card")
        tap(wait_for(lambda: has_name(app, lambda n: n == answer), 30) is not None,
            "the streamed answer shows")

        # The turn is over when Stop turns back into Send
        wait_for(lambda: has_name(app, lambda n: n == "Send") and
                 not has_name(app, lambda n: n == "Stop"), 30)

        # A second turn, stopped with Escape mid-stream
        xdotool("type", "--delay", "30", "Hello there")
        xdotool("key", "Return")
        partial = wait_for(lambda: [n for n in names(app) if n.startswith("Hello! I am")], 30)
        tap(partial is not None, "the second answer starts streaming")
        xdotool("key", "Escape")
        stopped = wait_for(lambda: has_name(app, lambda n: n == "Stopped"), 15)
        tap(stopped is not None, "Escape stops the turn and the answer is marked as stopped")
        time.sleep(1.0)
        kept = [n for n in names(app) if n.startswith("Hello! I am")]
        complete = has_name(app, lambda n: "Tool calling" in n)
        tap(len(kept) > 0 and not complete, "the partial answer stays on screen, cut short")
    finally:
        app_process.terminate()
        try:
            app_process.wait(10)
        except subprocess.TimeoutExpired:
            app_process.kill()
        demo.stdin.close()
        demo.wait(10)


data_home = tempfile.mkdtemp(prefix="test-gui-e2e-")
try:
    main(data_home)
finally:
    shutil.rmtree(data_home, ignore_errors=True)
passed = sum(1 for r in results if r)
print("# %d passed, %d failed" % (passed, len(results) - passed))
sys.exit(0 if passed == len(results) == 6 else 1)
