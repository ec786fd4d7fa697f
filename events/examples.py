"""An example of each type's ``data``: the document shows it beside the type's schema, and an
endpoint's test send (testWebhookEndpoint) delivers it."""

from __future__ import annotations

from typing import Any

from events.types import EventType

_PET = {"id": 10, "name": "Fido", "categoryId": 1, "status": "available", "breed": "Beagle"}
_ORDER = {
    "id": 7,
    "petId": 10,
    "quantity": 1,
    "shipDate": None,
    "complete": False,
    "status": "pending",
}

EXAMPLE_DATA: dict[str, dict[str, Any]] = {
    EventType.PET_CREATED: _PET,
    EventType.PET_STATUS_CHANGED: {**_PET, "status": "pending", "previousStatus": "available"},
    EventType.CATEGORY_CREATED: {"id": 4, "name": "Reptiles", "description": "Cold-blooded."},
    EventType.ORDER_PLACED: _ORDER,
    EventType.ORDER_APPROVED: {**_ORDER, "status": "approved"},
    EventType.ORDER_DELIVERED: {
        **_ORDER,
        "status": "delivered",
        "complete": True,
        "shipDate": "2026-01-02T10:00:00Z",
    },
    EventType.ORDER_CANCELLED: {**_ORDER, "status": "cancelled"},
    EventType.WEBHOOK_ENDPOINT_DISABLED: {
        "id": 3,
        "url": "https://partner.example/hooks",
        "events": ["order.placed"],
        "description": "Orders, to the shelter's stock system",
        "enabled": False,
        "state": "disabled",
        "pausedUntil": None,
        "disabledReason": "Every attempt failed for 3 days; the last: 503.",
        "createdAt": "2026-01-01T09:00:00Z",
    },
    EventType.USAGE_THRESHOLD: {
        "window": "day",
        "percent": 80,
        "limit": 1000,
        "used": 800,
        "date": "2026-01-02",
    },
}


def example_event(kind: str) -> dict[str, Any]:
    """An event of type ``kind`` as the feed and the webhooks show it, with the example data."""
    return {
        "id": "evt_test_0123456789abcdef0123",
        "type": kind,
        "createdAt": "2026-01-02T10:00:00Z",
        "data": EXAMPLE_DATA[kind],
    }
