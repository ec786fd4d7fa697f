"""Webhooks delivered by the task queue's real workers to a real receiver on loopback, signed
as the standardwebhooks package verifies, retried, and disabled when the receiver says so."""

from __future__ import annotations

import json
from http import HTTPStatus

import pytest
from standardwebhooks import Webhook

from tests.waiting import READY_SECONDS
from webhooks.models import Delivery, DeliveryState, Endpoint

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def post(client, key: str, path: str, body: dict) -> dict:
    response = client.post(
        path,
        json.dumps(body),
        content_type="application/json",
        headers={"Authorization": f"Bearer {key}"},
    )
    assert response.status_code == HTTPStatus.CREATED, response.content
    return response.json()


def subscribe(client, key: str, url: str, *events: str) -> dict:
    return post(client, key, "/v1/webhook_endpoints", {"url": url, "events": list(events)})


def test_a_new_pet_reaches_a_receiver_within_5_s(client, make_key, dog, receiver, workers):
    key = make_key()
    endpoint = subscribe(client, key, receiver.url, "pet.created")

    pet = post(client, key, "/v1/pets", {"name": "Rex", "categoryId": dog.pk})

    receiver.wait_for(lambda got: len(got) == 1, seconds=5)
    (event,) = receiver.verified(endpoint["secret"])
    assert event["type"] == "pet.created"
    assert event["data"] == pet
    assert event["id"].startswith("evt_")
    assert receiver.received[0].headers["webhook-id"] == event["id"]


def test_an_order_sends_its_own_events_and_only_to_its_account(
    client, make_key, make_pet, receiver, workers
):
    mine, theirs = make_key(), make_key()
    pet = make_pet("Fido")
    everything = ("pet.created", "pet.status_changed", "order.placed", "order.cancelled")
    my_endpoint = subscribe(client, mine, receiver.url + "?me", *everything)
    their_endpoint = subscribe(client, theirs, receiver.url + "?them", *everything)
    only_orders = subscribe(client, mine, receiver.url + "?orders", "order.placed")

    order = post(client, mine, "/v1/store/orders", {"petId": pet.pk})

    receiver.wait_for(lambda got: len(got) == 4, seconds=READY_SECONDS)
    secrets = {
        "/hooks?me": my_endpoint,
        "/hooks?them": their_endpoint,
        "/hooks?orders": only_orders,
    }
    got = sorted(
        (d.path, Webhook(secrets[d.path]["secret"]).verify(d.body, d.headers)["type"])
        for d in receiver.received
    )
    assert got == [
        ("/hooks?me", "order.placed"),
        ("/hooks?me", "pet.status_changed"),
        ("/hooks?orders", "order.placed"),
        ("/hooks?them", "pet.status_changed"),
    ]
    placed = next(d.event for d in receiver.received if d.event["type"] == "order.placed")
    assert placed["data"] == order
    changed = next(d.event for d in receiver.received if d.event["type"] == "pet.status_changed")
    assert changed["data"]["status"] == "pending"
    assert changed["data"]["previousStatus"] == "available"


def test_a_failing_receiver_gets_the_same_event_until_it_succeeds(
    client, make_key, dog, receiver, workers
):
    key = make_key()
    subscribe(client, key, receiver.url, "pet.created")
    for status in (500, 500, 500):
        receiver.answers.put(status)

    post(client, key, "/v1/pets", {"name": "Rex", "categoryId": dog.pk})

    receiver.wait_for(lambda got: len(got) == 4, seconds=READY_SECONDS)
    assert len({d.headers["webhook-id"] for d in receiver.received}) == 1
    delivery = _settled(Delivery.objects.get)
    assert delivery.state == DeliveryState.DELIVERED
    assert delivery.attempts == 4


def test_a_timeout_is_tried_again(client, make_key, dog, receiver, workers):
    key = make_key()
    subscribe(client, key, receiver.url, "pet.created")
    receiver.answers.put(3.0)  # past the workers' 1 s timeout

    post(client, key, "/v1/pets", {"name": "Rex", "categoryId": dog.pk})

    receiver.wait_for(lambda got: len(got) == 2, seconds=READY_SECONDS)
    delivery = _settled(Delivery.objects.get)
    assert delivery.state == DeliveryState.DELIVERED
    assert delivery.attempts == 2


def test_410_disables_the_endpoint(client, make_key, dog, receiver, workers):
    key = make_key()
    subscribe(client, key, receiver.url, "pet.created")
    receiver.answers.put(410)

    post(client, key, "/v1/pets", {"name": "Rex", "categoryId": dog.pk})

    receiver.wait_for(lambda got: len(got) == 1, seconds=READY_SECONDS)
    delivery = _settled(Delivery.objects.get)
    assert delivery.state == DeliveryState.FAILED
    assert Endpoint.objects.get().enabled is False
    post(client, key, "/v1/pets", {"name": "Max", "categoryId": dog.pk})
    with pytest.raises(AssertionError):
        receiver.wait_for(lambda got: len(got) > 1, seconds=3)


def test_a_redirect_is_a_failed_try_and_is_not_followed(client, make_key, dog, receiver, workers):
    key = make_key()
    subscribe(client, key, receiver.url, "pet.created")
    receiver.answers.put(302)

    post(client, key, "/v1/pets", {"name": "Rex", "categoryId": dog.pk})

    receiver.wait_for(lambda got: len(got) == 2, seconds=READY_SECONDS)
    first = Delivery.objects.get()
    assert first.attempts >= 1
    # The second request is the retry, to the endpoint itself, not to the Location.
    assert all(d.headers["Host"].startswith("127.0.0.1:") for d in receiver.received)


def _settled(read, seconds: float = READY_SECONDS):
    """The delivery once its last attempt is recorded (the receiver answers before that)."""
    import time

    deadline = time.monotonic() + seconds
    while True:
        delivery = read()
        if delivery.state != DeliveryState.PENDING or time.monotonic() > deadline:
            return delivery
        time.sleep(0.05)


def test_a_whole_failed_schedule_disables_the_endpoint(client, make_key, dog, receiver, workers):
    key = make_key()
    subscribe(client, key, receiver.url, "pet.created")
    for _ in range(4):  # the first try and the schedule's three (1,1,1)
        receiver.answers.put(503)

    post(client, key, "/v1/pets", {"name": "Rex", "categoryId": dog.pk})

    receiver.wait_for(lambda got: len(got) == 4, seconds=READY_SECONDS)
    delivery = _settled(Delivery.objects.get)
    assert delivery.state == DeliveryState.FAILED
    assert delivery.attempts == 4
    assert delivery.last_status == 503
    endpoint = Endpoint.objects.get()
    assert endpoint.enabled is False
    assert "schedule" in endpoint.disabled_reason
