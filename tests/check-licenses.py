#!/usr/bin/python3
# check-licenses.py — every source file says its licence, and says the one
# of its part
#
#   check-licenses.py SOURCE-DIR
#
# Every file that can hold a comment (C, C++, Python, JavaScript, shell and
# other scripts, meson.build and meson_options.txt, .ui, .xml, .css, .svg,
# the .in templates but the Markdown ones, .po, POTFILES.in, LINGUAS,
# .list, .supp, .dict, .sql, .txt, .gitignore, .editorconfig,
# .clang-format) has an SPDX-License-Identifier line among its first 60
# lines, and the licence it names is
#   - one of the licences of meson.build's project(license: …), and
#   - the licence of the part of the tree the file is in (PARTS below:
#     the libraries LGPL-2.1-or-later, the programs GPL-3.0-or-later).
# Files that cannot hold a comment (JSON, Markdown, images, recorded
# streams, certificates, databases) are left out. The metainfo's
# metadata_license is its own SPDX line and its project_license names
# the app's licences, each declared in meson.build. The COPYING files hold
# the texts of the licences of the code.
#
# A failure names each file and what it lacks, so that a file added by
# another branch is found at once.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import re
import sys

ROOT = os.path.abspath(sys.argv[1])
SKIP_DIRS = {'.git', 'node_modules', 'corpus', 'attachment-seeds', 'json-seeds'}

# (path prefix, licence): the first that matches decides. The libraries
# (and the overrides installed with them) are LGPL, as GNOME's libraries
# are; agent-cli and agent-chat, with their data, manual pages and
# translations, are GPL; the icons CC-BY-SA; the metainfo CC0, as
# AppStream asks of metadata. Everything else (tests, benchmarks,
# examples, the demo server, docs, scripts, build files, the library's
# translations) is LGPL, like the library it serves. agent-desktop-service
# (service/) is GPL as agent-cli is; its D-Bus interface is LGPL, for any
# application to copy.
PARTS = [
    ('data/icons/', 'CC-BY-SA-4.0'),
    ('data/io.github.libagent.Chat.metainfo.xml.in', 'CC0-1.0'),
    ('data/io.github.libagent.Assistant1.xml', 'LGPL-2.1-or-later'),
    ('cli/', 'GPL-3.0-or-later'),
    ('service/', 'GPL-3.0-or-later'),
    ('gui/', 'GPL-3.0-or-later'),
    ('data/', 'GPL-3.0-or-later'),
    ('po-chat/', 'GPL-3.0-or-later'),
    ('docs/man/agent-', 'GPL-3.0-or-later'),
    ('', 'LGPL-2.1-or-later'),
]

# Kinds of files that hold a comment, by the end of their name
COMMENTED = ('.c', '.h', '.cpp', '.py', '.js', '.mjs', '.sh', '.ui', '.xml', '.css', '.svg',
             '.po', '.list', '.supp', '.dict', '.sql', '.txt', '.in', '.doap',
             'meson.build', 'LINGUAS', '.gitignore', '.editorconfig', '.clang-format')
# ... but these, which are Markdown (gi-docgen pages) or data
UNCOMMENTED = ('.md.in', '.json.in')

SPDX = re.compile(r'SPDX-License-Identifier:\s*([A-Za-z0-9.+-]+)')


def declared_licenses():
    """The licences of meson.build's project()."""
    with open(os.path.join(ROOT, 'meson.build'), encoding='utf-8') as f:
        text = f.read()
    project = text[text.index('project('):]
    match = re.search(r"license\s*:\s*(\[[^\]]*\]|'[^']*')", project)
    if match is None:
        return []
    return re.findall(r"'([^']+)'", match.group(1))


def part_license(relative):
    for prefix, license in PARTS:
        if relative.startswith(prefix):
            return license
    return None


def is_script(path):
    """A file without an extension that starts with #!"""
    try:
        with open(path, 'rb') as f:
            return f.read(2) == b'#!'
    except OSError:
        return False


def source_files():
    for directory, dirs, files in os.walk(ROOT):
        dirs[:] = sorted(d for d in dirs
                         if d not in SKIP_DIRS and not d.startswith(('_build', '_fuzz', '_flatpak',
                                                                      '_install')))
        for name in sorted(files):
            path = os.path.join(directory, name)
            relative = os.path.relpath(path, ROOT)
            if name.endswith(UNCOMMENTED):
                continue
            if name.endswith(COMMENTED) or ('.' not in name and is_script(path)):
                yield relative, path


def spdx_line(path):
    with open(path, encoding='utf-8', errors='replace') as f:
        for number, line in enumerate(f):
            if number >= 60:
                break
            match = SPDX.search(line)
            if match:
                return match.group(1)
    return None


def main():
    declared = declared_licenses()
    results = []

    results.append(('meson.build declares the licences of the parts',
                    ['meson.build: project(license: …) lacks %s' % license
                     for license in sorted({license for _, license in PARTS})
                     if license not in declared]))

    missing, undeclared, wrong = [], [], []
    count = 0
    for relative, path in source_files():
        count += 1
        found = spdx_line(path)
        expected = part_license(relative)
        if found is None:
            missing.append('%s: no "SPDX-License-Identifier: %s" line in its first 60 lines'
                           % (relative, expected))
        elif found not in declared:
            undeclared.append('%s: SPDX-License-Identifier %s is not one of meson.build\'s '
                              'licences (%s)' % (relative, found, ', '.join(declared)))
        elif found != expected:
            wrong.append('%s: SPDX-License-Identifier %s, but its part is %s '
                         '(check-licenses.py, PARTS)' % (relative, found, expected))
    results.append(('every source file has an SPDX line (%d files)' % count, missing))
    results.append(('every SPDX line names a licence meson.build declares', undeclared))
    results.append(('every SPDX line names the licence of its part', wrong))

    problems = []
    metainfo = os.path.join(ROOT, 'data', 'io.github.libagent.Chat.metainfo.xml.in')
    with open(metainfo, encoding='utf-8') as f:
        text = f.read()
    metadata = re.search(r'<metadata_license>([^<]*)</metadata_license>', text)
    project = re.search(r'<project_license>([^<]*)</project_license>', text)
    if metadata is None or metadata.group(1) != part_license(os.path.relpath(metainfo, ROOT)):
        problems.append('%s: metadata_license is %s, not its SPDX line\'s %s'
                        % (os.path.relpath(metainfo, ROOT), metadata and metadata.group(1),
                           part_license(os.path.relpath(metainfo, ROOT))))
    app = {part_license('gui/'), part_license('libagent/')}
    named = set(re.findall(r'[A-Za-z0-9.+-]+', project.group(1))) - {'AND', 'OR', 'WITH'} \
        if project else set()
    if named != app:
        problems.append('%s: project_license names %s; agent-chat and the libraries it ships '
                        'are %s' % (os.path.relpath(metainfo, ROOT), ', '.join(sorted(named)),
                                    ' AND '.join(sorted(app))))
    problems += ['%s: project_license names %s, which meson.build does not declare'
                 % (os.path.relpath(metainfo, ROOT), license)
                 for license in sorted(named - set(declared))]
    results.append(('the metainfo\'s licences agree with the tree', problems))

    problems = []
    for name, license, words in [('COPYING', 'GPL-3.0-or-later', 'GNU GENERAL PUBLIC LICENSE'),
                                 ('COPYING.LGPL', 'LGPL-2.1-or-later',
                                  'GNU LESSER GENERAL PUBLIC LICENSE')]:
        path = os.path.join(ROOT, name)
        if not os.path.exists(path):
            problems.append('%s is missing: the text of %s' % (name, license))
            continue
        with open(path, encoding='utf-8') as f:
            if words not in f.read(2000):
                problems.append('%s is not the text of %s' % (name, license))
    results.append(('COPYING and COPYING.LGPL hold the licences\' texts', problems))

    print('1..%d' % len(results))
    failed = False
    for number, (what, found) in enumerate(results, 1):
        print('%s %d - %s' % ('not ok' if found else 'ok', number, what))
        for problem in found:
            print('# ' + problem)
        failed |= bool(found)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
