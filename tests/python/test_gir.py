#!/usr/bin/python3
# test_gir.py — the shape of Agent-1.0.gir, as bindings need it
#
#   test_gir.py GIR SOURCE-DIR
#
# Every _async function takes one GCancellable, one (scope async) callback
# and its user data, returns nothing, and has a _finish function that takes
# the GAsyncResult and throws: what Gio._promisify() in GJS and PyGObject's
# await expect. Nothing public is left out of the bindings unless a bindable
# twin takes its name, and every callback parameter has a scope. Every link
# of the documentation leads somewhere: a link to a page goes to a page of
# the API reference (docs/libagent.toml.in's content files), a file of the
# source tree named in the text exists. (gi-docgen itself checks the links
# to symbols: the check-docs test.)
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import re
import sys
import xml.etree.ElementTree as ElementTree

from agenttest import check, check_equal, run_tests, skip_unless_introspection

CORE = '{http://www.gtk.org/introspection/core/1.0}'
C = '{http://www.gtk.org/introspection/c/1.0}'


def callables(namespace):
    """(owner, element) for each function, method and constructor."""
    for element in namespace:
        if element.tag == CORE + 'function':
            yield None, element
        for member in element:
            if member.tag in (CORE + 'function', CORE + 'method', CORE + 'constructor'):
                yield element, member


def parameters(function):
    found = function.find(CORE + 'parameters')
    return [] if found is None else [p for p in found if p.tag == CORE + 'parameter']


def type_name(parameter):
    found = parameter.find(CORE + 'type')
    return None if found is None else found.get('name')


# A link in Markdown to a page: [words](target)
PAGE_LINK = re.compile(r'\[[^\]]*\]\(([^)\s]+)\)')
# A file of the source tree, named in the text
SOURCE_FILE = re.compile(r'(?<![\w/.-])((?:bench|bindings|cli|data|demo|docs|examples|gui|libagent|'
                         r'libagent-gtk|po|tests)/[\w/.-]*\w\.(?:md|c|h|py|js|json|in|txt|sh))\b')


def reference_pages(source_dir, namespace):
    """The pages of the API reference: its content files, as .html."""
    with open(os.path.join(source_dir, 'docs', 'libagent.toml.in')) as f:
        text = f.read()
    has_store = namespace.find(CORE + "class[@name='Store']") is not None
    text = text.replace('@STORE_PAGE@', '"store.md",' if has_store else '')
    files = re.findall(r'"([\w-]+)\.md"', text.split('content_files', 1)[1].split(']', 1)[0])
    return {name + '.html' for name in files}


def documentation(namespace):
    """(where, text) of each doc element of the namespace."""
    def walk(element, where):
        for child in element:
            name = child.get('name')
            here = '%s.%s' % (where, name) if name else where
            if child.tag == CORE + 'doc' and child.text:
                yield here, child.text
            else:
                yield from walk(child, here)
    yield from walk(namespace, namespace.get('name'))


def main():
    root = ElementTree.parse(sys.argv[1]).getroot()
    source_dir = sys.argv[2]
    namespace = root.find(CORE + 'namespace')
    functions = list(callables(namespace))
    by_symbol = {f.get(C + 'identifier'): f for _owner, f in functions}

    def test_async_functions_are_bindable():
        asyncs = [f for _owner, f in functions if f.get(C + 'identifier').endswith('_async')]
        check(len(asyncs) >= 3, 'the session and provider have async calls')
        for function in asyncs:
            symbol = function.get(C + 'identifier')
            params = parameters(function)
            names = [p.get('name') for p in params]
            check_equal(names[-3:], ['cancellable', 'callback', 'user_data'], symbol)
            check_equal([type_name(p) for p in params[-3:-1]],
                        ['Gio.Cancellable', 'Gio.AsyncReadyCallback'], symbol)
            check_equal([type_name(p) for p in params].count('Gio.Cancellable'), 1,
                        symbol + ': one cancellable')
            check_equal(params[-3].get('nullable'), '1', symbol + ': the cancellable is optional')
            check_equal(params[-2].get('scope'), 'async', symbol + ': the callback scope')
            check_equal(type_name(function.find(CORE + 'return-value')), 'none',
                        symbol + ' returns nothing')

            finish = by_symbol.get(symbol[:-len('_async')] + '_finish')
            check(finish is not None, symbol + ' has a _finish')
            check_equal([type_name(p) for p in parameters(finish)], ['Gio.AsyncResult'],
                        symbol + ': _finish takes the result')
            check_equal(finish.get('throws'), '1', symbol + ': _finish throws')
            print('# %s' % symbol)

    def test_nothing_public_is_hidden():
        for _owner, function in functions:
            symbol = function.get(C + 'identifier')
            check(function.get('introspectable') != '0', symbol + ' is introspectable')
            if function.get('shadowed-by'):
                twin = [f for _o, f in functions if f.get('shadows') == function.get('name')]
                check(twin, symbol + ' is shadowed by a bindable twin')

    def test_callback_parameters_have_a_scope():
        callbacks = {c.get('name') for c in namespace.findall(CORE + 'callback')}
        callbacks |= {'Gio.AsyncReadyCallback', 'GLib.DestroyNotify'}
        for _owner, function in functions:
            for param in parameters(function):
                name = type_name(param)
                if name in callbacks and name != 'GLib.DestroyNotify':
                    check(param.get('scope') is not None,
                          '%s: %s has a scope' % (function.get(C + 'identifier'),
                                                  param.get('name')))

    def test_documentation_links_resolve():
        pages = reference_pages(source_dir, namespace)
        check('python-and-javascript.html' in pages, 'the pages: %r' % sorted(pages))
        broken = []
        n_links = n_files = 0
        for where, text in documentation(namespace):
            for target in PAGE_LINK.findall(text):
                if re.match(r'[a-z]+:', target) or target.startswith('#'):
                    continue  # a URL, or a place on the same page
                n_links += 1
                if target.split('#')[0] not in pages:
                    broken.append('%s links to %s, which is not a page of the reference'
                                  % (where, target))
            for path in SOURCE_FILE.findall(text):
                n_files += 1
                if not os.path.exists(os.path.join(source_dir, path)):
                    broken.append('%s names %s, which does not exist' % (where, path))
        print('# %d links to pages, %d files named' % (n_links, n_files))
        check(n_links + n_files > 0, 'the documentation has links')
        check_equal(broken, [], 'the links that lead nowhere')

    return run_tests([test_async_functions_are_bindable, test_nothing_public_is_hidden,
                      test_callback_parameters_have_a_scope, test_documentation_links_resolve])


if __name__ == '__main__':
    skip_unless_introspection()
    sys.exit(main())
