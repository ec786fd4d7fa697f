"""`make bench`'s webhooks phase: the workers as deployed (deploy.workers: Celery's gevent pool of
500 greenlets, a pool of database connections, the beat beside them; the production timeouts,
15 s for an answer and 5 s to connect) delivering to loopback receivers, each part on freshly
emptied events, deliveries and endpoints:

  throughput  400 ``pet.created`` events, inserted by SQL in one transaction, for 5 accounts'
              endpoints on one quick receiver: 2,000 deliveries, per second from the events'
              creation to the last arrival; and the workers' memory after them;
  isolation   100 events over 5 s (20 a second), each event's time to arrive at 5 quick
              endpoints beside 1, then 100, endpoints whose receiver accepts and never answers:
              a partner that hangs must hold up no other;
  fan-out     fan_out() of one event to 10,000 endpoints, in this process through Django; and a
              pass over 500 events beside 10 and beside 10,000 endpoints that do not list their
              type, which the GIN index on the endpoints' types must leave unread.

The quick receiver (asyncio, in a process of its own) answers 200 at once and records each
arrival; it is measured alone first, so that it is seen not to be what limits the workers.

Alone:  python -m bench.run --only webhooks
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any, NamedTuple
from unittest import mock

import psycopg

from bench.run import DATABASE_URL, PYTHON, ROOT, SERVER_ENV, SERVER_PYTHON

QUICK_PORT, HANGING_PORT = 8811, 8812
QUICK_ENDPOINTS = 5
THROUGHPUT_EVENTS = 400
LATENCY_EVENTS, LATENCY_PER_SECOND = 100, 20
FAN_OUT_ACCOUNTS, FAN_OUT_PER_ACCOUNT = 1_000, 10  # 10,000 endpoints, the API's most per account
PASSES = 7
# Long enough for a delivery whose lease (60 s) ran out to be sent again: a stall shows as a
# late figure, not as a missing one.
DEADLINE_SECONDS = 150
WORKER_ENV = {**SERVER_ENV, "PETSTORE_WEBHOOK_ALLOW_PRIVATE": "1"}  # the receivers are loopback


# The receivers ------------------------------------------------------------------------------


class Arrival(NamedTuple):
    kind: str  # quick or hanging
    at: float  # time.time() when its body had arrived
    path: str  # which endpoint
    event_id: str  # webhook-id
    created_at: float  # the event's createdAt (0 for the receiver's own check)


async def _receive(log_path: str) -> None:
    log = open(log_path, "a", buffering=1)  # noqa: SIM115  # one line per arrival, kept open

    async def request(reader: asyncio.StreamReader) -> tuple[str, str, bytes]:
        head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        headers = dict(line.split(":", 1) for line in head[1:] if ":" in line)
        headers = {name.strip().lower(): value.strip() for name, value in headers.items()}
        body = await reader.readexactly(int(headers.get("content-length", "0")))
        return head[0].split(" ")[1], headers.get("webhook-id", ""), body

    async def quick(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        # As HTTP/1.1 servers do, the connection stays open for the client's next request.
        with contextlib.suppress(asyncio.IncompleteReadError, ConnectionError, IndexError):
            while True:
                path, event_id, body = await request(reader)
                at = time.time()
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
                created = json.loads(body).get("createdAt", "") if body else ""
                log.write(f"quick\t{at}\t{path}\t{event_id}\t{created}\n")
                await writer.drain()
        writer.close()

    async def hanging(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(asyncio.IncompleteReadError, ConnectionError, IndexError):
            path, event_id, _ = await request(reader)
            log.write(f"hanging\t{time.time()}\t{path}\t{event_id}\t\n")
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
            [PYTHON, "-m", "bench.webhooks", "--receive", str(self.log)],
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
            if len(fields) == 5 and fields[0] == kind:  # a line being written is not yet whole
                created = datetime.fromisoformat(fields[4]).timestamp() if fields[4] else 0.0
                found.append(Arrival(kind, float(fields[1]), fields[2], fields[3], created))
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


# The database -------------------------------------------------------------------------------


def empty() -> None:
    """No event, delivery or endpoint. Ids go on from where they were: a task the broker still
    holds from an earlier part then names no delivery of this one."""
    with psycopg.connect(DATABASE_URL, autocommit=True) as db:
        db.execute("TRUNCATE webhooks_delivery, webhooks_endpoint, events_event")


def add_accounts(count: int) -> list[int]:
    with psycopg.connect(DATABASE_URL, autocommit=True) as db:
        rows = db.execute(
            "INSERT INTO apikeys_account (name, email, plan_id, created_at) "
            "SELECT 'Webhooks bench ' || g, '', (SELECT id FROM apikeys_plan "
            "WHERE code = 'enterprise'), now() FROM generate_series(1, %s) AS g RETURNING id",
            [count],
        ).fetchall()
    return [row[0] for row in rows]


def add_endpoints(accounts: list[int], per_account: int, url: str, types: list[str]) -> None:
    """``per_account`` endpoints on each account, at ``url`` and the account's id and number
    (so that each endpoint's deliveries can be told apart), listing ``types``; made a minute
    ago, before any event of the run."""
    with psycopg.connect(DATABASE_URL, autocommit=True) as db:
        db.execute(
            "INSERT INTO webhooks_endpoint (account_id, url, events, secret, enabled, "
            "disabled_reason, created_at, failures) "
            "SELECT a, %s || a || '/' || n, %s::jsonb, "
            "'whsec_' || encode(sha256((a || '/' || n)::bytea), 'base64'), true, '', "
            "now() - interval '1 minute', 0 "
            "FROM unnest(%s::bigint[]) AS a, generate_series(1, %s) AS n",
            [url.rstrip("/") + "/", json.dumps(types), accounts, per_account],
        )
        db.execute("ANALYZE webhooks_endpoint")


# As the service writes a new animal's (pets.services), by one INSERT … SELECT.
INSERT_EVENTS = (
    "INSERT INTO events_event (uid, type, data, created_at, fanned_out) "
    "SELECT 'evt_' || substr(md5(random()::text || g), 1, 26), %s, "
    "jsonb_build_object('id', g, 'name', 'Pet ' || g, 'categoryId', 1, 'status', 'available', "
    "'createdAt', now()), now(), false FROM generate_series(1, %s) AS g"
)


def add_events(count: int, kind: str = "pet.created") -> None:
    with psycopg.connect(DATABASE_URL, autocommit=True) as db:
        db.execute(INSERT_EVENTS, [kind, count])


# The workers --------------------------------------------------------------------------------


@contextlib.contextmanager
def workers(receivers: Receivers, work: Path) -> Iterator[subprocess.Popen[bytes]]:
    """The workers and their beat as deploy.workers starts them, from the production
    environment as the servers are; started, and one delivery made, before anything is timed."""
    from deploy.workers import start_workers, stop_workers
    from petstore.celery import app

    app.control.purge()  # tasks an earlier run left in the broker
    # start_workers runs the interpreter it runs in: here, production's.
    with mock.patch.object(sys, "executable", SERVER_PYTHON):
        process = start_workers({**os.environ, **WORKER_ENV}, work)
    try:
        deadline = time.monotonic() + 60
        while not app.control.ping(timeout=0.5):
            if time.monotonic() > deadline:
                raise SystemExit("no Celery worker answered within 60 s")
        # A type no endpoint of the run lists: through placing, fan-out, the beat and a
        # delivery once, so that what follows is timed from running workers.
        accounts = add_accounts(1)
        add_endpoints(accounts, 1, receivers.url("quick", "warm-up"), ["usage.threshold"])
        add_events(1, "usage.threshold")
        if not receivers.wait_for(1, since=0, seconds=60):
            raise SystemExit("the workers delivered nothing within 60 s")
        yield process
    finally:
        stop_workers(process, kill=True)


def tree_rss_mb(pid: int) -> dict[str, float]:
    """VmRSS of a process and of its descendants (the worker, and its beat), in MB."""
    sizes, waiting = {}, [str(pid)]
    while waiting:
        current = waiting.pop()
        with contextlib.suppress(FileNotFoundError):
            status = Path(f"/proc/{current}/status").read_text()
            name = re.search(r"^Name:\s+(.*)$", status, re.M)[1]  # type: ignore[index]
            rss = re.search(r"^VmRSS:\s+(\d+)", status, re.M)
            sizes[f"{name} {current}"] = round(int(rss[1]) / 1024, 1) if rss else 0.0
            for task in Path(f"/proc/{current}/task").iterdir():
                waiting += (task / "children").read_text().split()
    return {"total": round(sum(sizes.values()), 1), **sizes}


# The parts ----------------------------------------------------------------------------------


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile: a value that was seen."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def throughput(work: Path) -> dict[str, object]:
    """2,000 deliveries to one quick receiver, as fast as the workers make them."""
    empty()
    receivers = Receivers(work)
    try:
        add_endpoints(
            add_accounts(QUICK_ENDPOINTS), 1, receivers.url("quick", "hooks"), ["pet.created"]
        )
        expected = QUICK_ENDPOINTS * THROUGHPUT_EVENTS
        with workers(receivers, work) as process:
            started = time.time()
            add_events(THROUGHPUT_EVENTS)
            got = receivers.wait_for(expected, since=started)
            rss = tree_rss_mb(process.pid)
    finally:
        receivers.stop()
    if not got:
        raise SystemExit(f"no delivery arrived within {DEADLINE_SECONDS} s")
    delivered = {(a.path, a.event_id) for a in got}
    first = min(a.created_at for a in got)  # the events' transaction's time: all the same
    arrived = sorted(a.at - first for a in got)
    seconds = arrived[-1]
    return {
        "events": THROUGHPUT_EVENTS,
        "endpoints": QUICK_ENDPOINTS,
        "expected": expected,
        "delivered": len(delivered),
        "duplicates": len(got) - len(delivered),
        "seconds": round(seconds, 2),
        "deliveries_per_second": round(len(delivered) / seconds),
        # When half, 90 % and all of them had arrived: a stall shows as a gap.
        "arrived_by_s": {
            share: round(percentile(arrived, share / 100), 2) for share in (1, 10, 50, 90, 100)
        },
        "worker_rss_mb": rss,
    }


def isolation(hanging_accounts: int, work: Path) -> dict[str, object]:
    """Each event's time to arrive at 5 quick endpoints beside ``hanging_accounts`` endpoints
    whose receiver never answers, every one of them listing the events' type."""
    empty()
    receivers = Receivers(work)
    try:
        quick_url = receivers.url("quick", "hooks")
        add_endpoints(add_accounts(QUICK_ENDPOINTS), 1, quick_url, ["pet.created"])
        hanging_url = receivers.url("hanging", "hooks")
        add_endpoints(add_accounts(hanging_accounts), 1, hanging_url, ["pet.created"])
        expected = QUICK_ENDPOINTS * LATENCY_EVENTS
        with workers(receivers, work), psycopg.connect(DATABASE_URL, autocommit=True) as db:
            started = time.time()
            # One event a statement, each its own transaction, spread over 5 s: each
            # event's latency, not a batch's.
            for n in range(LATENCY_EVENTS):
                time.sleep(max(0.0, started + n / LATENCY_PER_SECOND - time.time()))
                db.execute(INSERT_EVENTS, ["pet.created", 1])
            got = receivers.wait_for(expected, since=started)
            hanging = len([a for a in receivers.arrivals("hanging") if a.at >= started])
    finally:
        receivers.stop()
    if not got:
        raise SystemExit(f"no delivery arrived within {DEADLINE_SECONDS} s")
    delivered = {(a.path, a.event_id) for a in got}
    late = [a.at - a.created_at for a in got]
    return {
        "hanging_endpoints": hanging_accounts,
        "expected": expected,
        "delivered": len(delivered),
        "p50_s": round(percentile(late, 0.5), 3),
        "p95_s": round(percentile(late, 0.95), 3),
        "max_s": round(max(late), 3),
        "hanging_attempts": hanging,
    }


def timed_fan_out() -> tuple[float, int]:
    """One call of the service's fan_out(), in this process, in seconds; and the events it
    fanned out."""
    from webhooks.services import fan_out

    started = time.perf_counter()
    events = fan_out()
    return time.perf_counter() - started, events


def reset_fan_out(db: psycopg.Connection) -> None:
    db.execute("TRUNCATE webhooks_delivery")
    db.execute("UPDATE events_event SET fanned_out = false")
    db.execute("VACUUM ANALYZE events_event")


def fan_out_wide() -> dict[str, object]:
    """One event to 10,000 endpoints: the INSERT … SELECT makes its 10,000 deliveries."""
    from django.db import connection

    empty()
    accounts = add_accounts(FAN_OUT_ACCOUNTS)
    add_endpoints(accounts, FAN_OUT_PER_ACCOUNT, "http://127.0.0.1:9/wide", ["pet.created"])
    add_events(1)
    connection.ensure_connection()  # the connection's start is not fan-out's
    seconds, counts = [], []
    with psycopg.connect(DATABASE_URL, autocommit=True) as db:
        for _ in range(PASSES):
            reset_fan_out(db)
            elapsed, events = timed_fan_out()
            assert events == 1
            seconds.append(elapsed)
            counts.append(db.execute("SELECT count(*) FROM webhooks_delivery").fetchone()[0])  # type: ignore[index]
    return {
        "endpoints": FAN_OUT_ACCOUNTS * FAN_OUT_PER_ACCOUNT,
        "deliveries": counts,
        "median_s": round(statistics.median(seconds), 3),
        "max_s": round(max(seconds), 3),
    }


def fan_out_unlisted() -> dict[str, object]:
    """500 ``pet.created`` events beside endpoints that list only ``order.placed``: 10, then
    10,000 of them. What no endpoint lists should cost the same however many endpoints there
    are. Timed as the endpoints were inserted, and again once VACUUM has moved the GIN index's
    pending list (where new entries wait, read in full by every search) into the index."""
    from django.db import connection

    empty()
    accounts = add_accounts(FAN_OUT_ACCOUNTS)
    add_events(500)
    connection.ensure_connection()
    medians: dict[str, list[float]] = {"as inserted": [], "after VACUUM": []}
    counts = (10, FAN_OUT_ACCOUNTS * FAN_OUT_PER_ACCOUNT)
    with psycopg.connect(DATABASE_URL, autocommit=True) as db:
        for count in counts:
            db.execute("TRUNCATE webhooks_endpoint CASCADE")
            add_endpoints(
                accounts[: count // FAN_OUT_PER_ACCOUNT],
                FAN_OUT_PER_ACCOUNT,
                "http://127.0.0.1:9/unlisted",
                ["order.placed"],
            )
            for state, state_medians in medians.items():
                if state == "after VACUUM":
                    db.execute("VACUUM ANALYZE webhooks_endpoint")
                seconds = []
                for _ in range(PASSES):
                    reset_fan_out(db)
                    elapsed, events = timed_fan_out()
                    assert events == 500
                    seconds.append(elapsed)
                state_medians.append(statistics.median(seconds))
            made = db.execute("SELECT count(*) FROM webhooks_delivery").fetchone()[0]  # type: ignore[index]
            assert made == 0, made
    return {
        "events": 500,
        "endpoints": list(counts),
        **{
            state: {
                "median_s": [round(m, 4) for m in few_many],
                "ratio": round(few_many[1] / few_many[0], 3),
            }
            for state, few_many in medians.items()
        },
    }


def measure_webhooks(options: argparse.Namespace) -> dict[str, object]:
    """Every part, one after the other; the workers and receivers of each stopped with it."""
    work = Path(tempfile.mkdtemp(prefix="petstore-webhooks-"))
    print("Webhooks: the receiver alone …", flush=True)
    alone = receiver_alone()
    print("Webhooks: throughput …", flush=True)
    rate = throughput(work)
    results: dict[str, object] = {"receiver_alone": alone, "throughput": rate}
    for hanging in (1, 100):
        print(f"Webhooks: latency beside {hanging} hanging …", flush=True)
        results[f"beside_{hanging}_hanging"] = isolation(hanging, work)
    print("Webhooks: fan-out …", flush=True)
    results["fan_out_10k"] = fan_out_wide()
    results["fan_out_unlisted"] = fan_out_unlisted()
    empty()  # the next phase finds no endpoint of this one
    shutil.rmtree(work)
    return results


def report_webhooks(results: dict[str, Any]) -> None:
    alone, rate = results["receiver_alone"], results["throughput"]
    wide, unlisted = results["fan_out_10k"], results["fan_out_unlisted"]
    print("\nwebhooks (gevent workers as deployed, loopback receivers):")
    print(f"  the quick receiver alone: {alone['requests_per_second']} req/s")
    print(
        f"  {rate['delivered']}/{rate['expected']} deliveries in {rate['seconds']} s: "
        f"{rate['deliveries_per_second']}/s (target >= 500), arrived by "
        f"{rate['arrived_by_s']} s, duplicates {rate['duplicates']}"
    )
    print(f"  worker RSS after them: {rate['worker_rss_mb']} MB")
    for hanging in (1, 100):
        row = results[f"beside_{hanging}_hanging"]
        print(
            f"  event to arrival beside {hanging} hanging: p50 {row['p50_s']} s, "
            f"p95 {row['p95_s']} s (target <= 2), max {row['max_s']} s, "
            f"{row['delivered']}/{row['expected']} delivered"
        )
    print(
        f"  fan-out of one event to {wide['endpoints']:,} endpoints: median "
        f"{wide['median_s']} s (target <= 2), max {wide['max_s']} s, deliveries "
        f"{wide['deliveries']}"
    )
    for state in ("as inserted", "after VACUUM"):
        print(
            f"  fan-out of 500 events beside {unlisted['endpoints']} endpoints not listing "
            f"them, {state}: {unlisted[state]['median_s']} s, ratio {unlisted[state]['ratio']} "
            "(target <= 1.1)"
        )


if __name__ == "__main__":
    # The receivers' process (Receivers).
    parser = argparse.ArgumentParser()
    parser.add_argument("--receive", required=True)
    asyncio.run(_receive(parser.parse_args().receive))
