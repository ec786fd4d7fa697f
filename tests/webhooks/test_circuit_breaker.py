"""Each attempt's outcome on its delivery and on its endpoint's circuit breaker, recorded in the
database as a worker records it; and fan-out's price, which endpoints that do not list a type
do not raise."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from events.models import Event
from tests.conftest import CLOCK_START
from webhooks import answers, services
from webhooks.delivery import Attempt
from webhooks.models import Delivery, DeliveryState, Endpoint, EndpointState

NOW = CLOCK_START  # every test here runs on the fixed clock

TIMEOUT = Attempt(None, "ReadTimeoutError")


@pytest.fixture(autouse=True)
def _still(clock) -> None:
    """Every clock the code reads stands at NOW."""


@pytest.fixture
def endpoint(make_account, settings) -> Endpoint:
    settings.PETSTORE_WEBHOOK_RETRY_SECONDS = [5, 300, 1800]
    settings.PETSTORE_WEBHOOK_PAUSE_AFTER = 5
    settings.PETSTORE_WEBHOOK_PAUSE_SECONDS = 30
    settings.PETSTORE_WEBHOOK_MAX_PAUSE_SECONDS = 1800
    return Endpoint.objects.create(
        account=make_account(),
        url="https://hooks.example.com/",
        events=["pet.created"],
        created_at=NOW - timedelta(days=1),
    )


def owed(endpoint: Endpoint, count: int) -> list[Delivery]:
    return [
        Delivery.objects.create(
            endpoint=endpoint,
            event=Event.objects.create(type="pet.created", data={}, created_at=NOW),
            next_attempt_at=NOW,
        )
        for _ in range(count)
    ]


def test_five_failures_in_a_row_pause_the_endpoint_without_spending_schedules(endpoint):
    deliveries = owed(endpoint, 7)
    for delivery in deliveries[:4]:
        services.record(delivery, TIMEOUT, NOW)
    assert Endpoint.objects.get().state_at(NOW) == EndpointState.HEALTHY
    assert [d.attempts for d in deliveries[:4]] == [1, 1, 1, 1]

    services.record(deliveries[4], TIMEOUT, NOW)

    endpoint.refresh_from_db()
    assert endpoint.state_at(NOW) == EndpointState.PAUSED
    assert endpoint.paused_until == NOW + timedelta(seconds=30)
    assert deliveries[4].attempts == 0  # it waits for the endpoint, not for its schedule
    assert deliveries[4].next_attempt_at == NOW
    assert services.lease_due(NOW + timedelta(seconds=29)) == []
    # One run when the pause ends, however many are due: its first attempt is the trial, and a
    # failure ends it (webhooks.tasks).
    assert len(services.lease_due(NOW + timedelta(seconds=30))) == 1


def test_each_failed_trial_doubles_the_pause_up_to_30_minutes(endpoint):
    (delivery,) = owed(endpoint, 1)
    pauses = []
    at = NOW
    for _ in range(12):
        services.record(delivery, TIMEOUT, at)
        endpoint.refresh_from_db()
        if endpoint.paused_until is not None:
            pauses.append((endpoint.paused_until - at).total_seconds())
            at = endpoint.paused_until
    assert pauses == [30, 60, 120, 240, 480, 960, 1800, 1800]


def test_a_success_resumes_the_endpoint(endpoint):
    deliveries = owed(endpoint, 6)
    for delivery in deliveries[:5]:
        services.record(delivery, Attempt(503), NOW)
    services.record(deliveries[5], Attempt(200), NOW + timedelta(seconds=31))

    endpoint.refresh_from_db()
    assert endpoint.state_at(NOW + timedelta(seconds=31)) == EndpointState.HEALTHY
    assert (endpoint.failures, endpoint.paused_until) == (0, None)
    assert deliveries[5].state == DeliveryState.DELIVERED


def test_a_client_error_is_the_delivery_s_failure_not_the_receiver_s(endpoint):
    deliveries = owed(endpoint, 6)
    for delivery in deliveries:
        services.record(delivery, Attempt(400), NOW)

    endpoint.refresh_from_db()
    assert (endpoint.failures, endpoint.state_at(NOW)) == (0, EndpointState.HEALTHY)
    assert all(d.attempts == 1 for d in deliveries)


@pytest.mark.parametrize(
    ("status", "retry_after", "paused_for"),
    [
        (429, 120, 120),
        (503, 7200, 3600),  # at most an hour
        (500, 120, None),  # only on a 429 or a 503
    ],
)
def test_retry_after_pauses_the_endpoint_as_asked(endpoint, status, retry_after, paused_for):
    (delivery,) = owed(endpoint, 1)
    if status == 500:
        retry_after = answers.retry_after("", NOW)  # a 500's Retry-After is not read
    services.record(delivery, Attempt(status, retry_after=retry_after), NOW)

    endpoint.refresh_from_db()
    if paused_for is None:
        assert endpoint.paused_until is None
        assert delivery.attempts == 1
    else:
        assert endpoint.paused_until == NOW + timedelta(seconds=paused_for)
        assert delivery.attempts == 0


def test_a_longer_pause_asked_before_is_kept(endpoint):
    # A Retry-After's hour, then the fifth failure in a row (an attempt that was in flight).
    until = NOW + timedelta(hours=1)
    Endpoint.objects.filter(pk=endpoint.pk).update(
        failures=4, failing_since=NOW, paused_until=until
    )
    (delivery,) = owed(endpoint, 1)

    services.record(delivery, TIMEOUT, NOW)

    endpoint.refresh_from_db()
    assert (endpoint.failures, endpoint.paused_until) == (5, until)
    assert delivery.endpoint.paused_until == until  # the caller's instance shows it too


def test_an_endpoint_failing_for_the_days_is_disabled(endpoint, settings):
    settings.PETSTORE_WEBHOOK_DISABLE_AFTER_DAYS = 3
    *first, delivery = owed(endpoint, 5)
    for failed in first:  # four failures that spend no delivery's whole schedule
        services.record(failed, TIMEOUT, NOW)
    at = NOW
    while Endpoint.objects.get().enabled:
        services.record(delivery, TIMEOUT, at)
        at += timedelta(minutes=30)
        assert at < NOW + timedelta(days=4), "never disabled"
    endpoint.refresh_from_db()
    assert endpoint.state_at(at) == EndpointState.DISABLED
    assert endpoint.disabled_reason.startswith("Every attempt failed for 3 days")
    assert at > NOW + timedelta(days=3)


def test_at_most_two_runs_in_flight_per_endpoint(endpoint, make_account, monkeypatch):
    monkeypatch.setattr(services, "RUN", 2)
    other = Endpoint.objects.create(
        account=make_account(), url="https://b.example.com/", events=["pet.created"]
    )
    mine, others = owed(endpoint, 5), owed(other, 5)

    first = services.lease_due(NOW)
    second = services.lease_due(NOW)

    # Each endpoint's first four, dealt to two runs of two; the fifth waits for a place.
    assert sorted(first) == sorted(
        [[d.pk for d in owing[0:4:2]] for owing in (mine, others)]
        + [[d.pk for d in owing[1:4:2]] for owing in (mine, others)]
    )
    assert second == []


def test_a_worker_going_on_with_its_endpoint_leases_that_endpoint_s_only(endpoint, make_account):
    other = Endpoint.objects.create(
        account=make_account(), url="https://b.example.com/", events=["pet.created"]
    )
    mine, _ = owed(endpoint, 2), owed(other, 2)

    runs = services.lease_due(NOW, endpoint_id=endpoint.pk)

    assert sorted(pk for run in runs for pk in run) == [d.pk for d in mine]


def test_a_run_ended_early_gives_back_what_it_did_not_attempt(endpoint, monkeypatch, settings):
    monkeypatch.setattr(services, "RUN", 3)
    settings.PETSTORE_WEBHOOK_ENDPOINT_CONCURRENCY = 1
    deliveries = owed(endpoint, 3)
    (run,) = services.lease_due(NOW)
    services.record(deliveries[0], TIMEOUT, NOW)

    services.release(run[1:])

    given_back = Delivery.objects.filter(pk__in=run[1:]).values_list("leased_until", "run")
    assert set(given_back) == {(None, None)}  # held by no run, due at once
    (again,) = services.lease_due(NOW + timedelta(seconds=1))
    assert again == [d.pk for d in deliveries[1:]]


def test_fan_out_costs_the_same_whatever_the_endpoints_that_do_not_list_the_type(
    make_account,
):
    account = make_account()
    listing = Endpoint.objects.create(
        account=account, url="https://a.example.com/", events=["pet.created"]
    )
    Event.objects.create(type="pet.created", data={}, created_at=timezone.now())
    with CaptureQueriesContext(connection) as few:
        services.fan_out()

    Endpoint.objects.bulk_create(
        Endpoint(account=make_account(), url="https://b.example.com/", events=["order.placed"])
        for _ in range(50)
    )
    Event.objects.create(type="pet.created", data={}, created_at=timezone.now())
    with CaptureQueriesContext(connection) as many:
        services.fan_out()

    assert len(many) == len(few)
    assert any(q["sql"].startswith("INSERT INTO") and "SELECT" in q["sql"] for q in many)
    assert Delivery.objects.filter(endpoint=listing).count() == 2
    assert Delivery.objects.count() == 2


def test_fan_out_takes_the_oldest_events_a_batch_at_a_time(endpoint, monkeypatch):
    monkeypatch.setattr(services, "BATCH", 2)
    events = [Event.objects.create(type="pet.created", data={}, created_at=NOW) for _ in range(3)]

    assert services.fan_out() == 2

    made = Delivery.objects.filter(endpoint=endpoint).values_list("event_id", flat=True)
    assert sorted(made) == [e.pk for e in events[:2]]
    fanned = Event.objects.filter(pk__in=[e.pk for e in events]).values_list("pk", "fanned_out")
    assert sorted(fanned) == [(events[0].pk, True), (events[1].pk, True), (events[2].pk, False)]
    assert services.fan_out() == 1
    assert services.fan_out() == 0
    assert Delivery.objects.filter(endpoint=endpoint).count() == 3
