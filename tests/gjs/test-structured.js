// test-structured.js — structured output from JavaScript: a schema as a
// plain object, the object as JavaScript values (ask_for_object, stream's
// object events), the object as a Json.Node, the partial reader.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import GLib from 'gi://GLib';
import Json from 'gi://Json';

import {
    check, checkEqual, runTests, skipUnlessIntrospection, textStream, withServer,
} from './agenttest.js';

skipUnlessIntrospection();
let Agent = null;

async function setup() {
    ({default: Agent} = await import('gi://Agent?version=1.0'));
}

const SCHEMA = {
    type: 'object', additionalProperties: false, required: ['dates'],
    properties: {
        dates: {
            type: 'array', items: {
                type: 'object', required: ['day', 'month'],
                properties: {day: {type: 'integer'}, month: {type: 'string'}},
            },
        },
    },
};
const ANSWER = ['{"dates": [{"da', 'y": 12, "mon', 'th": "Mar', 'ch"}, {"day": 3', ', "month": ',
    '"April"}]}'];
const OBJECT = {dates: [{day: 12, month: 'March'}, {day: 3, month: 'April'}]};

function newSession(server) {
    const provider = Agent.Provider.new('openai');
    provider.set_base_url(server.url);
    provider.set_model('scripted');
    provider.set_max_retries(0);
    return Agent.Session.new(provider);
}

function isViewOf(part, whole) {
    if (Array.isArray(part)) {
        return Array.isArray(whole) && part.length <= whole.length &&
            part.every((value, i) => i + 1 < part.length
                ? JSON.stringify(value) === JSON.stringify(whole[i]) : isViewOf(value, whole[i]));
    }
    if (part !== null && typeof part === 'object') {
        return whole !== null && typeof whole === 'object' &&
            Object.keys(part).every(key => key in whole && isViewOf(part[key], whole[key]));
    }
    if (typeof part === 'string')
        return typeof whole === 'string' && whole.startsWith(part);
    return part === whole;
}

async function testAskForObject() {
    await withServer([textStream(...ANSWER)], async server => {
        const session = newSession(server);
        const deltas = [];
        let built = null;
        session.connect('object-delta', (_s, _m, node, changes) => {
            // The changes build, in turn, the object each delta shows
            built = Agent.apply_object_changes(built, JSON.parse(Json.to_string(changes, false)));
            deltas.push(JSON.parse(Json.to_string(node, false)));
            checkEqual(built, deltas.at(-1), 'the changes build the object');
        });
        const object = await session.ask_for_object('Which dates?', SCHEMA);
        checkEqual(object, OBJECT, 'the object');
        check(deltas.length >= 3, `object-delta came ${deltas.length} times`);
        check(deltas.every(delta => isViewOf(delta, OBJECT)), 'each delta grows into the object');
        checkEqual(built, OBJECT, 'the changes build the whole object');
        checkEqual(server.requests[0].body.response_format.json_schema.schema, SCHEMA, 'sent');
    });
}

async function testStreamEvents() {
    await withServer([textStream(...ANSWER)], async server => {
        const session = newSession(server);
        const events = [];
        for await (const event of session.stream('Which dates?', null, {schema: SCHEMA}))
            events.push(event);
        const types = events.map(event => event.type);
        check(types.includes('object-delta'), `object-delta events: ${types}`);
        let built = null;
        for (const event of events.filter(e => e.type === 'object-delta')) {
            check(Array.isArray(event.changes) && event.changes.length > 0, 'changes');
            built = Agent.apply_object_changes(built, event.changes);
        }
        checkEqual(built, OBJECT, 'the changes build the object');
        checkEqual(events.filter(e => e.type === 'object-delta').at(-1).object, OBJECT,
            "the object-delta's object, the object so far");
        checkEqual(events.filter(e => e.type === 'object').map(e => e.object), [OBJECT], 'object');
        checkEqual(types.at(-1), 'done', 'the end');
    });
}

async function testMismatchRejects() {
    await withServer([textStream('{"dates": [{"day": "12", "month": "March"}]}')], async server => {
        const session = newSession(server);
        session.set_output_schema(SCHEMA);
        check(session.get_output_schema() instanceof Json.Node, 'the schema is a Json.Node');
        try {
            await session.ask_for_object('Which dates?');
            check(false, 'the answer does not follow the schema');
        } catch (error) {
            check(error instanceof GLib.Error, `a GLib.Error: ${error}`);
            checkEqual(Agent.error_get_code(error), 'schema', 'the code');
            check(error.message.includes('$.dates[0].day: expected integer, got string'),
                error.message);
        }
    });
}

function testPartialReader() {
    checkEqual(Agent.parse_partial('{"name": "Ad'), {name: 'Ad'}, 'an open string');
    checkEqual(Agent.parse_partial('[1, 2'), [1], 'a number that may grow');
    checkEqual(Agent.parse_partial(''), null, 'nothing yet');

    const reader = Agent.PartialJson.new();
    reader.feed('{"tags": ["a", "b');
    checkEqual(reader.get_value_object(), {tags: ['a', 'b']}, 'the value so far');
    reader.feed('"]}');
    check(reader.is_complete(), 'whole');
    checkEqual(JSON.parse(Json.to_string(reader.finish(), false)), {tags: ['a', 'b']}, 'finish');
}

function testJsonDepth() {
    checkEqual(Agent.JSON_MAX_DEPTH, 512, 'the bound');
    checkEqual(JSON.parse(Json.to_string(Agent.json_parse('{"a": [1]}', -1), false)), {a: [1]},
        'parsed');
    try {
        Agent.json_parse('['.repeat(150000), -1);
        check(false, 'nested too deeply');
    } catch (error) {
        check(error.matches(Agent.error_quark(), Agent.Error.LIMIT), `${error}`);
        check(error.message.includes('512'), error.message);
    }

    // The partial reader keeps the levels above the bound
    let value = Agent.parse_partial('['.repeat(150000));
    let depth = 0;
    for (; Array.isArray(value); depth++)
        value = value.length > 0 ? value[0] : null;
    checkEqual(depth, 512, 'the levels kept');
}

runTests(setup, [
    testAskForObject,
    testStreamEvents,
    testMismatchRejects,
    testPartialReader,
    testJsonDepth,
]);
