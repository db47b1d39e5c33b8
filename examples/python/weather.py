#!/usr/bin/python3
# weather.py — a model that can call a get_weather tool written in Python,
# its answer streamed to standard output
#
#   weather.py [--provider NAME] [--base-url URL] [--model NAME] [PROMPT]
#
# The API key comes from the provider's usual environment variable
# (OPENAI_API_KEY, ANTHROPIC_API_KEY, …). Ctrl-C cancels the turn.
#
# Against the build tree (see examples/README.md):
#
#   meson devenv -C _build --workdir . /usr/bin/python3 examples/python/weather.py
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import argparse
import os
import signal
import sys

import gi

gi.require_version('Agent', '1.0')
from gi.repository import Agent, Gio, GLib  # noqa: E402

@Agent.tool
def get_weather(city: str) -> str:
    """Tells the weather in a city

    A real tool would ask a weather service (an `async def` is awaited);
    this one makes the forecast up. It returns its result (a str as it is,
    other values as JSON); an exception raised here becomes the call's
    error result, which the model sees. The JSON Schema of its arguments
    comes from the type hints and these lines:

    Args:
        city: The city, e.g. Seoul
    """
    return f'Sunny, 21 °C in {city} (a made-up forecast)'


def main():
    parser = argparse.ArgumentParser(description='Asks a model that can call a get_weather tool.')
    parser.add_argument('--provider', default='openai',
                        help='openai (default), openai-responses, anthropic, ollama or gemini')
    parser.add_argument('--base-url', help="the server, if not the provider's own")
    parser.add_argument('--model', help='the model to ask')
    parser.add_argument('prompt', nargs='?', default='What is the weather in Seoul?')
    args = parser.parse_args()

    try:
        provider = Agent.Provider.new(args.provider)
    except GLib.Error as error:
        parser.error(error.message)
    if args.base_url:
        provider.set_base_url(args.base_url)
    if args.model:
        provider.set_model(args.model)
    key = os.environ.get(provider.get_api_key_variable() or '')
    if key:
        provider.set_api_key(key)

    session = Agent.Session.new(provider)
    session.add_tool(get_weather)
    session.add_tool(Agent.calculator_tool_new())
    session.connect('text-delta',
                    lambda _session, _message, delta: print(delta, end='', flush=True))
    session.connect('tool-started', lambda _session, call: print(
        f'[{call.get_name()} {call.get_arguments()}]', file=sys.stderr))

    loop = GLib.MainLoop()
    cancellable = Gio.Cancellable()
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGINT, lambda: cancellable.cancel() or True)
    status = 0

    def done(session, result):
        nonlocal status
        try:
            session.send_finish(result)
            print()
        except GLib.Error as error:
            print(f'\nerror: {error.message}', file=sys.stderr)
            status = 1
        loop.quit()

    session.send_async(args.prompt, cancellable, done)
    loop.run()
    return status


if __name__ == '__main__':
    sys.exit(main())
