#!/usr/bin/python3
# test_documents.py — Agent.DocumentIndex and the search_documents tool
# from Python: an update of a copy of tests/data/documents with its
# signals and progress, a search that finds the right file, the tool, an
# unusable file's error.
#
# The server, in a thread, gives each text its words hashed into 64
# counts as its vector, so that a question lies nearest its topic's file.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import http.server
import json
import os
import re
import shutil
import sys
import tempfile
import threading
import zlib

from agenttest import (SKIP, check, check_equal, run_async, run_tests,
                       skip_unless_introspection, wait_until)

skip_unless_introspection()

import gi  # noqa: E402

gi.require_version('Agent', '1.0')
gi.require_version('Json', '1.0')
from gi.repository import Agent, GLib, Json  # noqa: E402

if not hasattr(Agent, 'DocumentIndex'):
    print('# libagent was built without its store: no document index')
    sys.exit(SKIP)

CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'data', 'documents')
COMMON = {'a', 'an', 'and', 'the', 'of', 'to', 'in', 'on', 'is', 'it', 'for', 'with', 'or'}
requests = []


def vector(text):
    counts = [0.01] + [0.0] * 63
    for word in re.split('[^a-z0-9]+', text.lower()):
        if word and word not in COMMON:
            counts[zlib.crc32(word.encode()) % 64] += 1.0
    return counts


class Embeddings(http.server.BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'

    def log_message(self, *args):
        pass

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers['Content-Length'])))
        requests.append(body)
        data = [{'object': 'embedding', 'index': i, 'embedding': vector(text)}
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
TMP = tempfile.mkdtemp(prefix='python-documents-')
FOLDER = os.path.join(TMP, 'docs')
shutil.copytree(CORPUS, FOLDER)


def new_index():
    provider = Agent.Provider.new('openai')
    provider.set_base_url(URL)
    return Agent.DocumentIndex.new(os.path.join(TMP, 'documents.db'), provider, 'embed-test')


def test_update():
    index = new_index()
    index.set_folders([FOLDER])
    check_equal(list(index.get_folders()), [FOLDER])
    check_equal(index.props.model, 'embed-test')
    indexed, done = [], []
    index.connect('file-indexed', lambda index, path, n: indexed.append((path, n)))
    index.connect('notify::files-done', lambda index, pspec: done.append(index.props.files_done))
    result = run_async(lambda cb: index.update_async(None, cb), index.update_finish)
    check_equal(result, True)
    check_equal(len(indexed), 10)
    check(all(path.startswith(FOLDER) and n >= 1 for path, n in indexed), repr(indexed))
    check_equal(done, list(range(1, 11)))
    check_equal(index.props.files_total, 10)
    check_equal(index.props.n_files, 10)
    check_equal(index.props.indexing, False)
    check(all(body['model'] == 'embed-test' for body in requests), 'the model asked for')


def test_search():
    index = new_index()
    hits = run_async(lambda cb: index.search_async('queen cells in the hive, swarming colony',
                                                   3, None, cb),
                     index.search_finish)
    check(not isinstance(hits, GLib.Error), repr(hits))
    hits = json.loads(Json.to_string(hits, False))
    check_equal(len(hits), 3)
    check(hits[0]['path'].endswith('/beekeeping.md'), hits[0]['path'])
    check(hits[0]['score'] >= hits[1]['score'], 'best first')
    check_equal(hits[0]['first_line'], 1)


def test_tool():
    index = new_index()
    tool = Agent.search_documents_tool_new(index)
    check_equal(tool.get_name(), 'search_documents')
    check_equal(tool.get_requires_approval(), False)
    call = Agent.ToolCall.new('call_1', 'search_documents',
                              json.dumps({'query': 'magma and lava', 'max_results': 1}))
    invocation = Agent.ToolInvocation.new(tool, call, None)
    tool.invoke(invocation)
    wait_until(invocation.is_completed, 'the tool')
    result, is_error = invocation.dup_result()
    check_equal(is_error, False)
    hits = json.loads(result)
    check_equal(len(hits), 1)
    check(hits[0]['path'].endswith('/volcano.md'), hits[0]['path'])


def test_bad_file():
    junk = os.path.join(TMP, 'junk.db')
    with open(junk, 'w') as f:
        f.write('not an index, not SQLite at all, just words....')
    provider = Agent.Provider.new('openai')
    try:
        Agent.DocumentIndex.new(junk, provider, None)
    except GLib.Error as error:
        check_equal(Agent.error_get_code(error), 'storage')
        check(junk in error.message, error.message)
    else:
        raise AssertionError('a file that is not SQLite is refused')


def test_not_opened():
    # Made by GObject alone, without new(): no database, an error, no crash
    index = Agent.DocumentIndex(path=os.path.join(TMP, 'never.db'),
                                provider=Agent.Provider.new('openai'))
    error = run_async(lambda cb: index.update_async(None, cb), index.update_finish)
    check(isinstance(error, GLib.Error), repr(error))
    check('agent_document_index_new' in error.message, error.message)
    check(not os.path.exists(os.path.join(TMP, 'never.db')), 'nothing was made')


try:
    run_tests([test_update, test_search, test_tool, test_bad_file, test_not_opened])
finally:
    shutil.rmtree(TMP, ignore_errors=True)
