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

The quick receiver (bench.webhook_receivers: asyncio, in a process of its own) answers 200 at
once and records each arrival; it is measured alone first, so that it is seen not to be what
limits the workers.

Alone:  python -m bench.run --only webhooks
"""

from __future__ import annotations

import argparse
import math
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import psycopg

from bench.environment import DATABASE_URL
from bench.webhook_receivers import DEADLINE_SECONDS, Receivers, receiver_alone
from bench.webhook_workers import (
    INSERT_EVENTS,
    add_accounts,
    add_endpoints,
    add_events,
    empty,
    tree_rss_mb,
    workers,
)

QUICK_ENDPOINTS = 5
THROUGHPUT_EVENTS = 400
LATENCY_EVENTS, LATENCY_PER_SECOND = 100, 20
FAN_OUT_ACCOUNTS, FAN_OUT_PER_ACCOUNT = 1_000, 10  # 10,000 endpoints, the API's most per account
PASSES = 7


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
        "signed_twice": sum(a.signatures == 2 for a in got),
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
        f"{rate['arrived_by_s']} s, duplicates {rate['duplicates']}, signed twice (a "
        f"rotation's overlap) {rate['signed_twice']}"
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
