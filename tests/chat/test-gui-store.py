#!/usr/bin/python3
# test-gui-store.py: agent-chat keeps its conversations. The real app, against
# the real demo server, with a data directory and settings of its own: a
# chat, Quit, agent-cli lists it from the same database and goes on with it,
# the app restarted shows it again (reopened as the last conversation, and in
# the sidebar); then Ctrl+N, a second chat, and Delete through the row's menu:
# with Undo, and without (then gone from the database).
# Driven through the keyboard (xdotool) and the accessibility tree (AT-SPI),
# under dbus-run-session and xvfb-run.
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
from agenttestgui import (App, all_nodes, find_node, finish, names, tap, wait_for,  # noqa: E402
                          walking, xdotool)

N_TESTS = 13


def sidebar(app):
    return find_node(app, "Conversations", pyatspi.ROLE_LIST)


def sidebar_titles(app):
    """The titles of the sidebar's rows, top to bottom."""
    node = sidebar(app)
    if node is None:
        return None
    return walking(lambda: [n.name for n in all_nodes(node)
                            if n.name and n.getRole() == pyatspi.ROLE_LABEL])


def click(node):
    action = node.queryAction()
    for i in range(action.nActions):
        if action.getName(i) in ("click", "activate", "press"):
            action.doAction(i)
            return
    action.doAction(0)


def delete_last(app):
    """Delete, from the menu of the sidebar's last row."""
    menus = [n for n in all_nodes(sidebar(app)) if n.name == "Conversation Menu"]
    click(menus[-1])
    delete = wait_for(lambda: find_node(app, "Delete"), 10)
    if delete is not None:
        click(delete)


def turn_over(app):
    return "Send" in names(app) and "Stop" not in names(app)


def type_prompt(text):
    xdotool("type", "--delay", "30", text)
    xdotool("key", "Return")


def main(home):
    print("1..%d" % N_TESTS, flush=True)
    demo = subprocess.Popen([os.environ["AGENT_DEMO_SERVER"], "--quiet", "--delay-ms", "20",
                             "--exit-on-stdin-eof"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    url = demo.stdout.readline().strip()
    chat = App(home, url)
    prompt = "What is 17 * 23 + 4?"
    answer = "The result of 17 * 23 + 4 is 395."
    try:
        app = chat.start()
        if app is None:
            tap(False, "the app starts")
            return
        type_prompt(prompt)
        tap(wait_for(lambda: answer in names(app), 30), "the answer shows")
        wait_for(lambda: turn_over(app), 30)
        tap(wait_for(lambda: sidebar_titles(app) == [prompt], 10),
            "the sidebar lists the conversation, titled from the prompt")

        tap(chat.quit() == 0, "Ctrl+Q quits")
        listed = chat.cli("--list-conversations")
        tap(prompt in listed, "agent-cli --list-conversations finds it in the same database")
        # With the server, model and tools the app held it with
        continued = chat.cli("--continue", "Hello again")
        tap("Hello again" in continued and "demo server" in continued,
            "agent-cli --continue goes on with it, on the same server")
        with open(chat.keyfile) as keyfile:
            kept = keyfile.read()
        # The answer whole: "395" alone is in the server's URL when its
        # random port holds those digits
        tap("last-conversation=" in kept and answer not in kept and prompt not in kept,
            "the settings keep the last conversation's id, not its text")

        app = chat.start()
        tap(app is not None and wait_for(lambda: answer in names(app) and prompt in names(app) and
                                         "Hello again" in names(app), 20),
            "restarted, the app shows the last conversation again, agent-cli's turn too")
        tap(wait_for(lambda: sidebar_titles(app) == [prompt], 10),
            "and lists it in the sidebar")

        # Ctrl+N: a new chat, which goes first in the list once written
        xdotool("key", "ctrl+n")
        tap(wait_for(lambda: answer not in names(app), 10), "Ctrl+N starts a new chat")
        type_prompt("Hello there")
        wait_for(lambda: any(n.startswith("Hello! I am") for n in names(app)), 30)
        wait_for(lambda: turn_over(app), 30)
        tap(wait_for(lambda: sidebar_titles(app) == ["Hello there", prompt], 10),
            "the new conversation goes first in the sidebar")

        # Delete the older one from its row's menu, then Undo
        delete_last(app)
        tap(wait_for(lambda: sidebar_titles(app) == ["Hello there"], 10),
            "Delete removes it from the sidebar at once")
        # The toast's button (GTK 4.8 names it from its label, mnemonic and all)
        undo = wait_for(lambda: next((n for n in all_nodes(app)
                                      if n.getRole() == pyatspi.ROLE_PUSH_BUTTON and
                                      n.name.endswith("Undo")), None), 10)
        if undo is not None:
            click(undo)
        tap(wait_for(lambda: sidebar_titles(app) == ["Hello there", prompt], 10),
            "Undo brings it back in its place")

        # Deleted again, and the toast left to go: deleted for good
        delete_last(app)
        wait_for(lambda: sidebar_titles(app) == ["Hello there"], 10)
        wait_for(lambda: not any(n.endswith(" deleted") for n in names(app)), 20)
        chat.quit()
        listed = chat.cli("--list-conversations")
        tap("Hello there" in listed and prompt not in listed,
            "once the Undo toast is gone, the conversation is gone from the database")
    finally:
        chat.kill()
        demo.stdin.close()
        demo.wait(10)


home = tempfile.mkdtemp(prefix="test-gui-store-")
try:
    main(home)
finally:
    shutil.rmtree(home, ignore_errors=True)
sys.exit(finish(N_TESTS))
