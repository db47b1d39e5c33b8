#!/usr/bin/python3
# test-gui-mcp-e2e.py: the real agent-chat with an MCP server configured in
# its config dir (agent-chat/mcp.json): Preferences opens with Ctrl+comma,
# the Tool Servers page shows the server connected, and expanded, its tools.
# The screen is read through the accessibility tree (AT-SPI), the keyboard
# driven with xdotool. Runs under dbus-run-session and xvfb-run.
#
# With AGENT_SCREENSHOT=FILE, the screen is saved there (import -window root)
# once the tools show.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import pyatspi

# This folder's helpers, and agenttestgui.py, shared with tests/gtk
sys.path[:0] = [os.path.dirname(os.path.abspath(__file__)),
                os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'gui-common')]
from agenttestgui import all_nodes, app_env, find_app, finish, focus_window, tap, wait_for, \
    xdotool  # noqa: E402

PLAN = 4


def find(app, predicate):
    for node in all_nodes(app):
        try:
            if node.name and predicate(node):
                return node
        except Exception:
            continue
    return None


def texts(app):
    """Names and descriptions: a row's subtitle is its description."""
    found = []
    for node in all_nodes(app):
        try:
            found += [t for t in (node.name, node.description) if t]
        except Exception:
            continue
    return found


def activate(node):
    action = node.queryAction()
    for i in range(action.nActions):
        if action.getName(i) in ("click", "activate", "press"):
            return action.doAction(i)
    return action.doAction(0)


def expand(row):
    """Clicks the middle of an expander row's header."""
    try:
        box = row.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        print("# row at %d,%d %dx%d" % (box.x, box.y, box.width, box.height))
        xdotool("mousemove", str(box.x + box.width // 3), str(box.y + min(box.height, 60) // 2),
                "click", "1")
    except Exception as e:
        print("# could not expand the row: %s" % e)


def main():
    modules = os.path.join(os.environ["AGENT_MCP_TEST_DIR"], "node_modules")
    server = os.path.join(modules, "@modelcontextprotocol", "server-everything", "dist",
                          "index.js")
    if not os.path.exists(server):
        if os.environ.get("AGENT_NO_NPM") == "1":
            print("1..0 # SKIP no MCP servers to test with (AGENT_NO_NPM=1)")
            sys.exit(0)
        print("# %s is missing: run tests/mcp/install" % server)
        sys.exit(1)
    print("1..%d" % PLAN, flush=True)

    config_home = tempfile.mkdtemp(prefix="agent-chat-mcp-e2e-")
    os.makedirs(os.path.join(config_home, "agent-chat"))
    with open(os.path.join(config_home, "agent-chat", "mcp.json"), "w") as f:
        json.dump({"mcpServers": {"everything": {"command": "node",
                                                 "args": [server, "stdio"]}}}, f)

    env = app_env()
    env["XDG_CONFIG_HOME"] = config_home
    app_process = subprocess.Popen([os.environ["AGENT_CHAT"], "--provider", "openai",
                                    "--base-url", "http://127.0.0.1:9/v1"], env=env)
    try:
        app = wait_for(find_app, 30)
        if app is None:
            tap(False, "the app shows in the accessibility tree")
            return
        focus_window()
        xdotool("key", "ctrl+comma")

        page = wait_for(lambda: find(app, lambda n: n.name == "Tool Servers"), 20)
        tap(page is not None, "Preferences has a Tool Servers page")
        if page is None:
            return
        activate(page)

        connected = wait_for(lambda: [t for t in texts(app) if t.startswith("Connected, ")], 60)
        tap(connected is not None and any(" tools" in t for t in connected),
            "the configured server is connected, with its number of tools")
        row = find(app, lambda n: n.name == "everything")
        tap(row is not None, "its row shows its name")
        if row is not None:
            expand(row)
        echo = wait_for(lambda: find(app, lambda n: n.name == "echo"), 15)
        tap(echo is not None and "Echoes back the input string" in texts(app),
            "its tools are listed under it, with their descriptions")

        shot = os.environ.get("AGENT_SCREENSHOT")
        if shot:
            time.sleep(1.0)
            subprocess.run(["import", "-window", "root", shot], check=False)
    finally:
        app_process.terminate()
        try:
            app_process.wait(15)
        except subprocess.TimeoutExpired:
            app_process.kill()
        shutil.rmtree(config_home, ignore_errors=True)


main()
sys.exit(finish(PLAN))
