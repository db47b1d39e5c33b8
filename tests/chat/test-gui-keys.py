#!/usr/bin/python3
# test-gui-keys.py: the real agent-chat, its API keys and the server it talks
# to. A real gnome-keyring on the test's session bus, two test servers that
# say whether a request carried the key they expect (never the key), and the
# app's settings in a keyfile that lasts from one run to the next:
#
# - a key saved with `agent-cli --set-api-key` reaches the server from the app;
# - the subtitle and Preferences show the provider, base URL and model given on
#   the command line, and the model list is asked of that server;
# - a key typed in Preferences is kept in the keyring: the app restarted, and
#   agent-cli, send it;
# - a dead --base-url is what Preferences shows and what Retry uses;
# - a second agent-chat with options, while the app runs, opens a window that
#   uses them; one with a bad option says why and fails.
#
# Driven through the keyboard (xdotool) and read through the accessibility
# tree (AT-SPI), under dbus-run-session and xvfb-run.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from urllib.parse import urlsplit

import pyatspi

# This folder's helpers, and agenttestgui.py, shared with tests/gtk
sys.path[:0] = [os.path.dirname(os.path.abspath(__file__)),
                os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'gui-common')]
from agenttestgui import GuiServer, all_nodes, app_env, click, click_at, find_app, find_node, \
    finish, names, start_keyring, tap, text_of, wait_for, walking, xdotool  # noqa: E402

N_TESTS = 20
CLI_KEY = "sk-cli-3c1f0a9e"
TYPED_KEY = "sk-typed-58b2d7"


def host(url):
    return urlsplit(url).netloc


def dead_url():
    """A URL nothing listens on: a port just freed."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return "http://127.0.0.1:%d/v1" % port


def window_ids():
    """The app's windows on the screen."""
    found = subprocess.run(["xdotool", "search", "--onlyvisible", "--classname", "agent-chat"],
                           capture_output=True, text=True).stdout.split()
    return set(found)


def focus(window_id):
    return subprocess.run(["xdotool", "windowfocus", "--sync", window_id],
                          capture_output=True).returncode == 0


def focus_new(before):
    """Gives the keyboard to a window of the app that was not there @before."""
    return wait_for(lambda: any(focus(w) for w in sorted(window_ids() - before)), 30)


def preferences(app):
    return walking(lambda: next((app.getChildAtIndex(i) for i in range(app.childCount)
                                 if app.getChildAtIndex(i).name == "Preferences"), None))


def close_preferences(app):
    """Escape closes Preferences; the next key waits until they are gone."""
    xdotool("key", "Escape")
    return wait_for(lambda: preferences(app) is None, 30)


def entry_text(window, title):
    node = find_node(window, title, pyatspi.ROLE_TEXT)
    return text_of(node) if node is not None else None


def provider_shown(window):
    """The labels of the Provider row but its title: the provider selected."""
    combo = find_node(window, "Provider", pyatspi.ROLE_COMBO_BOX)
    if combo is None:
        return None
    return walking(lambda: [n.name for n in all_nodes(combo)
                            if n.getRole() == pyatspi.ROLE_LABEL and n.name != "Provider"])


def length_of(node):
    """How many characters an entry holds (a password's too, never its text)."""
    try:
        return node.queryText().characterCount
    except Exception:
        return None


def retry_button(app):
    """The error's Retry button (GTK 4.8 names a button from its label,
    mnemonic and all, and its accessible label)."""
    return walking(lambda: next((n for n in all_nodes(app)
                                 if n.getRole() == pyatspi.ROLE_PUSH_BUTTON and
                                 "Retry" in n.name.replace("_", "").split()), None))


def turn_over(app):
    return "Send" in names(app) and "Stop" not in names(app)


def type_prompt(text):
    xdotool("type", "--delay", "30", text)
    xdotool("key", "Return")


class App:
    """agent-chat with its own data and settings (a keyfile, kept between runs)."""

    def __init__(self, home):
        self.env = app_env()
        self.env["XDG_DATA_HOME"] = os.path.join(home, "data")
        self.env["XDG_CONFIG_HOME"] = os.path.join(home, "config")
        self.env["GSETTINGS_BACKEND"] = "keyfile"
        # The keys come from the keyring, not from the environment
        for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "OLLAMA_API_KEY"):
            self.env.pop(name, None)
        settings = os.path.join(home, "config", "glib-2.0", "settings")
        os.makedirs(settings, exist_ok=True)
        self.keyfile = os.path.join(settings, "keyfile")
        self.process = None
        # What the app prints, every run (with G_MESSAGES_DEBUG=all: its
        # debug messages too)
        self.output = open(os.path.join(home, "app-output.txt"), "a+")
        self.env["G_MESSAGES_DEBUG"] = "all"

    def settings(self, **values):
        """The server in the settings, as a version before profiles kept it:
        the profiles file goes, so that the app carries it over again"""
        if os.path.exists(self.env["AGENT_PROFILES"]):
            os.remove(self.env["AGENT_PROFILES"])
        with open(self.keyfile, "w") as keyfile:
            keyfile.write("[io/github/libagent/Chat]\n")
            for key, value in values.items():
                keyfile.write("%s='%s'\n" % (key.replace("_", "-"), value))

    def start(self, *args):
        before = window_ids()
        for attempt in range(3):
            self.output.seek(0, os.SEEK_END)
            start = self.output.tell()
            self.process = subprocess.Popen([os.environ["AGENT_CHAT"]] + list(args), env=self.env,
                                            stdout=self.output, stderr=self.output)
            app = wait_for(lambda: "exited" if self.process.poll() is not None else find_app(),
                           60)
            if app not in (None, "exited") and focus_new(before):
                return app
            self.output.seek(start)
            said = self.output.read()
            print("# the app did not show (exit status %s):" % self.process.poll(), flush=True)
            for line in said.splitlines()[-5:]:
                print("#   " + line, flush=True)
            # Xvfb on this shared machine has refused a connection now and
            # then ("cannot open display"): that, and only that, is tried again
            if "cannot open display" not in said:
                break
            time.sleep(1)
        return None

    def run(self, *args):
        """Another agent-chat, while this one runs: its exit status and stderr."""
        done = subprocess.run([os.environ["AGENT_CHAT"]] + list(args), env=self.env,
                              capture_output=True, text=True, timeout=60)
        return done.returncode, done.stderr

    def quit(self):
        """Ctrl+Q, given to a window of the app that has the keyboard: with no
        window manager, X gives the keyboard to no one when a dialog that had
        it goes away, and a key pressed then is lost.  The exit status, or
        None when the app did not quit within the time given."""
        windows = sorted(window_ids())
        if not any(focus(w) for w in windows):
            print("# no window of the app takes the keyboard: %s" % windows, flush=True)
        xdotool("key", "ctrl+q")
        try:
            status = self.process.wait(60)
        except subprocess.TimeoutExpired:
            self.kill()
            status = None
        if status != 0:
            self.said("the app did not quit cleanly (exit status %s)" % status)
        return status

    def said(self, what):
        """@what, and the last lines the app printed, as TAP comments."""
        print("# " + what + ":", flush=True)
        self.output.seek(0)
        for line in self.output.read().splitlines()[-8:]:
            print("#   " + line, flush=True)

    def kill(self):
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)

    def leaked(self, *keys):
        """The keys found in what the app printed, or in its settings or
        data files."""
        found = []
        self.output.seek(0)
        texts = [self.output.read()]
        for top in (self.env["XDG_CONFIG_HOME"], self.env["XDG_DATA_HOME"]):
            for directory, _, files in os.walk(top):
                for name in files:
                    with open(os.path.join(directory, name), "rb") as f:
                        texts.append(f.read().decode("utf-8", "replace"))
        for key in keys:
            if any(key in text for text in texts):
                found.append(key)
        return found

    def cli(self, *args, stdin=None):
        return subprocess.run([os.environ["AGENT_CLI"], "--no-store"] + list(args), env=self.env,
                              input=stdin, capture_output=True, text=True, timeout=60)


def key_from_cli(chat, a):
    """agent-cli --set-api-key; the app started with options uses that key."""
    saved = chat.cli("--base-url", a.url, "--set-api-key", stdin=CLI_KEY + "\n")
    tap(saved.returncode == 0 and CLI_KEY not in saved.stdout + saved.stderr,
        "agent-cli --set-api-key saves a key for server A")

    # The settings say anthropic, its own service, another model: the
    # command line says otherwise, and wins for this window
    chat.settings(provider="anthropic", base_url="", model="claude-sonnet-4-5")
    app = chat.start("--provider", "openai", "--base-url", a.url, "--model", "keys-model")
    if app is None:
        tap(False, "the app starts")
        return False
    subtitle = "keys-model · " + host(a.url)
    tap(wait_for(lambda: subtitle in names(app), 30),
        "the subtitle shows the model and host given on the command line")

    type_prompt("Hello")
    tap(wait_for(lambda: a.seen("/v1/chat/completions", model="keys-model",
                                authorization="expected"), 30),
        "the key agent-cli saved reaches server A from the app, with the model given")
    wait_for(lambda: turn_over(app), 30)

    xdotool("key", "ctrl+comma")
    prefs = wait_for(lambda: preferences(app), 30)
    shown = prefs is not None and wait_for(lambda: entry_text(prefs, "Base URL") == a.url, 30)
    tap(shown and entry_text(prefs, "Model") == "keys-model" and
        provider_shown(prefs) == ["OpenAI or Compatible"],
        "Preferences show the provider, base URL and model in use")
    tap(wait_for(lambda: a.seen("/v1/models", authorization="expected"), 30),
        "the model list is asked of the server in use, with its key")
    tap(prefs is not None and
        wait_for(lambda: any("stored in your keyring" in n for n in names(prefs)), 30),
        "Preferences say the key is kept in the keyring")
    close_preferences(app)
    tap(chat.quit() == 0, "Ctrl+Q quits")
    return True


def key_typed(chat, b):
    """A key typed in Preferences lasts: in the keyring, for the app and agent-cli."""
    chat.settings(provider="openai", base_url="", model="")
    app = chat.start("--base-url", b.url, "--model", "keys-model")
    if app is None:
        tap(False, "the app starts again")
        return False
    xdotool("key", "ctrl+comma")
    prefs = wait_for(lambda: preferences(app), 30)
    # Without a key, the key's field has the keyboard once the keyring said
    # so, which is before the server is asked for its models
    field = prefs and wait_for(lambda: find_node(prefs, "API Key", pyatspi.ROLE_TEXT), 30)
    wait_for(lambda: b.seen("/v1/models"), 30)
    xdotool("type", "--delay", "20", TYPED_KEY)
    tap(field and wait_for(lambda: length_of(field) == len(TYPED_KEY), 30),
        "Preferences open on the empty API key field, which takes the key typed")
    close_preferences(app)
    tap(chat.quit() == 0, "Ctrl+Q quits once the key is typed")

    app = chat.start("--base-url", b.url, "--model", "keys-model")
    if app is None:
        tap(False, "the app starts a third time")
        return False
    type_prompt("Hello again")
    tap(wait_for(lambda: b.seen("/v1/chat/completions", authorization="expected"), 30),
        "restarted, the app sends the key typed in Preferences")
    wait_for(lambda: turn_over(app), 30)
    chat.quit()

    before = len(b.seen("/v1/chat/completions", authorization="expected"))
    asked = chat.cli("--base-url", b.url, "Hi")
    # The server's lines are read by a thread of this test's: wait for it
    wait_for(lambda: len(b.seen("/v1/chat/completions", authorization="expected")) > before, 10)
    after = len(b.seen("/v1/chat/completions", authorization="expected"))
    if asked.returncode != 0 or after != before + 1:
        print("# agent-cli: exit status %d, %d request(s) with the key before it, %d after; "
              "it said: %s" % (asked.returncode, before, after, asked.stderr.strip()[-300:]),
              flush=True)
    tap(asked.returncode == 0 and before >= 1 and after == before + 1,
        "agent-cli finds the key typed in the app in the same keyring")
    return True


def dead_server(chat, a, b):
    """A dead --base-url: shown, used by Retry; then a second agent-chat."""
    dead = dead_url()
    before_dead = len(a.requests)
    before_chats = len(a.seen("/v1/chat/completions"))
    chat.settings(provider="openai", base_url=a.url, model="keys-model")
    app = chat.start("--base-url", dead)
    if app is None:
        tap(False, "the app starts with a dead URL")
        return
    tap(wait_for(lambda: ("keys-model · " + host(dead)) in names(app), 30),
        "the subtitle names the dead server's host")
    type_prompt("Anyone there?")
    retry = wait_for(lambda: retry_button(app), 60)
    tap(retry is not None and len(a.requests) == before_dead,
        "the turn fails, and nothing went to the server of the settings")

    xdotool("key", "ctrl+comma")
    prefs = wait_for(lambda: preferences(app), 30)
    tap(prefs is not None and wait_for(lambda: entry_text(prefs, "Base URL") == dead, 30),
        "Preferences show the dead URL the window uses")
    close_preferences(app)

    retry = retry_button(app)
    if retry is not None:
        click(retry)
    # The error goes while the turn runs, and comes back
    gone = wait_for(lambda: retry_button(app) is None, 30)
    retry = wait_for(lambda: retry_button(app), 60)
    tap(gone and retry is not None and len(a.requests) == before_dead,
        "Retry goes to the same dead URL, as shown")

    # Edited in Preferences, the URL is what the next Retry uses
    xdotool("key", "ctrl+comma")
    prefs = wait_for(lambda: preferences(app), 30)
    field = prefs and find_node(prefs, "Base URL", pyatspi.ROLE_TEXT)
    if field:
        click_at(field)
        time.sleep(0.5)
        xdotool("key", "ctrl+a")
        xdotool("type", "--delay", "20", a.url)
    edited = field and wait_for(lambda: entry_text(prefs, "Base URL") == a.url, 30)
    close_preferences(app)
    retry = retry_button(app)
    if retry is not None:
        click(retry)
    tap(edited and wait_for(lambda: len(a.seen("/v1/chat/completions")) > before_chats, 30),
        "edited in Preferences, the URL is the one Retry uses")
    wait_for(lambda: turn_over(app), 30)

    # A second agent-chat with options: a new window that uses them
    before = window_ids()
    status, err = chat.run("--base-url", b.url, "--model", "other-model")
    new = focus_new(before)
    subtitle = "other-model · " + host(b.url)
    frames = walking(lambda: [app.getChildAtIndex(i) for i in range(app.childCount)]) or []
    tap(status == 0 and new and len(frames) == 2 and any(subtitle in names(f) for f in frames),
        "a second agent-chat with options opens a window that shows them")
    if new:
        type_prompt("Hello from the second window")
    tap(wait_for(lambda: b.seen("/v1/chat/completions", model="other-model"), 30),
        "the new window's turn goes to the server and model given")

    status, err = chat.run("--base-url", "ftp://example.com/v1")
    tap(status != 0 and "--base-url" in err and "ftp://example.com/v1" in err,
        "a second agent-chat with a bad option says why on stderr and fails")
    chat.quit()


def display_ready():
    return subprocess.run(["xdotool", "getdisplaygeometry"], capture_output=True).returncode == 0


def main(home):
    print("1..%d" % N_TESTS, flush=True)
    if not display_ready():
        print("# the display is not ready yet", flush=True)
        wait_for(display_ready, 30)
    keyring = start_keyring(os.path.join(home, "keyring"))
    a = GuiServer(CLI_KEY)
    b = GuiServer(TYPED_KEY)
    chat = App(home)
    try:
        if key_from_cli(chat, a) and key_typed(chat, b):
            dead_server(chat, a, b)
        chat.kill()
        tap(not chat.leaked(CLI_KEY, TYPED_KEY),
            "no key in what the app printed, nor in its settings and data files")
    finally:
        chat.kill()
        a.stop()
        b.stop()
        keyring.terminate()
        keyring.wait(10)


home = tempfile.mkdtemp(prefix="test-gui-keys-")
try:
    main(home)
finally:
    shutil.rmtree(home, ignore_errors=True)
sys.exit(finish(N_TESTS))
