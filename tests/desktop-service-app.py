#!/usr/bin/python3
# desktop-service-app.py — an application of test-desktop-service, in a
# process of its own, using the service through Gio alone as an app that
# does not use libagent would.
#
# It waits for a line on standard input (the test gives it an identity
# first), starts a conversation, sends a message and prints "path PATH",
# then the name of each signal of the conversation, one a line, until it is
# killed. With --tool it offers the model its tool "lookup", prints each
# ToolCall as "ToolCall NAME ARGUMENTS" and answers it.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import sys

from gi.repository import Gio, GLib

NAME = 'io.github.libagent.Assistant'

sys.stdin.readline()
bus = Gio.bus_get_sync(Gio.BusType.SESSION)
assistant = Gio.DBusProxy.new_sync(bus, Gio.DBusProxyFlags.DO_NOT_LOAD_PROPERTIES, None, NAME,
                                   '/io/github/libagent/Assistant',
                                   'io.github.libagent.Assistant1')
path = assistant.StartConversation('(sa{sv})', '', {})
conversation = Gio.DBusProxy.new_sync(bus, Gio.DBusProxyFlags.DO_NOT_LOAD_PROPERTIES, None, NAME,
                                      path, 'io.github.libagent.AssistantConversation1')


TOOLS = [{'name': GLib.Variant('s', 'lookup'),
          'description': GLib.Variant('s', 'Looks a word up in the dictionary'),
          'parameters': GLib.Variant('s', '{"type":"object","properties":'
                                          '{"word":{"type":"string"}}}')}]


def on_signal(proxy, sender, name, parameters):
    if name == 'ToolCall':
        call_id, tool, arguments = parameters.unpack()
        print(name, tool, arguments, flush=True)
        proxy.ToolResult('(ssb)', call_id, '"a hot drink"', False)
        return
    print(name, flush=True)


conversation.connect('g-signal', on_signal)
print('path', path, flush=True)
conversation.Send('(saa{sv})', 'Think', TOOLS if '--tool' in sys.argv[1:] else [])
GLib.MainLoop().run()
