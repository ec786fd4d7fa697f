"""The loopback receivers of the webhook clients' comparison (bench.clients): each an asyncio
protocol in a process of its own, written for speed. The quick one answers 200 and closes; the
hanging one reads and never answers. Each exits when its parent ends, however it ends.

    python -m bench.client_receivers quick|hanging    # prints the port it listens on
"""

from __future__ import annotations

import asyncio
import os
import re
import stat
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable

HANGING_HOLD = 5.0  # longer than a hanging post's read timeout (bench.client_runs)
RECEIVER_SECONDS = 150  # a receiver still running then exits by itself

ANSWER = b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
LENGTH = re.compile(rb"\r\ncontent-length:\s*(\d+)", re.IGNORECASE)


class Quick(asyncio.Protocol):
    """Reads the request head and its Content-Length body, answers 200, closes."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        self.buffer = b""

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        end = self.buffer.find(b"\r\n\r\n")
        if end < 0:
            return
        length = LENGTH.search(self.buffer, 0, end + 2)
        if len(self.buffer) < end + 4 + (int(length[1]) if length else 0):
            return
        self.transport.write(ANSWER)
        self.transport.close()


class Hanging(asyncio.Protocol):
    """Accepts and reads, never answers; drops the connection after HANGING_HOLD seconds."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        asyncio.get_running_loop().call_later(HANGING_HOLD, transport.close)

    def data_received(self, data: bytes) -> None:
        pass


async def serve(kind: str) -> None:
    loop = asyncio.get_running_loop()
    protocol = Quick if kind == "quick" else Hanging
    server = await loop.create_server(protocol, "127.0.0.1", 0, backlog=2048)
    print(server.sockets[0].getsockname()[1], flush=True)  # the port, for the parent
    parent_gone: asyncio.Future[None] = loop.create_future()

    class Parent(asyncio.Protocol):  # our stdin is the parent's pipe: closed when it ends
        def connection_lost(self, exc: Exception | None) -> None:
            if not parent_gone.done():
                parent_gone.set_result(None)

    if stat.S_ISFIFO(os.fstat(sys.stdin.fileno()).st_mode):
        await loop.connect_read_pipe(Parent, sys.stdin)
    await asyncio.wait_for(parent_gone, RECEIVER_SECONDS)


class Receiver(NamedTuple):
    pid: int
    port: int

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextmanager
def receiver(kind: str) -> Iterator[Receiver]:
    process = subprocess.Popen(
        [PYTHON, "-m", "bench.client_receivers", kind],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    try:
        assert process.stdout is not None
        yield Receiver(process.pid, int(process.stdout.readline()))
    finally:
        process.kill()
        process.communicate(timeout=10)


if __name__ == "__main__":
    asyncio.run(serve(sys.argv[1]))
