#!/usr/bin/python3
# make-man.py — a manual page, its OPTIONS section taken from a docs page
#
#   make-man.py TEMPLATE PAGE VERSION OUTPUT
#
# TEMPLATE is roff with @OPTIONS@ where the options go and @VERSION@ where
# libagent's version goes; PAGE is the
# Markdown page (docs/agent-cli.md, docs/agent-chat.md) whose "## Options"
# section lists them, "- `-p`, `--provider=NAME`: what it does", in
# "### " groups with paragraphs between them. The options are written once,
# in the page; the cli-options and chat-options tests check the page and
# the manual page against --help.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import re
import sys

CODE = re.compile(r'`([^`]*)`')
LINK = re.compile(r'\[([^\]]*)\]\([^)]*\)')
ITEM = re.compile(r'^- (.*?): (.*)$')


def escape(text):
    """@text as roff text: backslashes and hyphens escaped."""
    return text.replace('\\', '\\e').replace('-', '\\-')


def inline(text):
    """Markdown's inline code and links as roff."""
    text = LINK.sub(lambda m: m.group(1), text)
    parts = CODE.split(text)
    out = []
    for i, part in enumerate(parts):
        out.append('\\fB%s\\fR' % escape(part) if i % 2 else escape(part))
    return ''.join(out)


def line(text):
    """One line of roff output: a line that would start with a control
    character starts with \\& instead."""
    return '\\&' + text if text.startswith(('.', "'")) else text


def options(page):
    """The roff of @page's "## Options" section."""
    with open(page, encoding='utf-8') as f:
        lines = f.read().split('\n')
    start = lines.index('## Options') + 1
    end = next((i for i in range(start, len(lines)) if lines[i].startswith('## ')), len(lines))
    # Blocks: list items (with their indented continuations), paragraphs,
    # headings; code blocks (the synopsis) are left to the template
    blocks = []
    in_code = False
    for text in lines[start:end]:
        if text.startswith('```'):
            in_code = not in_code
            continue
        if in_code:
            continue
        if not text.strip():
            blocks.append(None)
        elif text.startswith('### '):
            blocks.append(('heading', text[4:]))
            blocks.append(None)
        elif text.startswith('- '):
            blocks.append(['item', text])
        elif text.startswith('  ') and blocks and isinstance(blocks[-1], list):
            blocks[-1][1] += ' ' + text.strip()
        elif blocks and isinstance(blocks[-1], list) and blocks[-1][0] == 'para':
            blocks[-1][1] += ' ' + text.strip()
        else:
            blocks.append(['para', text.strip()])
    out = []
    for block in blocks:
        if block is None:
            continue
        kind, text = block
        if kind == 'heading':
            out.append('.SS "%s"' % escape(text))
        elif kind == 'item':
            match = ITEM.match(text)
            if match is None:
                raise SystemExit('%s: a list item of Options without "OPTION: text": %s'
                                 % (page, text))
            out.append('.TP')
            out.append(line(inline(match.group(1))))
            out.append(line(inline(match.group(2))))
        else:
            out.append('.PP')
            out.append(line(inline(text)))
    return '\n'.join(out)


def main():
    template, page, version, output = sys.argv[1:5]
    with open(template, encoding='utf-8') as f:
        text = f.read()
    if '@OPTIONS@' not in text:
        raise SystemExit('%s has no @OPTIONS@' % template)
    with open(output, 'w', encoding='utf-8') as f:
        f.write(text.replace('@OPTIONS@', options(page)).replace('@VERSION@', version))


if __name__ == '__main__':
    main()
