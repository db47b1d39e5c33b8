#!/usr/bin/python3
# make-screenshots.py: the screenshots of agent-chat in this folder, taken
# from the real app (a build tree's) against a scripted server, under Xvfb:
#
#   dbus-run-session -- xvfb-run -a -s '-screen 0 1280x900x24' \
#     /usr/bin/python3 docs/screenshots/make-screenshots.py _build [long | attachments | failed | demo]
#
# All the scenes when none is given; with "demo", only the README's (the
# app against agent-demo-server, the calculator answering); with "long", only the long
# conversation's (the context meter and a summary's marker); with
# "attachments", only the attachments'; with "failed", only the failed
# turn kept in the history.
#
# Each scene is a window of its own size, captured with ImageMagick's
# import. Look at them before committing them.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "_build")
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "gui"))
os.environ.setdefault("AGENT_CHAT", os.path.join(BUILD, "gui", "agent-chat"))
os.environ.setdefault("GSETTINGS_SCHEMA_DIR", os.path.join(BUILD, "data"))
os.environ["GSK_RENDERER"] = "cairo"

from agenttestgui import (App, FocusTracker, all_nodes, find_node, names, send, shows,  # noqa: E402
                          turn_over, wait_for, xdotool)
from scriptedserver import ScriptedServer  # noqa: E402

RICH = """Here is the plan, with the numbers:

| Day | City | Budget |
|:----|:-----|-------:|
| 1 | Paris | 120 € |
| 2 | Lyon | 90 € |
| 3 | Nice | 150 € |

> Book the trains early: prices rise in May.

- [x] Passport
- [ ] Rail pass

The total is $\\sum_{d=1}^{3} b_d = 360$ €, about $\\frac{360}{3} = 120$ € a day.

```python
budget = {"Paris": 120, "Lyon": 90, "Nice": 150}
print(sum(budget.values()))  # 360
```
"""

TRIP = ('{"city": "Berlin", "days": 3, "notes": "Museums in the morning, long walks along '
        'the Spree in the afternoon, and a concert at night", "stops": [{"name": "Mitte", '
        '"hours": 2}, {"name": "Kreuzberg"}]}')


def window_id():
    ids = subprocess.run(["xdotool", "search", "--onlyvisible", "--class", "agent-chat"],
                         capture_output=True, text=True).stdout.split()
    return ids


def shot(name, window=None):
    time.sleep(1.0)
    target = window or window_id()[-1]
    subprocess.run(["import", "-window", target, os.path.join(HERE, name)], check=True)
    print("wrote", name)


def shot_root(name, window):
    """The window with what pops over it (a popover is a window of its own)."""
    time.sleep(1.0)
    geometry = subprocess.run(["xdotool", "getwindowgeometry", "--shell", window],
                              capture_output=True, text=True).stdout
    values = dict(line.split("=", 1) for line in geometry.split())
    crop = "%sx%s+%s+%s" % (values["WIDTH"], values["HEIGHT"], values["X"], values["Y"])
    subprocess.run(["import", "-window", "root", "-crop", crop, "+repage",
                    os.path.join(HERE, name)], check=True)
    print("wrote", name)


def geometry(window):
    text = subprocess.run(["xdotool", "getwindowgeometry", "--shell", window],
                          capture_output=True, text=True).stdout
    values = dict(line.split("=", 1) for line in text.split())
    return (int(values["X"]), int(values["Y"]), int(values["WIDTH"]), int(values["HEIGHT"]))


def shot_over(name, window, over):
    """@window with @over (a popover: a window of its own, whose shadow Xvfb
    draws black, having no compositor) laid on it where it shows."""
    time.sleep(1.0)
    x, y, width, height = geometry(window)
    ox, oy, _, _ = geometry(over)
    base = os.path.join(HERE, ".base.png")
    top = os.path.join(HERE, ".over.png")
    subprocess.run(["import", "-window", window, base], check=True)
    subprocess.run(["import", "-window", over, top], check=True)
    from gi.repository import GdkPixbuf
    under = GdkPixbuf.Pixbuf.new_from_file(base)
    above = GdkPixbuf.Pixbuf.new_from_file(top).add_alpha(True, 0, 0, 0)
    left, upper = ox - x, oy - y
    w = min(above.get_width(), under.get_width() - left)
    h = min(above.get_height(), under.get_height() - upper)
    above.composite(under, left, upper, w, h, left, upper, 1, 1, GdkPixbuf.InterpType.NEAREST,
                    255)
    under.savev(os.path.join(HERE, name), "png", [], [])
    os.unlink(base)
    os.unlink(top)
    print("wrote", name)


def center_over(window, over):
    """No window manager places a dialog: over @window's middle, as GNOME's would."""
    x, y, width, height = geometry(window)
    _, _, w, h = geometry(over)
    subprocess.run(["xdotool", "windowmove", over, str(x + (width - w) // 2),
                    str(y + (height - h) // 2)])
    time.sleep(0.5)


def resize(width, height):
    for window in window_id():
        subprocess.run(["xdotool", "windowsize", window, str(width), str(height)])
    time.sleep(1.0)


def scene(home, server, width, height, dark=False, tools=None, extra=None):
    chat = App(home, server.url, "scripted")
    with open(chat.keyfile, "a") as keyfile:
        keyfile.write("window-width=%d\nwindow-height=%d\n" % (width, height))
        if tools is not None:
            keyfile.write("enabled-tools=%s\n" % tools)
        if extra:
            keyfile.write(extra)
    if dark:
        chat.env["ADW_DEBUG_COLOR_SCHEME"] = "prefer-dark"
    # GNOME's window buttons: close alone
    gtk = os.path.join(home, "config", "gtk-4.0")
    os.makedirs(gtk, exist_ok=True)
    with open(os.path.join(gtk, "settings.ini"), "w") as settings:
        settings.write("[Settings]\ngtk-decoration-layout=appmenu:close\n")
    return chat


def long_conversation(home, server, focus):
    """Summarize Older Turns: the meter past the threshold, then a summary's
    marker, unfolded, at 800 and 360 px, dark."""
    server.context_windows = {"scripted": 128000}
    extra = "context-strategy='summarize'\ncontext-keep-turns=uint32 1\n"
    chat = scene(home, server, 800, 640, dark=True, extra=extra)
    app = chat.start()
    xdotool("key", "ctrl+n")
    server.add_text("Paris, Lyon and Nice: one day each.", usage=(12000, 400))
    send("Plan three days in France")
    focus.wait(lambda: shows(app, "one day each") and turn_over(app), 30)
    server.add_text("Trains are quickest: the TGV links all three.", usage=(104000, 2000))
    send("How do I travel between them?")
    focus.wait(lambda: shows(app, "the TGV links") and turn_over(app), 30)
    xdotool("mousemove", "5", "5")
    shot("agent-chat-context-warning.png")
    server.add_text("They planned three days in France (Paris, Lyon, Nice), travelling by TGV.",
                    usage=(30000, 60))
    server.add_text("Book the trains early: prices rise in May.", usage=(900, 20))
    send("Any advice?")
    focus.wait(lambda: shows(app, "prices rise") and turn_over(app), 30)
    # The marker's expander (its label has the same name, and no action)
    for node in all_nodes(app):
        if node.name == "Earlier messages summarized" and node.queryAction().nActions > 0:
            node.queryAction().doAction(0)
            break
    focus.wait(lambda: shows(app, "travelling by TGV"), 10)
    xdotool("mousemove", "5", "5")
    shot("agent-chat-summary.png")
    resize(360, 640)
    shot("agent-chat-summary-narrow.png")
    chat.quit()
    server.context_windows = {}


def attach(path):
    """The Attach button's file chooser (Ctrl+O), given @path to type."""
    # (no window manager gives the focus back when a dialog goes)
    xdotool("windowfocus", window_id()[0])
    xdotool("key", "ctrl+o")
    time.sleep(2.5)
    xdotool("key", "ctrl+l")
    xdotool("type", "--delay", "10", path)
    time.sleep(0.5)
    xdotool("key", "Return")
    time.sleep(1.5)


def picture(path):
    """A picture to attach: a platform under a blue-to-green sky, a sun."""
    from gi.repository import GdkPixbuf
    width, height = 960, 600
    image = GdkPixbuf.Pixbuf.new(GdkPixbuf.Colorspace.RGB, True, 8, width, height)
    for y in range(height):
        t = y / height
        red, green, blue = int(0x1c + (0x2e - 0x1c) * t), int(0x71 + (0xc2 - 0x71) * t), \
            int(0xd8 + (0x7e - 0xd8) * t)
        image.new_subpixbuf(0, y, width, 1).fill((red << 24) | (green << 16) | (blue << 8) | 0xff)
    for x, y, w, h, colour in ((120, 380, 720, 60, 0xffffffff), (160, 250, 100, 130, 0xffffffff),
                               (700, 250, 100, 130, 0xffffffff), (740, 90, 80, 80, 0xf6d32dff)):
        image.new_subpixbuf(x, y, w, h).fill(colour)
    image.savev(path, "png", [], [])


def attachments(home, server, focus):
    """An image and a document in the composer, then the conversation with
    them: wide and dark, then narrow (with them in the composer again)."""
    photo = os.path.join(home, "lyon-station.png")
    picture(photo)
    itinerary = os.path.join(home, "itinerary.pdf")
    with open(itinerary, "wb") as f:
        f.write(b"%PDF-1.4\n% an itinerary\n" + b"0" * 48000 + b"\n%%EOF\n")
    chat = scene(home, server, 800, 640, dark=True)
    app = chat.start()
    xdotool("key", "ctrl+n")
    attach(photo)
    attach(itinerary)
    xdotool("type", "--delay", "10", "Which train is this, and does it fit my itinerary?")
    focus.wait(lambda: shows(app, "Remove itinerary.pdf"), 10)
    xdotool("mousemove", "5", "5")
    shot("agent-chat-attachments-composer.png")
    server.add_text("That is the TGV to Lyon at the new platform: it leaves at 9:04, which "
                    "fits day 2 of your itinerary.")
    xdotool("key", "Return")
    focus.wait(lambda: shows(app, "fits day 2") and turn_over(app), 30)
    shot("agent-chat-attachments.png")
    chat.quit()
    chat = scene(home, server, 360, 700, dark=True, extra="last-conversation=int64 1\n")
    app = chat.start()
    focus.wait(lambda: shows(app, "fits day 2"), 20)
    resize(360, 700)
    attach(photo)
    attach(itinerary)
    focus.wait(lambda: shows(app, "Remove itinerary.pdf"), 10)
    xdotool("mousemove", "5", "5")
    shot("agent-chat-attachments-narrow.png")
    chat.quit()


def failed_turn(home, server, focus):
    """A failed turn stays in the history, with Retry, after the next
    question is answered (issue 36)."""
    chat = scene(home, server, 800, 640)
    app = chat.start()
    xdotool("key", "ctrl+n")
    server.add_text("Paris, Lyon and Nice: one day each.")
    send("Plan three days in France")
    focus.wait(lambda: shows(app, "one day each") and turn_over(app), 30)
    server.add_error(400, "The engine broke, on purpose")
    send("What about Nice?")
    focus.wait(lambda: shows(app, "Retry") and turn_over(app), 30)
    server.add_text("Sunny all week.")
    send("And the weather?")
    focus.wait(lambda: shows(app, "Sunny all week") and turn_over(app), 30)
    xdotool("mousemove", "5", "5")
    shot("agent-chat-failed-turn.png")
    chat.quit()


def demo(home):
    """The README's screenshot: the app against the demo server, as `./run`
    starts it without a model server, the calculator called."""
    demo_server = subprocess.Popen([os.path.join(BUILD, "demo", "agent-demo-server"), "--quiet"],
                                   stdout=subprocess.PIPE, text=True)
    try:
        url = demo_server.stdout.readline().strip()
        chat = App(home, url, "demo", "enabled-tools=['calculator']\n"
                   "window-width=720\nwindow-height=480\n")
        gtk = os.path.join(home, "config", "gtk-4.0")
        os.makedirs(gtk, exist_ok=True)
        with open(os.path.join(gtk, "settings.ini"), "w") as settings:
            settings.write("[Settings]\ngtk-decoration-layout=appmenu:close\n")
        app = chat.start()
        focus = FocusTracker()
        send("What is 17 * 23 + 4?")
        focus.wait(lambda: shows(app, "395") and turn_over(app), 30)
        xdotool("mousemove", "5", "5")
        time.sleep(1.0)
        # Small enough for the README: a palette of 64 colours
        subprocess.run(["import", "-window", window_id()[-1], "-colors", "64",
                        "PNG8:" + os.path.join(HERE, "agent-chat.png")], check=True)
        print("wrote agent-chat.png")
        chat.quit()
    finally:
        demo_server.terminate()
        demo_server.wait()


def main():
    scenes = sys.argv[2:]
    if scenes == ["demo"]:
        home = tempfile.mkdtemp(prefix="screenshots-")
        try:
            demo(home)
        finally:
            shutil.rmtree(home, ignore_errors=True)
        return
    server = ScriptedServer()
    if scenes == ["long"]:
        home = tempfile.mkdtemp(prefix="screenshots-")
        try:
            long_conversation(home, server, FocusTracker())
        finally:
            server.close()
            shutil.rmtree(home, ignore_errors=True)
        return
    server.models = ["scripted", "gpt-4o-mini", "llama3.2:3b", "qwen2.5-coder:7b", "mistral-small"]
    home = tempfile.mkdtemp(prefix="screenshots-")
    focus = FocusTracker()
    if scenes == ["failed"]:
        try:
            failed_turn(home, server, focus)
        finally:
            server.close()
            shutil.rmtree(home, ignore_errors=True)
        return
    if "attachments" in sys.argv[2:]:
        try:
            attachments(home, server, focus)
        finally:
            server.close()
            shutil.rmtree(home, ignore_errors=True)
        return
    try:
        # The empty chat
        chat = scene(home, server, 900, 640)
        app = chat.start()
        shot("agent-chat-empty.png")

        # A rich answer
        server.add_text(RICH, words=False)
        send("Plan three days in France for 360 euros")
        focus.wait(lambda: shows(app, "Book the trains early") and turn_over(app), 30)
        xdotool("mousemove", "5", "5")
        shot("agent-chat-streaming.png")

        # The model picker
        click_title = find_node(app, "Choose Model")
        if click_title is not None:
            from agenttestgui import click_at
            click_at(click_title)
            focus.wait(lambda: shows(app, "llama3.2:3b"), 10)
            shown = window_id()
            shot_over("agent-chat-models.png", shown[0], shown[-1])
            xdotool("key", "Escape")
        chat.quit()

        # Dark, and narrow
        chat = scene(home, server, 900, 640, dark=True, extra="last-conversation=int64 1\n")
        app = chat.start()
        focus.wait(lambda: shows(app, "Book the trains early"), 20)
        shot("agent-chat-dark.png")
        chat.quit()
        chat = scene(home, server, 360, 640, extra="last-conversation=int64 1\n")
        app = chat.start()
        focus.wait(lambda: shows(app, "Book the trains early"), 20)
        resize(360, 640)
        shot("agent-chat-narrow.png")
        chat.quit()

        # A tool call's arguments as they stream (Show Tool-Call Chunks), narrow
        chat = scene(home, server, 360, 640, extra="show-tool-call-chunks=true\n",
                     tools="['calculator', 'read_file']")
        app = chat.start()
        xdotool("key", "ctrl+n")
        call = server.add_tool_call("plan_trip", TRIP, pause_after=TRIP.index("along") // 5 + 1)
        server.add_text("Here is your plan for Berlin.")
        send("Plan three days in Berlin")
        focus.wait(lambda: shows(app, "Tool call: plan_trip"), 20)
        resize(360, 640)
        shot("agent-chat-tool-arguments.png")
        call.release()
        focus.wait(lambda: turn_over(app), 30)
        chat.quit()

        # A tool that asks first
        notes = os.path.join(home, "notes.txt")
        with open(notes, "w") as f:
            f.write("Trains: book by April 30.\n")
        chat = scene(home, server, 900, 640, tools="['calculator', 'read_file']")
        app = chat.start()
        xdotool("key", "ctrl+n")
        server.add_tool_call("read_file", '{"path": "%s"}' % notes)
        server.add_text("Your notes say to book the trains by April 30.")
        send("What do my notes say about trains?")
        focus.wait(lambda: shows(app, "Allow in This Conversation") or
                   any("Allow in This" in n for n in names(app)), 20)
        time.sleep(1)
        shown = window_id()
        center_over(shown[0], shown[-1])
        shot_over("agent-chat-approval.png", shown[0], shown[-1])
        xdotool("key", "Escape")
        focus.wait(lambda: turn_over(app), 20)

        # Waiting for another program
        held = server.add_text("From the terminal.", hold=True)
        cli = subprocess.Popen([os.path.join(BUILD, "cli", "agent-cli"), "--continue",
                                "Question from the terminal"], env=chat.env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for(lambda: len(server.requests) > 0 and cli.poll() is None, 10)
        time.sleep(1)
        server.add_text("After the terminal.")
        send("And from the app?")
        focus.wait(lambda: shows(app, "Waiting for another program"), 20)
        shot("agent-chat-waiting.png")
        held.release()
        cli.wait(30)
        focus.wait(lambda: turn_over(app), 20)

        # The sidebar's search
        xdotool("key", "ctrl+f")
        xdotool("type", "--delay", "20", "trains")
        time.sleep(1.5)
        shot("sidebar-search.png")
        xdotool("key", "Escape")

        # Preferences
        xdotool("key", "ctrl+comma")
        wait_for(lambda: len(window_id()) > 1, 10)
        time.sleep(1.5)
        shot("preferences.png", window_id()[-1])
        chat.quit()

        long_conversation(home, server, focus)
        attachments(home, server, focus)
        failed_turn(home, server, focus)
    finally:
        server.close()
        shutil.rmtree(home, ignore_errors=True)


main()
