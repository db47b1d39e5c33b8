#!/usr/bin/python3
# check-headers.py — libagent's rules for headers and folders
#
#   check-headers.py SOURCE-DIR INSTALLED-HEADER…
#
# 1. A header of libagent/ is installed, or its name ends in -private.h.
# 2. Installed headers are installed flat, so they include each other by
#    their bare names; everything else (sources, private headers, tests,
#    benchmarks) includes a header of libagent/ with its folder:
#    "wire/agent-sse-parser-private.h", "core/agent-session.h".
# 3. The layers: a folder includes only from its own layer and those below
#    (json, messages, wire, tools, models, transport, core; the root's helpers may
#    use the first three). transport/ is a provider's connection to its
#    server and knows nothing of the session or the turn; providers/ sits
#    on transport/ and never includes core/; nothing below mcp/ and store/
#    includes them: they stay optional plug-ins of the core. profiles/
#    sits on top, and takes a profile's API key from store/'s keyring.
#    documents/ (chunks and their vectors) sits on transport/'s embeddings.
#
# Then it checks the rule of 3 itself on cases it must refuse and allow
# (a transport file including a session header must fail), so that a
# change to the ranks cannot quietly open a layer.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import re
import sys

SOURCE_DIR = sys.argv[1]
LIBAGENT = os.path.join(SOURCE_DIR, 'libagent')
INSTALLED = {os.path.relpath(os.path.realpath(p), os.path.realpath(LIBAGENT)) for p in sys.argv[2:]}
GENERATED = {'agent-enums.h', 'agent-features.h', 'agent-marshal.h', 'agent-version.h', 'config.h'}
RANK = {'': 3.5, 'json': 1, 'messages': 2, 'wire': 3, 'tools': 4, 'models': 4.2, 'transport': 4.5, 'audio': 4.7, 'core': 5,
        'providers': 6, 'mcp': 7, 'documents': 7.5, 'store': 8,
        'profiles': 9}
LAYERS = ('json, messages, wire, tools, models, transport, audio, core; providers/ on transport/, never core/; '
          'mcp/ and store/ on top, documents/ on transport/, profiles/ on store/')
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)

headers = {}   # bare name -> path relative to libagent/
for dirpath, dirs, names in os.walk(LIBAGENT):
    for name in names:
        if name.endswith('.h'):
            rel = os.path.relpath(os.path.join(dirpath, name), LIBAGENT)
            headers[name] = rel


def folder(rel):
    return os.path.dirname(rel)


def layer_allows(own, target):
    """Whether libagent/OWN may include libagent/TARGET (paths relative to
    libagent/), by the layers"""
    mine, theirs = folder(own), folder(target)
    if mine == theirs or theirs == '':
        return True
    if theirs == 'store' and mine == 'profiles':
        return True    # a profile's API key, from the keyring
    if theirs in ('mcp', 'store'):
        return False
    if mine == 'providers' and theirs == 'core':
        return False
    return RANK[theirs] < RANK[mine]


def sources(top):
    for dirpath, dirs, names in os.walk(os.path.join(SOURCE_DIR, top)):
        dirs[:] = [d for d in dirs if not d.startswith(('_build', '.'))]
        for name in sorted(names):
            if name.endswith(('.c', '.cpp', '.h')):
                yield os.path.join(dirpath, name)


problems = []
for name, rel in sorted(headers.items()):
    if rel not in INSTALLED and not name.endswith('-private.h'):
        problems.append('libagent/%s is not installed: its name should end in -private.h' % rel)
    if rel in INSTALLED and name.endswith('-private.h'):
        problems.append('libagent/%s is installed, yet named private' % rel)

for top in ('libagent', 'tests', 'bench'):
    for path in sources(top):
        where = os.path.relpath(path, SOURCE_DIR)
        own = os.path.relpath(path, LIBAGENT) if top == 'libagent' else None
        with open(path, encoding='utf-8') as f:
            text = f.read()
        for included in INCLUDE.findall(text):
            name = os.path.basename(included)
            if name in GENERATED or name not in headers:
                continue
            target = headers[name]
            if own in INSTALLED:
                if included != name or target not in INSTALLED:
                    problems.append('%s: an installed header includes "%s"; it may include '
                                    'only installed headers, by their bare names' % (where, included))
                continue
            if included != target:
                problems.append('%s: include "%s" as "%s"' % (where, included, target))
                continue
            if own is None or layer_allows(own, target):
                continue
            mine = folder(own)
            problems.append('%s: %s may not include %s (the layers: %s)'
                            % (where, (mine + '/') if mine else 'the root', target, LAYERS))

# The rule itself: what it must refuse, and what it must allow
CASES = [
    ('transport/agent-step.c', 'core/agent-session-private.h', False),
    ('transport/agent-provider.c', 'core/agent-turn-private.h', False),
    ('transport/agent-provider-http.c', 'providers/agent-output-private.h', False),
    ('providers/agent-ollama.c', 'core/agent-session-private.h', False),
    ('providers/agent-ollama.c', 'core/agent-memory-private.h', False),
    ('wire/agent-accumulator.c', 'transport/agent-provider-private.h', False),
    ('tools/agent-tool.c', 'transport/agent-step-private.h', False),
    ('core/agent-session.c', 'mcp/agent-mcp-client-private.h', False),
    ('providers/agent-ollama.c', 'transport/agent-provider-private.h', True),
    ('core/agent-turn.c', 'transport/agent-step-private.h', True),
    ('transport/agent-step.c', 'wire/agent-stream-decoder-private.h', True),
    ('transport/agent-provider.c', 'messages/agent-content-part-private.h', True),
    ('mcp/agent-mcp-client.c', 'core/agent-session-private.h', True),
]
rule_problems = []
for own, target, allowed in CASES:
    if layer_allows(own, target) != allowed:
        rule_problems.append('%s including %s should be %s' % (own, target,
                                                              'allowed' if allowed else 'refused'))

print('1..2')
for problem in problems:
    print('# ' + problem)
print('%s 1 headers and folders follow the rules' % ('not ok' if problems else 'ok'))
for problem in rule_problems:
    print('# ' + problem)
print('%s 2 the layer rule refuses what it must (a transport file may not include a session '
      'header)' % ('not ok' if rule_problems else 'ok'))
