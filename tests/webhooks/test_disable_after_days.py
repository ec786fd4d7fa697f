"""A dead receiver ends disabled, not in an endless pause: an endpoint whose every attempt has
failed for ``PETSTORE_WEBHOOK_DISABLE_AFTER_DAYS`` is disabled at its next failed trial, and what
it is owed is failed, for ``recover`` to send once the receiver is fixed. Driven by the workers'
own task against a real receiver, on the fixed clock."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from audit.models import Entry
from events.models import Event
from events.types import EventType
from tests.conftest import CLOCK_START
from webhooks import services, tasks
from webhooks.deliveries import delivery_retry
from webhooks.models import Delivery, DeliveryState, Endpoint, EndpointState

pytestmark = pytest.mark.django_db

DAYS = 3


@pytest.fixture
def endpoint(make_account, receiver, settings, clock) -> Endpoint:
    settings.PETSTORE_WEBHOOK_ALLOW_PRIVATE = True  # the receiver is on loopback
    settings.PETSTORE_WEBHOOK_ENDPOINT_CONCURRENCY = 1  # one run at a time, in this process
    settings.PETSTORE_WEBHOOK_DISABLE_AFTER_DAYS = DAYS
    return Endpoint.objects.create(
        account=make_account(),
        url=receiver.url,
        events=["pet.created"],
        created_at=CLOCK_START - timedelta(days=1),
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


def answer(receiver, status: int, times: int = 1000) -> None:
    """From now on the receiver answers ``status`` (then 200, once they are spent)."""
    while not receiver.answers.empty():
        receiver.answers.get_nowait()
    for _ in range(times):
        receiver.answers.put(status)


def work_until(endpoint: Endpoint, clock, until: datetime) -> None:
    """Run the workers' task on what is due, moving the clock to the next moment anything is,
    until ``until`` or the endpoint is disabled."""
    for _ in range(1000):
        for run in services.lease_due():
            tasks.deliver(run)
        endpoint.refresh_from_db()
        pending = Delivery.objects.filter(endpoint=endpoint, state=DeliveryState.PENDING)
        earliest = min(
            (d for d in pending.values_list("next_attempt_at", flat=True) if d), default=None
        )
        if not endpoint.enabled or earliest is None:
            return
        due = max(earliest, endpoint.paused_until or earliest)
        if due > until:
            return
        assert due > timezone.now(), "due now, yet nothing was leased"
        clock.set(due)
    raise AssertionError("still working")


def test_failing_for_less_than_the_days_leaves_it_paused(endpoint, receiver, clock):
    deliveries = owed(endpoint, 3)
    answer(receiver, 503)

    work_until(endpoint, clock, CLOCK_START + timedelta(days=DAYS) - timedelta(minutes=1))

    assert endpoint.enabled
    assert endpoint.state_at(timezone.now()) == EndpointState.PAUSED
    assert endpoint.failing_since == CLOCK_START
    assert len(receiver.received) > 100  # tried every 30 minutes at most, all that while
    states = Delivery.objects.filter(pk__in=deliveries).values_list("state", flat=True)
    assert set(states) == {DeliveryState.PENDING}
    assert not Event.objects.filter(type=EventType.WEBHOOK_ENDPOINT_DISABLED).exists()


def test_a_failed_trial_after_the_days_disables_it_and_fails_what_it_is_owed(
    endpoint, receiver, clock
):
    deliveries = owed(endpoint, 3)
    answer(receiver, 503)

    work_until(endpoint, clock, CLOCK_START + timedelta(days=DAYS + 1))

    disabled_at = timezone.now()
    assert CLOCK_START + timedelta(days=DAYS) <= disabled_at
    assert disabled_at <= CLOCK_START + timedelta(days=DAYS, minutes=31)  # at the next trial
    assert endpoint.state_at(disabled_at) == EndpointState.DISABLED
    assert endpoint.disabled_reason == "Every attempt failed for 3 days; the last: HTTP 503"
    states = Delivery.objects.filter(pk__in=deliveries).values_list(
        "state", "next_attempt_at", "leased_until"
    )
    assert set(states) == {(DeliveryState.FAILED, None, None)}
    (event,) = Event.objects.filter(type=EventType.WEBHOOK_ENDPOINT_DISABLED)
    assert event.account_id == endpoint.account_id
    assert event.data["disabledReason"] == endpoint.disabled_reason
    (entry,) = Entry.objects.filter(action="endpoint.disabled", target_id=str(endpoint.pk))
    assert entry.changes["enabled"] == [True, False]


def test_a_disabled_endpoint_gets_nothing_more_until_enabled(endpoint, receiver, clock):
    first = owed(endpoint, 2)
    answer(receiver, 503)
    work_until(endpoint, clock, CLOCK_START + timedelta(days=DAYS + 1))
    assert not endpoint.enabled
    tried = len(receiver.received)
    answer(receiver, 200, times=0)  # the receiver is fixed

    later = owed(endpoint, 1)  # as if made before the disabling, and still owed
    clock.advance(3600)
    for run in services.lease_due():
        tasks.deliver(run)
    assert len(receiver.received) == tried

    # Enabled again, it is sent what is owed, and what was failed comes back on asking.
    services.endpoint_set_enabled(endpoint, True)
    for delivery in Delivery.objects.select_related("event").filter(pk__in=first):
        delivery_retry(delivery=delivery)
    work_until(endpoint, clock, timezone.now())
    states = Delivery.objects.filter(pk__in=first + later).values_list("state", flat=True)
    assert set(states) == {DeliveryState.DELIVERED}
    assert len(receiver.received) == tried + 3


def test_a_success_within_the_days_starts_the_count_again(endpoint, receiver, clock):
    owed(endpoint, 2)
    answer(receiver, 503)
    work_until(endpoint, clock, CLOCK_START + timedelta(days=DAYS - 1))
    assert endpoint.failing_since == CLOCK_START

    answer(receiver, 200, times=1)  # one trial succeeds, and the receiver fails again after
    for _ in range(1000):
        receiver.answers.put(503)
    recovered = timezone.now()
    work_until(endpoint, clock, recovered + timedelta(hours=1))
    assert endpoint.failing_since is not None
    assert endpoint.failing_since > recovered

    owed(endpoint, 1)
    work_until(endpoint, clock, CLOCK_START + timedelta(days=DAYS + 1))

    assert endpoint.enabled  # failing for more than the days in all, but not in a row
    assert endpoint.state_at(timezone.now()) == EndpointState.PAUSED
