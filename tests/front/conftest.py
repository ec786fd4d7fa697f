"""nginx in front of gunicorn (deploy/), on loopback, sharing the test database and Redis.

Every client here is bounded: a timeout on each socket, a fixed number of connections and
requests, loopback only.
"""

from __future__ import annotations

import json
import re
import shutil
import socket
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from deploy.serve import Front, start_front
from tests.network import free_port
from tests.reliability.conftest import server_env

# The set-up: two sync workers, the fewest a slow-client attack needs to block.
WORKERS = 2


def launch_front() -> Front:
    """nginx + gunicorn as deploy/serve.py runs them, every log a file in the run directory."""
    run_dir = Path(tempfile.mkdtemp(prefix="petstore-front-"))
    env = {**server_env(), "REQUEST_LOG": "1"}
    return start_front(env=env, listen=f"127.0.0.1:{free_port()}", run_dir=run_dir, workers=WORKERS)


def stop_front(front: Front) -> None:
    front.stop(timeout=40)
    shutil.rmtree(front.run_dir, ignore_errors=True)


@pytest.fixture(scope="session")
def front(django_db_setup: None, django_db_blocker) -> Iterator[Front]:
    with django_db_blocker.unblock():
        started = launch_front()
    yield started
    stop_front(started)


@pytest.fixture
def own_front(django_db_setup: None, django_db_blocker) -> Iterator[Front]:
    """A front of its own, for tests that reload or stop it."""
    with django_db_blocker.unblock():
        started = launch_front()
    yield started
    stop_front(started)


@dataclass
class RawReply:
    status: int
    headers: dict[str, str]  # names lowercased
    body: bytes

    def json(self) -> dict[str, Any]:
        loaded = json.loads(self.body)
        assert isinstance(loaded, dict)
        return loaded


def port_of(front: Front) -> int:
    return int(front.url.rsplit(":", 1)[1])


def connect(front: Front, timeout: float = 10) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port_of(front)), timeout=timeout)


def read_reply(sock: socket.socket) -> RawReply | None:
    """One response from ``sock``, or None when the server closed without answering."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            if not data:
                return None
            raise AssertionError(f"connection closed inside a response: {data!r}")
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ")[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    if "content-length" in headers:
        length = int(headers["content-length"])
        while len(body) < length:
            chunk = sock.recv(65536)
            if not chunk:
                break
            body += chunk
        body = body[:length]
    elif headers.get("transfer-encoding") == "chunked":
        while not body.endswith(b"0\r\n\r\n"):
            chunk = sock.recv(65536)
            if not chunk:
                break
            body += chunk
        body = _unchunk(body)
    return RawReply(status, headers, body)


def _unchunk(data: bytes) -> bytes:
    out = b""
    while True:
        size_line, _, data = data.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            return out
        out, data = out + data[:size], data[size + 2 :]


def send_raw(
    front: Front, data: bytes, *, close_write: bool = False, timeout: float = 10
) -> RawReply | None:
    """Send ``data`` as is on a new connection and read one response."""
    with connect(front, timeout) as sock:
        sock.sendall(data)
        if close_write:
            sock.shutdown(socket.SHUT_WR)
        return read_reply(sock)


def assert_front_error(reply: RawReply | None, status: int, code: str) -> None:
    """An Error body as the contract has it, with our headers."""
    assert reply is not None, "the connection was closed without an answer"
    assert reply.status == status, (reply.status, reply.body)
    assert reply.headers["content-type"] == "application/json", reply.headers
    assert reply.headers["x-content-type-options"] == "nosniff"
    assert re.fullmatch(r"[A-Za-z0-9._-]{1,128}", reply.headers["x-request-id"])
    body = reply.json()
    assert set(body) == {"code", "message", "status"}, body
    assert body["code"] == code
    assert body["status"] == status
    assert isinstance(body["message"], str)
    assert body["message"]
