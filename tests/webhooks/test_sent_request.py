"""The POST a delivery sends (webhooks.delivery.Sender), as a receiver on loopback gets it: its
content type and user agent, and a signature each secret of a rotation verifies alone."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from events.models import Event
from webhooks.delivery import USER_AGENT, Sender
from webhooks.models import Endpoint, new_secret

pytestmark = pytest.mark.django_db


@pytest.fixture
def endpoint(make_account, receiver, settings) -> Endpoint:
    settings.PETSTORE_WEBHOOK_ALLOW_PRIVATE = True  # the receiver is on loopback
    return Endpoint.objects.create(account=make_account(), url=receiver.url, events=["pet.created"])


def sent(endpoint: Endpoint) -> None:
    event = Event.objects.create(type="pet.created", data={}, created_at=timezone.now())
    with Sender(endpoint) as sender:
        assert sender.attempt(event).delivered


def test_a_post_says_it_is_json_and_names_the_service(endpoint, receiver):
    sent(endpoint)

    (delivered,) = receiver.received
    headers = {name.lower(): value for name, value in delivered.headers.items()}
    assert headers["content-type"] == "application/json"
    assert headers["user-agent"] == USER_AGENT


def test_during_a_rotation_each_secret_alone_verifies_the_post(endpoint, receiver):
    old, new = endpoint.secret, new_secret()
    endpoint.secret, endpoint.previous_secret = new, old
    endpoint.previous_secret_expires_at = timezone.now() + timedelta(hours=1)
    endpoint.save()

    sent(endpoint)

    # Each raises unless one of the post's signatures is its own.
    (by_old,) = receiver.verified(old)
    (by_new,) = receiver.verified(new)
    assert by_old == by_new
    assert by_old["type"] == "pet.created"
