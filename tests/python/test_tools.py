#!/usr/bin/python3
# test_tools.py — tools from Python, where they could go silently wrong:
# the options of @Agent.tool checked, a tool that requires approval never
# run unapproved, a returned True being the result (answering later is
# Agent.ANSWER_LATER), arguments checked against the tool's schema before
# any handler runs, and failures marked as errors for the model, told on
# tool-failed and logged with their traceback.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import json
import os
import subprocess
import sys
import typing

from agenttest import (ScriptedServer, anthropic_stream, check, check_equal, run_async,
                       run_tests, skip_unless_introspection, text_stream, tool_call_stream)

skip_unless_introspection()

import gi  # noqa: E402

gi.require_version('Agent', '1.0')
gi.require_version('Json', '1.0')
from gi.repository import Agent, GLib, Json  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA = {'type': 'object', 'properties': {'city': {'type': 'string'}}, 'required': ['city']}


def new_session(server, *tools, provider='openai'):
    made = Agent.Provider.new(provider)
    made.set_base_url(server.url if provider == 'openai' else server.root_url)
    made.set_model('scripted')
    made.set_max_retries(0)
    session = Agent.Session.new(made)
    for tool in tools:
        session.add_tool(tool)
    return session


def send(session, text):
    return run_async(lambda callback: session.send_async(text, None, callback),
                     session.send_finish)


def weather_calls(*arguments):
    return tool_call_stream(*[('call_%d' % i, 'get_weather', a)
                              for i, a in enumerate(arguments, 1)])


def events_of(session):
    """Records tool-failed and tool-finished as they come."""
    seen = []
    session.connect('tool-failed', lambda s, call, error: seen.append(
        ('tool-failed', call.get_id(), Agent.error_get_code(error), error.message)))
    session.connect('tool-finished', lambda s, call: seen.append(
        ('tool-finished', call.get_id(), call.is_error())))
    return seen


# --- the options of @Agent.tool -------------------------------------------

def test_decorator_options_are_checked():
    def get_weather(city: str) -> str:
        """Tells the weather."""
        return 'Sunny'

    for options, named in [({'requires_aproval': True}, "'requires_aproval'"),
                           ({'requiresApproval': True}, "'requiresApproval'"),
                           ({'approval': True}, "'approval'")]:
        try:
            Agent.tool(**options)(get_weather)
        except TypeError as error:
            text = str(error)
            check(named in text, 'the key is named: %s' % text)
            check('name, description, requires_approval, return_direct, timeout' in text,
                  'the options are listed: %s' % text)
        else:
            check(False, '%r was accepted' % (options,))

    for options, said in [({'requires_approval': 'yes'}, 'requires_approval must be True or '
                                                          "False, not 'yes'"),
                          ({'timeout': -1}, 'timeout must be seconds, a number >= 0, not -1'),
                          ({'name': 3}, 'name must be a str, not 3')]:
        try:
            Agent.tool(**options)(get_weather)
        except TypeError as error:
            check_equal(str(error), 'Agent.tool(): ' + said, 'a wrong value')
        else:
            check(False, '%r was accepted' % (options,))

    try:
        Agent.tool('get_weather')
    except TypeError as error:
        check('makes a tool of a function' in str(error), str(error))
    else:
        check(False, 'a str was taken for a function')

    made = Agent.tool(name='weather', description='Weather.', requires_approval=True,
                      return_direct=True, timeout=2.5)(get_weather)
    check_equal((made.get_name(), made.get_description(), made.get_requires_approval(),
                 made.get_return_direct(), made.get_timeout()),
                ('weather', 'Weather.', True, True, 2.5), 'every option applied')
    plain = Agent.tool(get_weather)
    check_equal((plain.get_name(), plain.get_description(), plain.get_requires_approval()),
                ('get_weather', 'Tells the weather.', False), 'the defaults')


def test_requires_approval_never_runs_unapproved():
    ran = []

    @Agent.tool(requires_approval=True)
    def get_weather(city: str) -> str:
        """Tells the weather."""
        ran.append(city)
        return 'Sunny'

    with ScriptedServer(weather_calls({'city': 'Seoul'}), text_stream('Done.')) as server:
        session = new_session(server, get_weather)
        check_equal(send(session, 'Weather?').get_content(), 'Done.', 'the answer')
        check_equal(ran, [], 'not run without an approval')
        check_equal(server.tool_message(1, 'call_1')['content'],
                    "Not run: this tool needs the user's approval and no one could be asked",
                    'the result')


# --- what a handler returns -----------------------------------------------

def test_true_is_a_result():
    kept = []

    def handler(tool, invocation):
        city = invocation.arguments['city']
        if city == 'Seoul':
            return True
        if city == 'Busan':
            return False
        if city == 'Jeju':
            kept.append(invocation)
            GLib.timeout_add(20, lambda: invocation.return_result('answered later') and False)
            return Agent.ANSWER_LATER
        if city == 'Ulsan':
            invocation.return_result('answered, then True')  # the C protocol
            return True
        return Agent.ANSWER_LATER  # keeps nothing: answers "no answer" once dropped

    tool = Agent.Tool.new('get_weather', 'Tells the weather', SCHEMA, handler)
    cities = ['Seoul', 'Busan', 'Jeju', 'Ulsan', 'Daegu']
    with ScriptedServer(weather_calls(*[{'city': c} for c in cities]),
                        text_stream('Done.')) as server:
        session = new_session(server, tool)
        check_equal(send(session, 'Weather?').get_content(), 'Done.', 'the answer')
        got = [server.tool_message(1, 'call_%d' % i)['content'] for i in range(1, 6)]
    check_equal(got, ['true', 'false', 'answered later', 'answered, then True',
                      'The tool “get_weather” gave no answer'], 'the results')
    check_equal(repr(Agent.ANSWER_LATER), 'Agent.ANSWER_LATER', 'the sentinel')


def test_true_allows():
    ran = []

    def handler(tool, invocation):
        ran.append(invocation.arguments['city'])
        return 'ok'

    kept = []

    def approve(session, call, approval):
        city = call.arguments_dict()['city']
        kept.append(approval)  # keeping it does not make True mean "later"
        if city == 'Seoul':
            return True
        if city == 'Busan':
            GLib.timeout_add(20, lambda: approval.allow() or False)
            return Agent.ANSWER_LATER
        if city == 'Jeju':
            GLib.timeout_add(20, lambda: approval.deny('Asked: no') or False)
            return Agent.ANSWER_LATER
        return None

    tool = Agent.Tool.new('get_weather', 'Tells the weather', SCHEMA, handler)
    tool.set_requires_approval(True)
    cities = ['Seoul', 'Busan', 'Jeju', 'Ulsan']
    with ScriptedServer(weather_calls(*[{'city': c} for c in cities]),
                        text_stream('Done.')) as server:
        session = new_session(server, tool)
        session.connect('approve-tool-call', approve)
        check_equal(send(session, 'Weather?').get_content(), 'Done.', 'the answer')
        got = [server.tool_message(1, 'call_%d' % i)['content'] for i in range(1, 5)]
    check_equal(sorted(ran), ['Busan', 'Seoul'], 'the allowed calls ran')
    check_equal(got, ['ok', 'ok', 'Denied by the user: Asked: no', 'Denied by the user'],
                'the results')


# --- arguments checked against the schema ---------------------------------

def test_arguments_follow_the_schema():
    ran = []

    @Agent.tool
    def get_weather(city: str, days: int = 1) -> str:
        """Tells the weather."""
        ran.append((city, days))
        return 'Sunny in %s' % city

    with ScriptedServer(weather_calls({'city': 5}, {'city': 'Seoul', 'days': 'two'},
                                      {'city': 'Busan'}),
                        text_stream('Done.')) as server:
        session = new_session(server, get_weather)
        check(session.props.validate_tool_arguments, 'on by default')
        guarded = []
        session.connect('check-tool-call', lambda s, call: guarded.append(call.get_id()) or True)
        seen = events_of(session)
        check_equal(send(session, 'Weather?').get_content(), 'Done.', 'the loop went on')
        check_equal(ran, [('Busan', 1)], 'only the call that follows the schema ran')
        check_equal(guarded, ['call_3'], 'no hook saw the others')
        first = 'The arguments do not follow the schema of “get_weather”: $.city: expected ' \
                'string, got integer'
        second = 'The arguments do not follow the schema of “get_weather”: $.days: expected ' \
                 'integer, got string'
        check_equal(server.tool_message(1, 'call_1')['content'], first, 'the path, to the model')
        check_equal(server.tool_message(1, 'call_2')['content'], second, 'the second')
        check_equal(seen, [('tool-failed', 'call_1', 'schema', first),
                           ('tool-finished', 'call_1', True),
                           ('tool-failed', 'call_2', 'schema', second),
                           ('tool-finished', 'call_2', True),
                           ('tool-finished', 'call_3', False)], 'the signals')

    # Off: the handler sees what the model sent
    with ScriptedServer(weather_calls({'city': 5}), text_stream('Done.')) as server:
        session = new_session(server, get_weather)
        session.props.validate_tool_arguments = False
        check_equal(send(session, 'Weather?').get_content(), 'Done.', 'the answer')
        check_equal(ran[-1], (5, 1), 'unchecked')


def test_optional_parameters_take_null():
    @Agent.tool
    def get_weather(city: str, days: typing.Optional[int] = None) -> str:
        """Tells the weather."""
        return '%s for %r days' % (city, days)

    parameters = json.loads(Json.to_string(get_weather.get_parameters(), False))
    check_equal(parameters['properties']['days'], {'type': ['integer', 'null']}, 'null allowed')
    with ScriptedServer(weather_calls({'city': 'Seoul', 'days': None}),
                        text_stream('Done.')) as server:
        session = new_session(server, get_weather)
        check_equal(send(session, 'Weather?').get_content(), 'Done.', 'the answer')
        check_equal(server.tool_message(1, 'call_1')['content'], 'Seoul for None days', 'ran')


# --- failures: flagged, told, logged --------------------------------------

def test_failures_are_errors_for_the_model():
    def handler(tool, invocation):
        raise LookupError('No forecast under the sea')

    tool = Agent.Tool.new('get_weather', 'Tells the weather', SCHEMA, handler)
    with ScriptedServer(anthropic_stream('Let me look.', ('toolu_1', 'get_weather',
                                                          {'city': 'Atlantis'}),
                                         ('toolu_2', 'get_weather', {'city': 7})),
                        anthropic_stream('Sorry.')) as server:
        session = new_session(server, tool, provider='anthropic')
        seen = events_of(session)
        check_equal(send(session, 'Weather?').get_content(), 'Sorry.', 'the answer')
        check_equal(server.requests[1]['path'], '/v1/messages', 'Anthropic')
        raised = server.tool_result(1, 'toolu_1')
        check_equal((raised['content'], raised.get('is_error')),
                    ('No forecast under the sea', True), 'the exception, marked as an error')
        invalid = server.tool_result(1, 'toolu_2')
        check_equal(invalid.get('is_error'), True, 'arguments that do not follow the schema')
        check_equal(seen[0], ('tool-failed', 'toolu_1', 'tool', 'No forecast under the sea'),
                    'tool-failed')
        check_equal(seen[2][:3], ('tool-failed', 'toolu_2', 'schema'), 'tool-failed')


def test_tracebacks_are_logged():
    # What a developer sees with G_MESSAGES_DEBUG=Agent-Tools
    env = dict(os.environ, G_MESSAGES_DEBUG='Agent-Tools')
    done = subprocess.run([sys.executable, os.path.join(HERE, 'tools_failing.py')], env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)
    for line in (done.stdout + done.stderr).splitlines():
        print('# ' + line)
    check_equal(done.returncode, 0, 'the exit status')
    results = json.loads([line for line in done.stdout.splitlines()
                          if line.startswith('{"guard"')][0])
    check_equal(results['guard'], 'Blocked: the check-tool-call hook failed: guard crashed',
                'the reason says the hook failed')
    check_equal(results['tool'], 'division by zero', 'the tool\'s exception')
    log = done.stdout + done.stderr  # GLib writes debug messages on standard output
    check('Agent-Tools-DEBUG' in log, 'logged in the Agent-Tools domain: %s' % log)
    check('The tool “divide” (call call_2) raised an exception:\nTraceback (most recent call '
          'last):' in log, 'the tool: %s' % log)
    check('ZeroDivisionError: division by zero' in log, 'the traceback of the tool: %s' % log)
    check('in divide' in log, 'the frame that raised: %s' % log)
    check('The check-tool-call hook, for “get_weather” (call call_1), raised an exception:'
          in log, 'the hook: %s' % log)
    check('RuntimeError: guard crashed' in log and 'in guard' in log,
          'the traceback of the hook: %s' % log)
    check('The call call_2 of “divide” failed (tool): division by zero' in log,
          'the library logs the failure: %s' % log)

    quiet = subprocess.run([sys.executable, os.path.join(HERE, 'tools_failing.py')],
                           env={k: v for k, v in os.environ.items() if k != 'G_MESSAGES_DEBUG'},
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)
    check_equal(quiet.returncode, 0, 'the exit status')
    check('Traceback' not in quiet.stdout + quiet.stderr,
          'nothing without G_MESSAGES_DEBUG: %s' % (quiet.stdout + quiet.stderr))


run_tests([test_decorator_options_are_checked, test_requires_approval_never_runs_unapproved,
           test_true_is_a_result, test_true_allows, test_arguments_follow_the_schema,
           test_optional_parameters_take_null, test_failures_are_errors_for_the_model,
           test_tracebacks_are_logged])
