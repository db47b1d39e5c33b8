# bench/toolloop.py — the tool loop of bench/run-all
#
# A 5-step tool loop (4 steps each asking for one `calculator` call, then a
# text answer) played by `bench-loop --serve` (bench/bench-loop-server.h)
# over TLS on 127.0.0.1, with a certificate made for the run, against
# libagent (bench-loop --child), agent-cli, openai-node's tool runner and
# the AI SDK's multi-step streamText(). The server counts the connections,
# handshakes and requests of each run and times its own part of each step,
# so what a client adds to a step is measured the same way for all of them,
# from outside. Then the same over plain HTTP with Content-Length answers:
# two prompts in one process (agent-cli reads them on a terminal, as a
# user types them). See bench/README.md, "The tool loop".
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import json
import os
import pty
import re
import statistics
import subprocess
import termios

STEPS = 5
NODE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'node')
NODE_SCRIPTS = {'openai-node': 'openai-tools.mjs', 'ai-sdk': 'ai-sdk-tools.mjs'}
CONTENDERS = ('libagent', 'agent-cli', 'openai-node', 'ai-sdk')
NOTES = {
    'libagent': 'C API: an AgentSession with the built-in calculator tool',
    'agent-cli': 'agent-cli --tool calculator (--tls-ca-file); the plain variant reads its two '
                 'prompts on a terminal',
    'openai-node': 'openai chat.completions.runTools({stream: true}) with a calculator function',
    'ai-sdk': 'ai streamText() with a calculator tool and stopWhen: stepCountIs(10)',
}


def make_certificate(directory):
    """A throwaway self-signed certificate for 127.0.0.1 (ECDSA P-256, valid
    for a day), made for this run and deleted with it: (certificate, key)."""
    certificate = os.path.join(directory, 'loop-cert.pem')
    key = os.path.join(directory, 'loop-key.pem')
    try:
        subprocess.run(['openssl', 'req', '-x509', '-newkey', 'ec',
                        '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
                        '-subj', '/CN=127.0.0.1',
                        '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost',
                        '-keyout', key, '-out', certificate],
                       check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError) as error:
        raise RuntimeError(f'the tool loop needs openssl for its certificate: {error}')
    return certificate, key


class LoopServer:
    """bench-loop --serve: "begin TAG" before a run, "end" after it, which
    answers with the run's connections, handshakes and times."""

    def __init__(self, program, certificate, key):
        self.process = subprocess.Popen([program, '--serve', '--cert', certificate,
                                         '--key', key], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True)
        self.ports = {}
        for line in self.process.stdout:
            if line.strip() == 'ready':
                break
            scheme, port = line.split()
            self.ports[scheme] = int(port)
        if set(self.ports) != {'http', 'https'}:
            raise RuntimeError('bench-loop --serve did not start')
        self.next_tag = 0

    def url(self, scheme, framing, steps, step_ms):
        return f'{scheme}://127.0.0.1:{self.ports[scheme]}/{framing}/{steps}/{step_ms}'

    def begin(self):
        self.next_tag += 1
        self.process.stdin.write(f'begin r{self.next_tag}\n')
        self.process.stdin.flush()

    def end(self):
        self.process.stdin.write('end\n')
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line.startswith('loop '):
            raise RuntimeError(f'bench-loop --serve answered {line!r}')
        return json.loads(line[5:])

    def stop(self):
        self.process.stdin.close()
        self.process.wait()


class ToolLoop:
    def __init__(self, bench):
        self.bench = bench
        self.args = bench.args
        self.program = os.path.join(bench.build, 'bench', 'bench-loop')
        self.contenders = [c for c in CONTENDERS if c not in bench.missing]
        self.step_ms = self.args.loop_step_ms

    def command(self, name, url, prompts, interactive):
        if name == 'libagent':
            command = [self.program, '--child', url, '--prompts', str(prompts)]
            if url.startswith('https'):
                command += ['--ca', self.certificate]
            return command
        if name == 'agent-cli':
            command = [self.bench.cli, '-p', 'openai', '-u', url, '-m', 'gpt-4o',
                       '--tool', 'calculator', '--no-store']
            if url.startswith('https'):
                command += ['--tls-ca-file', self.certificate]
            if not interactive:
                command.append('Work it out with the calculator, please.')
            return command
        return [self.bench.node, os.path.join(NODE_DIR, NODE_SCRIPTS[name]), url,
                str(prompts)]

    def run_one(self, name, scheme, framing, steps, prompts=1):
        """One process of @name against the server: what the server counted,
        what the client said, what wait4() said."""
        url = self.server.url(scheme, framing, steps, self.step_ms)
        interactive = name == 'agent-cli' and prompts > 1
        command = self.command(name, url, prompts, interactive)
        env = dict(self.bench.env, NODE_EXTRA_CA_CERTS=self.certificate)
        self.server.begin()
        try:
            if interactive:
                out, usage = self.run_on_terminal(command, prompts, env)
            else:
                out, usage = self.bench.run(command, parse=name != 'agent-cli', env=env)
        finally:
            served = self.server.end()
        if name == 'agent-cli':
            # Its text on stdout; the server's answer ends with these words.
            client = {'answers_printed': out.count('the loop is done.')}
        else:
            client = out
        return {'served': served, 'client': client,
                'process_cpu_s': usage['user_s'] + usage['sys_s'],
                'process_wall_s': usage['wall_s'],
                'peak_rss_mb': usage['maxrss_kib'] * 1024 / 1e6}

    def run_on_terminal(self, command, prompts, env):
        """agent-cli reads a prompt per line when its stdin is a terminal:
        the lines wait in a pseudo-terminal (echo off), then Ctrl-D."""
        master, slave = pty.openpty()
        try:
            attributes = termios.tcgetattr(slave)
            attributes[3] &= ~termios.ECHO
            termios.tcsetattr(slave, termios.TCSANOW, attributes)
            lines = ''.join(f'Work it out with the calculator, please ({i + 1}).\n'
                            for i in range(prompts))
            os.write(master, lines.encode() + b'\x04')
            return self.bench.run(command, parse=False, env=env, stdin=slave)
        finally:
            os.close(slave)
            os.close(master)

    def measure(self, report):
        certificate, key = make_certificate(self.bench.tmp)
        self.certificate = certificate
        runs = self.args.runs
        self.server = LoopServer(self.program, certificate, key)
        samples = {name: {'tls': [], 'tls_one': [], 'plain': []} for name in self.contenders}
        try:
            # Untimed: the first TLS run after a while reads GnuTLS, node
            # and the peers' modules from the disk.
            for name in self.contenders:
                self.run_one(name, 'https', 'sse', 1)
            for _ in range(runs):
                for name in self.contenders:
                    samples[name]['tls'].append(self.run_one(name, 'https', 'sse', STEPS))
                    samples[name]['tls_one'].append(self.run_one(name, 'https', 'sse', 1))
            for _ in range(min(runs, 3)):
                for name in self.contenders:
                    samples[name]['plain'].append(
                        self.run_one(name, 'http', 'length', STEPS, prompts=2))
        finally:
            self.server.stop()
        report['tool_loop'] = {
            'steps': STEPS, 'step_ms': self.step_ms, 'runs': runs,
            'contenders': {name: NOTES[name] for name in self.contenders},
            'tls': {name: summarize_tls(s['tls'], s['tls_one']) for name, s in samples.items()},
            'plain': {name: summarize_plain(s['plain']) for name, s in samples.items()},
        }


def mean(values):
    return sum(values) / len(values) if values else None


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def derive(sample):
    """Per run: the figures of one process."""
    served = sample['served']
    client = sample['client']
    requests = served['requests']
    figures = {
        'requests': requests,
        'connections': served['connections'],
        'handshakes': served['handshakes'],
        'requests_per_connection': requests / served['connections']
        if served['connections'] else None,
        # What the client added between two steps of a prompt, as the
        # server saw it: its last byte written → the next request read.
        'added_ms_per_step': mean(served['gaps_ms']),
        'median_gap_ms': median(served['gaps_ms']),
        'answers_cut': served['answers_cut'],
        'handshake_ms': median(served['handshake_ms']),
        'server_ms': sum(served['server_ms']),
        'process_cpu_s': sample['process_cpu_s'],
        'peak_rss_mb': sample['peak_rss_mb'],
        'cpu_s': client.get('cpu_s'),
        'wall_s': client.get('wall_s'),
    }
    # The client's own view: its wall time from the first request to the
    # last answer, less the server's time, per step (the first connection
    # and handshake included).
    if figures['wall_s'] is not None and requests:
        figures['wall_over_server_ms_per_step'] = \
            (figures['wall_s'] * 1e3 - figures['server_ms']) / requests
    else:
        figures['wall_over_server_ms_per_step'] = None
    return figures


def summarize_tls(samples, one_step):
    rows = [derive(s) for s in samples]
    summary = {key: median([r[key] for r in rows]) for key in rows[0]}
    one = [derive(s) for s in one_step]
    # CPU of the 4 steps after the first, from whole processes: a 5-step
    # run less a 1-step one (startup, the first connection and the text
    # answer are in both).
    summary['cpu_ms_per_extra_step'] = \
        (median([r['process_cpu_s'] for r in rows]) -
         median([r['process_cpu_s'] for r in one])) * 1e3 / (STEPS - 1)
    summary['one_step_process_cpu_s'] = median([r['process_cpu_s'] for r in one])
    summary['runs'] = len(rows)
    summary['samples'] = samples
    summary['one_step_samples'] = one_step
    return summary


def summarize_plain(samples):
    rows = [derive(s) for s in samples]
    summary = {key: median([r[key] for r in rows]) for key in rows[0]}
    summary['runs'] = len(rows)
    summary['samples'] = samples
    return summary


def fmt(value, spec):
    if value is None:
        return '-'.rjust(int(re.match(r'\d*', spec).group() or 0))
    return format(value, spec)


def print_report(loop):
    print(f'\nTool loop over TLS (127.0.0.1, a self-signed ECDSA P-256 certificate trusted by '
          f'each client): {loop["steps"]} steps ({loop["steps"] - 1} calculator calls, then '
          f'text), the server takes {loop["step_ms"]} ms per step; chunked SSE, connections '
          f'kept alive; medians of {loop["runs"]} loops, one process each')
    print('  added ms/step: the mean over a loop of the time from the server\'s last byte of '
          'a step to the next request read (server clock); p50: their median; wall−server: '
          'the client\'s own wall time less the server\'s, per step, first connection '
          'included; hs ms: accept → handshake done; CPU ms/loop: the client\'s own; '
          'CPU/step+: (5-step − 1-step process CPU) / 4')
    print(f'  {"contender":12} {"added ms/step":>13} {"p50":>5} {"wall−server":>11} '
          f'{"handshakes":>10} {"conns":>5} {"req/conn":>8} {"hs ms":>6} {"CPU ms/loop":>11} '
          f'{"CPU/step+":>9} {"proc CPU":>8} {"RSS MB":>6}')
    for name, row in loop['tls'].items():
        print(f'  {name:12} {fmt(row["added_ms_per_step"], "13.1f")} '
              f'{fmt(row["median_gap_ms"], "5.1f")} '
              f'{fmt(row["wall_over_server_ms_per_step"], "11.1f")} '
              f'{fmt(row["handshakes"], "10.0f")} {fmt(row["connections"], "5.0f")} '
              f'{fmt(row["requests_per_connection"], "8.1f")} {fmt(row["handshake_ms"], "6.1f")} '
              f'{fmt(row["cpu_s"] * 1e3 if row["cpu_s"] is not None else None, "11.1f")} '
              f'{fmt(row["cpu_ms_per_extra_step"], "9.1f")} '
              f'{fmt(row["process_cpu_s"], "8.3f")} {fmt(row["peak_rss_mb"], "6.1f")}')
    print(f'\nThe same over plain HTTP, Content-Length answers, keep-alive: 2 prompts of '
          f'{loop["steps"]} steps in one process (agent-cli: typed on a terminal)')
    print(f'  {"contender":12} {"requests":>8} {"connections":>11} {"req/conn":>8} '
          f'{"added ms/step":>13} {"p50":>5} {"CPU ms":>6} {"proc CPU":>8}')
    for name, row in loop['plain'].items():
        print(f'  {name:12} {fmt(row["requests"], "8.0f")} {fmt(row["connections"], "11.0f")} '
              f'{fmt(row["requests_per_connection"], "8.1f")} '
              f'{fmt(row["added_ms_per_step"], "13.1f")} {fmt(row["median_gap_ms"], "5.1f")} '
              f'{fmt(row["cpu_s"] * 1e3 if row["cpu_s"] is not None else None, "6.1f")} '
              f'{fmt(row["process_cpu_s"], "8.3f")}')


def check(loop, expected):
    """Correctness only: every contender ran every loop to its end, with
    the tool results the server asked for. Never a count of connections."""
    problems = []
    for variant, prompts in (('tls', 1), ('plain', 2)):
        for name in expected:
            row = loop[variant].get(name)
            if row is None:
                problems.append(f'tool loop {variant}: {name} did not run')
                continue
            runs = [(sample, STEPS) for sample in row['samples']]
            runs += [(sample, 1) for sample in row.get('one_step_samples', [])]
            for sample, steps in runs:
                problems += check_run(f'tool loop {variant}, {steps}-step: {name}', sample,
                                      prompts, steps)
    return problems


def check_run(what, sample, prompts, steps):
    problems = []
    served = sample['served']
    want = {'requests': prompts * steps, 'prompts': prompts, 'answers': prompts,
            'results_ok': prompts * (steps - 1), 'failed_handshakes': 0}
    for key, value in want.items():
        if served[key] != value:
            problems.append(f'{what}: the server counted {key} = {served[key]}, not {value}')
    problems += [f'{what}: {error}' for error in served['errors']]
    client = sample['client']
    if client.get('steps', prompts * steps) != prompts * steps:
        problems.append(f'{what}: saw {client["steps"]} steps')
    if client.get('tool_runs', prompts * (steps - 1)) != prompts * (steps - 1):
        problems.append(f'{what}: ran {client["tool_runs"]} tools')
    if client.get('tool_errors', 0):
        problems.append(f'{what}: {client["tool_errors"]} tools failed')
    if client.get('answers_printed', prompts) != prompts:
        problems.append(f'{what}: printed {client["answers_printed"]} answers')
    return problems


def add_arguments(parser):
    parser.add_argument('--loop-step-ms', type=int, default=50,
                        help='the server\'s own time per step of the tool loop (default 50)')
