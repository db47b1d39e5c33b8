#!/usr/bin/python3
# test_mcp_auth.py — OAuth authorization of an MCP server, from Python
#
# A small authorization server and the MCP endpoint it protects (http.server
# in a thread of this process): the application's ::authorize handler gets
# the URL as a str and plays the browser (urllib follows the redirect to the
# client's loopback receiver); the tools then work with the Bearer token;
# cancel_authorization() and sign_out_async() are callable. No keyring here
# (no session bus): the tokens live in the client.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import base64
import hashlib
import http.server
import json
import secrets
import sys
import threading
import urllib.parse
import urllib.request

from agenttest import check, check_equal, run_async, run_tests, skip_unless_introspection

skip_unless_introspection()

import gi  # noqa: E402

gi.require_version('Agent', '1.0')
from gi.repository import Agent, Gio, GLib  # noqa: E402


class OAuthServer:
    """The authorization server and the MCP endpoint, on one port."""

    def __init__(self):
        self.codes = {}
        self.tokens = set()
        self.authorizations = 0
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def reply(self, status, body, headers=()):
                data = json.dumps(body).encode() if body is not None else b''
                self.send_response(status)
                self.send_header('Content-Type', 'application/json')
                self.send_header('Content-Length', str(len(data)))
                for name, value in headers:
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

            def body(self):
                return self.rfile.read(int(self.headers.get('Content-Length', 0)))

            def do_GET(self):
                url = urllib.parse.urlparse(self.path)
                query = dict(urllib.parse.parse_qsl(url.query))
                if url.path == '/.well-known/oauth-protected-resource/mcp':
                    self.reply(200, {'resource': outer.url + '/mcp',
                                     'authorization_servers': [outer.url]})
                elif url.path == '/.well-known/oauth-authorization-server':
                    self.reply(200, {'issuer': outer.url,
                                     'authorization_endpoint': outer.url + '/authorize',
                                     'token_endpoint': outer.url + '/token',
                                     'registration_endpoint': outer.url + '/register',
                                     'code_challenge_methods_supported': ['S256']})
                elif url.path == '/authorize':
                    outer.authorizations += 1
                    code = secrets.token_urlsafe(16)
                    outer.codes[code] = query['code_challenge']
                    location = '%s?code=%s&state=%s' % (query['redirect_uri'], code,
                                                        urllib.parse.quote(query['state']))
                    self.reply(302, None, [('Location', location)])
                elif url.path == '/mcp':
                    self.reply(405, None)
                else:
                    self.reply(404, {})

            def do_POST(self):
                if self.path == '/register':
                    request = json.loads(self.body())
                    self.reply(201, {'client_id': 'py-client',
                                     'redirect_uris': request['redirect_uris']})
                elif self.path == '/token':
                    form = dict(urllib.parse.parse_qsl(self.body().decode()))
                    challenge = outer.codes.pop(form.get('code'), None)
                    digest = hashlib.sha256(form.get('code_verifier', '').encode()).digest()
                    if challenge != base64.urlsafe_b64encode(digest).decode().rstrip('='):
                        self.reply(400, {'error': 'invalid_grant'})
                        return
                    token = secrets.token_urlsafe(16)
                    outer.tokens.add(token)
                    self.reply(200, {'access_token': token, 'token_type': 'Bearer',
                                     'expires_in': 3600})
                elif self.path == '/mcp':
                    self.mcp()
                else:
                    self.reply(404, {})

            def mcp(self):
                message = json.loads(self.body())
                bearer = self.headers.get('Authorization', '')[len('Bearer '):]
                if bearer not in outer.tokens:
                    challenge = 'Bearer resource_metadata="%s/.well-known/' \
                                'oauth-protected-resource/mcp"' % outer.url
                    self.reply(401, {'error': 'invalid_token'},
                               [('WWW-Authenticate', challenge)])
                    return
                method = message.get('method')
                if 'id' not in message:
                    self.reply(202, None)
                elif method == 'initialize':
                    self.reply(200, {'jsonrpc': '2.0', 'id': message['id'], 'result': {
                        'protocolVersion': '2025-06-18', 'capabilities': {'tools': {}},
                        'serverInfo': {'name': 'py', 'version': '1'}}})
                elif method == 'tools/list':
                    self.reply(200, {'jsonrpc': '2.0', 'id': message['id'], 'result': {
                        'tools': [{'name': 'whoami', 'inputSchema': {'type': 'object'}}]}})
                else:
                    self.reply(200, {'jsonrpc': '2.0', 'id': message['id'],
                                     'error': {'code': -32601, 'message': 'no'}})

        self.httpd = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Handler)
        self.url = 'http://127.0.0.1:%d' % self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def browse(uri, pages):
    """The user's browser: the authorization page, then the redirect."""
    with urllib.request.urlopen(uri) as answer:
        pages.append(answer.read().decode())


def test_authorize_from_python():
    server = OAuthServer()
    client = Agent.McpClient.new_http('py', server.url + '/mcp')
    asked = []
    pages = []

    def on_authorize(client, uri):
        asked.append(uri)
        threading.Thread(target=browse, args=(uri, pages), daemon=True).start()

    client.connect('authorize', on_authorize)
    result = run_async(lambda callback: client.connect_async(None, callback),
                       client.connect_finish)
    check(result is True, 'connected: %r' % (result,))
    check_equal(len(asked), 1, 'authorization URLs')
    check(isinstance(asked[0], str) and asked[0].startswith(server.url + '/authorize?'),
          'the URL: %r' % asked[0])
    check('code_challenge_method=S256' in asked[0], 'PKCE in %r' % asked[0])
    check_equal(server.authorizations, 1, 'authorizations')
    check_equal([tool.get_name() for tool in client.get_tools()], ['whoami'], 'the tools')
    check(pages and 'authorized' in pages[0], 'the page: %r' % pages)

    # Nothing under way: does nothing
    client.cancel_authorization()
    result = run_async(lambda callback: client.close_async(None, callback), client.close_finish)
    check(result is True, 'closed: %r' % (result,))
    server.close()


def test_cancel_from_python():
    server = OAuthServer()
    client = Agent.McpClient.new_http('py', server.url + '/mcp')
    client.connect('authorize', lambda client, uri: client.cancel_authorization())
    result = run_async(lambda callback: client.connect_async(None, callback),
                       client.connect_finish)
    check(isinstance(result, GLib.Error), 'an error: %r' % (result,))
    check(result.matches(Gio.io_error_quark(), Gio.IOErrorEnum.CANCELLED), 'cancelled: %s' % result)
    check_equal(server.authorizations, 0, 'authorizations')
    server.close()


if __name__ == '__main__':
    sys.exit(run_tests([test_authorize_from_python, test_cancel_from_python]))
