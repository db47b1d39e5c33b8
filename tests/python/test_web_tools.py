#!/usr/bin/python3
# test_web_tools.py — fetch_url and web_search from Python
#
# The constructors and their settings through the GIR: fetch_url's allowed
# hosts (a bad entry raises GLib.Error), the search backends (a SearXNG
# instance served by a Python thread, searched through the blocking call),
# and web_search missing from the built-in tools without a backend.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import http.server
import json
import sys
import threading

from agenttest import check, check_equal, run_tests, skip_unless_introspection

skip_unless_introspection()

import gi  # noqa: E402

gi.require_version('Agent', '1.0')
from gi.repository import Agent, GLib  # noqa: E402

ANSWER = {'results': [{'title': 'Python', 'url': 'https://python.example/',
                       'content': 'from <b>Python</b>'}]}


class SearxHandler(http.server.BaseHTTPRequestHandler):
    queries = []

    def do_GET(self):
        SearxHandler.queries.append(self.path)
        body = json.dumps(ANSWER).encode()
        self.send_response(200)
        self.send_header('Content-Type', 'application/json')
        self.send_header('Content-Length', str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def test_fetch_url_constructors():
    tool = Agent.fetch_url_tool_new()
    check_equal(tool.get_name(), 'fetch_url', 'the name')
    check(tool.get_requires_approval(), 'fetch_url asks for approval')
    allowing = Agent.fetch_url_tool_new_full(['192.168.1.0/24', 'intranet.example', '[::1]'],
                                             5, 1024 * 1024)
    check_equal(allowing.get_name(), 'fetch_url', 'the name with settings')
    try:
        Agent.fetch_url_tool_new_full(['10.0.0.0/99'], 0, 0)
    except GLib.Error as error:
        check(error.matches(Agent.error_quark(), Agent.Error.INVALID_ARGUMENT), error.message)
        check('10.0.0.0/99' in error.message, error.message)
    else:
        raise AssertionError('a bad network was accepted')
    check('fetch_url' in Agent.builtin_tool_list_names(), 'fetch_url is built in')
    check('web_search' not in Agent.builtin_tool_list_names(), 'web_search needs a backend')


def test_search_backends():
    server = http.server.HTTPServer(('127.0.0.1', 0), SearxHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = 'http://127.0.0.1:%d' % server.server_address[1]
        backend = Agent.SearchBackend.new_searxng(url)
        check_equal(backend.get_name(), 'SearXNG', 'the name')
        check_equal(backend.props.name, 'SearXNG', 'the property')
        results = backend.search('snakes', 3, None)
        check_equal(results.get_array().get_length(), 1, 'the results')
        first = results.get_array().get_object_element(0)
        check_equal(first.get_string_member('url'), 'https://python.example/', 'the url')
        check_equal(first.get_string_member('snippet'), 'from **Python**', 'the snippet')
        check('q=snakes' in SearxHandler.queries[-1], SearxHandler.queries[-1])
        tool = Agent.web_search_tool_new(backend)
        check_equal(tool.get_name(), 'web_search', 'the tool')
    finally:
        server.shutdown()

    brave = Agent.SearchBackend.new_brave('a-key', None)
    check_equal(brave.get_name(), 'Brave Search', 'Brave')
    try:
        Agent.SearchBackend.new_brave('', None)
    except GLib.Error as error:
        check('API key' in error.message, error.message)
    else:
        raise AssertionError('an empty key was accepted')


sys.exit(run_tests([test_fetch_url_constructors, test_search_backends]))
