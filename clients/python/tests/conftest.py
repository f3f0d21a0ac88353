"""A tiny real HTTP server that plays scripted answers, for the retry loop's tests."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest


@dataclass
class Script:
    """Answers in order (the last one repeats); each is (status, JSON body) or "drop"."""

    answers: list[Any] = field(default_factory=list)
    bodies: list[bytes] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)
    start: int = 0

    def play(self, *answers: Any) -> None:
        """From the next request on, answer these."""
        self.answers = list(answers)
        self.start = len(self.bodies)

    def next_answer(self) -> Any:
        return self.answers[min(len(self.bodies) - 1 - self.start, len(self.answers) - 1)]

    @property
    def requests(self) -> list[dict[str, Any]]:
        """The requests since the last ``play``."""
        return [json.loads(body) for body in self.bodies[self.start :]]


@dataclass
class FakeApi:
    url: str
    script: Script


@pytest.fixture
def fake_api() -> Iterator[FakeApi]:
    script = Script()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("content-length", "0"))
            script.bodies.append(self.rfile.read(length))
            script.headers.append({k.lower(): v for k, v in self.headers.items()})
            answer = script.next_answer()
            if answer == "drop":
                self.close_connection = True
                self.connection.close()
                return
            status, payload, *extra = answer
            text = json.dumps(payload).encode() if not isinstance(payload, bytes) else payload
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(text)))
            for name, value in (extra[0] if extra else {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(text)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield FakeApi(f"http://127.0.0.1:{server.server_port}", script)
    finally:
        server.shutdown()
        server.server_close()
