"""No partner waits on another: a receiver that hangs, or keeps failing, holds up only its own
deliveries. Through the workers as `make serve` starts them (gevent's pool, a database
connection pool, the beat beside them)."""

from __future__ import annotations

import json
import time
from datetime import datetime
from http import HTTPStatus
from pathlib import Path
from typing import Any

import pytest

from deploy.workers import start_workers, stop_workers
from tests.waiting import READY_SECONDS
from tests.webhooks.conftest import wait_for_a_worker, worker_env
from webhooks.models import Delivery, DeliveryState, Endpoint

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

ANIMALS = 20


def post(client, key: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post(
        path, json.dumps(body), content_type="application/json", headers=_bearer(key)
    )
    assert response.status_code == HTTPStatus.CREATED, response.content
    return response.json()


def _bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def test_a_hanging_receiver_holds_up_nobody_else(
    client, make_key, dog, receiver, hanging_receiver, tmp_path: Path, settings
):
    settings.PETSTORE_WEBHOOK_ALLOW_PRIVATE = True  # the receivers are on loopback
    # The answer's timeout as deployed (15 s): the hanging receiver holds each attempt that long.
    env = worker_env(PETSTORE_WEBHOOK_TIMEOUT_SECONDS="15")
    workers = start_workers(env, tmp_path)
    try:
        wait_for_a_worker()
        slow = make_key()
        post(
            client,
            slow,
            "/v1/webhook_endpoints",
            {"url": hanging_receiver.url, "events": ["pet.created"]},
        )
        quick = [make_key() for _ in range(3)]
        for n, key in enumerate(quick):
            url = f"{receiver.url}?quick={n}"
            post(client, key, "/v1/webhook_endpoints", {"url": url, "events": ["pet.created"]})

        for n in range(ANIMALS):
            post(client, slow, "/v1/pets", {"name": f"Pet {n}", "categoryId": dog.pk})

        receiver.wait_for(lambda got: len(got) >= 3 * ANIMALS, seconds=READY_SECONDS)
        late = [
            delivered.at - datetime.fromisoformat(delivered.event["createdAt"]).timestamp()
            for delivered in receiver.received
        ]
        assert len({(d.path, d.headers["webhook-id"]) for d in receiver.received}) == 3 * ANIMALS
        assert max(late) < 5, sorted(late)[-5:]
        # The hanging receiver was sent its share at once, and no more than its share.
        assert 1 <= len(hanging_receiver.received) <= 2
    finally:
        stop_workers(workers, kill=True)


def test_a_receiver_failing_for_a_while_is_paused_then_sent_all_it_was_owed(
    client, make_key, dog, receiver, workers
):
    key = make_key(plan="enterprise")  # polled often
    endpoint = post(
        client, key, "/v1/webhook_endpoints", {"url": receiver.url, "events": ["pet.created"]}
    )
    for _ in range(6):
        receiver.answers.put(3.0)  # past the workers' 1 s timeout
    for n in range(5):
        post(client, key, "/v1/pets", {"name": f"Pet {n}", "categoryId": dog.pk})

    states = []
    deadline = time.monotonic() + READY_SECONDS
    while time.monotonic() < deadline:
        (shown,) = client.get("/v1/webhook_endpoints", headers=_bearer(key)).json()
        states.append((shown["state"], shown["pausedUntil"]))
        delivered = Delivery.objects.filter(state=DeliveryState.DELIVERED).count()
        if delivered == 5:
            break
        time.sleep(0.1)

    paused = [until for state, until in states if state == "paused"]
    assert paused, states
    assert all(until is not None for until in paused)
    assert states[-1] == ("healthy", None)
    ids = {event["id"] for event in receiver.verified(endpoint["secret"])}
    assert len(ids) == 5
    deliveries = list(Delivery.objects.all())
    assert {d.state for d in deliveries} == {DeliveryState.DELIVERED}
    # Six failed attempts, of which the schedule (1 s, 1 s, 1 s: four attempts) spent at most
    # the four made before the pause: no delivery came near its end.
    assert sum(d.attempts for d in deliveries) <= 5 + 4
    assert max(d.attempts for d in deliveries) <= 2
    assert Endpoint.objects.get().failures == 0
