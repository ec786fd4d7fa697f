"""Two ways for a webhook worker to keep hundreds of deliveries in flight to slow receivers,
measured side by side on loopback, so that we choose by numbers:

  gevent   what we ship: Celery's gevent pool, each greenlet posting with urllib3 as
           webhooks.delivery.Sender does (here a new HTTPConnectionPool, so a new connection,
           per attempt; retries and redirects off; 5 s to connect, 15 s to answer), the pool's
           concurrency limit played by a gevent.pool.Pool;
  asyncio  an asyncio HTTP client inside a task: one httpx.AsyncClient, keep-alive off (a new
           connection per POST, as ours), asyncio.gather over the attempts, a semaphore as the
           limit.

A third row measures the asyncio client's throughput once more with httpcore's per-request failed
`import sniffio` cut short (see VARIANTS), to tell httpx's own cost from that defect's.

Both post the same ~400-byte JSON body, signed per attempt with the Standard Webhooks headers.
Each variant runs each part in a fresh process of its own (gevent patched before anything else
is imported; the asyncio one never patched), after 100 posts of warm-up:

  throughput  3,000 POSTs to a quick receiver, 50 in flight: deliveries/s, and the client's CPU
              seconds (getrusage user + sys) per 1,000 deliveries; three runs each, the median;
  hanging     500 POSTs at once to a receiver that accepts, reads and never answers (it drops
              each connection after 5 s), with a 3 s read timeout: the client's VmRSS growth
              while they are all in flight, and whether all 500 time out at ~3 s together;
  mixed       100 hanging POSTs beside 1,000 quick ones (50 at a time): the quick ones' p50 and
              p95 latency and when the last of them was done, which must not wait on the hanging.

Each receiver is an asyncio protocol in a process of its own, written for speed; the quick one
is first driven alone by wrk (connection per request), to show it takes far more than either
client sends it. Receivers exit when this process ends, however it ends.

    .venv/bin/python -m bench.clients        # about 70 s; writes bench/results/clients.txt
"""

from __future__ import annotations

import asyncio
import base64
import gc
import json
import os
import platform
import re
import resource
import stat
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from importlib.metadata import version
from pathlib import Path
from typing import NamedTuple

from standardwebhooks import Webhook

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
RESULTS = ROOT / "bench" / "results" / "clients.txt"

CONNECT_TIMEOUT, READ_TIMEOUT = 5.0, 15.0  # production's
HANGING_READ_TIMEOUT, HANGING_HOLD = 3.0, 5.0
THROUGHPUT_POSTS, THROUGHPUT_IN_FLIGHT, THROUGHPUT_RUNS = 3_000, 50, 3
HANGING_POSTS = 500
MIXED_HANGING, MIXED_QUICK, MIXED_IN_FLIGHT = 100, 1_000, 50
WARM_UP = 100
SAMPLE_SECONDS = 0.05  # how often the client's VmRSS is read while a part runs
DEADLINE_SECONDS = 115  # the whole run; a client process still running then is killed
BEGAN = time.monotonic()  # when this module was imported: in the parent, the run's start
RECEIVER_SECONDS = 150  # a receiver still running then exits by itself

SIGNING_KEY = "whsec_" + base64.b64encode(b"bench-clients-signing-key-32-by.").decode()
USER_AGENT = "petstore-webhooks/1"
BODY = json.dumps(
    {
        "type": "pet.created",
        "id": "evt_01JBENCHCLIENTS000000000000",
        "createdAt": "2025-01-01T00:00:00.000000Z",
        "data": {
            "id": 123456,
            "name": "Biscuit",
            "status": "available",
            "category": {"id": 7, "name": "Dogs"},
            "tags": ["friendly", "house-trained", "vaccinated"],
            "photoUrls": ["https://images.example.com/pets/123456/1.jpg"],
            "createdAt": "2025-01-01T00:00:00.000000Z",
            "updatedAt": "2025-01-01T00:00:00.000000Z",
        },
    }
).encode()

VARIANTS = {
    "gevent": "gevent pool + urllib3 (shipped)",
    "asyncio": "asyncio task + httpx.AsyncClient",
    # httpcore 1.0.9 tries `import sniffio` at every lock it sets up, and anyio no longer brings
    # sniffio, so each request pays for failed imports (encode/httpcore#1103, open). This row,
    # throughput only, shows httpx with that lookup cut short, as a fixed httpcore would be.
    "asyncio-fixed": "the same, httpcore's failed `import sniffio` cut short",
}
# Each client process starts with these lines: gevent patches before it imports anything else.
PRELUDE = {
    "gevent": "from gevent import monkey\nmonkey.patch_all()\n",
    "asyncio": "",
    "asyncio-fixed": "import sys\nsys.modules['sniffio'] = None  # fails at once, no path search\n",
}
MEASURED_IN_FULL = ("gevent", "asyncio")  # the others: one throughput run


# The receivers (each run as: python -m bench.clients --serve quick|hanging) -----------------

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
        [PYTHON, "-m", "bench.clients", "--serve", kind],
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


def receiver_alone(quick: Receiver) -> float:
    """The quick receiver's requests/s under wrk: 50 connections, a new one per request."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua") as script:
        script.write(
            'wrk.method = "POST"\n'
            f"wrk.body = {json.dumps(BODY.decode())}\n"
            'wrk.headers["Content-Type"] = "application/json"\n'
        )
        script.flush()
        out = subprocess.run(
            ["wrk", "-t1", "-c50", "-d3s", "-s", script.name, f"http://127.0.0.1:{quick.port}/"],
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        ).stdout
    found = re.search(r"Requests/sec:\s+([\d.]+)", out)
    if found is None or "Non-2xx" in out or "Socket errors" in out:
        raise SystemExit(f"wrk against the quick receiver:\n{out}")
    return float(found[1])


# The clients (each part run as: python -c PRELUDE + "bench.clients.client()" VARIANT ...) -----


class Job(NamedTuple):
    posts: int
    in_flight: int
    port: int
    read_timeout: float


class Outcome(NamedTuple):
    result: str  # the status, or the exception's class
    started: float  # seconds from the part's start
    ended: float


class Part(NamedTuple):
    outcomes: list[list[Outcome]]  # per job
    wall: float
    cpu: float  # this process's user + sys seconds over the part
    rss_before_kb: int
    rss_peak_kb: int


def rss_kb() -> int:
    found = re.search(r"VmRSS:\s+(\d+)", Path("/proc/self/status").read_text())
    assert found is not None
    return int(found[1])


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def signed_headers(port: int, number: int) -> dict[str, str]:
    event_id, now = f"evt_bench_{number}", datetime.now(UTC)
    return {
        "webhook-id": event_id,
        "webhook-timestamp": str(int(now.timestamp())),
        "webhook-signature": Webhook(SIGNING_KEY).sign(event_id, now, BODY.decode()),
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        "Host": f"127.0.0.1:{port}",
    }


def run_gevent(jobs: list[Job], warm_up: Job) -> Part:
    import gevent
    import gevent.pool
    import urllib3

    def post(job: Job, number: int, start: float) -> Outcome:
        started = time.monotonic() - start
        timeout = urllib3.Timeout(connect=CONNECT_TIMEOUT, read=job.read_timeout)
        pool = urllib3.HTTPConnectionPool("127.0.0.1", job.port, timeout=timeout, retries=False)
        headers = signed_headers(job.port, number)
        try:
            with pool:
                response = pool.urlopen(
                    "POST", "/hook", body=BODY, headers=headers, redirect=False, retries=False
                )
            result = str(response.status)
        except urllib3.exceptions.HTTPError as exc:
            result = type(exc).__name__
        return Outcome(result, started, time.monotonic() - start)

    def run(job: Job, start: float) -> list[Outcome]:
        return gevent.pool.Pool(job.in_flight).map(lambda n: post(job, n, start), range(job.posts))

    run(warm_up, time.monotonic())
    gc.collect()
    before, peak = rss_kb(), [0]

    def sample() -> None:
        while True:
            peak[0] = max(peak[0], rss_kb())
            gevent.sleep(SAMPLE_SECONDS)

    cpu, start = cpu_seconds(), time.monotonic()
    sampler = gevent.spawn(sample)
    runs = [gevent.spawn(run, job, start) for job in jobs]
    gevent.joinall(runs, raise_error=True)
    wall, cpu = time.monotonic() - start, cpu_seconds() - cpu
    sampler.kill()
    return Part([g.value for g in runs], wall, cpu, before, max(peak[0], rss_kb()))


def run_asyncio(jobs: list[Job], warm_up: Job) -> Part:
    import httpx

    async def main() -> Part:
        limits = httpx.Limits(max_connections=None, max_keepalive_connections=0)
        async with httpx.AsyncClient(limits=limits, follow_redirects=False) as client:

            async def post(job: Job, number: int, start: float) -> Outcome:
                started = time.monotonic() - start
                try:
                    response = await client.post(
                        f"http://127.0.0.1:{job.port}/hook",
                        content=BODY,
                        headers=signed_headers(job.port, number),
                        timeout=httpx.Timeout(job.read_timeout, connect=CONNECT_TIMEOUT),
                    )
                    result = str(response.status_code)
                except httpx.HTTPError as exc:
                    result = type(exc).__name__
                return Outcome(result, started, time.monotonic() - start)

            async def run(job: Job, start: float) -> list[Outcome]:
                gate = asyncio.Semaphore(job.in_flight)

                async def gated(number: int) -> Outcome:
                    async with gate:
                        return await post(job, number, start)

                return await asyncio.gather(*(gated(n) for n in range(job.posts)))

            await run(warm_up, time.monotonic())
            gc.collect()
            before, peak = rss_kb(), 0

            async def sample() -> None:
                nonlocal peak
                while True:
                    peak = max(peak, rss_kb())
                    await asyncio.sleep(SAMPLE_SECONDS)

            cpu, start = cpu_seconds(), time.monotonic()
            sampler = asyncio.create_task(sample())
            outcomes = await asyncio.gather(*(run(job, start) for job in jobs))
            wall, cpu = time.monotonic() - start, cpu_seconds() - cpu
            sampler.cancel()
            return Part(list(outcomes), wall, cpu, before, max(peak, rss_kb()))

    return asyncio.run(main())


def client() -> None:
    """One part for one variant, in this fresh process; prints the Part as JSON."""
    variant, part, quick, hanging = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    jobs = {
        "throughput": [Job(THROUGHPUT_POSTS, THROUGHPUT_IN_FLIGHT, quick, READ_TIMEOUT)],
        "hanging": [Job(HANGING_POSTS, HANGING_POSTS, hanging, HANGING_READ_TIMEOUT)],
        "mixed": [
            Job(MIXED_HANGING, MIXED_HANGING, hanging, HANGING_READ_TIMEOUT),
            Job(MIXED_QUICK, MIXED_IN_FLIGHT, quick, READ_TIMEOUT),
        ],
    }[part]
    warm_up = Job(WARM_UP, THROUGHPUT_IN_FLIGHT, quick, READ_TIMEOUT)
    if variant == "gevent":
        from gevent import monkey

        assert monkey.is_module_patched("socket"), "gevent must patch before other imports"
        result = run_gevent(jobs, warm_up)
    else:  # asyncio, asyncio-fixed
        assert "gevent" not in sys.modules, "the asyncio client must not be patched"
        result = run_asyncio(jobs, warm_up)
    print(json.dumps(result))


def in_child(variant: str, part: str, quick: Receiver, hanging: Receiver) -> Part:
    code = PRELUDE[variant] + "import bench.clients\nbench.clients.client()\n"
    command = [PYTHON, "-c", code, variant, part, str(quick.port), str(hanging.port)]
    left = DEADLINE_SECONDS - (time.monotonic() - BEGAN)
    try:
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=left)
    except subprocess.TimeoutExpired:
        raise SystemExit(f"{variant} {part}: stopped at the run's {DEADLINE_SECONDS} s") from None
    if done.returncode != 0:
        raise SystemExit(f"{variant} {part} failed:\n{done.stderr}")
    outcomes, *rest = json.loads(done.stdout.splitlines()[-1])
    return Part([[Outcome(*o) for o in job] for job in outcomes], *rest)


# The measurements and the table ------------------------------------------------------------


def results(outcomes: list[Outcome]) -> str:
    return ", ".join(f"{n} x {result}" for result, n in Counter(o.result for o in outcomes).items())


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def measure(variant: str, quick: Receiver, hanging: Receiver) -> dict[str, str]:
    runs = []
    for _ in range(THROUGHPUT_RUNS if variant in MEASURED_IN_FULL else 1):
        receiver_cpu = quick.cpu_seconds()
        part = in_child(variant, "throughput", quick, hanging)
        runs.append((part, quick.cpu_seconds() - receiver_cpu))
    runs.sort(key=lambda run: THROUGHPUT_POSTS / run[0].wall)
    part, receiver_cpu = runs[len(runs) // 2]
    rates = [THROUGHPUT_POSTS / p.wall for p, _ in runs]
    spread = f"median of {len(runs)}: {min(rates):,.0f}-{max(rates):,.0f}" if runs[1:] else "1 run"
    row = {
        "throughput": f"{THROUGHPUT_POSTS / part.wall:,.0f} deliveries/s ({spread})",
        "client CPU": f"{part.cpu / THROUGHPUT_POSTS * 1000:.2f} s per 1,000 deliveries"
        f" (runs: {', '.join(f'{p.cpu / THROUGHPUT_POSTS * 1000:.2f}' for p, _ in runs)})",
        "receiver busy": f"{receiver_cpu / part.wall:.0%} of a CPU meanwhile",
        "throughput results": results(part.outcomes[0]),
    }
    if variant not in MEASURED_IN_FULL:
        return row

    part = in_child(variant, "hanging", quick, hanging)
    attempts = part.outcomes[0]
    growth = part.rss_peak_kb - part.rss_before_kb
    row["hanging RSS"] = (
        f"+{growth / 1024:.1f} MB per {HANGING_POSTS} in flight ({growth / HANGING_POSTS:.1f} KB "
        f"each; {part.rss_before_kb / 1024:.1f} -> {part.rss_peak_kb / 1024:.1f} MB)"
    )
    row["hanging timing"] = (
        f"all done in {part.wall:.2f} s; each {min(o.ended - o.started for o in attempts):.2f}"
        f"-{max(o.ended - o.started for o in attempts):.2f} s; started within "
        f"{ms(max(o.started for o in attempts))}"
    )
    row["hanging results"] = results(attempts)

    part = in_child(variant, "mixed", quick, hanging)
    stuck, quick_ones = part.outcomes
    latencies = sorted(o.ended - o.started for o in quick_ones)
    row["mixed quick latency"] = (
        f"p50 {ms(statistics.median(latencies))}, "
        f"p95 {ms(statistics.quantiles(latencies, n=100)[94])}, max {ms(latencies[-1])}"
    )
    row["mixed wall"] = (
        f"quick all done at {max(o.ended for o in quick_ones):.2f} s, "
        f"everything at {part.wall:.2f} s"
    )
    row["mixed results"] = f"quick: {results(quick_ones)}; hanging: {results(stuck)}"
    return row


def main() -> None:
    if sys.argv[1:2] == ["--serve"]:
        asyncio.run(serve(sys.argv[2]))
        return
    with receiver("quick") as quick, receiver("hanging") as hanging:
        alone = receiver_alone(quick)
        rows = {variant: measure(variant, quick, hanging) for variant in VARIANTS}
    lines = [
        f"Webhook clients on loopback (bench/clients.py), {datetime.now(UTC):%Y-%m-%d %H:%M} UTC;"
        f" Python {platform.python_version()}, {os.cpu_count()} CPUs; gevent {version('gevent')},"
        f" urllib3 {version('urllib3')}, httpx {version('httpx')}",
        f"quick receiver alone (wrk, 50 connections, one per request): {alone:,.0f} requests/s",
        "",
    ]
    for variant, row in rows.items():
        lines.append(f"{variant}: {VARIANTS[variant]}")
        lines += [f"  {name:<20} {value}" for name, value in row.items()]
        lines.append("")
    lines.append(f"run took {time.monotonic() - BEGAN:.0f} s")
    table = "\n".join(lines)
    print(table)
    RESULTS.write_text(table + "\n")


if __name__ == "__main__":
    main()
