#!/usr/bin/python3
# test-gui-mcp-elicit-e2e.py: an MCP server that asks the user for input in
# the middle of a tool call (elicitation), in the real agent-chat, used as a
# person uses it. tests/mcp/elicitation-server.mjs (the official SDK's
# server) is configured in the app's mcp.json, trusted (its tools run
# without asking); a scripted model server answers the first message with a
# call of its tool "ask", whose schema asks for a name (required) and an
# email address.
#
# Preferences › Tool Servers shows the server connected (the pointer opens
# the page). The message is sent; the form appears in a dialog over the
# window, found in the accessibility tree: who asks, the message, a field
# per value, Accept insensitive while the required name is empty. The
# pointer clicks into each field and xdotool types; Accept, clicked, makes
# the dialog go, and the tool's result in the model server's next request
# carries the values as the server received them. A second turn asks again:
# Decline, clicked, answers "decline", which the next request says too.
#
# Runs at 760 px in the light style and at 360 px in the dark one (with
# AGENT_TEST_ALL_STYLES=1, all four); AGENT_TEST_SCREENSHOTS=DIR saves the
# screen at each step. Under dbus-run-session and xvfb-run (800×700).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import json
import os
import sys

import pyatspi

# This folder's helpers, and agenttestgui.py, shared with tests/gtk
sys.path[:0] = [os.path.dirname(os.path.abspath(__file__)),
                os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'gui-common')]
from agenttestgui import (all_nodes, click_at, find_node, focus_mapped,  # noqa: E402
                          mcp_app, names, run_styled_test, screenshot, showing, state, tap,
                          turn_over, walking, x_window, xdotool)
from scriptedserver import Response, ScriptedServer, tool_events  # noqa: E402

STEPS = 9

ASKER = os.path.join(os.environ.get("AGENT_MCP_TEST_DIR", ""), "elicitation-server.mjs")
SDK = os.path.join(os.environ.get("AGENT_MCP_TEST_DIR", ""), "node_modules",
                   "@modelcontextprotocol", "sdk")
TITLE = "“asker” Asks for Information"
QUESTION = "Who is booking the table?"
SCHEMA = {"type": "object", "required": ["name"],
          "properties": {"name": {"type": "string", "title": "Name",
                                  "description": "As on the reservation"},
                         "email": {"type": "string", "format": "email", "title": "Email"}}}


def window(app, title):
    """The app's window called @title that shows, or None."""
    def walk():
        for i in range(app.childCount):
            child = app.getChildAtIndex(i)
            if child is not None and child.name == title and showing(child):
                return child
        return None
    return walking(walk)


def shown_node(node, name, role):
    """The node under @node called @name with @role that shows, or None."""
    def walk():
        for inner in all_nodes(node):
            if inner.name == name and inner.getRole() == role and showing(inner):
                return inner
        return None
    return walking(walk)


def button(dialog, name):
    """The button called @name that shows, or None (GTK 4.8 names a button
    from its label, mnemonic and all, and its label again: "_Accept
    Accept")."""
    return walking(lambda: next((n for n in all_nodes(dialog)
                                 if n.getRole() == pyatspi.ROLE_PUSH_BUTTON and
                                 n.name.replace("_", "").startswith(name) and showing(n)), None))


def entries(dialog):
    """The text fields of the form that show, top to bottom."""
    def walk():
        found = [n for n in all_nodes(dialog)
                 if n.getRole() == pyatspi.ROLE_TEXT and showing(n)]
        return sorted(found, key=lambda n: n.queryComponent().getExtents(
            pyatspi.WINDOW_COORDS).y)
    return walking(walk) or []


def tool_result(request, call_id):
    """The content of the tool message answering @call_id in @request."""
    for message in (request or {}).get("messages", []):
        if message.get("role") == "tool" and message.get("tool_call_id") == call_id:
            content = message.get("content")
            if isinstance(content, list):
                return "".join(part.get("text", "") for part in content)
            return content or ""
    return ""


def offered(request):
    """The names of the tools offered in @request."""
    return [t.get("function", {}).get("name") for t in (request or {}).get("tools", [])]


def answer(app, server, focus, before, call_id):
    """Once the turn is over, the result of @call_id the model server got in
    the second request after @before: as sent, and as JSON ({} if it is
    not)."""
    answered = focus.wait(lambda: len(server.requests) > before + 1 and turn_over(app) and
                          tool_result(server.requests[before + 1], call_id), 30) or ""
    try:
        return answered, json.loads(answered)
    except ValueError:
        return answered, {}


def type_into(focus, field, text):
    """A click into @field, then @text typed."""
    click_at(field)
    focus.wait(lambda: state(field, pyatspi.STATE_FOCUSED), 5)
    xdotool("type", "--delay", "30", text)


def send_asked(app, server, focus, text, call_id, reply):
    """Sends @text from the main window; the model calls the server's tool
    "ask" (as @call_id), then answers @reply. Returns the form's dialog once
    it shows, or None."""
    arguments = json.dumps({"message": QUESTION, "schema": SCHEMA})
    server.add(Response(events=tool_events("ask", arguments, call_id=call_id)))
    server.add_text(reply)
    focus_mapped()
    field = find_node(app, "Message", pyatspi.ROLE_TEXT)
    click_at(field)
    focus.wait(lambda: state(field, pyatspi.STATE_FOCUSED), 5)
    xdotool("type", "--delay", "20", text)
    xdotool("key", "Return")
    return focus.wait(lambda: window(app, TITLE), 30)


def check(home, server, focus, width, dark):
    label = "%d px, %s" % (width, "dark" if dark else "light")
    shot = "mcp-elicit-%d-%s-" % (width, "dark" if dark else "light")
    chat = mcp_app(home, server.url, width, dark,
                   {"asker": {"command": "node", "args": [ASKER], "trusted": True}})
    results = []

    def step(ok, name):
        results.append(ok)
        tap(ok, "%s (%s)" % (name, label))

    try:
        app = chat.start()
        step(app is not None, "the app starts with the server configured")
        if app is None:
            return results

        # Preferences › Tool Servers: the server is connected, with its two tools
        xdotool("key", "ctrl+comma")
        page = focus.wait(lambda: walking(lambda: next(
            (n for n in all_nodes(app) if n.name == "Tool Servers" and showing(n)), None)), 20)
        if page is not None:
            click_at(page)
        connected = focus.wait(lambda: any(
            n.startswith("Connected, 2 tools") for n in walking(lambda: [
                t for node in all_nodes(app) for t in (node.name, node.description) if t])
            or []), 60)
        screenshot(shot + "connected")
        step(connected, "Preferences › Tool Servers shows “asker” connected, with 2 tools")
        if not connected:
            return results
        xdotool("key", "Escape")
        focus.wait(lambda: window(app, "Preferences") is None, 10)

        # The first turn: the model calls "ask", the form shows over the window
        before = len(server.requests)
        dialog = send_asked(app, server, focus, "Book a table for tonight", "call_1",
                            "Booked for Ada.")
        fields = focus.wait(lambda: dialog and len(entries(dialog)) == 2 and entries(dialog),
                            10) or []
        accept = dialog and button(dialog, "Accept")
        screenshot(shot + "form")
        step(dialog is not None and QUESTION in names(dialog) and len(fields) == 2 and
             accept is not None and not state(accept, pyatspi.STATE_SENSITIVE) and
             "ask" in offered(server.requests[before] if len(server.requests) > before
                              else None),
             "the tool call brings the form: who asks, the question, two fields, Accept "
             "insensitive while the name is empty")
        if len(fields) != 2 or accept is None:
            return results

        # Typed into with the keyboard after a click into each field
        # (the keyboard to the dialog, as a window manager gives it to a new window)
        shown = focus.wait(lambda: x_window("Asks for Information"), 10)
        if shown:
            xdotool("windowfocus", "--sync", shown)
        type_into(focus, fields[0], "Ada Lovelace")
        type_into(focus, fields[1], "ada@example.org")
        sensitive = focus.wait(lambda: state(accept, pyatspi.STATE_SENSITIVE), 10)
        screenshot(shot + "filled")
        step(sensitive, "filled in, Accept becomes sensitive")
        click_at(accept)
        gone = focus.wait(lambda: window(app, TITLE) is None, 20)
        step(gone, "Accept, clicked, answers and the dialog goes")
        answered, result = answer(app, server, focus, before, "call_1")
        screenshot(shot + "accepted")
        step(result == {"action": "accept",
                        "content": {"name": "Ada Lovelace", "email": "ada@example.org"}} and
             any("Booked for Ada." in n for n in names(app)),
             "the server received the values, and the model the tool's result: %r" % answered)

        # The second turn: Decline
        before = len(server.requests)
        dialog = send_asked(app, server, focus, "And tomorrow?", "call_2", "Not booked.")
        decline = dialog and focus.wait(lambda: button(dialog, "Decline"), 10)
        step(decline is not None and state(decline, pyatspi.STATE_SENSITIVE),
             "asked again, the form shows with Decline")
        if decline is None:
            return results
        click_at(decline)
        gone = focus.wait(lambda: window(app, TITLE) is None, 20)
        step(gone, "Decline, clicked, answers and the dialog goes")
        answered, result = answer(app, server, focus, before, "call_2")
        screenshot(shot + "declined")
        step(result.get("action") == "decline" and "content" not in result and
             any("Not booked." in n for n in names(app)),
             "the server was told the user declined, and the model so: %r" % answered)
    finally:
        chat.kill()
    return results


run_styled_test("test-gui-mcp-elicit-", STEPS, SDK, check, ScriptedServer)
