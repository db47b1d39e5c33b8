#!/usr/bin/python3
# test-gui-integration.py: agent-chat in GNOME. The real app with a store of
# its own and a scripted server, under dbus-run-session and xvfb-run, read
# through the accessibility tree (AT-SPI):
# - GNOME Shell's search provider (org.gnome.Shell.SearchProvider2), called
#   over D-Bus as the Shell calls it: the conversations that match, their
#   titles and descriptions, a result opened in the app, a search launched
#   in the app;
# - the app's actions over D-Bus (org.gtk.Actions): new-chat,
#   open-conversation;
# - `agent-chat --new TEXT`: a new chat with TEXT in its composer;
# - an answer that comes while the window is not the active one is told in
#   a desktop notification (received by a notification server of this
#   test's own on the session bus: GNOME Shell is not here to receive it);
#   its default action brings the window forward.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import shutil
import subprocess
import sys
import tempfile

import pyatspi
from gi.repository import Gio, GLib

# This folder's helpers, and agenttestgui.py, shared with tests/gtk
sys.path[:0] = [os.path.dirname(os.path.abspath(__file__)),
                os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'gui-common')]
from agenttestgui import (App, FocusTracker, all_nodes, find_node, finish,  # noqa: E402
                          send, shows, tap, text_of, turn_over, walking, xdotool)
from scriptedserver import ScriptedServer  # noqa: E402

N_TESTS = 10
APP_ID = os.environ.get("AGENT_CHAT_APP_ID", "io.github.libagent.Chat")
APP_PATH = "/" + APP_ID.replace(".", "/")
# Slower builds (sanitizers) wait longer
WAIT_SCALE = float(os.environ.get("AGENT_TEST_WAIT_SCALE", "1"))

NOTIFICATIONS_XML = """
<node>
  <interface name='org.freedesktop.Notifications'>
    <method name='Notify'>
      <arg type='s' direction='in'/><arg type='u' direction='in'/>
      <arg type='s' direction='in'/><arg type='s' direction='in'/>
      <arg type='s' direction='in'/><arg type='as' direction='in'/>
      <arg type='a{sv}' direction='in'/><arg type='i' direction='in'/>
      <arg type='u' direction='out'/>
    </method>
    <method name='CloseNotification'><arg type='u' direction='in'/></method>
    <method name='GetCapabilities'><arg type='as' direction='out'/></method>
    <method name='GetServerInformation'>
      <arg type='s' direction='out'/><arg type='s' direction='out'/>
      <arg type='s' direction='out'/><arg type='s' direction='out'/>
    </method>
    <signal name='NotificationClosed'><arg type='u'/><arg type='u'/></signal>
    <signal name='ActionInvoked'><arg type='u'/><arg type='s'/></signal>
  </interface>
</node>
"""


class Notifications:
    """The receiving end of desktop notifications, on the session bus, as
    GNOME Shell would be: it keeps what it is sent."""

    def __init__(self):
        self.bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
        self.received = []
        info = Gio.DBusNodeInfo.new_for_xml(NOTIFICATIONS_XML).interfaces[0]
        self.bus.register_object("/org/freedesktop/Notifications", info, self.on_call, None, None)
        self.owned = False
        Gio.bus_own_name_on_connection(self.bus, "org.freedesktop.Notifications",
                                       Gio.BusNameOwnerFlags.NONE, self.on_acquired, None)

    def on_acquired(self, *args):
        self.owned = True

    def on_call(self, connection, sender, path, interface, method, parameters, invocation):
        if method == "Notify":
            app_name, replaces, icon, summary, body, actions, hints, timeout = parameters.unpack()
            nid = replaces or len(self.received) + 1
            self.received.append({"id": nid, "summary": summary, "body": body,
                                  "actions": actions})
            invocation.return_value(GLib.Variant("(u)", (nid,)))
        elif method == "GetCapabilities":
            invocation.return_value(GLib.Variant("(as)", (["actions", "body"],)))
        elif method == "GetServerInformation":
            invocation.return_value(GLib.Variant("(ssss)", ("test", "libagent", "1", "1.2")))
        else:
            invocation.return_value(None)

    def click(self, nid):
        """The notification clicked: its default action."""
        self.bus.emit_signal(None, "/org/freedesktop/Notifications",
                             "org.freedesktop.Notifications", "ActionInvoked",
                             GLib.Variant("(us)", (nid, "default")))


def composer_text(app):
    def read():
        for node in all_nodes(app):
            if node.getRole() == pyatspi.ROLE_TEXT and node.name == "Message":
                return node.queryText().getText(0, -1)
        return None
    return walking(read)


def search_text(app):
    node = find_node(app, "Search Conversations")
    return text_of(node) if node is not None else None


def provider_call(bus, method, parameters, reply):
    return bus.call_sync(APP_ID, APP_PATH + "/SearchProvider", "org.gnome.Shell.SearchProvider2",
                         method, parameters, GLib.VariantType(reply) if reply else None,
                         Gio.DBusCallFlags.NONE, 10000, None).unpack()


def active_window():
    """The X window that has the keyboard (no window manager here says which
    is active)."""
    result = subprocess.run(["xdotool", "getwindowfocus"], capture_output=True, text=True)
    return result.stdout.strip()


def main(home):
    print("1..%d" % N_TESTS, flush=True)
    server = ScriptedServer()
    chat = App(home, server.url, "scripted")
    focus = FocusTracker()
    notifications = Notifications()
    focus.wait(lambda: notifications.owned, 10)
    bus = notifications.bus
    other = None
    try:
        app = chat.start()
        if app is None:
            tap(False, "the app starts")
            return

        # Two conversations
        server.add_text("Pack light for Paris.")
        send("Plan a trip to Paris")
        focus.wait(lambda: shows(app, "Pack light for Paris.") and turn_over(app), 30)
        xdotool("key", "ctrl+n")
        focus.wait(lambda: shows(app, "Start a Conversation"), 10)
        server.add_text("Knead the dough well.")
        send("How to bake bread")
        focus.wait(lambda: shows(app, "Knead the dough well.") and turn_over(app), 30)

        # The Shell's search
        ids = provider_call(bus, "GetInitialResultSet", GLib.Variant("(as)", (["paris"],)),
                            "(as)")[0]
        metas = provider_call(bus, "GetResultMetas", GLib.Variant("(as)", (ids,)),
                              "(aa{sv})")[0] if ids else []
        tap(len(ids) == 1 and len(metas) == 1 and metas[0]["id"] == ids[0] and
            metas[0]["name"] == "Plan a trip to Paris" and "Paris" in metas[0]["description"]
            and "<b>" not in metas[0]["description"],
            "the search provider finds the conversation, with its title and the words: %r"
            % metas)
        sub = provider_call(bus, "GetSubsearchResultSet",
                            GLib.Variant("(asas)", (ids, ["paris", "trip"])), "(as)")[0]
        none = provider_call(bus, "GetInitialResultSet", GLib.Variant("(as)", (["nowhere"],)),
                             "(as)")[0]
        tap(sub == ids and none == [], "a narrower search keeps it; other words find nothing")

        provider_call(bus, "ActivateResult", GLib.Variant("(sasu)", (ids[0], ["paris"], 0)), None)
        opened = focus.wait(lambda: shows(app, "Pack light for Paris.") and
                            not shows(app, "Knead the dough well."), 20)
        tap(opened, "a result activated opens the app at its conversation")

        provider_call(bus, "LaunchSearch", GLib.Variant("(asu)", (["bread"], 0)), None)
        searched = focus.wait(lambda: search_text(app) == "bread", 20)
        tap(searched, "a search launched shows the app's search with the words")
        xdotool("key", "Escape")

        # The app's actions, over D-Bus
        actions = Gio.DBusActionGroup.get(bus, APP_ID, APP_PATH)
        actions.activate_action("new-chat", None)
        new = focus.wait(lambda: shows(app, "Start a Conversation"), 20)
        tap(new, "app.new-chat starts a new chat")
        actions.activate_action("open-conversation", GLib.Variant("x", int(ids[0])))
        reopened = focus.wait(lambda: shows(app, "Pack light for Paris."), 20)
        tap(reopened, "app.open-conversation opens the conversation")

        # --new, as "Send to Agent Chat" runs it
        status = subprocess.run([os.environ["AGENT_CHAT"], "--new", "Explain", "this text"],
                                env=chat.env, timeout=60).returncode
        prefilled = focus.wait(lambda: composer_text(app) == "Explain this text" and
                               shows(app, "Start a Conversation"), 20)
        tap(status == 0 and prefilled, "agent-chat --new TEXT starts a chat with the text: %r"
            % composer_text(app))

        # An answer while another window is in use: a notification
        main_window = active_window()
        xdotool("key", "ctrl+a", "BackSpace")
        held = server.add_text("The answer came.", hold=True)
        send("Take your time")
        # The question is sent (the answer is held) before another window
        # takes the keyboard: keys still on their way would go to it
        focus.wait(lambda: shows(app, "Stop") and composer_text(app) == "", 30)
        other = subprocess.Popen([os.environ["AGENT_CHAT"], "--model", "other-model"],
                                 env=chat.env)
        moved = focus.wait(lambda: active_window() not in ("", main_window), 30)
        # The app learns that its window lost the keyboard from X events it
        # reads after xdotool sees the move, and GTK 4.8 tells no window's
        # active state over AT-SPI to wait on: an answer released at once
        # can end before the app knows (a loaded machine under ASan did)
        focus.pump(1.0 * WAIT_SCALE)
        before = len(notifications.received)
        held.release()
        told = focus.wait(lambda: len(notifications.received) > before, 30)
        note = notifications.received[-1] if told else {}
        tap(moved and told and "The answer came." in note.get("body", "") and
            "default" in note.get("actions", []),
            "an answer in a window not in use is told in a notification: %r" % note)
        quiet = len(notifications.received)

        if told:
            notifications.click(note["id"])
        back = focus.wait(lambda: active_window() == main_window, 20)
        tap(main_window != "" and back, "clicking it brings the window forward (%r, %r)"
            % (active_window(), main_window))

        # In the window in use, no notification
        server.add_text("Seen at once.")
        xdotool("key", "ctrl+a", "BackSpace")
        send("Quick one")
        focus.wait(lambda: shows(app, "Seen at once.") and turn_over(app), 30)
        focus.pump(1)
        tap(len(notifications.received) == quiet,
            "an answer in the window in use is not notified")
    finally:
        chat.kill()
        if other is not None and other.poll() is None:
            other.kill()
        server.close()


home = tempfile.mkdtemp(prefix="test-gui-integration-")
try:
    main(home)
finally:
    shutil.rmtree(home, ignore_errors=True)
sys.exit(finish(N_TESTS))
