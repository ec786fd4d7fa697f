"""A run's deliveries that arrived, recorded together (webhooks.services.record_delivered): each
keeps its own attempt's status, duration and answer, and the endpoint's breaker is cleared."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from events.models import Event
from webhooks import runs, services
from webhooks.delivery import Attempt
from webhooks.models import Delivery, DeliveryState, Endpoint

pytestmark = pytest.mark.django_db


@pytest.fixture
def endpoint(make_account) -> Endpoint:
    return Endpoint.objects.create(
        account=make_account(), url="https://hooks.example/in", events=["pet.created"]
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


def test_each_delivery_of_a_run_keeps_its_own_status_duration_and_answer(endpoint):
    first, second, third = owed(endpoint, 3)
    now = timezone.now()
    attempts = {
        first: Attempt(200, duration_ms=12, response="ok"),
        second: Attempt(200, duration_ms=340, response="fine"),
        third: Attempt(204, duration_ms=12, response=""),
    }

    runs.count_attempts(list(attempts))  # as the worker counts them, before it sends them
    services.record_delivered(endpoint.pk, list(attempts.items()), now)

    for pk, attempt in attempts.items():
        delivery = Delivery.objects.get(pk=pk)
        assert delivery.state == DeliveryState.DELIVERED
        assert delivery.attempts == 1
        assert delivery.last_attempt_at == now
        assert delivery.last_status == attempt.status
        assert delivery.last_duration_ms == attempt.duration_ms
        assert delivery.last_response == attempt.response


def test_a_delivery_that_arrives_clears_the_breaker_of_a_paused_endpoint(endpoint):
    (pk,) = owed(endpoint, 1)
    now = timezone.now()
    Endpoint.objects.filter(pk=endpoint.pk).update(
        failing_since=now - timedelta(hours=1), paused_until=now + timedelta(minutes=5)
    )

    services.record_delivered(endpoint.pk, [(pk, Attempt(200, duration_ms=5))], now)

    endpoint.refresh_from_db()
    assert (endpoint.failures, endpoint.failing_since, endpoint.paused_until) == (0, None, None)


def test_a_delivery_that_failed_before_keeps_nothing_of_it_once_delivered(endpoint):
    now = timezone.now()
    pks = owed(endpoint, 2)
    Delivery.objects.filter(pk__in=pks).update(
        attempts=2,
        next_attempt_at=now,
        leased_until=now + timedelta(minutes=1),
        run=7,
        last_status=None,
        last_error="No answer: timed out after 15 s",
        last_error_kind="timeout",
    )

    runs.count_attempts(pks)
    services.record_delivered(endpoint.pk, [(pk, Attempt(200, duration_ms=5)) for pk in pks], now)

    rows = Delivery.objects.filter(pk__in=pks).values_list(
        "state",
        "attempts",
        "next_attempt_at",
        "leased_until",
        "run",
        "last_error",
        "last_error_kind",
    )
    assert set(rows) == {(DeliveryState.DELIVERED, 3, None, None, None, "", "")}
