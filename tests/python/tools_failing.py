#!/usr/bin/python3
# tools_failing.py — a turn whose tool and check-tool-call hook raise, run
# by test_tools.py with and without G_MESSAGES_DEBUG=Agent-Tools: the last
# line of standard output is the results the model was sent, as JSON.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import json
import sys

from agenttest import ScriptedServer, run_async, text_stream, tool_call_stream

import gi  # noqa: E402

gi.require_version('Agent', '1.0')
from gi.repository import Agent  # noqa: E402


@Agent.tool
def get_weather(city: str) -> str:
    """Tells the weather."""
    return 'Sunny'


@Agent.tool
def divide(a: int, b: int) -> float:
    """Divides."""
    return a / b


def guard(session, call):
    if call.get_name() == 'get_weather':
        raise RuntimeError('guard crashed')
    return True


def main():
    with ScriptedServer(tool_call_stream(('call_1', 'get_weather', {'city': 'Seoul'}),
                                         ('call_2', 'divide', {'a': 1, 'b': 0})),
                        text_stream('Done.')) as server:
        provider = Agent.Provider.new('openai')
        provider.set_base_url(server.url)
        provider.set_model('scripted')
        provider.set_max_retries(0)
        session = Agent.Session.new(provider)
        session.add_tool(get_weather)
        session.add_tool(divide)
        session.connect('check-tool-call', guard)
        run_async(lambda callback: session.send_async('Go', None, callback), session.send_finish)
        print(json.dumps({'guard': server.tool_message(1, 'call_1')['content'],
                          'tool': server.tool_message(1, 'call_2')['content']}))
    return 0


if __name__ == '__main__':
    sys.exit(main())
