#!/usr/bin/python3
# check-programs.py: every program the tests run is on PATH and comes from a
# package that scripts/debian-packages.txt installs, and the tests run no
# program that tests/programs.txt does not name. A machine where something was
# installed by hand passes the tests; this check makes the next, fresh machine's
# failure visible on this one.
#
# Usage: check-programs.py SOURCE_ROOT  (TAP on stdout)
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..'))
SKIP_DIRS = {'.git', 'node_modules', 'corpus'}

# Where a test names a program it runs: (file name pattern, regular expression)
PATTERNS = [
    (r'meson\.build$', re.compile(r"find_program\(\s*'([^']+)'")),
    (r'\.py$', re.compile(r"subprocess\.(?:run|Popen|call|check_call|check_output)\(\s*\[\s*['\"]([^'\"]+)['\"]")),
    (r'\.py$', re.compile(r"shutil\.which\(\s*['\"]([^'\"]+)['\"]")),
    (r'\.c$', re.compile(r'g_find_program_in_path \("([^"]+)"\)')),
    (r'\.c$', re.compile(r'agent_test_process_spawn \("([^"]+)"')),
    (r'\.c$', re.compile(r'agent_mcp_client_new_stdio \([^,]+, "([^"]+)"')),
    (r'\.c$', re.compile(r'g_subprocess_(?:launcher_spawn|new) \([^,]+, [^,]+, "([^"]+)"')),
]
# Only what tests and test set-up run: the app's and the library's own code is
# not scanned (agent-chat runs no program; agent-cli runs the MCP servers its
# user configures).
SCANNED = ['tests', 'data', 'po', 'po-chat', 'flatpak', 'docs', 'bench', 'examples', 'meson.build']

results = []


def tap(ok, name, detail=None):
    results.append(ok)
    print('%s %d %s' % ('ok' if ok else 'not ok', len(results), name))
    if detail and not ok:
        for line in detail.splitlines():
            print('#   ' + line)


def listed(path):
    names = []
    with open(path, encoding='utf-8') as f:
        for line in f:
            line = line.split('#', 1)[0].strip()
            if line:
                names.append(line)
    return names


def used_programs():
    """{program: [where]} for every program a scanned file runs."""
    used = {}
    for top in SCANNED:
        start = os.path.join(ROOT, top)
        if os.path.isfile(start):
            walk = [(ROOT, [], [top])]
        else:
            walk = os.walk(start)
        for directory, dirs, files in walk:
            dirs[:] = [d for d in dirs if d not in SKIP_DIRS and not d.startswith('_build')]
            for name in files:
                path = os.path.join(directory, name)
                patterns = [rx for fp, rx in PATTERNS if re.search(fp, name)]
                if not patterns:
                    continue
                with open(path, encoding='utf-8', errors='replace') as f:
                    text = f.read()
                for rx in patterns:
                    for m in rx.finditer(text):
                        program = m.group(1)
                        # A script of the project's own, next to the file that names it
                        if os.path.exists(os.path.join(directory, program)):
                            continue
                        line = text.count('\n', 0, m.start()) + 1
                        used.setdefault(program, []).append('%s:%d' % (os.path.relpath(path, ROOT), line))
    return used


def dpkg_owner(path):
    real = os.path.realpath(path)
    # Merged /usr: dpkg may know /bin/sh where PATH finds /usr/bin/sh
    candidates = [path, real] + [p[len('/usr'):] for p in (path, real) if p.startswith('/usr/')]
    for candidate in candidates:
        done = subprocess.run(['dpkg-query', '-S', candidate], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)
        if done.returncode != 0:
            continue
        for line in done.stdout.splitlines():
            if not line.startswith('diversion by '):
                return line.split(':', 1)[0].split(',')[0].strip()
    return None


def installed_fields():
    """{package: (depends, provides, essential)} of every installed package."""
    done = subprocess.run(['dpkg-query', '-W', '-f',
                           '${db:Status-Abbrev}\t${Package}\t${Pre-Depends}, ${Depends}\t${Provides}\t'
                           '${Essential}\n'],
                          stdout=subprocess.PIPE, text=True, check=True)
    packages = {}
    for line in done.stdout.splitlines():
        status, name, depends, provides, essential = (line.split('\t') + [''] * 4)[:5]
        if not status.startswith('ii'):
            continue
        packages[name] = (depends, provides, essential == 'yes')
    return packages


def closure(roots, packages):
    """The packages installing @roots brings: them and their Depends, recursively, and
    the Essential ones every Debian system has."""
    providers = {}
    for name, (_, provides, _) in packages.items():
        for p in provides.split(','):
            p = p.strip().split(' ')[0]
            if p:
                providers.setdefault(p, []).append(name)
    seen = set()
    todo = list(roots) + [name for name, fields in packages.items() if fields[2]]
    while todo:
        name = todo.pop().split(':')[0]
        if name in seen:
            continue
        seen.add(name)
        depends = packages.get(name, ('', '', False))[0]
        for clause in depends.split(','):
            # "a (>= 1) | b": any installed alternative satisfies it
            for alternative in clause.split('|'):
                dep = alternative.strip().split(' ')[0].split(':')[0]
                if not dep:
                    continue
                if dep in packages:
                    todo.append(dep)
                    break
                if dep in providers:
                    todo.extend(providers[dep])
                    break
    return seen


def main():
    declared = listed(os.path.join(ROOT, 'tests', 'programs.txt'))
    wanted = listed(os.path.join(ROOT, 'scripts', 'debian-packages.txt'))
    used = used_programs()

    undeclared = {p: w for p, w in used.items() if p not in declared}
    tap(not undeclared, 'every program the tests run is named in tests/programs.txt',
        '\n'.join('%s, run at %s' % (p, ', '.join(w)) for p, w in sorted(undeclared.items())))

    packages = installed_fields()
    brought = closure(wanted, packages)
    for program in declared:
        path = program if os.path.isabs(program) else shutil.which(program)
        if not path or not os.access(path, os.X_OK):
            tap(False, '%s is installed' % program,
                '%s is not on PATH: add the Debian package that has it to '
                'scripts/debian-packages.txt' % program)
            continue
        owner = dpkg_owner(path)
        ok = owner is not None and owner in brought
        why = ('%s is not from a Debian package' % path if owner is None else
               '%s comes from %s, which scripts/debian-packages.txt neither lists nor '
               'pulls in through Depends: list it there' % (path, owner))
        tap(ok, '%s comes from a listed package (%s)' % (program, owner or 'none'), why)

    print('1..%d' % len(results))
    return 0 if all(results) else 1


if __name__ == '__main__':
    sys.exit(main())
