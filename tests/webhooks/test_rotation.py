"""rotateWebhookEndpointSecret: the new secret shown once; until the old one expires each
delivery verifies with either alone (both signatures in `webhook-signature`), after it only
with the new; `expireCurrentInSeconds: 0` switches at once; bad input changes nothing."""

from __future__ import annotations

import json
import time
from http import HTTPStatus

import pytest
from standardwebhooks import Webhook
from standardwebhooks.webhooks import WebhookVerificationError

from audit.models import Entry
from tests.assertions import assert_error, assert_validation_error
from webhooks.models import Endpoint

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


@pytest.fixture(autouse=True)
def _loopback_receivers(settings):
    settings.PETSTORE_WEBHOOK_ALLOW_PRIVATE = True


def send(client, key: str, path: str, body: object | None = None):
    return client.post(
        path,
        "" if body is None else json.dumps(body),
        content_type="application/json",
        headers={"Authorization": f"Bearer {key}"},
    )


def subscribe(client, key: str, url: str) -> dict:
    made = send(client, key, "/v1/webhook_endpoints", {"url": url, "events": ["pet.created"]})
    assert made.status_code == HTTPStatus.CREATED, made.content
    return made.json()


def rotate(client, key: str, endpoint: dict, body: object | None = None):
    return send(client, key, f"/v1/webhook_endpoints/{endpoint['id']}/rotate_secret", body)


def verifies(secret: str, delivered) -> bool:
    try:
        Webhook(secret).verify(delivered.body, delivered.headers)
    except WebhookVerificationError:
        return False
    return True


def test_during_the_overlap_a_delivery_verifies_with_either_secret_alone(
    client, make_key, dog, receiver, workers
):
    key = make_key()
    endpoint = subscribe(client, key, receiver.url)

    rotated = rotate(client, key, endpoint)
    send(client, key, "/v1/pets", {"name": "Rex", "categoryId": dog.pk})

    assert rotated.status_code == HTTPStatus.OK, rotated.content
    new = rotated.json()["secret"]
    assert new.startswith("whsec_")
    assert new != endpoint["secret"]
    assert rotated.json()["previousSecretExpiresAt"] is not None
    receiver.wait_for(lambda got: len(got) == 1)
    (delivered,) = receiver.received
    assert len(delivered.headers["webhook-signature"].split(" ")) == 2
    assert verifies(endpoint["secret"], delivered)
    assert verifies(new, delivered)
    entry = Entry.objects.get(action="endpoint.secret_rotated")
    assert entry.actor.startswith("key:")
    assert new not in json.dumps(entry.changes)
    assert endpoint["secret"] not in json.dumps(entry.changes)


def test_after_the_overlap_only_the_new_secret_verifies(client, make_key, dog, receiver, workers):
    key = make_key()
    endpoint = subscribe(client, key, receiver.url)

    new = rotate(client, key, endpoint, {"expireCurrentInSeconds": 1}).json()["secret"]
    time.sleep(1.5)
    send(client, key, "/v1/pets", {"name": "Rex", "categoryId": dog.pk})

    receiver.wait_for(lambda got: len(got) == 1)
    (delivered,) = receiver.received
    assert len(delivered.headers["webhook-signature"].split(" ")) == 1
    assert verifies(new, delivered)
    assert not verifies(endpoint["secret"], delivered)


def test_with_no_overlap_only_the_new_secret_verifies_at_once(
    client, make_key, dog, receiver, workers
):
    key = make_key()
    endpoint = subscribe(client, key, receiver.url)

    rotated = rotate(client, key, endpoint, {"expireCurrentInSeconds": 0})
    send(client, key, "/v1/pets", {"name": "Rex", "categoryId": dog.pk})

    assert rotated.json()["previousSecretExpiresAt"] is None
    receiver.wait_for(lambda got: len(got) == 1)
    (delivered,) = receiver.received
    assert verifies(rotated.json()["secret"], delivered)
    assert not verifies(endpoint["secret"], delivered)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"expireCurrentInSeconds": -1}, "expireCurrentInSeconds"),
        ({"expireCurrentInSeconds": 86401}, "expireCurrentInSeconds"),
        ({"expireCurrentInSeconds": "60"}, "expireCurrentInSeconds"),
        ({"secret": "whsec_mine"}, "secret"),
    ],
)
def test_bad_input_is_refused_and_changes_nothing(client, make_key, receiver, body, field):
    key = make_key()
    endpoint = subscribe(client, key, receiver.url)
    before = Endpoint.objects.values().get(pk=endpoint["id"])

    assert_validation_error(rotate(client, key, endpoint, body), field)
    assert Endpoint.objects.values().get(pk=endpoint["id"]) == before
    assert not Entry.objects.filter(action="endpoint.secret_rotated").exists()


def test_another_accounts_endpoint_is_not_found(client, make_key, receiver):
    mine, theirs = make_key(), make_key()
    endpoint = subscribe(client, mine, receiver.url)

    assert_error(rotate(client, theirs, endpoint), HTTPStatus.NOT_FOUND, "not_found")
    assert Endpoint.objects.get(pk=endpoint["id"]).secret == endpoint["secret"]
