#!/usr/bin/python3
# test_attachments.py — images and documents in messages, from Python
#
# A message built from text, an image and a document (GLib.Bytes), read
# back through the plain-text API and the parts; sent to a scripted server,
# which receives the image as a data URL; a tool written in Python that
# returns an image with its result; a file read into a part asynchronously
# (within a limit, and not a named pipe). A recording sent as input_audio,
# and refused where the API takes no audio.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import asyncio
import base64
import os
import shutil
import sys
import tempfile

from agenttest import (ScriptedServer, check, check_equal, run_async, run_tests,
                       skip_unless_introspection, text_stream, tool_call_stream)

skip_unless_introspection()

import gi  # noqa: E402

gi.require_version('Agent', '1.0')
from gi.repository import Agent, Gio, GLib  # noqa: E402

PNG = b'\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR python image'
PDF = b'%PDF-1.4\n% python document\n'


def new_session(server, *tools):
    provider = Agent.Provider.new('openai')
    provider.set_base_url(server.url)
    provider.set_model('scripted')
    provider.set_max_retries(0)
    session = Agent.Session.new(provider)
    for tool in tools:
        session.add_tool(tool)
    return session


def question():
    parts = [Agent.ContentPart.new_text('What is wrong here?'),
             Agent.ContentPart.new_image('image/png', GLib.Bytes.new(PNG)),
             Agent.ContentPart.new_file('application/pdf', GLib.Bytes.new(PDF), 'report.pdf')]
    return Agent.Message.new_with_parts(Agent.MessageRole.USER, parts)


def test_message_parts():
    message = question()
    check_equal(message.get_content(), 'What is wrong here?', 'the text')
    check_equal(message.get_n_attachments(), 2, 'the attachments')
    parts = message.list_parts()
    check_equal([part.get_kind() for part in parts],
                [Agent.ContentPartKind.TEXT, Agent.ContentPartKind.IMAGE,
                 Agent.ContentPartKind.FILE], 'the kinds, in order')
    image = parts[1]
    check_equal(image.get_mime_type(), 'image/png', 'the MIME type')
    check_equal(image.get_data().get_data(), PNG, 'the bytes')
    check_equal(image.props.size, len(PNG), 'the size')
    check_equal(parts[2].get_name(), 'report.pdf', 'the name')

    message.add_part(Agent.ContentPart.new_text('And this.'))
    check_equal(message.dup_content_items(), ['What is wrong here?', 'And this.'], 'the items')


def test_send_message():
    with ScriptedServer(text_stream('A cat.')) as server:
        session = new_session(server)
        answer = run_async(lambda callback: session.send_message_async(question(), None, callback),
                           session.send_message_finish)
        check_equal(answer.get_content(), 'A cat.', 'the answer')
        content = server.messages(0)[0]['content']
        check_equal(content[0], {'type': 'text', 'text': 'What is wrong here?'}, 'the text')
        check_equal(content[1]['image_url']['url'],
                    'data:image/png;base64,' + base64.b64encode(PNG).decode(), 'the image')
        check_equal(content[2]['file']['filename'], 'report.pdf', 'the document')


def test_audio_part():
    wav = b'RIFF\x24\x00\x00\x00WAVEfmt python recording'
    audio = Agent.ContentPart.new_audio('audio/x-wav', GLib.Bytes.new(wav))
    check_equal(audio.get_kind(), Agent.ContentPartKind.AUDIO, 'an audio part')
    message = Agent.Message.new_with_parts(
        Agent.MessageRole.USER, [Agent.ContentPart.new_text('What is said?'), audio])
    with ScriptedServer(text_stream('Hello.')) as server:
        session = new_session(server)
        run_async(lambda callback: session.send_message_async(message, None, callback),
                  session.send_message_finish)
        check_equal(server.messages(0)[0]['content'][1],
                    {'type': 'input_audio',
                     'input_audio': {'data': base64.b64encode(wav).decode(), 'format': 'wav'}},
                    'sent as input_audio')

    # Where the API takes no audio: refused, naming the provider, nothing sent
    with ScriptedServer() as server:
        provider = Agent.Provider.new('anthropic')
        provider.set_base_url(server.root_url)
        provider.set_model('scripted')
        session = Agent.Session.new(provider)
        error = run_async(lambda callback: session.send_message_async(message, None, callback),
                          session.send_message_finish)
        check(isinstance(error, GLib.Error), 'refused')
        check_equal(Agent.error_get_code(error), 'unsupported', 'the code')
        check('Anthropic' in error.message, error.message)
        check_equal(server.requests, [], 'nothing sent')


def test_stream_takes_a_message():
    image_url = 'data:image/png;base64,' + base64.b64encode(PNG).decode()
    with ScriptedServer(text_stream('A ', 'cat.'), text_stream('A cat.'),
                        text_stream('{"animal": "cat"}')) as server:
        session = new_session(server)
        events = list(session.stream(question()))
        check_equal([e['type'] for e in events],
                    ['text-delta', 'text-delta', 'step-finished', 'done'], 'the events')
        check_equal(events[-1]['message']['content'], 'A cat.', 'the answer')
        check_equal(server.messages(0)[0]['content'][1]['image_url']['url'], image_url,
                    'the image was sent')

        async def iterate():
            return [e async for e in session.stream_async(question())]
        events = asyncio.run(iterate())
        check_equal(events[-1]['type'], 'done', 'stream_async too')
        check_equal(server.messages(1)[-1]['content'][1]['image_url']['url'], image_url,
                    'the image was sent')

        schema = {'type': 'object', 'properties': {'animal': {'type': 'string'}},
                  'required': ['animal']}
        events = list(session.stream(question(), schema=schema))
        check_equal([e for e in events if e['type'] == 'object'],
                    [{'type': 'object', 'object': {'animal': 'cat'}}], 'with a schema, the object')
        check_equal(server.requests[2]['body']['response_format']['json_schema']['schema'],
                    schema, 'the schema was asked for')
        check_equal(session.get_output_schema(), None, 'for that turn only')
        check_equal(server.messages(2)[-1]['content'][1]['image_url']['url'], image_url,
                    'the image was sent')

    try:
        list(session.stream(42))
    except TypeError as error:
        check_equal(str(error), 'stream() sends a str or an Agent.Message, not int', 'the error')
    else:
        check(False, 'an int was sent')


def test_tool_returns_image():
    def screenshot(tool, invocation):
        invocation.add_attachment(Agent.ContentPart.new_image('image/png', GLib.Bytes.new(PNG)))
        invocation.return_result('Took a screenshot.')
        return True

    tool = Agent.Tool.new('screenshot', 'Takes a screenshot', None, screenshot)
    with ScriptedServer(tool_call_stream(('call_1', 'screenshot', {})),
                        text_stream('A dialog.')) as server:
        session = new_session(server, tool)
        answer = run_async(lambda callback: session.send_async('Look', None, callback),
                           session.send_finish)
        check_equal(answer.get_content(), 'A dialog.', 'the answer')
        after = server.messages(1)[-1]
        check_equal(after['role'], 'user', 'the image follows the results')
        check_equal(after['content'][1]['image_url']['url'],
                    'data:image/png;base64,' + base64.b64encode(PNG).decode(), 'the image')


def test_read_file():
    directory = tempfile.mkdtemp(prefix='test-attachments-')
    try:
        path = os.path.join(directory, 'shot.png')
        with open(path, 'wb') as f:
            f.write(PNG)
        image = Gio.File.new_for_path(path)
        part = run_async(lambda callback: Agent.ContentPart.new_from_file_async(
            image, 0, None, callback), Agent.ContentPart.new_from_file_finish)
        check_equal(part.get_kind(), Agent.ContentPartKind.IMAGE, 'an image')
        check_equal(part.get_name(), 'shot.png', 'its name')
        check_equal(part.get_data().get_data(), PNG, 'its bytes')

        # Over the limit: refused before it is read
        error = run_async(lambda callback: Agent.ContentPart.new_from_file_async(
            image, len(PNG) - 1, None, callback), Agent.ContentPart.new_from_file_finish)
        check_equal(isinstance(error, GLib.Error), True, 'an error')
        check_equal(error.matches(Agent.error_quark(), Agent.Error.LIMIT), True, 'a limit')

        # A named pipe: refused by its type, at once
        fifo = os.path.join(directory, 'pipe')
        os.mkfifo(fifo)
        error = run_async(lambda callback: Agent.ContentPart.new_from_file_async(
            Gio.File.new_for_path(fifo), 0, None, callback), Agent.ContentPart.new_from_file_finish)
        check_equal(error.matches(Gio.io_error_quark(), Gio.IOErrorEnum.NOT_REGULAR_FILE), True,
                    'not a regular file')
        check_equal('named pipe' in error.message, True, 'says what it is')
    finally:
        shutil.rmtree(directory)


if __name__ == '__main__':
    sys.exit(run_tests([
        test_message_parts,
        test_send_message,
        test_audio_part,
        test_stream_takes_a_message,
        test_tool_returns_image,
        test_read_file,
    ]))
