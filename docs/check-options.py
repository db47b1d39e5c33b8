#!/usr/bin/python3
# check-options.py — a program's options as its --help lists them, its
# documentation page and its manual page list them
#
#   check-options.py PROGRAM PAGE [MANPAGE]
#
# The options are those of --help's "Help Options" and "Application
# Options" (long names, and the letter of a short form); PAGE's are the
# list items of its "## Options" section ("- `-p`, `--provider=NAME`: …");
# MANPAGE's those of the OPTIONS section of what `man -l` shows (which must
# render without a warning of groff's). Each list
# must have every option of --help, and nothing that --help does not list:
# a new option without its documentation fails, and so does an option
# documented that the program no longer has. One TAP line per list.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import re
import subprocess
import sys

# "  -p, --provider=NAME   The API…" or "  --json   Print…"
HELP_OPTION = re.compile(r'^\s+(?:-(\w), )?--([\w-]+)')
# "- `-p`, `--provider=NAME`: …" or "- `--json`: …"
PAGE_OPTION = re.compile(r'^- (?:`-(\w)`, )?`--([\w-]+)[^`]*`(?:, `--[^`]*`)*:')
# "-p, --provider=NAME" or "--json" at the start of a line of man's output
MAN_OPTION = re.compile(r'^\s+(?:-(\w), )?--([\w-]+)')


def environment():
    env = dict(os.environ, LC_ALL='C.UTF-8', LANGUAGE='C', MANWIDTH='200', MAN_KEEP_FORMATTING='')
    env.pop('MAN_KEEP_FORMATTING')
    return env


def help_options(program):
    """{long name: short letter or None} of @program's --help."""
    output = subprocess.run([program, '--help'], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, env=environment(), check=True).stdout
    found = {}
    section = None
    for line in output.splitlines():
        if line and not line.startswith(' '):
            section = line.strip()
            continue
        match = HELP_OPTION.match(line)
        if match and section in ('Help Options:', 'Application Options:'):
            # GApplication's --help-all and --help-gapplication are its own
            if match.group(2).startswith('help-'):
                continue
            found[match.group(2)] = match.group(1)
    return found


def page_options(page):
    """{long name: short letter or None} of the list items of @page's
    "## Options" section (its ### subsections included)."""
    found = {}
    inside = False
    with open(page, encoding='utf-8') as f:
        for line in f:
            if line.startswith('## '):
                inside = line.strip() == '## Options'
                continue
            match = PAGE_OPTION.match(line) if inside else None
            if match:
                found[match.group(2)] = match.group(1)
    return found


def man_options(manpage):
    """{long name: short letter or None} of the OPTIONS section of @manpage
    as `man -l` shows it, and groff's warnings."""
    process = subprocess.run(['man', '--warnings', '-l', manpage], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=environment(), check=True)
    output = process.stdout
    found = {}
    inside = False
    for line in output.splitlines():
        if line and not line.startswith(' '):
            inside = line.strip() == 'OPTIONS'
            continue
        match = MAN_OPTION.match(line) if inside else None
        # The first: an option named again at the start of a paragraph is
        # no new entry
        if match and match.group(2) not in found:
            found[match.group(2)] = match.group(1)
    return found, process.stderr.strip().splitlines()


def compare(expected, found, where):
    """Why @found (a list of options) differs from --help's @expected."""
    problems = []
    for name in sorted(set(expected) - set(found)):
        problems.append('--%s is in --help but not in %s' % (name, where))
    for name in sorted(set(found) - set(expected)):
        problems.append('--%s is in %s but not in --help' % (name, where))
    for name in sorted(set(expected) & set(found)):
        if expected[name] != found[name]:
            problems.append('--%s: its short form is %s in --help, %s in %s'
                            % (name, expected[name] and '-' + expected[name],
                               found[name] and '-' + found[name], where))
    return problems


def main():
    program, page = sys.argv[1:3]
    manpage = sys.argv[3] if len(sys.argv) > 3 else None
    expected = help_options(program)
    checks = [('the options of %s' % os.path.basename(page), page_options(page))]
    warnings = None
    if manpage:
        found, warnings = man_options(manpage)
        checks.append(('the options of %s' % os.path.basename(manpage), found))
    print('1..%d' % (len(checks) + 1 + (warnings is not None)))
    failed = False
    ok = len(expected) > 0
    print('%s 1 - %s --help lists %d options' % ('ok' if ok else 'not ok', program, len(expected)))
    failed |= not ok
    for number, (what, found) in enumerate(checks, 2):
        problems = compare(expected, found, what.split(' of ', 1)[1])
        print('%s %d - %s are those of --help' % ('not ok' if problems else 'ok', number, what))
        for problem in problems:
            print('# ' + problem)
        failed |= bool(problems)
    if warnings is not None:
        number = len(checks) + 2
        print('%s %d - man -l shows %s without a warning'
              % ('not ok' if warnings else 'ok', number, os.path.basename(manpage)))
        for warning in warnings:
            print('# ' + warning)
        failed |= bool(warnings)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
