#!/usr/bin/python3
# test_errors.py — what an error says from Python: the HTTP status of the
# answer that failed (Agent.error_get_http_status(), the http-status field
# of a stream's error and retry events), none where no server answered,
# and the token counts of a context-length error, which PyGObject's copy of
# an error used to lose.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import socket

from agenttest import (HttpError, ScriptedServer, check, check_equal, run_async, run_tests,
                       skip_unless_introspection, text_stream)

skip_unless_introspection()

import gi  # noqa: E402

gi.require_version('Agent', '1.0')
from gi.repository import Agent, Gio, GLib  # noqa: E402

RATE_LIMITED = {'error': {'message': 'Rate limit reached', 'type': 'requests',
                          'code': 'rate_limit_exceeded'}}
TOO_LONG = {'error': {
    'message': "This model's maximum context length is 1000 tokens. However, your messages "
               "resulted in 1200 tokens. Please reduce the length of the messages.",
    'type': 'invalid_request_error', 'param': 'messages', 'code': 'context_length_exceeded'}}


def new_session(url, retries=0):
    provider = Agent.Provider.new('openai')
    provider.set_base_url(url)
    provider.set_model('scripted')
    provider.set_max_retries(retries)
    return Agent.Session.new(provider)


def send(session, text='Hello'):
    return run_async(lambda callback: session.send_async(text, None, callback),
                     session.send_finish)


def test_http_status():
    with ScriptedServer(HttpError(429, RATE_LIMITED), HttpError(401, {'error': 'bad key'}),
                        HttpError(500, {})) as server:
        session = new_session(server.url)
        error = send(session)
        check(isinstance(error, GLib.Error), 'an error: %r' % (error,))
        check_equal(Agent.error_get_http_status(error), 429, 'the status')
        check_equal(Agent.error_get_code(error), 'http', 'the code')
        error = send(session)
        check_equal((Agent.error_get_code(error), Agent.error_get_http_status(error)),
                    ('authentication', 401), 'an authentication error')

        events = list(_stream_until_error(session))
        check_equal(events[-1], {'type': 'error', 'code': 'http', 'http-status': 500,
                                 'message': events[-1]['message']}, 'the error event')


def _stream_until_error(session):
    try:
        for event in session.stream('Hello'):
            yield event
    except GLib.Error:
        return
    raise AssertionError('the stream did not fail')


def test_retry_event():
    with ScriptedServer(HttpError(503, {'error': {'message': 'Overloaded'}}),
                        text_stream('Hi.')) as server:
        session = new_session(server.url, retries=1)
        events = list(session.stream('Hello'))
        retry = events[0]
        check_equal((retry['type'], retry['attempt'], retry['code'], retry['http-status']),
                    ('retry', 1, 'http', 503), 'the retry event')
        check_equal(events[-1]['type'], 'done', 'then the answer')


def test_no_status_without_an_answer():
    # A port nothing listens on
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        port = s.getsockname()[1]
    session = new_session('http://127.0.0.1:%d/v1' % port)
    error = send(session)
    check_equal(Agent.error_get_code(error), 'network', 'a network error: %s' % error.message)
    check_equal(Agent.error_get_http_status(error), 0, 'no status')
    events = list(_stream_until_error(session))
    check('http-status' not in events[-1], 'no http-status field: %r' % events[-1])
    other = GLib.Error.new_literal(Gio.io_error_quark(), 'Not found', Gio.IOErrorEnum.NOT_FOUND)
    check_equal(Agent.error_get_http_status(other), 0, 'another domain')


def test_context_tokens_survive_in_python():
    with ScriptedServer(HttpError(400, TOO_LONG)) as server:
        error = send(new_session(server.url))
        check(error.matches(Agent.error_quark(), Agent.Error.CONTEXT_LENGTH), error.message)
        check_equal(Agent.error_get_context_tokens(error), (True, 1200, 1000), 'the tokens')
        check_equal(Agent.error_get_http_status(error), 400, 'the status')
        # An error of the same code but another message has none of these
        other = GLib.Error.new_literal(Agent.error_quark(), 'Too long',
                                       Agent.Error.CONTEXT_LENGTH)
        check_equal(Agent.error_get_context_tokens(other), (True, -1, -1), 'not another\'s')
        check_equal(Agent.error_get_http_status(other), 0, 'not another\'s status')


run_tests([test_http_status, test_retry_event, test_no_status_without_an_answer,
           test_context_tokens_survive_in_python])
