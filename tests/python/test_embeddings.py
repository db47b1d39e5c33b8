#!/usr/bin/python3
# test_embeddings.py — Agent.Provider.embed_async() from Python: the
# vectors of an OpenAI-shaped server, their data as bytes, a similarity,
# and Anthropic's "unsupported".
#
# The server, in a thread, gives each text its letter counts (a-z) as its
# vector: real arithmetic the test repeats.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import array
import http.server
import json
import threading

from agenttest import check, check_equal, run_async, run_tests, skip_unless_introspection

skip_unless_introspection()

import gi  # noqa: E402

gi.require_version('Agent', '1.0')
from gi.repository import Agent, GLib  # noqa: E402

requests = []


def letters(text):
    return [float(text.lower().count(chr(ord('a') + i))) for i in range(26)]


class Embeddings(http.server.BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'

    def log_message(self, *args):
        pass

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers['Content-Length'])))
        requests.append((self.path, body))
        data = [{'object': 'embedding', 'index': i, 'embedding': letters(text)}
                for i, text in enumerate(body['input'])]
        reply = json.dumps({'object': 'list', 'data': data}).encode()
        self.send_response(200)
        self.send_header('Content-Type', 'application/json')
        self.send_header('Content-Length', str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)


server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Embeddings)
threading.Thread(target=server.serve_forever, daemon=True).start()
URL = 'http://127.0.0.1:%d/v1' % server.server_address[1]
TEXTS = ['apples and bananas', 'zebra', 'a banana']


def test_embed():
    provider = Agent.Provider.new('openai')
    provider.set_base_url(URL)
    embeddings = run_async(lambda cb: provider.embed_async(TEXTS, 'text-embedding-3-small',
                                                           None, cb),
                           provider.embed_finish)
    check(isinstance(embeddings, Agent.Embeddings), repr(embeddings))
    check_equal(requests[-1][0], '/v1/embeddings')
    check_equal(requests[-1][1], {'model': 'text-embedding-3-small', 'input': TEXTS})
    check_equal(embeddings.props.n_vectors, 3)
    check_equal(embeddings.props.dimensions, 26)
    check_equal(embeddings.props.model, 'text-embedding-3-small')
    for i, text in enumerate(TEXTS):
        check_equal(list(embeddings.get_vector(i)), letters(text), 'vector %d' % i)
    data = array.array('f')
    data.frombytes(embeddings.get_data().get_data())
    check_equal(list(data), sum((letters(text) for text in TEXTS), []), 'the data')
    check(embeddings.similarity(0, embeddings, 2) > embeddings.similarity(0, embeddings, 1),
          'bananas are closer to a banana than to a zebra')


def test_new():
    data = array.array('f', [1.0, 0.0, 0.0, 1.0]).tobytes()
    embeddings = Agent.Embeddings.new('m', 2, GLib.Bytes.new(data))
    check_equal(embeddings.props.n_vectors, 2)
    check_equal(embeddings.similarity(0, embeddings, 1), 0.0)
    try:
        Agent.Embeddings.new('m', 3, GLib.Bytes.new(data))
    except GLib.Error as error:
        check_equal(Agent.error_get_code(error), 'invalid-argument')
    else:
        raise AssertionError('16 bytes are not vectors of 3 floats')


def test_anthropic():
    provider = Agent.Provider.new('anthropic')
    provider.set_base_url(URL)
    count = len(requests)
    error = run_async(lambda cb: provider.embed_async(TEXTS, 'claude', None, cb),
                      provider.embed_finish)
    check(isinstance(error, GLib.Error), 'Anthropic has no embeddings')
    check_equal(Agent.error_get_code(error), 'unsupported')
    check_equal(len(requests), count, 'nothing was sent')


run_tests([test_embed, test_new, test_anthropic])
