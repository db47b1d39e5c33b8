#!/usr/bin/python3
# clipsource.py FILE…: another program that copies FILE… to the clipboard
# (a file list, as a file manager's Copy does) and keeps it there until it
# is killed; it prints "ready" once it owns the clipboard. For the tests
# that paste files into agent-chat with Ctrl+V.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import sys

import gi

gi.require_version("Gtk", "4.0")
gi.require_version("Gdk", "4.0")
from gi.repository import Gdk, Gio, GLib, Gtk  # noqa: E402

PATHS = sys.argv[1:]


def activate(app):
    # No window: nothing in the way of the pointer
    app.hold()
    clipboard = Gdk.Display.get_default().get_clipboard()
    files = Gdk.FileList.new_from_list([Gio.File.new_for_path(path) for path in PATHS])
    clipboard.set_content(Gdk.ContentProvider.new_for_value(files))

    def ready():
        if clipboard.is_local():
            print("ready", flush=True)
            return GLib.SOURCE_REMOVE
        return GLib.SOURCE_CONTINUE
    GLib.timeout_add(50, ready)


app = Gtk.Application(application_id="io.github.libagent.tests.ClipSource",
                      flags=Gio.ApplicationFlags.NON_UNIQUE)
app.connect("activate", activate)
app.run([])
