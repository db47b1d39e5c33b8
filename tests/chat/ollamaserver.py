# ollamaserver.py: a fake Ollama for agent-chat's end-to-end tests of its
# Models window, on 127.0.0.1, speaking Ollama's native API in the shapes of
# its docs/api.md: GET /api/tags (the models installed), POST /api/show (a
# model's details, model_info and capabilities), GET /api/ps (the models
# loaded, with expires_at), POST /api/pull (NDJSON progress: the manifest,
# several layers each with digest/total/completed, verifying, writing the
# manifest, success; an error line for an unknown name or a full disk),
# DELETE /api/delete, POST /api/generate with keep_alive 0 (an unload), and
# /api/chat (an answer in NDJSON) with each chat request kept.
#
# A pull of a model in @held waits after its first progress lines until the
# test releases it or the client goes away (a Cancel): the pull is then
# recorded in @cancelled and the model is not installed, as with Ollama.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import json
import threading
import time
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

GB = 1000 ** 3


def model_entry(name, size, family, parameters, quantization):
    return {"name": name, "model": name, "modified_at": "2026-11-30T10:04:12.43221+01:00",
            "size": size, "digest": "%064x" % abs(hash(name)),
            "details": {"parent_model": "", "format": "gguf", "family": family,
                        "families": [family], "parameter_size": parameters,
                        "quantization_level": quantization}}


# name: (entry, capabilities, context length)
CATALOGUE = {
    "llama3.2:latest": (model_entry("llama3.2:latest", 2019393189, "llama", "3.2B", "Q4_K_M"),
                        ["completion", "tools"], 131072),
    "llava:7b": (model_entry("llava:7b", 4733363377, "llama", "7B", "Q4_0"),
                 ["completion", "vision"], 32768),
    "qwen3:8b": (model_entry("qwen3:8b", 5225387923, "qwen3", "8.2B", "Q4_K_M"),
                 ["completion", "tools", "thinking"], 40960),
    "nomic-embed-text:latest": (model_entry("nomic-embed-text:latest", 274302450, "nomic-bert",
                                            "137M", "F16"), ["embedding"], 2048),
    "gemma3:1b": (model_entry("gemma3:1b", 815319791, "gemma3", "999.89M", "Q4_K_M"),
                  ["completion"], 32768),
    "phi4:14b": (model_entry("phi4:14b", 9053116391, "phi3", "14.7B", "Q4_K_M"),
                 ["completion"], 16384),
}


def full_name(name):
    return name if ":" in name else name + ":latest"


class OllamaServer:
    """The server; url is its base URL. @installed: the names installed at
    first; @running: those loaded."""

    def __init__(self, installed=("llama3.2:latest", "llava:7b", "qwen3:8b",
                                  "nomic-embed-text:latest"), running=("llama3.2:latest",)):
        self.installed = list(installed)
        self.running = list(running)
        self.held = set()
        self.releases = {}
        self.cancelled = []
        self.pulled = []
        self.deleted = []
        self.unloaded = []
        self.chats = []
        # Pulls of these names fail half-way with a full disk
        self.disk_full = set()
        # Seconds between two progress lines
        self.interval = 0.12
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def reply(self, body, status=200, content_type="application/json"):
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(data)))
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(data)

            def body(self):
                length = int(self.headers.get("Content-Length", "0"))
                try:
                    return json.loads(self.rfile.read(length) or b"{}")
                except ValueError:
                    return {}

            def do_GET(self):
                if self.path == "/api/tags":
                    self.reply({"models": [CATALOGUE[n][0] for n in server.installed]})
                elif self.path == "/api/ps":
                    expires = (datetime.now(timezone.utc) + timedelta(minutes=4, seconds=30))
                    models = []
                    for name in server.running:
                        entry = dict(CATALOGUE[name][0])
                        entry.pop("modified_at")
                        entry.update(expires_at=expires.isoformat(), size_vram=entry["size"])
                        models.append(entry)
                    self.reply({"models": models})
                elif self.path == "/api/version":
                    self.reply({"version": "0.12.3"})
                else:
                    self.reply({"error": "404 page not found"}, 404)

            def do_DELETE(self):
                body = self.body()
                name = full_name(body.get("model") or body.get("name") or "")
                if self.path != "/api/delete":
                    self.reply({"error": "404 page not found"}, 404)
                elif name not in server.installed:
                    self.reply({"error": "model '%s' not found" % name}, 404)
                else:
                    server.installed.remove(name)
                    if name in server.running:
                        server.running.remove(name)
                    server.deleted.append(name)
                    self.send_response(200)
                    self.send_header("Content-Length", "0")
                    self.send_header("Connection", "close")
                    self.end_headers()

            def do_POST(self):
                body = self.body()
                name = full_name(body.get("model") or body.get("name") or "")
                if self.path == "/api/show":
                    if name not in server.installed:
                        self.reply({"error": "model '%s' not found" % name}, 404)
                        return
                    entry, capabilities, context = CATALOGUE[name]
                    family = entry["details"]["family"]
                    self.reply({"modelfile": "FROM %s\n" % name, "parameters": "",
                                "template": "{{ .Prompt }}", "details": entry["details"],
                                "model_info": {"general.architecture": family,
                                               "general.parameter_count": 3212749888,
                                               family + ".context_length": context},
                                "capabilities": capabilities,
                                "modified_at": entry["modified_at"]})
                elif self.path == "/api/ps":
                    self.do_GET()
                elif self.path == "/api/pull":
                    self.pull(name)
                elif self.path == "/api/generate":
                    if body.get("keep_alive") in (0, "0", "0s") and not body.get("prompt"):
                        if name in server.running:
                            server.running.remove(name)
                        server.unloaded.append(name)
                        self.reply({"model": name, "created_at": datetime.now(
                            timezone.utc).isoformat(), "response": "", "done": True,
                            "done_reason": "unload"})
                    else:
                        self.reply({"error": "only unloads here"}, 400)
                elif self.path == "/api/chat":
                    server.chats.append(body)
                    if name not in server.running and name in server.installed:
                        server.running.append(name)
                    lines = [{"model": name, "message": {"role": "assistant", "content": "Fine."},
                              "done": False},
                             {"model": name, "message": {"role": "assistant", "content": ""},
                              "done": True, "done_reason": "stop", "prompt_eval_count": 12,
                              "eval_count": 2}]
                    data = "".join(json.dumps(line) + "\n" for line in lines).encode()
                    self.send_response(200)
                    self.send_header("Content-Type", "application/x-ndjson")
                    self.send_header("Content-Length", str(len(data)))
                    self.send_header("Connection", "close")
                    self.end_headers()
                    self.wfile.write(data)
                else:
                    self.reply({"error": "404 page not found"}, 404)

            def line(self, value):
                data = json.dumps(value).encode() + b"\n"
                self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
                self.wfile.flush()

            def pull(self, name):
                self.send_response(200)
                self.send_header("Content-Type", "application/x-ndjson")
                self.send_header("Transfer-Encoding", "chunked")
                self.send_header("Connection", "close")
                self.end_headers()
                try:
                    self.line({"status": "pulling manifest"})
                    if name not in CATALOGUE:
                        time.sleep(server.interval)
                        self.line({"error": "pull model manifest: file does not exist"})
                        self.wfile.write(b"0\r\n\r\n")
                        return
                    size = CATALOGUE[name][0]["size"]
                    layers = [("%064x" % (i + 7 * len(name)), part) for i, part in
                              enumerate((size - 11000, 7000, 4000))]
                    for index, (digest, total) in enumerate(layers):
                        steps = 10 if index == 0 else 2
                        for step in range(steps + 1):
                            completed = total * step // steps
                            self.line({"status": "pulling %s" % digest[:12],
                                       "digest": "sha256:" + digest, "total": total,
                                       "completed": completed})
                            time.sleep(server.interval)
                            if index == 0 and step == 3 and name in server.disk_full:
                                self.line({"error": "write /root/.ollama/models/blobs/sha256-%s"
                                                    "-partial: no space left on device"
                                                    % digest})
                                self.wfile.write(b"0\r\n\r\n")
                                return
                            if index == 0 and step == 2 and name in server.held:
                                # Held: progress lines with nothing new until released, or
                                # until the client is gone
                                release = server.releases.setdefault(name, threading.Event())
                                while not release.wait(0.2):
                                    self.line({"status": "pulling %s" % digest[:12],
                                               "digest": "sha256:" + digest, "total": total,
                                               "completed": completed})
                    for status in ("verifying sha256 digest", "writing manifest", "success"):
                        if status == "success":
                            if name not in server.installed:
                                server.installed.append(name)
                            server.pulled.append(name)
                        self.line({"status": status})
                        time.sleep(server.interval)
                    self.wfile.write(b"0\r\n\r\n")
                    self.wfile.flush()
                except (BrokenPipeError, ConnectionResetError):
                    server.cancelled.append(name)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = "http://127.0.0.1:%d" % self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def hold(self, name):
        """Pulls of @name wait after their first lines until release(@name)."""
        self.held.add(full_name(name))

    def release(self, name):
        self.releases.setdefault(full_name(name), threading.Event()).set()

    def close(self):
        for release in self.releases.values():
            release.set()
        self.httpd.shutdown()
        self.httpd.server_close()
