#!/usr/bin/python3
# test_store_docs.py — the Python or JavaScript blocks of docs/store.md,
# run one after the other as the program they make
#
#   test_store_docs.py python|gjs SOURCE-DIR
#
# A prelude makes `provider` for a scripted server; the blocks then open
# the store (under a scratch XDG_DATA_HOME), keep a conversation of a turn,
# list, continue, search, rename, delete and restore, export it and flush.
# The test reads the database they left with a store of its own.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import re
import subprocess
import sys
import tempfile

from agenttest import (ScriptedServer, check, check_equal, run_tests, skip_unless_introspection,
                       text_stream)

LANGUAGE, SOURCE_DIR = sys.argv[1:3]

PRELUDES = {
    'python': '''import os
import gi
gi.require_version('Agent', '1.0')
from gi.repository import Agent, Gio, GLib
provider = Agent.Provider.new('openai')
provider.set_base_url(os.environ['AGENT_DOCS_URL'])
provider.set_model('scripted')
''',
    'js': '''import Agent from 'gi://Agent?version=1.0';
import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
const provider = Agent.Provider.new('openai');
provider.set_base_url(GLib.getenv('AGENT_DOCS_URL'));
provider.set_model('scripted');
''',
}


def blocks(fence):
    with open(os.path.join(SOURCE_DIR, 'docs', 'store.md')) as f:
        text = f.read()
    return re.findall(r'```%s\n(.*?)\n```' % fence, text, re.S)


def test_the_blocks_run():
    fence = 'python' if LANGUAGE == 'python' else 'js'
    found = blocks(fence)
    check(len(found) >= 6, 'the page has its %s blocks: %d' % (fence, len(found)))
    program = PRELUDES[fence] + '\n'.join(found) + '\n'
    with tempfile.TemporaryDirectory(prefix='libagent-store-docs-') as home, \
            ScriptedServer(text_stream('The result ', 'is 395.'),
                           text_stream('79.')) as server:
        script = os.path.join(home, 'store.py' if fence == 'python' else 'store.js')
        with open(script, 'w') as f:
            f.write(program)
        command = {'python': [sys.executable, script],
                   'js': [os.environ.get('AGENT_GJS', 'gjs'), '-m', script]}[fence]
        env = dict(os.environ, XDG_DATA_HOME=home, AGENT_DOCS_URL=server.url)
        done = subprocess.run(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, timeout=120)
        for line in (done.stdout + done.stderr).splitlines():
            print('# ' + line)
        check_equal(done.returncode, 0, 'the exit status')
        out = done.stdout
        path = os.path.join(home, 'agent-chat', 'conversations.db')
        check('The conversations are in %s' % path in out, 'the default file')
        check('The result is 395.\n' in out, 'the streamed answer')
        check('2 messages' in out, 'the conversation read back')
        check('Then: 79.' in out, 'continued')
        check('1 What is 17 * 23 + 4? ' in out, 'listed, titled by its first message')
        check('Not saved' not in out, 'no write failed')
        check('# Arithmetic' in out and 'What is 17 * 23 + 4?' in out, 'exported: %s' % out)

        # What the file holds, read by another store
        from gi.repository import Agent
        store = Agent.Store.new(path)
        conversations = store.list_conversations()
        check_equal(conversations.get_n_items(), 1, 'one conversation, restored')
        kept = conversations.get_item(0)
        check_equal((kept.get_title(), kept.get_provider(), kept.get_model()),
                    ('Arithmetic', 'openai', 'scripted'), 'its title and session')
        kept.load()
        check_equal([kept.get_item(i).get_content() for i in range(kept.get_n_items())],
                    ['What is 17 * 23 + 4?', 'The result is 395.', 'And divided by 5?', '79.'],
                    'its messages')
        check(store.check(), 'the database is sound')


def main():
    skip_unless_introspection()
    import gi
    gi.require_version('Agent', '1.0')
    return run_tests([test_the_blocks_run])


if __name__ == '__main__':
    sys.exit(main())
