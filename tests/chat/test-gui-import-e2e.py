#!/usr/bin/python3
# test-gui-import-e2e.py: a conversation exported as JSON, deleted and
# imported again in agent-chat, as a person does it: Export as JSON… from
# its row's menu (the file chooser, a path typed), Delete from the same
# menu, then Import Conversation… from the sidebar's menu (the chooser
# again): the same title, messages, picture and tool call come back, and
# exported once more the file says the same. The export dropped on the
# window from another program is imported too; a broken export dropped
# there is refused in a dialog that says what is wrong, a file too large
# without being read; any other JSON file dropped is attached to the
# message. Driven with xdotool (pointer and keys) and read through the
# accessibility tree (AT-SPI), under dbus-run-session and xvfb-run (a
# screen of 800 × 700).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import pyatspi

# This folder's helpers, and agenttestgui.py, shared with tests/gtk
sys.path[:0] = [os.path.dirname(os.path.abspath(__file__)),
                os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'gui-common')]
from agenttestgui import (PNG, App, all_nodes, click_at, drag_from, find_node,  # noqa: E402
                          finish, focus_mapped, names, start_drag_source, tap, wait_for,
                          walking, x_window, xdotool)
from scriptedserver import ScriptedServer  # noqa: E402

N_TESTS = 12
QUESTION = "What is six times seven?"
ANSWER = "Six times seven is 42."


def sidebar(app):
    return find_node(app, "Conversations", pyatspi.ROLE_LIST)


def sidebar_titles(app):
    """The titles of the sidebar's rows, top to bottom."""
    def walk():
        node = sidebar(app)
        return [n.name for n in all_nodes(node)
                if n.name and n.getRole() == pyatspi.ROLE_LABEL] if node else None
    return walking(walk) or []


def menu_open(app, name):
    """Whether the menu open holds the item @name (GTK 4.8 says a popover
    menu that shows is visible, not its items showing)."""
    def walk():
        for menu in all_nodes(app):
            if menu.getRole() == pyatspi.ROLE_MENU and \
               menu.getState().contains(pyatspi.STATE_VISIBLE) and \
               name in [n.name for n in all_nodes(menu) if n.getRole() == pyatspi.ROLE_MENU_ITEM]:
                return True
        return False
    return wait_for(lambda: walking(walk), 10)


def pick(app, name, key):
    """In the menu that opens, the item @name, with its mnemonic @key (GTK
    4.8 tells the places of a popover's items wrong, for a click)."""
    if not menu_open(app, name):
        return False
    xdotool("key", key)
    return True


def choose(title, path):
    """In the file chooser @title, once it shows: @path typed as its
    location (in a save chooser, its name field takes a path too), and
    Return; waits for the chooser to go. Nothing reads the accessibility
    tree meanwhile (GTK 4.8 can crash when asked about a chooser that is
    going)."""
    chooser = wait_for(lambda: x_window("^%s$" % title), 20)
    if not chooser:
        print("# no file chooser %r" % title, flush=True)
        return False
    xdotool("windowfocus", "--sync", chooser)
    time.sleep(0.5)
    if title == "Import Conversation":
        xdotool("key", "ctrl+l")
        time.sleep(0.5)
    xdotool("key", "ctrl+a")
    xdotool("type", "--delay", "10", path)
    time.sleep(0.5)
    xdotool("key", "Return")
    gone = wait_for(lambda: not x_window("^%s$" % title), 20)
    focus_mapped()
    time.sleep(0.5)
    return gone


def row_menu(app, title):
    """Opens, with a click, the menu of the sidebar's row @title."""
    def walk():
        for node in all_nodes(sidebar(app)):
            if node.getRole() == pyatspi.ROLE_LIST_ITEM and node.name == title:
                return next((n for n in all_nodes(node) if n.name == "Conversation Menu" and
                             n.getRole() != pyatspi.ROLE_MENU), None)
        return None
    button = wait_for(lambda: walking(walk), 10)
    if button is not None:
        click_at(button)
    return button is not None


def export_json(app, title, path):
    """Export as JSON… from the row's menu, to @path; waits for the file."""
    if not row_menu(app, title):
        print("# no menu on the row %r" % title, flush=True)
        return False
    if not pick(app, "Export as JSON…", "j"):
        print("# the row's menu did not open", flush=True)
        return False
    return choose("Export as JSON", path) and wait_for(lambda: os.path.exists(path), 10)


def same_conversation(a, b):
    """Whether the exports @a and @b hold the same conversation (the id and
    the time it was last changed aside)."""
    with open(a) as fa, open(b) as fb:
        first, second = json.load(fa), json.load(fb)
    for export in (first, second):
        for member in ("id", "updated"):
            export.pop(member, None)
    if first != second:
        print("# %s\n# %s" % (json.dumps(first)[:600], json.dumps(second)[:600]), flush=True)
    return first == second


def drop(path):
    """@path dragged from another program's window onto the conversation."""
    source, window = start_drag_source(path)
    try:
        if window is None:
            return False
        drag_from(window, 300, 250)
        time.sleep(1)
        return True
    finally:
        source.kill()
        source.wait(10)
        focus_mapped()


def alert(app, heading):
    """The dialog @heading, once it shows."""
    def walk():
        for node in all_nodes(app):
            if node.getRole() in (pyatspi.ROLE_DIALOG, pyatspi.ROLE_ALERT, pyatspi.ROLE_FRAME) \
               and heading in [n.name for n in all_nodes(node)]:
                return node
        return None
    return wait_for(lambda: walking(walk), 20)


def alert_text(app, heading):
    """The texts of the dialog @heading, once it shows."""
    node = alert(app, heading)
    return walking(lambda: [n.name for n in all_nodes(node) if n.name]) if node else None


def close_alert(app, heading):
    """A click on the dialog's Close; waits for the dialog to go. (GTK 4.8
    names a button with a mnemonic by its label twice, "_Close Close": the
    button is the one whose label says Close.)"""
    node = alert(app, heading)

    def find():
        for button in all_nodes(node):
            if button.getRole() == pyatspi.ROLE_PUSH_BUTTON and \
               (button.name == "Close" or
                "Close" in [n.name for n in all_nodes(button) if n.getRole() == pyatspi.ROLE_LABEL]):
                return button
        return None
    close = node and walking(find)
    if not close:
        return False
    click_at(close)
    return wait_for(lambda: heading not in names(app), 10)


def main(home):
    print("1..%d" % N_TESTS, flush=True)
    image = os.path.join(home, "pixels.png")
    with open(image, "wb") as f:
        f.write(PNG)
    server = ScriptedServer()
    server.add_tool_call("calculator", json.dumps({"expression": "6*7"}))
    server.add_text(ANSWER)
    chat = App(home, server.url, "scripted")
    with open(chat.keyfile, "a") as keyfile:
        keyfile.write("window-width=760\nwindow-height=640\n")
    output = chat.cli("--base-url", server.url, "--model", "scripted", "--tool", "calculator",
                      "--yes", "--attach", image, QUESTION)
    print("# agent-cli: %r" % output[-200:], flush=True)
    exported = os.path.join(home, "exported.json")
    again = os.path.join(home, "again.json")
    try:
        app = chat.start()
        tap(app is not None, "the app starts")
        if app is None:
            return
        titles = wait_for(lambda: sidebar_titles(app), 30) or []
        title = titles[0] if titles else None
        print("# titles: %r" % titles, flush=True)

        # Export as JSON…, from the row's menu
        written = title is not None and export_json(app, title, exported)
        with open(exported) if written else open(os.devnull) as f:
            export = json.load(f) if written else {}
        kinds = [m.get("role") for m in export.get("messages", [])]
        tap(written and export.get("format") == "libagent-conversation" and
            "tool" in kinds and ANSWER in json.dumps(export),
            "Export as JSON… writes the conversation, its tool call and answer (%r)" % kinds)

        # Delete, from the same menu
        if title is not None and row_menu(app, title):
            pick(app, "Delete", "d")
        tap(wait_for(lambda: title not in sidebar_titles(app), 10),
            "Delete takes it out of the sidebar")

        # Import Conversation…, from the sidebar's menu
        menu = find_node(app, "Conversations Menu", pyatspi.ROLE_TOGGLE_BUTTON) or \
            find_node(app, "Conversations Menu")
        if menu is not None:
            click_at(menu)
        chosen = pick(app, "Import Conversation…", "i") and \
            choose("Import Conversation", exported)
        back = chosen and wait_for(lambda: sidebar_titles(app) == [title], 20)
        tap(back, "Import Conversation… from the sidebar's menu brings it back (%r)"
            % sidebar_titles(app))
        shown = wait_for(lambda: ANSWER in " ".join(names(app)), 20)
        tap(shown and QUESTION in names(app) and "View pixels.png" in names(app),
            "and shows it: the question, its picture, the answer")
        subprocess.run(["import", "-window", "root", os.path.join(home, "imported.png")])

        # Exported again: the same conversation
        again_written = export_json(app, title, again)
        tap(again_written and same_conversation(exported, again),
            "exported again, it is the same: title, messages, picture, tool call")

        # The export dropped on the window: imported
        drop(exported)
        tap(wait_for(lambda: sidebar_titles(app) == [title, title], 20),
            "the export dropped on the window is imported (%r)" % sidebar_titles(app))

        # A broken export dropped: refused, saying what is wrong
        broken = json.loads(json.dumps(export))
        for message in broken.get("messages", []):
            for attachment in message.get("attachments", []):
                attachment["sha256"] = "0" * 64
        path = os.path.join(home, "broken.json")
        with open(path, "w") as f:
            json.dump(broken, f)
        drop(path)
        heading = "Could Not Import “broken.json”"
        text = alert_text(app, heading) or []
        print("# %r" % text, flush=True)
        subprocess.run(["import", "-window", "root", os.path.join(home, "refused.png")])
        tap(any("attachment 1" in t and "sha256" in t for t in text),
            "a broken export dropped is refused: the dialog says where and what")
        closed = close_alert(app, heading)
        tap(closed and sidebar_titles(app) == [title, title],
            "Close closes it; nothing was imported")

        # Too large: refused before it is read
        path = os.path.join(home, "large.json")
        with open(path, "w") as f:
            f.write('{"format": "libagent-conversation", "version": 1, "messages": [')
            f.truncate(600 * 1024 * 1024)
        drop(path)
        heading = "Could Not Import “large.json”"
        text = alert_text(app, heading) or []
        print("# %r" % text, flush=True)
        tap(any("629.1\u00a0MB" in t and "500.0\u00a0MB" in t for t in text),
            "a file too large is refused, with its size and the most")
        tap(close_alert(app, heading) and sidebar_titles(app) == [title, title],
            "Close closes it; nothing was imported")

        # Any other JSON file: attached to the message
        path = os.path.join(home, "data.json")
        with open(path, "w") as f:
            json.dump({"cities": ["Paris", "Lyon"]}, f)
        drop(path)
        tap(wait_for(lambda: "Remove data.json" in names(app), 10) and
            sidebar_titles(app) == [title, title],
            "another JSON file dropped is attached, not imported")
    finally:
        chat.quit()
        server.close()


home = tempfile.mkdtemp(prefix="test-gui-import-e2e-")
try:
    main(home)
finally:
    if os.environ.get("KEEP_HOME"):
        print("# kept %s" % home)
    else:
        shutil.rmtree(home, ignore_errors=True)
sys.exit(finish(N_TESTS))
