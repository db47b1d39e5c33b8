#!/usr/bin/python3
# test_bindings.py — libagent from Python, through GObject Introspection
#
# A session against a scripted server on 127.0.0.1: tools written in
# Python that answer at once, after a timeout or from an async call, or
# raise; a cancelled turn; approvals answered from Python; a memory
# implemented in Python; the branches of a memory and of a stored
# conversation (regenerate, switch back, delete).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import json
import os
import sys
import tempfile

from agenttest import (ScriptedServer, Skip, Stall, check, check_equal, run_async, run_tests,
                       skip_unless_introspection, text_stream, tool_call_stream)

skip_unless_introspection()

import gi  # noqa: E402

gi.require_version('Agent', '1.0')
gi.require_version('Json', '1.0')
from gi.repository import Agent, Gio, GLib, GObject, Json  # noqa: E402

SCHEMA = {
    'type': 'object',
    'properties': {'city': {'type': 'string', 'description': 'The city, e.g. Seoul'}},
    'required': ['city'],
}
SEOUL = ('call_1', 'get_weather', {'city': 'Seoul'})


def new_session(server, *tools):
    provider = Agent.Provider.new('openai')
    provider.set_base_url(server.url)
    provider.set_model('scripted')
    provider.set_api_key('sk-test-key')
    provider.set_max_retries(0)
    session = Agent.Session.new(provider)
    for tool in tools:
        session.add_tool(tool)
    return session


def weather_tool(handler):
    return Agent.Tool.new('get_weather', 'Tells the weather in a city',
                          Json.from_string(json.dumps(SCHEMA)), handler)


def forecast(invocation):
    city = invocation.get_arguments().get_object().get_string_member('city')
    return 'Sunny, 21 °C in %s' % city


def send(session, text, cancellable=None):
    """Runs a turn; returns its final message, or the GLib.Error it failed with."""
    return run_async(lambda callback: session.send_async(text, cancellable, callback),
                     session.send_finish)


def weather_result(handler):
    """Runs a turn in which the model asks for the weather in Seoul, and
    returns the tool result that the second request carried."""
    with ScriptedServer(tool_call_stream(SEOUL), text_stream('Done.')) as server:
        session = new_session(server, weather_tool(handler))
        check_equal(send(session, 'Weather?').get_content(), 'Done.', 'the answer')
        return server.tool_message(1, 'call_1')['content']


def record_tool_results(session):
    results = []
    session.connect('tool-finished', lambda _session, call: results.append(
        (call.get_id(), call.get_state(), call.get_result(), call.is_error())))
    return results


def test_tool_round_trip():
    calls = []

    def get_weather(tool, invocation):
        calls.append((tool.get_name(), invocation.get_tool_call().get_id()))
        invocation.return_result(forecast(invocation))
        return True

    answer = text_stream('It is ', 'sunny ', 'in Seoul.')
    with ScriptedServer(tool_call_stream(SEOUL), answer) as server:
        session = new_session(server, weather_tool(get_weather))
        deltas = []
        session.connect('text-delta', lambda _session, _message, delta: deltas.append(delta))
        results = record_tool_results(session)

        message = send(session, 'What is the weather in Seoul?')

        check_equal(message.get_content(), 'It is sunny in Seoul.', 'the answer')
        check_equal(deltas, ['It is ', 'sunny ', 'in Seoul.'], 'the streamed text')
        check_equal(calls, [('get_weather', 'call_1')], 'the tool calls')
        check_equal(results, [('call_1', Agent.ToolCallState.SUCCEEDED,
                               'Sunny, 21 °C in Seoul', False)], 'tool-finished')

        # The tool was offered with its schema, with the key in the header
        offered = server.requests[0]['body']['tools']
        check_equal([t['function']['name'] for t in offered], ['get_weather'], 'tools offered')
        check_equal(offered[0]['function']['parameters'], SCHEMA, 'the schema sent')
        check_equal(server.requests[0]['authorization'], 'Bearer sk-test-key', 'the key')

        # The second request carries the call and its result
        messages = server.messages(1)
        check_equal([m['role'] for m in messages], ['user', 'assistant', 'tool'], 'request 2')
        check_equal(messages[1]['tool_calls'][0]['id'], 'call_1', 'the call sent back')
        check_equal(json.loads(messages[1]['tool_calls'][0]['function']['arguments']),
                    {'city': 'Seoul'}, 'the arguments sent back')
        check_equal(server.tool_message(1, 'call_1')['content'], 'Sunny, 21 °C in Seoul',
                    'the tool result sent')
        check(not session.get_busy(), 'the session is idle')


def test_tool_answers_after_a_timeout():
    def get_weather(tool, invocation):
        def answer():
            invocation.return_result(forecast(invocation))
            return GLib.SOURCE_REMOVE
        GLib.timeout_add(50, answer)
        return Agent.ANSWER_LATER

    check_equal(weather_result(get_weather), 'Sunny, 21 °C in Seoul', 'the late result')


def test_tool_answers_from_an_async_call():
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, 'forecast.txt')
        with open(path, 'w') as f:
            f.write('Cloudy, 12 °C in {city}')

        def get_weather(tool, invocation):
            city = invocation.get_arguments().get_object().get_string_member('city')
            file = Gio.File.new_for_path(path)

            def loaded(file, result):
                try:
                    _ok, contents, _etag = file.load_contents_finish(result)
                    invocation.return_result(contents.decode().format(city=city))
                except GLib.Error as error:
                    invocation.return_error_literal(error.message)

            file.load_contents_async(invocation.get_cancellable(), loaded)
            return Agent.ANSWER_LATER

        check_equal(weather_result(get_weather), 'Cloudy, 12 °C in Seoul',
                    'the result read asynchronously')


def test_tool_errors_become_results():
    def get_weather(tool, invocation):
        city = invocation.get_arguments().get_object().get_string_member('city')
        if city == 'Atlantis':
            raise GLib.Error('No forecast under the sea')
        raise ValueError('No forecast for %s' % city)

    calls = (('call_1', 'get_weather', {'city': 'Atlantis'}),
             ('call_2', 'get_weather', {'city': 'Nowhere'}))
    with ScriptedServer(tool_call_stream(*calls), text_stream('Sorry.')) as server:
        session = new_session(server, weather_tool(get_weather))
        results = record_tool_results(session)

        check_equal(send(session, 'Weather?').get_content(), 'Sorry.', 'the turn goes on')

        failed = Agent.ToolCallState.FAILED
        check_equal(sorted(results), [
            ('call_1', failed, 'No forecast under the sea', True),
            ('call_2', failed, 'No forecast for Nowhere', True)], 'the error results')
        check_equal(server.tool_message(1, 'call_1')['content'], 'No forecast under the sea',
                    'the GLib.Error sent to the model')
        check_equal(server.tool_message(1, 'call_2')['content'],
                    'No forecast for Nowhere', 'the exception sent to the model')


def test_cancel_while_streaming():
    with ScriptedServer(Stall(text_stream('Hello ', 'there')[:2])) as server:
        session = new_session(server)
        cancellable = Gio.Cancellable()
        session.connect('text-delta', lambda *args: cancellable.cancel())

        error = send(session, 'Hi', cancellable)

        check(isinstance(error, GLib.Error), 'the turn failed: %r' % error)
        check(error.matches(Gio.io_error_quark(), Gio.IOErrorEnum.CANCELLED), 'cancelled')
        memory = session.get_memory()
        check_equal([m.get_role() for m in memory],
                    [Agent.MessageRole.USER, Agent.MessageRole.ASSISTANT], 'the memory')
        check_equal(memory[1].get_content(), 'Hello ', 'what streamed is kept')
        check_equal(memory[1].get_state(), Agent.MessageState.INTERRUPTED, 'marked interrupted')
        check(not session.get_busy(), 'the session is idle')


def test_cancel_while_a_tool_runs():
    cancellable = Gio.Cancellable()
    seen = []

    held = []

    def get_weather(tool, invocation):
        # Never answers by itself: it keeps the invocation, as a tool that
        # answers later does, and waits for the turn to be cancelled.
        held.append(invocation)
        invocation.get_cancellable().connect(lambda *args: seen.append('cancelled'))
        GLib.idle_add(cancellable.cancel)
        return Agent.ANSWER_LATER

    with ScriptedServer(tool_call_stream(SEOUL)) as server:
        session = new_session(server, weather_tool(get_weather))
        results = record_tool_results(session)

        error = send(session, 'Weather?', cancellable)

        check(error.matches(Gio.io_error_quark(), Gio.IOErrorEnum.CANCELLED), 'cancelled')
        check_equal(seen, ['cancelled'], "the tool's cancellable")
        check_equal([r[:2] for r in results], [('call_1', Agent.ToolCallState.CANCELLED)],
                    'the call')
        roles = [m.get_role() for m in session.get_memory()]
        check_equal(roles, [Agent.MessageRole.USER, Agent.MessageRole.ASSISTANT,
                            Agent.MessageRole.TOOL], 'every call is answered in memory')
        check_equal(len(server.requests), 1, 'no request after the cancel')


def approval_session(server, answer):
    ran = []

    def get_weather(tool, invocation):
        ran.append(invocation.get_tool_call().get_id())
        invocation.return_result(forecast(invocation))
        return True

    tool = weather_tool(get_weather)
    tool.set_requires_approval(True)
    session = new_session(server, tool)
    asked = []

    def on_approve(_session, call, approval):
        asked.append((call.get_name(), call.get_arguments(), approval.get_tool().get_name()))
        GLib.idle_add(lambda: answer(approval) and False)  # answered later, from the loop
        return Agent.ANSWER_LATER

    session.connect('approve-tool-call', on_approve)
    return session, ran, asked


def test_approval_allowed():
    with ScriptedServer(tool_call_stream(SEOUL), text_stream('Sunny.')) as server:
        session, ran, asked = approval_session(server, lambda approval: approval.allow())

        check_equal(send(session, 'Weather?').get_content(), 'Sunny.', 'the answer')
        check_equal(asked, [('get_weather', '{"city": "Seoul"}', 'get_weather')], 'asked')
        check_equal(ran, ['call_1'], 'the tool ran')
        check_equal(server.tool_message(1, 'call_1')['content'], 'Sunny, 21 °C in Seoul',
                    'its result')


def test_approval_denied():
    with ScriptedServer(tool_call_stream(SEOUL), text_stream('As you wish.')) as server:
        session, ran, asked = approval_session(server,
                                               lambda approval: approval.deny('Not today'))
        results = record_tool_results(session)

        check_equal(send(session, 'Weather?').get_content(), 'As you wish.', 'the answer')
        check_equal(len(asked), 1, 'asked once')
        check_equal(ran, [], 'the tool did not run')
        check_equal(results[0][1], Agent.ToolCallState.DENIED, 'the call was denied')
        content = server.tool_message(1, 'call_1')['content']
        check('Not today' in content, 'the reason reaches the model: %r' % content)


class ListMemory(GObject.Object, Gio.ListModel, Agent.Memory):
    """A memory in a Python list, that logs what it is told."""

    def __init__(self):
        super().__init__()
        self.messages = []
        self.log = []

    def do_get_item_type(self):
        return Agent.Message.__gtype__

    def do_get_n_items(self):
        return len(self.messages)

    def do_get_item(self, position):
        return self.messages[position] if position < len(self.messages) else None

    def do_append(self, message):
        self.log.append(('append', message.get_role(), message.get_n_tool_calls()))
        self.messages.append(message)
        self.items_changed(len(self.messages) - 1, 0, 1)
        return True

    def do_truncate(self, n_items):
        self.log.append(('truncate', n_items))
        removed = len(self.messages) - n_items
        del self.messages[n_items:]
        self.items_changed(n_items, removed, 0)
        return True


def test_python_memory():
    def get_weather(tool, invocation):
        invocation.return_result(forecast(invocation))
        return True

    with ScriptedServer(tool_call_stream(SEOUL), text_stream('Sunny in Seoul.'),
                        text_stream('Again: sunny.')) as server:
        session = new_session(server, weather_tool(get_weather))
        memory = ListMemory()
        session.set_memory(memory)

        check_equal(send(session, 'Weather in Seoul?').get_content(), 'Sunny in Seoul.', 'answer')

        Role = Agent.MessageRole
        check_equal(memory.log, [('append', Role.USER, 0), ('append', Role.ASSISTANT, 1),
                                 ('append', Role.TOOL, 0), ('append', Role.ASSISTANT, 0)],
                    'the messages, in order')
        check_equal(memory.messages[1].get_tool_call(0).get_id(), 'call_1', 'the call')
        check_equal(memory.messages[2].get_tool_call_id(), 'call_1', 'the result answers it')
        check_equal(memory.messages[2].get_content(), 'Sunny, 21 °C in Seoul', 'the result')
        check_equal([m['role'] for m in server.messages(1)], ['user', 'assistant', 'tool'],
                    'request 2 is built from the Python memory')
        check_equal(session.get_transcript().get_n_items(), 4, 'the transcript')

        # Regenerate the last answer: cut it, then continue
        check(memory.truncate(3), 'truncated')
        message = run_async(lambda callback: session.continue_async(None, callback),
                            session.continue_finish)
        check_equal(message.get_content(), 'Again: sunny.', 'the new answer')
        check_equal(memory.log[4:], [('truncate', 3), ('append', Role.ASSISTANT, 0)], 'the log')
        check_equal([m['role'] for m in server.messages(2)], ['user', 'assistant', 'tool'],
                    'request 3')


def check_branches(session, memory, server):
    """Regenerate, switch back, send, delete: the request carries the active path."""
    check_equal(send(session, 'First').get_content(), 'One.', 'answer 1')
    check_equal(send(session, 'Second').get_content(), 'Two.', 'answer 2')
    check(memory.branch(3), 'branched at the last answer')
    message = run_async(lambda callback: session.continue_async(None, callback),
                        session.continue_finish)
    check_equal(message.get_content(), 'Two, again.', 'the regenerated answer')
    check_equal((memory.get_sibling_index(3) + 1, memory.get_n_siblings(3)), (2, 2), '"2 / 2"')

    changes = []
    memory.connect('items-changed', lambda _m, *args: changes.append(args))
    check(memory.select_sibling(3, 0), 'switched back')
    check_equal(changes, [(3, 1, 1)], 'the list changed at 3 only')
    check_equal(memory[3].get_content(), 'Two.', 'the old answer is back')
    try:
        memory.select_sibling(3, 5)
        check(False, 'a sibling that is not there is refused')
    except GLib.Error as error:
        check(error.matches(Agent.error_quark(), Agent.Error.INVALID_ARGUMENT), error.message)

    check_equal(send(session, 'Third').get_content(), 'Three.', 'answer 3')
    check_equal([m.get('content') for m in server.messages(3)],
                ['First', 'One.', 'Second', 'Two.', 'Third'], 'the request holds the old answer')

    check(memory.delete_branch(3), 'deleted the old answer and what followed')
    check_equal([m.get_content() for m in memory],
                ['First', 'One.', 'Second', 'Two, again.'], 'the neighbour took its place')
    check_equal(memory.get_n_siblings(3), 1, 'one sibling left')


def branch_server():
    return ScriptedServer(text_stream('One.'), text_stream('Two.'), text_stream('Two, again.'),
                          text_stream('Three.'))


def test_branches_simple_memory():
    with branch_server() as server:
        session = new_session(server)
        check_branches(session, session.get_memory(), server)


def test_branches_stored():
    if not hasattr(Agent, 'Store'):
        raise Skip('built without the store')
    with branch_server() as server, tempfile.TemporaryDirectory() as folder:
        store = Agent.Store.new(os.path.join(folder, 'conversations.db'))
        conversation = store.create_conversation()
        session = new_session(server)
        session.set_memory(conversation)
        check_branches(session, conversation, server)
        check(run_async(lambda callback: conversation.flush_async(None, callback),
                        conversation.flush_finish), 'written')
        again = Agent.Store.new(os.path.join(folder, 'conversations.db'))
        copy = again.lookup_conversation(conversation.get_id())
        check_equal([m.get_content() for m in copy],
                    ['First', 'One.', 'Second', 'Two, again.'], 'read back: the same path')


def test_list_models():
    with ScriptedServer() as server:
        session = new_session(server)
        provider = session.get_provider()
        models = run_async(lambda callback: provider.list_models_async(None, callback),
                           provider.list_models_finish)
        check_equal(models, ['scripted'], 'the models')


if __name__ == '__main__':
    sys.exit(run_tests([
        test_tool_round_trip,
        test_tool_answers_after_a_timeout,
        test_tool_answers_from_an_async_call,
        test_tool_errors_become_results,
        test_cancel_while_streaming,
        test_cancel_while_a_tool_runs,
        test_approval_allowed,
        test_approval_denied,
        test_python_memory,
        test_branches_simple_memory,
        test_branches_stored,
        test_list_models,
    ]))
