# desktopservice.py: agent-desktop-service for agent-chat's end-to-end tests
# on the GUI tests' session bus: the service with a profile of the test's
# model server, applications of the service in processes of their own
# (tests/desktop-service-app.py), and what the tests look for in the app.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import subprocess
import threading

import pyatspi
from gi.repository import Gio, GLib

from agenttestgui import all_nodes, extents, showing, walking

SERVICE_APP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                           "desktop-service-app.py")
# The service knows an unsandboxed script by its file name
APP_NAME = os.path.basename(SERVICE_APP)


class Reader:
    """A process whose standard output (and error) is read line by line in the background."""

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


def describes(app, text):
    """A node whose name or description (a row's subtitle) holds @text."""
    return find(app, lambda n: text in n.name + (n.description or ""))


def page_tab(app, name):
    """The tab @name of Preferences' view switcher in its header: the window
    also has a switcher bar at its foot for narrow widths, whose tabs GTK
    4.8 reports with an area over the page while the bar is hidden."""
    def tabs():
        return sorted((n for n in all_nodes(app)
                       if n.name == name and n.getRole() == pyatspi.ROLE_PAGE_TAB and showing(n)),
                      key=lambda n: extents(n)[1])
    return walking(lambda: next(iter(tabs()), None))


def start_service(home, url, model, key):
    """The service, its default profile the server at @url."""
    env = dict(os.environ)
    profiles = os.path.join(home, "service-profiles.ini")
    with open(profiles, "w") as f:
        f.write("[Profiles]\ndefault=Loopback\n\n[Profile Loopback]\nprovider=openai\n"
                "base-url=%s\nmodel=%s\n" % (url, model))
    env["AGENT_PROFILES"] = profiles
    env["OPENAI_API_KEY"] = key
    env["XDG_DATA_HOME"] = os.path.join(home, "service-data")
    env["AGENT_DESKTOP_SERVICE_IDLE_SECONDS"] = "3600"
    return Reader([os.environ["AGENT_DESKTOP_SERVICE"]], env)


def name_has_owner(name):
    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    return bus.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                         "NameHasOwner", GLib.Variant("(s)", (name,)),
                         GLib.VariantType("(b)"), Gio.DBusCallFlags.NONE, -1, None)[0]


def service_app(*args):
    """An application of the service (with desktop-service-app.py's
    @args), which asks once given a line."""
    app = Reader(["/usr/bin/python3", SERVICE_APP, *args], dict(os.environ),
                 stdin=subprocess.PIPE)
    app.process.stdin.write("go\n")
    app.process.stdin.flush()
    return app
