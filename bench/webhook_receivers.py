"""The loopback receivers of `make bench`'s webhooks phase (bench.webhooks), in one process of
their own: the quick one answers 200 at once and records each arrival; the hanging one accepts,
records and never answers. Receivers starts them as
`python -m bench.webhook_receivers --receive ARRIVALS.tsv`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import re
import shutil
import subprocess
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import NamedTuple

from bench.environment import PYTHON, ROOT

QUICK_PORT, HANGING_PORT = 8811, 8812
# Long enough for a delivery whose lease (60 s) ran out to be sent again: a stall shows as a
# late figure, not as a missing one.
DEADLINE_SECONDS = 150


class Arrival(NamedTuple):
    kind: str  # quick or hanging
    at: float  # time.time() when its body had arrived
    path: str  # which endpoint
    event_id: str  # webhook-id
    created_at: float  # the event's createdAt (0 for the receiver's own check)
    signatures: int  # how many its webhook-signature carries (two while a rotation overlaps)


async def _receive(log_path: str) -> None:
    log = open(log_path, "a", buffering=1)  # noqa: SIM115  # one line per arrival, kept open

    async def request(reader: asyncio.StreamReader) -> tuple[str, str, bytes, int]:
        head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        headers = dict(line.split(":", 1) for line in head[1:] if ":" in line)
        headers = {name.strip().lower(): value.strip() for name, value in headers.items()}
        body = await reader.readexactly(int(headers.get("content-length", "0")))
        signatures = len(headers.get("webhook-signature", "").split())
        return head[0].split(" ")[1], headers.get("webhook-id", ""), body, signatures

    async def quick(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        # As HTTP/1.1 servers do, the connection stays open for the client's next request.
        with contextlib.suppress(asyncio.IncompleteReadError, ConnectionError, IndexError):
            while True:
                path, event_id, body, signatures = await request(reader)
                at = time.time()
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
                created = json.loads(body).get("createdAt", "") if body else ""
                log.write(f"quick\t{at}\t{path}\t{event_id}\t{created}\t{signatures}\n")
                await writer.drain()
        writer.close()

    async def hanging(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(asyncio.IncompleteReadError, ConnectionError, IndexError):
            path, event_id, _, signatures = await request(reader)
            log.write(f"hanging\t{time.time()}\t{path}\t{event_id}\t\t{signatures}\n")
            while await reader.read(65536):  # never answers; until the worker gives up
                pass
        writer.close()

    for handler, port in ((quick, QUICK_PORT), (hanging, HANGING_PORT)):
        await asyncio.start_server(handler, "127.0.0.1", port, backlog=4096, reuse_address=True)
    print("ready", flush=True)
    await asyncio.Event().wait()


class Receivers:
    """The quick and the hanging receiver, in one process of their own."""

    def __init__(self, work: Path) -> None:
        self.log = work / f"arrivals-{time.monotonic_ns()}.tsv"
        self.log.touch()
        self.process = subprocess.Popen(
            [PYTHON, "-m", "bench.webhook_receivers", "--receive", str(self.log)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
        )
        assert self.process.stdout is not None
        if self.process.stdout.readline().strip() != b"ready":
            self.stop()
            raise SystemExit("the receivers did not start")

    def url(self, kind: str, name: str) -> str:
        return f"http://127.0.0.1:{QUICK_PORT if kind == 'quick' else HANGING_PORT}/{name}"

    def arrivals(self, kind: str = "quick") -> list[Arrival]:
        found = []
        for line in self.log.read_text().splitlines():
            fields = line.split("\t")
            if len(fields) == 6 and fields[0] == kind and fields[5]:  # a line written whole
                created = datetime.fromisoformat(fields[4]).timestamp() if fields[4] else 0.0
                arrival = Arrival(
                    kind, float(fields[1]), fields[2], fields[3], created, int(fields[5])
                )
                found.append(arrival)
        return found

    def wait_for(
        self, count: int, since: float, seconds: float = DEADLINE_SECONDS
    ) -> list[Arrival]:
        """The quick arrivals from ``since`` on, once ``count`` distinct deliveries have
        arrived, or at the deadline (fewer: the caller reports how many)."""
        deadline = time.monotonic() + seconds
        while True:
            got = [a for a in self.arrivals() if a.at >= since]
            if len({(a.path, a.event_id) for a in got}) >= count or time.monotonic() > deadline:
                return got
            time.sleep(0.1)

    def stop(self) -> None:
        self.process.kill()
        self.process.wait(timeout=10)


def receiver_alone() -> dict[str, float]:
    """The quick receiver driven by wrk as the workers drive it (a run's requests one after
    another on a connection kept open):
    what it takes, far above what the workers are asked for, or it would be the bottleneck."""
    work = Path(tempfile.mkdtemp(prefix="petstore-webhooks-"))
    receivers = Receivers(work)
    script = work / "post.lua"
    script.write_text(
        'wrk.method = "POST"\n'
        'wrk.body = \'{"id": "evt_bench", "createdAt": "2025-01-01T00:00:00Z"}\'\n'
        'wrk.headers["Content-Type"] = "application/json"\n'
        'wrk.headers["webhook-id"] = "evt_bench"\n'
    )
    try:
        out = subprocess.run(
            ["wrk", "-t2", "-c10", "-d3s", "-s", str(script), receivers.url("quick", "alone")],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    finally:
        receivers.stop()
        shutil.rmtree(work)
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out)[1])  # type: ignore[index]
    return {"requests_per_second": round(rate), "connections": 10}


if __name__ == "__main__":
    # The receivers' process (Receivers).
    parser = argparse.ArgumentParser()
    parser.add_argument("--receive", required=True)
    asyncio.run(_receive(parser.parse_args().receive))
