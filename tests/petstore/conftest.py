"""What the tests walking every operation of the document share."""

from __future__ import annotations

from typing import Any

import pytest

from apikeys.models import ALL_SCOPES
from tests.petstore.operations import World


@pytest.fixture
def place(client, settings, make_key, make_pet, dog) -> tuple[World, dict[str, str]]:
    """One of each thing an operation can name (an animal, a category, an order, an endpoint and
    its test delivery), and a key that may call every operation."""
    settings.PETSTORE_WEBHOOK_ALLOW_PRIVATE = True  # the endpoint is on loopback
    key = make_key(plan="enterprise", scopes=list(ALL_SCOPES))
    auth = {"Authorization": f"Bearer {key}"}

    def post(path: str, body: dict[str, Any]) -> dict[str, Any]:
        response = client.post(path, body, "application/json", headers=auth)
        assert response.status_code < 300, response.content
        return response.json()

    endpoint = post(
        "/v1/webhook_endpoints", {"url": World({}).receiver_url, "events": ["pet.created"]}
    )
    sent = post(f"/v1/webhook_endpoints/{endpoint['id']}/test", {"type": "pet.created"})
    order = post("/v1/store/orders", {"petId": make_pet("Adopted").pk})
    ids = {
        "petId": make_pet("Wanted").pk,
        "categoryId": dog.pk,
        "orderId": order["id"],
        "endpointId": endpoint["id"],
        "deliveryId": sent["id"],
    }
    return World(ids), auth
