#!/usr/bin/python3
# test-gui-settings-e2e.py: a conversation's settings in the real
# agent-chat, set as a person sets them: the header's Conversation Settings
# button clicked, the popover's fields clicked and typed into (read back
# through the accessibility tree), the requests the server receives:
#
# - the conversation's system prompt, temperature, seed and context window
#   go with its requests (the meter counts with the window);
# - Preferences › Model Settings give the defaults of the conversations
#   that set none; a conversation's own win over them;
# - they are kept with the conversation: shown again after a restart, and
#   Use Defaults takes them back;
# - with Ollama, the context window is the num_ctx it runs the model with:
#   the model's own, within libagent's bound (16 k), or the conversation's.
#
# Runs under dbus-run-session and xvfb-run; waits for states, never for time.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pyatspi

# This folder's helpers, and agenttestgui.py, shared with tests/gtk
sys.path[:0] = [os.path.dirname(os.path.abspath(__file__)),
                os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'gui-common')]
from agenttestgui import (App, FocusTracker, all_nodes, click_at, finish,  # noqa: E402
                          names, send, shows, tap, text_of, turn_over, walking, xdotool)
from scriptedserver import ScriptedServer  # noqa: E402

N_TESTS = 13


class OllamaServer:
    """Ollama's native API, as much as agent-chat asks of it: the model
    list, /api/show (a model trained for 128 k tokens) and /api/chat
    (answered "Fine." in NDJSON), keeping each chat request's body."""

    def __init__(self):
        self.requests = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def reply(self, content_type, body):
                self.send_response(200)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self):
                self.reply("application/json", json.dumps(
                    {"models": [{"name": "llama3.1:8b", "model": "llama3.1:8b"}]}).encode())

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
                if self.path == "/api/show":
                    self.reply("application/json", json.dumps(
                        {"model_info": {"general.architecture": "llama",
                                        "llama.context_length": 131072}}).encode())
                    return
                server.requests.append(body)
                lines = [{"model": "llama3.1:8b", "message": {"role": "assistant",
                                                                "content": "Fine."},
                          "done": False},
                         {"model": "llama3.1:8b", "message": {"role": "assistant", "content": ""},
                          "done": True, "done_reason": "stop", "prompt_eval_count": 30,
                          "eval_count": 2}]
                self.reply("application/x-ndjson",
                           "".join(json.dumps(line) + "\n" for line in lines).encode())

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = "http://127.0.0.1:%d" % self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def has_state(node, state):
    try:
        return node.getState().contains(state)
    except Exception:
        return False


def settings_button(app):
    """The header's Conversation Settings, a menu button."""
    return walking(lambda: next((n for n in all_nodes(app)
                                 if n.name == "Conversation Settings" and
                                 n.getRole() == pyatspi.ROLE_PUSH_BUTTON and
                                 has_state(n, pyatspi.STATE_FOCUSABLE)), None))


def popover(app):
    """The Conversation Settings popover, while it is open."""
    return walking(lambda: next((n for n in all_nodes(app)
                                 if n.name == "Conversation Settings" and
                                 n.getRole() == pyatspi.ROLE_FILLER and
                                 has_state(n, pyatspi.STATE_VISIBLE)), None))


def open_settings(focus, app):
    """Clicks the header's button; the popover, once it shows."""
    button = focus.wait(lambda: settings_button(app), 10)
    if button is None:
        return None
    click_at(button)
    return focus.wait(lambda: popover(app), 10)


def close_popover(focus, app):
    xdotool("key", "Escape")
    return focus.wait(lambda: popover(app) is None, 10)


def field(root, name, role):
    """The field of @root called @name (a row's title may be said twice:
    the field's own name and the row's)."""
    return walking(lambda: next((n for n in all_nodes(root)
                                 if n.getRole() == role and n.name and
                                 n.name.replace("_", "") in (name, name + " " + name)), None))


def shown_text(node):
    text = text_of(node)
    return text.strip() if text is not None else None


def popover_offset(panel):
    """What to add to the extents GTK 4.8 gives the widgets of a popover to
    find them on the screen: it offsets them all by the same wrong amount.
    The popover's own X window, of the popover's size, says where it is."""
    box = panel.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    windows = subprocess.run(["xdotool", "search", "--onlyvisible", "--class", "agent-chat"],
                             capture_output=True, text=True).stdout.split()
    for window in windows:
        shape = subprocess.run(["xdotool", "getwindowgeometry", "--shell", window],
                               capture_output=True, text=True).stdout
        values = dict(line.split("=", 1) for line in shape.split() if "=" in line)
        if (int(values.get("WIDTH", -1)), int(values.get("HEIGHT", -1))) == (box.width,
                                                                             box.height):
            return int(values["X"]) - box.x, int(values["Y"]) - box.y
    return 0, 0


def click_text(node, offset=(0, 0)):
    """A click where the text of @node shows: its left part (the middle of
    a spin button is its - button)."""
    box = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    xdotool("mousemove", str(box.x + offset[0] + min(16, box.width // 4)),
            str(box.y + offset[1] + box.height // 2), "click", "1")


def type_into(focus, node, text, role=pyatspi.ROLE_SPIN_BUTTON, offset=(0, 0)):
    """Clicks @node, waits until it has the keyboard, replaces its text with
    @text; a spin button takes it with Tab."""
    click_text(node, offset)
    if not focus.wait(lambda: has_state(node, pyatspi.STATE_FOCUSED) or
                      (focus.node is not None and focus.node.name == node.name), 10):
        return False
    focus.press("ctrl+a")
    xdotool("type", "--delay", "20", text)
    if role == pyatspi.ROLE_SPIN_BUTTON:
        focus.press("Tab")
    return True


def composer(app):
    return walking(lambda: next((n for n in all_nodes(app)
                                 if n.getRole() == pyatspi.ROLE_TEXT and n.name == "Message"),
                                None))


def send_text(focus, app, text):
    """Clicks into the composer, and sends @text."""
    node = composer(app)
    click_at(node)
    focus.wait(lambda: has_state(node, pyatspi.STATE_FOCUSED), 10)
    send(text)


def scroll_to(focus, window, node):
    """Turns the wheel over @window until @node shows in it whole."""
    def below():
        area = window.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        box = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        return box.y + box.height > area.y + area.height - 8, area
    for _ in range(40):
        hidden, area = below()
        if not hidden:
            return True
        xdotool("mousemove", str(area.x + area.width // 2), str(area.y + area.height // 2),
                "click", "5")
        focus.pump(0.1)
    return not below()[0]


def preferences(app):
    return walking(lambda: next((app.getChildAtIndex(i) for i in range(app.childCount)
                                 if app.getChildAtIndex(i).name == "Preferences"), None))


def meter(app):
    said = [name for name in names(app) if name.startswith("Context:")]
    return said[0].replace(",", "").replace(".", "") if said else None


def set_in_popover(focus, app, values):
    """Clicks each field of @values {name: text} in the popover, and types
    its text."""
    ok = True
    for name, text in values.items():
        panel = popover(app)
        role = pyatspi.ROLE_TEXT if name == "System Prompt" else pyatspi.ROLE_SPIN_BUTTON
        node = panel and field(panel, name, role)
        ok = ok and node is not None and type_into(focus, node, text, role, popover_offset(panel))
    return ok


def openai_part(home):
    server = ScriptedServer()
    chat = App(home, server.url, "scripted")
    focus = FocusTracker()
    try:
        app = chat.start()
        if app is None:
            tap(False, "the app starts")
            return

        panel = open_settings(focus, app)
        temperature = panel and field(panel, "Temperature", pyatspi.ROLE_SPIN_BUTTON)
        tap(panel is not None and temperature is not None and
            shown_text(temperature) == "Default",
            "the header's button opens the conversation's settings, each left to its default")

        typed = set_in_popover(focus, app, {"Temperature": "0.3", "Seed": "42",
                                            "Context Window": "6000",
                                            "System Prompt": "Answer in French."})
        panel = popover(app)
        shown = panel and [shown_text(field(panel, name, pyatspi.ROLE_SPIN_BUTTON))
                           for name in ("Temperature", "Top P", "Seed", "Context Window")]
        tap(typed and shown == ["0.30", "Default", "42", "6000"],
            "the values typed show in the fields (%r)" % (shown,))
        close_popover(focus, app)

        server.add_text("Bonjour.", usage=(100, 5))
        send_text(focus, app, "Hello")
        focus.wait(lambda: shows(app, "Bonjour.") and turn_over(app), 30)
        body = server.requests[0] if server.requests else {}
        tap(body.get("temperature") == 0.3 and body.get("seed") == 42 and "top_p" not in body and
            body.get("messages", [{}])[0] == {"role": "system", "content": "Answer in French."},
            "they go with the conversation's request: %r" %
            {k: body.get(k) for k in ("temperature", "seed", "top_p")})
        tap(focus.wait(lambda: meter(app) == "Context: 105 of 6000 tokens used", 10),
            "the meter counts with the conversation's window (%r)" % meter(app))

        # Preferences › Model Settings: the default of the others
        xdotool("key", "ctrl+comma")
        prefs = focus.wait(lambda: preferences(app), 30)
        spin = prefs and field(prefs, "Temperature", pyatspi.ROLE_SPIN_BUTTON)
        typed = (spin is not None and scroll_to(focus, prefs, spin) and
                 type_into(focus, spin, "0.9"))
        tap(typed and focus.wait(lambda: shown_text(spin) == "0.90", 10),
            "Preferences take a default temperature")
        xdotool("key", "Escape")
        focus.wait(lambda: preferences(app) is None, 30)

        focus.press("ctrl+n")
        server.add_text("Hi there.")
        send_text(focus, app, "Hi")
        focus.wait(lambda: shows(app, "Hi there.") and turn_over(app), 30)
        body = server.requests[1] if len(server.requests) > 1 else {}
        tap(body.get("temperature") == 0.9 and "seed" not in body and
            body.get("messages", [{}])[0].get("role") == "user",
            "a new conversation takes the defaults of Preferences: %r" %
            {k: body.get(k) for k in ("temperature", "seed")})

        # Back to the first: its own settings win
        first = focus.wait(lambda: next((n for n in all_nodes(app)
                                         if n.name == "Hello" and
                                         n.getRole() == pyatspi.ROLE_LABEL and
                                         has_state(n, pyatspi.STATE_VISIBLE)), None), 10)
        if first is not None:
            click_at(first)
        focus.wait(lambda: shows(app, "Bonjour."), 10)
        server.add_text("Encore.")
        send_text(focus, app, "Again")
        focus.wait(lambda: shows(app, "Encore.") and turn_over(app), 30)
        body = server.requests[2] if len(server.requests) > 2 else {}
        tap(body.get("temperature") == 0.3 and body.get("seed") == 42 and
            body.get("messages", [{}])[0].get("content") == "Answer in French.",
            "the first conversation keeps its own over the defaults: %r" %
            {k: body.get(k) for k in ("temperature", "seed")})

        # Kept in the store: the same after a restart
        chat.quit()
        app = chat.start()
        panel = app and open_settings(focus, app)
        shown = panel and [shown_text(field(panel, name, pyatspi.ROLE_SPIN_BUTTON))
                           for name in ("Temperature", "Seed", "Context Window")]
        prompt = panel and shown_text(field(panel, "System Prompt", pyatspi.ROLE_TEXT))
        tap(shown == ["0.30", "42", "6000"] and prompt == "Answer in French.",
            "after a restart, the conversation shows its settings (%r, %r)" % (shown, prompt))

        # Use Defaults: Preferences' again
        reset = panel and field(panel, "Use Defaults", pyatspi.ROLE_PUSH_BUTTON)
        if reset is not None:
            click_text(reset, popover_offset(panel))
        tap(reset is not None and
            focus.wait(lambda: shown_text(field(popover(app), "Temperature",
                                                pyatspi.ROLE_SPIN_BUTTON)) == "Default", 10),
            "Use Defaults leaves each to its default")
        close_popover(focus, app)
        server.add_text("Par défaut.")
        before = len(server.requests)
        send_text(focus, app, "Once more")
        focus.wait(lambda: shows(app, "Par défaut.") and turn_over(app), 30)
        body = server.requests[before] if len(server.requests) > before else {}
        tap(body.get("temperature") == 0.9 and "seed" not in body and
            body.get("messages", [{}])[0].get("role") == "user",
            "then its requests take the defaults again: %r" %
            {k: body.get(k) for k in ("temperature", "seed")})
    finally:
        chat.kill()
        server.close()


def ollama_part(home):
    server = OllamaServer()
    chat = App(home, server.url, "llama3.1:8b")
    with open(chat.keyfile, "a") as keyfile:
        keyfile.write("provider='ollama'\n")
    focus = FocusTracker()
    try:
        app = chat.start()
        if app is None:
            tap(False, "the app starts with Ollama")
            return

        send_text(focus, app, "Hi")
        focus.wait(lambda: shows(app, "Fine.") and turn_over(app), 30)
        sent = [r.get("options", {}).get("num_ctx") for r in server.requests]
        tap(sent == [16384], "Ollama runs the model with its window, within 16 k (%r)" % sent)

        panel = open_settings(focus, app)
        typed = panel is not None and set_in_popover(focus, app, {"Context Window": "12288"})
        close_popover(focus, app)
        send_text(focus, app, "Again")
        focus.wait(lambda: len(server.requests) == 2 and turn_over(app), 30)
        sent = [r.get("options", {}).get("num_ctx") for r in server.requests]
        tap(typed and sent == [16384, 12288],
            "the conversation's window is the num_ctx it sends (%r)" % sent)
        tap(focus.wait(lambda: meter(app) is not None and meter(app).endswith("of 12288 tokens used"),
                       10), "and the meter counts with it (%r)" % meter(app))
    finally:
        chat.kill()
        server.close()


def main():
    print("1..%d" % N_TESTS, flush=True)
    home = tempfile.mkdtemp(prefix="test-gui-settings-")
    try:
        openai_part(home)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    home = tempfile.mkdtemp(prefix="test-gui-settings-ollama-")
    try:
        ollama_part(home)
    finally:
        shutil.rmtree(home, ignore_errors=True)


main()
sys.exit(finish(N_TESTS))
