#!/usr/bin/python3
# test-gui-profiles-e2e.py: agent-chat with several servers (profiles, in
# the file agent-cli reads: $AGENT_PROFILES), driven as a person does: the
# pointer (xdotool) on what the accessibility tree says is there, keys
# typed, the states read back from the tree; two fake model servers
# (scriptedserver.py) say what reached them.
#
# - the header's picker lists the models of both servers, each under its
#   server's name, and says the server of each model to a screen reader;
# - a model of the other server picked: the next message goes to that
#   server, with that model;
# - two conversations on two servers: switching from one to the other and
#   back sends each one's next message to its own server;
# - Preferences › Servers › Add Server, named by typing: the server is in
#   the file, and agent-cli --profiles lists it;
# - the first run (no file, no server in the settings) offers the demo
#   server and the Ollama found (ollamaserver.py) as one-click choices; a
#   click on Ollama's makes it the server, saved in the file;
# - the demo server chosen at the first run by the pointer is started again
#   at the next start of the app: a message typed then is answered, with no
#   error card, and the file holds the live address.
#
# With $AGENT_TEST_SCREENSHOTS set, the picker, Preferences and the first
# run are shot.
# Runs under dbus-run-session and xvfb-run.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import subprocess
import sys

import pyatspi

sys.path[:0] = [os.path.dirname(os.path.abspath(__file__)),
                os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'gui-common')]
from agenttestgui import (App, FocusTracker, all_nodes, click_at, find_node, names,  # noqa: E402
                          run_test, screenshot, send, showing, tap, walking, xdotool)
from ollamaserver import OllamaServer  # noqa: E402
from scriptedserver import ScriptedServer  # noqa: E402

N_TESTS = 12


def shown(node, name, role=None):
    found = find_node(node, name, role) if node is not None else None
    return found if showing(found) else None


def description(node, name):
    found = find_node(node, name, pyatspi.ROLE_LIST_ITEM)
    try:
        return found.description if found is not None else None
    except Exception:
        return None


def models_asked(server):
    return [request.get("model") for request in server.requests if request is not None]


def pick(focus, app, model):
    """The header's picker: @model typed in its search, and Return."""
    click_at(find_node(app, "Choose Model"))
    if not focus.wait(lambda: shown(app, "Search Models"), 10):
        return False
    focus.wait(lambda: shown(app, model, pyatspi.ROLE_LIST_ITEM), 20)
    focus.pump(0.5)
    xdotool("type", "--delay", "30", model)
    focus.pump(0.5)
    xdotool("key", "Return")
    closed = focus.wait(lambda: shown(app, "Search Models") is None, 10) is not None
    print("# picked %s: %r" % (model, [n for n in names(app) if " · " in n]), flush=True)
    return closed


def say(focus, app, text):
    click_at(find_node(app, "Message", pyatspi.ROLE_TEXT))
    focus.pump(0.3)
    send(text)


def write_profiles(path, first, second):
    with open(path, "w") as f:
        f.write("[Profiles]\ndefault=Lab\n\n"
                "[Profile Lab]\nprovider=openai\nbase-url=%s\nmodel=alpha-1\n\n"
                "[Profile Cloud Box]\nprovider=openai\nbase-url=%s\nmodel=beta-1\n"
                % (first.url, second.url))


def profiles_part(home):
    lab = ScriptedServer()
    lab.models = ["alpha-1"]
    box = ScriptedServer()
    box.models = ["beta-1", "beta-2"]
    path = os.path.join(home, "profiles.ini")
    write_profiles(path, lab, box)
    chat = App(home, lab.url, "alpha-1", "generate-titles=false\n")
    chat.env["AGENT_PROFILES"] = path
    focus = FocusTracker()
    try:
        app = chat.start()
        if app is None:
            for _ in range(6):
                tap(False, "the app starts")
            return

        # The picker: both servers, grouped
        click_at(find_node(app, "Choose Model"))
        listed = focus.wait(lambda: shown(app, "beta-2", pyatspi.ROLE_LIST_ITEM) and
                            shown(app, "alpha-1", pyatspi.ROLE_LIST_ITEM), 20)
        tap(listed and shown(app, "Lab", pyatspi.ROLE_LIST_ITEM) is not None and
            shown(app, "Cloud Box", pyatspi.ROLE_LIST_ITEM) is not None,
            "the picker lists the models of both servers under their names")
        tap(description(app, "beta-2") == "On Cloud Box" and
            description(app, "alpha-1") == "On Lab",
            "each model says its server to a screen reader (%r, %r)"
            % (description(app, "beta-2"), description(app, "alpha-1")))
        screenshot("profiles-picker")
        xdotool("key", "Escape")
        focus.wait(lambda: shown(app, "Search Models") is None, 10)

        # A model of the other server
        picked = pick(focus, app, "beta-2")
        box.add_text("From the box")
        say(focus, app, "first on the box")
        answered = focus.wait(lambda: any("From the box" in n for n in names(app)), 30)
        tap(picked and answered and models_asked(box) == ["beta-2"] and models_asked(lab) == [],
            "a model of the other server picked: the message goes there (%r, %r)"
            % (models_asked(box), models_asked(lab)))

        # A second conversation, on the first server
        xdotool("key", "ctrl+n")
        focus.pump(1.0)
        pick(focus, app, "alpha-1")
        lab.add_text("From the lab")
        say(focus, app, "second on the lab")
        focus.wait(lambda: any("From the lab" in n for n in names(app)), 30)
        tap(models_asked(lab) == ["alpha-1"] and len(models_asked(box)) == 1,
            "a new chat with a model of the first server goes to the first (%r)"
            % models_asked(lab))

        # Back to the first conversation, then to the second
        row = focus.wait(lambda: shown(app, "first on the box"), 10)
        click_at(row)
        focus.wait(lambda: any("From the box" in n for n in names(app)), 15)
        box.add_text("Again the box")
        say(focus, app, "more for the box")
        focus.wait(lambda: any("Again the box" in n for n in names(app)), 30)
        row = focus.wait(lambda: shown(app, "second on the lab"), 10)
        click_at(row)
        focus.wait(lambda: any("From the lab" in n for n in names(app)), 15)
        lab.add_text("Again the lab")
        say(focus, app, "more for the lab")
        focus.wait(lambda: any("Again the lab" in n for n in names(app)), 30)
        tap(models_asked(box) == ["beta-2", "beta-2"] and
            models_asked(lab) == ["alpha-1", "alpha-1"],
            "each conversation goes on with its own server (%r, %r)"
            % (models_asked(box), models_asked(lab)))

        # Preferences › Servers › Add Server, named by typing
        xdotool("key", "ctrl+comma")
        add = focus.wait(lambda: shown(app, "Add Server", pyatspi.ROLE_PUSH_BUTTON), 15)
        screenshot("profiles-preferences")
        if add is not None:
            click_at(add)
        name = focus.wait(lambda: shown(app, "Name", pyatspi.ROLE_TEXT) or shown(app, "Name"), 10)
        added = focus.wait(lambda: shown(app, "New Server"), 10)
        if name is not None:
            click_at(name)
            focus.pump(0.3)
            xdotool("key", "ctrl+a")
            xdotool("type", "--delay", "30", "Studio")
            xdotool("key", "Return")
        renamed = focus.wait(lambda: shown(app, "Studio"), 10)
        screenshot("profiles-preferences-added")
        with open(path) as f:
            saved = f.read()
        listed = subprocess.run([os.environ["AGENT_CLI"], "--profiles"], env=chat.env,
                                capture_output=True, text=True, timeout=60).stdout
        tap(added is not None and renamed is not None and "[Profile Studio]" in saved and
            "Studio" in listed,
            "a server added in Preferences by typing is in the file, and agent-cli lists it "
            "(%r)" % listed)
        chat.quit()
    finally:
        chat.kill()
        lab.close()
        box.close()


def first_run_part(home):
    ollama = OllamaServer()
    directory = os.path.join(home, "first")
    os.makedirs(directory, exist_ok=True)
    chat = App(directory, ollama.url)
    # No server in the settings, no profiles file: the first run
    with open(chat.keyfile, "w") as keyfile:
        keyfile.write("[io/github/libagent/Chat]\ngenerate-titles=false\n")
    path = os.path.join(directory, "profiles.ini")
    chat.env["AGENT_PROFILES"] = path
    chat.env["AGENT_CHAT_OLLAMA_URL"] = ollama.url
    focus = FocusTracker()
    try:
        app = chat.start()
        if app is None:
            tap(False, "the app starts for the first run")
            tap(False, "the first run's choice is saved")
            return
        def uses():
            """The Use buttons, in their rows' order: the demo server's,
            then Ollama's"""
            return walking(lambda: [n for n in all_nodes(app)
                                    if n.getRole() == pyatspi.ROLE_PUSH_BUTTON and
                                    (n.name or "").startswith("Use")]) or []

        def offered():
            """Both, once Ollama's is usable (it was found)"""
            found = uses()
            return found if len(found) >= 2 and \
                found[1].getState().contains(pyatspi.STATE_SENSITIVE) else None
        buttons = focus.wait(offered, 20)
        said = [n.name for n in buttons or []]
        tap(buttons is not None and said[0].startswith("Use the Demo Server") and
            said[1].startswith("Use Ollama on This Computer"),
            "the first run offers the demo server and the Ollama found (%r)" % said)
        use = buttons[1] if buttons is not None else None
        screenshot("profiles-first-run")
        if use is not None:
            click_at(use)
        gone = focus.wait(lambda: not any(showing(n) for n in uses()), 15)
        saved = open(path).read() if os.path.exists(path) else ""
        tap(gone and "provider=ollama" in saved and ollama.url in saved,
            "a click on Ollama's choice makes it the server, saved in the file (%r)" % saved)
        chat.quit()
    finally:
        chat.kill()
        ollama.close()


def base_url(path):
    """The base-url of the file at @path ("" without one)."""
    if not os.path.exists(path):
        return ""
    with open(path) as f:
        return next((line.strip()[len("base-url="):] for line in f
                     if line.startswith("base-url=")), "")


def demo_part(home):
    directory = os.path.join(home, "demo")
    os.makedirs(directory, exist_ok=True)
    chat = App(directory, "http://127.0.0.1:9/v1")
    # No server in the settings, no profiles file, no Ollama: the first run
    with open(chat.keyfile, "w") as keyfile:
        keyfile.write("[io/github/libagent/Chat]\ngenerate-titles=false\n")
    path = os.path.join(directory, "profiles.ini")
    chat.env["AGENT_PROFILES"] = path
    chat.env["AGENT_CHAT_OLLAMA_URL"] = "http://127.0.0.1:9"
    prompt = "What is 17 * 23 + 4?"
    answer = "The result of 17 * 23 + 4 is 395."
    focus = FocusTracker()
    try:
        app = chat.start()
        if app is None:
            for _ in range(3):
                tap(False, "the app starts for the demo server's first run")
            return
        use = focus.wait(lambda: next((n for n in all_nodes(app)
                                       if n.getRole() == pyatspi.ROLE_PUSH_BUTTON and
                                       (n.name or "").startswith("Use the Demo Server") and
                                       showing(n)), None), 20)
        if use is not None:
            click_at(use)
        chosen = focus.wait(lambda: "model=demo" in (open(path).read()
                                                     if os.path.exists(path) else ""), 15)
        first_url = base_url(path)
        tap(use is not None and chosen and first_url.startswith("http://127.0.0.1:"),
            "a click on the demo server's choice saves it in the file (%r)" % first_url)
        chat.quit()
        chat.kill()

        # The next start: the demo server must be there again
        app = chat.start()
        if app is None:
            tap(False, "the app starts again on the demo server")
            tap(False, "the file holds the demo server's live address")
            return
        # The window says the server in use; once the app started the demo
        # server, that is its live address
        focus.wait(lambda: any(n.startswith("Demo server · ") and
                               not first_url.endswith(n[len("Demo server · "):] + "/v1")
                               for n in names(app)), 20)
        composer = focus.wait(lambda: shown(app, "Message", pyatspi.ROLE_TEXT), 15)
        if composer is not None:
            click_at(composer)
        focus.pump(0.3)
        send(prompt)
        answered = focus.wait(lambda: answer in names(app) and "Stop" not in names(app), 30)
        tap(answered and "Retry" not in names(app),
            "restarted: a message typed to the demo server is answered, with no error card")
        live = base_url(path)
        tap(live.startswith("http://127.0.0.1:") and live != first_url,
            "the file holds the demo server's live address, not the last run's (%r, %r)"
            % (live, first_url))
        chat.quit()
    finally:
        chat.kill()


def command_line_part(home):
    """./run's way: no server saved, the demo server's on the command line"""
    directory = os.path.join(home, "command-line")
    os.makedirs(directory, exist_ok=True)
    url = "http://127.0.0.1:9/v1"
    chat = App(directory, url)
    with open(chat.keyfile, "w") as keyfile:
        keyfile.write("[io/github/libagent/Chat]\ngenerate-titles=false\n")
    chat.env["AGENT_PROFILES"] = os.path.join(directory, "profiles.ini")
    chat.env["AGENT_CHAT_OLLAMA_URL"] = "http://127.0.0.1:9"
    focus = FocusTracker()
    try:
        app = chat.start("--provider", "openai", "--base-url", url, "--model", "demo")
        if app is None:
            tap(False, "the app starts with its server on the command line")
            return
        ready = focus.wait(lambda: "Start a Conversation" in names(app), 20)
        offered = [n.name for n in all_nodes(app)
                   if n.getRole() == pyatspi.ROLE_PUSH_BUTTON and
                   (n.name or "").startswith("Use") and showing(n)]
        tap(ready and "Welcome to Agent Chat" not in names(app) and not offered,
            "a window given its server on the command line offers no first-run choices (%r)"
            % offered)
        chat.quit()
    finally:
        chat.kill()


def main(home):
    profiles_part(home)
    first_run_part(home)
    demo_part(home)
    command_line_part(home)


run_test("test-gui-profiles-e2e-", N_TESTS, main)
