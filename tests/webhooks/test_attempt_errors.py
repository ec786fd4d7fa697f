"""Why an attempt failed, as listWebhookDeliveries says it, for each kind the document names:
each made to happen for real against loopback, and sent by the workers' own task."""

from __future__ import annotations

from datetime import timedelta
from http import HTTPStatus

import pytest
from django.utils import timezone

from events.models import Event
from tests.webhooks.test_deliveries import deliver_due, failed, listed
from tests.webhooks.test_update import send, subscribe
from tests.webhooks.unreachable import closed_port
from webhooks.deliveries import MAX_RECOVERED
from webhooks.models import AttemptError, Delivery, Endpoint

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


@pytest.fixture(autouse=True)
def _loopback_receivers(settings):
    settings.PETSTORE_WEBHOOK_ALLOW_PRIVATE = True


def last_attempt_to(client, make_key, url: str) -> dict:
    """The last attempt listed of one delivery sent once to ``url``."""
    key = make_key()
    made = subscribe(client, key, "http://127.0.0.1:9/hooks", "pet.created")
    Endpoint.objects.filter(pk=made["id"]).update(url=url)
    owed = failed(made["id"], ago=timedelta(minutes=1))
    Delivery.objects.filter(pk=owed.pk).update(state="pending", next_attempt_at=owed.created_at)
    deliver_due()
    (row,) = listed(client, key, made["id"])
    assert row["attempts"] == 5, row  # the four before, and this one
    return row["lastAttempt"]


def test_a_refused_connection(client, make_key):
    last = last_attempt_to(client, make_key, f"http://127.0.0.1:{closed_port()}/hooks")

    assert (last["status"], last["error"]) == (None, AttemptError.CONNECTION)


def test_a_redirect_is_not_followed(client, make_key, receiver):
    receiver.answers.put(302)

    last = last_attempt_to(client, make_key, receiver.url)

    assert (last["status"], last["error"]) == (302, AttemptError.REDIRECT)
    assert len(receiver.received) == 1  # the redirect's target was never asked


def test_a_tls_handshake_with_a_receiver_that_speaks_none(client, make_key, receiver):
    last = last_attempt_to(client, make_key, receiver.url.replace("http://", "https://"))

    assert (last["status"], last["error"]) == (None, AttemptError.TLS)
    assert receiver.received == []


def test_an_address_refused_is_never_connected_to(client, make_key, receiver, settings):
    key = make_key()
    made = subscribe(client, key, receiver.url, "pet.created")
    owed = failed(made["id"], ago=timedelta(minutes=1))
    Delivery.objects.filter(pk=owed.pk).update(state="pending", next_attempt_at=owed.created_at)
    settings.PETSTORE_WEBHOOK_ALLOW_PRIVATE = False  # production's rule: loopback is refused

    deliver_due()

    last = listed(client, key, made["id"])[0]["lastAttempt"]
    assert (last["status"], last["error"]) == (None, AttemptError.ADDRESS)
    assert receiver.connections == 0


def test_a_status_other_than_2xx(client, make_key, receiver):
    receiver.answers.put(HTTPStatus.SERVICE_UNAVAILABLE)

    last = last_attempt_to(client, make_key, receiver.url)

    assert (last["status"], last["error"]) == (503, AttemptError.STATUS)


def test_recover_queues_a_thousand_a_call_and_says_more_are_left(client, make_key, receiver):
    key = make_key()
    made = subscribe(client, key, receiver.url, "pet.created")
    since = timezone.now() - timedelta(hours=2)
    events = Event.objects.bulk_create(
        Event(type="pet.created", data={}, created_at=since) for _ in range(MAX_RECOVERED + 1)
    )
    Delivery.objects.bulk_create(
        Delivery(endpoint_id=made["id"], event=event, state="failed", created_at=since)
        for event in events
    )
    recover = f"/v1/webhook_endpoints/{made['id']}/recover"

    first = send(client, "POST", key, recover, {"since": since.isoformat()})
    queued = set(Delivery.objects.filter(state="pending").values_list("pk", flat=True))
    second = send(client, "POST", key, recover, {"since": since.isoformat()})
    third = send(client, "POST", key, recover, {"since": since.isoformat()})

    assert first.json() == {"requeued": MAX_RECOVERED, "hasMore": True}
    assert len(queued) == MAX_RECOVERED
    # The oldest first: the one left is the last made.
    assert max(queued) < Delivery.objects.exclude(pk__in=queued).get().pk
    assert second.json() == {"requeued": 1, "hasMore": False}
    assert third.json() == {"requeued": 0, "hasMore": False}
