"""An endpoint's places in flight are its leases: retrying what is being sent is a 409 that
changes nothing, and no mix of retries, recoveries, test sends and new events leases past the
endpoint's places; a run whose lease has ended is sent nothing."""

from __future__ import annotations

from datetime import timedelta
from http import HTTPStatus

import pytest
from django.utils import timezone

from audit.models import Entry
from events.models import Event
from tests.assertions import assert_error
from tests.webhooks.test_update import send, subscribe
from webhooks import services, tasks
from webhooks.deliveries import IN_FLIGHT
from webhooks.models import Delivery, DeliveryState

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

PLACES = 2


@pytest.fixture(autouse=True)
def _two_places_on_loopback(settings):
    settings.PETSTORE_WEBHOOK_ALLOW_PRIVATE = True
    settings.PETSTORE_WEBHOOK_ENDPOINT_CONCURRENCY = PLACES


def owed(endpoint_id: int, count: int, ago: timedelta = timedelta(0)) -> list[Delivery]:
    """Deliveries of shared events, due since ``ago``."""
    now = timezone.now() - ago
    return [
        Delivery.objects.create(
            endpoint_id=endpoint_id,
            event=Event.objects.create(type="pet.created", data={"n": n}, fanned_out=True),
            next_attempt_at=now,
        )
        for n in range(count)
    ]


def retry(client, key: str, delivery: Delivery):
    path = f"/v1/webhook_endpoints/{delivery.endpoint_id}/deliveries/{delivery.pk}/retry"
    return send(client, "POST", key, path)


def as_stored(delivery: Delivery) -> tuple:
    return Delivery.objects.filter(pk=delivery.pk).values_list(
        "state", "next_attempt_at", "leased_until", "run", "attempts"
    )[0]


def test_retrying_a_delivery_being_sent_is_a_409_that_changes_nothing(client, make_key, receiver):
    key = make_key()
    made = subscribe(client, key, receiver.url, "pet.created")
    (delivery,) = owed(made["id"], 1)
    (run,) = services.lease_due()
    before = as_stored(delivery)

    refused = retry(client, key, delivery)

    assert_error(refused, HTTPStatus.CONFLICT, "conflict")
    assert refused.json()["message"] == IN_FLIGHT
    assert as_stored(delivery) == before
    assert not Entry.objects.filter(action="delivery.retried").exists()
    # Once its attempt is recorded, it may be sent again.
    tasks._send(run)
    assert retry(client, key, delivery).status_code == HTTPStatus.ACCEPTED
    assert len(receiver.received) == 1


def test_no_mix_of_retries_recoveries_tests_and_new_events_takes_another_place(
    client, make_key, receiver, monkeypatch
):
    monkeypatch.setattr(services, "RUN", 1)  # runs of one: some of what is owed waits unleased
    key = make_key()
    made = subscribe(client, key, receiver.url, "pet.created")
    deliveries = owed(made["id"], 6)
    runs = services.lease_due()
    assert len(runs) == PLACES
    # One of them failed while its run still holds it, as when its endpoint is disabled.
    Delivery.objects.filter(pk=runs[0][0]).update(state=DeliveryState.FAILED)

    answers = [retry(client, key, delivery).status_code for delivery in deliveries]
    since = (timezone.now() - timedelta(hours=1)).isoformat()
    path = f"/v1/webhook_endpoints/{made['id']}"
    recovered = send(client, "POST", key, f"{path}/recover", {"since": since})
    tested = send(client, "POST", key, f"{path}/test", {"type": "pet.created"})
    Event.objects.create(type="pet.created", data={"n": "new"})
    services.fan_out()

    assert sorted(answers) == [HTTPStatus.ACCEPTED] * 4 + [HTTPStatus.CONFLICT] * PLACES
    assert recovered.json() == {"requeued": 1, "hasMore": False}
    assert tested.status_code == HTTPStatus.ACCEPTED
    assert Delivery.objects.filter(endpoint_id=made["id"]).count() == 8
    assert services.lease_due() == []
    # A run given back frees its place, and one place only.
    services.release(runs[0])
    assert len(services.lease_due()) == 1
    assert services.lease_due() == []


def test_a_run_whose_lease_has_ended_is_sent_nothing(client, make_key, receiver, settings):
    key = make_key()
    made = subscribe(client, key, receiver.url, "pet.created")
    lease = timedelta(seconds=settings.PETSTORE_WEBHOOK_LEASE_SECONDS)
    owed(made["id"], 2, ago=2 * lease)
    # Leased a lease ago: a message that waited in the queue until its lease ended.
    runs = services.lease_due(timezone.now() - lease - timedelta(seconds=1))

    assert [tasks._send(run) for run in runs] == [None] * PLACES

    assert receiver.received == []
    assert len(services.lease_due()) == PLACES  # due, and leased afresh
