#!/usr/bin/python3
# libagent-python.py — libagent through PyGObject, as a bench/run-all contender
#
#   libagent-python.py BASE_URL [latency]
#
# The same turn as `bench-stream --child session`: an AgentSession against
# the benchmark server with text-delta, reasoning-delta and (with
# stream-tool-call-chunks on) tool-call-delta handlers written in Python
# that count, measured from send_async() to the first step-finished. It
# shows what the binding adds per signal. Prints one JSON object (see
# bench/README.md, "bench/run-all"). Needs the build tree's typelib and
# library: bench/run-all sets GI_TYPELIB_PATH and LD_LIBRARY_PATH.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import json
import resource
import sys
import time

import gi

gi.require_version('Agent', '1.0')
from gi.repository import Agent, GLib  # noqa: E402


def cpu_times():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime, usage.ru_stime


def main():
    if len(sys.argv) < 2:
        print(f'usage: {sys.argv[0]} BASE_URL [latency]', file=sys.stderr)
        return 2
    latency = len(sys.argv) > 2 and sys.argv[2] == 'latency'

    counts = dict(text_deltas=0, text_bytes=0, reasoning_deltas=0, reasoning_bytes=0,
                  tool_deltas=0, argument_bytes=0, tool_calls=0, body_bytes=0)
    latencies = []
    state = {'done': False, 'error': None}

    provider = Agent.Provider.new('openai')
    provider.set_base_url(sys.argv[1])
    provider.set_model('gpt-4o')
    provider.set_api_key('sk-bench-not-a-secret')
    session = Agent.Session.new(provider)
    session.set_stream_tool_call_chunks(True)

    def on_text(_session, _message, delta):
        if state['done']:
            return
        if latency and delta.startswith(' @'):
            latencies.append((time.monotonic_ns() - int(delta[2:])) / 1e3)
        counts['text_deltas'] += 1
        counts['text_bytes'] += len(delta.encode())

    def on_reasoning(_session, _message, delta):
        if state['done']:
            return
        counts['reasoning_deltas'] += 1
        counts['reasoning_bytes'] += len(delta.encode())

    def on_tool_delta(_session, _call, fragment):
        if not state['done'] and fragment:
            counts['tool_deltas'] += 1

    def on_step_finished(_session, message):
        if state['done']:
            return
        user, system = cpu_times()
        state.update(done=True, user=user - user0, sys=system - sys0,
                     wall=time.monotonic() - wall0)
        for i in range(message.get_n_tool_calls()):
            counts['tool_calls'] += 1
            counts['argument_bytes'] += len(message.get_tool_call(i).get_arguments().encode())

    session.connect('text-delta', on_text)
    session.connect('reasoning-delta', on_reasoning)
    session.connect('tool-call-delta', on_tool_delta)
    session.connect('step-finished', on_step_finished)

    loop = GLib.MainLoop()

    def sent(session, result):
        try:
            session.send_finish(result)
        except GLib.Error as error:
            state['error'] = error.message
        loop.quit()

    user0, sys0 = cpu_times()
    wall0 = time.monotonic()
    session.send_async('Write the answer, please.', None, sent)
    loop.run()

    if state['error'] is not None or not state['done']:
        print(f'libagent-python: {state["error"]}', file=sys.stderr)
        return 1

    result = dict(counts, cpu_user_s=state['user'], cpu_sys_s=state['sys'],
                  cpu_s=state['user'] + state['sys'], wall_s=state['wall'])
    if latency:
        result['latencies_us'] = latencies
    print(json.dumps(result))
    return 0


if __name__ == '__main__':
    sys.exit(main())
