"""The kinds of event, who may see each and the serializer of its ``data``: one table, which
recording, the feed, webhooks' subscriptions and the OpenAPI document read."""

from __future__ import annotations

from typing import NamedTuple

from django.db import models

from petstore.scopes import Scope


class EventType(models.TextChoices):
    PET_CREATED = "pet.created", "An animal was added"
    PET_STATUS_CHANGED = "pet.status_changed", "An animal's status changed"
    ORDER_PLACED = "order.placed", "An order was placed"
    ORDER_APPROVED = "order.approved", "An order was approved"
    ORDER_DELIVERED = "order.delivered", "An order was delivered"
    ORDER_CANCELLED = "order.cancelled", "An order was cancelled"
    USAGE_THRESHOLD = "usage.threshold", "The account's day window passed 80 % or 100 %"
    CATEGORY_CREATED = "category.created", "A category was added"
    WEBHOOK_ENDPOINT_DISABLED = "webhook_endpoint.disabled", "A webhook endpoint was disabled"


class Audience(NamedTuple):
    scope: str | None  # the scope a key needs to see it (None: any secret key of the account)
    shared: bool  # every account's (the event has no account), or the account's own
    # The serializer its ``data`` is shaped by, as a dotted path: the apps that write events
    # depend on this one, not the other way round (the OpenAPI document resolves it).
    data: str


_ORDER = "store.serializers.OrderSerializer"
AUDIENCE: dict[str, Audience] = {
    EventType.PET_CREATED: Audience(Scope.PETS_READ, True, "pets.serializers.PetSerializer"),
    EventType.PET_STATUS_CHANGED: Audience(
        Scope.PETS_READ, True, "pets.serializers.PetStatusChangeSerializer"
    ),
    EventType.CATEGORY_CREATED: Audience(
        Scope.PETS_READ, True, "pets.serializers.CategorySerializer"
    ),
    EventType.ORDER_PLACED: Audience(Scope.ORDERS_READ, False, _ORDER),
    EventType.ORDER_APPROVED: Audience(Scope.ORDERS_READ, False, _ORDER),
    EventType.ORDER_DELIVERED: Audience(Scope.ORDERS_READ, False, _ORDER),
    EventType.ORDER_CANCELLED: Audience(Scope.ORDERS_READ, False, _ORDER),
    # Secret keys only: a publishable key never holds webhooks:read (petstore.scopes).
    EventType.WEBHOOK_ENDPOINT_DISABLED: Audience(
        Scope.WEBHOOKS_READ, False, "webhooks.serializers.EndpointSerializer"
    ),
    EventType.USAGE_THRESHOLD: Audience(
        None, False, "apikeys.serializers.UsageThresholdSerializer"
    ),
}
EVENT_TYPES: tuple[str, ...] = tuple(EventType.values)
SHARED_TYPES = frozenset(kind for kind, audience in AUDIENCE.items() if audience.shared)


def event_type_choices() -> list[tuple[str, str]]:
    """``Event.type``'s choices, read from the table whenever they are asked for: its migration
    names this function, not the types, so that a new type needs none."""
    return EventType.choices


def visible_types(scopes: frozenset[str], publishable: bool) -> list[str]:
    """The types a key with ``scopes`` may see."""
    return [
        kind
        for kind, audience in AUDIENCE.items()
        if (audience.scope in scopes if audience.scope is not None else not publishable)
    ]


def scopes_to_read(kind: str) -> tuple[str, ...]:
    """The scopes a secret key needs to read ``kind`` in the feed: the feed's own, and the
    type's (webhooks' subscriptions follow the same rule)."""
    scope = AUDIENCE[kind].scope
    return (Scope.EVENTS_READ,) if scope is None else (Scope.EVENTS_READ, scope)


def unreadable(types: list[str], scopes: frozenset[str]) -> dict[str, list[str]]:
    """Of ``types``, those a secret key with ``scopes`` may not read in the feed, each with the
    scopes it lacks."""
    lacking = {kind: [s for s in scopes_to_read(kind) if s not in scopes] for kind in types}
    return {kind: missing for kind, missing in lacking.items() if missing}
