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
# finishes. A third is allowed always: the fourth is not asked for, and
# Preferences › Apps lists the tool, whose own Forget button forgets it,
# leaving Forget All insensitive; its Ask switch, clicked off, lets the
# next call through unasked.
# With AGENT_SCREENSHOT=FILE, the screen with the tool's question is saved.
# Positions come from the accessibility tree, the pointer is xdotool's.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import json
import os
import subprocess
import sys

import pyatspi

# This folder's helpers, and agenttestgui.py, shared with tests/gtk
sys.path[:0] = [os.path.dirname(os.path.abspath(__file__)),
                os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'gui-common')]
from agenttestgui import App, click_at, focus_window, run_test, screenshot, state, tap, \
    wait_for, xdotool  # noqa: E402
from desktopservice import APP_NAME, Reader, find, name_has_owner, page_tab, \
    service_app, start_service  # noqa: E402
from scriptedserver import ScriptedServer  # noqa: E402

PLAN = 12
TOOL_HEADING = "Allow “%s” to run “lookup”?" % APP_NAME
DENIED = "The user denied this call"


def named(app, name):
    return find(app, lambda n: n.name == name)


def tool_result(server, index):
    """The tool message the model read in request @index, or None."""
    if len(server.requests) <= index or server.requests[index] is None:
        return None
    return next((m.get("content") for m in server.requests[index].get("messages", [])
                 if m.get("role") == "tool"), None)


def main(home):
    server = ScriptedServer()
    service = start_service(home, server.url, "scripted", "sk-test-desktop-tools-5d2b")
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
        asker = service_app("--tool")
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
        asker = service_app("--tool")
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

        # Always Allow: asked once, then not
        server.add_tool_call("lookup", '{"word": "milk"}')
        server.add_text("Milk is white.")
        asker = service_app("--tool")
        askers.append(asker)
        always = wait_for(lambda: named(app, "Always Allow")
                          if find(app, lambda n: '"milk"' in n.name) else None, 30)
        if always is None:
            tap(False, "the third call is asked for, with an Always Allow button")
            return
        click_at(always)
        wait_for(lambda: asker.said("Finished"), 30)
        server.add_tool_call("lookup", '{"word": "bread"}')
        server.add_text("Bread is baked.")
        asker = service_app("--tool")
        askers.append(asker)
        tap(wait_for(lambda: asker.said('ToolCall lookup {"word":"bread"}'), 30)
            and wait_for(lambda: asker.said("Finished"), 30)
            and find(app, lambda n: '"bread"' in n.name) is None,
            "Always Allow: the next call of the tool is sent without a question")

        # Preferences › Apps shows the tool allowed for good, and forgets it
        focus_window()
        xdotool("key", "ctrl+comma")
        page = wait_for(lambda: page_tab(app, "Apps"), 20)
        row = None
        if page is not None:
            click_at(page)
            row = wait_for(lambda: named(app, APP_NAME), 20)
        if row is None:
            tap(False, "Preferences › Apps lists the app")
            return
        click_at(row)
        # (The row's subtitle is a label of its own)
        listed = wait_for(lambda: named(app, "Tools Allowed Without Asking")
                          and named(app, "lookup"), 20)
        asks = wait_for(lambda: find(app, lambda n: n.name == "Ask Before Running Its Tools"
                                     and n.getRole() == pyatspi.ROLE_CHECK_BOX
                                     and n.getState().contains(pyatspi.STATE_CHECKED)), 10)
        tap(listed is not None and asks is not None,
            "Preferences › Apps lists the tool allowed without asking, and asking is on")
        screenshot("desktop-tools-preferences")
        # Each tool has its own Forget (and the group a Forget All)
        forget = wait_for(lambda: named(app, "Forget “lookup”"), 10)
        if forget is not None:
            click_at(forget)
        tap(forget is not None and wait_for(lambda: named(app, "None")
                                            and named(app, "lookup") is None, 20),
            "Forget: no tool of the app is allowed without asking any more")
        forget_all = wait_for(lambda: find(app, lambda n: "Forget All" in n.name
                                           and n.getRole() == pyatspi.ROLE_PUSH_BUTTON), 10)
        tap(forget_all is not None
            and wait_for(lambda: not state(forget_all, pyatspi.STATE_SENSITIVE), 10),
            "Forget All is insensitive with no tool left to forget")

        # Asking turned off by its switch: the app's next call runs unasked
        switch = wait_for(lambda: find(app, lambda n: n.name == "Ask Before Running Its Tools"
                                       and n.getRole() == pyatspi.ROLE_CHECK_BOX), 10)
        if switch is not None:
            click_at(switch)
        turned_off = switch is not None and wait_for(
            lambda: not state(switch, pyatspi.STATE_CHECKED), 10)
        server.add_tool_call("lookup", '{"word": "salt"}')
        server.add_text("Salt is salty.")
        asker = service_app("--tool")
        askers.append(asker)
        tap(turned_off and wait_for(lambda: asker.said('ToolCall lookup {"word":"salt"}'), 30)
            and wait_for(lambda: asker.said("Finished"), 30)
            and find(app, lambda n: '"salt"' in n.name) is None,
            "the switch turns the questions off: the next call is sent without one")
    finally:
        for asker in askers:
            asker.stop()
        chat.kill()
        monitor.stop()
        service.stop()


run_test("test-gui-desktop-tools-e2e-", PLAN, main)
