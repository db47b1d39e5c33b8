#!/usr/bin/python3
# test-gui-voice-e2e.py: dictation in the real agent-chat. The microphone
# is a WAV file that espeak-ng spoke (agent-cli --speak --local-voice; a
# test tone when it cannot), played in real time through
# $AGENT_CHAT_AUDIO_SOURCE; the transcription server is a loopback HTTP
# server speaking OpenAI's /v1/audio/transcriptions. The microphone button
# is clicked (xdotool, where the accessibility tree says it is): the
# recording indicator shows with its time, a second click stops, the
# server gets a WAV file, and the transcript lands in the message field,
# not sent. Escape cancels a recording and nothing reaches the server.
# Held down, the button records until it is released.
# With Send at Once, the transcript goes to the model server as the message.
# Without a transcription server the button says why it cannot be used.
# At 360 px in the dark style (a screenshot while recording). Under
# dbus-run-session and xvfb-run.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import json
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pyatspi

# This folder's helpers, and agenttestgui.py, shared with tests/gtk
sys.path[:0] = [os.path.dirname(os.path.abspath(__file__)),
                os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'gui-common')]
from agenttestgui import (App, FocusTracker, all_nodes, click_at, find_node,  # noqa: E402
                          point_at, run_test, screenshot, showing, state, tap, text_of, walking,
                          xdotool)
from scriptedserver import ScriptedServer  # noqa: E402

N_TESTS = 12

TRANSCRIPT = "Write a haiku about the sea"


class TranscriptionServer:
    """OpenAI's /v1/audio/transcriptions on 127.0.0.1: keeps each request's
    body and answers {"text": TRANSCRIPT}."""

    def __init__(self):
        self.bodies = []
        self.paths = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_POST(self):
                length = int(self.headers.get("Content-Length", "0"))
                server.paths.append(self.path)
                server.bodies.append(self.rfile.read(length))
                body = json.dumps({"text": TRANSCRIPT}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(body)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = "http://127.0.0.1:%d/v1" % self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def microphone(home):
    """The GStreamer source the app records from: a spoken WAV file, in
    real time."""
    wav = os.path.join(home, "spoken.wav")
    made = subprocess.run([os.environ["AGENT_CLI"], "--speak", TRANSCRIPT, "--local-voice",
                           "-o", wav], capture_output=True)
    if made.returncode == 0 and os.path.getsize(wav) > 44:
        return "filesrc location=%s ! wavparse ! identity sync=true" % wav
    print("# no local voice: a test tone is the microphone", flush=True)
    return "audiotestsrc num-buffers=400 is-live=true"


def mic_button(app):
    """The microphone's toggle button (named Dictate, or Stop Recording; a
    push button to GTK 4.8's AT-SPI bridge)."""
    roles = (pyatspi.ROLE_TOGGLE_BUTTON, pyatspi.ROLE_PUSH_BUTTON)
    return walking(lambda: next((n for n in all_nodes(app) if n.getRole() in roles and
                                 n.name in ("Dictate", "Stop Recording")), None))


def recording_indicator(app):
    """The indicator's status ("Recording, 0:02") when it shows."""
    return walking(lambda: next((n.name for n in all_nodes(app)
                                 if (n.name or "").startswith("Recording, ") and showing(n)),
                                None))


def message_field(app):
    return find_node(app, "Message", pyatspi.ROLE_TEXT)


def main(home):
    chat_server = ScriptedServer()
    server = TranscriptionServer()
    focus = FocusTracker()
    source = microphone(home)
    chat = App(home, chat_server.url, "scripted",
               "window-width=360\nwindow-height=700\ntranscription-base-url='%s'\n" % server.url)
    chat.env["ADW_DEBUG_COLOR_SCHEME"] = "prefer-dark"
    chat.env["AGENT_CHAT_AUDIO_SOURCE"] = source
    try:
        app = chat.start()
        if app is None:
            tap(False, "the app starts")
            return
        button = focus.wait(lambda: mic_button(app), 20)
        tap(button is not None and button.name == "Dictate" and
            state(button, pyatspi.STATE_SENSITIVE) and showing(button),
            "the microphone button shows beside Send, sensitive")

        # Click: recording, with its level and time
        click_at(button)
        status = focus.wait(lambda: recording_indicator(app), 10)
        button = mic_button(app)
        tap(status is not None and button is not None and button.name == "Stop Recording" and
            (state(button, pyatspi.STATE_CHECKED) or state(button, pyatspi.STATE_PRESSED)),
            "a click records: the indicator shows (%s), the button is Stop Recording" % status)
        later = focus.wait(lambda: (recording_indicator(app) or "").endswith(("0:02", "0:03")),
                           10)
        screenshot("voice-recording-360-dark")
        tap(later, "the indicator's time goes on")

        # Stop: the WAV goes to the server, the transcript to the message field
        click_at(mic_button(app))
        got = focus.wait(lambda: TRANSCRIPT in (text_of(message_field(app)) or ""), 20)
        tap(got, "the transcript lands in the message field")
        body = server.bodies[0] if server.bodies else b""
        tap(len(server.bodies) == 1 and server.paths[0] == "/v1/audio/transcriptions" and
            b"RIFF" in body and b"WAVEfmt " in body and b'name="model"' in body and
            b"whisper-1" in body and len(body) > 32000,
            "the server got a WAV of the recording (%d bytes) and the model" % len(body))
        tap(not chat_server.requests, "the message waits to be read over: nothing was sent")
        tap(not showing(find_node(app, "Stop Recording")) and recording_indicator(app) is None,
            "the recording indicator is gone")

        # Escape cancels: nothing reaches the server, the field keeps its text
        click_at(mic_button(app))
        status = focus.wait(lambda: recording_indicator(app), 10)
        xdotool("key", "Escape")
        back = focus.wait(lambda: (mic_button(app) is not None and
                                   mic_button(app).name == "Dictate" and
                                   recording_indicator(app) is None), 10)
        focus.pump(1.0)
        tap(status is not None and back and len(server.bodies) == 1,
            "Escape cancels the recording; nothing is sent to the server")
        tap((text_of(message_field(app)) or "").strip() == TRANSCRIPT,
            "the message field keeps what it held")

        # Press and hold: it records while held, and the release stops it
        point_at(mic_button(app))
        xdotool("mousedown", "1")
        try:
            held = focus.wait(lambda: (recording_indicator(app) or "").endswith(("0:02", "0:03")),
                              15)
        finally:
            xdotool("mouseup", "1")
        twice = "%s %s" % (TRANSCRIPT, TRANSCRIPT)
        got = focus.wait(lambda: (text_of(message_field(app)) or "").strip() == twice, 20)
        tap(held and got and len(server.bodies) == 2,
            "held down it records, the release stops it: the transcript follows the text "
            "(%r, %r, %d)" % (held, text_of(message_field(app)), len(server.bodies)))
        chat.quit()

        # Send at Once: the transcript is the message the model server gets
        with open(chat.keyfile, "a") as keyfile:
            keyfile.write("dictation-send-at-once=true\n")
        chat_server.add_text("Waves fold into foam.")
        app = chat.start()
        button = focus.wait(lambda: mic_button(app), 20) if app is not None else None
        if button is not None:
            click_at(button)
            focus.wait(lambda: recording_indicator(app), 10)
            focus.wait(lambda: (recording_indicator(app) or "").endswith(("0:02", "0:03")), 10)
            click_at(mic_button(app))
        sent = focus.wait(lambda: chat_server.requests, 30)
        question = sent[0]["messages"][-1]["content"] if sent and sent[0] else None
        tap(question == TRANSCRIPT, "with Send at Once the transcript is sent (%r)" % question)
        chat.quit()

        # No transcription server: insensitive, and the tooltip says why
        with open(chat.keyfile, "w") as keyfile:
            keyfile.write("[io/github/libagent/Chat]\nprovider='openai'\nbase-url='%s'\n"
                          "model='scripted'\n" % chat_server.url)
        app = chat.start()
        button = focus.wait(lambda: mic_button(app), 20) if app is not None else None
        tap(button is not None and not state(button, pyatspi.STATE_SENSITIVE) and
            "transcription server" in (button.description or ""),
            "without a transcription server the button is insensitive and says why (%r)" %
            (button.description if button is not None else None))
    finally:
        chat.kill()
        server.close()
        chat_server.close()


run_test("test-gui-voice-", N_TESTS, main)
