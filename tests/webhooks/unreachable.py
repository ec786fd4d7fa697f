"""Loopback ports that give no answer: one nothing listens on (a connect is refused), and one
whose listener never accepts (a connect waits out its timeout)."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager

# How long the full listener lasts at most: a connect made without a timeout is then refused,
# and a test that waited for it fails instead of hanging.
FULL_SECONDS = 3.0


def closed_port() -> int:
    """A loopback port nothing listens on: taken, then given back."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def full_backlog() -> Iterator[int]:
    """A loopback port whose listener's queue of connections not yet accepted is full, so
    that Linux drops each new connection's SYN: a connect to it neither succeeds nor is
    refused until its timeout is up."""
    with socket.create_server(("127.0.0.1", 0), backlog=0) as listener:
        port = int(listener.getsockname()[1])
        # Backlog 0 holds one connection: this one, never accepted.
        waiting = socket.create_connection(("127.0.0.1", port), timeout=1)
        closing = threading.Timer(FULL_SECONDS, listener.close)
        closing.start()
        try:
            yield port
        finally:
            closing.cancel()
            waiting.close()
