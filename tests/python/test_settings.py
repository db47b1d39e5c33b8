#!/usr/bin/python3
# test_settings.py — what requests ask, from Python: the provider's and
# the session's request settings through their properties, changed for one
# step in prepare-step (and the tools it offers), provider options as JSON,
# the output guard (a raising handler rejects), the cache's tokens in the
# usage
#
# SPDX-License-Identifier: LGPL-2.1-or-later

from agenttest import (ScriptedServer, check, check_equal, run_async, run_tests,
                       skip_unless_introspection, text_stream, tool_call_stream)

skip_unless_introspection()

import gi  # noqa: E402

gi.require_version('Agent', '1.0')
gi.require_version('Json', '1.0')
from gi.repository import Agent, GLib, Json  # noqa: E402


def new_session(server):
    provider = Agent.Provider.new('openai')
    provider.set_base_url(server.url)
    provider.set_model('scripted')
    provider.set_max_retries(0)
    return Agent.Session.new(provider)


def send(session, text):
    return run_async(lambda callback: session.send_async(text, None, callback),
                     session.send_finish)


def usage_event(prompt, completion, cached):
    return {'id': 'chatcmpl-test', 'object': 'chat.completion.chunk', 'model': 'scripted',
            'choices': [],
            'usage': {'prompt_tokens': prompt, 'completion_tokens': completion,
                      'total_tokens': prompt + completion,
                      'prompt_tokens_details': {'cached_tokens': cached}}}


def test_layers():
    with ScriptedServer(text_stream('Hi.'), text_stream('Again.')) as server:
        session = new_session(server)
        provider_settings = session.get_provider().props.settings
        provider_settings.props.temperature = 0.5
        provider_settings.props.top_p = 0.9
        settings = session.props.settings
        settings.set_temperature(0.25)
        settings.set_stop(['END', 'User:'])
        settings.props.seed = 42
        check(settings.props.seed_set, 'seed-set follows seed')
        check(settings.is_set('stop'), 'stop is set')
        settings.set_provider_option('metadata.user', Json.from_string('"me"'))
        settings.set_header('X-Title', 'Python')

        check_equal(send(session, 'Hello').get_content(), 'Hi.')
        body = server.requests[0]['body']
        check_equal(body['temperature'], 0.25)
        check_equal(body['top_p'], 0.9)
        check_equal(body['seed'], 42)
        check_equal(body['stop'], ['END', 'User:'])
        check_equal(body['metadata'], {'user': 'me'})

        settings.props.temperature_set = False
        settings.unset('seed')
        check_equal(send(session, 'Hello').get_content(), 'Again.')
        body = server.requests[1]['body']
        check_equal(body['temperature'], 0.5, "the provider's again")
        check('seed' not in body, 'the seed unset')


def test_prepare_step():
    tool = Agent.Tool.new('echo', 'Echoes.', Json.from_string('{"type": "object"}'),
                          lambda tool, invocation: 'echoed')
    other = Agent.Tool.new('other', 'Other.', Json.from_string('{"type": "object"}'),
                           lambda tool, invocation: 'other')
    with ScriptedServer(tool_call_stream(('call_1', 'echo', {})), text_stream('Done.')) as server:
        session = new_session(server)
        session.add_tool(tool)
        session.add_tool(other)
        session.props.settings.set_tool_choice(Agent.ToolChoice.REQUIRED, None)
        seen = []

        def prepare(session, request):
            settings = request.get_settings()
            seen.append((request.get_step(), settings.get_tool_choice()))
            if request.get_step() == 1:
                request.set_active_tools(['echo'])
            else:
                settings.set_tool_choice(Agent.ToolChoice.NONE, None)
                settings.set_temperature(0)

        session.connect('prepare-step', prepare)
        check_equal(send(session, 'Echo').get_content(), 'Done.')
        check_equal(seen, [(1, Agent.ToolChoice.REQUIRED), (2, Agent.ToolChoice.REQUIRED)])
        first, second = server.requests[0]['body'], server.requests[1]['body']
        check_equal([t['function']['name'] for t in first['tools']], ['echo'])
        check_equal(first['tool_choice'], 'required')
        check_equal(len(second['tools']), 2)
        check_equal(second['tool_choice'], 'none')
        check_equal(second['temperature'], 0)


def test_refused():
    with ScriptedServer() as server:
        session = new_session(server)
        session.props.settings.props.top_k = 10
        error = send(session, 'Hello')
        check(isinstance(error, GLib.Error), 'an error: %r' % (error,))
        check(error.matches(Agent.error_quark(), Agent.Error.INVALID_ARGUMENT), error.message)
        check('OpenAI' in error.message and 'top-k' in error.message, error.message)
        check_equal(len(server.requests), 0, 'nothing sent')


def test_output_guard():
    with ScriptedServer(text_stream('The key is 1234.'), text_stream('The key is 1234.'),
                        text_stream('Fine.')) as server:
        session = new_session(server)
        verdicts = []

        def guard(session, answer):
            verdicts.append(answer.get_content())
            if len(verdicts) == 1:
                return Agent.OutputDecision.new_replace('[withheld]')
            if len(verdicts) == 2:
                raise ValueError('a guard that fails')
            return True

        session.connect('check-output', guard)
        check_equal(send(session, 'Key?').get_content(), '[withheld]')
        error = send(session, 'Key?')
        check(isinstance(error, GLib.Error), 'a raising handler rejects: %r' % (error,))
        check(error.matches(Agent.error_quark(), Agent.Error.HOOK), error.message)
        check('a guard that fails' in error.message, error.message)
        check_equal(send(session, 'Ok').get_content(), 'Fine.')
        contents = [m.get_content() for m in session.get_memory()]
        check_equal(contents, ['Key?', '[withheld]', 'Key?', 'Ok', 'Fine.'])


def test_cached_usage():
    with ScriptedServer(text_stream('Hi.') + [usage_event(2000, 5, 1536)]) as server:
        session = new_session(server)
        send(session, 'Hello')
        usage = session.props.usage
        check_equal(usage.get_cached_tokens(), 1536)
        check_equal(usage.get_cache_creation_tokens(), 0)
        json = Json.to_string(usage.to_json(), False)
        check('"cached-input-tokens":1536' in json, json)
        check('cache-creation' not in json, json)


def test_provider_defaults():
    provider = Agent.Provider.new('ollama')
    check(provider.props.prompt_cache, 'prompt caching is on')
    check_equal(provider.props.max_context_window, 16384)
    check(provider.set_keep_alive('10m'), 'a duration')
    check_equal(provider.props.keep_alive, '10m')
    try:
        provider.set_keep_alive('soon')
        check(False, 'refused')
    except GLib.Error as error:
        check('keep-alive' in error.message, error.message)
    check_equal(provider.get_keep_alive(), '10m')


run_tests([test_layers, test_prepare_step, test_refused, test_output_guard, test_cached_usage,
           test_provider_defaults])
