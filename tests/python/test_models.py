#!/usr/bin/python3
# test_models.py — Agent.ModelManager from Python: list with capabilities,
# pull with progress, a cancelled pull, an unknown model's error code.
#
# The server is a small fake Ollama in a thread (the shapes of Ollama's
# docs/api.md: /api/tags, /api/show, /api/pull as NDJSON).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import http.server
import json
import threading
import time

from agenttest import check, check_equal, run_async, run_tests, skip_unless_introspection

skip_unless_introspection()

import gi  # noqa: E402

gi.require_version('Agent', '1.0')
from gi.repository import Agent, Gio, GLib  # noqa: E402

MODELS = [{'name': 'qwen3:8b', 'model': 'qwen3:8b', 'size': 5225376047, 'digest': 'ab' * 32,
           'modified_at': '2025-05-10T08:06:48.639712648-07:00',
           'details': {'family': 'qwen3', 'parameter_size': '8.2B',
                       'quantization_level': 'Q4_K_M'}}]
SHOW = {'details': {'family': 'qwen3', 'parameter_size': '8.2B', 'quantization_level': 'Q4_K_M'},
        'model_info': {'general.architecture': 'qwen3', 'qwen3.context_length': 40960},
        'capabilities': ['completion', 'tools', 'thinking']}
LAYERS = [('11' * 32, 4000000), ('22' * 32, 1024)]
slow_pull = threading.Event()


class Ollama(http.server.BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'

    def log_message(self, *args):
        pass

    def reply(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header('Content-Type', 'application/json')
        self.send_header('Content-Length', str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self.reply(200, {'models': MODELS})

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers['Content-Length'])))
        if self.path == '/api/show':
            if body['model'] != 'qwen3:8b':
                self.reply(404, {'error': "model '%s' not found" % body['model']})
            else:
                self.reply(200, SHOW)
            return
        self.send_response(200)
        self.send_header('Content-Type', 'application/x-ndjson')
        self.send_header('Connection', 'close')
        self.end_headers()
        lines = [{'status': 'pulling manifest'}]
        for digest, total in LAYERS:
            name = 'pulling ' + digest[:12]
            lines += [{'status': name, 'digest': 'sha256:' + digest, 'total': total},
                      {'status': name, 'digest': 'sha256:' + digest, 'total': total,
                       'completed': total // 2},
                      {'status': name, 'digest': 'sha256:' + digest, 'total': total,
                       'completed': total}]
        lines += [{'status': 'verifying sha256 digest'}, {'status': 'writing manifest'},
                  {'status': 'success'}]
        try:
            for i, line in enumerate(lines):
                self.wfile.write((json.dumps(line) + '\n').encode())
                self.wfile.flush()
                if slow_pull.is_set() and i >= 2:
                    time.sleep(0.2)
        except (BrokenPipeError, ConnectionResetError):
            pass


server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Ollama)
threading.Thread(target=server.serve_forever, daemon=True).start()
URL = 'http://127.0.0.1:%d' % server.server_address[1]


def new_manager():
    provider = Agent.Provider.new('ollama')
    provider.set_base_url(URL)
    return Agent.ModelManager.new(provider)


def test_list():
    manager = new_manager()
    check(manager.props.supported, 'Ollama has a manager')
    models = run_async(lambda cb: manager.list_async(None, cb), manager.list_finish)
    check_equal(models.get_n_items(), 1)
    info = models.get_item(0)
    check_equal(info.props.name, 'qwen3:8b')
    check_equal(info.props.size, 5225376047)
    check_equal(info.props.context_length, 40960)
    check_equal(info.props.quantization, 'Q4_K_M')
    check(info.has_capabilities(Agent.ModelCapabilities.TOOLS |
                                Agent.ModelCapabilities.THINKING), 'tools and thinking')
    check(not info.has_capabilities(Agent.ModelCapabilities.VISION), 'no vision')
    check_equal(info.props.modified_at.get_year(), 2025)


def test_pull_progress():
    manager = new_manager()
    heard = []
    manager.connect('pull-progress',
                    lambda m, p: heard.append((p.props.status, p.props.fraction,
                                               p.props.overall_total,
                                               p.props.overall_completed)))
    ok = run_async(lambda cb: manager.pull_async('llama3.2', None, cb), manager.pull_finish)
    check_equal(ok, True)
    check_equal(heard[0][0], 'pulling manifest')
    check_equal(heard[-1], ('success', 1.0, 4001024, 4001024))
    # The bytes never go back (the fraction may, when a layer appears)
    done = [completed for _, _, _, completed in heard]
    check(done == sorted(done), 'the bytes never go back: %s' % done)


def test_pull_cancel():
    manager = new_manager()
    cancellable = Gio.Cancellable()
    slow_pull.set()
    manager.connect('pull-progress',
                    lambda m, p: p.props.completed > 0 and cancellable.cancel())
    try:
        error = run_async(lambda cb: manager.pull_async('llama3.2', cancellable, cb),
                          manager.pull_finish)
    finally:
        slow_pull.clear()
    check(isinstance(error, GLib.Error), 'a cancelled pull fails')
    check(error.matches(Gio.io_error_quark(), Gio.IOErrorEnum.CANCELLED), error.message)


def test_unknown():
    manager = new_manager()
    error = run_async(lambda cb: manager.show_async('mistral', None, cb), manager.show_finish)
    check(isinstance(error, GLib.Error), 'an unknown model fails')
    check_equal(Agent.error_get_code(error), 'model-not-found')
    check('agent-cli --pull mistral' in error.message, error.message)


run_tests([test_list, test_pull_progress, test_pull_cancel, test_unknown])
