#!/usr/bin/python3
# test-gui-models-e2e.py: agent-chat's Models window against a fake Ollama
# (ollamaserver.py, Ollama's native API in its documented shapes), driven
# as a person does: the pointer (xdotool) on what the accessibility tree
# says is there, keys typed, the states read back from the tree.
#
# - the main menu's Models opens the window: the installed models with
#   their capability badges, the loaded one marked with when it unloads;
# - a pull typed by name: its progress bar's value rises to the end, its
#   status says bytes and percent, the model is listed once pulled;
# - a second pull cancelled: the server sees the client go, nothing is
#   installed; a pull of an unknown name and one that fills the disk say
#   what happened, in place;
# - Delete asks first; Unload Now unloads;
# - the header's picker shows the capabilities and Get More Models…, which
#   opens the window again;
# - an image attached for a model without vision is said at once (an
#   alert above the message field), and Send refuses it saying why; with a
#   model that has vision, the warning goes and the image is sent.
#
# With $AGENT_TEST_SCREENSHOTS set, the window is shot as it goes (light,
# during a pull, at 360 px wide, and dark in a second run of the app).
# Runs under dbus-run-session and xvfb-run.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import subprocess
import sys

import pyatspi

# This folder's helpers, and agenttestgui.py, shared with tests/gtk
sys.path[:0] = [os.path.dirname(os.path.abspath(__file__)),
                os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'gui-common')]
from agenttestgui import (PNG, WINDOW_SIZE, App, FocusTracker, all_nodes, choose_file,  # noqa: E402
                          click_at, extents, find_node, menu_items, names, run_test, screenshot,
                          showing, state, tap, walking, xdotool)
from ollamaserver import OllamaServer  # noqa: E402

N_TESTS = 26


def frame(app, title):
    """The app's window called @title, while it shows."""
    return walking(lambda: next((n for n in app if n.name == title and
                                 state(n, pyatspi.STATE_VISIBLE)), None))


def shown(node, name, role=None):
    """The node called @name (with @role) under @node, if it shows."""
    found = find_node(node, name, role) if node is not None else None
    return found if showing(found) else None


def description(node, name):
    found = find_node(node, name, pyatspi.ROLE_LIST_ITEM)
    try:
        return found.description if found is not None else None
    except Exception:
        return None


def value(node):
    """The current value of a progress bar, read through AT-SPI's Value."""
    try:
        return node.queryValue().currentValue
    except Exception:
        return None


def labels(node):
    return walking(lambda: [n.name for n in all_nodes(node)
                            if n.getRole() == pyatspi.ROLE_LABEL and n.name]) or []


def open_models(focus, app):
    """The main menu's Models, by the pointer on the menu button and the
    item's mnemonic (GTK 4.8 tells the places of a popover's items wrong,
    for a click); the window, once it shows."""
    click_at(find_node(app, "Main Menu"))
    if not focus.wait(lambda: "Models" in menu_items(app), 10):
        return None
    xdotool("key", "m")
    return focus.wait(lambda: frame(app, "Models"), 15)


def pull(focus, window, name):
    """Types @name in Model Name, and Return."""
    entry = focus.wait(lambda: shown(window, "Model Name", pyatspi.ROLE_TEXT) or
                       shown(window, "Model Name"), 10)
    click_at(entry)
    focus.pump(0.3)
    xdotool("type", "--delay", "30", name)
    xdotool("key", "Return")


def watch_pull(focus, window, name):
    """The values the pull's bar took, until it went."""
    seen = []
    bar = focus.wait(lambda: find_node(window, "Pulling " + name, pyatspi.ROLE_PROGRESS_BAR), 10)

    def step():
        current = value(bar)
        if current is None or not showing(bar):
            return True
        if not seen or seen[-1] != current:
            seen.append(current)
        return False
    if bar is not None:
        focus.wait(step, 60)
    return seen


def main_part(home):
    server = OllamaServer()
    chat = App(home, server.url, "llama3.2:latest", WINDOW_SIZE + "provider='ollama'\n")
    image = os.path.join(home, "photo.png")
    with open(image, "wb") as f:
        f.write(PNG)
    focus = FocusTracker()
    try:
        app = chat.start()
        if app is None:
            tap(False, "the app starts")
            return

        # The main menu's Models
        window = open_models(focus, app)
        tap(window is not None, "the main menu's Models opens the Models window")
        if window is None:
            return
        listed = focus.wait(lambda: shown(window, "Delete qwen3:8b"), 20)
        tap(listed and description(window, "llama3.2:latest") == "Tools" and
            description(window, "llava:7b") == "Vision" and
            description(window, "qwen3:8b") == "Tools, Thinking" and
            description(window, "nomic-embed-text:latest") == "Embedding",
            "the installed models, each with its capability badges (%r)"
            % [description(window, n) for n in ("llama3.2:latest", "llava:7b", "qwen3:8b")])
        details = [label.replace("\xa0", " ") for label in labels(window)]
        tap(any(label.startswith("2.0 GB · llama · 3.2B · Q4_K_M · ") and
                label.endswith("\u2011token context") for label in details),
            "a model's size, family, parameters, quantization and context (%r)" % details[:8])
        unload = unload_button(window, "llama3.2:latest")
        loaded = [label for label in labels(window) if label.startswith("Loaded, unloads in ")]
        buttons = walking(lambda: [n.name for n in all_nodes(window)
                                   if n.getRole() == pyatspi.ROLE_PUSH_BUTTON and showing(n)])
        tap(unload is not None and unload_button(window, "qwen3:8b") is None and
            len(loaded) == 1, "the loaded model says when it unloads, with Unload Now (%r, %r)"
            % (loaded, buttons))
        screenshot("models-light")

        # A pull, its bar rising to the end (slowly enough to be watched)
        server.interval = 0.4
        pull(focus, window, "gemma3:1b")
        values = watch_pull(focus, window, "gemma3:1b")
        server.interval = 0.12
        rising = len(values) >= 3 and all(a <= b for a, b in zip(values, values[1:]))
        tap(rising, "the pull's progress bar rises (%r)" % values)
        tap(focus.wait(lambda: shown(window, "Delete gemma3:1b"), 15) and
            "gemma3:1b:latest" not in server.cancelled and "gemma3:1b" in server.pulled,
            "once pulled, the model is listed")

        # A second one, cancelled, its status said in bytes and percent
        server.hold("phi4:14b")
        pull(focus, window, "phi4:14b")
        cancel = focus.wait(lambda: shown(window, "Cancel Pulling phi4:14b"), 15)
        status = focus.wait(lambda: next((label for label in labels(window)
                                          if label.startswith("Downloading · ") and
                                          "%)" in label), None), 15)
        tap(status is not None and " of " in status and "GB" in status,
            "the pull's status says what it does, the bytes and the percentage (%r)" % status)
        screenshot("models-pulling")
        if cancel is not None:
            click_at(cancel)
        tap(focus.wait(lambda: "phi4:14b" in server.cancelled, 15) and
            focus.wait(lambda: shown(window, "Cancel Pulling phi4:14b") is None, 10) and
            "phi4:14b" not in server.installed,
            "Cancel stops the pull: the server sees the client go, nothing is installed")
        tap(focus.wait(lambda: any("phi4:14b was cancelled" in n for n in names(window)), 10),
            "a toast says it was cancelled")

        # Errors, where the pull was
        pull(focus, window, "no-such-model")
        failed = focus.wait(lambda: shown(window, "Dismiss no-such-model:latest") or
                            shown(window, "Dismiss no-such-model"), 20)
        text = " ".join(labels(window))
        tap(failed is not None and "has no model" in text and "no-such-model" in text,
            "a pull of an unknown model says so, in its place (%r)" % text)
        if failed is not None:
            click_at(failed)
        tap(focus.wait(lambda: shown(window, "Dismiss no-such-model") is None and
                       shown(window, "Dismiss no-such-model:latest") is None, 10),
            "Dismiss takes it away")
        server.disk_full.add("phi4:14b")
        server.held.discard("phi4:14b")
        pull(focus, window, "phi4:14b")
        failed = focus.wait(lambda: shown(window, "Dismiss phi4:14b"), 20)
        tap(failed is not None and "no space left on device" in " ".join(labels(window)),
            "a pull that fills the disk says so")
        if failed is not None:
            click_at(failed)

        # Delete, asked first
        click_at(shown(window, "Delete nomic-embed-text:latest"))
        dialog = focus.wait(lambda: frame(app, "Delete nomic-embed-text:latest?") or
                            next((n for n in app if state(n, pyatspi.STATE_VISIBLE) and
                                  shows_text(n, "Delete nomic-embed-text:latest?")), None), 10)
        tap(dialog is not None and not server.deleted, "Delete asks first, deleting nothing yet")
        button = focus.wait(lambda: dialog_button(dialog, "Delete"), 5) \
            if dialog is not None else None
        print("# the dialog's buttons: %r" % walking(
            lambda: [n.name for n in all_nodes(dialog) if n.getRole() == pyatspi.ROLE_PUSH_BUTTON]
            if dialog is not None else None), flush=True)
        if button is not None:
            click_at(button)
        tap(focus.wait(lambda: server.deleted == ["nomic-embed-text:latest"], 10) and
            focus.wait(lambda: shown(window, "Delete nomic-embed-text:latest") is None, 10),
            "once confirmed, the model is deleted and goes from the list")
        tap(focus.wait(lambda: shown(window, "Pull Again"), 10),
            "the toast offers to pull it again (Ollama keeps no copy to undo with)")

        # Unload now
        button = focus.wait(lambda: unload_button(window, "llama3.2:latest"), 10)
        print("# Unload Now at %r" % (extents(button) if button is not None else None,),
              flush=True)
        click_at(button)
        focus.wait(lambda: server.unloaded, 10)
        print("# unloaded: %r" % server.unloaded, flush=True)
        # (the delete unloaded its model first: Ollama deletes no model in use)
        tap(focus.wait(lambda: server.unloaded[-1:] == ["llama3.2:latest"], 10) and
            focus.wait(lambda: unload_button(window, "llama3.2:latest") is None, 10),
            "Unload Now unloads the model; it is no longer marked loaded")

        # 360 px wide
        models_x = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^Models$"],
                                  capture_output=True, text=True).stdout.split()
        if models_x:
            xdotool("windowsize", models_x[0], "360", "640")
            focus.pump(1.5)
        screenshot("models-360")
        delete = shown(window, "Delete qwen3:8b")
        box = extents(window)
        print("# the window: %r" % (box,), flush=True)
        right = extents(delete) if delete is not None else None
        tap(right is not None and right[0] + right[2] <= 360,
            "at 360 px the buttons stay inside the window (%r, %r)" % (box, right))

        # Closed by its header's Close
        click_at(shown(window, "Close", pyatspi.ROLE_PUSH_BUTTON))
        tap(focus.wait(lambda: frame(app, "Models") is None, 10), "Close closes the window")

        # The picker: capabilities, and Get More Models…
        click_at(find_node(app, "Choose Model"))
        opened = focus.wait(lambda: shown(app, "Search Models"), 10)
        tap(opened and focus.wait(lambda: description(app, "llava:7b") == "Vision", 10) and
            description(app, "qwen3:8b") == "Tools, Thinking",
            "the picker shows each model's capabilities")
        more = focus.wait(lambda: shown(app, "Get More Models…"), 10)
        # Reached with Tab from the search, and Return (GTK 4.8 tells the places
        # in a popover that grew as its list came in wrong, for a click)
        reached = None
        for _ in range(6):
            reached = focus.press("Tab")
            if reached == ("push button", "Get More Models…"):
                xdotool("key", "Return")
                break
        print("# Tab reached %r" % (reached,), flush=True)
        window = focus.wait(lambda: frame(app, "Models"), 15)
        tap(more is not None and window is not None,
            "the picker's Get More Models… opens the Models window")
        if window is not None:
            focus.wait(lambda: shown(window, "Delete qwen3:8b"), 20)
            click_at(shown(window, "Close", pyatspi.ROLE_PUSH_BUTTON))
            focus.wait(lambda: frame(app, "Models") is None, 10)

        # An image for a model without vision
        chat_window = frame(app, "Agent Chat") or app
        click_at(find_node(app, "Message", pyatspi.ROLE_TEXT))
        focus.pump(0.3)
        xdotool("key", "ctrl+o")
        chosen = choose_file(focus, image)
        warning = focus.wait(lambda: next((n for n in all_nodes(app)
                                           if n.getRole() == pyatspi.ROLE_ALERT and
                                           showing(n)), None), 15)
        tap(chosen and warning is not None and
            "llama3.2:latest cannot read images" in (warning.name or ""),
            "an image attached for a model without vision is said at once, as an alert (%r)"
            % (warning.name if warning is not None else None))
        screenshot("models-no-vision")
        chats = len(server.chats)
        click_at(find_node(app, "Message", pyatspi.ROLE_TEXT))
        xdotool("type", "--delay", "20", "What is this?")
        xdotool("key", "Return")
        explained = focus.wait(lambda: sum("cannot read images" in n for n in names(app)) >= 2,
                               10)
        tap(explained and len(server.chats) == chats and
            shown(app, "Remove photo.png") is not None,
            "Send refuses it saying why; nothing is sent, the image stays")

        # A model with vision, picked with the keys: the warning goes, the image is sent
        click_at(find_node(app, "Choose Model"))
        focus.wait(lambda: shown(app, "llava:7b", pyatspi.ROLE_LIST_ITEM), 10)
        xdotool("type", "--delay", "30", "llava")
        focus.pump(0.3)
        xdotool("key", "Return")
        tap(focus.wait(lambda: not any(n.getRole() == pyatspi.ROLE_ALERT and showing(n)
                                       for n in all_nodes(chat_window)), 10),
            "with a model that has vision, the warning goes")
        click_at(find_node(app, "Message", pyatspi.ROLE_TEXT))
        xdotool("key", "Return")
        sent = focus.wait(lambda: len(server.chats) > chats, 15)
        images = server.chats[-1]["messages"][-1].get("images") if sent else None
        tap(sent and server.chats[-1].get("model") == "llava:7b" and images,
            "and Send sends it to that model")
    finally:
        chat.kill()
        server.close()


def unload_button(window, model):
    """The Unload Now of @model's row, if it shows."""
    row = find_node(window, model, pyatspi.ROLE_LIST_ITEM)
    return shown(row, "Unload Now", pyatspi.ROLE_PUSH_BUTTON)


def dialog_button(dialog, label):
    """The button of @dialog labelled @label (libadwaita 1.2 names a
    response's button after its label, mnemonic and all)."""
    return walking(lambda: next((n for n in all_nodes(dialog)
                                 if n.getRole() == pyatspi.ROLE_PUSH_BUTTON and showing(n) and
                                 label in n.name.replace("_", "")), None))


def shows_text(node, text):
    return any(text in name for name in names(node))


def dark_part(home):
    """The window again, dark, for the screenshots (and one check)."""
    server = OllamaServer()
    chat = App(home, server.url, "llama3.2:latest", WINDOW_SIZE + "provider='ollama'\n")
    chat.env["ADW_DEBUG_COLOR_SCHEME"] = "prefer-dark"
    focus = FocusTracker()
    try:
        app = chat.start()
        window = open_models(focus, app) if app is not None else None
        listed = window is not None and focus.wait(lambda: shown(window, "Delete qwen3:8b"), 20)
        screenshot("models-dark")
        server.hold("phi4:14b")
        if listed:
            pull(focus, window, "phi4:14b")
        tap(listed and focus.wait(lambda: shown(window, "Cancel Pulling phi4:14b"), 15),
            "dark: the window lists the models and pulls")
        focus.wait(lambda: any(label.startswith("Downloading · ") for label in labels(window)),
                   10)
        screenshot("models-dark-pulling")
    finally:
        chat.kill()
        server.close()


def no_manager_part(home):
    """An OpenAI-compatible server: the window says it has no manager."""
    server = OllamaServer()
    chat = App(home, server.url + "/v1", "llama3.2:latest", WINDOW_SIZE)
    focus = FocusTracker()
    try:
        app = chat.start()
        window = open_models(focus, app) if app is not None else None
        tap(window is not None and
            focus.wait(lambda: shown(window, "No Model Manager"), 10) and
            shows_text(window, "Ollama servers do"),
            "a server that is not Ollama: the window says it has no manager")
        screenshot("models-no-manager")
    finally:
        chat.kill()
        server.close()


def main(home):
    main_part(os.path.join(home, "main"))
    dark_part(os.path.join(home, "dark"))
    no_manager_part(os.path.join(home, "openai"))


run_test("test-gui-models-e2e-", N_TESTS, main)
