"""Nothing owed is lost while an endpoint is disabled: each event of its types that happens
meanwhile is a failed delivery, unsent, saying why (``disabled``); enabling it sends none of
them, and ``recover`` since the outage sends every one exactly once. Through the API, with the
real workers and a real receiver that counts the ``webhook-id``s it gets."""

from __future__ import annotations

import json
import time
from collections import Counter
from datetime import UTC, datetime
from http import HTTPStatus

import pytest

from tests.waiting import wait_until
from webhooks.models import AttemptError, Delivery, DeliveryState

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

BEFORE, DURING, AFTER = 2, 6, 1


@pytest.fixture(autouse=True)
def _loopback_receivers(settings):
    settings.PETSTORE_WEBHOOK_ALLOW_PRIVATE = True


def send(client, method: str, key: str, path: str, body: object | None = None):
    return client.generic(
        method,
        path,
        "" if body is None else json.dumps(body),
        content_type="application/json",
        headers={"Authorization": f"Bearer {key}"},
    )


def test_enabled_again_and_recovered_it_gets_every_event_of_the_gap_exactly_once(
    client, make_key, dog, receiver, workers
):
    key = make_key()
    made = send(
        client,
        "POST",
        key,
        "/v1/webhook_endpoints",
        {"url": receiver.url, "events": ["pet.created"]},
    )
    assert made.status_code == HTTPStatus.CREATED
    path = f"/v1/webhook_endpoints/{made.json()['id']}"

    def add(name: str) -> str:
        added = send(client, "POST", key, "/v1/pets", {"name": name, "categoryId": dog.pk})
        assert added.status_code == HTTPStatus.CREATED
        return name

    before = [add(f"Before {n}") for n in range(BEFORE)]
    receiver.wait_for(lambda got: len(got) >= BEFORE)
    outage = datetime.now(UTC)
    assert send(client, "PATCH", key, path, {"enabled": False}).status_code == HTTPStatus.OK
    during = [add(f"During {n}") for n in range(DURING)]
    owed = Delivery.objects.filter(state=DeliveryState.FAILED)
    wait_until(lambda: owed.count() == DURING, "the gap's deliveries made, failed")

    listed = send(client, "GET", key, f"{path}/deliveries?state=failed").json()
    assert len(listed) == DURING
    assert {(d["attempts"], d["lastAttempt"]["error"]) for d in listed} == {(0, "disabled")}
    assert {d.last_error_kind for d in owed} == {AttemptError.DISABLED}
    assert all("Disabled through the API." in d.last_error for d in owed)

    enabled = send(client, "PATCH", key, path, {"enabled": True})
    assert enabled.status_code == HTTPStatus.OK
    # Enabling sends what was pending; the gap's stay failed until recovered.
    assert owed.count() == DURING
    after = [add(f"After {n}") for n in range(AFTER)]
    recovered = send(client, "POST", key, f"{path}/recover", {"since": outage.isoformat()})
    assert recovered.status_code == HTTPStatus.ACCEPTED
    assert recovered.json() == {"requeued": DURING, "hasMore": False}

    receiver.wait_for(lambda got: len({d.headers["webhook-id"] for d in got}) >= 9)
    wait_until(
        lambda: not Delivery.objects.exclude(state=DeliveryState.DELIVERED).exists(),
        "every delivery recorded delivered",
    )
    time.sleep(1)  # a second sending of any would have arrived by now
    arrived = receiver.verified(made.json()["secret"])
    counted = Counter(d.headers["webhook-id"] for d in receiver.received)
    assert set(counted.values()) == {1}
    names = sorted(event["data"]["name"] for event in arrived)
    assert names == sorted(before + during + after)
    again = send(client, "POST", key, f"{path}/recover", {"since": outage.isoformat()})
    assert again.json() == {"requeued": 0, "hasMore": False}
