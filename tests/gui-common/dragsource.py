#!/usr/bin/python3
# dragsource.py FILE…: another program's window ("drag-source") whose label
# drags FILE… (a file list), as a file manager does; for the tests that drag
# files onto agent-chat with xdotool.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import sys

import gi

gi.require_version("Gtk", "4.0")
gi.require_version("Gdk", "4.0")
from gi.repository import Gdk, Gio, Gtk  # noqa: E402

PATHS = sys.argv[1:]


def prepare(source, x, y):
    files = Gdk.FileList.new_from_list([Gio.File.new_for_path(path) for path in PATHS])
    return Gdk.ContentProvider.new_for_value(files)


def activate(app):
    window = Gtk.ApplicationWindow(application=app, title="drag-source")
    window.set_default_size(160, 160)
    label = Gtk.Label(label="Files", vexpand=True)
    source = Gtk.DragSource(actions=Gdk.DragAction.COPY)
    source.connect("prepare", prepare)
    label.add_controller(source)
    window.set_child(label)
    window.present()


app = Gtk.Application(application_id="io.github.libagent.tests.DragSource")
app.connect("activate", activate)
app.run([])
