"""What `make bench`'s webhooks phase (bench.webhooks) runs on: its rows, written by SQL
straight into the service's tables, and the workers as deploy.workers starts them."""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from unittest import mock

import psycopg

from bench.environment import DATABASE_URL, SERVER_ENV, SERVER_PYTHON
from bench.webhook_receivers import Receivers

WORKER_ENV = {**SERVER_ENV, "PETSTORE_WEBHOOK_ALLOW_PRIVATE": "1"}  # the receivers are loopback


# The database -------------------------------------------------------------------------------


def empty() -> None:
    """No event, delivery or endpoint. Ids go on from where they were: a task the broker still
    holds from an earlier part then names no delivery of this one. CASCADE takes whatever
    refers to them too (a test send's record), so a table added later needs no line here."""
    with psycopg.connect(DATABASE_URL, autocommit=True) as db:
        db.execute("TRUNCATE webhooks_delivery, webhooks_endpoint, events_event CASCADE")


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
    ago, before any event of the run. Each is in a rotation's overlap, so every delivery is
    signed twice, as a partner's rotating its secret is."""
    with psycopg.connect(DATABASE_URL, autocommit=True) as db:
        db.execute(
            "INSERT INTO webhooks_endpoint (account_id, url, events, secret, enabled, "
            "disabled_reason, disabled_by_staff, previous_secret, previous_secret_expires_at, "
            "older_secrets, description, created_at, failures) "
            "SELECT a, %s || a || '/' || n, %s::jsonb, "
            "'whsec_' || encode(sha256((a || '/' || n)::bytea), 'base64'), true, '', false, "
            "'whsec_' || encode(sha256(('old/' || a || '/' || n)::bytea), 'base64'), "
            "now() + interval '1 day', '[]'::jsonb, '', now() - interval '1 minute', 0 "
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
