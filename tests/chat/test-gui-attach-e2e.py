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
import struct
import shutil
import subprocess
import sys
import tempfile
import time
import zlib

# This folder's helpers, and agenttestgui.py, shared with tests/gtk
sys.path[:0] = [os.path.dirname(os.path.abspath(__file__)),
                os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'gui-common')]
from agenttestgui import (App, click, find_node, finish, names, tap, text_of,  # noqa: E402
                          wait_for, xdotool)
from scriptedserver import ScriptedServer  # noqa: E402

N_TESTS = 7
HERE = os.path.dirname(os.path.abspath(__file__))


def png_chunk(kind, data):
    return (struct.pack(">I", len(data)) + kind + data +
            struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff))


# A 2×1 PNG, a red pixel and a blue one
PNG = (b"\x89PNG\r\n\x1a\n" +
       png_chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 1, 8, 2, 0, 0, 0)) +
       png_chunk(b"IDAT", zlib.compress(b"\x00\xff\x00\x00\x00\x00\xff")) +
       png_chunk(b"IEND", b""))


def drag(source, to_x, to_y):
    """Presses in the middle of @source, moves to (@to_x, @to_y) on the way
    a hand would, releases."""
    xdotool("mousemove", "--window", source, "80", "80")
    time.sleep(0.3)
    xdotool("mousedown", "1")
    x, y = 700, 150
    for step in range(1, 9):
        xdotool("mousemove", str(x + (to_x - x) * step // 8), str(y + (to_y - y) * step // 8))
        time.sleep(0.2)
    time.sleep(0.3)
    xdotool("mouseup", "1")


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
        source = subprocess.Popen(["/usr/bin/python3", os.path.join(HERE, "dragsource.py"),
                                   image, notes])
        windows = wait_for(lambda: subprocess.run(["xdotool", "search", "--name", "drag-source"],
                                                  capture_output=True, text=True).stdout.split(),
                           20)
        subprocess.run(["xdotool", "windowmove", windows[0], "620", "70"])
        time.sleep(1)

        # Onto the message field: attached, and the field holds no path
        field = find_node(app, "Message")
        drag(windows[0], 300, 550)
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
        drag(windows[0], 300, 250)
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
