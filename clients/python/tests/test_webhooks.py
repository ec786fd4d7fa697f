from __future__ import annotations

import json

import pytest
from petstore_client import Petstore, WebhookVerificationError, verify_webhook
from petstore_client.generated.api.events import list_events


def test_the_verifier_accepts_a_delivery_from_a_running_worker(fixtures):
    delivered = fixtures["webhook"]

    # Verified as at the moment it arrived: the test holds however long the suite takes.
    event = verify_webhook(
        delivered["body"], delivered["headers"], delivered["secret"], now=delivered["receivedAt"]
    )

    assert event["type"] == "pet.created"
    assert event["id"] == json.loads(delivered["body"])["id"]


def test_the_verifier_refuses_the_delivery_with_a_changed_body(fixtures):
    delivered = fixtures["webhook"]
    changed = delivered["body"].replace('"name":"', '"name":"X')

    assert changed != delivered["body"]
    with pytest.raises(WebhookVerificationError):
        verify_webhook(
            changed, delivered["headers"], delivered["secret"], now=delivered["receivedAt"]
        )


def test_follow_yields_the_feeds_events_up_to_the_delivered_one(fixtures):
    petstore = Petstore(fixtures["keys"]["paging"], server=fixtures["baseUrl"])
    delivered = json.loads(fixtures["webhook"]["body"])["id"]
    seen = []

    for event in petstore.follow(list_events, every=0.2):
        seen.append(event.id)
        if event.id == delivered:
            break

    assert seen[-1] == delivered
    assert len(set(seen)) == len(seen)
