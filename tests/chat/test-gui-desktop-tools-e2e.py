#!/usr/bin/python3
# test-gui-desktop-tools-e2e.py: agent-chat approves the tool calls of an
# application of agent-desktop-service, on the GUI tests' session bus. The
# service runs there with a scripted server as its profile; another process
# (tests/desktop-service-app.py --tool) is the application, offering its
# tool "lookup". Its first request is allowed (the app consent, one
# sentence); its turn's model calls the tool: agent-chat's dialog names the
# app and the tool and shows the arguments, Allow Once is clicked and the
# app gets ToolCall, its result goes back to the model. A second app's call
# is denied: it never gets ToolCall, the model reads the denial, the turn
# finishes.
# With AGENT_SCREENSHOT=FILE, the screen with the tool's question is saved.
# Positions come from the accessibility tree, the pointer is xdotool's.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import json
import os
import subprocess
import sys
import threading

from gi.repository import Gio, GLib

# This folder's helpers, and agenttestgui.py, shared with tests/gtk
sys.path[:0] = [os.path.dirname(os.path.abspath(__file__)),
                os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'gui-common')]
from agenttestgui import App, all_nodes, click_at, run_test, tap, wait_for, walking  # noqa: E402
from scriptedserver import ScriptedServer  # noqa: E402

PLAN = 7
SERVICE_APP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                           "desktop-service-app.py")
# The service knows an unsandboxed program by its executable's file name
APP_NAME = os.path.basename(os.path.realpath("/usr/bin/python3"))
TOOL_HEADING = "Allow “%s” to run “lookup”?" % APP_NAME
DENIED = "The user denied this call"


class Reader:
    """A process whose standard output (and error) is read line by line in
    the background."""

    def __init__(self, args, env, stdin=None):
        self.process = subprocess.Popen(args, env=env, stdin=stdin, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True)
        self.lines = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    def said(self, text):
        return any(text in line for line in list(self.lines))

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)


def find(app, predicate):
    return walking(lambda: next((n for n in all_nodes(app) if n.name and predicate(n)), None))


def named(app, name):
    return find(app, lambda n: n.name == name)


def start_service(home, url):
    env = dict(os.environ)
    profiles = os.path.join(home, "service-profiles.ini")
    with open(profiles, "w") as f:
        f.write("[Profiles]\ndefault=Scripted\n\n[Profile Scripted]\nprovider=openai\n"
                "base-url=%s\nmodel=scripted\n" % url)
    env["AGENT_PROFILES"] = profiles
    env["OPENAI_API_KEY"] = "sk-test-desktop-tools-5d2b"
    env["XDG_DATA_HOME"] = os.path.join(home, "service-data")
    env["AGENT_DESKTOP_SERVICE_IDLE_SECONDS"] = "3600"
    return Reader([os.environ["AGENT_DESKTOP_SERVICE"]], env)


def name_has_owner(name):
    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    return bus.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                         "NameHasOwner", GLib.Variant("(s)", (name,)),
                         GLib.VariantType("(b)"), Gio.DBusCallFlags.NONE, -1, None)[0]


def service_app():
    """An application of the service with its tool, which asks once given
    a line."""
    app = Reader(["/usr/bin/python3", SERVICE_APP, "--tool"], dict(os.environ),
                 stdin=subprocess.PIPE)
    app.process.stdin.write("go\n")
    app.process.stdin.flush()
    return app


def tool_result(server, index):
    """The tool message the model read in request @index, or None."""
    if len(server.requests) <= index or server.requests[index] is None:
        return None
    return next((m.get("content") for m in server.requests[index].get("messages", [])
                 if m.get("role") == "tool"), None)


def main(home):
    server = ScriptedServer()
    service = start_service(home, server.url)
    monitor = Reader(["dbus-monitor", "--session",
                      "type='method_call',member='RegisterConsentAgent'"], dict(os.environ))
    chat = App(home, server.url, "scripted")
    askers = []
    try:
        ready = wait_for(lambda: name_has_owner("io.github.libagent.Assistant"), 30)
        app = chat.start()
        registered = wait_for(lambda: monitor.said("RegisterConsentAgent"), 30)
        tap(ready and app is not None and registered,
            "the app registers as the consent agent of the service running")
        if app is None or not registered:
            print("# service: %s" % " | ".join(service.lines))
            return

        # The app's first request: allowed, in one sentence
        server.add_tool_call("lookup", '{"word": "tea"}')
        server.add_text("Tea is a hot drink.")
        asker = service_app()
        askers.append(asker)
        consent = wait_for(lambda: named(app, "Allow “%s” to use your language models?"
                                         % APP_NAME), 30)
        allow = wait_for(lambda: named(app, "Allow"), 10) if consent else None
        tap(allow is not None, "the app's consent question is one sentence naming it")
        if allow is None:
            return
        click_at(allow)

        # Its model calls its tool: the question names the app and the tool,
        # with the arguments as pretty JSON
        heading = wait_for(lambda: named(app, TOOL_HEADING), 30)
        arguments = wait_for(lambda: find(app, lambda n: '"word"' in n.name and '"tea"' in n.name
                                          and "\n" in n.name), 10)
        described = wait_for(lambda: find(app, lambda n: "Looks a word up" in n.name), 10)
        tap(heading is not None and arguments is not None and described is not None
            and not asker.said("ToolCall"),
            "the call waits for a question naming the app, the tool and its arguments")
        if heading is None or arguments is None:
            print("# app: %s; service: %s; the model read: %s"
                  % (" | ".join(asker.lines), " | ".join(service.lines), tool_result(server, 1)))
        shot = os.environ.get("AGENT_SCREENSHOT")
        if shot:
            subprocess.run(["import", "-window", "root", shot], check=False)
        once = wait_for(lambda: named(app, "Allow Once"), 10)
        if once is None:
            tap(False, "an Allow Once button")
            return
        click_at(once)
        tap(wait_for(lambda: asker.said('ToolCall lookup {"word":"tea"}'), 30)
            and wait_for(lambda: asker.said("Finished"), 30),
            "Allow Once: the app gets ToolCall and the turn finishes")
        tap(tool_result(server, 1) == '"a hot drink"', "the model read the app's result")
        tap(wait_for(lambda: named(app, TOOL_HEADING) is None, 10),
            "the question is gone once answered")

        # Another call: denied
        server.add_tool_call("lookup", '{"word": "coffee"}')
        server.add_text("I could not look it up.")
        asker = service_app()
        askers.append(asker)
        asked = wait_for(lambda: find(app, lambda n: '"coffee"' in n.name), 30)
        deny = wait_for(lambda: named(app, "Deny"), 10) if asked else None
        if deny is None:
            tap(False, "the second call is asked for, with a Deny button")
            return
        click_at(deny)
        finished = wait_for(lambda: asker.said("Finished"), 30)
        tap(finished and not asker.said("ToolCall") and tool_result(server, 3) == DENIED,
            "Deny: the app never gets ToolCall, the model reads the denial, the turn finishes")
        if not finished:
            print("# app: %s; requests: %s" % (" | ".join(asker.lines),
                                               json.dumps(server.requests)[:2000]))
    finally:
        for asker in askers:
            asker.stop()
        chat.kill()
        monitor.stop()
        service.stop()


run_test("test-gui-desktop-tools-e2e-", PLAN, main)
