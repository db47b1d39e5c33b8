#!/usr/bin/python3
# test-gui-search-e2e.py: Preferences › Web Search and Documents in the
# real agent-chat, set as a person sets them (the pointer on positions read
# from the accessibility tree, the keyboard), and the tools they give a
# turn against a scripted model server:
#
# - Web Search: SearXNG chosen and the address of a SearXNG-shaped server on
#   127.0.0.1 typed; a turn whose model calls web_search, allowed, gets
#   that server's results, and the chat shows them;
# - with no service, web_search is not offered;
# - Documents: a folder preset in the settings (the folder chooser is
#   another program's window), the embedding model typed and Index Now
#   clicked; the Index row reaches n of n files and says what it holds, the
#   embeddings were asked with that model, and a turn whose model calls
#   search_documents gets the passage of the right file.
#
# Runs under dbus-run-session and xvfb-run; waits for states, never for time.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import json
import os
import sys
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pyatspi

# This folder's helpers, and agenttestgui.py, shared with tests/gtk
sys.path[:0] = [os.path.dirname(os.path.abspath(__file__)),
                os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'gui-common')]
from agenttestgui import (App, FocusTracker, all_nodes, click_at, find_node,  # noqa: E402
                          run_test, screenshot, send, shows, state, tap, text_of,
                          turn_over, walking, xdotool)
from scriptedserver import ScriptedServer  # noqa: E402

N_TESTS = 12

RESULT_TITLE = "GNOME Human Interface Guidelines"
RESULT_URL = "https://developer.gnome.org/hig/"


class SearxServer:
    """SearXNG's JSON API, as much as web_search asks of it: GET
    /search?q=…&format=json, one result; the queries it got."""

    def __init__(self):
        self.queries = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                url = urllib.parse.urlparse(self.path)
                params = urllib.parse.parse_qs(url.query)
                if url.path != "/search" or params.get("format") != ["json"]:
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                server.queries.append(params.get("q", [""])[0])
                body = json.dumps({"query": params.get("q", [""])[0], "results": [
                    {"title": RESULT_TITLE, "url": RESULT_URL,
                     "content": "How to design <strong>GNOME</strong> apps"}]}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(body)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = "http://127.0.0.1:%d" % self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def preferences(app):
    return walking(lambda: next((app.getChildAtIndex(i) for i in range(app.childCount)
                                 if app.getChildAtIndex(i).name == "Preferences"), None))


def open_preferences(focus, app):
    xdotool("key", "ctrl+comma")
    return focus.wait(lambda: preferences(app), 30)


def close_preferences(focus, app):
    xdotool("key", "Escape")
    return focus.wait(lambda: preferences(app) is None, 30)


def scroll_to(focus, window, node):
    """Turns the wheel over @window until @node shows in it whole, below
    its header bar."""
    def place():
        area = window.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        box = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        return box, area
    for _ in range(60):
        box, area = place()
        if box.y + box.height <= area.y + area.height - 8 and box.y >= area.y + 40:
            return True
        button = "5" if box.y + box.height > area.y + area.height - 8 else "4"
        # In the page's margin: over a text view, the wheel scrolls that
        xdotool("mousemove", str(area.x + 12), str(area.y + area.height // 2), "click", button)
        focus.pump(0.1)
    return False


def combo_shown(window, title):
    """The labels of the combo row @title but its title: what it shows."""
    combo = find_node(window, title, pyatspi.ROLE_COMBO_BOX)
    if combo is None:
        return None
    return walking(lambda: [n.name for n in all_nodes(combo)
                            if n.getRole() == pyatspi.ROLE_LABEL and n.name != title])


def choose(focus, window, title, position):
    """Clicks the combo row @title and picks its item at @position with the
    keys (from the first: Home, then Down)."""
    combo = find_node(window, title, pyatspi.ROLE_COMBO_BOX)
    if combo is None or not scroll_to(focus, window, combo):

        return False
    click_at(combo)
    focus.pump(0.5)
    focus.press("Home")
    for _ in range(position):
        focus.press("Down")
    focus.press("Return")
    return True


def type_in_entry(focus, window, title, text):
    """Clicks the entry row @title, types @text and presses Enter."""
    entry = find_node(window, title, pyatspi.ROLE_TEXT)
    if entry is None or not scroll_to(focus, window, entry):
        return False

    click_at(entry)
    # GTK 4.8 tells no focus move into an entry row's text: the click is given time
    focus.pump(0.5)
    focus.press("ctrl+a")
    xdotool("type", "--delay", "20", text)
    focus.press("Return")
    return focus.wait(lambda: text_of(entry) == text, 10)


def allow_button(app):
    return walking(lambda: next((n for n in all_nodes(app)
                                 if n.getRole() == pyatspi.ROLE_PUSH_BUTTON and
                                 n.name.replace("_", "") == "Allow Once" and
                                 state(n, pyatspi.STATE_VISIBLE)), None))


def tools_of(request):
    return sorted(tool.get("function", {}).get("name") for tool in (request or {}).get("tools", []))


def tool_results(request):
    return [m.get("content") for m in (request or {}).get("messages", []) if m.get("role") == "tool"]


def web_search_part(home, server, searx, focus):
    chat = App(home, server.url, "scripted")
    try:
        app = chat.start()
        if app is None:
            tap(False, "the app starts")
            return

        # No service: no web_search
        server.add_text("No search here.")
        send("Hello")
        focus.wait(lambda: shows(app, "No search here.") and turn_over(app), 30)
        tap(server.requests and "web_search" not in tools_of(server.requests[0]),
            "without a search service, web_search is not offered (%r)" %
            (tools_of(server.requests[0]) if server.requests else None,))

        prefs = open_preferences(focus, app)
        chosen = prefs is not None and choose(focus, prefs, "Search Service", 1)
        tap(chosen and focus.wait(lambda: combo_shown(prefs, "Search Service") == ["SearXNG"], 10),
            "Preferences › Web Search: SearXNG chosen (%r)" %
            (prefs and combo_shown(prefs, "Search Service"),))
        typed = type_in_entry(focus, prefs, "Search Address", searx.url)
        tap(typed and not shows(prefs, "is not an http or https address"),
            "its address typed and applied")
        screenshot("search-preferences")
        close_preferences(focus, app)

        # The model searches: asked first, allowed, the results go back to it
        server.add_tool_call("web_search", json.dumps({"query": "GNOME design"}))
        server.add_text("The HIG says how.")
        before = len(server.requests)
        send("How do I design a GNOME app?")
        allow = focus.wait(lambda: allow_button(app), 30)
        tap(allow is not None and "web_search" in tools_of(server.requests[before]),
            "the next turn offers web_search, which asks first")
        if allow is not None:
            click_at(allow)
        done = focus.wait(lambda: shows(app, "The HIG says how.") and turn_over(app), 30)
        results = tool_results(server.requests[-1]) if len(server.requests) > before + 1 else []
        tap(done and searx.queries == ["GNOME design"] and results and
            RESULT_URL in results[-1] and RESULT_TITLE in results[-1],
            "allowed, it asks the SearXNG server and the model gets its results (%r, %r)" %
            (searx.queries, results))
        # The card's Result, unfolded: the results as text
        result = walking(lambda: next((n for n in all_nodes(app)
                                       if n.name and n.name.replace("_", "") == "Result" and
                                       state(n, pyatspi.STATE_VISIBLE)), None))
        if result is not None:
            click_at(result)
        tap(result is not None and focus.wait(lambda: shows(app, RESULT_TITLE), 10),
            "the chat shows the result in the tool's card")
        screenshot("search-result")
    finally:
        chat.kill()


DOCUMENTS = {
    "penguins.md": "# Penguins\n\nEmperor penguins huddle together through the Antarctic "
                   "winter, taking turns at the windy edge of the group.\n",
    "volcano.txt": "A volcano erupts when magma rises through the crust and pressure "
                   "breaks the rock above it.\n",
    "bread.md": "# Bread\n\nKnead the dough for ten minutes, let it rise, and bake it "
                "until the crust sounds hollow.\n",
}


def index_subtitle(window):
    """What the Index row says under its title: how far an update is, or
    what the index holds."""
    return walking(lambda: [n.name for n in all_nodes(window)
                            if n.getRole() == pyatspi.ROLE_LABEL and n.name and
                            (n.name.startswith("Indexing") or " files, " in n.name or
                             n.name in ("Not indexed yet", "Looking for files…"))]) or []


def progress_value(window):
    bar = find_node(window, "Files Indexed", pyatspi.ROLE_PROGRESS_BAR)
    try:
        return bar.queryValue().currentValue if bar is not None else None
    except Exception:
        return None


def documents_part(home, server, focus):
    folder = os.path.join(home, "documents")
    os.makedirs(folder)
    for name, text in DOCUMENTS.items():
        with open(os.path.join(folder, name), "w") as f:
            f.write(text)
    server.vocabulary = ["penguin", "huddle", "antarctic", "volcano", "magma", "bread", "dough"]
    chat = App(home, server.url, "scripted", "document-folders=['%s']\n" % folder)
    try:
        app = chat.start()
        if app is None:
            tap(False, "the app starts with a documents folder")
            return

        prefs = open_preferences(focus, app)
        typed = prefs is not None and type_in_entry(focus, prefs, "Embedding Model", "embed-test")
        button = prefs and walking(lambda: next((n for n in all_nodes(prefs)
                                                 if n.getRole() == pyatspi.ROLE_PUSH_BUTTON and
                                                 # GTK 4.8: "_Index Now Index Now"
                                                 n.name.replace("_", "").startswith("Index Now")),
                                                None))
        # Typed, the model starts an update of its own; once it is over, a
        # fourth file comes, and Index Now is clicked for it
        first = None
        if button is not None and scroll_to(focus, prefs, button):
            first = focus.wait(lambda: state(button, pyatspi.STATE_SENSITIVE) and
                               "3 files, 3 chunks" in index_subtitle(prefs), 60)
            with open(os.path.join(folder, "tides.txt"), "w") as f:
                f.write("The tides follow the moon.\n")
            click_at(button)
        done = first and focus.wait(
            lambda: state(button, pyatspi.STATE_SENSITIVE) and
            "4 files, 4 chunks" in index_subtitle(prefs), 60)
        tap(typed and first and done and progress_value(prefs) == 1.0,
            "Index Now: the progress reaches 4 of 4 files and the row says what the index "
            "holds (%r, %r)" % (index_subtitle(prefs) if prefs else None,
                                progress_value(prefs) if prefs else None))
        models = set(r.get("model") for r in server.embedding_requests)
        tap("embed-test" in models, "the embeddings are asked with the model typed (%r)" % models)
        tap(focus.wait(lambda: os.path.exists(os.path.join(home, "data", "agent-chat",
                                                           "documents.db")), 10),
            "the index is in the app's data folder")
        screenshot("documents-preferences")
        close_preferences(focus, app)

        # The model searches the documents
        server.add_tool_call("search_documents",
                             json.dumps({"query": "penguins huddle antarctic"}))
        server.add_text("They huddle.")
        before = len(server.requests)
        send("What do penguins do in winter?")
        allow = focus.wait(lambda: allow_button(app) or
                           (shows(app, "They huddle.") and turn_over(app)), 30)
        offered = len(server.requests) > before and \
            "search_documents" in tools_of(server.requests[before])
        if allow is not True and allow is not None:
            click_at(allow)
        focus.wait(lambda: shows(app, "They huddle.") and turn_over(app), 30)
        results = tool_results(server.requests[-1]) if len(server.requests) > before + 1 else []
        found = []
        try:
            found = json.loads(results[-1]) if results else []
        except ValueError:
            pass
        tap(offered, "with folders, the turn offers search_documents")
        tap(found and isinstance(found, list) and
            found[0].get("path", "").endswith("penguins.md") and "huddle" in found[0].get("text", ""),
            "search_documents gives the model the passage of the right file (%r)" %
            (results[-1][:300] if results else None,))
        screenshot("documents-result")

        # The folder removed: nothing is left to index, and Index Now says so
        prefs = open_preferences(focus, app)
        remove = prefs and walking(lambda: next((n for n in all_nodes(prefs)
                                                 if n.getRole() == pyatspi.ROLE_PUSH_BUTTON and
                                                 n.name.startswith("Remove Folder")), None))
        button = prefs and walking(lambda: next((n for n in all_nodes(prefs)
                                                 if n.getRole() == pyatspi.ROLE_PUSH_BUTTON and
                                                 n.name.replace("_", "").startswith("Index Now")),
                                                None))
        removed = False
        if remove is not None and button is not None and scroll_to(focus, prefs, remove):
            click_at(remove)
            removed = focus.wait(lambda: not state(button, pyatspi.STATE_SENSITIVE) and
                                 walking(lambda: not any(n.name.startswith("Remove Folder")
                                                         for n in all_nodes(prefs))), 30)
        tap(removed, "Remove Folder: the folder's row goes, and Index Now is insensitive")
        close_preferences(focus, app)
    finally:
        chat.kill()


def main(home):
    server = ScriptedServer()
    searx = SearxServer()
    focus = FocusTracker()
    try:
        web_search_part(os.path.join(home, "web"), server, searx, focus)
        documents_part(os.path.join(home, "documents"), server, focus)
    finally:
        searx.close()
        server.close()


run_test("test-gui-search-", N_TESTS, main)
