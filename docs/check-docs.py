#!/usr/bin/python3
# check-docs.py — fails on any gi-docgen warning about the API reference
#
#   check-docs.py --gi-docgen PROGRAM --config FILE
#                 --include-path DIR… --content-dir DIR… GIR
#
# Checks that every public symbol of the GIR says since which version it
# exists (a Since: line), runs `gi-docgen check` (every public symbol
# documented: a comment that only says what it returns is not enough) and
# `gi-docgen generate` (every link resolves), and prints one TAP line for
# each. Any warning fails: there is no list of tolerated ones.
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
        name = namespace.get('name') + '.' + element.get('name')
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
    parser.add_argument('--config', required=True)
    parser.add_argument('--include-path', action='append', required=True)
    parser.add_argument('--content-dir', action='append', default=[])
    parser.add_argument('gir')
    args = parser.parse_args()

    common = ['--config', args.config]
    common += [option for d in args.include_path for option in ('--add-include-path', d)]
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
            for warning in found:
                print('# ' + warning)
            print('%s %d - %s' % ('not ok' if found or broken else 'ok', number, name))
            failed += bool(found or broken)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
