#!/usr/bin/python3
# test-gui-attach-e2e.py: files dragged onto agent-chat from another
# program, for real: a drag source in a window of its own (dragsource.py),
# the pointer driven by xdotool (press, move, release), the X drag-and-drop
# protocol between the two. Dropped on the message field, the files are
# attached (not pasted as their names); dropped on the conversation too;
# the remove button takes one off; sent, the request carries the image as
# the provider's image part, and the conversation shows it.
# Runs under dbus-run-session and xvfb-run (a screen of 800×700).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import base64
import os
import shutil
import sys
import tempfile
import time

# This folder's helpers, and agenttestgui.py, shared with tests/gtk
sys.path[:0] = [os.path.dirname(os.path.abspath(__file__)),
                os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'gui-common')]
from agenttestgui import (PNG, App, click, drag_from, find_node, finish, names,  # noqa: E402
                          start_drag_source, tap, text_of, wait_for, xdotool)
from scriptedserver import ScriptedServer  # noqa: E402

N_TESTS = 8


def attached(app, *files):
    return all("Remove " + name in names(app) for name in files)


def main(home):
    print("1..%d" % N_TESTS, flush=True)
    image = os.path.join(home, "dropped.png")
    with open(image, "wb") as f:
        f.write(PNG)
    notes = os.path.join(home, "notes.txt")
    with open(notes, "w") as f:
        f.write("Day 1: Paris\n")
    server = ScriptedServer()
    server.add_text("A red and a blue pixel.")
    chat = App(home, server.url, "scripted")
    with open(chat.keyfile, "a") as keyfile:
        keyfile.write("window-width=600\nwindow-height=600\n")
    source = None
    try:
        app = chat.start()
        tap(app is not None, "the app starts")
        if app is None:
            return
        source, window = start_drag_source(image, notes)
        tap(window is not None, "another program's window drags the files")
        if window is None:
            return

        # Onto the message field: attached, and the field holds no path
        field = find_node(app, "Message")
        drag_from(window, 300, 550)
        ok = wait_for(lambda: attached(app, "dropped.png", "notes.txt"), 10)
        tap(ok, "files dropped on the message field are attached")
        tap(field is not None and notes not in (text_of(field) or ""),
            "and their names are not pasted as text")

        # The remove button takes one off
        click(find_node(app, "Remove notes.txt"))
        tap(wait_for(lambda: "Remove notes.txt" not in names(app), 5) and
            attached(app, "dropped.png"), "Remove takes the document off, the image stays")
        click(find_node(app, "Remove dropped.png"))
        wait_for(lambda: "Remove dropped.png" not in names(app), 5)

        # Onto the conversation
        drag_from(window, 300, 250)
        tap(wait_for(lambda: attached(app, "dropped.png", "notes.txt"), 10),
            "files dropped on the conversation are attached")

        # Sent: the image as OpenAI's image part; the conversation shows it
        click(find_node(app, "Remove notes.txt"))
        wait_for(lambda: "Remove notes.txt" not in names(app), 5)
        # (the drag source's window goes: it may keep the keyboard)
        source.kill()
        source.wait(10)
        source = None
        xdotool("mousemove", "300", "555", "click", "1")
        time.sleep(0.5)
        xdotool("type", "--delay", "20", "What is this?")
        xdotool("key", "Return")
        wait_for(lambda: "A red and a blue pixel." in " ".join(names(app)), 20)
        request = server.requests[-1] if server.requests else {}
        print("# %d requests" % len(server.requests), flush=True)
        content = request.get("messages", [{}])[-1].get("content", [])
        images = [part for part in content if isinstance(part, dict) and
                  part.get("type") == "image_url"]
        tap(len(images) == 1 and images[0]["image_url"]["url"] ==
            "data:image/png;base64," + base64.b64encode(PNG).decode(),
            "the request carries the image as a data URL")
        tap(wait_for(lambda: "View dropped.png" in names(app), 10) and
            "Remove dropped.png" not in names(app),
            "the conversation shows the picture; the composer is empty")
    finally:
        if source is not None:
            source.kill()
            source.wait(10)
        chat.quit()
        server.close()


home = tempfile.mkdtemp(prefix="test-gui-attach-e2e-")
try:
    main(home)
finally:
    shutil.rmtree(home, ignore_errors=True)
sys.exit(finish(N_TESTS))
