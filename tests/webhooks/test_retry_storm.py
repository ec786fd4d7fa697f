"""No tenant takes another's delivery capacity: a partner retrying its deliveries to a receiver
that holds every request gets at most its endpoint's two attempts in flight, however hard it
retries, and another account's deliveries arrive as soon as before. Retries through gunicorn,
deliveries by the workers as `make serve` starts them, both receivers real."""

from __future__ import annotations

import statistics
import threading
import time
from collections.abc import Iterator
from datetime import datetime
from http import HTTPStatus
from pathlib import Path

import pytest

from deploy.workers import start_workers, stop_workers
from events.models import Event
from tests.reliability.conftest import Instance, start_instance
from tests.waiting import wait_until
from tests.webhooks.conftest import Receiver, wait_for_a_worker, worker_env
from tests.webhooks.test_update import subscribe
from webhooks.deliveries import IN_FLIGHT
from webhooks.models import Delivery, DeliveryState, Endpoint

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

RETRIES = 100
RETRYING = 4  # partners' threads retrying at once
ANIMALS = 15  # the other account's events, before the storm and during it
# How long the slow receiver holds each request before it answers: within the workers' timeout,
# so each attempt is a success (the circuit breaker stays closed) that takes a place that long.
HOLD = 1.5


@pytest.fixture
def api(transactional_db: None) -> Iterator[Instance]:
    instance = start_instance()
    yield instance
    instance.process.terminate()
    instance.process.wait(timeout=15)


@pytest.fixture
def delivering(transactional_db: None, tmp_path: Path, settings) -> Iterator[None]:
    settings.PETSTORE_WEBHOOK_ALLOW_PRIVATE = True  # the receivers are on loopback
    env = worker_env(
        PETSTORE_WEBHOOK_CONNECT_TIMEOUT_SECONDS="1",
        PETSTORE_WEBHOOK_TIMEOUT_SECONDS="5",
        PETSTORE_WEBHOOK_LEASE_SECONDS="20",
    )
    workers = start_workers(env, tmp_path)
    try:
        wait_for_a_worker()
        yield
    finally:
        stop_workers(workers, kill=True)


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1]


def latencies(
    api: Instance, key: str, category: int, receiver: Receiver, animals: range
) -> list[float]:
    """Seconds from each new animal's event to its arrival at ``receiver``."""
    for n in animals:
        made = api.call("POST", "/v1/pets", key, {"name": f"Pet {n}", "categoryId": category})
        assert made.status == HTTPStatus.CREATED, made.body
        time.sleep(0.1)
    receiver.wait_for(lambda got: len(got) >= animals.stop)
    arrived = receiver.received[animals.start : animals.stop]
    return [d.at - datetime.fromisoformat(d.event["createdAt"]).timestamp() for d in arrived]


def test_a_retry_storm_holds_two_places_and_slows_no_other_account(
    client, make_key, dog, receiver, other_receiver, api, delivering
):
    holding, quick_receiver = other_receiver, receiver
    slow, quick = (make_key(plan="enterprise") for _ in range(2))
    slow_endpoint = subscribe(client, slow, holding.url, "order.placed")
    subscribe(client, quick, quick_receiver.url, "pet.created")
    for _ in range(RETRIES):
        holding.answers.put(HOLD)
    # Three of the slow account's deliveries, failed: the storm's first retries queue them.
    account_id = Endpoint.objects.get(pk=slow_endpoint["id"]).account_id
    owed = [
        Delivery.objects.create(
            endpoint_id=slow_endpoint["id"],
            event=Event.objects.create(
                type="order.placed",
                account_id=account_id,
                data={"n": n},
                fanned_out=True,
            ),
            state=DeliveryState.FAILED,
        )
        for n in range(3)
    ]

    before = latencies(api, quick, dog.pk, quick_receiver, range(ANIMALS))

    answers: list[tuple[int, object]] = []

    def storm(start: int) -> None:
        for n in range(start, RETRIES, RETRYING):
            delivery = owed[n % len(owed)]
            path = f"/v1/webhook_endpoints/{slow_endpoint['id']}/deliveries/{delivery.pk}/retry"
            reply = api.call("POST", path, slow)
            answers.append((reply.status, reply.body))
            time.sleep(0.05)

    retrying = [threading.Thread(target=storm, args=(n,)) for n in range(RETRYING)]
    for thread in retrying:
        thread.start()
    during = latencies(api, quick, dog.pk, quick_receiver, range(ANIMALS, 2 * ANIMALS))
    for thread in retrying:
        thread.join(timeout=60)
    wait_until(
        lambda: (
            not Delivery.objects.filter(pk__in=[d.pk for d in owed])
            .exclude(state=DeliveryState.DELIVERED)
            .exists()
        ),
        "the slow account's retried deliveries delivered",
        seconds=60,
    )

    # Counted at the receiver: never more than the endpoint's two places at once.
    assert 1 <= holding.most_in_flight <= 2, holding.most_in_flight
    assert len(holding.received) >= len(owed)
    statuses = [status for status, _ in answers]
    assert len(statuses) == RETRIES
    assert set(statuses) == {HTTPStatus.ACCEPTED, HTTPStatus.CONFLICT}, statuses
    for status, body in answers:
        if status == HTTPStatus.CONFLICT:
            assert body == {"code": "conflict", "message": IN_FLIGHT, "status": 409}
    # The other account's deliveries arrive as soon as before, within noise.
    assert p95(during) <= 2 * p95(before) + 0.5, (sorted(before), sorted(during))
