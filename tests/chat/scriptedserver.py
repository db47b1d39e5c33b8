# scriptedserver.py: an OpenAI-compatible chat server for agent-chat's
# end-to-end tests, on 127.0.0.1, answering each request to
# /v1/chat/completions with the next scripted response: streamed text (as
# Server-Sent Events, chunked, one event a chunk), a tool call, an HTTP
# error, or a stream whose connection drops half-way. A response can hold
# before its first byte, or after its first events, until the test releases
# it. /v1/embeddings answers with vectors of word counts (embed()).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import json
import queue
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Response:
    def __init__(self, status=200, events=(), body=None, headers=None, drop=False, hold=False,
                 pause_after=None, interval=0):
        self.status = status
        self.pause_after = pause_after
        # Seconds between two events: an answer that takes its time
        self.interval = interval
        self.events = list(events)
        self.body = body
        self.headers = headers or {}
        self.drop = drop
        self.released = threading.Event()
        if not hold:
            self.released.set()

    def release(self):
        self.released.set()


def text_events(text, words=True, usage=None, model=None):
    """The events of a streamed answer: @text a word (or a line) a chunk;
    @usage (prompt, completion tokens) at the end, as OpenAI reports it;
    @model, the model each chunk names."""
    events = [{"choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}}]}]
    pieces = text.split(" ") if words else [text]
    for i, piece in enumerate(pieces):
        content = piece + (" " if words and i < len(pieces) - 1 else "")
        events.append({"choices": [{"index": 0, "delta": {"content": content}}]})
    events.append({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
    if usage is not None:
        events.append({"choices": [], "usage": {"prompt_tokens": usage[0],
                                                "completion_tokens": usage[1],
                                                "total_tokens": usage[0] + usage[1]}})
    if model is not None:
        for event in events:
            event["model"] = model
    return events


def tool_events(name, arguments, call_id="call_1"):
    header = {"index": 0, "id": call_id, "type": "function",
              "function": {"name": name, "arguments": ""}}
    events = [{"choices": [{"index": 0, "delta": {"role": "assistant", "content": None,
                                                  "tool_calls": [header]}}]}]
    for i in range(0, len(arguments), 5):
        events.append({"choices": [{"index": 0, "delta": {"tool_calls": [
            {"index": 0, "function": {"arguments": arguments[i:i + 5]}}]}}]})
    events.append({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]})
    return events


class ScriptedServer:
    """The server; url is its base URL (…/v1)."""

    def __init__(self):
        self.responses = queue.Queue()
        self.requests = []
        # What GET /v1/models lists, and the context windows it states
        # ({model: tokens}, as "context_length")
        self.models = ["scripted"]
        self.context_windows = {}
        # The embeddings: a vector of how often each word of the
        # vocabulary comes in a text (and 0.01 for the rest, never all 0)
        self.vocabulary = []
        self.embedding_requests = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                data = [dict({"id": model, "object": "model"},
                             **({"context_length": server.context_windows[model]}
                                if model in server.context_windows else {}))
                        for model in server.models]
                body = json.dumps({"object": "list", "data": data}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(body)

            def do_POST(self):
                length = int(self.headers.get("Content-Length", "0"))
                request = self.rfile.read(length)
                if self.path.endswith("/embeddings"):
                    self.embeddings(json.loads(request))
                    return
                try:
                    server.requests.append(json.loads(request))
                except ValueError:
                    server.requests.append(None)
                try:
                    response = server.responses.get_nowait()
                except queue.Empty:
                    response = Response(500, body={"error": {"message": "No response scripted"}})
                if response.pause_after is None:
                    response.released.wait(120)
                if response.body is not None:
                    body = json.dumps(response.body).encode()
                    self.send_response(response.status)
                    for name, value in response.headers.items():
                        self.send_header(name, value)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    self.send_header("Connection", "close")
                    self.end_headers()
                    self.wfile.write(body)
                    return
                self.send_response(response.status)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Transfer-Encoding", "chunked")
                self.send_header("Connection", "close")
                self.end_headers()
                events = response.events
                if response.drop:
                    events = events[:max(1, len(events) // 2)]
                for i, event in enumerate(events):
                    if i == response.pause_after:
                        response.released.wait(120)
                    if response.interval and i > 0:
                        time.sleep(response.interval)
                    self.chunk(b"data: " + json.dumps(event).encode() + b"\n\n")
                if response.drop:
                    # Half a chunk, then the connection goes
                    self.wfile.write(b"40\r\ndata: {\"choi")
                    self.wfile.flush()
                    self.close_connection = True
                    return
                self.chunk(b"data: [DONE]\n\n")
                self.wfile.write(b"0\r\n\r\n")
                self.wfile.flush()

            def embeddings(self, request):
                """POST /v1/embeddings: each text's word counts over
                server.vocabulary, kept in server.embedding_requests."""
                server.embedding_requests.append(request)
                texts = request.get("input", [])
                texts = [texts] if isinstance(texts, str) else texts
                data = [{"object": "embedding", "index": i, "embedding": server.embed(text)}
                        for i, text in enumerate(texts)]
                body = json.dumps({"object": "list", "data": data,
                                   "model": request.get("model")}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(body)

            def chunk(self, data):
                self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
                self.wfile.flush()

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = "http://127.0.0.1:%d/v1" % self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def embed(self, text):
        words = [word.strip(".,;:!?#*()\"'").lower() for word in text.split()]
        return [float(sum(1 for w in words if w.startswith(v))) for v in self.vocabulary] + [0.01]

    def add(self, response):
        self.responses.put(response)
        return response

    def add_text(self, text, hold=False, words=True, usage=None, pause_after=None):
        """With @pause_after, the stream stops after that many events until
        released."""
        return self.add(Response(events=text_events(text, words, usage),
                                 hold=hold or pause_after is not None, pause_after=pause_after))

    def add_tool_call(self, name, arguments, hold=False, pause_after=None):
        """With @pause_after, the stream stops after that many events (the
        call started) until released."""
        return self.add(Response(events=tool_events(name, arguments), hold=hold or
                                 pause_after is not None, pause_after=pause_after))

    def add_error(self, status, message, headers=None, hold=False):
        return self.add(Response(status, body={"error": {"message": message}}, headers=headers,
                                 hold=hold))

    def add_drop(self, text):
        return self.add(Response(events=text_events(text), drop=True))

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()
