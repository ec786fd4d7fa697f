"""Loopback helpers for tests that start servers of their own."""

from __future__ import annotations

import socket
import subprocess

from tests.waiting import wait_until


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def redis_server(port: int) -> subprocess.Popen[bytes]:
    """A Redis of the test's own on ``port``, keeping nothing on disk, once it accepts."""
    command = ["redis-server", "--port", str(port), "--bind", "127.0.0.1"]
    command += ["--save", "", "--appendonly", "no"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    try:
        wait_until(lambda: _accepts(port), "redis-server to accept connections")
    except AssertionError:
        process.kill()
        raise
    return process


def _accepts(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0
