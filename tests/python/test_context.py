#!/usr/bin/python3
# test_context.py — long conversations from Python: the context-length
# error, a context policy on the session, the compacted signal with its
# arguments, a summary message
#
# SPDX-License-Identifier: LGPL-2.1-or-later

from agenttest import (HttpError, ScriptedServer, check, check_equal, run_async, run_tests,
                       skip_unless_introspection, text_stream)

skip_unless_introspection()

import gi  # noqa: E402

gi.require_version('Agent', '1.0')
from gi.repository import Agent, GLib  # noqa: E402

TOO_LONG = {'error': {
    'message': "This model's maximum context length is 1000 tokens. However, your messages "
               "resulted in 1200 tokens. Please reduce the length of the messages.",
    'type': 'invalid_request_error', 'param': 'messages', 'code': 'context_length_exceeded'}}


def new_session(server):
    provider = Agent.Provider.new('openai')
    provider.set_base_url(server.url)
    provider.set_model('scripted')
    provider.set_max_retries(0)
    return Agent.Session.new(provider)


def send(session, text):
    return run_async(lambda callback: session.send_async(text, None, callback),
                     session.send_finish)


def test_error():
    with ScriptedServer(HttpError(400, TOO_LONG)) as server:
        session = new_session(server)
        error = send(session, 'Hello')
        check(isinstance(error, GLib.Error), 'an error: %r' % (error,))
        check(error.matches(Agent.error_quark(), Agent.Error.CONTEXT_LENGTH), error.message)
        check('1200' in error.message and '1000' in error.message, error.message)
        check_equal(len(server.requests), 1, 'not retried')


def test_policy():
    with ScriptedServer(text_stream('Hello there.'), HttpError(400, TOO_LONG),
                        text_stream('Done.')) as server:
        session = new_session(server)
        policy = Agent.ContextPolicy.new(Agent.ContextStrategy.KEEP_LAST)
        policy.props.keep_turns = 1
        session.props.context_policy = policy
        compactions = []
        session.connect('compacted',
                        lambda s, strategy, start, end, before, after, summary:
                        compactions.append((strategy, start, end, before > after, summary)))

        check_equal(send(session, 'An old question').get_content(), 'Hello there.')
        check_equal(send(session, 'New question').get_content(), 'Done.')

        check_equal(compactions, [(Agent.ContextStrategy.KEEP_LAST, 0, 2, True, None)])
        check_equal(session.props.context_window, 1000, 'the window the server named')
        check(session.props.context_used > 0, 'an estimate')
        contents = [m.get('content') for m in server.requests[2]['body']['messages']]
        check_equal(contents, ['New question'])
        check_equal(session.get_memory().get_n_items(), 4, 'the memory keeps everything')


def test_summary_message():
    summary = Agent.Message.new_summary('They talked.', 0, 2)
    check(summary.is_summary(), 'a summary')
    check_equal((summary.get_summary_start(), summary.get_summary_end()), (0, 2))
    check(not Agent.Message.new(Agent.MessageRole.USER, 'Hi').is_summary(), 'a plain message')


run_tests([test_error, test_policy, test_summary_message])
