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
#    (json, messages, wire, tools, models, core; the root's helpers may use the
#    first three). providers/ reaches the core only through the provider's
#    headers, and nothing below mcp/ and store/ includes them: they stay
#    optional plug-ins of the core.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import re
import sys

SOURCE_DIR = sys.argv[1]
LIBAGENT = os.path.join(SOURCE_DIR, 'libagent')
INSTALLED = {os.path.relpath(os.path.realpath(p), os.path.realpath(LIBAGENT)) for p in sys.argv[2:]}
GENERATED = {'agent-enums.h', 'agent-features.h', 'agent-marshal.h', 'agent-version.h', 'config.h'}
RANK = {'': 3.5, 'json': 1, 'messages': 2, 'wire': 3, 'tools': 4, 'models': 4.5, 'core': 5,
        'providers': 6, 'mcp': 7, 'store': 8}
PROVIDERS_MAY_USE = {'core/agent-provider.h', 'core/agent-provider-private.h'}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)

headers = {}   # bare name -> path relative to libagent/
for dirpath, dirs, names in os.walk(LIBAGENT):
    for name in names:
        if name.endswith('.h'):
            rel = os.path.relpath(os.path.join(dirpath, name), LIBAGENT)
            headers[name] = rel


def folder(rel):
    return os.path.dirname(rel)


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
            if own is None:
                continue
            mine, theirs = folder(own), folder(target)
            if mine == theirs or theirs == '':
                continue
            if mine == 'providers' and theirs == 'core':
                ok = target in PROVIDERS_MAY_USE
            else:
                ok = RANK[theirs] < RANK[mine] and theirs not in ('mcp', 'store')
            if not ok:
                problems.append('%s: %s may not include %s (the layers: json, messages, wire, '
                                'tools, models, core; providers/ through the provider; mcp/ and '
                                'store/ on top)' % (where, (mine + '/') if mine else 'the root', target))

print('1..1')
for problem in problems:
    print('# ' + problem)
print('%s 1 headers and folders follow the rules' % ('not ok' if problems else 'ok'))
