"""A partner's own events are not queued behind the shared catalogue: with its receiver answering
in a second, another account's 150 new animals, or a bulk of 10,000, leave its `order.placed`
arriving within seconds, and its endpoint never has more than its places in flight. Through the
workers as `make serve` starts them and a real receiver on loopback."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from datetime import datetime
from http import HTTPStatus
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from deploy.workers import start_workers, stop_workers
from events.models import Event
from pets.models import Pet, PetStatus
from tests.webhooks.conftest import Receiver, wait_for_a_worker, worker_env
from tests.webhooks.test_update import subscribe

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

# The partner's receiver takes this long over each request, well within the workers' timeout.
SLOW = 1.0
# How soon the partner's own event must arrive, and how long the test waits for it.
PROMPT, WAITED = 5.0, 20.0
ANIMALS, IN_SECONDS = 150, 8.0
BULK = 10_000
PLACES = 2


@pytest.fixture
def delivering(transactional_db: None, tmp_path: Path, settings) -> Iterator[None]:
    settings.PETSTORE_WEBHOOK_ALLOW_PRIVATE = True  # the receiver is on loopback
    env = worker_env(
        PETSTORE_WEBHOOK_CONNECT_TIMEOUT_SECONDS="1",
        PETSTORE_WEBHOOK_TIMEOUT_SECONDS="5",
        PETSTORE_WEBHOOK_LEASE_SECONDS="60",
        PETSTORE_WEBHOOK_ENDPOINT_CONCURRENCY=str(PLACES),
    )
    workers = start_workers(env, tmp_path)
    try:
        wait_for_a_worker()
        yield
    finally:
        stop_workers(workers, kill=True)


def post(client, key: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post(
        path,
        json.dumps(body),
        content_type="application/json",
        headers={"Authorization": f"Bearer {key}"},
    )
    assert response.status_code == HTTPStatus.CREATED, response.content
    return response.json()


def partner(client, make_key, receiver: Receiver, category: int) -> tuple[str, int]:
    """Account 1: an animal of its own to order (made before its endpoint, so not sent), and
    an endpoint for its orders and the catalogue's new animals at ``receiver``, which answers
    each request in ``SLOW`` seconds."""
    key = make_key(plan="pro")
    pet = post(client, key, "/v1/pets", {"name": "Rex", "categoryId": category})
    subscribe(client, key, receiver.url, "order.placed", "pet.created")
    for _ in range(1000):  # more than the test lasts
        receiver.answers.put(SLOW)
    return key, pet["id"]


def own_event_late(client, key: str, pet_id: int, receiver: Receiver) -> float:
    """Place an order and wait for its ``order.placed`` at ``receiver``: seconds from the event
    to its arrival."""
    order = post(client, key, "/v1/store/orders", {"petId": pet_id})
    deadline = time.monotonic() + WAITED
    while time.monotonic() < deadline:
        for delivered in list(receiver.received):
            if delivered.event["type"] == "order.placed":
                assert delivered.event["data"]["id"] == order["id"]
                created = datetime.fromisoformat(delivered.event["createdAt"]).timestamp()
                return delivered.at - created
        time.sleep(0.05)
    shared = len(receiver.received)
    raise AssertionError(f"order.placed not received in {WAITED} s ({shared} others were)")


def test_another_accounts_new_animals_do_not_hold_up_a_partners_order(
    client, make_key, dog, receiver, delivering
):
    key, pet_id = partner(client, make_key, receiver, dog.pk)
    shelter = make_key(plan="pro")
    started = time.monotonic()
    for n in range(ANIMALS):
        post(client, shelter, "/v1/pets", {"name": f"Pet {n}", "categoryId": dog.pk})
        # Spread over the seconds the shelter took, inside Pro's 300 a minute.
        time.sleep(max(0.0, started + IN_SECONDS * (n + 1) / ANIMALS - time.monotonic()))

    late = own_event_late(client, key, pet_id, receiver)

    assert late < PROMPT, late
    # The catalogue was being sent meanwhile, and never more at once than the endpoint's places.
    assert len(receiver.received) > 1
    assert 1 <= receiver.most_in_flight <= PLACES, receiver.most_in_flight


def test_a_bulk_of_ten_thousand_animals_does_not_hold_up_a_partners_order(
    client, make_key, dog, receiver, delivering
):
    key, pet_id = partner(client, make_key, receiver, dog.pk)
    # A shelter's import, written in bulk: the animals and their pet.created events.
    pets = Pet.objects.bulk_create(
        Pet(name=f"Imported {n}", category=dog, status=PetStatus.AVAILABLE) for n in range(BULK)
    )
    now = timezone.now()
    Event.objects.bulk_create(
        (
            Event(type="pet.created", data={"id": pet.pk, "name": pet.name}, created_at=now)
            for pet in pets
        ),
        batch_size=2000,
    )
    # The catalogue is on its way: both places are taken by it.
    deadline = time.monotonic() + WAITED
    while receiver.most_in_flight < PLACES:
        assert time.monotonic() < deadline, "the catalogue was not being sent"
        time.sleep(0.05)

    late = own_event_late(client, key, pet_id, receiver)

    assert late < PROMPT, late
    assert receiver.most_in_flight <= PLACES, receiver.most_in_flight
