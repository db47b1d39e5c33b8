#!/usr/bin/python3
# test_lifetimes.py — what a Python program does to objects that are busy:
# run_dispose() on them, or dropping its last reference, while a model
# listing, a turn, an MCP connection or a stored conversation's write is
# under way. Each callback comes once, with Gio.IOErrorEnum.CANCELLED or a
# clear Agent.Error; nothing aborts (G_DEBUG=fatal-criticals), and the
# MCP servers' processes go.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import gc
import os
import sys
import tempfile

from agenttest import (ScriptedServer, Skip, Stall, check, check_equal,
                       run_async, run_tests, skip_unless_introspection, text_stream,
                       tool_call_stream, wait_until)

skip_unless_introspection()

import gi  # noqa: E402

gi.require_version('Agent', '1.0')
from gi.repository import Agent, Gio, GLib  # noqa: E402


def new_provider(server):
    provider = Agent.Provider.new('openai')
    provider.set_base_url(server.url)
    provider.set_model('scripted')
    provider.set_max_retries(0)
    return provider


def settle():
    """Lets whatever was still on its way arrive: a second callback would."""
    context = GLib.MainContext.default()
    for _ in range(100):
        context.iteration(False)


class Outcome:
    """What a callback got, and how often it came."""

    def __init__(self, finish):
        self.finish = finish
        self.calls = 0
        self.value = None
        self.error = None

    def __call__(self, source, result, *data):
        self.calls += 1
        try:
            self.value = self.finish(source, result)
        except GLib.Error as error:
            self.error = error

    def wait(self, what):
        wait_until(lambda: self.calls > 0, what)
        settle()
        check_equal(self.calls, 1, 'calls of the callback of ' + what)

    def check_cancelled(self):
        check(self.error is not None and
              self.error.matches(Gio.io_error_quark(), Gio.IOErrorEnum.CANCELLED),
              'cancelled: %r' % self.error)


def listed(provider, result):
    return provider.list_models_finish(result)


# --- a provider -------------------------------------------------------------

def test_provider_dispose_while_listing():
    with ScriptedServer(hold_models=True) as server:
        provider = new_provider(server)
        outcome = Outcome(listed)
        provider.list_models_async(None, outcome)
        wait_until(server.models_asked.is_set, 'the request')
        provider.run_dispose()
        outcome.wait('the listing')
        outcome.check_cancelled()


def test_provider_dropped_while_listing():
    with ScriptedServer(hold_models=True) as server:
        provider = new_provider(server)
        outcome = Outcome(listed)
        provider.list_models_async(None, outcome)
        del provider
        gc.collect()
        wait_until(server.models_asked.is_set, 'the request')
        server.models_gate.set()
        outcome.wait('the listing')
        check_equal(outcome.value, ['scripted'], 'the models')


def test_provider_dispose_during_turn():
    with ScriptedServer(Stall(text_stream('Once ', 'upon')[:2])) as server:
        provider = new_provider(server)
        session = Agent.Session.new(provider)
        session.connect('text-delta', lambda *args: GLib.idle_add(provider.run_dispose))
        outcome = Outcome(lambda session, result: session.send_finish(result))
        session.send_async('A story', None, outcome)
        outcome.wait('the turn')
        outcome.check_cancelled()
        roles = [m.get_role() for m in session.get_memory()]
        check_equal(roles, [Agent.MessageRole.USER, Agent.MessageRole.ASSISTANT], 'the memory')


# --- an MCP client ----------------------------------------------------------

def mcp_server(option=None):
    """A client of agent-test-mcp-server, and the file its pid goes to."""
    program = os.environ.get('AGENT_TEST_MCP_SERVER')
    if not program:
        raise Skip('AGENT_TEST_MCP_SERVER is not set')
    directory = tempfile.mkdtemp(prefix='agent-lifetimes-')
    pid_file = os.path.join(directory, 'pid')
    args = ['--pid-file', pid_file] + ([option] if option else [])
    return Agent.McpClient.new_stdio('test', program, args), pid_file


def server_pid(pid_file):
    def written():
        try:
            with open(pid_file) as f:
                return f.read().endswith('\n')
        except FileNotFoundError:
            return False
    poll(written, 'the server')
    with open(pid_file) as f:
        return int(f.read())


def poll(predicate, what):
    """wait_until() for what no event of the main loop announces."""
    source = GLib.timeout_add(10, lambda: True)
    try:
        wait_until(predicate, what)
    finally:
        GLib.source_remove(source)


def wait_gone(pid_file):
    pid = server_pid(pid_file)

    def gone():
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        return False
    poll(gone, 'the server to go')
    os.unlink(pid_file)
    os.rmdir(os.path.dirname(pid_file))


def connected(client, result):
    return client.connect_finish(result)


def test_mcp_dispose_while_connecting():
    client, pid_file = mcp_server('--mute')
    outcome = Outcome(connected)
    client.connect_async(None, outcome)
    server_pid(pid_file)
    client.run_dispose()
    outcome.wait('the connection')
    outcome.check_cancelled()
    check_equal(client.get_state(), Agent.McpClientState.DISCONNECTED, 'the state')
    wait_gone(pid_file)


def test_mcp_dropped_while_connecting():
    client, pid_file = mcp_server()
    outcome = Outcome(connected)
    client.connect_async(None, outcome)
    del client
    gc.collect()
    outcome.wait('the connection')
    check(outcome.error is None, 'connected: %r' % outcome.error)
    wait_gone(pid_file)


def test_mcp_dispose_during_call():
    client, pid_file = mcp_server('--linger')
    outcome = Outcome(connected)
    client.connect_async(None, outcome)
    outcome.wait('the connection')
    call = Outcome(lambda client, result: client.call_tool_finish(result))
    client.call_tool_async('silent', None, None, call)
    settle()
    client.run_dispose()
    call.wait('the call')
    check(call.error is not None and call.error.matches(Agent.error_quark(), Agent.Error.NETWORK),
          'disconnected: %r' % call.error)
    wait_gone(pid_file)


# --- a stored conversation --------------------------------------------------

def stored_session(server, directory, on_lookup):
    """A session writing to a new conversation of a store in @directory,
    with a tool "lookup" that calls on_lookup(conversation, store)."""
    if not hasattr(Agent, 'Store'):
        raise Skip('built without the store')
    store = Agent.Store.new(os.path.join(directory, 'conversations.db'))
    conversation = store.create_conversation()
    session = Agent.Session.new(new_provider(server))
    session.set_memory(conversation)
    held = {'conversation': conversation, 'store': store}

    def lookup(tool, invocation):
        on_lookup(held)
        return 'found'
    session.add_tool(Agent.Tool.new('lookup', 'Looks it up', None, lookup))
    return session, held


def test_conversation_dispose_during_turn():
    with tempfile.TemporaryDirectory() as directory, \
         ScriptedServer(tool_call_stream(('call_1', 'lookup', {})),
                        text_stream('Found.')) as server:
        session, held = stored_session(
            server, directory, lambda held: held['conversation'].run_dispose())
        outcome = Outcome(lambda session, result: session.send_finish(result))
        session.send_async('Look it up', None, outcome)
        outcome.wait('the turn')
        check(outcome.error is not None and
              outcome.error.matches(Agent.error_quark(), Agent.Error.STORAGE),
              'storage: %r' % outcome.error)
        check_equal(len(server.requests), 1, 'requests')
        store = Agent.Store.new(os.path.join(directory, 'conversations.db'))
        again = store.lookup_conversation(held['conversation'].get_id())
        check_equal([m.get_role() for m in again], [Agent.MessageRole.USER],
                    'what was written: no call without its result')


def test_store_dropped_during_turn():
    with tempfile.TemporaryDirectory() as directory, \
         ScriptedServer(tool_call_stream(('call_1', 'lookup', {})),
                        text_stream('Found.')) as server:
        def drop(held):
            del held['store']
            gc.collect()
        session, held = stored_session(server, directory, drop)
        outcome = Outcome(lambda session, result: session.send_finish(result))
        session.send_async('Look it up', None, outcome)
        outcome.wait('the turn')
        check(outcome.error is None, 'the turn: %r' % outcome.error)
        check_equal(outcome.value.get_content(), 'Found.', 'the answer')
        # Its writes go on without the store: the last answer, once flushed
        conversation = held['conversation']
        check_equal(run_async(lambda cb: conversation.flush_async(None, cb),
                              conversation.flush_finish), True, 'the flush')
        store = Agent.Store.new(os.path.join(directory, 'conversations.db'))
        again = store.lookup_conversation(held['conversation'].get_id())
        check_equal(again.get_n_items(), 4, 'the messages written')


def test_store_async_api():
    """The store's asynchronous API from Python: opening, flushing,
    searching and loading on threads."""
    if not hasattr(Agent, 'Store'):
        raise Skip('built without the store')
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, 'conversations.db')
        store = run_async(lambda cb: Agent.Store.new_async(path, None, cb),
                          Agent.Store.new_finish)
        check(isinstance(store, Agent.Store), 'opened: %r' % store)
        conversation = store.create_conversation()
        failures = []
        conversation.connect('write-failed', lambda c, error: failures.append(error))
        for i in range(50):
            conversation.append(Agent.Message.new(Agent.MessageRole.USER, 'zanzibar %d' % i))
        check_equal(run_async(lambda cb: store.flush_async(None, cb), store.flush_finish),
                    True, 'the flush')
        check(conversation.get_id() > 0, 'an id once written')
        check_equal(failures, [], 'no write failed')

        other = Agent.Store.new(path)
        found = run_async(lambda cb: other.search_async('zanzibar 4', None, cb),
                          other.search_finish)
        check_equal(found.get_n_items(), 1, 'found')
        again = other.lookup_conversation(conversation.get_id())
        check_equal(run_async(lambda cb: again.load_async(None, cb), again.load_finish),
                    True, 'loaded')
        check_equal([m.get_content() for m in again],
                    ['zanzibar %d' % i for i in range(50)], 'in order')

        cancellable = Gio.Cancellable()
        cancellable.cancel()
        error = run_async(lambda cb: other.search_async('zanzibar', cancellable, cb),
                          other.search_finish)
        check(isinstance(error, GLib.Error) and
              error.matches(Gio.io_error_quark(), Gio.IOErrorEnum.CANCELLED),
              'cancelled: %r' % error)


if __name__ == '__main__':
    sys.exit(run_tests([
        test_provider_dispose_while_listing,
        test_provider_dropped_while_listing,
        test_provider_dispose_during_turn,
        test_mcp_dispose_while_connecting,
        test_mcp_dropped_while_connecting,
        test_mcp_dispose_during_call,
        test_conversation_dispose_during_turn,
        test_store_dropped_during_turn,
        test_store_async_api,
    ]))
