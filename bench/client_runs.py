"""The clients of the webhook clients' comparison (bench.clients). Each part runs in a fresh
process of its own, started by bench.clients as
`python -c PRELUDE + "bench.client_runs.client()" VARIANT PART QUICK_PORT HANGING_PORT`, and
prints what it saw as JSON.
"""

from __future__ import annotations

import asyncio
import base64
import gc
import json
import re
import resource
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import NamedTuple

from standardwebhooks import Webhook

CONNECT_TIMEOUT, READ_TIMEOUT = 5.0, 15.0  # production's
HANGING_READ_TIMEOUT = 3.0
THROUGHPUT_POSTS, THROUGHPUT_IN_FLIGHT = 3_000, 50
HANGING_POSTS = 500
MIXED_HANGING, MIXED_QUICK, MIXED_IN_FLIGHT = 100, 1_000, 50
WARM_UP = 100
SAMPLE_SECONDS = 0.05  # how often the client's VmRSS is read while a part runs

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
