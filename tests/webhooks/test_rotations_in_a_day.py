"""Rotating a secret again within its overlap: every secret rotated away with an overlap goes on
signing until its own overlap ends (24 h by default), beside the newer ones, so that a receiver
still holding any of them refuses nothing; at most ``MAX_SIGNING_SECRETS`` sign a delivery, the
newest; a rotation at once (``expireCurrentInSeconds: 0``, the admin's) stops them all."""

from __future__ import annotations

import json
from http import HTTPStatus
from typing import Any

import pytest
from django.utils import timezone
from standardwebhooks import Webhook
from standardwebhooks.webhooks import WebhookVerificationError

from events.models import Event
from webhooks.delivery import Sender
from webhooks.models import MAX_SIGNING_SECRETS, Endpoint

pytestmark = pytest.mark.django_db

HOUR = 3600


@pytest.fixture(autouse=True)
def _loopback_receivers(settings: Any) -> None:
    settings.PETSTORE_WEBHOOK_ALLOW_PRIVATE = True


def post(client: Any, key: str, path: str, body: object | None = None) -> Any:
    return client.post(
        path,
        "" if body is None else json.dumps(body),
        content_type="application/json",
        headers={"Authorization": f"Bearer {key}"},
    )


def rotate(client: Any, key: str, endpoint_id: int, body: object | None = None) -> str:
    rotated = post(client, key, f"/v1/webhook_endpoints/{endpoint_id}/rotate_secret", body)
    assert rotated.status_code == HTTPStatus.OK, rotated.content
    secret: str = rotated.json()["secret"]
    return secret


def delivered(receiver: Any, endpoint_id: int) -> Any:
    """One event sent to the endpoint now, as its receiver got it."""
    receiver.received.clear()
    event = Event.objects.create(type="pet.created", data={}, created_at=timezone.now())
    with Sender(Endpoint.objects.get(pk=endpoint_id)) as sender:
        assert sender.attempt(event).delivered
    (got,) = receiver.received
    return got


def verifies(secret: str, got: Any) -> bool:
    try:
        Webhook(secret).verify(got.body, got.headers)
    except WebhookVerificationError:
        return False
    return True


@pytest.fixture
def subscribed(client, make_key, receiver) -> tuple[str, int, str]:
    key = make_key()
    made = post(
        client, key, "/v1/webhook_endpoints", {"url": receiver.url, "events": ["pet.created"]}
    )
    assert made.status_code == HTTPStatus.CREATED, made.content
    return key, int(made.json()["id"]), made.json()["secret"]


def test_twice_within_a_day_every_secret_signs_until_its_own_overlap_ends(
    client, clock, receiver, subscribed
):
    key, endpoint_id, first = subscribed
    second = rotate(client, key, endpoint_id)  # t0: the first signs until t0 + 24 h
    clock.advance(HOUR)
    third = rotate(client, key, endpoint_id)  # t0 + 1 h: the second until t0 + 25 h

    clock.advance(HOUR)  # t0 + 2 h
    got = delivered(receiver, endpoint_id)
    assert len(got.headers["webhook-signature"].split(" ")) == 3
    assert [verifies(secret, got) for secret in (first, second, third)] == [True, True, True]

    clock.advance(22 * HOUR + HOUR // 2)  # t0 + 24.5 h: the first's overlap is over
    got = delivered(receiver, endpoint_id)
    assert len(got.headers["webhook-signature"].split(" ")) == 2
    assert [verifies(secret, got) for secret in (first, second, third)] == [False, True, True]

    clock.advance(HOUR)  # t0 + 25.5 h: the second's too
    got = delivered(receiver, endpoint_id)
    assert len(got.headers["webhook-signature"].split(" ")) == 1
    assert [verifies(secret, got) for secret in (first, second, third)] == [False, False, True]


def test_at_most_the_newest_few_sign(client, clock, receiver, subscribed):
    key, endpoint_id, first = subscribed
    secrets = [first]
    for _ in range(MAX_SIGNING_SECRETS):
        secrets.append(rotate(client, key, endpoint_id))
        clock.advance(60)

    got = delivered(receiver, endpoint_id)

    assert len(got.headers["webhook-signature"].split(" ")) == MAX_SIGNING_SECRETS
    assert [verifies(secret, got) for secret in secrets] == [False] + [True] * MAX_SIGNING_SECRETS


def test_a_rotation_at_once_stops_every_earlier_secret(client, clock, receiver, subscribed):
    key, endpoint_id, first = subscribed
    second = rotate(client, key, endpoint_id)
    clock.advance(HOUR)
    third = rotate(client, key, endpoint_id, {"expireCurrentInSeconds": 0})

    got = delivered(receiver, endpoint_id)

    assert len(got.headers["webhook-signature"].split(" ")) == 1
    assert [verifies(secret, got) for secret in (first, second, third)] == [False, False, True]
