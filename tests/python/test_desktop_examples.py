#!/usr/bin/python3
# test_desktop_examples.py — the desktop examples against the real service
#
#   test_desktop_examples.py python|gjs PROGRAM
#
# A dbus-daemon of the test's own, with agent-desktop-service
# ($AGENT_DESKTOP_SERVICE) started by activation, as on a desktop; the
# user's two profiles point at a scripted OpenAI server, the key in the
# service's environment only. The test is the user: it registers the
# consent agent and answers. The example (a process of its own, with no
# key and no server address) must be asked about once, by its script's
# path, have its open_document tool called by its own session, and stream
# the model's answer.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import shutil
import subprocess
import sys
import tempfile

from agenttest import (ScriptedServer, check, check_equal, run_tests, skip_unless_introspection,
                       text_stream, tool_call_stream, wait_until)

KEY = 'sk-desktop-service-key'
BUS_NAME = 'io.github.libagent.Assistant'
PROMPT = 'Summarize my open document in one sentence.'
ANSWER = ('The release moves to ', '14 March.')
INTERFACES = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'data',
                          'io.github.libagent.Assistant1.xml')


class DesktopBus:
    """A session bus of the test's own with the service on it, and the
    test's consent agent, which answers @allow."""

    def __init__(self, server, allow=True):
        from gi.repository import Gio

        self.dir = tempfile.mkdtemp(prefix='agent-desktop-example-')
        self.allow = allow
        self.asked = []
        services = os.path.join(self.dir, 'services')
        os.mkdir(services)
        with open(os.path.join(services, BUS_NAME + '.service'), 'w') as f:
            f.write('[D-BUS Service]\nName=%s\nExec=%s\n'
                    % (BUS_NAME, os.environ['AGENT_DESKTOP_SERVICE']))
        config = os.path.join(self.dir, 'bus.conf')
        with open(config, 'w') as f:
            f.write('<busconfig>\n  <type>session</type>\n'
                    '  <listen>unix:dir=%s</listen>\n  <servicedir>%s</servicedir>\n'
                    '  <policy context="default">\n    <allow send_destination="*" eavesdrop="true"/>\n'
                    '    <allow eavesdrop="true"/>\n    <allow own="*"/>\n  </policy>\n</busconfig>\n' % (self.dir, services))
        profiles = os.path.join(self.dir, 'profiles.ini')
        with open(profiles, 'w') as f:
            f.write('[Profiles]\ndefault=Work\n\n[Profile Work]\nprovider=openai\n'
                    'base-url=%s\nmodel=scripted\n\n[Profile Home]\nprovider=openai\n'
                    'base-url=%s\nmodel=scripted\n' % (server.url, server.url))
        # The service gets the bus's environment: the key is there, and
        # nowhere else
        env = dict(os.environ)
        env.update({'AGENT_PROFILES': profiles, 'OPENAI_API_KEY': KEY,
                    'XDG_DATA_HOME': os.path.join(self.dir, 'data'),
                    'XDG_CONFIG_HOME': os.path.join(self.dir, 'config')})
        self.daemon = subprocess.Popen(['dbus-daemon', '--nofork', '--print-address=1',
                                        '--config-file', config],
                                       stdout=subprocess.PIPE, env=env, text=True)
        self.address = self.daemon.stdout.readline().strip()

        self.connection = Gio.DBusConnection.new_for_address_sync(
            self.address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT
            | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)
        with open(INTERFACES) as f:
            node = Gio.DBusNodeInfo.new_for_xml(f.read())
        consent = node.lookup_interface('io.github.libagent.AssistantConsent1')
        self.registration = self.connection.register_object(
            '/test/ConsentAgent', consent, self.method_call, None, None)
        self.connection.call_sync(BUS_NAME, '/io/github/libagent/Assistant',
                                  'io.github.libagent.Assistant1', 'RegisterConsentAgent',
                                  variant('(o)', ('/test/ConsentAgent',)), None,
                                  Gio.DBusCallFlags.NONE, -1, None)

    def method_call(self, connection, sender, path, interface, method, parameters, invocation):
        if method == 'Ask':
            self.asked.append(tuple(parameters.unpack()[:2]))
            invocation.return_value(variant('(b)', (self.allow,)))
        else:
            # Any other question (a tool call to approve): this user says yes
            out = invocation.get_method_info().out_args
            signature = '(' + ''.join(arg.signature for arg in out) + ')'
            invocation.return_value(variant(signature, tuple(True for _ in out)))

    def run(self, command):
        """Runs @command as an application on this bus, the main loop
        turning meanwhile so that the consent agent answers; returns
        (status, stdout, stderr)."""
        from gi.repository import Gio

        env = dict(os.environ)
        env['DBUS_SESSION_BUS_ADDRESS'] = self.address
        for variable in ('OPENAI_API_KEY', 'AGENT_PROFILES'):
            env.pop(variable, None)
        launcher = Gio.SubprocessLauncher.new(Gio.SubprocessFlags.STDOUT_PIPE
                                              | Gio.SubprocessFlags.STDERR_PIPE)
        launcher.set_environ([f'{k}={v}' for k, v in env.items()])
        process = launcher.spawnv(command)
        results = []
        process.communicate_utf8_async(None, None,
                                       lambda p, r: results.append(p.communicate_utf8_finish(r)))
        wait_until(lambda: results, 'the example to exit')
        _, stdout, stderr = results[0]
        for line in stderr.splitlines():
            print('# stderr: ' + line)
        return process.get_exit_status(), stdout, stderr

    def close(self):
        self.connection.unregister_object(self.registration)
        self.connection.close_sync(None)
        self.daemon.terminate()
        self.daemon.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


def variant(signature, values):
    from gi.repository import GLib

    return GLib.Variant(signature, values)


def command(*arguments):
    language, program = sys.argv[1], sys.argv[2]
    interpreter = {
        'python': [sys.executable],
        'gjs': [os.environ.get('AGENT_GJS', 'gjs'), '-m'],
    }[language]
    return interpreter + [program] + list(arguments)


def script_path():
    return os.path.normpath(os.path.abspath(sys.argv[2]))


def test_summary_through_the_service():
    with ScriptedServer(tool_call_stream(('call_1', 'open_document', {})),
                        text_stream(*ANSWER)) as server:
        bus = DesktopBus(server)
        try:
            status, stdout, stderr = bus.run(command(PROMPT))
        finally:
            bus.close()
        check_equal(status, 0, 'the exit status')
        check_equal(stdout, ''.join(ANSWER) + '\n', 'the streamed answer')
        check('[open_document' in stderr, 'the tool call is shown on stderr')
        # Asked once, naming the program: a script by its path, not by
        # its interpreter's
        check_equal(bus.asked, [(script_path(), os.path.basename(script_path()))],
                    'the questions asked (app id, name)')

        check_equal(len(server.requests), 2, 'the requests the service made')
        first, second = server.requests
        check_equal(first['authorization'], 'Bearer ' + KEY, "the service's key")
        check_equal(first['body']['model'], 'scripted', "the default profile's model")
        check_equal(first['body']['messages'][-1]['content'], PROMPT, 'the prompt')
        tools = [t['function']['name'] for t in first['body']['tools']]
        check_equal(tools, ['open_document'], "the app's tool, declared")
        result = server.tool_message(1, 'call_1')
        check('Meeting notes, 3 March' in result['content'],
              "the app's tool result reaches the model: %r" % result)


def test_list_profiles():
    with ScriptedServer() as server:
        bus = DesktopBus(server)
        try:
            status, stdout, _ = bus.run(command('--list-profiles'))
        finally:
            bus.close()
        check_equal(status, 0, 'the exit status')
        check_equal(sorted(stdout.split()), ['Home', 'Work'], "the user's profiles")
        check_equal(server.requests, [], 'no request to the model')


def test_denied():
    with ScriptedServer(text_stream('never')) as server:
        bus = DesktopBus(server, allow=False)
        try:
            status, stdout, stderr = bus.run(command(PROMPT))
        finally:
            bus.close()
        check_equal(status, 1, 'the exit status')
        check_equal(stdout, '', 'no answer')
        check('error: ' in stderr, 'the error is shown')
        check_equal(server.requests, [], 'no request to the model')


if __name__ == '__main__':
    skip_unless_introspection()
    if 'AGENT_DESKTOP_SERVICE' not in os.environ or not shutil.which('dbus-daemon'):
        print('# no agent-desktop-service or dbus-daemon')
        sys.exit(77)
    sys.exit(run_tests([test_summary_through_the_service, test_list_profiles, test_denied]))
