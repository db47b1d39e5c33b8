#!/usr/bin/python3
# test-gui-numbers-e2e.py: the numbers a person reads in agent-chat, through
# real input (xdotool) and the accessibility tree (AT-SPI), against a
# scripted server whose model window is 128,000 tokens:
# - an image pasted (Ctrl+V) counts as OpenAI bills it (a 1200 × 900
#   PNG is 765 tokens), said to be an estimate; it is sent at the size the
#   API uses (1024 × 768);
# - the meter follows an answer while it streams, then shows the server's
#   count;
# - past the window it says so and turns to the error colour (read on a
#   screenshot);
# - an answer shows when it was made, by which model, its tokens and time,
#   under the pointer and with the keyboard focus, and says so to a screen
#   reader;
# - Preferences › Scale Images Down, switched off with a click, sends the
#   next image at its full size.
# Runs under dbus-run-session and xvfb-run (a screen of 800 × 700).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import base64
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

import gi
import pyatspi

gi.require_version("GdkPixbuf", "2.0")
from gi.repository import GdkPixbuf  # noqa: E402

# This folder's helpers, and agenttestgui.py, shared with tests/gtk
sys.path[:0] = [os.path.dirname(os.path.abspath(__file__)),
                os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'gui-common')]
from agenttestgui import (App, FocusTracker, all_nodes, find_node, finish, helper,  # noqa: E402
                          focus_mapped, names, png_chunk, shows, tap, turn_over, walking,
                          xdotool)
from scriptedserver import Response, ScriptedServer, text_events  # noqa: E402

N_TESTS = 10
MODEL = "scripted-vision-1"


def grey_png(width, height):
    """A black 1-bit PNG of @width × @height."""
    raw = (b"\x00" + b"\x00" * ((width + 7) // 8)) * height
    return (b"\x89PNG\r\n\x1a\n" +
            png_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)) +
            png_chunk(b"IDAT", zlib.compress(raw, 9)) + png_chunk(b"IEND", b""))


def image_size(data):
    """The width and height of a PNG or a JPEG, from its header."""
    if data.startswith(b"\x89PNG"):
        return struct.unpack(">II", data[16:24])
    i = 2
    while i + 9 < len(data):
        marker, length = data[i + 1], struct.unpack(">H", data[i + 2:i + 4])[0]
        if 0xc0 <= marker <= 0xc3:
            height, width = struct.unpack(">HH", data[i + 5:i + 9])
            return width, height
        i += 2 + length
    return None


def sent_image(server):
    """The size of the image of the last request's last user message."""
    request = server.requests[-1] if server.requests else {}
    for message in reversed(request.get("messages", [])):
        if message.get("role") != "user" or not isinstance(message.get("content"), list):
            continue
        for part in message["content"]:
            if part.get("type") == "image_url":
                url = part["image_url"]["url"]
                return image_size(base64.b64decode(url.split(",", 1)[1]))
    return None


def meter_node(app):
    return walking(lambda: next((n for n in all_nodes(app)
                                 if n.name and n.name.startswith("Context:")), None))


def meter_says(node):
    """(tokens used, window or None, whether an estimate, whether past the
    window) of the meter's name, or None."""
    try:
        # Read anew: AT-SPI's cache may hold the name of a while ago
        node.clear_cache()
        name = node.name
    except Exception:
        return None
    match = re.match(r"Context: (about )?([\d,.' ]+?)(?: of ([\d,.' ]+?))? tokens used(, more)?",
                     name or "")
    if match is None:
        return None
    number = lambda text: int(re.sub(r"[^\d]", "", text)) if text else None  # noqa: E731
    return number(match.group(2)), number(match.group(3)), bool(match.group(1)), \
        bool(match.group(4))


def focus_message_field(app):
    field = find_node(app, "Message")
    box = field.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    xdotool("mousemove", str(box.x + 20), str(box.y + box.height // 2), "click", "1")


def attach(app, focus, path):
    """@path copied by another program, pasted into the message field with
    Ctrl+V."""
    source = subprocess.Popen(helper("clipsource.py") + [path], stdout=subprocess.PIPE, text=True)
    try:
        if source.stdout.readline().strip() != "ready":
            return False
        focus_mapped()
        focus_message_field(app)
        xdotool("key", "ctrl+v")
        return focus.wait(lambda: "Remove " + os.path.basename(path) in names(app), 20)
    finally:
        source.kill()
        source.wait(10)


def has_state(node, state):
    try:
        return node.getState().contains(state)
    except Exception:
        return False


def info_label(app):
    """The label that says how the last answer was made (GTK 4.8 has only the
    labels it shows in the tree, and says they are visible, not showing)."""
    found = walking(lambda: [n for n in all_nodes(app)
                             if n.name and " · " + MODEL in n.name and
                             n.getRole() == pyatspi.ROLE_LABEL])
    return found[-1] if found else None


def scale_switch(app):
    """The switch of Preferences › Scale Images Down (GTK 4.8: a check box,
    named after its row and its own label)."""
    return walking(lambda: next((n for n in all_nodes(app)
                                 if n.getRole() == pyatspi.ROLE_CHECK_BOX and n.name and
                                 n.name.startswith("Scale Images Down") and
                                 has_state(n, pyatspi.STATE_VISIBLE)), None))


def desktop_box(node):
    box = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    return (box.x, box.y, box.width, box.height)


def wheel_into_view(focus, node):
    """Turns the wheel over @node's window until @node lies within it (the
    General page's switches are below its servers): its box, or None."""
    window = node
    while window is not None and window.getRole() not in (pyatspi.ROLE_FRAME,
                                                          pyatspi.ROLE_DIALOG,
                                                          pyatspi.ROLE_WINDOW):
        window = window.parent
    if window is None:
        return None
    for _ in range(30):
        x, y, width, height = desktop_box(window)
        box = desktop_box(node)
        if box[1] >= y and box[1] + box[3] <= y + height:
            return box
        xdotool("mousemove", str(x + width // 2), str(y + height // 2), "click",
                "5" if box[1] + box[3] > y + height else "4")
        focus.wait(lambda: desktop_box(node) != box, 2)
    return None


def red_pixels(path, box):
    """How many pixels of @box in the screenshot at @path are the error red."""
    pixbuf = GdkPixbuf.Pixbuf.new_from_file(path)
    pixels = pixbuf.get_pixels()
    stride, n = pixbuf.get_rowstride(), pixbuf.get_n_channels()
    count = 0
    for y in range(max(0, box.y), min(pixbuf.get_height(), box.y + box.height)):
        for x in range(max(0, box.x), min(pixbuf.get_width(), box.x + box.width)):
            r, g, b = pixels[y * stride + x * n:y * stride + x * n + 3]
            if r > 170 and g < 110 and b < 110:
                count += 1
    return count


def screenshot(home, name):
    path = os.path.join(home, name)
    subprocess.run(["import", "-window", "root", path], check=True)
    shots = os.environ.get("AGENT_TEST_SCREENSHOTS")
    if shots:
        shutil.copy(path, os.path.join(shots, name))
    return path


def main(home):
    print("1..%d" % N_TESTS, flush=True)
    photo = os.path.join(home, "photo.png")
    with open(photo, "wb") as f:
        f.write(grey_png(1200, 900))
    second = os.path.join(home, "second.png")
    with open(second, "wb") as f:
        f.write(grey_png(1200, 900))
    server = ScriptedServer()
    server.models = [MODEL]
    chat = App(home, server.url, MODEL)
    with open(chat.keyfile, "a") as keyfile:
        keyfile.write("context-window=uint32 128000\nwindow-width=760\nwindow-height=640\n")
    focus = FocusTracker()
    try:
        app = chat.start()
        tap(app is not None, "the app starts")
        if app is None:
            return

        # 1. An image counts as the API bills it, said to be an estimate
        server.add(Response(events=text_events("A grey field.", model=MODEL)))
        attached = attach(app, focus, photo)
        focus_message_field(app)
        xdotool("type", "--delay", "20", "Describe it")
        xdotool("key", "Return")
        focus.wait(lambda: shows(app, "A grey field.") and turn_over(app), 30)
        meter = meter_node(app)
        said = meter_says(meter) if meter else None
        # "Describe it" and the answer at 4 bytes a token, the image 765
        tap(attached and said is not None and said[2] and 765 < said[0] < 800 and
            said[1] == 128000, "an image counts as OpenAI bills it, said to be an estimate (%r)"
            % (meter.name if meter else None,))
        tap(sent_image(server) == (1024, 768),
            "the image is sent at the size OpenAI uses (%r)" % (sent_image(server),))

        # 2. The meter follows an answer while it streams
        words = " ".join("word%d" % i for i in range(3000))
        server.add(Response(events=text_events(words, usage=(2000, 40000), model=MODEL),
                            interval=0.002))
        focus_message_field(app)
        xdotool("type", "--delay", "20", "Write at length")
        xdotool("key", "Return")
        seen = []

        def counted():
            """Each new number of the meter; true once it is the server's count"""
            said = meter_says(meter)
            if said is not None and (not seen or said[0] != seen[-1]):
                seen.append(said[0])
            return said is not None and said[0] == 42000 and not said[2]
        final = focus.wait(counted, 90)
        during = seen[1:-1]
        tap(final and len(during) >= 2 and during == sorted(during) and seen[0] < 1000,
            "the meter follows the answer as it streams, then shows the server's count (%r)"
            % (seen,))
        focus.wait(lambda: turn_over(app), 30)

        # 3. Past the window: said, and in the error colour
        server.add(Response(events=text_events("Too much.", usage=(130000, 500), model=MODEL)))
        focus_message_field(app)
        xdotool("type", "--delay", "20", "Go on")
        xdotool("key", "Return")
        focus.wait(lambda: shows(app, "Too much.") and turn_over(app), 30)
        over = focus.wait(lambda: (meter_says(meter) or (0, 0, 0, 0))[3], 10)
        shot = screenshot(home, "numbers-over-window.png")
        box = meter.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        reds = red_pixels(shot, box)
        tap(over and reds > 20, "past the window the meter says so, in red (%r, %d red pixels)"
            % (meter.name, reds))

        # 4. How an answer was made: under the pointer
        label = info_label(app)
        hidden = label is None or not has_state(label, pyatspi.STATE_VISIBLE)
        answers = walking(lambda: [n for n in all_nodes(app) if n.name == "Answer"])
        row = answers[-1] if answers else None
        if row is not None:
            box = row.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
            xdotool("mousemove", str(box.x + box.width // 2), str(box.y + box.height // 2))
        label = focus.wait(lambda: (lambda n: n if n is not None and
                                    has_state(n, pyatspi.STATE_VISIBLE) else None)(
                                        info_label(app)), 10)
        text = label.name if label is not None else ""
        tap(hidden and re.search(r"\d+:\d\d · " + MODEL + r" · 500 tokens · [\d.]+ (s|ms)$",
                                 text or "") is not None,
            "under the pointer, the answer shows when, which model, its tokens and time (%r)"
            % text)
        screenshot(home, "numbers-answer-info.png")
        try:
            description = row.description if row is not None else ""
        except Exception:
            description = ""
        tap(description.startswith("Answered ") and MODEL in description and
            re.search(r"500 tokens \(130.?000 in the request\)", description) is not None,
            "and says so to a screen reader (%r)" % description[:120])

        # 5. ...and with the keyboard focus, the pointer away
        xdotool("mousemove", "5", "5")
        focus.wait(lambda: not has_state(info_label(app), pyatspi.STATE_VISIBLE), 10)
        gone = not has_state(info_label(app), pyatspi.STATE_VISIBLE)
        focus_message_field(app)
        moved = None
        for key in ["shift+Tab"] * 6:
            moved = focus.press(key)
            if moved is not None and moved[1] in ("Your message", "Answer"):
                break
        for key in ["Down"] * 6:
            if moved is not None and moved[1] == "Answer" and \
               focus.node.description.startswith("Answered") and "Too much." in focus.node.description:
                break
            moved = focus.press(key)
        moved = moved is not None and moved[1] == "Answer"
        shown = focus.wait(lambda: has_state(info_label(app), pyatspi.STATE_VISIBLE), 10)
        tap(gone and moved and shown, "with the keyboard focus on the answer, too "
            "(gone %r, focused %r, shown %r)" % (gone, moved, shown))

        # 6. Preferences › Scale Images Down, clicked off: the next image is sent whole
        focus_message_field(app)
        xdotool("key", "ctrl+comma")
        switch = focus.wait(lambda: scale_switch(app), 20)
        was_on = switch is not None and has_state(switch, pyatspi.STATE_CHECKED)
        box = wheel_into_view(focus, switch) if switch is not None else None
        if box is not None:
            xdotool("mousemove", str(box[0] + box[2] // 2), str(box[1] + box[3] // 2),
                    "click", "1")
        off = switch is not None and focus.wait(
            lambda: not has_state(switch, pyatspi.STATE_CHECKED), 10)
        tap(was_on and off, "Preferences › Scale Images Down is on, and a click turns it off")
        xdotool("key", "Escape")
        focus.wait(lambda: scale_switch(app) is None, 10)
        server.add(Response(events=text_events("The same grey.", model=MODEL)))
        attached = attach(app, focus, second)
        focus_message_field(app)
        xdotool("type", "--delay", "20", "And this one")
        xdotool("key", "Return")
        focus.wait(lambda: shows(app, "The same grey.") and turn_over(app), 30)
        tap(attached and len(server.requests) == 4 and sent_image(server) == (1200, 900),
            "off, the next image is sent at its full size (attached %r, %d requests, %r)"
            % (attached, len(server.requests), sent_image(server)))
    finally:
        chat.kill()
        server.close()


home = tempfile.mkdtemp(prefix="test-gui-numbers-")
try:
    main(home)
finally:
    shutil.rmtree(home, ignore_errors=True)
sys.exit(finish(N_TESTS))
