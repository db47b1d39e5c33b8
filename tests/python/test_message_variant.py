#!/usr/bin/python3
# test_message_variant.py — a message as a GLib.Variant and back, from
# Python (Agent.Message.to_variant, Agent.Message.new_from_variant): what
# the desktop service's RunStep carries, usable through introspection; and
# the desktop provider as an application sees it before any call
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import sys

from agenttest import check, check_equal, run_tests, skip_unless_introspection

skip_unless_introspection()

import gi  # noqa: E402

gi.require_version('Agent', '1.0')
from gi.repository import Agent, GLib  # noqa: E402

PNG = b'\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR python image'


def test_round_trip():
    parts = [Agent.ContentPart.new_text('Look:'),
             Agent.ContentPart.new_image('image/png', GLib.Bytes.new(PNG))]
    message = Agent.Message.new_with_parts(Agent.MessageRole.USER, parts)
    variant = message.to_variant()
    check_equal(variant.get_type_string(), 'a{sv}', 'a dictionary')
    check_equal(variant['role'], 'user', 'the role')
    # Through the bytes D-Bus would carry
    again = GLib.Variant.new_from_bytes(GLib.VariantType.new('a{sv}'), variant.get_data_as_bytes(),
                                        False)
    copy = Agent.Message.new_from_variant(again)
    check_equal(copy.get_content(), 'Look:', 'the text')
    copied = copy.list_parts()
    check_equal(copied[1].get_kind(), Agent.ContentPartKind.IMAGE, 'the image')
    check_equal(copied[1].get_data().get_data(), PNG, 'its bytes')


def test_tool_calls():
    message = Agent.Message.new(Agent.MessageRole.ASSISTANT, None)
    message.add_tool_call(Agent.ToolCall.new('call_1', 'weather', '{"city": "Paris"}'))
    copy = Agent.Message.new_from_variant(message.to_variant())
    check_equal(copy.get_n_tool_calls(), 1, 'one call')
    call = copy.get_tool_call(0)
    check_equal((call.get_id(), call.get_name(), call.get_arguments()),
                ('call_1', 'weather', '{"city": "Paris"}'), 'the call')


def test_errors():
    bad = GLib.Variant('a{sv}', {'role': GLib.Variant('s', 'robot')})
    try:
        Agent.Message.new_from_variant(bad)
    except GLib.Error as error:
        check(error.matches(Agent.error_quark(), Agent.Error.INVALID_ARGUMENT), 'invalid')
        check('robot' in error.message, 'names the role')
    else:
        raise AssertionError('a robot is no role')


def test_desktop_provider():
    check('desktop' in Agent.Provider.list_names(), 'listed')
    provider = Agent.Provider.new('desktop')
    check_equal(provider.get_api_key_variable(), None, 'no key')
    check_equal(provider.get_model(), None, 'the default profile')
    check_equal(provider.get_base_url(), 'dbus:io.github.libagent.Assistant', 'the bus, not a URL')


if __name__ == '__main__':
    sys.exit(run_tests([
        test_round_trip,
        test_tool_calls,
        test_errors,
        test_desktop_provider,
    ]))
