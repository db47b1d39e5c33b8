#!/usr/bin/python3
# check-potfiles.py — POTFILES.in lists exactly the files with translatable strings
#
#   check-potfiles.py SOURCE-DIR
#
# libagent has three gettext domains, each with its own directory: po/ for the
# library and its programs (libagent/, cli/, demo/, service/), po-gtk/ for the widgets
# (libagent-gtk/) and po-chat/ for the app (gui/, data/). xgettext, with the keywords of meson's 'glib' preset, reads
# every source file of those trees; a file it finds a message in (_(), N_(),
# C_(), g_dngettext (), gettext (), translatable="yes", a desktop file's or
# metainfo's or schema's strings…) must be in its domain's POTFILES.in.
# Each POTFILES.in must also be sorted (as by LC_ALL=C sort), without
# duplicates, and name only files that exist in its own domain's trees.
# Every language in a domain's LINGUAS translates every message the sources
# have now: none missing, none fuzzy (what `ninja -C _build
# <domain>-update-po` would leave to do).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import subprocess
import sys
import tempfile

DOMAINS = {
    'po': ('libagent', 'cli', 'demo', 'service'),
    'po-chat': ('gui', 'data'),
    'po-gtk': ('libagent-gtk',),
}
SUFFIXES = ('.c', '.cpp', '.h', '.ui', '.desktop.in', '.metainfo.xml.in', '.gschema.xml')
# The keywords of meson's i18n.gettext(preset: 'glib'), which makes the .pot files
KEYWORDS = ['--keyword=_', '--keyword=N_', '--keyword=C_:1c,2', '--keyword=NC_:1c,2',
            '--keyword=g_dcgettext:2', '--keyword=g_dngettext:2,3',
            '--keyword=g_dpgettext2:2c,3']


def sources(source_dir, roots):
    """The files of @roots that xgettext can read, relative to @source_dir."""
    found = []
    for root in roots:
        for directory, subdirs, files in os.walk(os.path.join(source_dir, root)):
            subdirs[:] = [d for d in subdirs if not d.startswith(('.', '_build'))]
            for name in files:
                if name.endswith(SUFFIXES):
                    found.append(os.path.relpath(os.path.join(directory, name), source_dir))
    return sorted(found)


def template(source_dir, files):
    """The .pot of @files, as text."""
    return subprocess.run(['xgettext', '--from-code=UTF-8', '--add-location=file',
                           '--output=-', '--force-po'] + KEYWORDS + files,
                          cwd=source_dir, check=True, stdout=subprocess.PIPE, text=True).stdout


def files_with_messages(source_dir, files):
    """The subset of @files in which xgettext finds a message."""
    if not files:
        return set()
    pot = template(source_dir, files)
    found = set()
    for line in pot.splitlines():
        if line.startswith('#: '):
            found.update(line[3:].split())
    return found


def read_potfiles(path):
    with open(path, encoding='utf-8') as f:
        return [line.strip() for line in f
                if line.strip() and not line.lstrip().startswith('#')]


def check_domain(source_dir, po_dir, roots):
    problems = []
    potfiles_in = os.path.join(po_dir, 'POTFILES.in')
    listed = read_potfiles(os.path.join(source_dir, potfiles_in))

    if listed != sorted(listed, key=lambda name: name.encode()):
        problems.append('%s is not sorted (LC_ALL=C sort)' % potfiles_in)
    duplicates = sorted({name for name in listed if listed.count(name) > 1})
    if duplicates:
        problems.append('%s lists %s more than once' % (potfiles_in, ', '.join(duplicates)))

    for name in listed:
        if not os.path.isfile(os.path.join(source_dir, name)):
            problems.append('%s lists %s, which does not exist' % (potfiles_in, name))
        elif not name.startswith(tuple(root + '/' for root in roots)):
            other = [d for d, r in DOMAINS.items()
                     if name.startswith(tuple(root + '/' for root in r))]
            problems.append('%s lists %s, whose strings belong in %s' %
                            (potfiles_in, name, other[0] + '/POTFILES.in' if other
                             else 'no gettext domain'))

    with_messages = files_with_messages(source_dir, sources(source_dir, roots))
    for name in sorted(with_messages - set(listed)):
        problems.append('%s has translatable strings but is missing from %s' %
                        (name, potfiles_in))

    existing = [name for name in listed if os.path.isfile(os.path.join(source_dir, name))]
    problems += check_translations(source_dir, po_dir, template(source_dir, existing))
    return problems, len(with_messages)


def check_translations(source_dir, po_dir, pot):
    """Every language of @po_dir translates every message of @pot."""
    problems = []
    with tempfile.TemporaryDirectory() as scratch:
        pot_path = os.path.join(scratch, 'domain.pot')
        with open(pot_path, 'w', encoding='utf-8') as f:
            f.write(pot)
        for language in read_potfiles(os.path.join(source_dir, po_dir, 'LINGUAS')):
            po = os.path.join(source_dir, po_dir, language + '.po')
            merged = os.path.join(scratch, language + '.po')
            subprocess.run(['msgmerge', '--quiet', '--no-wrap', '--output-file=' + merged, po,
                            pot_path], check=True)
            for kind, option in (('untranslated', '--untranslated'), ('fuzzy', '--only-fuzzy')):
                left = subprocess.run(['msgattrib', option, '--no-obsolete', merged],
                                      check=True, stdout=subprocess.PIPE, text=True).stdout
                ids = [line[len('msgid '):] for line in left.splitlines()
                       if line.startswith('msgid ') and line != 'msgid ""']
                if ids:
                    problems.append('%s/%s.po: %d %s messages (run ninja -C _build '
                                    '<domain>-update-po and translate them), first %s' %
                                    (po_dir, language, len(ids), kind, ids[0]))
    return problems


def main():
    source_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(
        os.path.dirname(os.path.abspath(__file__)))
    problems = []
    for po_dir, roots in DOMAINS.items():
        domain_problems, count = check_domain(source_dir, po_dir, roots)
        print('%s/POTFILES.in: %d files with translatable strings, %d problems' %
              (po_dir, count, len(domain_problems)))
        problems += domain_problems
    for problem in problems:
        print('error: ' + problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
