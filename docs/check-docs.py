#!/usr/bin/python3
# check-docs.py — fails on any gi-docgen warning about the API reference
#
#   check-docs.py --gi-docgen PROGRAM --known FILE --config FILE
#                 --include-path DIR --content-dir DIR… GIR
#
# Checks that every public symbol of the GIR says since which version it
# exists (a Since: line), runs `gi-docgen check` (every public symbol
# documented) and `gi-docgen generate` (every link resolves), and prints
# one TAP line for each. A warning listed in the --known file (one a line, as
# printed below, without the file and line) is reported but does not fail:
# the list holds what another change has yet to fix, and only shrinks.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import argparse
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree

CORE = '{http://www.gtk.org/introspection/core/1.0}'
GLIB = '{http://www.gtk.org/introspection/glib/1.0}'


def warnings(command):
    """The warnings @command prints, without colours, files and lines, and
    whether it failed for another reason."""
    process = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    found = []
    for line in process.stdout.splitlines():
        line = re.sub(r'\x1b\[[0-9;]*m', '', line)
        if line.startswith('WARNING: '):
            found.append(re.sub(r' at \S+:\d+', '', line[len('WARNING: '):]))
    broken = process.returncode != 0 and not found
    if broken:
        print('\n'.join('# ' + line for line in process.stdout.splitlines()))
    return found, broken


def missing_since(gir):
    """The public symbols of @gir without a Since: version."""
    namespace = ElementTree.parse(gir).getroot().find(CORE + 'namespace')
    found = []
    for element in namespace:
        kind = element.tag[len(CORE):]
        if kind not in ('class', 'interface', 'record', 'enumeration', 'bitfield', 'callback',
                        'function', 'constant'):
            continue
        if element.get(GLIB + 'is-gtype-struct-for') or element.get('introspectable') == '0':
            continue
        name = 'Agent.' + element.get('name')
        if element.get('version') is None:
            found.append("Symbol '%s' has no Since: version" % name)
        for member in element:
            if member.tag in (CORE + 'method', CORE + 'constructor', CORE + 'function') \
                    and member.get('version') is None:
                found.append("Symbol '%s.%s' has no Since: version" % (name, member.get('name')))
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--gi-docgen', required=True)
    parser.add_argument('--known', required=True)
    parser.add_argument('--config', required=True)
    parser.add_argument('--include-path', required=True)
    parser.add_argument('--content-dir', action='append', default=[])
    parser.add_argument('gir')
    args = parser.parse_args()

    with open(args.known) as f:
        known = {line.strip() for line in f if line.strip() and not line.startswith('#')}

    common = ['--config', args.config, '--add-include-path', args.include_path]
    with tempfile.TemporaryDirectory() as output:
        generate = ['generate', '--no-namespace-dir', '--output-dir', output]
        generate += [option for d in args.content_dir for option in ('--content-dir', d)]
        checks = [
            ('every public symbol has a Since: version', None),
            ('every public symbol is documented', ['check']),
            ('every link of the reference resolves', generate),
        ]
        print('1..%d' % len(checks))
        failed = 0
        for number, (name, command) in enumerate(checks, 1):
            if command is None:
                found, broken = missing_since(args.gir), False
            else:
                found, broken = warnings([args.gi_docgen] + command + common + [args.gir])
            new = [w for w in found if w not in known]
            for warning in found:
                print('# %s%s' % ('known: ' if warning in known else '', warning))
            print('%s %d - %s' % ('not ok' if new or broken else 'ok', number, name))
            failed += bool(new or broken)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
