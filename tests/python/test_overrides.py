#!/usr/bin/python3
# test_overrides.py — libagent as a Python developer writes it: handlers
# that return values, raise or are async; typed hooks that fail closed;
# tools from functions; turns as iterators; lifetimes that cannot trap.
#
# The overrides (bindings/python/gi/overrides/Agent.py) load with
# `from gi.repository import Agent`, found through PYTHONPATH.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import asyncio
import json
import sys
import typing

from agenttest import (ScriptedServer, Stall, check, check_equal, run_async, run_tests,
                       skip_unless_introspection, text_stream, tool_call_stream, wait_until)

skip_unless_introspection()

import gi  # noqa: E402

gi.require_version('Agent', '1.0')
from gi.repository import Agent, Gio, GLib  # noqa: E402

SCHEMA = {'type': 'object', 'properties': {'city': {'type': 'string'}}, 'required': ['city']}


def new_session(server, *tools):
    provider = Agent.Provider.new('openai')
    provider.set_base_url(server.url)
    provider.set_model('scripted')
    provider.set_max_retries(0)
    session = Agent.Session.new(provider)
    for tool in tools:
        session.add_tool(tool)
    return session


def send(session, text, cancellable=None):
    return run_async(lambda callback: session.send_async(text, cancellable, callback),
                     session.send_finish)


def calls(*cities):
    return tool_call_stream(*[('call_%d' % i, 'get_weather', {'city': city})
                              for i, city in enumerate(cities, 1)])


def results_for(handler, *cities, session_setup=None, tool_setup=None):
    """Runs a turn whose model asks for the weather in @cities; returns
    {city: (content sent to the model, is error)}."""
    tool = Agent.Tool.new('get_weather', 'Tells the weather', SCHEMA, handler)
    if tool_setup:
        tool_setup(tool)
    with ScriptedServer(calls(*cities), text_stream('Done.')) as server:
        session = new_session(server, tool)
        errors = {}
        session.connect('tool-finished', lambda s, call: errors.__setitem__(
            call.get_id(), call.is_error()))
        if session_setup:
            session_setup(session)
        message = send(session, 'Weather?')
        check(not isinstance(message, GLib.Error), 'the turn failed: %r' % message)
        check_equal(message.get_content(), 'Done.', 'the answer')
        return {city: (server.tool_message(1, 'call_%d' % i)['content'], errors['call_%d' % i])
                for i, city in enumerate(cities, 1)}


# --- tool handlers --------------------------------------------------------

def test_handler_returns_values():
    values = {'text': 'Sunny', 'object': {'temperature': 21, 'sky': 'clear'},
              'list': [1, 'two'], 'number': 21.5, 'none': None, 'false': False,
              'nul': 'a\0b', 'set': {1, 2}}

    def handler(tool, invocation):
        return values[invocation.arguments['city']]

    got = results_for(handler, *values)
    check_equal(got['text'], ('Sunny', False), 'a str, as it is')
    check_equal(json.loads(got['object'][0]), values['object'], 'a dict, as JSON')
    check_equal(got['list'], ('[1, "two"]', False), 'a list, as JSON')
    check_equal(got['number'], ('21.5', False), 'a number')
    check_equal(got['none'], ('null', False), 'None')
    check_equal(got['false'], ('false', False), 'False')
    check_equal(got['nul'], ('The result contains a NUL character, which cannot be sent', True),
                'a NUL is an error, not a cut')
    check(got['set'][1] and 'not a JSON value' in got['set'][0], 'a set: %r' % (got['set'],))


def test_handler_raises_any_exception():
    def handler(tool, invocation):
        city = invocation.arguments['city']
        if city == 'Atlantis':
            raise LookupError('No forecast under the sea')
        if city == 'Nowhere':
            raise GLib.Error('No such city')
        return {}['missing']

    got = results_for(handler, 'Atlantis', 'Nowhere', 'Seoul')
    check_equal(got['Atlantis'], ('No forecast under the sea', True), 'any exception')
    check_equal(got['Nowhere'], ('No such city', True), 'a GLib.Error')
    check_equal(got['Seoul'], ("'missing'", True), 'a KeyError')


def test_c_protocol_still_works():
    later = []

    def handler(tool, invocation):
        city = invocation.arguments['city']
        if city == 'Seoul':
            invocation.return_result('answered, then True')
            return True
        if city == 'Busan':
            invocation.return_result('answered, then nothing')  # no "completed twice"
            return None
        later.append(invocation)
        GLib.timeout_add(20, lambda: invocation.return_result('answered later') and False)
        return Agent.ANSWER_LATER

    got = results_for(handler, 'Seoul', 'Busan', 'Jeju')
    check_equal([got[c][0] for c in ('Seoul', 'Busan', 'Jeju')],
                ['answered, then True', 'answered, then nothing', 'answered later'], 'results')


def test_dropped_invocation_answers():
    # Answers later and keeps nothing: without a tool-timeout this hung the
    # turn forever.
    def handler(tool, invocation):
        return Agent.ANSWER_LATER

    got = results_for(handler, 'Seoul')
    check_equal(got['Seoul'], ('The tool “get_weather” gave no answer', True), 'no answer')


def test_async_handler_on_the_glib_loop():
    async def handler(tool, invocation):
        await asyncio.sleep(0.01)
        city = invocation.arguments['city']
        if city == 'Atlantis':
            raise ValueError('No forecast under the sea')
        return {'city': city, 'sky': 'sunny'}

    got = results_for(handler, 'Seoul', 'Atlantis')
    check_equal(json.loads(got['Seoul'][0]), {'city': 'Seoul', 'sky': 'sunny'}, 'awaited')
    check_equal(got['Atlantis'], ('No forecast under the sea', True), 'the rejection')


def test_late_result_warns_once():
    warnings = []

    def log_handler(domain, level, message, *data):
        warnings.append(message)

    held = []

    def handler(tool, invocation):
        held.append(invocation)
        return Agent.ANSWER_LATER

    handler_id = GLib.log_set_handler('Agent', GLib.LogLevelFlags.LEVEL_WARNING, log_handler, None)
    try:
        got = results_for(handler, 'Seoul', tool_setup=lambda tool: tool.set_timeout(0.05))
        check_equal(got['Seoul'], ('The tool timed out after 0.05 s', True), 'the timeout')
        held[0].return_result('too late')
    finally:
        GLib.log_remove_handler('Agent', handler_id)
    check_equal(len(warnings), 1, 'one warning: %r' % warnings)
    check('answered after its call was over' in warnings[0], warnings[0])


def test_new_blocking():
    def body(tool, arguments, cancellable):
        city = arguments.get_object().get_string_member('city')
        if city == 'Atlantis':
            raise RuntimeError('No forecast under the sea')
        return {'city': city}

    tool = Agent.Tool.new_blocking('get_weather', 'Tells the weather', SCHEMA, body)
    with ScriptedServer(calls('Seoul', 'Atlantis'), text_stream('Done.')) as server:
        check_equal(send(new_session(server, tool), 'Weather?').get_content(), 'Done.', 'answer')
        check_equal(json.loads(server.tool_message(1, 'call_1')['content']), {'city': 'Seoul'},
                    'a value, as JSON')
        check_equal(server.tool_message(1, 'call_2')['content'], 'No forecast under the sea',
                    'the exception, not "returned no result"')


def test_tool_from_a_function():
    @Agent.tool
    def get_weather(city: str, unit: typing.Literal['C', 'F'] = 'C',
                    days: typing.Optional[int] = None) -> str:
        """Tells the weather in a city.

        Args:
            city: the city, e.g. Seoul
            unit: the unit of temperatures
        """
        return '21 °%s in %s' % (unit, city)

    @Agent.tool(name='forecast', requires_approval=False)
    async def forecast_for(city: str, invocation) -> dict:
        """Forecasts."""
        return {'city': city, 'call': invocation.get_tool_call().get_id()}

    with ScriptedServer(tool_call_stream(('call_1', 'get_weather', {'city': 'Seoul', 'unit': 'F'}),
                                         ('call_2', 'forecast', {'city': 'Busan'}),
                                         ('call_3', 'get_weather', {'town': 'Jeju'})),
                        text_stream('Done.')) as server:
        session = new_session(server, get_weather, forecast_for)
        check_equal(send(session, 'Weather?').get_content(), 'Done.', 'the answer')
        offered = {t['function']['name']: t['function'] for t in server.requests[0]['body']['tools']}
        check_equal(offered['get_weather']['description'], 'Tells the weather in a city.', 'doc')
        check_equal(offered['get_weather']['parameters'], {
            'type': 'object',
            'properties': {'city': {'type': 'string', 'description': 'the city, e.g. Seoul'},
                           'unit': {'enum': ['C', 'F'], 'description': 'the unit of temperatures'},
                           'days': {'type': ['integer', 'null']}},
            'required': ['city']}, 'the schema from the type hints')
        check_equal(offered['forecast']['parameters']['properties'], {'city': {'type': 'string'}},
                    'the invocation is not a parameter')
        check_equal(server.tool_message(1, 'call_1')['content'], '21 °F in Seoul', 'called')
        check_equal(json.loads(server.tool_message(1, 'call_2')['content']),
                    {'city': 'Busan', 'call': 'call_2'}, 'async, with the invocation')
        check_equal(server.tool_message(1, 'call_3')['content'],
                    'The arguments do not follow the schema of “get_weather”: $: the member '
                    '“city” is missing', 'a wrong argument, checked against the schema')


# --- approvals and hooks --------------------------------------------------

def test_approval_values():
    ran = []
    answers = {'Seoul': False, 'Busan': 'Not on Sundays', 'Incheon': 'raise', 'Ulsan': 1}

    def handler(tool, invocation):
        ran.append(invocation.arguments['city'])
        return 'ok'

    async def later(value):
        await asyncio.sleep(0.01)
        return value

    def approve(session, call, approval):
        city = call.arguments_dict()['city']
        if city == 'Incheon':
            raise PermissionError('Not from here')
        if city == 'Jeju':
            return later(True)
        if city == 'Daegu':
            return later(False)
        if city == 'Gwangju':
            approval.allow()
            return True
        if city == 'Suwon':
            return True  # keeps nothing: True is the answer
        if city == 'Gimhae':
            # keeps the approval, answers later
            GLib.timeout_add(20, lambda: approval.deny('Asked the user: no') and False)
            return Agent.ANSWER_LATER
        if city == 'Mokpo':
            kept.append(approval)  # kept, never answered, then dropped
            GLib.timeout_add(20, lambda: kept.clear() and False)
            return Agent.ANSWER_LATER
        return answers[city]

    kept = []
    cities = ['Seoul', 'Busan', 'Incheon', 'Ulsan', 'Jeju', 'Daegu', 'Gwangju', 'Suwon',
              'Gimhae', 'Mokpo']
    got = results_for(handler, *cities,
                      tool_setup=lambda tool: tool.set_requires_approval(True),
                      session_setup=lambda s: s.connect('approve-tool-call', approve))
    check_equal(sorted(ran), ['Gwangju', 'Jeju', 'Suwon'], 'the allowed calls ran')
    check_equal(got['Seoul'][0], 'Denied by the user', 'False')
    check_equal(got['Busan'][0], 'Denied by the user: Not on Sundays', 'a reason')
    check_equal(got['Incheon'][0], 'Denied by the user: Not from here', 'an exception')
    check_equal(got['Ulsan'][0],
                'Denied by the user: the approve-tool-call handler returned int, not an answer',
                'a wrong type')
    check_equal(got['Daegu'][0], 'Denied by the user', 'an awaited False')
    check_equal(got['Gimhae'][0], 'Denied by the user: Asked the user: no', 'kept, answered later')
    check_equal(got['Mokpo'][0], 'Not run: the approval was dropped without an answer',
                'kept, then dropped unanswered')


def test_check_tool_call_is_typed_and_fails_closed():
    ran = []

    def handler(tool, invocation):
        ran.append(invocation.arguments['city'])
        return 'ok'

    def check_call(session, call):
        city = call.arguments_dict()['city']
        if city == 'Pyongyang':
            raise RuntimeError('guard crashed')
        return {'Seoul': True, 'Busan': False, 'Incheon': 'Not there', 'Ulsan': None,
                'Jeju': 1, 'Daegu': Agent.ToolDecision.new_allow(),
                'Suwon': Agent.ToolDecision.new_block('Typed no')}[city]

    cities = ['Seoul', 'Busan', 'Incheon', 'Ulsan', 'Jeju', 'Daegu', 'Suwon', 'Pyongyang']
    got = results_for(handler, *cities,
                      session_setup=lambda s: s.connect('check-tool-call', check_call))
    check_equal(sorted(ran), ['Daegu', 'Seoul'], 'only the allowed calls ran')
    check_equal(got['Busan'][0], 'Blocked: a check-tool-call hook refused it', 'False')
    check_equal(got['Incheon'][0], 'Blocked: Not there', 'a reason')
    check_equal(got['Ulsan'][0], 'Blocked: the check-tool-call hook gave no decision', 'None')
    check_equal(got['Jeju'][0], 'Blocked: the check-tool-call hook returned int, not a decision',
                'a wrong type')
    check_equal(got['Suwon'][0], 'Blocked: Typed no', 'a typed decision')
    check_equal(got['Pyongyang'][0], 'Blocked: the check-tool-call hook failed: guard crashed',
                'an exception blocks, and says the hook failed')


def test_filter_tool_result_takes_json():
    def handler(tool, invocation):
        return 'key=sk-123'

    def redact(session, call):
        city = call.arguments_dict()['city']
        if city == 'Seoul':
            return {'redacted': True}
        if city == 'Busan':
            raise RuntimeError('filter crashed')
        return None

    got = results_for(handler, 'Seoul', 'Busan', 'Jeju',
                      session_setup=lambda s: s.connect('filter-tool-result', redact))
    check_equal(got['Seoul'][0], '{"redacted": true}', 'a dict, as JSON, not its repr')
    check_equal(got['Busan'][0],
                'The result was withheld: the filter-tool-result hook failed: filter crashed',
                'an exception withholds the result')
    check_equal(got['Jeju'][0], 'key=sk-123', 'None keeps it')


# --- streams --------------------------------------------------------------

def test_stream_iterates_a_turn():
    def handler(tool, invocation):
        return {'sky': 'sunny'}

    tool = Agent.Tool.new('get_weather', 'Tells the weather', SCHEMA, handler)
    with ScriptedServer(calls('Seoul'), text_stream('It is ', 'sunny.')) as server:
        session = new_session(server, tool)
        events = list(session.stream('Weather?'))

    types = [e['type'] for e in events]
    check_equal(types, ['tool-call', 'step-finished', 'tool-started', 'tool-finished',
                        'text-delta', 'text-delta', 'step-finished', 'done'], 'the events')
    check_equal(events[0], {'type': 'tool-call', 'id': 'call_1', 'name': 'get_weather',
                            'arguments': '{"city": "Seoul"}'}, 'a tool call')
    check_equal(events[3], {'type': 'tool-finished', 'id': 'call_1', 'name': 'get_weather',
                            'result': '{"sky": "sunny"}'}, 'its result')
    check_equal(events[4], {'type': 'text-delta', 'text': 'It is '}, 'a delta')
    check_equal(events[1]['finish-reason'], 'tool_calls', 'a step')
    check_equal(events[-1]['message'], {'role': 'assistant', 'content': 'It is sunny.'}, 'done')
    check_equal(events[-1]['metrics']['steps'], 2, 'its metrics')


def test_stream_error_and_break():
    with ScriptedServer() as server:  # no scripted response: HTTP 500
        session = new_session(server)
        seen = []
        try:
            for event in session.stream('Hi'):
                seen.append(event)
        except GLib.Error as error:
            check(error.matches(Agent.error_quark(), Agent.Error.HTTP), 'an HTTP error')
        else:
            check(False, 'the stream should raise')
        check_equal([e['type'] for e in seen], ['error'], 'the error event comes first')
        check_equal(seen[0]['code'], 'http', 'its code')

    # Leaving the loop early cancels the turn
    with ScriptedServer(Stall(text_stream('Hello ', 'there')[:2])) as server:
        session = new_session(server)
        for event in session.stream('Hi'):
            check_equal(event, {'type': 'text-delta', 'text': 'Hello '}, 'the first delta')
            break
        check(not session.get_busy(), 'the turn is over')
        check_equal(session.get_memory()[1].get_state(), Agent.MessageState.INTERRUPTED,
                    'cancelled')


def test_stream_async_with_asyncio():
    async def handler(tool, invocation):
        await asyncio.sleep(0.01)  # runs on the asyncio loop of asyncio.run()
        return 'Sunny'

    async def main(session):
        return [event async for event in session.stream_async('Weather?')]

    tool = Agent.Tool.new('get_weather', 'Tells the weather', SCHEMA, handler)
    with ScriptedServer(calls('Seoul'), text_stream('Sunny.')) as server:
        events = asyncio.run(main(new_session(server, tool)))
        check_equal([e['type'] for e in events][-3:], ['text-delta', 'step-finished', 'done'],
                    'the events')
        check_equal(server.tool_message(1, 'call_1')['content'], 'Sunny', 'the async tool')


# --- lifetimes ------------------------------------------------------------

def test_dispose_mid_turn_cancels():
    with ScriptedServer(Stall(text_stream('Hello ', 'there')[:2])) as server:
        session = new_session(server)
        outcome = []
        session.connect('text-delta', lambda *args: GLib.idle_add(session.run_dispose))
        session.send_async('Hi', None, lambda s, result: outcome.append(result))
        wait_until(lambda: outcome, 'the callback')
        try:
            session.send_finish(outcome[0])
        except GLib.Error as error:
            check(error.matches(Gio.io_error_quark(), Gio.IOErrorEnum.CANCELLED), error.message)
        else:
            check(False, 'the turn should be cancelled')
        memory = session.get_memory()
        check_equal([m.get_role() for m in memory],
                    [Agent.MessageRole.USER, Agent.MessageRole.ASSISTANT], 'memory consistent')


def test_busy_goes_false_last_and_errors_match():
    with ScriptedServer(text_stream('One.'), text_stream('Two.')) as server:
        session = new_session(server)
        log = []
        session.connect('completed', lambda s, m: log.append('completed ' + m.get_content()))

        def on_busy(session, pspec):
            log.append('busy' if session.get_busy() else 'idle')
            if not session.get_busy() and len(log) < 5:
                session.send_async('again', None, lambda s, r: log.append('second'))

        session.connect('notify::busy', on_busy)
        session.send_async('Hi', None, lambda s, r: log.append('callback'))
        wait_until(lambda: 'second' in log, 'the second turn')
        check_equal(log[:4], ['busy', 'completed One.', 'callback', 'idle'], 'busy goes last')
        check_equal(log[4:7], ['busy', 'completed Two.', 'second'], 'the next turn')

    # Error matching, as the docs show it
    with ScriptedServer(Stall(text_stream('Hi')[:1])) as server:
        session = new_session(server)
        cancellable = Gio.Cancellable()
        session.send_async('Hi', cancellable, lambda *args: None)
        error = send(session, 'Again')
        check(error.matches(Agent.error_quark(), Agent.Error.BUSY), 'busy: %s' % error)
        check_equal(Agent.error_get_code(error), 'busy', 'its code')
        cancellable.cancel()
        wait_until(lambda: not session.get_busy(), 'the cancel')


if __name__ == '__main__':
    sys.exit(run_tests([
        test_handler_returns_values,
        test_handler_raises_any_exception,
        test_c_protocol_still_works,
        test_dropped_invocation_answers,
        test_async_handler_on_the_glib_loop,
        test_late_result_warns_once,
        test_new_blocking,
        test_tool_from_a_function,
        test_approval_values,
        test_check_tool_call_is_typed_and_fails_closed,
        test_filter_tool_result_takes_json,
        test_stream_iterates_a_turn,
        test_stream_error_and_break,
        test_stream_async_with_asyncio,
        test_dispose_mid_turn_cancels,
        test_busy_goes_false_last_and_errors_match,
    ]))
