#!/usr/bin/python3
# test_install.py — installs libagent into a scratch prefix and uses it
# from there, as an application would
#
#   test_install.py MESON BUILD-DIR SOURCE-DIR [CFLAG…]
#
# `meson install --destdir` puts the library, headers, pkg-config file, GIR
# and typelib in a temporary directory; the C example is then compiled
# through pkg-config against that copy (its .pc file relocated there), and
# the Python example imports that typelib, each running a tool round trip
# against a scripted server. Only the installed copy is on the search paths.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import glob
import os
import shlex
import subprocess
import sys
import tempfile

from agenttest import Skip, check, check_equal, run_tests
from test_examples import check_weather_round_trip

MESON, BUILD_DIR, SOURCE_DIR = sys.argv[1:4]
EXTRA_CFLAGS = sys.argv[4:]
INTROSPECTION = os.environ.get('AGENT_INTROSPECTION') != 'disabled'
GTK = os.environ.get('AGENT_GTK') == 'enabled'
GTK_HEADERS = ['agent-gtk.h', 'agent-gtk-version.h', 'agent-gtk-version-macros.h',
               'agent-gtk-init.h', 'agent-gtk-chat-view.h', 'agent-gtk-composer.h',
               'agent-gtk-markdown-view.h', 'agent-gtk-tool-card.h',
               'agent-gtk-approval-prompt.h', 'agent-gtk-error-card.h']
PUBLIC_HEADERS = ['agent.h', 'agent-version.h', 'agent-version-macros.h', 'agent-enums.h',
                  'agent-session.h', 'agent-tool.h', 'agent-tool-invocation.h', 'agent-memory.h']


class Installed:
    """Where the installed files are."""

    def __init__(self, destdir):
        def find(pattern):
            found = glob.glob(os.path.join(destdir, '**', pattern), recursive=True)
            check_equal(len(found), 1, 'one installed ' + pattern)
            return found[0]

        self.destdir = destdir
        self.pc = find('libagent-1.pc')
        self.library = find('libagent-1.so.0')
        self.header = find('agent.h')
        if INTROSPECTION:
            self.gir = find('Agent-1.0.gir')
            self.typelib = find('Agent-1.0.typelib')
            self.python_overrides = find(os.path.join('gi', 'overrides', 'Agent.py'))
            self.gjs_overrides = find(os.path.join('gjs-1.0', 'overrides', 'Agent.js'))

    def relocated_pc_dir(self):
        """Copies of the .pc files (libagent-1.pc, libagent-gtk-1.pc) whose
        prefix is where the files are now, as a packager relocates a DESTDIR
        install."""
        directory = os.path.join(self.destdir, 'relocated-pkgconfig')
        os.makedirs(directory, exist_ok=True)
        for pc in glob.glob(os.path.join(os.path.dirname(self.pc), '*.pc')):
            with open(pc) as f:
                lines = f.read().splitlines()
            with open(os.path.join(directory, os.path.basename(pc)), 'w') as f:
                for line in lines:
                    if line.startswith('prefix='):
                        line = 'prefix=' + self.destdir + line[len('prefix='):]
                    print(line, file=f)
        return directory

    def environment(self):
        """The environment of a program that should see the installed copy
        and nothing of the build tree."""
        env = {k: v for k, v in os.environ.items()
               if k not in ('GI_TYPELIB_PATH', 'LD_LIBRARY_PATH', 'PKG_CONFIG_PATH',
                            'PYTHONPATH', 'GJS_PATH')}
        env['PKG_CONFIG_PATH'] = self.relocated_pc_dir()
        env['LD_LIBRARY_PATH'] = os.path.dirname(self.library)
        if INTROSPECTION:
            env['GI_TYPELIB_PATH'] = os.path.dirname(self.typelib)
            # The site directory the prefix installs into, as it is on
            # sys.path for a system install; GJS's data directory likewise.
            env['PYTHONPATH'] = os.path.dirname(os.path.dirname(
                os.path.dirname(self.python_overrides)))
            env['GJS_PATH'] = os.path.dirname(os.path.dirname(self.gjs_overrides))
        return env


def main():
    with tempfile.TemporaryDirectory(prefix='libagent-install-') as destdir:
        # It builds what is out of date, as `meson install` does.
        subprocess.run([MESON, 'install', '-C', BUILD_DIR, '--quiet',
                        '--destdir', destdir, '--tags', 'runtime,devel,typelib'],
                       check=True, stdout=subprocess.DEVNULL)
        installed = []

        def test_files_are_installed():
            installed.append(Installed(destdir))
            headers = os.path.dirname(installed[0].header)
            for header in PUBLIC_HEADERS:
                check(os.path.exists(os.path.join(headers, header)), header + ' is installed')

        def test_c_program_through_pkg_config():
            env = installed[0].environment()
            flags = subprocess.run(['pkg-config', '--cflags', '--libs',
                                    'libagent-1'], env=env, check=True,
                                   stdout=subprocess.PIPE, text=True).stdout
            check(destdir in flags, 'pkg-config points into the installed copy: ' + flags)
            program = os.path.join(destdir, 'weather')
            compiler = shlex.split(os.environ.get('CC', 'cc'))
            subprocess.run(compiler + EXTRA_CFLAGS + [
                os.path.join(SOURCE_DIR, 'examples', 'c', 'weather.c'), '-o', program]
                + shlex.split(flags), check=True)
            linked = subprocess.run(['ldd', program], env=env, check=True,
                                    stdout=subprocess.PIPE, text=True).stdout
            check(os.path.join(destdir, '') in linked.split('libagent-1.so.0 => ')[1].split()[0],
                  'the program runs with the installed library: ' + linked)
            check_weather_round_trip('c', program, env)

        def test_python_imports_the_installed_typelib():
            if not INTROSPECTION:
                raise Skip('introspection is disabled in this build')
            env = installed[0].environment()
            where = subprocess.run([sys.executable, '-c', (
                "import gi; gi.require_version('Agent', '1.0');"
                "from gi.repository import Agent; print(*Agent.__path__);"
                "print(*[l.split()[-1] for l in open('/proc/self/maps') if 'libagent' in l])")],
                env=env, check=True, stdout=subprocess.PIPE, text=True).stdout.split()
            check_equal(where[0], installed[0].typelib, 'the typelib Python loads')
            check(all(path.startswith(destdir) for path in where[1:]) and len(where) > 1,
                  'the library Python loads: %r' % where[1:])
            check_weather_round_trip('python',
                                     os.path.join(SOURCE_DIR, 'examples', 'python', 'weather.py'),
                                     env)

        def test_installed_overrides_work():
            if not INTROSPECTION:
                raise Skip('introspection is disabled in this build')
            env = installed[0].environment()
            # Python: a handler returns a dict; the override encodes it
            where = subprocess.run([sys.executable, '-c', (
                "import gi, json; gi.require_version('Agent', '1.0');"
                "from gi.repository import Agent;"
                "import gi.overrides.Agent as o; print(o.__file__);"
                "t = Agent.Tool.new('t', 'd', {'type': 'object'}, lambda tool, inv: {'a': 1});"
                "call = Agent.ToolCall.new('c1', 't', '{}');"
                "inv = Agent.ToolInvocation.new(t, call, None); t.invoke(inv);"
                "print(inv.dup_result()[0])")],
                env=env, check=True, stdout=subprocess.PIPE, text=True).stdout.split()
            check_equal(where, [installed[0].python_overrides, '{"a":', '1}'],
                        'the installed Python overrides')
            # GJS: the same through its overrides directory
            script = os.path.join(destdir, 'overrides-test.js')
            with open(script, 'w') as f:
                f.write("import Agent from 'gi://Agent';\n"
                        "const t = Agent.Tool.new('t', 'd', {type: 'object'}, () => ({a: 1}));\n"
                        "const inv = Agent.ToolInvocation.new(t, "
                        "Agent.ToolCall.new('c1', 't', '{}'), null);\n"
                        "t.invoke(inv);\nprint(inv.dup_result()[0]);\n")
            gjs = os.environ.get('AGENT_GJS', 'gjs')
            if not os.path.exists(gjs) and gjs == 'gjs':
                raise Skip('gjs is not installed')
            out = subprocess.run([gjs, '-m', script], env=env, check=True,
                                 stdout=subprocess.PIPE, text=True).stdout.strip()
            check_equal(out, '{"a":1}', 'the installed GJS overrides')

        def test_libagent_gtk_is_installed():
            if not GTK:
                raise Skip('libagent-gtk is not built (-Dgtk)')
            env = installed[0].environment()
            found = glob.glob(os.path.join(destdir, '**', 'agent-gtk.h'), recursive=True)
            check_equal(len(found), 1, 'one installed agent-gtk.h')
            headers = os.path.dirname(found[0])
            for header in GTK_HEADERS:
                check(os.path.exists(os.path.join(headers, header)), header + ' is installed')
            check(not glob.glob(os.path.join(headers, '*-private.h')),
                  'no private header is installed')
            # The embedding example, built through pkg-config as a host would
            flags = subprocess.run(['pkg-config', '--cflags', '--libs', 'libagent-gtk-1'],
                                   env=env, check=True, stdout=subprocess.PIPE,
                                   text=True).stdout
            check(os.path.join(destdir, '') in flags, 'pkg-config points into the copy: ' + flags)
            program = os.path.join(destdir, 'chat-window')
            compiler = shlex.split(os.environ.get('CC', 'cc'))
            subprocess.run(compiler + EXTRA_CFLAGS + [
                os.path.join(SOURCE_DIR, 'examples', 'c', 'chat-window.c'), '-o', program]
                + shlex.split(flags), check=True)
            linked = subprocess.run(['ldd', program], env=env, check=True,
                                    stdout=subprocess.PIPE, text=True).stdout
            check(os.path.join(destdir, '') in
                  linked.split('libagent-gtk-1.so.0 => ')[1].split()[0],
                  'the program runs with the installed library: ' + linked)
            if not INTROSPECTION:
                return
            typelib = glob.glob(os.path.join(destdir, '**', 'AgentGtk-1.0.typelib'),
                                recursive=True)
            check_equal(len(typelib), 1, 'one installed AgentGtk-1.0.typelib')
            check_equal(len(glob.glob(os.path.join(destdir, '**', 'AgentGtk-1.0.gir'),
                                      recursive=True)), 1, 'one installed AgentGtk-1.0.gir')
            env['GI_TYPELIB_PATH'] = os.path.dirname(typelib[0])
            where = subprocess.run([sys.executable, '-c', (
                "import gi; gi.require_version('AgentGtk', '1.0');"
                "from gi.repository import AgentGtk; print(*AgentGtk.__path__);"
                "print(AgentGtk.ChatView.__gtype__.name)")],
                env=env, check=True, stdout=subprocess.PIPE, text=True).stdout.split()
            check_equal(where, [typelib[0], 'AgentGtkChatView'], 'the typelib Python loads')

        return run_tests([test_files_are_installed, test_c_program_through_pkg_config,
                          test_python_imports_the_installed_typelib,
                          test_installed_overrides_work, test_libagent_gtk_is_installed])


if __name__ == '__main__':
    sys.exit(main())
