#!/usr/bin/python3
# clipread.py: another program that pastes: it reads the text the clipboard
# holds, as a text editor's Paste does, prints it as a JSON string (null
# when the clipboard holds no text) on one line, and exits. For the tests
# that check what agent-chat's Copy buttons put there.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import json
import sys

import gi

gi.require_version("Gtk", "4.0")
gi.require_version("Gdk", "4.0")
from gi.repository import Gdk, GLib, Gtk  # noqa: E402

Gtk.init()
loop = GLib.MainLoop()
result = {}


def read(clipboard, task):
    try:
        result["text"] = clipboard.read_text_finish(task)
    except GLib.Error as error:
        print("# %s" % error.message, file=sys.stderr)
        result["text"] = None
    loop.quit()


Gdk.Display.get_default().get_clipboard().read_text_async(None, read)
loop.run()
print(json.dumps(result["text"]), flush=True)
