// test-voice.js — Agent.Transcription and Agent.Speech from JavaScript (GJS)
//
// Against a loopback OpenAI-compatible server in this process (Soup.Server
// on 127.0.0.1): the multipart upload of a transcription and its text and
// language; a streamed transcript's ::delta signals; speech's ::chunk
// signals as the audio arrives, and its whole bytes; a refused key's
// error, without the key. Then a recording as a content part: sent to
// the chat completions as input_audio.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import GLib from 'gi://GLib';
import Gio from 'gi://Gio';
import Soup from 'gi://Soup?version=3.0';

import {
    check, checkEqual, runTests, skipUnlessIntrospection, textStream, withServer,
} from './agenttest.js';

skipUnlessIntrospection();
let Agent = null;

const KEY = 'sk-gjs-voice-0123456789';
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const AUDIO = new Uint8Array([...encoder.encode('RIFF'), 0, 1, 2, 0xff,
    ...encoder.encode('WAVE\r\n--'), 0]);

async function setup() {
    ({default: Agent} = await import('gi://Agent?version=1.0'));
    Gio._promisify(Agent.Transcription.prototype, 'transcribe_async', 'transcribe_finish');
    Gio._promisify(Agent.Speech.prototype, 'synthesize_async', 'synthesize_finish');
    Gio._promisify(Agent.Session.prototype, 'send_message_async', 'send_message_finish');
}

/** The fields of a multipart/form-data body: name → [filename, type, bytes] */
function formFields(headers, body) {
    const multipart = Soup.Multipart.new_from_message(headers, body);
    const fields = {};
    for (let i = 0; i < multipart.get_length(); i++) {
        const [, partHeaders, partBody] = multipart.get_part(i);
        const [, , params] = partHeaders.get_content_disposition();
        const [type] = partHeaders.get_content_type();
        fields[params.name] = [params.filename ?? null, type, partBody.get_data()];
    }
    return fields;
}

/** The audio endpoints of an OpenAI-compatible server, answering in pieces */
class VoiceServer {
    constructor() {
        this.requests = [];
        this._server = new Soup.Server();
        this._server.add_handler('/v1/audio/transcriptions',
            (_server, message) => this._transcribe(message));
        this._server.add_handler('/v1/audio/speech',
            (_server, message) => this._speak(message));
        this._server.listen_local(0, Soup.ServerListenOptions.IPV4_ONLY);
        this.url = `${this._server.get_uris()[0].to_string().replace(/\/$/, '')}/v1`;
    }

    _authorized(message) {
        const headers = message.get_request_headers();
        this.requests.push({
            path: message.get_uri().get_path(),
            headers,
            body: message.get_request_body().flatten(),
        });
        if (headers.get_one('Authorization') === `Bearer ${KEY}`)
            return true;
        message.set_status(401, null);
        message.set_response('application/json', Soup.MemoryUse.COPY,
            encoder.encode(JSON.stringify({error: {message: 'Incorrect API key provided'}})));
        return false;
    }

    _write(message, type, pieces) {
        message.set_status(200, null);
        message.get_response_headers().set_content_type(type, null);
        message.get_response_headers().set_encoding(Soup.Encoding.CHUNKED);
        const body = message.get_response_body();
        pieces.forEach(piece => body.append_bytes(new GLib.Bytes(piece)));
        body.complete();
    }

    _transcribe(message) {
        if (!this._authorized(message))
            return;
        const {headers, body} = this.requests[this.requests.length - 1];
        if (formFields(headers, body).stream) {
            const events = [
                {type: 'transcript.text.delta', delta: 'Good '},
                {type: 'transcript.text.delta', delta: 'morning'},
                {type: 'transcript.text.done', text: 'Good morning.'},
            ];
            this._write(message, 'text/event-stream',
                events.map(event => encoder.encode(`data: ${JSON.stringify(event)}\n\n`)));
        } else {
            const answer = {text: 'Good morning.', language: 'english', duration: 1.5};
            this._write(message, 'application/json', [encoder.encode(JSON.stringify(answer))]);
        }
    }

    _speak(message) {
        if (!this._authorized(message))
            return;
        this._write(message, 'audio/mpeg',
            [encoder.encode('ID3'), new Uint8Array([0, 1, 2]), encoder.encode('-end')]);
    }

    close() {
        this._server.disconnect();
    }
}

async function withVoiceServer(body) {
    const server = new VoiceServer();
    try {
        return await body(server);
    } finally {
        server.close();
    }
}

function newProvider(server, key = KEY) {
    const provider = Agent.Provider.new('openai');
    provider.set_base_url(server.url);
    provider.set_api_key(key);
    provider.set_max_retries(0);
    return provider;
}

async function testTranscribe() {
    await withVoiceServer(async server => {
        const transcription = Agent.Transcription.new(newProvider(server));
        transcription.language = 'en';
        transcription.response_format = 'verbose_json';
        const text = await transcription.transcribe_async(new GLib.Bytes(AUDIO), 'clip.wav', null);
        checkEqual(text, 'Good morning.', 'the text');
        checkEqual(transcription.detected_language, 'english', 'the language heard');
        checkEqual(transcription.duration, 1.5, 'the duration');
        const [request] = server.requests;
        checkEqual(request.path, '/v1/audio/transcriptions', 'the endpoint');
        const fields = formFields(request.headers, request.body);
        checkEqual(fields.file[0], 'clip.wav', 'the file name');
        checkEqual(fields.file[1], 'audio/wav', 'the file type');
        checkEqual([...fields.file[2]], [...AUDIO], 'the bytes, whole');
        checkEqual(decoder.decode(fields.model[2]), 'whisper-1', 'the model');
        checkEqual(decoder.decode(fields.language[2]), 'en', 'the language');
    });
}

async function testTranscribeStream() {
    await withVoiceServer(async server => {
        const transcription = Agent.Transcription.new(newProvider(server));
        transcription.stream = true;
        const deltas = [];
        transcription.connect('delta', (_transcription, text) => deltas.push(text));
        const text = await transcription.transcribe_async(new GLib.Bytes(AUDIO), 'a.ogg', null);
        checkEqual(deltas, ['Good ', 'morning'], 'the pieces, as they came');
        checkEqual(text, 'Good morning.', 'the whole text');
        checkEqual(transcription.text, 'Good morning.', 'the text property');
    });
}

async function testSpeech() {
    await withVoiceServer(async server => {
        const speech = Agent.Speech.new(newProvider(server));
        speech.voice = 'nova';
        const chunks = [];
        speech.connect('chunk', (_speech, bytes) => chunks.push(...bytes.get_data()));
        const audio = await speech.synthesize_async('Good morning.', null);
        const expected = [...encoder.encode('ID3'), 0, 1, 2, ...encoder.encode('-end')];
        checkEqual([...audio.get_data()], expected, 'the audio');
        checkEqual(chunks, expected, 'the chunks make the audio');
        checkEqual(speech.content_type, 'audio/mpeg', 'its type');
        const request = JSON.parse(decoder.decode(server.requests[0].body.get_data()));
        checkEqual(request, {model: 'tts-1', input: 'Good morning.', voice: 'nova'}, 'the request');
    });
}

async function testErrors() {
    await withVoiceServer(async server => {
        const speech = Agent.Speech.new(newProvider(server, 'sk-wrong-key-0123456789'));
        let error = null;
        try {
            await speech.synthesize_async('Hello', null);
        } catch (e) {
            error = e;
        }
        check(error instanceof GLib.Error, `a GLib.Error, not ${error}`);
        checkEqual(Agent.error_get_code(error), 'authentication', 'the code');
        checkEqual(Agent.error_get_http_status(error), 401, 'the status');
        check(!error.message.includes('sk-wrong-key'), `the key is not shown: ${error.message}`);
    });
}

async function testAudioPart() {
    await withServer([textStream('Good morning.')], async server => {
        const provider = Agent.Provider.new('openai');
        provider.set_base_url(server.url);
        provider.set_model('scripted');
        const session = Agent.Session.new(provider);
        const part = Agent.ContentPart.new_audio('audio/wav', new GLib.Bytes(AUDIO));
        checkEqual(part.kind, Agent.ContentPartKind.AUDIO, 'an audio part');
        const message = Agent.Message.new_with_parts(Agent.MessageRole.USER,
            [Agent.ContentPart.new_text('What is said?'), part]);
        await session.send_message_async(message, null);
        const [, audio] = server.messages(0)[0].content;
        checkEqual([audio.type, audio.input_audio],
            ['input_audio', {data: GLib.base64_encode(AUDIO), format: 'wav'}],
            'sent as input_audio');
    });
}

runTests(setup, [testTranscribe, testTranscribeStream, testSpeech, testErrors, testAudioPart]);
