#!/usr/bin/python3
# check-pages.py — every page of docs/ is where a reader finds it
#
#   check-pages.py SOURCE-DIR
#
# A page of docs/ (docs/*.md, and the docs/*.md.in that the build fills
# in) is a page of an API reference — one of the content files of
# docs/libagent.toml.in or docs/libagent-gtk.toml.in, with the Title:
# line gi-docgen wants — or a page of a program (PROGRAM_PAGES below, whose
# manual pages are built from them). The front door, README.md, links every
# docs/*.md page. One TAP line each; a failure names the page and what it
# lacks.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import glob
import os
import re
import sys

# Pages of agent-cli and agent-chat rather than of a library: the man pages
# are made from their options (docs/man/)
PROGRAM_PAGES = {'agent-cli.md', 'agent-chat.md'}
# Pages the build makes from others: the reference's name → the sources
# (design-page.md.in gives docs/design.md its title)
GENERATED = {'libagent-design.md': ['design.md', 'design-page.md']}
CONFIGS = ['libagent.toml.in', 'libagent-gtk.toml.in']


def content_files(config):
    """The content files a gi-docgen configuration lists."""
    with open(config, encoding='utf-8') as f:
        text = f.read()
    text = text.replace('@STORE_PAGE@', '"store.md",')
    listed = text.split('content_files', 1)[1].split(']', 1)[0]
    return re.findall(r'"([\w-]+\.md)"', listed)


def main():
    docs = os.path.join(sys.argv[1], 'docs')
    reference = {}
    for config in CONFIGS:
        for name in content_files(os.path.join(docs, config)):
            for source in GENERATED.get(name, [name]):
                reference[source] = config
    pages = sorted(os.path.basename(p) for p in glob.glob(os.path.join(docs, '*.md')))
    pages += sorted(os.path.basename(p)[:-3] for p in glob.glob(os.path.join(docs, '*.md.in')))
    with open(os.path.join(sys.argv[1], 'README.md'), encoding='utf-8') as f:
        readme = f.read()

    results = []
    unplaced = [p for p in pages if p not in reference and p not in PROGRAM_PAGES]
    results.append(('every page of docs/ is in an API reference or a program\'s page',
                    ['docs/%s is in the content_files of neither %s, nor a program\'s page '
                     '(check-pages.py\'s PROGRAM_PAGES)' % (p, ' nor '.join(CONFIGS))
                     for p in unplaced]))
    untitled = []
    for page, config in sorted(reference.items()):
        path = os.path.join(docs, page)
        if not os.path.exists(path):
            path += '.in'
        if page == 'design.md':
            continue  # design-page.md.in gives it its title
        if not os.path.exists(path):
            untitled.append('%s lists %s, which docs/ does not have' % (config, page))
            continue
        with open(path, encoding='utf-8') as f:
            if not f.readline().startswith('Title: '):
                untitled.append('docs/%s is in %s but has no "Title:" first line'
                                % (os.path.basename(path), config))
    results.append(('every page of a reference has its title', untitled))
    unlinked = ['README.md does not link docs/%s' % p for p in pages
                if os.path.exists(os.path.join(docs, p)) and '(docs/%s)' % p not in readme]
    results.append(('README.md links every page of docs/', unlinked))

    print('1..%d' % len(results))
    for number, (what, problems) in enumerate(results, 1):
        print('%s %d - %s' % ('not ok' if problems else 'ok', number, what))
        for problem in problems:
            print('# ' + problem)
    return 1 if any(problems for _, problems in results) else 0


if __name__ == '__main__':
    sys.exit(main())
