#!/usr/bin/python3
# test-app-id.py — this build's app id names agent-chat and all its data files
#
#   test-app-id.py BUILD-DIR PROFILE APP-ID SCHEMA-ID DESKTOP METAINFO SERVICE SEARCH-PROVIDER
#
# -Dprofile=development makes agent-chat io.github.libagent.Chat.Devel, which
# installs beside the stable app. This checks the files of THIS build (made
# from the templates in data/ for its profile): the desktop file, metainfo
# and D-Bus service are named by the app id and name it inside (Icon=, <id>,
# <launchable>, Name=); what `meson install` would install (meson-info/
# intro-installed.json) is named by it, icons included, and nothing by another
# id; the GSettings schema keeps its own id; and agent-chat is compiled with
# the same ids (meson-info/intro-targets.json). The GNOME Shell search
# provider's .ini is valid (its group and keys, as the Shell reads them) and
# points at this app: its desktop file, bus name and object path; the
# desktop file's New Chat action is the app's new-chat action.
#
# SPDX-License-Identifier: GPL-3.0-or-later

import configparser
import json
import os
import sys
import xml.etree.ElementTree as ElementTree

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests',
                                'python'))
from agenttest import check, check_equal, run_tests  # noqa: E402

BUILD_DIR, PROFILE, APP_ID, SCHEMA_ID, DESKTOP, METAINFO, SERVICE, SEARCH_PROVIDER = sys.argv[1:9]
# The app id of each profile (meson_options.txt), from the stable one
SUFFIXES = {'default': '', 'development': '.Devel'}


def read(path):
    with open(path, encoding='utf-8') as f:
        text = f.read()
    check('@APP_ID@' not in text, '%s has no @APP_ID@ left' % path)
    return text


def intro(name):
    with open(os.path.join(BUILD_DIR, 'meson-info', name), encoding='utf-8') as f:
        return json.load(f)


def test_the_app_id_is_the_profiles():
    check(PROFILE in SUFFIXES, 'a known profile: ' + PROFILE)
    check_equal(APP_ID, SCHEMA_ID + SUFFIXES[PROFILE], 'the app id of the %s profile' % PROFILE)


def test_desktop_file():
    check_equal(os.path.basename(DESKTOP), APP_ID + '.desktop', 'the desktop file name')
    lines = read(DESKTOP).splitlines()
    check('Icon=%s' % APP_ID in lines, 'the desktop file shows the icon of the app id')
    check('DBusActivatable=true' in lines, 'D-Bus activatable, by the app id')


def test_desktop_action():
    desktop = configparser.ConfigParser(interpolation=None)
    desktop.optionxform = str
    desktop.read_string(read(DESKTOP))
    check_equal(desktop['Desktop Entry'].get('Actions'), 'new-chat;', 'the desktop actions')
    action = desktop['Desktop Action new-chat']
    check_equal(action.get('Name'), 'New Chat', 'the action is named')
    check_equal(action.get('Exec'), 'agent-chat --new', 'the action starts a new chat')


def test_search_provider():
    check_equal(os.path.basename(SEARCH_PROVIDER), APP_ID + '.search-provider.ini',
                'the search provider file name')
    ini = configparser.ConfigParser(interpolation=None)
    ini.optionxform = str
    ini.read_string(read(SEARCH_PROVIDER))
    check_equal(ini.sections(), ['Shell Search Provider'], 'one group, as the Shell reads it')
    group = ini['Shell Search Provider']
    check_equal(sorted(group.keys()), ['BusName', 'DesktopId', 'ObjectPath', 'Version'],
                'the keys the Shell reads')
    check_equal(group['DesktopId'], os.path.basename(DESKTOP), 'the desktop file of the app')
    check_equal(group['BusName'], APP_ID, 'the bus name: the app id')
    check_equal(group['ObjectPath'], '/%s/SearchProvider' % APP_ID.replace('.', '/'),
                'under the app\'s object path')
    check_equal(group['Version'], '2', 'org.gnome.Shell.SearchProvider2')
    prefix, datadir = option_value('prefix'), option_value('datadir')
    installed = {os.path.relpath(destination, prefix)
                 for destination in intro('intro-installed.json').values()}
    check(os.path.join(datadir, 'gnome-shell/search-providers/%s.search-provider.ini' % APP_ID)
          in installed, 'installed where the Shell looks')


def test_metainfo():
    check_equal(os.path.basename(METAINFO), APP_ID + '.metainfo.xml', 'the metainfo file name')
    read(METAINFO)
    root = ElementTree.parse(METAINFO).getroot()
    check_equal(root.findtext('id'), APP_ID, 'the component id')
    check_equal(root.findtext('launchable'), APP_ID + '.desktop', 'the launchable')


def test_screenshots():
    """The screenshots the metainfo shows are those of docs/screenshots/."""
    root = ElementTree.parse(METAINFO).getroot()
    shots = root.findall('screenshots/screenshot')
    check(len(shots) >= 1, 'the metainfo shows screenshots')
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'docs', 'screenshots')
    for shot in shots:
        url = shot.findtext('image')
        check(shot.findtext('caption'), 'a caption for %s' % url)
        check(url.startswith('https://') and '/docs/screenshots/' in url, 'in docs/screenshots: ' + url)
        path = os.path.join(here, os.path.basename(url))
        check(os.path.exists(path), '%s is in docs/screenshots/' % os.path.basename(url))
        with open(path, 'rb') as f:
            check(f.read(8) == b'\x89PNG\r\n\x1a\n', '%s is a PNG' % path)


def test_dbus_service():
    check_equal(os.path.basename(SERVICE), APP_ID + '.service', 'the service file name')
    lines = read(SERVICE).splitlines()
    check('Name=' + APP_ID in lines, 'the service is named by the app id: %r' % lines)
    check(any(line.startswith('Exec=') and line.endswith('/agent-chat --gapplication-service')
              for line in lines), 'the service starts agent-chat: %r' % lines)


def option_value(name):
    return next(option['value'] for option in intro('intro-buildoptions.json')
                if option['name'] == name)


def test_installed_files_are_named_by_the_app_id():
    prefix, datadir = option_value('prefix'), option_value('datadir')
    installed = {os.path.relpath(destination, prefix)
                 for destination in intro('intro-installed.json').values()}
    expected = {os.path.join(datadir, name) for name in (
        'applications/%s.desktop' % APP_ID,
        'metainfo/%s.metainfo.xml' % APP_ID,
        'dbus-1/services/%s.service' % APP_ID,
        'gnome-shell/search-providers/%s.search-provider.ini' % APP_ID,
        'icons/hicolor/scalable/apps/%s.svg' % APP_ID,
        'icons/hicolor/symbolic/apps/%s-symbolic.svg' % APP_ID,
        'glib-2.0/schemas/%s.gschema.xml' % SCHEMA_ID)}
    for name in sorted(expected):
        check(name in installed, 'installs ' + name)
    # Nothing else is named by the stable id or the development one
    named = {name for name in installed if os.path.basename(name).startswith(SCHEMA_ID)}
    check_equal(named, expected, 'the installed files named by an id of the app')


def test_the_schema_keeps_its_id():
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), SCHEMA_ID + '.gschema.xml')
    schema = ElementTree.parse(source).getroot().find('schema')
    check_equal(schema.get('id'), SCHEMA_ID, 'the schema id')
    check_equal(schema.get('path'), '/%s/' % SCHEMA_ID.replace('.', '/'), 'the schema path')


def test_agent_chat_is_compiled_with_the_ids():
    defines = {'-DAGENT_CHAT_APP_ID="%s"' % APP_ID, '-DAGENT_CHAT_SCHEMA_ID="%s"' % SCHEMA_ID,
               '-DAGENT_CHAT_PROFILE="%s"' % PROFILE}
    # The program (main.c) and the static library with the rest, which the
    # widget tests link too
    targets = [t for t in intro('intro-targets.json') if t['name'] == 'agent-chat']
    check_equal(sorted(t['type'] for t in targets), ['executable', 'static library'],
                'the agent-chat targets')
    for target in targets:
        for source in target['target_sources']:
            if source['language'] == 'c':
                missing = defines - set(source['parameters'])
                check(not missing, 'the %s agent-chat is compiled with %s' % (
                    target['type'], ' '.join(sorted(missing))))


if __name__ == '__main__':
    sys.exit(run_tests([test_the_app_id_is_the_profiles, test_desktop_file, test_desktop_action,
                        test_search_provider, test_metainfo, test_screenshots,
                        test_dbus_service, test_installed_files_are_named_by_the_app_id,
                        test_the_schema_keeps_its_id, test_agent_chat_is_compiled_with_the_ids]))
