#!/usr/bin/python3
# test_profiles.py — profiles from Python: a list saved and read back, a
# malformed file's error, a change another list writes seen through
# ::changed, a provider made from a profile talking to a scripted server
# (its model, settings and the key from the environment), the profile a
# stored conversation remembers
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import shutil
import tempfile

from agenttest import (ScriptedServer, check, check_equal, run_async, run_tests,
                       skip_unless_introspection, text_stream, wait_until)

skip_unless_introspection()

import gi  # noqa: E402

gi.require_version('Agent', '1.0')
from gi.repository import Agent, GLib  # noqa: E402


class Folder:
    def __enter__(self):
        self.path = tempfile.mkdtemp(prefix='test-profiles-')
        return self

    def __exit__(self, *exc):
        shutil.rmtree(self.path)

    def file(self, name='profiles.ini'):
        return os.path.join(self.path, name)


def test_round_trip():
    with Folder() as folder:
        profiles = Agent.ProfileList.new(folder.file())
        profiles.load()
        check_equal(profiles.get_n_items(), 0, 'no file, no profile')
        check(profiles.get_item_type() == Agent.Profile.__gtype__, 'a list of profiles')

        local = Agent.Profile.new('Local', 'ollama')
        local.props.base_url = 'http://127.0.0.1:11434'
        local.props.model = 'qwen3'
        local.props.context_window = 8192
        local.props.settings.props.temperature = 0.5
        profiles.add(local)
        profiles.props.default_name = 'Local'
        profiles.save()

        again = Agent.ProfileList.new(folder.file())
        again.load()
        check_equal(again.get_n_items(), 1)
        read = again.lookup('Local')
        check_equal(read.props.provider, 'ollama')
        check_equal(read.get_base_url(), 'http://127.0.0.1:11434')
        check_equal(read.props.model, 'qwen3')
        check_equal(read.props.context_window, 8192)
        check_equal(read.get_settings().get_temperature(), 0.5)
        check(not read.get_settings().is_set('top-p'), 'top-p not set')
        check_equal(again.get_default_name(), 'Local')
        check_equal(list(again)[0].props.name, 'Local', 'iterable')

        try:
            again.add(Agent.Profile.new('Local', 'openai'))
        except GLib.Error as error:
            check(error.matches(Agent.error_quark(), Agent.Error.INVALID_ARGUMENT), 'invalid')
            check('“Local”' in error.message, error.message)
        else:
            raise AssertionError('a name taken is an error')

        again.rename('Local', 'Home')
        check_equal(read.props.name, 'Home', 'renamed in place')
        check(again.remove('Home'), 'removed')
        check_equal(again.get_default_name(), None)


def test_malformed():
    with Folder() as folder:
        with open(folder.file(), 'w') as f:
            f.write('[Profile A]\nprovider=openai\ntemperature=warm\n')
        profiles = Agent.ProfileList.new(folder.file())
        try:
            profiles.load()
        except GLib.Error as error:
            check_equal(error.message,
                        '%s: profile “A”: temperature is “warm”, not a number from 0 up'
                        % folder.file())
        else:
            raise AssertionError('a malformed file is an error')


def test_changed():
    with Folder() as folder:
        app = Agent.ProfileList.new(folder.file())
        app.load()
        changes = []
        app.connect('changed', lambda list_: changes.append(list_.get_n_items()))

        cli = Agent.ProfileList.new(folder.file())
        cli.load()
        cli.add(Agent.Profile.new('Added', 'gemini'))
        cli.save()

        wait_until(lambda: changes, '::changed')
        check_equal(changes, [1])
        check_equal(app.lookup('Added').props.provider, 'gemini')


def test_provider():
    with ScriptedServer(text_stream('Hi.')) as server:
        profile = Agent.Profile.new('Scripted', 'openai')
        profile.set_base_url(server.url)
        profile.set_model('scripted')
        profile.get_settings().set_top_p(0.75)
        os.environ['OPENAI_API_KEY'] = 'sk-python-profile'
        try:
            provider = run_async(
                lambda callback: profile.create_provider_async(None, callback),
                profile.create_provider_finish)
        finally:
            del os.environ['OPENAI_API_KEY']
        check(isinstance(provider, Agent.Provider), 'a provider: %r' % (provider,))
        check_equal(provider.props.model, 'scripted')
        provider.set_max_retries(0)
        session = Agent.Session.new(provider)
        run_async(lambda callback: session.send_async('Hello', None, callback),
                  session.send_finish)
        request = server.requests[0]
        check_equal(request['body']['model'], 'scripted')
        check_equal(request['body']['top_p'], 0.75)
        check_equal(request['authorization'], 'Bearer sk-python-profile')

    unknown = Agent.Profile.new('Odd', 'telepathy')
    try:
        unknown.create_provider()
    except GLib.Error as error:
        check('telepathy' in error.message, error.message)
    else:
        raise AssertionError('an unknown provider is an error')


def test_conversation():
    if not hasattr(Agent, 'Store'):
        return
    with Folder() as folder:
        store = Agent.Store.new(folder.file('conversations.db'))
        conversation = store.create_conversation()
        conversation.set_profile('Local')
        check_equal(conversation.props.profile, 'Local')
        conversation.set_profile(None)
        check_equal(conversation.get_profile(), None)


if __name__ == '__main__':
    raise SystemExit(run_tests([test_round_trip, test_malformed, test_changed, test_provider,
                                test_conversation]))
