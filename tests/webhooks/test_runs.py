"""A run of an endpoint's deliveries (webhooks.tasks.deliver): sent one after another over one
connection, recorded together, in as many statements however long it is; and ended by a failure
the receiver is to blame for, what it had left given back and sent in the next."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from events.models import Event
from webhooks import services, tasks
from webhooks.models import Delivery, DeliveryState, Endpoint

pytestmark = pytest.mark.django_db


@pytest.fixture
def endpoint(make_account, receiver, settings, clock) -> Endpoint:
    settings.PETSTORE_WEBHOOK_ALLOW_PRIVATE = True  # the receiver is on loopback
    settings.PETSTORE_WEBHOOK_ENDPOINT_CONCURRENCY = 1  # one run at a time
    return Endpoint.objects.create(
        account=make_account(),
        url=receiver.url,
        events=["pet.created"],
        created_at=timezone.now() - timedelta(days=1),
    )


def owed(endpoint: Endpoint, count: int) -> list[int]:
    now = timezone.now()
    return [
        Delivery.objects.create(
            endpoint=endpoint,
            event=Event.objects.create(type="pet.created", data={}, created_at=now),
            next_attempt_at=now,
        ).pk
        for _ in range(count)
    ]


def test_a_run_costs_the_same_statements_however_long_it_is(endpoint, receiver):
    statements = []
    for count in (2, 10):
        deliveries = owed(endpoint, count)
        (run,) = services.lease_due()
        assert run == deliveries

        with CaptureQueriesContext(connection) as queries:
            tasks.deliver(run)

        statements.append(len(queries))
        states = Delivery.objects.filter(pk__in=deliveries).values_list("state", "attempts")
        assert set(states) == {(DeliveryState.DELIVERED, 1)}
    assert statements[0] == statements[1]
    assert len(receiver.received) == 12
    assert receiver.connections == 2  # a connection a run, kept open between its posts


def test_a_failure_ends_the_run_and_the_rest_go_in_the_next(endpoint, receiver):
    deliveries = owed(endpoint, 4)
    receiver.answers.put(503)
    (run,) = services.lease_due()

    tasks.deliver(run)

    first, *rest = Delivery.objects.filter(pk__in=deliveries).order_by("id")
    assert (first.state, first.attempts, first.last_status) == (DeliveryState.PENDING, 1, 503)
    assert first.next_attempt_at is not None
    assert first.next_attempt_at > timezone.now()  # tried again after the schedule's wait
    assert (first.leased_until, first.run) == (None, None)
    assert Endpoint.objects.get().failures == 0  # the successes after it reset the count
    # The 503 ended the run; the task leased what it had left as a run of its own.
    assert {(d.state, d.attempts) for d in rest} == {(DeliveryState.DELIVERED, 1)}
    assert len(receiver.received) == 4
    assert receiver.connections == 2
