#!/usr/bin/python3
# test_web_tools.py — fetch_url and web_search from Python
#
# The constructors and their settings through the GIR: fetch_url's allowed
# hosts (a bad entry raises GLib.Error), the search backends (a SearXNG
# instance served by a Python thread, searched through the blocking call),
# and web_search missing from the built-in tools without a backend; a
# Tavily-shaped server asked through a backend made by name and through a
# profile's search service (the key from the environment), its errors
# keeping their HTTP status.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import http.server
import json
import os
import sys
import threading

from agenttest import check, check_equal, run_async, run_tests, skip_unless_introspection

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


TAVILY_KEY = 'tvly-python-key-1234567890'


class TavilyHandler(http.server.BaseHTTPRequestHandler):
    requests = []

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers['Content-Length'])))
        TavilyHandler.requests.append({'path': self.path, 'body': body,
                                       'authorization': self.headers['Authorization']})
        if self.headers['Authorization'] != 'Bearer ' + TAVILY_KEY:
            status, answer = 401, {'detail': {'error': 'Unauthorized: missing or invalid API key.'}}
        elif body['query'] == 'too many':
            status, answer = 429, {'detail': {'error': 'Slow down'}}
        else:
            status, answer = 200, {'query': body['query'], 'results': [
                {'title': 'Tavily', 'url': 'https://tavily.example/', 'content': 'tavilied',
                 'score': 0.5}]}
        data = json.dumps(answer).encode()
        self.send_response(status)
        self.send_header('Content-Type', 'application/json')
        self.send_header('Content-Length', str(len(data)))
        self.end_headers()
        self.wfile.write(data)

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


def expect_error(call, code, words):
    try:
        call()
    except GLib.Error as error:
        check(error.matches(Agent.error_quark(), code), error.message)
        check(words in error.message, error.message)
        check(TAVILY_KEY not in error.message, error.message)
        return error
    raise AssertionError('no error: ' + words)


def test_tavily():
    check_equal(list(Agent.SearchBackend.list_names()), ['searxng', 'brave', 'tavily'])
    check_equal(Agent.SearchBackend.get_api_key_variable('tavily'), 'TAVILY_API_KEY')
    check_equal(Agent.SearchBackend.get_default_url('tavily'), 'https://api.tavily.com')
    server = http.server.HTTPServer(('127.0.0.1', 0), TavilyHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = 'http://127.0.0.1:%d' % server.server_address[1]
        backend = Agent.SearchBackend.new_for_name('tavily', url, TAVILY_KEY)
        check_equal(backend.get_name(), 'Tavily', 'the name')
        results = backend.search('pythons', 3, None)
        check_equal(results.get_array().get_object_element(0).get_string_member('snippet'),
                    'tavilied', 'the snippet')
        request = TavilyHandler.requests[-1]
        check_equal(request['path'], '/search', 'the path')
        check_equal(request['body'], {'query': 'pythons', 'max_results': 3}, 'the body')
        check_equal(request['authorization'], 'Bearer ' + TAVILY_KEY, 'the key')

        error = expect_error(lambda: backend.search('too many', 3, None), Agent.Error.HTTP,
                             'HTTP 429')
        check_equal(Agent.Error.get_http_status(error), 429, 'the status')
        wrong = Agent.SearchBackend.new_tavily('tvly-wrong-key-0000000000', url)
        expect_error(lambda: wrong.search('x', 1, None), Agent.Error.AUTHENTICATION, 'HTTP 401')
        expect_error(lambda: Agent.SearchBackend.new_for_name('altavista', None, None),
                     Agent.Error.INVALID_ARGUMENT, 'altavista')

        # A profile's search service, the key from the environment
        profile = Agent.Profile.new('Web', 'openai')
        check_equal(profile.create_search_backend(), None, 'no search service, no backend')
        profile.props.search_provider = 'tavily'
        profile.set_search_url(url)
        check_equal(profile.get_search_provider(), 'tavily', 'the property')
        os.environ['TAVILY_API_KEY'] = TAVILY_KEY
        try:
            from_profile = run_async(
                lambda callback: profile.create_search_backend_async(None, callback),
                profile.create_search_backend_finish)
        finally:
            del os.environ['TAVILY_API_KEY']
        check(isinstance(from_profile, Agent.SearchBackend), repr(from_profile))
        from_profile.search('from a profile', 2, None)
        check_equal(TavilyHandler.requests[-1]['body']['query'], 'from a profile', 'the query')
        expect_error(lambda: profile.create_search_backend(), Agent.Error.INVALID_ARGUMENT,
                     'TAVILY_API_KEY')
    finally:
        server.shutdown()


sys.exit(run_tests([test_fetch_url_constructors, test_search_backends, test_tavily]))
