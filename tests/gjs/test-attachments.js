// test-attachments.js — images and documents in messages, from JavaScript (GJS)
//
// A message built from text, an image and a document (GLib.Bytes), read
// back through the plain-text API and the parts; sent to a scripted server,
// which receives the image as a data URL; a tool written in JavaScript
// that returns an image with its result; a file read into a part
// asynchronously, within a limit.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import GLib from 'gi://GLib';
import Gio from 'gi://Gio';

import {
    check, checkEqual, runTests, skipUnlessIntrospection, textStream, toolCallStream, withServer,
} from './agenttest.js';

skipUnlessIntrospection();
let Agent = null;  // imported once we know the build has it

async function setup() {
    ({default: Agent} = await import('gi://Agent?version=1.0'));
    Gio._promisify(Agent.Session.prototype, 'send_async', 'send_finish');
    Gio._promisify(Agent.Session.prototype, 'send_message_async', 'send_message_finish');
    Gio._promisify(Agent.ContentPart, 'new_from_file_async', 'new_from_file_finish');
}

const encoder = new TextEncoder();
const PNG = new Uint8Array([0x89, ...encoder.encode('PNG\r\n\x1a\n'), 0, 0, 0, 13,
    ...encoder.encode('IHDR gjs image')]);
const PDF = encoder.encode('%PDF-1.4\n% gjs document\n');

function newSession(server, ...tools) {
    const provider = Agent.Provider.new('openai');
    provider.set_base_url(server.url);
    provider.set_model('scripted');
    provider.set_max_retries(0);
    const session = Agent.Session.new(provider);
    tools.forEach(tool => session.add_tool(tool));
    return session;
}

function question() {
    return Agent.Message.new_with_parts(Agent.MessageRole.USER, [
        Agent.ContentPart.new_text('What is wrong here?'),
        Agent.ContentPart.new_image('image/png', new GLib.Bytes(PNG)),
        Agent.ContentPart.new_file('application/pdf', new GLib.Bytes(PDF), 'report.pdf'),
    ]);
}

const pngDataUrl = () => `data:image/png;base64,${GLib.base64_encode(PNG)}`;

async function testMessageParts() {
    const message = question();
    checkEqual(message.get_content(), 'What is wrong here?', 'the text');
    checkEqual(message.get_n_attachments(), 2, 'the attachments');
    const parts = message.list_parts();
    const {TEXT, IMAGE, FILE} = Agent.ContentPartKind;
    checkEqual([0, 1, 2].map(i => parts.get_item(i).kind), [TEXT, IMAGE, FILE],
        'the kinds, in order');
    const image = parts.get_item(1);
    checkEqual(image.mime_type, 'image/png', 'the MIME type');
    checkEqual([...image.get_data().toArray()], [...PNG], 'the bytes');
    checkEqual(image.size, PNG.length, 'the size');
    checkEqual(parts.get_item(2).name, 'report.pdf', 'the name');
}

async function testSendMessage() {
    await withServer([textStream('A cat.')], async server => {
        const session = newSession(server);
        const answer = await session.send_message_async(question(), null);
        checkEqual(answer.get_content(), 'A cat.', 'the answer');
        const content = server.messages(0)[0].content;
        checkEqual(content[0], {type: 'text', text: 'What is wrong here?'}, 'the text');
        checkEqual(content[1].image_url.url, pngDataUrl(), 'the image');
        checkEqual(content[2].file.filename, 'report.pdf', 'the document');
    });
}

async function testStreamTakesAMessage() {
    const schema = {type: 'object', properties: {animal: {type: 'string'}}, required: ['animal']};
    await withServer([textStream('A ', 'cat.'), textStream('{"animal": "cat"}')], async server => {
        const session = newSession(server);
        const events = [];
        for await (const event of session.stream(question()))
            events.push(event);
        checkEqual(events.map(e => e.type), ['text-delta', 'text-delta', 'step-finished', 'done'],
            'the events');
        checkEqual(events[3].message.content, 'A cat.', 'the answer');
        checkEqual(server.messages(0)[0].content[1].image_url.url, pngDataUrl(), 'the image');

        const objects = [];
        for await (const event of session.stream(question(), null, {schema}))
            objects.push(event);
        checkEqual(objects.filter(e => e.type === 'object'),
            [{type: 'object', object: {animal: 'cat'}}], 'with a schema, the object');
        checkEqual(server.requests[1].body.response_format.json_schema.schema, schema,
            'the schema was asked for');
        checkEqual(session.get_output_schema(), null, 'for that turn only');
        checkEqual(server.messages(1).at(-1).content[1].image_url.url, pngDataUrl(), 'the image');

        try {
            for await (const event of session.stream(42))
                check(false, `an event: ${event}`);
            check(false, 'a number was sent');
        } catch (error) {
            checkEqual(error.message, 'stream() sends a string or an Agent.Message, not number',
                'the error');
        }
    });
}

async function testToolReturnsImage() {
    const screenshot = (_tool, invocation) => {
        invocation.add_attachment(Agent.ContentPart.new_image('image/png', new GLib.Bytes(PNG)));
        invocation.return_result('Took a screenshot.');
        return true;
    };
    const tool = Agent.Tool.new('screenshot', 'Takes a screenshot', null, screenshot);
    const responses = [toolCallStream(['call_1', 'screenshot', {}]), textStream('A dialog.')];

    await withServer(responses, async server => {
        const session = newSession(server, tool);
        const answer = await session.send_async('Look', null);
        checkEqual(answer.get_content(), 'A dialog.', 'the answer');
        const messages = server.messages(1);
        const after = messages[messages.length - 1];
        checkEqual(after.role, 'user', 'the image follows the results');
        checkEqual(after.content[1].image_url.url, pngDataUrl(), 'the image');
        check(!session.busy, 'the session is idle');
    });
}

async function testReadFile() {
    const directory = GLib.dir_make_tmp('test-attachments-XXXXXX');
    const path = GLib.build_filenamev([directory, 'shot.png']);
    GLib.file_set_contents(path, PNG);
    try {
        const part = await Agent.ContentPart.new_from_file_async(
            Gio.File.new_for_path(path), 0, null);
        checkEqual(part.get_kind(), Agent.ContentPartKind.IMAGE, 'an image');
        checkEqual(part.get_name(), 'shot.png', 'its name');
        checkEqual(part.get_data().get_size(), PNG.length, 'its bytes');

        let error = null;
        try {
            await Agent.ContentPart.new_from_file_async(Gio.File.new_for_path(path),
                PNG.length - 1, null);
        } catch (e) {
            error = e;
        }
        check(error !== null && error.matches(Agent.Error, Agent.Error.LIMIT),
            'over the limit: refused');
    } finally {
        GLib.unlink(path);
        GLib.rmdir(directory);
    }
}

runTests(setup, [
    testMessageParts,
    testSendMessage,
    testStreamTakesAMessage,
    testToolReturnsImage,
    testReadFile,
]);
