"""`make bench`'s feed phase: the first page of ``GET /v1/events`` through the stack at 10,000
and at 2,000,000 events, for a common type (``pet.created``), for a rare type of the caller's
own (``order.placed``: 20 of the caller's, spread over the whole feed, beside other accounts'),
and unfiltered. A page reads each type from an index in the feed's order (events.selectors), so
its cost should not grow with the table, whatever the table holds of other types or accounts.

Alone:  python -m bench.run --only feed
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import urllib.request
from typing import Any

import psycopg

from bench.environment import DATABASE_URL, PORTS
from bench.servers import issue_key
from bench.wrk import wrk

SIZES = (10_000, 2_000_000)
OWN_RARE = 20
OTHER_ACCOUNTS = 50
QUERIES = {
    "common type": "/v1/events?type=pet.created",
    "own rare type": "/v1/events?type=order.placed",
    "unfiltered": "/v1/events",
}


def caller_account(key: str) -> int:
    with psycopg.connect(DATABASE_URL) as db:
        row = db.execute(
            "SELECT account_id FROM apikeys_apikey WHERE digest = %s",
            [hashlib.sha256(key.encode()).hexdigest()],
        ).fetchone()
    assert row is not None
    return int(row[0])


def other_accounts() -> list[int]:
    with psycopg.connect(DATABASE_URL, autocommit=True) as db:
        rows = db.execute(
            "INSERT INTO apikeys_account (name, email, plan_id, created_at) "
            "SELECT 'Feed bench ' || g, '', (SELECT id FROM apikeys_plan "
            "WHERE code = 'enterprise'), now() FROM generate_series(1, %s) AS g RETURNING id",
            [OTHER_ACCOUNTS],
        ).fetchall()
    return [row[0] for row in rows]


def seed_events(count: int, caller: int, others: list[int]) -> None:
    """``count`` events placed in the feed (position = id) and already fanned out, over the
    last ``count`` milliseconds: 70 % ``pet.created`` and 20 % ``pet.status_changed``, every
    account's; 10 % orders' events of the other accounts, a quarter of them ``order.placed``;
    and, every ``count / 20`` events, one ``order.placed`` of the caller's."""
    step = count // OWN_RARE
    with psycopg.connect(DATABASE_URL, autocommit=True) as db:
        db.execute("TRUNCATE events_event RESTART IDENTITY CASCADE")
        db.execute(
            "INSERT INTO events_event (id, uid, type, account_id, data, created_at, position, "
            "fanned_out) "
            "SELECT g, 'evt_' || substr(md5(g::text), 1, 26), "
            "CASE WHEN own THEN 'order.placed' WHEN g %% 10 < 7 THEN 'pet.created' "
            "WHEN g %% 10 < 9 THEN 'pet.status_changed' "
            "ELSE (ARRAY['order.placed', 'order.approved', 'order.delivered', "
            "'order.cancelled'])[1 + (g / 10) %% 4] END, "
            "CASE WHEN own THEN %s WHEN g %% 10 < 9 THEN NULL "
            "ELSE (%s::bigint[])[1 + g %% %s] END, "
            "jsonb_build_object('id', g, 'name', 'Pet ' || g, 'categoryId', 1, "
            "'status', 'available'), "
            "now() - (%s - g) * interval '1 millisecond', g, true "
            "FROM (SELECT g, g %% %s = 0 AS own FROM generate_series(1, %s) AS g) AS series",
            [caller, others, len(others), count, step, count],
        )
        # The next event placed or inserted comes after these.
        db.execute("SELECT setval('events_event_position', %s)", [count])
        db.execute("SELECT setval(pg_get_serial_sequence('events_event', 'id'), %s)", [count])
        db.execute("VACUUM ANALYZE events_event")


def first_page(path: str, key: str) -> int:
    """How many events the first page lists: each query asked what it should."""
    request = urllib.request.Request(
        f"http://127.0.0.1:{PORTS['stack']}{path}", headers={"Authorization": f"Bearer {key}"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310  # our stack
        return len(json.load(response))


def measure_feed(options: argparse.Namespace) -> dict[str, object]:
    """Each query at each size through the running stack, with a key of an account of its
    own."""
    key = issue_key()
    caller, others = caller_account(key), other_accounts()
    p50s: dict[str, list[float]] = {kind: [] for kind in QUERIES}
    listed: dict[str, list[int]] = {kind: [] for kind in QUERIES}
    non_2xx = 0
    for count in SIZES:
        print(f"Feed: {count:,} events …", flush=True)
        seed_events(count, caller, others)
        for kind, path in QUERIES.items():
            listed[kind].append(first_page(path, key))
            wrk("stack", "GET", path, key, 2)  # warm-up
            runs = [wrk("stack", "GET", path, key, options.seconds) for _ in range(options.rounds)]
            p50s[kind].append(statistics.median(run.p50_ms for run in runs))
            non_2xx += sum(run.non_2xx + run.socket_errors for run in runs)
    return {
        "events": list(SIZES),
        "non_2xx_or_errors": non_2xx,
        **{
            kind: {
                "p50_ms": p50s[kind],
                "ratio": round(p50s[kind][-1] / p50s[kind][0], 3),
                "listed": listed[kind],
            }
            for kind in QUERIES
        },
    }


def report_feed(feed: dict[str, Any]) -> None:
    print(f"\nGET /v1/events, first page, p50 at {feed['events']} events:")
    for kind, path in QUERIES.items():
        row = feed[kind]
        print(
            f"  {kind:>13} ({path}): {row['p50_ms']} ms, ratio {row['ratio']} (target <= 1.2), "
            f"listed {row['listed']}"
        )
    print(f"  non-2xx or socket errors: {feed['non_2xx_or_errors']}")
