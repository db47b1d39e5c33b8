#!/usr/bin/python3
# test-gui-mcp-context-e2e.py: an MCP server's resources and prompts in
# agent-chat's composer, used as a person uses them, against the real
# server-everything (tests/mcp/node_modules) configured in the app's
# mcp.json and a scripted model server that records what it is sent.
#
# The paperclip is a menu once the server is connected: opened with the
# pointer, "From everything…" lists the server's resources; a search and
# Down, Enter attach one (a chip above the text). Opened with the keyboard
# (Tab from the message field, Return), a resource template asks for
# its variable and is attached too. Sent, the request carries both
# resources' text as the message's content. "/" opens the prompts'
# popover; typing filters it, Down and Enter pick a prompt and then its
# argument; sent, the model server gets the prompt's message. A resource
# the server cannot give keeps the window open with the reason; an unknown
# prompt, or one the server refuses, shows a toast and keeps the text.
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
from agenttestgui import (all_nodes, click_at, find_node, mcp_app, menu_items,  # noqa: E402
                          names, run_styled_test, screenshot, shows, showing, state, tap,
                          text_of, turn_over, walking, xdotool)
from scriptedserver import ScriptedServer  # noqa: E402

STEPS = 12

SERVER = os.path.join(os.environ.get("AGENT_MCP_TEST_DIR", ""), "node_modules",
                      "@modelcontextprotocol", "server-everything", "dist", "index.js")


def shown_node(app, name, role=None):
    """The node called @name (with @role) that shows, or None."""
    def walk():
        for node in all_nodes(app):
            if node.name == name and (role is None or node.getRole() == role) and showing(node):
                return node
        return None
    return walking(walk)


def window(app, title):
    """The app's window called @title, or None."""
    def walk():
        for i in range(app.childCount):
            child = app.getChildAtIndex(i)
            if child is not None and child.name == title:
                return child
        return None
    return walking(walk)


def choose_item(focus, name):
    """Down through the menu open to the item @name, and Return."""
    for _ in range(4):
        where = focus.press("Down")
        if where is not None and where[1] == name:
            break
    focus.press("Return")


def message_text(app):
    return text_of(find_node(app, "Message", pyatspi.ROLE_TEXT)) or ""


def selected_row(app):
    """The name of the prompts' popover's selected row, or None."""
    def walk():
        lists = [n for n in all_nodes(app) if n.name == "Prompts" and showing(n)]
        for node in all_nodes(lists[0]) if lists else []:
            if node.getRole() in (pyatspi.ROLE_LIST_ITEM, pyatspi.ROLE_LIST_BOX) and \
               node.getState().contains(pyatspi.STATE_SELECTED) and node.name:
                return node.name
        return None
    return walking(walk)


def prompt_rows(app):
    def walk():
        lists = [n for n in all_nodes(app) if n.name == "Prompts" and showing(n)]
        return [n.name for n in all_nodes(lists[0]) if n.getRole() == pyatspi.ROLE_LIST_ITEM
                and n.name] if lists else []
    return walking(walk) or []


def last_user_content(request):
    """The text of the last user message of a chat request."""
    if not request:
        return ""
    users = [m for m in request.get("messages", []) if m.get("role") == "user"]
    if not users:
        return ""
    content = users[-1].get("content")
    if isinstance(content, str):
        return content
    return "\n".join(json.dumps(part) for part in content or [])


def check(home, server, focus, width, dark):
    label = "%d px, %s" % (width, "dark" if dark else "light")
    shot = "mcp-context-%d-%s-" % (width, "dark" if dark else "light")
    chat = mcp_app(home, server.url, width, dark,
                   {"everything": {"command": "node", "args": [SERVER, "stdio"]}})
    results = []

    def step(ok, name):
        results.append(ok)
        tap(ok, "%s (%s)" % (name, label))

    try:
        app = chat.start()
        menu = focus.wait(lambda: app and shown_node(app, "Attach", pyatspi.ROLE_PUSH_BUTTON),
                          90) if app else None
        step(menu is not None and state(menu, pyatspi.STATE_SENSITIVE),
             "once server-everything is connected, the paperclip is the Attach menu")
        if menu is None:
            return results

        # The pointer: the menu opens; From everything… (GTK 4.8 tells the places
        # of a popover's items wrong, for a click: the keys choose it), a
        # search, Down, Enter
        click_at(menu)
        items = focus.wait(lambda: menu_items(app), 10) or []
        screenshot(shot + "menu")
        step(items[:1] == ["File…"] and "From everything…" in items,
             "a click opens the menu: File…, then From everything…: %r" % items)
        if "From everything…" not in items:
            return results
        choose_item(focus, "From everything…")
        picker = focus.wait(lambda: window(app, "Attach from everything"), 15)
        listed = focus.wait(lambda: picker and shows(picker, "architecture.md") and
                            shows(picker, "Dynamic Text Resource"), 30)
        screenshot(shot + "resources")
        step(listed, "From everything… lists its resources and templates")
        xdotool("type", "--delay", "30", "architecture")
        focus.wait(lambda: picker and not shows(picker, "Dynamic Text Resource"), 10)
        focus.press("Down")
        focus.press("Return")
        chip = focus.wait(lambda: window(app, "Attach from everything") is None and
                          [n for n in names(app) if n.startswith("Remove ") and
                           "architecture.md" in n], 20)
        screenshot(shot + "chip")
        step(chip, "searched and picked with Down, Enter, it is attached as a chip: %r" % chip)

        # The keyboard: Tab from the message field to the menu, Return, Down to
        # From everything…, a template and its variable
        field = find_node(app, "Message", pyatspi.ROLE_TEXT)
        if field is not None:
            click_at(field)
        focus.wait(lambda: state(field, pyatspi.STATE_FOCUSED), 5)
        moved = None
        for _ in range(3):
            moved = focus.press("Tab")
            if moved and moved[1] == "Attach":
                break
        focus.press("Return")
        opened = focus.wait(lambda: "From everything…" in menu_items(app), 10)
        choose_item(focus, "From everything…")
        picker = focus.wait(lambda: window(app, "Attach from everything"), 15)
        focus.wait(lambda: picker and shows(picker, "Dynamic Text Resource"), 30)
        xdotool("type", "--delay", "30", "dynamic text")
        focus.wait(lambda: picker and not shows(picker, "architecture.md"), 10)
        focus.press("Down")
        focus.press("Return")
        variable = focus.wait(lambda: picker and shown_node(picker, "resourceId"), 10)
        # A value the server refuses (not an integer): the window stays and says why
        xdotool("type", "--delay", "30", "abc")
        focus.press("Return")
        refused = focus.wait(lambda: picker and [n for n in names(picker) if n.startswith(
            "Could not read “demo://resource/dynamic/text/abc” from “everything”: ")], 20)
        screenshot(shot + "refused")
        step(refused and window(app, "Attach from everything") is not None,
             "a resource the server cannot give leaves the window open and says why: %r" %
             refused)
        xdotool("key", "ctrl+a")
        xdotool("type", "--delay", "30", "3")
        screenshot(shot + "template")
        focus.press("Return")
        chip = focus.wait(lambda: window(app, "Attach from everything") is None and
                          [n for n in names(app) if n.startswith("Remove ") and "/3" in n], 20)
        step(moved is not None and moved[1] == "Attach" and opened and variable is not None and chip,
             "with the keyboard (focus went to %r), the template asks for resourceId; "
             "attached: %r" % (moved, chip))

        # Sent with the message: the request carries both resources' text
        before = len(server.requests)
        server.add_text("Both read.")
        field = find_node(app, "Message", pyatspi.ROLE_TEXT)
        click_at(field)
        xdotool("type", "--delay", "20", "What do these say?")
        xdotool("key", "Return")
        focus.wait(lambda: len(server.requests) > before and turn_over(app), 30)
        sent = last_user_content(server.requests[-1]) if len(server.requests) > before else ""
        screenshot(shot + "sent")
        step("What do these say?" in sent and "architecture" in sent.lower() and
             "Resource 3" in sent, "the request carries the text and both resources: %r" %
             sent[:300])

        # "/": the prompts' popover, filtered, picked with the keys
        click_at(find_node(app, "Message", pyatspi.ROLE_TEXT))
        xdotool("type", "/")
        rows = focus.wait(lambda: prompt_rows(app), 15)
        screenshot(shot + "prompts")
        step(rows and any("args-prompt" in r for r in rows) and
             any("simple-prompt" in r for r in rows),
             "“/” shows the server's prompts: %r" % rows)
        xdotool("type", "--delay", "40", "arg")
        filtered = focus.wait(lambda: [r for r in prompt_rows(app)] if
                              all("arg" in r.lower() for r in prompt_rows(app)) else None, 10)
        focus.press("Return")
        picked = focus.wait(lambda: message_text(app) == "/args-prompt ", 10)
        arguments = focus.wait(lambda: prompt_rows(app), 10)
        screenshot(shot + "arguments")
        focus.press("Return")
        city = focus.wait(lambda: message_text(app) == "/args-prompt city=", 10)
        step(filtered and picked and arguments and any("required" in r for r in arguments)
             and city, "typing filters (%r), Enter picks the prompt, then its required "
             "argument (%r)" % (filtered, arguments))

        before = len(server.requests)
        server.add_text("Sunny.")
        xdotool("type", "--delay", "30", "Paris")
        xdotool("key", "Return")
        focus.wait(lambda: len(server.requests) > before and turn_over(app), 30)
        sent = last_user_content(server.requests[-1]) if len(server.requests) > before else ""
        step("What's weather in Paris?" in sent,
             "sent, the model server gets the prompt's message: %r" % sent[:200])

        # An unknown prompt: a toast, and the text stays
        click_at(find_node(app, "Message", pyatspi.ROLE_TEXT))
        before = len(server.requests)
        xdotool("type", "--delay", "30", "/no-such-prompt")
        xdotool("key", "Escape")
        xdotool("key", "Return")
        toast = focus.wait(lambda: shows(app, "Unknown prompt “/no-such-prompt”"), 10)
        screenshot(shot + "unknown")
        step(toast and message_text(app) == "/no-such-prompt" and
             len(server.requests) == before,
             "an unknown prompt says so and keeps the text")

        # A prompt the server refuses (its required argument left out): a toast
        # with the server's words, and the text stays
        xdotool("key", "ctrl+a")
        xdotool("type", "--delay", "30", "/args-prompt")
        xdotool("key", "Escape")
        xdotool("key", "Return")
        toast = focus.wait(lambda: [n for n in names(app) if n.startswith(
            "Could not get the prompt “args-prompt” from “everything”: ")], 20)
        screenshot(shot + "refused-prompt")
        step(toast and message_text(app) == "/args-prompt" and len(server.requests) == before,
             "a prompt the server refuses says why and keeps the text: %r" % toast)
    finally:
        chat.kill()
    return results


run_styled_test("test-gui-mcp-context-", STEPS, SERVER, check, ScriptedServer)
