"""A receiver on loopback that answers, byte for byte, what a test tells it to: the answers no
HTTP server library would send (binary, malformed, cut short, trickled, never finished)."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field

# How long a held connection, or a request being read, is kept at most.
HOLD_SECONDS = 10


@dataclass(frozen=True)
class Answer:
    """What the receiver sends once it has read a request whole: ``parts`` one after another,
    ``pause`` seconds apart; then it closes the connection, or with ``hold`` keeps it open
    (until the receiver stops)."""

    parts: tuple[bytes, ...]
    pause: float = 0.0
    hold: bool = False

    @classmethod
    def whole(cls, raw: bytes) -> Answer:
        return cls((raw,))


@dataclass
class RawReceiver:
    listener: socket.socket
    answer: Answer = field(
        default=Answer((b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n",)), repr=False
    )
    requests: int = 0  # read whole, and answered
    stopped: threading.Event = field(default_factory=threading.Event)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.listener.getsockname()[1]}/hooks"

    def serve(self) -> None:
        while not self.stopped.is_set():
            try:
                connection, _ = self.listener.accept()
            except TimeoutError:
                continue
            except OSError:  # the listener closed: the receiver stopped
                return
            threading.Thread(target=self._answer, args=(connection,), daemon=True).start()

    def _answer(self, connection: socket.socket) -> None:
        answer = self.answer  # as the test set it when the request came
        with connection, suppress(OSError):
            connection.settimeout(HOLD_SECONDS)
            _read_request(connection)
            self.requests += 1
            for n, part in enumerate(answer.parts):
                if n and answer.pause:
                    self.stopped.wait(answer.pause)
                connection.sendall(part)
            if answer.hold:
                self.stopped.wait(HOLD_SECONDS)
            # Everything sent arrives before the end: the request was read whole, so closing
            # sends a FIN, not a reset that could overtake it.
            connection.shutdown(socket.SHUT_WR)


def _read_request(connection: socket.socket) -> None:
    """Up to the end of the request's body, as its Content-Length says."""
    received = b""
    while b"\r\n\r\n" not in received:
        chunk = connection.recv(65536)
        if not chunk:
            raise ConnectionError("the request ended before its headers")
        received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    while len(body) < length:
        chunk = connection.recv(65536)
        if not chunk:
            raise ConnectionError("the request ended before its body")
        body += chunk


@contextmanager
def raw_receiver() -> Iterator[RawReceiver]:
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.1)  # the loop looks at ``stopped`` this often
    receiver = RawReceiver(listener)
    thread = threading.Thread(target=receiver.serve, daemon=True)
    thread.start()
    try:
        yield receiver
    finally:
        receiver.stopped.set()
        thread.join(5)
        listener.close()
