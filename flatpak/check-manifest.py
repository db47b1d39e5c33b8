#!/usr/bin/python3
# check-manifest.py — the Flatpak manifests match this tree
#
#   check-manifest.py SOURCE-DIR MANIFEST…
#
# No GNOME runtime can be downloaded here, so flatpak-builder cannot run; this
# checks what it would trip over, against the tree: the JSON and its required
# keys, the runtime, the sandbox permissions the app needs, the app id (that
# of the -Dprofile the manifest builds with, as data/meson.build makes it: the
# data files are named by it, so nothing is renamed and the D-Bus service
# ships), the command (an executable the tree installs), every -Dname=value
# given to meson (an option of meson_options.txt with a valid value, or a
# built-in one), every local source path, every download (https with a
# sha256), and that each dependency the GNOME runtime lacks is built by a
# module, and each module builds something the tree depends on.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import json
import os
import re
import sys
import xml.etree.ElementTree as ElementTree

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests',
                                'python'))
from agenttest import check, check_equal, run_tests  # noqa: E402

SOURCE_DIR = sys.argv[1]
MANIFESTS = sys.argv[2:]

RUNTIME = 'org.gnome.Platform'
SDK = 'org.gnome.Sdk'
FINISH_ARGS = ['--share=network', '--share=ipc', '--socket=wayland', '--socket=fallback-x11',
               '--device=dri', '--talk-name=org.freedesktop.secrets']
# What org.gnome.Platform (and its SDK) has, by pkg-config name
# (libepoxy: GTK's own dependency; sysprof-capture-4: the SDK's, which GLib
# and GTK are built with)
RUNTIME_PROVIDES = {'epoxy', 'gdk-pixbuf-2.0', 'gio-2.0', 'gio-unix-2.0', 'gobject-introspection-1.0',
                    'gtk4', 'gtksourceview-5', 'json-glib-1.0', 'libadwaita-1', 'libsecret-1',
                    'libsoup-3.0', 'libxml-2.0', 'sqlite3', 'sysprof-capture-4', 'gstreamer-1.0',
                    'gstreamer-app-1.0'}
# A module's name, when it is not the pkg-config name of what it builds
MODULE_PROVIDES = {'cjson': 'libcjson'}
# meson's own options that a manifest may set
MESON_BUILTINS = {'buildtype', 'optimization', 'debug', 'default_library', 'prefix', 'libdir',
                  'werror', 'warning_level', 'strip', 'wrap_mode', 'auto_features'}
APP_MODULE = 'libagent'


def read(*path):
    with open(os.path.join(SOURCE_DIR, *path), encoding='utf-8') as f:
        return f.read()


def meson_files():
    for directory, subdirs, files in os.walk(SOURCE_DIR):
        subdirs[:] = [d for d in subdirs if not d.startswith(('.', '_build', 'node_modules'))]
        if 'meson.build' in files:
            yield os.path.join(directory, 'meson.build')


def meson_options():
    """{name: (type, choices, default as a string)} of meson_options.txt"""
    options = {}
    for match in re.finditer(r"option\s*\(\s*'([^']+)'\s*,\s*type\s*:\s*'(\w+)'(.*?)\)\s*$",
                             read('meson_options.txt'), re.S | re.M):
        choices = re.search(r"choices\s*:\s*\[([^\]]*)\]", match.group(3))
        value = re.search(r"value\s*:\s*'?([\w-]+)", match.group(3))
        options[match.group(1)] = (match.group(2),
                                   re.findall(r"'([^']*)'", choices.group(1)) if choices else [],
                                   value.group(1) if value else None)
    return options


def tree_dependencies():
    """{pkg-config name: the options that can leave it out} of what the
    tree's meson.build files ask for: the option of its `required:`, and
    -Dtests or -Dbenchmarks for what only tests/ or bench/ ask for."""
    names = {}
    for path in meson_files():
        with open(path, encoding='utf-8') as f:
            text = f.read()
        top = os.path.relpath(path, SOURCE_DIR).split(os.sep)[0]
        for match in re.finditer(r"dependency\(\s*'([^'@]+)'((?:[^()]|\([^()]*\))*)\)", text):
            option = re.search(r"required\s*:\s*get_option\('([\w-]+)'\)", match.group(2))
            guard = {'tests': 'tests', 'bench': 'benchmarks'}.get(top)
            guard = option.group(1) if option else guard
            if match.group(1) in names and (names[match.group(1)] is None or guard is None):
                names[match.group(1)] = None
            else:
                names[match.group(1)] = guard
    return names


def disabled(option, config):
    """Whether the manifest's -Doption=… leaves it out"""
    return config.get(option) in ('disabled', 'false')


def installed_executables():
    names = set()
    for path in meson_files():
        with open(path, encoding='utf-8') as f:
            text = f.read()
        for match in re.finditer(r"executable\(\s*'([^']+)'(.*?)\n\)", text, re.S):
            if re.search(r'install\s*:\s*true', match.group(2)):
                names.add(match.group(1))
    return names


def app_ids(options):
    """{profile: app id}, as data/meson.build makes them from the stable id
    and a suffix per -Dprofile; its templates put the id in (@APP_ID@)."""
    text = read('data', 'meson.build')
    base = re.search(r"^base_app_id = '([\w.]+)'$", text, re.M)
    suffixes = re.search(r"^app_id_suffixes = \{([^}]*)\}$", text, re.M)
    check(base and suffixes, 'data/meson.build sets base_app_id and app_id_suffixes')
    suffixes = dict(re.findall(r"'([\w-]+)'\s*:\s*'([\w.]*)'", suffixes.group(1)))
    check_equal(sorted(suffixes), sorted(options['profile'][1]), 'a suffix for each -Dprofile')
    check_equal(suffixes[options['profile'][2]], '', 'the default profile has the stable id')
    base = base.group(1)

    template = os.path.join(SOURCE_DIR, 'data', base + '.metainfo.xml.in')
    root = ElementTree.parse(template).getroot()
    check_equal(root.findtext('id'), '@APP_ID@', 'the metainfo template\'s id')
    check_equal(root.findtext('launchable'), '@APP_ID@.desktop', 'the launchable')
    check('Icon=@APP_ID@\n' in read('data', base + '.desktop.in'), 'the desktop file\'s icon')
    check('Name=@APP_ID@\n' in read('data', base + '.service.in'), 'the D-Bus service\'s name')
    return {profile: base + suffix for profile, suffix in suffixes.items()}


def check_value(name, value, options):
    if name in MESON_BUILTINS or name.startswith('b_'):
        return
    check(name in options, '-D%s is an option of meson_options.txt' % name)
    kind, choices, _ = options[name]
    valid = {'feature': ['enabled', 'disabled', 'auto'], 'boolean': ['true', 'false'],
             'combo': choices}.get(kind)
    if valid is not None:
        check(value in valid, '-D%s=%s is one of %s' % (name, value, valid))
    elif kind == 'integer':
        check(re.fullmatch(r'-?\d+', value) is not None, '-D%s=%s is a number' % (name, value))


def check_manifest(path, options, dependencies, executables, ids):
    with open(path, encoding='utf-8') as f:
        manifest = json.load(f)
    for key in ('id', 'runtime', 'runtime-version', 'sdk', 'command', 'finish-args', 'modules'):
        check(key in manifest, '%s has “%s”' % (path, key))
    check_equal(manifest['runtime'], RUNTIME, 'the runtime')
    check_equal(manifest['sdk'], SDK, 'the SDK')
    check(re.fullmatch(r'\d+', manifest['runtime-version']) is not None,
          'a GNOME release as runtime version: ' + manifest['runtime-version'])
    for arg in FINISH_ARGS:
        check(arg in manifest['finish-args'], '%s in finish-args' % arg)
    check(manifest['command'] in executables,
          'the command %s is an installed executable (%s)' % (manifest['command'], executables))

    # The app id is that of the profile the project is built with
    app_opts = manifest['modules'][-1].get('config-opts', [])
    profiles = [opt.split('=', 1)[1] for opt in app_opts if opt.startswith('-Dprofile=')]
    profile = profiles[-1] if profiles else options['profile'][2]
    check(profile in ids, 'the profile %s is one of %s' % (profile, sorted(ids)))
    identifier = manifest['id']
    check_equal(identifier, ids[profile], 'the app id of the %s profile' % profile)
    check_equal(os.path.basename(path), identifier + '.json', 'the manifest is named by its id')
    # The files are named by that id: nothing to rename, the D-Bus service ships
    for key in ('rename-desktop-file', 'rename-appdata-file', 'rename-icon'):
        check(key not in manifest, '%s: no %s, the files are named by the app id' % (path, key))
    cleanup = manifest.get('cleanup', []) + [pattern for module in manifest['modules']
                                             for pattern in module.get('cleanup', [])]
    check(not any(pattern.startswith('/share/dbus-1') for pattern in cleanup),
          'the D-Bus service is kept: %s' % cleanup)

    modules = manifest['modules']
    check_equal(modules[-1].get('name'), APP_MODULE, 'the last module is the project')
    for module in modules:
        for source in module.get('sources', []):
            if source.get('type') in ('dir', 'file', 'patch') and 'path' in source:
                local = os.path.normpath(os.path.join(os.path.dirname(path), source['path']))
                check(os.path.exists(local), '%s: the source %s exists' % (module['name'], local))
            if 'url' in source:
                check(source['url'].startswith('https://'), 'https: ' + source['url'])
                check(re.fullmatch(r'[0-9a-f]{64}', source.get('sha256', '')) is not None,
                      '%s has a sha256' % source['url'])
        if module.get('buildsystem') == 'meson':
            for opt in module.get('config-opts', []):
                match = re.fullmatch(r'(?:-D|--)([\w-]+)=(.*)', opt)
                check(match is not None, 'a meson option: ' + opt)
                check_value(match.group(1).replace('-', '_') if opt.startswith('--')
                            else match.group(1), match.group(2), options)

    config = dict(re.fullmatch(r'-D([\w-]+)=(.*)', opt).groups()
                  for opt in modules[-1].get('config-opts', []) if opt.startswith('-D'))
    needed = {name for name, option in dependencies.items()
              if option is None or not disabled(option, config)}
    built = {MODULE_PROVIDES.get(m['name'], m['name']) for m in modules[:-1]}
    for name in sorted(built):
        check(name in needed, 'the module %s builds a dependency of the tree' % name)
    for name in sorted(needed - RUNTIME_PROVIDES):
        check(name in built, '%s, which the runtime lacks, is built by a module (or its '
              'option disabled)' % name)


def main():
    options = meson_options()
    dependencies = tree_dependencies()
    executables = installed_executables()
    ids = {}

    def test_the_tree_is_understood():
        check('gui' in options and options['tests'][0] == 'boolean', 'meson_options.txt is read')
        check({'md4c', 'gtk4', 'libsoup-3.0'} <= set(dependencies), 'dependencies: %s' % dependencies)
        check({'agent-chat', 'agent-cli'} <= executables, 'executables: %s' % executables)
        ids.update(app_ids(options))

    def test_each_profile_has_a_manifest():
        names = sorted(os.path.basename(m) for m in MANIFESTS)
        check_equal(names, sorted(i + '.json' for i in ids.values()), 'the manifests')

    tests = [test_the_tree_is_understood, test_each_profile_has_a_manifest]
    for manifest in MANIFESTS:
        def test_manifest(manifest=manifest):
            check_manifest(manifest, options, dependencies, executables, ids)
        test_manifest.__name__ = 'test_' + os.path.basename(manifest)
        tests.append(test_manifest)
    return run_tests(tests)


if __name__ == '__main__':
    sys.exit(main())
