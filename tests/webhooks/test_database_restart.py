"""PostgreSQL stopped while real workers deliver to two endpoints: once it accepts connections
again, both endpoints receive within seconds, not after the dead tasks' leases run out; and
every post that reached a receiver is counted in its delivery's ``attempts``."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.db import connection
from django.utils.timezone import now

from apikeys.models import Account, Plan
from deploy.workers import start_workers, stop_workers
from events.models import Event
from tests.postgres import Postgres
from tests.reliability.test_faults import own_postgres  # noqa: F401 (a fixture)
from tests.waiting import READY_SECONDS, wait_until
from tests.webhooks.conftest import Receiver, wait_for_a_worker, worker_env
from webhooks.models import Delivery, DeliveryState, Endpoint

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

EVENTS = 60
# Each answer takes this long: each endpoint's two runs of 25 are mid-way when the database
# stops, their posts sent and not yet recorded.
ANSWER_SECONDS = 0.3
SENT_BEFORE_THE_STOP = 30
# Longer than a worker waits for a connection from its pool (10 s): the runs' tasks fail.
OUTAGE_SECONDS = 15
# From the database accepting again to each endpoint's next post.
RESUMED_WITHIN = 5.0


@contextmanager
def on(server: Postgres) -> Iterator[None]:
    """This thread's ORM on ``server``'s database for the block."""
    saved = dict(connection.settings_dict)
    connection.close()
    connection.settings_dict.update(HOST="127.0.0.1", PORT=str(server.port), NAME="petstore")
    try:
        yield
    finally:
        connection.close()
        connection.settings_dict.clear()
        connection.settings_dict.update(saved)


def test_after_a_database_restart_every_endpoint_receives_within_seconds_and_every_post_is_counted(
    own_postgres: Postgres,  # noqa: F811
    receiver: Receiver,
    other_receiver: Receiver,
    tmp_path: Path,
    settings,
):
    receivers = [receiver, other_receiver]
    with on(own_postgres):
        account = Account.objects.create(name="Shelter app", plan=Plan.objects.get(code="free"))
        for each in receivers:
            Endpoint.objects.create(account=account, url=each.url, events=["pet.created"])
            for _ in range(EVENTS):
                each.answers.put(ANSWER_SECONDS)
    # Today's lease: a run its task could not record stays leased this long.
    env = worker_env(DATABASE_URL=own_postgres.url("petstore"), PETSTORE_WEBHOOK_LEASE_SECONDS="60")
    workers = start_workers(env, tmp_path)
    try:
        wait_for_a_worker()
        with on(own_postgres):  # together: each endpoint's first two runs are of 25
            Event.objects.bulk_create(
                Event(type="pet.created", data={}, created_at=now()) for _ in range(EVENTS)
            )
        wait_until(
            lambda: all(len(r.received) >= SENT_BEFORE_THE_STOP for r in receivers),
            "the first posts",
        )
        own_postgres.stop()
        time.sleep(OUTAGE_SECONDS)
        own_postgres.start()
        back = time.time()
        wait_until(
            lambda: all(r.received[-1].at > back for r in receivers),
            "a post to each endpoint after the restart",
        )
        resumed = [min(d.at for d in r.received if d.at > back) - back for r in receivers]
        with on(own_postgres):
            wait_until(
                lambda: not Delivery.objects.exclude(state=DeliveryState.DELIVERED).exists(),
                "every delivery delivered",
                READY_SECONDS,
            )
            counted = Delivery.objects.values_list("endpoint__url", "event__uid", "attempts")
            attempts = {(url, uid): n for url, uid, n in counted}
            deliveries = Delivery.objects.count()
    finally:
        stop_workers(workers)

    arrived = Counter((r.url, d.headers["webhook-id"]) for r in receivers for d in r.received)
    uncounted = {sent: n for sent, n in arrived.items() if attempts.get(sent, 0) < n}
    twice = sum(1 for n in arrived.values() if n > 1)
    print(f"\nresumed after {[round(s, 2) for s in resumed]} s; {twice} sent more than once")
    assert deliveries == 2 * EVENTS
    assert max(resumed) < RESUMED_WITHIN
    assert uncounted == {}
