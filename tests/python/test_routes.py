#!/usr/bin/python3
# test_routes.py — every documented way of running the examples, run as it
# is written
#
#   test_routes.py SOURCE-DIR BUILD-DIR [--windows]
#
# Reads the shell blocks of README.md, docs/*.md and examples/README.md.
# Each block that runs an example (examples/python/…, examples/gjs/…,
# _build/examples/…) must follow a marker, `<!-- route: NAME -->` (with
# `, windows` for the examples that open a window) or `<!-- route: skip,
# REASON -->`: an unmarked one fails, so that no documented way goes
# untested.
#
# The blocks of each route run in the order of the page, in a scratch
# directory that looks like a fresh checkout (its entries are links to the
# source tree's, `_build` to the build directory), with none of the
# variables the other tests set (GI_TYPELIB_PATH, LD_LIBRARY_PATH,
# PYTHONPATH, GJS_PATH): a route has to set what it needs itself. A block
# sees the variables that the blocks before it in its route export or
# assign. Every line of a block that runs an example must do what it says:
# `--help` prints the usage, the demo server's arithmetic gets its answer.
# With --windows (under Xvfb), each line of a `windows` block is started
# with `$url` pointing to a scripted server and must send its prompt, with
# the host's note, before it is closed.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import glob
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from agenttest import (ScriptedServer, check, check_equal, run_tests, skip_unless_introspection,
                       text_stream)

SOURCE_DIR, BUILD_DIR = sys.argv[1:3]
WINDOWS = '--windows' in sys.argv[3:]
PAGES = ['README.md', 'examples/README.md'] + sorted(
    os.path.relpath(p, SOURCE_DIR) for p in glob.glob(os.path.join(SOURCE_DIR, 'docs', '*.md')))

RUNS_EXAMPLE = re.compile(r'examples/(python|gjs)/[\w-]+\.(py|js)\b|_build/examples/[\w-]+')
ASSIGNS = re.compile(r'^(export\s+)?[A-Za-z_][A-Za-z0-9_]*=')
ARITHMETIC = '"What is 17 * 23 + 4?"'
ANSWER = 'The result of 17 * 23 + 4 is 395.'
WINDOW_PROMPT = 'What does my list cost?'
# Set by meson for the other tests: a route must not lean on them
HIDDEN = ('GI_TYPELIB_PATH', 'LD_LIBRARY_PATH', 'PYTHONPATH', 'GJS_PATH', 'XDG_DATA_DIRS')


class Block:
    def __init__(self, page, line, marker, text):
        self.page = page
        self.line = line
        words = [w.strip() for w in marker.split(',')] if marker is not None else []
        self.route = words[0] if words else None
        self.windows = 'windows' in words[1:]
        self.text = text
        # Logical lines: a backslash at the end continues a line
        self.lines = [line.strip() for line in text.replace('\\\n', ' ').splitlines()
                      if line.strip()]

    def where(self):
        return '%s:%d' % (self.page, self.line)

    def example_lines(self):
        return [line for line in self.lines
                if RUNS_EXAMPLE.search(line) and not line.startswith('#')]


def read_blocks():
    """The shell blocks of the pages, with their markers."""
    found = re.compile(r'(?:<!-- route: (?P<marker>[^>]*?) -->\n)?```sh\n(?P<text>.*?)\n```',
                       re.S)
    blocks = []
    for page in PAGES:
        with open(os.path.join(SOURCE_DIR, page)) as f:
            text = f.read()
        for match in found.finditer(text):
            line = text.count('\n', 0, match.start('text'))
            blocks.append(Block(page, line, match.group('marker'), match.group('text')))
    return blocks


BLOCKS = read_blocks()


def routes():
    """Route name → its blocks, in the order of the pages."""
    found = {}
    for block in BLOCKS:
        if block.route not in (None, 'skip'):
            found.setdefault(block.route, []).append(block)
    return found


def make_checkout(scratch):
    """A directory that looks like a checkout with its build tree."""
    checkout = os.path.join(scratch, 'checkout')
    os.mkdir(checkout)
    for name in os.listdir(SOURCE_DIR):
        if name.startswith(('_build', '_install', '.git')) or name == 'demo-url':
            continue
        os.symlink(os.path.join(SOURCE_DIR, name), os.path.join(checkout, name))
    os.symlink(os.path.abspath(BUILD_DIR), os.path.join(checkout, '_build'))
    return checkout


def environment():
    env = {k: v for k, v in os.environ.items() if k not in HIDDEN}
    env['OPENAI_API_KEY'] = 'sk-routes-test'
    return env


def preamble(blocks):
    """What the earlier blocks of a route export or assign."""
    return '\n'.join(line for block in blocks for line in block.lines if ASSIGNS.match(line))


def run_block(checkout, block, before):
    script = 'set -e\n%s\n%s\n' % (preamble(before), block.text)
    print('# %s (%s): %d lines' % (block.where(), block.route, len(block.lines)))
    # In a session of its own, its output in a file: a block that fails
    # leaves its demo server behind (set -e ends it before `kill %1`), which
    # is ended here rather than keeping a pipe open until a time-out
    with tempfile.TemporaryFile(mode='w+') as output:
        process = subprocess.Popen(['bash', '-c', script], cwd=checkout, env=environment(),
                                   stdout=output, stderr=subprocess.STDOUT, text=True,
                                   start_new_session=True)
        try:
            returncode = process.wait(timeout=300)
        except subprocess.TimeoutExpired:
            returncode = 'killed after 300 s'
        try:
            os.killpg(process.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        process.wait()
        output.seek(0)
        stdout = output.read()
    for line in stdout.splitlines():
        print('#   ' + line)
    check_equal(returncode, 0, '%s: the exit status' % block.where())
    lines = block.example_lines()
    helps = [line for line in lines if '--help' in line]
    asks = [line for line in lines if ARITHMETIC in line]
    check(len(helps) + len(asks) == len(lines),
          '%s: each line says what it does: %r' % (block.where(), lines))
    check_equal(stdout.count('sage: '), len(helps), '%s: the usage of each' % block.where())
    check_equal(stdout.count(ANSWER), len(asks), '%s: the answer of each' % block.where())


def run_window(checkout, block, before, line):
    """Starts @line (an example that opens a window) and waits for its
    prompt to reach the server."""
    print('# %s (%s): %s' % (block.where(), block.route, line))
    with ScriptedServer(text_stream('It costs 9.90.')) as server:
        env = environment()
        env.update(url=server.url, NO_AT_BRIDGE='1', GSK_RENDERER='cairo')
        script = '%s\nexec %s\n' % (preamble(before), line)
        process = subprocess.Popen(['bash', '-c', script], cwd=checkout, env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                   start_new_session=True)
        try:
            deadline = time.monotonic() + 60
            while not server.requests and process.poll() is None and time.monotonic() < deadline:
                time.sleep(0.1)
            alive = process.poll() is None
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
            output = process.communicate(timeout=30)[0]
        for text in output.splitlines():
            print('#   ' + text)
        check(alive, '%s: the window stays open' % block.where())
        check(server.requests, '%s: it sent the prompt' % block.where())
        messages = server.requests[0]['body']['messages']
        check_equal(messages[-1]['content'], WINDOW_PROMPT, '%s: the prompt' % block.where())
        check('Shopping list' in messages[0]['content'],
              '%s: the host told the model about its note' % block.where())


def main():
    skip_unless_introspection()
    scratch = tempfile.mkdtemp(prefix='libagent-routes-')
    checkout = make_checkout(scratch)
    tests = []

    def test_every_block_is_marked():
        unmarked = [b.where() for b in BLOCKS if b.route is None and b.example_lines()]
        check_equal(unmarked, [], 'blocks that run an example without a route marker')
        for name in ('devenv', 'by-hand', 'installed'):
            check(name in routes(), 'the %s route is documented' % name)
    tests.append(test_every_block_is_marked)

    def route_test(name, blocks):
        def test():
            for i, block in enumerate(blocks):
                if not block.windows:
                    run_block(checkout, block, blocks[:i])
                elif WINDOWS:
                    for line in block.example_lines():
                        run_window(checkout, block, blocks[:i], line)
                else:
                    print('# %s: windows, run with --windows (a build with libagent-gtk, '
                          'under Xvfb)' % block.where())
        test.__name__ = 'test_route_' + name.replace('-', '_')
        return test

    for name, blocks in routes().items():
        tests.append(route_test(name, blocks))

    try:
        return run_tests(tests)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
