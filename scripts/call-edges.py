#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Which of the given C files call functions defined in which other ones.

    scripts/call-edges.py gui/*.c
    scripts/call-edges.py libagent-gtk/agent-gtk-chat-*.c
    scripts/call-edges.py --includes gui/*.c gui/*.h

Prints one edge a line, "caller.c -> callee.c: function, ...", for the
functions (not static) a file defines and another one calls; then the
cycles among the files, if any. With --includes, the edges are the
#include "..." lines between the files given instead (a header stands for
itself), and the cycles are those of what includes what, transitively. A rough reading of the text (no
preprocessor): comments and strings are skipped, a definition is a name
(not in capitals: no macro) followed by "(" at the start of a line, after
a line that is not "static".
"""

import os
import re
import sys

DEFINITION = re.compile(r'^([A-Za-z_][A-Za-z0-9_]*)\s*\(', re.M)
CALL = re.compile(r'\b([A-Za-z_][A-Za-z0-9_]*)\s*\(')
COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\])*"', re.S)


def strip(text):
    return COMMENT.sub(lambda m: ' ' if m.group(0).startswith('/') else '""', text)


INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def include_edges(paths):
    by_name = {os.path.basename(path): path for path in paths}
    edges = {}
    for path in paths:
        for match in INCLUDE.finditer(open(path, encoding='utf-8').read()):
            other = by_name.get(os.path.basename(match.group(1)))
            if other is not None and other != path:
                edges.setdefault((path, other), set()).add(os.path.basename(other))
    return edges


def main(paths):
    if paths[0] == '--includes':
        return report(include_edges(paths[1:]))
    return report(call_edges(paths))


def call_edges(paths):
    texts = {}
    defined = {}
    for path in paths:
        text = strip(open(path, encoding='utf-8').read())
        texts[path] = text
        lines = text.split('\n')
        for match in DEFINITION.finditer(text):
            line = text.count('\n', 0, match.start())
            previous = lines[line - 1] if line > 0 else ''
            if (previous.startswith('static') or previous.strip().startswith('#') or
                    match.group(1).isupper()):
                continue
            defined.setdefault(match.group(1), path)

    edges = {}
    for path, text in texts.items():
        for match in CALL.finditer(text):
            callee = defined.get(match.group(1))
            if callee is not None and callee != path:
                edges.setdefault((path, callee), set()).add(match.group(1))
    return edges


def report(edges):
    name = os.path.basename
    for (caller, callee), functions in sorted(edges.items()):
        print('%s -> %s: %s' % (name(caller), name(callee), ', '.join(sorted(functions))))

    # Cycles: the strongly connected components of more than one file
    graph = {}
    for caller, callee in edges:
        graph.setdefault(caller, set()).add(callee)
    index = {}
    low = {}
    stack = []
    on_stack = set()
    components = []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in graph.get(node, ()):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                other = stack.pop()
                on_stack.discard(other)
                component.append(other)
                if other == node:
                    break
            if len(component) > 1:
                components.append(sorted(name(c) for c in component))

    sys.setrecursionlimit(10000)
    for node in sorted(graph):
        if node not in index:
            visit(node)
    for component in components:
        print('cycle: ' + ' <-> '.join(component))
    return 0


if __name__ == '__main__':
    if len(sys.argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1:]))
