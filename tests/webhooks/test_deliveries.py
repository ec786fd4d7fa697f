"""listWebhookDeliveries, retryWebhookDelivery and recoverWebhookEndpoint: a partner reads how
each attempt went (status, duration, why it failed, the start of the receiver's answer), sends
one delivery again with the same webhook-id, and has every failed delivery since a time sent
once more; another account's endpoint is not found, and bad input changes nothing."""

from __future__ import annotations

import time
from datetime import timedelta
from http import HTTPStatus

import pytest
from django.utils import timezone

from audit.models import Entry
from events.models import Event
from tests.assertions import assert_error, assert_validation_error
from tests.webhooks.test_update import send, subscribe
from webhooks import services, tasks
from webhooks.models import Delivery, DeliveryState

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

# Longer than the 512 bytes kept, with a two-byte character cut in half by the cut.
BODY = b"x" * 511 + "\u00e9".encode() + b"y" * 100


@pytest.fixture(autouse=True)
def _loopback_receivers(settings):
    settings.PETSTORE_WEBHOOK_ALLOW_PRIVATE = True


def listed(client, key: str, endpoint_id: int, query: str = "") -> list[dict]:
    response = send(client, "GET", key, f"/v1/webhook_endpoints/{endpoint_id}/deliveries{query}")
    assert response.status_code == HTTPStatus.OK, response.content
    return response.json()


def first_attempt(client, key: str, endpoint_id: int, seconds: float = 10) -> dict:
    deadline = time.monotonic() + seconds
    while True:
        rows = listed(client, key, endpoint_id)
        if rows and rows[0]["lastAttempt"] is not None:
            return rows[0]
        assert time.monotonic() < deadline, f"no attempt listed within {seconds} s"
        time.sleep(0.1)


def failed(endpoint_id: int, *, ago: timedelta) -> Delivery:
    """A delivery whose every attempt failed, made ``ago``."""
    made = timezone.now() - ago
    return Delivery.objects.create(
        endpoint_id=endpoint_id,
        event=Event.objects.create(type="pet.created", data={"name": "Rex"}, created_at=made),
        state=DeliveryState.FAILED,
        attempts=4,
        last_attempt_at=made,
        last_status=500,
        created_at=made,
    )


def deliver_due() -> None:
    """The workers' task, here, on what is due."""
    for run in services.lease_due():
        tasks._send(run)


def test_the_list_shows_the_status_duration_error_and_first_512_bytes_of_the_answer(
    client, make_key, dog, receiver, workers
):
    key = make_key()
    made = subscribe(client, key, receiver.url, "pet.created")
    receiver.body = BODY
    receiver.answers.put(500)

    send(client, "POST", key, "/v1/pets", {"name": "Rex", "categoryId": dog.pk})
    row = first_attempt(client, key, made["id"])

    last = row["lastAttempt"]
    assert (row["eventType"], row["state"], row["attempts"]) == ("pet.created", "pending", 1)
    assert row["eventId"] == receiver.received[0].headers["webhook-id"]
    assert (last["status"], last["error"]) == (500, "status")
    assert isinstance(last["durationMs"], int)
    assert last["response"] == "x" * 511  # the half of a character is not kept
    assert not {"secret", "signature"} & set(str(row).split("'"))


def test_a_receiver_that_hangs_is_listed_as_a_timeout(
    client, make_key, dog, hanging_receiver, workers
):
    key = make_key()
    made = subscribe(client, key, hanging_receiver.url, "pet.created")

    send(client, "POST", key, "/v1/pets", {"name": "Rex", "categoryId": dog.pk})
    last = first_attempt(client, key, made["id"])["lastAttempt"]

    assert (last["status"], last["error"], last["response"]) == (None, "timeout", "")
    assert last["durationMs"] >= 1000  # the workers' timeout here is a second


def test_it_lists_newest_first_by_state_and_pages_with_link(client, make_key, receiver):
    key = make_key()
    made = subscribe(client, key, receiver.url, "pet.created")
    old = [failed(made["id"], ago=timedelta(hours=n)) for n in (3, 2, 1)]
    Delivery.objects.filter(pk=old[1].pk).update(state=DeliveryState.DELIVERED)
    gone = failed(made["id"], ago=timedelta(days=31))

    first = send(client, "GET", key, f"/v1/webhook_endpoints/{made['id']}/deliveries?limit=2")
    following = first["Link"].split(">")[0].lstrip("<")
    second = send(client, "GET", key, following)

    assert [row["id"] for row in first.json()] == [old[2].pk, old[1].pk]
    assert [row["id"] for row in second.json()] == [old[0].pk]
    assert "Link" not in second
    assert gone.pk not in [row["id"] for row in listed(client, key, made["id"])]
    only_failed = listed(client, key, made["id"], "?state=failed")
    assert [row["id"] for row in only_failed] == [old[2].pk, old[0].pk]


def test_retry_sends_it_again_with_the_same_webhook_id(client, make_key, receiver):
    key = make_key()
    made = subscribe(client, key, receiver.url, "pet.created")
    delivery = failed(made["id"], ago=timedelta(hours=1))
    path = f"/v1/webhook_endpoints/{made['id']}/deliveries/{delivery.pk}/retry"

    retried = send(client, "POST", key, path)
    deliver_due()

    assert retried.status_code == HTTPStatus.ACCEPTED, retried.content
    assert (retried.json()["id"], retried.json()["state"]) == (delivery.pk, "pending")
    (arrived,) = receiver.verified(made["secret"])
    assert receiver.received[0].headers["webhook-id"] == delivery.event.uid == arrived["id"]
    row = listed(client, key, made["id"])[0]
    assert (row["state"], row["lastAttempt"]["status"], row["lastAttempt"]["error"]) == (
        "delivered",
        200,
        None,
    )
    entry = Entry.objects.get(action="delivery.retried")
    assert entry.actor.startswith("key:")


def test_recover_sends_each_failed_delivery_since_once_more_oldest_first(
    client, make_key, receiver
):
    key = make_key()
    made = subscribe(client, key, receiver.url, "pet.created")
    before = failed(made["id"], ago=timedelta(hours=3))
    since = timezone.now() - timedelta(hours=2)
    wanted = [failed(made["id"], ago=timedelta(hours=n)) for n in (1, 0)]
    delivered = failed(made["id"], ago=timedelta(minutes=30))
    Delivery.objects.filter(pk=delivered.pk).update(state=DeliveryState.DELIVERED)

    recovered = send(
        client,
        "POST",
        key,
        f"/v1/webhook_endpoints/{made['id']}/recover",
        {"since": since.isoformat()},
    )
    deliver_due()
    deliver_due()

    assert recovered.status_code == HTTPStatus.ACCEPTED, recovered.content
    assert recovered.json() == {"requeued": 2, "hasMore": False}
    arrived = [event["id"] for event in receiver.verified(made["secret"])]
    assert arrived == [wanted[0].event.uid, wanted[1].event.uid]
    assert Delivery.objects.get(pk=before.pk).state == DeliveryState.FAILED
    assert Entry.objects.get(action="endpoint.recovered").actor.startswith("key:")


@pytest.mark.parametrize(
    "body",
    [
        {"since": "in-the-future"},
        {"since": "2026-11-26T10:00:00"},
        {"since": "future"},
        {"since": "long-ago"},
        {"since": "now", "dryRun": True},
    ],
)
def test_bad_recoveries_are_refused_and_change_nothing(client, make_key, receiver, body):
    key = make_key()
    made = subscribe(client, key, receiver.url, "pet.created")
    delivery = failed(made["id"], ago=timedelta(hours=1))
    times = {
        "future": timezone.now() + timedelta(hours=1),
        "long-ago": timezone.now() - timedelta(days=31),
        "now": timezone.now() - timedelta(days=1),
    }
    if body["since"] in times:
        body = {**body, "since": times[body["since"]].isoformat()}

    refused = send(client, "POST", key, f"/v1/webhook_endpoints/{made['id']}/recover", body)

    assert_validation_error(refused, "dryRun" if "dryRun" in body else "since")
    assert Delivery.objects.get(pk=delivery.pk).state == DeliveryState.FAILED
    assert not Entry.objects.filter(action="endpoint.recovered").exists()


def test_another_accounts_endpoint_or_delivery_is_not_found(client, make_key, receiver):
    mine, theirs = make_key(), make_key()
    made = subscribe(client, mine, receiver.url, "pet.created")
    other = subscribe(client, theirs, receiver.url, "pet.created")
    delivery = failed(made["id"], ago=timedelta(hours=1))
    since = {"since": (timezone.now() - timedelta(days=1)).isoformat()}
    base = f"/v1/webhook_endpoints/{made['id']}"

    for method, path, body, key in [
        ("GET", f"{base}/deliveries", None, theirs),
        ("POST", f"{base}/deliveries/{delivery.pk}/retry", None, theirs),
        ("POST", f"{base}/recover", since, theirs),
        (
            "POST",
            f"/v1/webhook_endpoints/{other['id']}/deliveries/{delivery.pk}/retry",
            None,
            theirs,
        ),
    ]:
        assert_error(send(client, method, key, path, body), HTTPStatus.NOT_FOUND, "not_found")
    assert Delivery.objects.get(pk=delivery.pk).state == DeliveryState.FAILED
    assert not Entry.objects.filter(action__in=["delivery.retried", "endpoint.recovered"]).exists()
