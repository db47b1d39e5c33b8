#!/usr/bin/python3
# test-gui-mcp-sign-in-e2e.py: the real agent-chat and an MCP server that
# requires OAuth (agent-test-oauth-server: the tests' authorization server,
# with registration, PKCE and the resource indicator, and the MCP endpoint it
# protects), with a real gnome-keyring on the test's session bus:
#
# - Preferences › Tool Servers shows "Sign In Required" for it, with Sign In;
# - Sign In opens the default browser: a test browser (a desktop file of the
#   test's XDG_DATA_HOME, made the default for http in its mimeapps.list) that
#   writes down the URL it was given; the row says it waits for the browser,
#   with Cancel;
# - the test plays the user in the browser (it requests the URL and follows
#   the authorization server's redirect to the app's loopback receiver): the
#   row says "Signed In", the server's tools show, and its tokens are in the
#   keyring;
# - Sign Out forgets them: gone from the keyring, "Sign In Required" again;
# - Cancel stops the wait; a refusal in the browser shows the step that
#   failed, and Sign In stays offered.
#
# Driven by the pointer (xdotool) and read through the accessibility tree
# (AT-SPI), under dbus-run-session and xvfb-run. With AGENT_TEST_SCREENSHOTS
# set, the screen of each state is saved there.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import urllib.error
import urllib.parse
import urllib.request

import pyatspi

# This folder's helpers, and agenttestgui.py, shared with tests/gtk
sys.path[:0] = [os.path.dirname(os.path.abspath(__file__)),
                os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'gui-common')]
from agenttestgui import App, all_nodes, click_at, extents, finish, screenshot, showing, start_keyring, \
    tap, wait_for, walking, xdotool  # noqa: E402

PLAN = 16
TOKEN_SCHEMA = "io.github.libagent.McpToken"


class OAuthServer:
    """agent-test-oauth-server: prints the MCP URL, then what it saw."""

    def __init__(self):
        self.process = subprocess.Popen([os.environ["AGENT_TEST_OAUTH_SERVER"]],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.url = self.process.stdout.readline().strip()
        self.lines = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.append(line.strip())

    def stop(self):
        self.process.stdin.close()
        self.process.wait(10)


def install_browser(home):
    """A browser that writes down each URL it is asked to open, made the
    default for http and https; returns the file it writes to."""
    opened = os.path.join(home, "opened")
    script = os.path.join(home, "browser")
    with open(script, "w") as f:
        f.write("#!/bin/sh\nprintf '%%s\\n' \"$1\" >> '%s'\n" % opened)
    os.chmod(script, 0o755)
    applications = os.path.join(home, "data", "applications")
    os.makedirs(applications, exist_ok=True)
    with open(os.path.join(applications, "test-browser.desktop"), "w") as f:
        f.write("[Desktop Entry]\nType=Application\nName=Test Browser\nExec=%s %%u\n"
                "MimeType=x-scheme-handler/http;x-scheme-handler/https;\nNoDisplay=true\n"
                % script)
    os.makedirs(os.path.join(home, "config"), exist_ok=True)
    with open(os.path.join(home, "config", "mimeapps.list"), "w") as f:
        f.write("[Default Applications]\nx-scheme-handler/http=test-browser.desktop\n"
                "x-scheme-handler/https=test-browser.desktop\n")
    return opened


def opened_urls(opened):
    try:
        with open(opened) as f:
            return [line.strip() for line in f if line.strip()]
    except FileNotFoundError:
        return []


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


def browse(url, deny=False):
    """The user in the browser: the authorization server's page sends the
    browser back to the app's receiver (with error=access_denied instead of
    the code if @deny). Returns the receiver's (status, page)."""
    opener = urllib.request.build_opener(NoRedirect)
    try:
        opener.open(url, timeout=30)
        return None, "the authorization server did not redirect"
    except urllib.error.HTTPError as e:
        if e.code != 302:
            return e.code, e.read().decode("utf-8", "replace")
        location = e.headers["Location"]
    if deny:
        parts = urllib.parse.urlsplit(location)
        query = dict(urllib.parse.parse_qsl(parts.query))
        query.pop("code", None)
        query["error"] = "access_denied"
        location = urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(query)))
    try:
        with urllib.request.urlopen(location, timeout=30) as answer:
            return answer.status, answer.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode("utf-8", "replace")
    except urllib.error.URLError as e:
        # Nothing listens there any more
        return None, str(e.reason)


def token_items():
    """The paths of the keyring's items of MCP tokens (Secret Service)."""
    from gi.repository import Gio, GLib

    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    reply = bus.call_sync("org.freedesktop.secrets", "/org/freedesktop/secrets",
                          "org.freedesktop.Secret.Service", "SearchItems",
                          GLib.Variant("(a{ss})", ({"xdg:schema": TOKEN_SCHEMA},)),
                          GLib.VariantType("(aoao)"), Gio.DBusCallFlags.NONE, 10000, None)
    unlocked, locked = reply.unpack()
    return unlocked + locked


def texts(node):
    """Names and descriptions: a row's subtitle is its description."""
    def walk():
        found = []
        for n in all_nodes(node):
            found += [t for t in (n.name, n.description) if t]
        return found
    return walking(walk) or []


def status(app, start):
    """The first text under @app that starts with @start."""
    return next((t for t in texts(app) if t.startswith(start)), None)


def button(app, name):
    """The button called @name that shows, or None (GTK 4.8 names a button
    from its label, mnemonic and all, and its label again: "_Sign In Sign
    In")."""
    return walking(lambda: next((n for n in all_nodes(app)
                                 if n.getRole() == pyatspi.ROLE_PUSH_BUTTON and
                                 n.name.replace("_", "").startswith(name) and showing(n)), None))


def preferences(app):
    return walking(lambda: next((app.getChildAtIndex(i) for i in range(app.childCount)
                                 if app.getChildAtIndex(i).name == "Preferences"), None))


def press(app, name):
    """Clicks the button called @name once it shows; whether it did."""
    found = wait_for(lambda: button(app, name), 30)
    if found is None:
        print("# no button “%s” shows: %s" % (name, walking(lambda: [
            (n.name, extents(n)) for n in all_nodes(app)
            if n.getRole() == pyatspi.ROLE_PUSH_BUTTON])), flush=True)
        return False
    click_at(found)
    return True


def sign_in(app, opened, before):
    """Sign In, pressed: the URL the browser was given, or None."""
    if not press(app, "Sign In"):
        return None
    urls = wait_for(lambda: opened_urls(opened)[before:], 30)
    return urls[0] if urls else None


def main(home):
    keyring = start_keyring(os.path.join(home, "keyring"))
    server = OAuthServer()
    opened = install_browser(home)
    os.makedirs(os.path.join(home, "config", "agent-chat"), exist_ok=True)
    with open(os.path.join(home, "config", "agent-chat", "mcp.json"), "w") as f:
        json.dump({"mcpServers": {"protected": {"url": server.url}}}, f)
    chat = App(home, "http://127.0.0.1:9/v1")
    try:
        app = chat.start()
        if app is None:
            tap(False, "the app starts")
            return
        xdotool("key", "ctrl+comma")
        prefs = wait_for(lambda: preferences(app), 30)
        page = prefs and wait_for(lambda: next((n for n in all_nodes(prefs)
                                                if n.name == "Tool Servers" and showing(n)),
                                               None), 30)
        if page is None:
            tap(False, "Preferences has a Tool Servers page")
            return
        click_at(page)

        required = wait_for(lambda: status(prefs, "Sign In Required"), 60)
        if not required:
            print("# shown: %s" % texts(prefs), flush=True)
        tap(required and button(prefs, "Sign In") is not None,
            "a server that requires OAuth shows Sign In Required, with Sign In")
        tap(opened_urls(opened) == [], "the browser is not opened before the user asks")
        screenshot("sign-in-required")

        url = sign_in(prefs, opened, 0)
        tap(url is not None and "/authorize?" in url and "code_challenge_method=S256" in url and
            "redirect_uri=http%3A%2F%2F127.0.0.1%3A" in url,
            "Sign In opens the authorization page in the default browser")
        tap(wait_for(lambda: status(prefs, "Signing In… Finish in your browser"), 30) and
            wait_for(lambda: button(prefs, "Cancel"), 30) and button(prefs, "Sign In") is None,
            "the row says it waits for the browser, with Cancel")
        screenshot("signing-in")

        answer = browse(url) if url else (None, "")
        tap(answer[0] == 200 and "authorized" in answer[1],
            "the browser comes back to the app's receiver, which says it is authorized")
        signed_in = wait_for(lambda: status(prefs, "Signed In · Connected, 1 tool"), 60)
        tap(signed_in, "the row says Signed In, and connected")
        tap(wait_for(lambda: len(token_items()) == 1, 30), "the tokens are in the keyring")

        # Expanded: the server's tool, and Sign Out
        row = wait_for(lambda: next((n for n in all_nodes(prefs) if n.name == "protected" and
                                     showing(n)), None), 10)
        if row is not None:
            x, y, width, height = row.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
            xdotool("mousemove", str(x + width // 3), str(y + min(height, 60) // 2), "click", "1")
        tap(wait_for(lambda: "whoami" in texts(prefs), 30),
            "the server's tools, listed with its token, show under it")
        screenshot("signed-in")
        tap(press(prefs, "Sign Out") and
            wait_for(lambda: status(prefs, "Sign In Required"), 30),
            "Sign Out: the row says Sign In Required again")
        tap(wait_for(lambda: token_items() == [], 30), "the tokens are gone from the keyring")

        # Cancel stops the wait
        url = sign_in(prefs, opened, 1)
        tap(url is not None and wait_for(lambda: button(prefs, "Cancel"), 30),
            "Sign In after signing out opens the browser again")
        tap(press(prefs, "Cancel") and wait_for(lambda: status(prefs, "Sign In Required"), 30) and
            wait_for(lambda: button(prefs, "Sign In"), 30),
            "Cancel: Sign In Required, with Sign In")
        answer = browse(url) if url else (None, "")
        print("# the browser after Cancel: %s %s" % (answer[0], answer[1][:80]), flush=True)
        tap(answer[0] is None, "a browser that comes back after Cancel finds no receiver")

        # The user refuses in the browser: the step that failed
        url = sign_in(prefs, opened, 2)
        answer = browse(url, deny=True) if url else (None, "")
        failed = wait_for(lambda: status(prefs, "Signing in failed: "), 30)
        tap(failed and "access_denied" in failed and "authorization server" in failed,
            "a refusal shows the step that failed and what the server said")
        tap(button(prefs, "Sign In") is not None, "Sign In is offered again")
        screenshot("sign-in-failed")
        tap(wait_for(lambda: token_items() == [], 10) is not None and
            not any(line.startswith("redeemed 2") for line in server.lines),
            "no token was issued for the cancelled or refused sign-ins")
    finally:
        chat.kill()
        server.stop()
        keyring.terminate()
        keyring.wait(10)


home = tempfile.mkdtemp(prefix="test-gui-mcp-sign-in-")
print("1..%d" % PLAN, flush=True)
try:
    main(home)
finally:
    shutil.rmtree(home, ignore_errors=True)
sys.exit(finish(PLAN))
