"""A new category reaches a webhook endpoint that lists category.created, signed."""

from __future__ import annotations

import json
from http import HTTPStatus

import pytest

from webhooks import services, tasks

pytestmark = pytest.mark.django_db


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def test_a_webhook_endpoint_is_sent_the_new_category(client, make_key, receiver, settings):
    curator = make_key(scopes=["events:read", "pets:read", "categories:write", "webhooks:write"])
    settings.PETSTORE_WEBHOOK_ALLOW_PRIVATE = True  # the receiver is on loopback
    made = client.post(
        "/v1/webhook_endpoints",
        json.dumps({"url": receiver.url, "events": ["category.created"]}),
        content_type="application/json",
        headers=bearer(curator),
    ).json()
    category = client.post(
        "/v1/categories",
        json.dumps({"name": "Ferret", "description": "Small and curious"}),
        content_type="application/json",
        headers=bearer(curator),
    )
    assert category.status_code == HTTPStatus.CREATED

    services.fan_out()
    (run,) = services.lease_due()
    tasks.deliver(run)

    (delivered,) = receiver.verified(made["secret"])
    assert (delivered["type"], delivered["data"]) == ("category.created", category.json())
