"""testWebhookEndpoint: a partner has a signed example event of any type sent to its endpoint,
to check its receiver. The example is the document's, its id ``evt_test_…``; it is never in the
feed; the workers send it, never the web process; at most 10 a minute, retries of test
deliveries included; bad input changes nothing; another account's endpoint is not found."""

from __future__ import annotations

import sys
from http import HTTPStatus
from typing import Any

import pytest

from audit.models import Entry
from events.models import Event
from tests.assertions import assert_error, assert_validation_error
from tests.webhooks.test_deliveries import deliver_due, first_attempt
from tests.webhooks.test_update import send, subscribe
from webhooks.models import Delivery

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


@pytest.fixture(autouse=True)
def _loopback_receivers(settings):
    settings.PETSTORE_WEBHOOK_ALLOW_PRIVATE = True


def send_example(client, key: str, endpoint_id: int, event_type: str = "order.placed"):
    return send(
        client, "POST", key, f"/v1/webhook_endpoints/{endpoint_id}/test", {"type": event_type}
    )


def documented_example(client, event_type: str) -> dict[str, Any]:
    schemas = client.get("/v1/openapi.json").json()["components"]["schemas"]
    ref = schemas["Event"]["discriminator"]["mapping"][event_type]
    return schemas[ref.rsplit("/", 1)[-1]]["example"]


def test_the_documents_example_arrives_signed_and_its_outcome_is_listed(client, make_key, receiver):
    key = make_key()
    # It lists none of the type sent: any type an endpoint may list can be tried.
    made = subscribe(client, key, receiver.url, "pet.created")

    queued = send_example(client, key, made["id"], "order.cancelled")
    deliver_due()

    assert queued.status_code == HTTPStatus.ACCEPTED, queued.content
    assert queued.json()["eventId"].startswith("evt_test_")
    assert (queued.json()["eventType"], queued.json()["state"]) == ("order.cancelled", "pending")
    (arrived,) = receiver.verified(made["secret"])
    assert arrived["id"] == queued.json()["eventId"]
    assert arrived["type"] == "order.cancelled"
    assert arrived["data"] == documented_example(client, "order.cancelled")["data"]
    row = first_attempt(client, key, made["id"])
    assert (row["id"], row["state"], row["lastAttempt"]["status"]) == (
        queued.json()["id"],
        "delivered",
        200,
    )


def test_an_example_is_never_in_the_feed_nor_sent_to_another_endpoint(client, make_key, receiver):
    key = make_key(scopes=["events:read", "orders:read", "webhooks:read", "webhooks:write"])
    made = subscribe(client, key, receiver.url, "order.placed")
    subscribe(client, key, receiver.url + "?other", "order.placed")

    queued = send_example(client, key, made["id"], "order.placed")
    for _ in range(3):
        deliver_due()

    feed = send(client, "GET", key, "/v1/events")
    assert feed.status_code == HTTPStatus.OK, feed.content
    assert queued.json()["eventId"] not in [event["id"] for event in feed.json()]
    assert [d.path for d in receiver.received] == ["/hooks"]
    assert Event.objects.get(uid=queued.json()["eventId"]).position is None


# Addresses the web process connects to while it answers, as Python's audit hook sees each
# socket's connect (sys.addaudithook: a hook cannot be removed, so it records only when asked).
_connecting: list[Any] | None = None


def _on_audit(event: str, args: tuple[Any, ...]) -> None:
    if event == "socket.connect" and _connecting is not None:
        _connecting.append(args[1])


sys.addaudithook(_on_audit)


def test_no_web_process_connects_out_the_workers_send_it(client, make_key, receiver, workers):
    global _connecting
    key = make_key()
    made = subscribe(client, key, receiver.url, "pet.created")
    port = receiver.server.server_port

    _connecting = []
    try:
        queued = send_example(client, key, made["id"])
        connected = list(_connecting)
    finally:
        _connecting = None

    assert queued.status_code == HTTPStatus.ACCEPTED, queued.content
    assert not [a for a in connected if isinstance(a, tuple) and a[1:2] == (port,)], connected
    assert receiver.connections == 0
    # The Celery workers, in their own processes, send it.
    receiver.wait_for(lambda received: len(received) == 1)
    assert receiver.verified(made["secret"])[0]["id"] == queued.json()["eventId"]


def test_ten_a_minute_then_429_with_retry_after_and_nothing_queued(
    client, make_key, receiver, clock
):
    key = make_key()
    made = subscribe(client, key, receiver.url, "pet.created")
    for n in range(10):
        clock.advance(1)
        assert send_example(client, key, made["id"]).status_code == HTTPStatus.ACCEPTED, n

    refused = send_example(client, key, made["id"])

    assert_error(refused, HTTPStatus.TOO_MANY_REQUESTS, "rate_limited")
    # The first of the ten was sent 9 s ago: it leaves the minute in 51 s.
    assert refused["Retry-After"] == "51"
    assert "X-RateLimit-Limit" in refused
    assert Delivery.objects.filter(endpoint_id=made["id"]).count() == 10
    assert Entry.objects.filter(action="endpoint.tested").count() == 10
    clock.advance(51)
    assert send_example(client, key, made["id"]).status_code == HTTPStatus.ACCEPTED


def test_retries_of_a_test_delivery_count_among_the_ten(client, make_key, receiver, clock):
    key = make_key()
    made = subscribe(client, key, receiver.url, "pet.created")
    queued = send_example(client, key, made["id"])
    retry = f"/v1/webhook_endpoints/{made['id']}/deliveries/{queued.json()['id']}/retry"
    for n in range(9):
        deliver_due()  # sent, so that the retry finds it waiting, not in flight
        clock.advance(1)
        assert send(client, "POST", key, retry).status_code == HTTPStatus.ACCEPTED, n
    deliver_due()

    by_retry = send(client, "POST", key, retry)
    by_test = send_example(client, key, made["id"])
    deliver_due()

    for refused in (by_retry, by_test):
        assert_error(refused, HTTPStatus.TOO_MANY_REQUESTS, "rate_limited")
        # The test send of 9 s ago leaves the minute in 51 s.
        assert refused["Retry-After"] == "51"
    assert len(receiver.received) == 10
    assert Entry.objects.filter(action="delivery.retried").count() == 9
    clock.advance(51)
    assert send(client, "POST", key, retry).status_code == HTTPStatus.ACCEPTED


def test_each_endpoint_has_its_own_ten(client, make_key, receiver, clock):
    key = make_key()
    first = subscribe(client, key, receiver.url, "pet.created")
    second = subscribe(client, key, receiver.url + "?2", "pet.created")
    for _ in range(10):
        send_example(client, key, first["id"])

    assert send_example(client, key, first["id"]).status_code == HTTPStatus.TOO_MANY_REQUESTS
    assert send_example(client, key, second["id"]).status_code == HTTPStatus.ACCEPTED


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"type": "pet.adopted"}, "type"),
        ({"type": ["pet.created"]}, "type"),
        ({}, "type"),
        ({"type": "pet.created", "data": {"name": "Rex"}}, "data"),
    ],
)
def test_bad_input_is_refused_and_changes_nothing(client, make_key, receiver, body, field):
    key = make_key()
    made = subscribe(client, key, receiver.url, "pet.created")
    events = Event.objects.count()

    refused = send(client, "POST", key, f"/v1/webhook_endpoints/{made['id']}/test", body)

    assert_validation_error(refused, field)
    assert Event.objects.count() == events
    assert not Delivery.objects.filter(endpoint_id=made["id"]).exists()
    assert not Entry.objects.filter(action="endpoint.tested").exists()


def test_another_accounts_endpoint_is_not_found_and_the_trail_names_the_key(
    client, make_key, receiver
):
    mine, theirs = make_key(), make_key()
    made = subscribe(client, mine, receiver.url, "pet.created")

    assert_error(send_example(client, theirs, made["id"]), HTTPStatus.NOT_FOUND, "not_found")
    assert not Delivery.objects.filter(endpoint_id=made["id"]).exists()

    assert send_example(client, mine, made["id"]).status_code == HTTPStatus.ACCEPTED
    entry = Entry.objects.get(action="endpoint.tested")
    assert entry.actor.startswith("key:")
    assert entry.changes["type"] == [None, "order.placed"]
