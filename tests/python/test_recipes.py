#!/usr/bin/python3
# test_recipes.py — the libagent programs of docs/python-and-javascript.md's
# side by side, run as they are written
#
#   test_recipes.py SOURCE-DIR
#
# Each block after `<!-- recipe: python -->` or `<!-- recipe: gjs -->` runs
# against a scripted server (OPENAI_BASE_URL) that asks for get_weather:
# the forecast must reach the server and the answer standard output.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import json
import os
import re
import subprocess
import sys
import tempfile

from agenttest import (ScriptedServer, check, check_equal, run_tests, skip_unless_introspection,
                       text_stream, tool_call_stream)

SOURCE_DIR = sys.argv[1]


def recipes():
    with open(os.path.join(SOURCE_DIR, 'docs', 'python-and-javascript.md')) as f:
        text = f.read()
    return dict(re.findall(r'<!-- recipe: (\w+) -->\n```\w+\n(.*?)\n```', text, re.S))


def run_recipe(language):
    code = recipes().get(language)
    check(code is not None, 'the page has the %s recipe' % language)
    answer = ('It is sunny ', 'in Seoul.')
    with tempfile.TemporaryDirectory(prefix='libagent-recipe-') as scratch, \
            ScriptedServer(tool_call_stream(('call_1', 'get_weather', {'city': 'Seoul'})),
                           text_stream(*answer)) as server:
        script = os.path.join(scratch, 'recipe.py' if language == 'python' else 'recipe.js')
        with open(script, 'w') as f:
            f.write(code + '\n')
        command = {'python': [sys.executable, script],
                   'gjs': [os.environ.get('AGENT_GJS', 'gjs'), '-m', script]}[language]
        env = dict(os.environ, OPENAI_BASE_URL=server.url, OPENAI_API_KEY='sk-recipe')
        done = subprocess.run(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, timeout=60)
        for line in done.stderr.splitlines():
            print('# stderr: ' + line)
        check_equal(done.returncode, 0, 'the exit status')
        check_equal(done.stdout, ''.join(answer) + '\n', 'the streamed answer')
        check_equal(server.requests[0]['authorization'], 'Bearer sk-recipe', 'the key')
        check_equal(server.requests[0]['body']['model'], 'gpt-4o-mini', 'the model')
        tool = server.requests[0]['body']['tools'][0]['function']
        check_equal((tool['name'], tool['parameters']['required']), ('get_weather', ['city']),
                    'the tool offered')
        check_equal(server.tool_message(1, 'call_1')['content'], 'Sunny, 21 °C in Seoul',
                    'the forecast')
        check_equal(json.loads(server.messages(1)[1]['tool_calls'][0]['function']['arguments']),
                    {'city': 'Seoul'}, 'the call sent back')


def main():
    skip_unless_introspection()

    def test_python_recipe():
        run_recipe('python')

    def test_gjs_recipe():
        run_recipe('gjs')

    return run_tests([test_python_recipe, test_gjs_recipe])


if __name__ == '__main__':
    sys.exit(main())
