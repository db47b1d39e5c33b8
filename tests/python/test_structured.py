#!/usr/bin/python3
# test_structured.py — structured output from Python: a schema as a dict,
# the object as Python values (ask_for_object, stream's object events),
# the object as a Json.Node (send_for_object_finish), the partial reader.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import json

from agenttest import (ScriptedServer, check, check_equal, run_async, run_tests,
                       skip_unless_introspection, text_stream)

skip_unless_introspection()

import gi  # noqa: E402

gi.require_version('Agent', '1.0')
gi.require_version('Json', '1.0')
from gi.repository import Agent, GLib, Json  # noqa: E402

SCHEMA = {
    'type': 'object', 'additionalProperties': False, 'required': ['dates'],
    'properties': {'dates': {'type': 'array', 'items': {
        'type': 'object', 'required': ['day', 'month'],
        'properties': {'day': {'type': 'integer'}, 'month': {'type': 'string'}}}}},
}
ANSWER = ['{"dates": [{"da', 'y": 12, "mon', 'th": "Mar', 'ch"}, {"day": 3', ', "month": ',
          '"April"}]}']
OBJECT = {'dates': [{'day': 12, 'month': 'March'}, {'day': 3, 'month': 'April'}]}


def new_session(server):
    provider = Agent.Provider.new('openai')
    provider.set_base_url(server.url)
    provider.set_model('scripted')
    provider.set_max_retries(0)
    return Agent.Session.new(provider)


def is_view_of(part, whole):
    if isinstance(part, dict):
        return isinstance(whole, dict) and all(
            key in whole and is_view_of(value, whole[key]) for key, value in part.items())
    if isinstance(part, list):
        return (isinstance(whole, list) and len(part) <= len(whole) and
                all(a == b for a, b in zip(part[:-1], whole)) and
                (not part or is_view_of(part[-1], whole[len(part) - 1])))
    if isinstance(part, str):
        return isinstance(whole, str) and whole.startswith(part)
    return part == whole


def test_ask_for_object():
    with ScriptedServer(text_stream(*ANSWER)) as server:
        session = new_session(server)
        deltas = []
        built = [None]

        def object_delta(s, message, node, changes):
            # The changes build, in turn, the object each delta shows
            built[0] = Agent.apply_object_changes(built[0],
                                                  json.loads(Json.to_string(changes, False)))
            deltas.append(json.loads(Json.to_string(node, False)))
            check_equal(built[0], deltas[-1], 'the changes build the object')

        session.connect('object-delta', object_delta)
        result = session.ask_for_object('Which dates?', SCHEMA)
        request = server.requests[0]['body']

    check_equal(result, OBJECT, 'the object')
    check_equal(request['response_format']['json_schema']['schema'], SCHEMA, 'the schema sent')
    check(len(deltas) >= 3, 'object-delta came %d times' % len(deltas))
    check(all(is_view_of(delta, OBJECT) for delta in deltas), 'each delta grows into the object')
    check_equal(built[0], OBJECT, 'the changes build the whole object')


def test_node_and_property():
    with ScriptedServer(text_stream(*ANSWER)) as server:
        session = new_session(server)
        session.set_output_schema(json.dumps(SCHEMA))
        check(isinstance(session.get_output_schema(), Json.Node), 'the schema is a Json.Node')
        node = run_async(lambda callback: session.send_for_object_async('Which dates?', None,
                                                                        None, callback),
                         session.send_for_object_finish)
    check(isinstance(node, Json.Node), 'send_for_object_finish gives a Json.Node: %r' % node)
    check_equal(json.loads(Json.to_string(node, False)), OBJECT, 'the object')


def test_stream_events():
    with ScriptedServer(text_stream(*ANSWER)) as server:
        session = new_session(server)
        events = list(session.stream('Which dates?', schema=SCHEMA))
    types = [event['type'] for event in events]
    check('object-delta' in types, 'object-delta events: %r' % types)
    built = None
    for event in events:
        if event['type'] == 'object-delta':
            check(isinstance(event['changes'], list) and event['changes'], 'changes: %r' % event)
            built = Agent.apply_object_changes(built, event['changes'])
    check_equal(built, OBJECT, 'the changes build the object')
    deltas = [event['object'] for event in events if event['type'] == 'object-delta']
    check_equal(deltas[-1], OBJECT, "the object-delta's object, the object so far")
    check_equal(types[-2:], ['step-finished', 'done'], 'the end')
    objects = [event['object'] for event in events if event['type'] == 'object']
    check_equal(objects, [OBJECT], 'one object event')
    check_equal(json.loads(events[-1]['message']['content']), OBJECT, 'the answer is its JSON')


def test_mismatch_raises():
    with ScriptedServer(text_stream('{"dates": [{"day": "12", "month": "March"}]}')) as server:
        session = new_session(server)
        try:
            session.ask_for_object('Which dates?', SCHEMA)
        except GLib.Error as error:
            check_equal(Agent.error_get_code(error), 'schema', 'the code')
            check('$.dates[0].day: expected integer, got string' in error.message, error.message)
        else:
            check(False, 'the answer does not follow the schema')


def test_partial_reader():
    check_equal(Agent.parse_partial('{"name": "Ad'), {'name': 'Ad'}, 'an open string')
    check_equal(Agent.parse_partial('[1, 2'), [1], 'a number that may grow')
    check_equal(Agent.parse_partial(''), None, 'nothing yet')

    reader = Agent.PartialJson.new()
    revision = reader.get_revision()
    reader.feed('{"tags": ["a", "b')
    check(reader.get_revision() != revision, 'the revision changed')
    check_equal(reader.get_value_python(), {'tags': ['a', 'b']}, 'the value so far')
    check(isinstance(reader.get_value(), Json.Node), 'get_value is a Json.Node')
    reader.feed('"]}')
    check(reader.is_complete(), 'whole')
    check_equal(json.loads(Json.to_string(reader.finish(), False)), {'tags': ['a', 'b']}, 'finish')

    broken = Agent.PartialJson.new()
    try:
        broken.feed('{"a" 1}')
    except GLib.Error as error:
        check('byte 5' in error.message, error.message)
    else:
        check(False, 'invalid JSON')


def test_json_depth():
    check_equal(Agent.JSON_MAX_DEPTH, 512, 'the bound')
    node = Agent.json_parse('{"a": [1]}', -1)
    check_equal(json.loads(Json.to_string(node, False)), {'a': [1]}, 'parsed')
    try:
        Agent.json_parse('[' * 150000, -1)
    except GLib.Error as error:
        check(error.matches(Agent.error_quark(), Agent.Error.LIMIT), error.message)
        check('512' in error.message, error.message)
    else:
        check(False, 'nested too deeply')

    # The partial reader keeps the levels above the bound, and Python's
    # conversion takes them
    value = Agent.parse_partial('[' * 150000)
    depth = 0
    while isinstance(value, list):
        depth += 1
        value = value[0] if value else None
    check_equal(depth, 512, 'the levels kept')


def test_validate():
    schema = Agent.Tool.parse_parameters(json.dumps(SCHEMA))
    good = Json.from_string(json.dumps(OBJECT))
    bad = Json.from_string('{"dates": [{"day": 1}]}')
    check(Agent.json_schema_validate(schema, good), 'valid')
    check(Agent.json_schema_check(schema), 'usable')
    try:
        Agent.json_schema_check(Json.from_string('{"$ref": "#"}'))
    except GLib.Error as error:
        check_equal(error.message, 'The schema cannot be used (at #): the reference “#” goes round '
                    'in a circle', 'a circle')
    else:
        check(False, 'a circle')
    try:
        Agent.json_schema_validate(schema, bad)
    except GLib.Error as error:
        check_equal(error.message, '$.dates[0]: the member “month” is missing', 'the path')
    else:
        check(False, 'invalid')


if __name__ == '__main__':
    run_tests([
        test_ask_for_object,
        test_node_and_property,
        test_stream_events,
        test_mismatch_raises,
        test_partial_reader,
        test_json_depth,
        test_validate,
    ])
