# agenttest.py — helpers for the Python tests of libagent's bindings
#
# A scripted OpenAI chat-completions server on 127.0.0.1 (real HTTP, chunked
# Server-Sent Events, in a thread of this process), stream builders, a TAP
# runner for meson, and main-loop helpers.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import http.server
import json
import os
import sys
import threading
import time
import traceback

SKIP = 77
WAIT_SECONDS = 30


# --- streams --------------------------------------------------------------

def _chunk(delta, finish_reason=None):
    return {
        'id': 'chatcmpl-test',
        'object': 'chat.completion.chunk',
        'created': 1700000000,
        'model': 'scripted',
        'choices': [{'index': 0, 'delta': delta, 'finish_reason': finish_reason}],
    }


def text_stream(*deltas):
    """The events of an answer that streams @deltas, one per event."""
    events = [_chunk({'role': 'assistant', 'content': ''})]
    events += [_chunk({'content': delta}) for delta in deltas]
    events.append(_chunk({}, 'stop'))
    return events


def tool_call_stream(*calls, fragment=4):
    """The events of an answer that calls tools: each call is a tuple
    (id, name, arguments as a dict), its arguments sent in fragments."""
    events = [_chunk({'role': 'assistant', 'content': None})]
    for index, (call_id, name, arguments) in enumerate(calls):
        events.append(_chunk({'tool_calls': [{
            'index': index, 'id': call_id, 'type': 'function',
            'function': {'name': name, 'arguments': ''}}]}))
        text = json.dumps(arguments)
        for start in range(0, len(text), fragment):
            events.append(_chunk({'tool_calls': [{
                'index': index, 'function': {'arguments': text[start:start + fragment]}}]}))
    events.append(_chunk({}, 'tool_calls'))
    return events


def anthropic_stream(*blocks, stop_reason=None):
    """The events of an Anthropic Messages answer: each block is a str
    (text, streamed in two deltas) or a tuple (id, name, arguments as a
    dict) for a tool_use, its arguments sent in fragments."""
    events = [{'type': 'message_start', 'message': {
        'id': 'msg_scripted', 'type': 'message', 'role': 'assistant', 'content': [],
        'model': 'scripted', 'stop_reason': None, 'stop_sequence': None,
        'usage': {'input_tokens': 10, 'output_tokens': 1}}}]
    calls = False
    for index, block in enumerate(blocks):
        if isinstance(block, str):
            events.append({'type': 'content_block_start', 'index': index,
                           'content_block': {'type': 'text', 'text': ''}})
            half = len(block) // 2
            for piece in (block[:half], block[half:]):
                events.append({'type': 'content_block_delta', 'index': index,
                               'delta': {'type': 'text_delta', 'text': piece}})
        else:
            call_id, name, arguments = block
            calls = True
            events.append({'type': 'content_block_start', 'index': index, 'content_block': {
                'type': 'tool_use', 'id': call_id, 'name': name, 'input': {}}})
            text = json.dumps(arguments)
            for start in range(0, len(text), 4):
                events.append({'type': 'content_block_delta', 'index': index, 'delta': {
                    'type': 'input_json_delta', 'partial_json': text[start:start + 4]}})
        events.append({'type': 'content_block_stop', 'index': index})
    events.append({'type': 'message_delta',
                   'delta': {'stop_reason': stop_reason or ('tool_use' if calls else 'end_turn'),
                             'stop_sequence': None},
                   'usage': {'output_tokens': 5}})
    events.append({'type': 'message_stop'})
    return events


class HttpError:
    """A response that is an HTTP error status with a JSON @body."""

    def __init__(self, status, body):
        self.status = status
        self.body = body


class Stall:
    """A response that sends @events, then neither ends nor sends more until
    the client goes away or the server is closed."""

    def __init__(self, events):
        self.events = events


# --- the server -----------------------------------------------------------

class ScriptedServer:
    """Answers each POST to /v1/chat/completions with the next scripted
    response, and keeps every request body, parsed."""

    def __init__(self, *responses, delay=0.0, hold_models=False):
        self.responses = list(responses)
        self.requests = []
        self.delay = delay
        self.closing = threading.Event()
        self.lock = threading.Lock()
        # With @hold_models, the list of models is cut in two: its end
        # waits for models_gate, set by the test (or by close())
        self.hold_models = hold_models
        self.models_gate = threading.Event()
        self.models_asked = threading.Event()
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = 'HTTP/1.1'

            def log_message(self, *args):
                pass

            def do_GET(self):
                if self.path != '/v1/models':
                    self.send_error(404)
                    return
                body = json.dumps({'object': 'list', 'data': [
                    {'id': 'scripted', 'object': 'model', 'owned_by': 'tests'}]}).encode()
                self.send_response(200)
                self.send_header('Content-Type', 'application/json')
                self.send_header('Content-Length', str(len(body)))
                self.send_header('Connection', 'close')
                self.end_headers()
                try:
                    if server.hold_models:
                        self.wfile.write(body[:10])
                        self.wfile.flush()
                        server.models_asked.set()
                        server.models_gate.wait(WAIT_SECONDS)
                        body = body[10:]
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def do_POST(self):
                length = int(self.headers.get('Content-Length', '0'))
                body = json.loads(self.rfile.read(length))
                with server.lock:
                    server.requests.append({'path': self.path, 'body': body,
                                            'authorization': self.headers.get('Authorization')})
                    response = server.responses.pop(0) if server.responses else None
                if self.path not in ('/v1/chat/completions', '/v1/messages') or response is None:
                    self.send_error(500, 'No scripted response left')
                    return
                # Anthropic's Messages API names each event, and ends without [DONE]
                anthropic = self.path == '/v1/messages'
                if isinstance(response, HttpError):
                    data = json.dumps(response.body).encode()
                    self.send_response(response.status)
                    self.send_header('Content-Type', 'application/json')
                    self.send_header('Content-Length', str(len(data)))
                    self.send_header('Connection', 'close')
                    self.end_headers()
                    self.wfile.write(data)
                    return
                self.send_response(200)
                self.send_header('Content-Type', 'text/event-stream')
                self.send_header('Transfer-Encoding', 'chunked')
                self.send_header('Connection', 'close')
                self.end_headers()
                stall = isinstance(response, Stall)
                events = response.events if stall else response
                try:
                    for event in events:
                        if anthropic:
                            self.write_chunk('event: %s\ndata: %s\n\n'
                                             % (event['type'], json.dumps(event)))
                        else:
                            self.write_chunk('data: %s\n\n' % json.dumps(event))
                        time.sleep(server.delay)
                    if stall:
                        server.closing.wait(WAIT_SECONDS)
                        return
                    if not anthropic:
                        self.write_chunk('data: [DONE]\n\n')
                    self.wfile.write(b'0\r\n\r\n')
                    self.wfile.flush()
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def write_chunk(self, text):
                data = text.encode()
                self.wfile.write(b'%x\r\n%s\r\n' % (len(data), data))
                self.wfile.flush()

        self.httpd = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever,
                                       kwargs={'poll_interval': 0.02}, daemon=True)
        self.thread.start()
        # The base URL of OpenAI's APIs, and of Anthropic's (which adds /v1)
        self.url = 'http://127.0.0.1:%d/v1' % self.httpd.server_address[1]
        self.root_url = 'http://127.0.0.1:%d' % self.httpd.server_address[1]

    def close(self):
        self.closing.set()
        self.models_gate.set()
        self.httpd.shutdown()
        self.httpd.server_close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def messages(self, index):
        """The messages of request @index."""
        return self.requests[index]['body']['messages']

    def tool_message(self, index, call_id):
        """The tool message answering @call_id in request @index."""
        found = [m for m in self.messages(index)
                 if m.get('role') == 'tool' and m.get('tool_call_id') == call_id]
        check(len(found) == 1, 'request %d answers %s once: %r' % (index, call_id, found))
        return found[0]


    def tool_result(self, index, call_id):
        """The Anthropic tool_result block answering @call_id in request
        @index."""
        found = [block for m in self.messages(index) if isinstance(m.get('content'), list)
                 for block in m['content']
                 if block.get('type') == 'tool_result' and block.get('tool_use_id') == call_id]
        check(len(found) == 1, 'request %d answers %s once: %r' % (index, call_id, found))
        return found[0]


# --- checks and TAP -------------------------------------------------------

class Failure(Exception):
    pass


class Skip(Exception):
    """Raised by a test that cannot run here, with the reason."""


def check(condition, what):
    if not condition:
        raise Failure(what)


def check_equal(actual, expected, what=''):
    if actual != expected:
        raise Failure('%s: expected %r, got %r' % (what, expected, actual))


def run_tests(tests):
    """Runs @tests (functions) in order and reports them as TAP."""
    print('1..%d' % len(tests), flush=True)
    failed = 0
    for number, test in enumerate(tests, 1):
        name = test.__name__
        try:
            test()
        except Skip as reason:
            print('ok %d - %s # SKIP %s' % (number, name, reason))
            continue
        except Exception:  # every failure is reported, then the next test runs
            failed += 1
            print('not ok %d - %s' % (number, name))
            for line in traceback.format_exc().splitlines():
                print('# ' + line)
        else:
            print('ok %d - %s' % (number, name))
        sys.stdout.flush()
    return 1 if failed else 0


def skip_unless_introspection():
    """Exits with 77 (skipped) when the build has no introspection data."""
    if os.environ.get('AGENT_INTROSPECTION') == 'disabled':
        print('# introspection is disabled in this build')
        sys.exit(SKIP)


# --- the main loop --------------------------------------------------------

def wait_until(predicate, what='the condition'):
    """Runs the default main context until @predicate() is true."""
    from gi.repository import GLib

    context = GLib.MainContext.default()
    timed_out = []
    source = GLib.timeout_add_seconds(WAIT_SECONDS, lambda: timed_out.append(True))
    try:
        while not predicate():
            if timed_out:
                raise Failure('timed out waiting for ' + what)
            context.iteration(True)
    finally:
        if not timed_out:
            GLib.source_remove(source)


def run_async(start, finish):
    """Calls start(callback) and waits for the callback; returns
    finish(result), or the GLib.Error it raised."""
    from gi.repository import GLib

    results = []
    start(lambda source, result, *data: results.append(result))
    wait_until(lambda: results, 'the async call')
    try:
        return finish(results[0])
    except GLib.Error as error:
        return error
