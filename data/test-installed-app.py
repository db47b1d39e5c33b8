#!/usr/bin/python3
# test-installed-app.py — `meson install` gives everything, and the installed
# agent-chat starts from there, in German
#
#   test-installed-app.py MESON BUILD-DIR APP-ID SCHEMA-ID INTROSPECTION(enabled|disabled)
#
# Installs the whole project with `meson install --destdir` into a scratch
# directory, checks that the library, its headers, pkg-config file, GIR and
# typelib, agent-chat and agent-cli, the data files and both translation
# domains are there, validates the installed desktop file and metainfo, then
# starts the installed agent-chat (under xvfb-run and dbus-run-session, from
# meson) with only the installed copy on its search paths and LANGUAGE=de,
# and reads its window through the accessibility tree (AT-SPI): it must show
# the German of the installed catalogue.
#
# SPDX-License-Identifier: GPL-3.0-or-later

import gettext
import glob
import os
import subprocess
import sys
import tempfile

TESTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests')
sys.path[:0] = [os.path.join(TESTS, 'python'), os.path.join(TESTS, 'gui-common')]
from agenttest import check, check_equal, run_tests  # noqa: E402
from agenttestgui import all_nodes, find_app, wait_for  # noqa: E402

MESON, BUILD_DIR, APP_ID, SCHEMA_ID, INTROSPECTION = sys.argv[1:6]
DOMAINS = ('libagent-1', 'agent-chat')
# A session bus whose only services are those of one directory (not the
# XDG_DATA_DIRS ones, which would find the installed file, whose Exec names
# the real prefix)
BUS_CONFIG = '''<busconfig>
  <type>session</type>
  <listen>unix:tmpdir=%s</listen>
  <auth>EXTERNAL</auth>
  <servicedir>%s</servicedir>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
'''


def find(destdir, pattern):
    found = glob.glob(os.path.join(destdir, '**', pattern), recursive=True)
    check_equal(len(found), 1, 'one installed ' + pattern)
    return found[0]


def accessible_names():
    """The names in the accessibility tree of agent-chat."""
    return [node.name for node in all_nodes(find_app()) if node.name]


def has_ended(pid):
    """Whether the process @pid is gone, or a zombie its parent has not
    reaped yet."""
    try:
        with open('/proc/%d/stat' % pid) as f:
            return f.read().rsplit(')', 1)[1].split()[0] == 'Z'
    except FileNotFoundError:
        return True


def private_runtime_dir(directory):
    """Makes @directory XDG_RUNTIME_DIR here and for what the session bus
    starts, so that the accessibility bus's socket is this test's own and
    not that of another test running at the same time."""
    os.environ['XDG_RUNTIME_DIR'] = directory
    subprocess.run(['gdbus', 'call', '--session', '--dest', 'org.freedesktop.DBus',
                    '--object-path', '/org/freedesktop/DBus',
                    '--method', 'org.freedesktop.DBus.UpdateActivationEnvironment',
                    "{'XDG_RUNTIME_DIR': '%s'}" % directory],
                   check=True, stdout=subprocess.DEVNULL)


def main():
    with tempfile.TemporaryDirectory(prefix='agent-chat-install-') as destdir:
        os.mkdir(os.path.join(destdir, 'runtime'), 0o700)
        private_runtime_dir(os.path.join(destdir, 'runtime'))
        subprocess.run([MESON, 'install', '-C', BUILD_DIR, '--quiet', '--destdir', destdir],
                       check=True, stdout=subprocess.DEVNULL)
        where = {}

        def test_everything_is_installed():
            patterns = ['libagent-1.so.0', 'agent.h', 'libagent-1.pc', 'agent-chat', 'agent-cli',
                        APP_ID + '.desktop', APP_ID + '.metainfo.xml', APP_ID + '.service',
                        APP_ID + '.svg', APP_ID + '-symbolic.svg', SCHEMA_ID + '.gschema.xml',
                        'agent-cli.1', 'agent-chat.1']
            patterns += [domain + '.mo' for domain in DOMAINS]
            if INTROSPECTION == 'enabled':
                patterns += ['Agent-1.0.gir', 'Agent-1.0.typelib']
            for pattern in patterns:
                where[pattern] = find(destdir, pattern)
            check(os.access(where['agent-chat'], os.X_OK), 'agent-chat is a program')
            check('/share/icons/hicolor/scalable/apps/' in where[APP_ID + '.svg'], 'app icon')
            check('/share/icons/hicolor/symbolic/apps/' in where[APP_ID + '-symbolic.svg'],
                  'symbolic icon')
            for page in ('agent-cli.1', 'agent-chat.1'):
                check('/share/man/man1/' in where[page], 'a manual page in man1: ' + where[page])

        def test_installed_data_is_valid():
            subprocess.run(['desktop-file-validate', where[APP_ID + '.desktop']], check=True)
            subprocess.run(['appstreamcli', 'validate', '--no-net',
                            where[APP_ID + '.metainfo.xml']], check=True,
                           stdout=subprocess.DEVNULL)
            with open(where[APP_ID + '.desktop'], encoding='utf-8') as f:
                check('DBusActivatable=true' in f.read().splitlines(), 'D-Bus activatable')
            with open(where[APP_ID + '.service'], encoding='utf-8') as f:
                service = f.read()
            installed_bin = os.path.dirname(where['agent-chat'])[len(destdir):]
            check('Name=%s\n' % APP_ID in service, 'the service is named by the app id')
            check('Exec=%s/agent-chat --gapplication-service\n' % installed_bin in service,
                  'the service starts the installed agent-chat: ' + service)

        def installed_environment():
            """The environment of a program that sees the installed copy (its
            library, schemas, catalogues, icons) and nothing of the build tree."""
            schemas = os.path.dirname(where[SCHEMA_ID + '.gschema.xml'])
            if not os.path.exists(os.path.join(schemas, 'gschemas.compiled')):
                subprocess.run(['glib-compile-schemas', '--strict', schemas], check=True)
            env = {k: v for k, v in os.environ.items()
                   if k not in ('LC_ALL', 'LC_MESSAGES', 'LD_LIBRARY_PATH', 'GI_TYPELIB_PATH',
                                'GSETTINGS_SCHEMA_DIR', 'NO_AT_BRIDGE')}
            env.update({'LANG': 'C.UTF-8', 'LANGUAGE': 'de', 'AGENT_LOCALEDIR': localedir(),
                        'LD_LIBRARY_PATH': os.path.dirname(where['libagent-1.so.0']),
                        'GSETTINGS_SCHEMA_DIR': schemas, 'GSETTINGS_BACKEND': 'memory',
                        'GSK_RENDERER': 'cairo', 'GTK_A11Y': 'atspi',
                        'XDG_DATA_DIRS': os.path.normpath(os.path.join(schemas, '..', '..'))
                        + ':/usr/share'})
            return env

        def localedir():
            return os.path.dirname(os.path.dirname(os.path.dirname(where['agent-chat.mo'])))

        def test_installed_app_starts_in_german():
            catalogue = gettext.translation('agent-chat', localedir(), ['de'])
            # The empty chat's title: its first run's, with no server yet, or the usual
            titles = ('Welcome to Agent Chat', 'Start a Conversation')
            german = [catalogue.gettext(title) for title in titles]
            check(all(g != t for g, t in zip(german, titles)), 'the catalogue has German')

            app = subprocess.Popen([where['agent-chat']], env=installed_environment())
            try:
                check(wait_for(lambda: any(g in accessible_names() for g in german), 30),
                      'the installed app shows “%s”: %r' % (' or '.join(german), accessible_names()))
                with open('/proc/%d/maps' % app.pid) as f:
                    loaded = {line.split()[-1] for line in f if 'libagent-1.so' in line}
                check(loaded and all(path.startswith(destdir) for path in loaded),
                      'the app runs with the installed library: %r' % loaded)
            finally:
                app.terminate()
                app.wait(timeout=30)

        def test_dbus_activation_starts_the_installed_app():
            # A bus of its own, whose services are the installed one, its Exec
            # moved into the scratch directory as the installed program is
            services = os.path.join(destdir, 'dbus-services')
            os.mkdir(services)
            with open(where[APP_ID + '.service'], encoding='utf-8') as f:
                service = f.read().replace('Exec=', 'Exec=' + destdir)
            with open(os.path.join(services, APP_ID + '.service'), 'w') as f:
                f.write(service)
            config = os.path.join(destdir, 'session.conf')
            with open(config, 'w') as f:
                f.write(BUS_CONFIG % (destdir, services))
            env = dict(installed_environment(), GTK_A11Y='none')
            bus = subprocess.Popen(['dbus-daemon', '--config-file=' + config, '--nofork',
                                    '--print-address'], env=env, stdout=subprocess.PIPE,
                                   text=True)
            try:
                env['DBUS_SESSION_BUS_ADDRESS'] = bus.stdout.readline().strip()

                def gdbus(dest, path, method, *args):
                    return subprocess.run(['gdbus', 'call', '--session', '--dest', dest,
                                           '--object-path', path, '--method', method]
                                          + list(args), env=env, check=True,
                                          stdout=subprocess.PIPE, text=True).stdout

                object_path = '/' + APP_ID.replace('.', '/')
                gdbus(APP_ID, object_path, 'org.freedesktop.Application.Activate', '{}')
                pid = int(gdbus('org.freedesktop.DBus', '/org/freedesktop/DBus',
                                'org.freedesktop.DBus.GetConnectionUnixProcessID',
                                APP_ID).strip('(),\n').split()[-1])
                check_equal(os.readlink('/proc/%d/exe' % pid), where['agent-chat'],
                            'the bus started the installed agent-chat')
                check(wait_for(lambda: subprocess.run(
                    ['xdotool', 'search', '--onlyvisible', '--pid', str(pid)],
                    stdout=subprocess.PIPE, text=True).stdout.strip()),
                    'the activated app shows a window')
                gdbus(APP_ID, object_path, 'org.gtk.Actions.Activate', 'quit', '[]', '{}')
                check(wait_for(lambda: has_ended(pid)), 'the app quits')
            finally:
                bus.terminate()
                bus.wait(timeout=30)

        return run_tests([test_everything_is_installed, test_installed_data_is_valid,
                          test_installed_app_starts_in_german,
                          test_dbus_activation_starts_the_installed_app])


if __name__ == '__main__':
    sys.exit(main())
