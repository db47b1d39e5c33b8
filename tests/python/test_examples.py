#!/usr/bin/python3
# test_examples.py — runs an example program against a scripted server
#
#   test_examples.py c|python|gjs PROGRAM
#
# The example gets a get_weather call for Seoul, must answer it with its
# made-up forecast, stream the model's answer to standard output, read the
# key from the provider's environment variable, and stop on Ctrl-C.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import json
import os
import signal
import subprocess
import sys

from agenttest import (ScriptedServer, Stall, check, check_equal, run_tests,
                       skip_unless_introspection, text_stream, tool_call_stream)

PROMPT = 'What is the weather in Seoul?'
KEY = 'sk-example-key'


def example_command(language, program, server, *options):
    """How to run the example @program, written in @language, against @server."""
    interpreter = {
        'c': [],
        'python': [sys.executable],
        'gjs': [os.environ.get('AGENT_GJS', 'gjs'), '-m'],
    }[language]
    return interpreter + [program, '--provider', 'openai', '--base-url', server.url,
                          '--model', 'scripted'] + list(options)


def example_environment(env=None):
    env = dict(env if env is not None else os.environ)
    env['OPENAI_API_KEY'] = KEY
    return env


def check_weather_round_trip(language, program, env=None):
    answer = ('The forecast for Seoul: ', 'sunny, 21 °C.')
    with ScriptedServer(tool_call_stream(('call_1', 'get_weather', {'city': 'Seoul'})),
                        text_stream(*answer)) as server:
        done = subprocess.run(example_command(language, program, server, PROMPT),
                              env=example_environment(env), timeout=60,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for line in done.stderr.splitlines():
            print('# stderr: ' + line)
        check_equal(done.returncode, 0, 'the exit status')
        check_equal(done.stdout, ''.join(answer) + '\n', 'the streamed answer')
        check('[get_weather {' in done.stderr, 'the tool call is shown on stderr')

        first = server.requests[0]
        check_equal(first['authorization'], 'Bearer ' + KEY, 'the key from OPENAI_API_KEY')
        check_equal(first['body']['model'], 'scripted', '--model')
        check_equal(first['body']['messages'][-1]['content'], PROMPT, 'the prompt')
        tools = {t['function']['name']: t['function'] for t in first['body']['tools']}
        check_equal(sorted(tools), ['calculator', 'get_weather'], 'the tools offered')
        check_equal(tools['get_weather']['parameters']['required'], ['city'], 'the schema')

        result = server.tool_message(1, 'call_1')['content']
        check(result.startswith('Sunny, 21 °C in Seoul'), 'the made-up forecast: %r' % result)
        check_equal(json.loads(server.messages(1)[1]['tool_calls'][0]['function']['arguments']),
                    {'city': 'Seoul'}, 'the call sent back')


def check_ctrl_c_cancels(language, program, env=None):
    with ScriptedServer(Stall(text_stream('Let me think', '…')[:2])) as server:
        process = subprocess.Popen(example_command(language, program, server, PROMPT),
                                   env=example_environment(env),
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            # Once the first words are out, the turn is under way: stop it.
            check_equal(process.stdout.read(len('Let me think')), 'Let me think', 'streamed')
            process.send_signal(signal.SIGINT)
            _out, err = process.communicate(timeout=30)
        finally:
            process.kill()
            process.wait()

        check_equal(process.returncode, 1, 'the exit status')
        check('error: ' in err and 'ancel' in err, 'the error says it was cancelled: %r' % err)


def main():
    language, program = sys.argv[1:3]
    if language != 'c':
        skip_unless_introspection()

    def test_weather_round_trip():
        check_weather_round_trip(language, program)

    def test_ctrl_c_cancels():
        check_ctrl_c_cancels(language, program)

    return run_tests([test_weather_round_trip, test_ctrl_c_cancels])


if __name__ == '__main__':
    sys.exit(main())
