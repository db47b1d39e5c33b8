#!/usr/bin/python3
# test_gir.py — the shape of Agent-1.0.gir, as bindings need it
#
#   test_gir.py GIR
#
# Every _async function takes one GCancellable, one (scope async) callback
# and its user data, returns nothing, and has a _finish function that takes
# the GAsyncResult and throws: what Gio._promisify() in GJS and PyGObject's
# await expect. Nothing public is left out of the bindings unless a bindable
# twin takes its name, and every callback parameter has a scope.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

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


def main():
    root = ElementTree.parse(sys.argv[1]).getroot()
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

    return run_tests([test_async_functions_are_bindable, test_nothing_public_is_hidden,
                      test_callback_parameters_have_a_scope])


if __name__ == '__main__':
    skip_unless_introspection()
    sys.exit(main())
