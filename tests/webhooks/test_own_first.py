"""An endpoint's deliveries wait in two lanes: its account's own events (orders, usage, test
sends) ahead of every account's catalogue (animals, categories). Own events are fanned out
first, lead the runs they are leased in, and a run of the catalogue makes way for them between
attempts; they take a place in flight like any other, never one more."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from events.models import Event
from webhooks import services, tasks
from webhooks.models import Delivery, DeliveryState, Endpoint

pytestmark = pytest.mark.django_db


@pytest.fixture
def endpoint(make_account, receiver, settings, clock) -> Endpoint:
    settings.PETSTORE_WEBHOOK_ALLOW_PRIVATE = True  # the receiver is on loopback
    settings.PETSTORE_WEBHOOK_ENDPOINT_CONCURRENCY = 1  # one run at a time, unless told
    return Endpoint.objects.create(
        account=make_account(),
        url=receiver.url,
        events=["pet.created", "order.placed"],
        created_at=timezone.now() - timedelta(days=1),
    )


def animals(count: int) -> list[Event]:
    """New animals' events, every account's."""
    return [Event.objects.create(type="pet.created", data={"n": n}) for n in range(count)]


def order(endpoint: Endpoint) -> Event:
    """An order placed by the endpoint's account: its own event."""
    return Event.objects.create(type="order.placed", account_id=endpoint.account_id, data={})


def types(receiver) -> list[str]:
    return [delivered.event["type"] for delivered in receiver.received]


def test_own_events_are_fanned_out_before_the_catalogue_made_before_them(endpoint, monkeypatch):
    monkeypatch.setattr(services, "BATCH", 3)
    animals(5)
    placed = order(endpoint)

    assert services.fan_out() == 3

    assert Delivery.objects.filter(endpoint=endpoint, event=placed).exists()
    assert Delivery.objects.filter(endpoint=endpoint).count() == 3


def test_own_events_are_sent_ahead_of_the_catalogue_due_before_them(endpoint, receiver):
    animals(10)
    order(endpoint)
    services.fan_out()

    (run,) = services.lease_due()
    tasks._send(run)

    assert types(receiver) == ["order.placed"] + ["pet.created"] * 10


def test_a_run_of_the_catalogue_makes_way_for_own_events_due_meanwhile(
    endpoint, receiver, monkeypatch
):
    monkeypatch.setattr(tasks, "MAKE_WAY_EVERY", -1, raising=False)  # looks between each two
    animals(5)
    services.fan_out()
    (catalogue,) = services.lease_due()
    order(endpoint)
    services.fan_out()

    tasks._send(catalogue)

    # One attempt, then the rest given back, due: leased again behind the order.
    assert types(receiver) == ["pet.created"]
    given_back = Delivery.objects.filter(pk__in=catalogue, leased_until__isnull=True)
    assert given_back.filter(state=DeliveryState.PENDING).count() == 4
    (following,) = services.lease_due()
    tasks._send(following)
    assert types(receiver) == ["pet.created", "order.placed"] + ["pet.created"] * 4


def test_own_events_wait_for_a_place_like_any_other(endpoint, settings):
    settings.PETSTORE_WEBHOOK_ENDPOINT_CONCURRENCY = 2
    animals(10)
    services.fan_out()
    assert len(services.lease_due()) == 2  # both places taken by the catalogue
    order(endpoint)
    services.fan_out()

    assert services.lease_due() == []
    assert services.lease_due(endpoint_id=endpoint.pk) == []
