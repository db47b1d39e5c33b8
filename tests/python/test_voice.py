#!/usr/bin/python3
# test_voice.py — Agent.Transcription and Agent.Speech from Python: the
# multipart upload and its text, a streamed transcript's ::delta, speech's
# ::chunk as the audio arrives and its whole bytes, an HTTP error's code;
# Agent.LocalVoice's WAV and voices (espeak-ng, when built with it).
#
# The server is a small OpenAI-compatible one in a thread (the shapes of
# OpenAI's API reference: /audio/transcriptions as multipart/form-data,
# answered with JSON or an SSE stream; /audio/speech answered chunked).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import email.parser
import email.policy
import http.server
import json
import threading

from agenttest import check, check_equal, run_async, run_tests, skip_unless_introspection

skip_unless_introspection()

import gi  # noqa: E402

gi.require_version('Agent', '1.0')
from gi.repository import Agent, GLib  # noqa: E402

AUDIO = b'RIFF\x00\x01\x02\xffWAVE\r\n--\x00'
received = []


def form_fields(content_type, body):
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        b'Content-Type: ' + content_type.encode() + b'\r\n\r\n' + body)
    fields = {}
    for part in message.iter_parts():
        fields[part.get_param('name', header='content-disposition')] = (
            part.get_filename(), part.get_content_type(), part.get_payload(decode=True))
    return fields


class Server(http.server.BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'

    def log_message(self, *args):
        pass

    def send_chunk(self, data):
        self.wfile.write(b'%x\r\n%s\r\n' % (len(data), data))
        self.wfile.flush()

    def do_POST(self):
        body = self.rfile.read(int(self.headers['Content-Length']))
        received.append((self.path, self.headers, body))
        if self.headers['Authorization'] != 'Bearer sk-python-voice':
            data = b'{"error": {"message": "Incorrect API key provided"}}'
            self.send_response(401)
            self.send_header('Content-Type', 'application/json')
            self.send_header('Content-Length', str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return
        self.send_response(200)
        self.send_header('Transfer-Encoding', 'chunked')
        self.send_header('Connection', 'close')
        if self.path == '/v1/audio/speech':
            self.send_header('Content-Type', 'audio/mpeg')
            self.end_headers()
            for piece in (b'ID3', b'\x00frames', b'-end'):
                self.send_chunk(piece)
        elif form_fields(self.headers['Content-Type'], body).get('stream'):
            self.send_header('Content-Type', 'text/event-stream')
            self.end_headers()
            for event in ({'type': 'transcript.text.delta', 'delta': 'Good '},
                          {'type': 'transcript.text.delta', 'delta': 'morning'},
                          {'type': 'transcript.text.done', 'text': 'Good morning.'}):
                self.send_chunk(b'data: ' + json.dumps(event).encode() + b'\n\n')
        else:
            self.send_header('Content-Type', 'application/json')
            self.end_headers()
            self.send_chunk(json.dumps({'text': 'Good morning.', 'language': 'english',
                                        'duration': 1.5}).encode())
        self.send_chunk(b'')


server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Server)
threading.Thread(target=server.serve_forever, daemon=True).start()
URL = 'http://127.0.0.1:%d/v1' % server.server_address[1]


def new_provider(key='sk-python-voice'):
    provider = Agent.Provider.new('openai')
    provider.set_base_url(URL)
    provider.set_api_key(key)
    return provider


def test_transcribe():
    received.clear()
    transcription = Agent.Transcription.new(new_provider())
    transcription.props.language = 'en'
    transcription.props.response_format = 'verbose_json'
    text = run_async(lambda cb: transcription.transcribe_async(GLib.Bytes.new(AUDIO), 'clip.wav',
                                                               None, cb),
                     transcription.transcribe_finish)
    check_equal(text, 'Good morning.')
    check_equal(transcription.props.detected_language, 'english')
    check_equal(transcription.props.duration, 1.5)
    path, headers, body = received[0]
    check_equal(path, '/v1/audio/transcriptions')
    fields = form_fields(headers['Content-Type'], body)
    check_equal(fields['file'], ('clip.wav', 'audio/wav', AUDIO))
    check_equal(fields['model'][2], b'whisper-1')
    check_equal(fields['language'][2], b'en')


def test_transcribe_stream():
    transcription = Agent.Transcription.new(new_provider())
    transcription.props.stream = True
    deltas = []
    transcription.connect('delta', lambda t, text: deltas.append(text))
    text = run_async(lambda cb: transcription.transcribe_async(GLib.Bytes.new(AUDIO), 'a.ogg',
                                                               None, cb),
                     transcription.transcribe_finish)
    check_equal(deltas, ['Good ', 'morning'])
    check_equal(text, 'Good morning.')


def test_speech():
    received.clear()
    speech = Agent.Speech.new(new_provider())
    speech.props.voice = 'nova'
    chunks = []
    speech.connect('chunk', lambda s, data: chunks.append(data.get_data()))
    audio = run_async(lambda cb: speech.synthesize_async('Good morning.', None, cb),
                      speech.synthesize_finish)
    check_equal(audio.get_data(), b'ID3\x00frames-end')
    check_equal(b''.join(chunks), b'ID3\x00frames-end')
    check(len(chunks) >= 2, 'the audio comes in pieces: %r' % chunks)
    check_equal(speech.props.content_type, 'audio/mpeg')
    request = json.loads(received[0][2])
    check_equal(request, {'model': 'tts-1', 'input': 'Good morning.', 'voice': 'nova'})


def test_errors():
    speech = Agent.Speech.new(new_provider('sk-wrong-key-0123456789'))
    error = run_async(lambda cb: speech.synthesize_async('Hello', None, cb),
                      speech.synthesize_finish)
    check(isinstance(error, GLib.Error), 'a refused key fails')
    check_equal(Agent.error_get_code(error), 'authentication')
    check_equal(Agent.error_get_http_status(error), 401)
    check('sk-wrong-key' not in error.message, error.message)

    transcription = Agent.Transcription.new(new_provider())
    error = run_async(lambda cb: transcription.transcribe_async(GLib.Bytes.new(AUDIO),
                                                                'notes.txt', None, cb),
                      transcription.transcribe_finish)
    check(isinstance(error, GLib.Error), 'a file that is not audio fails')
    check_equal(Agent.error_get_code(error), 'invalid-argument')
    check('notes.txt' in error.message, error.message)


def test_local_voice():
    voice = Agent.LocalVoice.new()
    if not Agent.LocalVoice.get_available():
        error = run_async(lambda cb: voice.synthesize_async('Hello', None, cb),
                          voice.synthesize_finish)
        check_equal(Agent.error_get_code(error), 'unsupported')
        return
    check('de' in Agent.LocalVoice.list_voices(), 'espeak-ng speaks German')
    voice.props.voice = 'en-us'
    wav = run_async(lambda cb: voice.synthesize_async('Good morning.', None, cb),
                    voice.synthesize_finish).get_data()
    check_equal(wav[:4], b'RIFF')
    check_equal(wav[8:16], b'WAVEfmt ')
    check(len(wav) > 1000, 'a WAV of %d bytes' % len(wav))


run_tests([test_transcribe, test_transcribe_stream, test_speech, test_errors, test_local_voice])
