"""What tests/clients/test_sdks.py made for this suite on the running service it started, and a
proxy that loses an answer."""

from __future__ import annotations

import json
import os
import re
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import pytest


@pytest.fixture(scope="session")
def fixtures() -> dict[str, Any]:
    path = os.environ.get("PETSTORE_SDK_FIXTURES")
    if not path:
        pytest.fail(
            "PETSTORE_SDK_FIXTURES is not set: these tests run against a running service, from "
            "tests/clients/test_sdks.py in the project's suite (make test)."
        )
    with open(path) as file:
        made = json.load(file)
    return {"baseUrl": made["baseUrl"], "webhook": made["webhook"], **made["python"]}


@dataclass
class Proxy:
    url: str
    connections: int = 0


@pytest.fixture
def losing_first_answer(fixtures: dict[str, Any]) -> Iterator[Proxy]:
    """A TCP proxy to the service that loses the first answer: it forwards the first
    connection's request, reads the service's whole answer, then closes the connection without
    sending it. Every later connection passes both ways."""
    target = urlsplit(fixtures["baseUrl"])
    listener = socket.create_server(("127.0.0.1", 0))
    proxy = Proxy(f"http://127.0.0.1:{listener.getsockname()[1]}{target.path}")

    def serve() -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            proxy.connections += 1
            upstream = socket.create_connection((target.hostname, target.port), timeout=30)
            threading.Thread(target=pipe, args=(client, upstream), daemon=True).start()
            if proxy.connections == 1:
                threading.Thread(target=lose, args=(upstream, client), daemon=True).start()
            else:
                threading.Thread(target=pipe, args=(upstream, client), daemon=True).start()

    threading.Thread(target=serve, daemon=True).start()
    yield proxy
    listener.close()


def pipe(source: socket.socket, sink: socket.socket) -> None:
    try:
        while chunk := source.recv(65536):
            sink.sendall(chunk)
    except OSError:
        pass
    finally:
        sink.close()


def lose(upstream: socket.socket, client: socket.socket) -> None:
    answer = b""
    while not whole(answer) and (chunk := upstream.recv(65536)):
        answer += chunk
    # shutdown, not only close: the other thread's recv on it would hold the connection open.
    client.shutdown(socket.SHUT_RDWR)
    client.close()
    upstream.close()


def whole(answer: bytes) -> bool:
    head, found, body = answer.partition(b"\r\n\r\n")
    if not found:
        return False
    length = re.search(rb"(?im)^content-length:\s*(\d+)", head)
    return len(body) >= int(length[1] if length else 0)
