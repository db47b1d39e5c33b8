#!/usr/bin/python3
# test-translations.py — agent-cli and agent-chat speak German under LANGUAGE=de
#
#   test-translations.py AGENT-CLI [AGENT-CHAT]
#
# AGENT_CATALOGUES lists (colon-separated) the build tree's catalogue
# directories, po/ and po-chat/, each holding de/LC_MESSAGES/DOMAIN.mo. The
# test gathers them in one scratch locale directory, which AGENT_LOCALEDIR
# gives to libagent and to the app in place of the installed one, and runs
# the real programs with LANGUAGE=de and LANG=C.UTF-8 (built into glibc, so
# no generated locale is needed; gettext ignores LANGUAGE only under plain
# "C"). What a program prints must be the catalogue's German text: the
# expectations are read from the .mo files, not written here twice.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import gettext
import glob
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests',
                                'python'))
from agenttest import Skip, check, run_tests  # noqa: E402

AGENT_CLI = sys.argv[1]
AGENT_CHAT = sys.argv[2] if len(sys.argv) > 2 else ''
LIBRARY_DOMAIN = 'libagent-1'
APP_DOMAIN = 'agent-chat'


def gather_catalogues(localedir):
    """Links every built LANG/LC_MESSAGES/DOMAIN.mo into @localedir."""
    count = 0
    for catalogues in os.environ['AGENT_CATALOGUES'].split(':'):
        for mo in glob.glob(os.path.join(catalogues, '*', 'LC_MESSAGES', '*.mo')):
            target = os.path.join(localedir, os.path.relpath(mo, catalogues))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            os.symlink(mo, target)
            count += 1
    return count


def environment(localedir, language):
    env = {k: v for k, v in os.environ.items()
           if k not in ('LC_ALL', 'LC_MESSAGES', 'LANG', 'LANGUAGE')}
    env['LANG'] = 'C.UTF-8'
    if language:
        env['LANGUAGE'] = language
    env['AGENT_LOCALEDIR'] = localedir
    env['GSETTINGS_BACKEND'] = 'memory'
    env['OPENAI_API_KEY'] = ''
    return env


def german(localedir, domain, msgid):
    """The German of @msgid, which the catalogue must have."""
    translation = gettext.translation(domain, localedir, ['de']).gettext(msgid)
    check(translation != msgid, '%s has German for “%s”' % (domain, msgid))
    return translation


def run(program, args, env):
    result = subprocess.run([program] + args, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            timeout=60)
    return result.returncode, result.stdout + result.stderr


def main():
    with tempfile.TemporaryDirectory(prefix='agent-locale-') as localedir:
        def test_catalogues_are_built():
            check(gather_catalogues(localedir) >= 1, 'the build tree has catalogues')
            for domain in (LIBRARY_DOMAIN, APP_DOMAIN):
                check(os.path.exists(os.path.join(localedir, 'de', 'LC_MESSAGES', domain + '.mo')),
                      'German catalogue of ' + domain)

        def test_cli_help_is_german():
            status, output = run(AGENT_CLI, ['--help'], environment(localedir, 'de'))
            check(status == 0, 'agent-cli --help succeeds: ' + output)
            for msgid in ('The model to use', 'Print one JSON event per line',
                          '[PROMPT] — chat with a language model that can use tools'):
                expected = german(localedir, LIBRARY_DOMAIN, msgid)
                check(expected in output,
                      'agent-cli --help shows “%s”: %s' % (expected, output))
                check(msgid not in output, 'no English “%s” left' % msgid)

        def test_library_error_is_german():
            # The library's own message, from its own domain, bound by the library
            msgid = 'Unknown provider “%s” (known providers: %s)'
            status, output = run(AGENT_CLI, ['--provider', 'nope', 'hi'],
                                 environment(localedir, 'de'))
            check(status == 1, 'agent-cli fails with no such provider: %d %s' % (status, output))
            for piece in german(localedir, LIBRARY_DOMAIN, msgid).split('%s'):
                check(piece in output, 'the error is German (“%s”): %s' % (piece, output))

        def test_english_without_language():
            status, output = run(AGENT_CLI, ['--help'], environment(localedir, None))
            check(status == 0 and 'The model to use' in output,
                  'agent-cli --help is English without LANGUAGE: ' + output)

        def test_app_help_is_german():
            if not AGENT_CHAT:
                raise Skip('agent-chat is not built')
            status, output = run(AGENT_CHAT, ['--help'], environment(localedir, 'de'))
            check(status == 0, 'agent-chat --help succeeds: ' + output)
            for msgid in ('The model for the window', "The model server's address for the window"):
                expected = german(localedir, APP_DOMAIN, msgid)
                check(expected in output,
                      'agent-chat --help shows “%s”: %s' % (expected, output))

        return run_tests([test_catalogues_are_built, test_cli_help_is_german,
                          test_library_error_is_german, test_english_without_language,
                          test_app_help_is_german])


if __name__ == '__main__':
    sys.exit(main())
