"""The kinds of event, and who may see each."""

from __future__ import annotations

from django.db import models

from apikeys.models import Scope


class EventType(models.TextChoices):
    PET_CREATED = "pet.created", "An animal was added"
    PET_STATUS_CHANGED = "pet.status_changed", "An animal's status changed"
    ORDER_PLACED = "order.placed", "An order was placed"
    ORDER_APPROVED = "order.approved", "An order was approved"
    ORDER_DELIVERED = "order.delivered", "An order was delivered"
    ORDER_CANCELLED = "order.cancelled", "An order was cancelled"
    USAGE_THRESHOLD = "usage.threshold", "The account's day window passed 80 % or 100 %"
    CATEGORY_CREATED = "category.created", "A category was added"


# The scope a key needs to see each type (None: any secret key of the account). Pet events
# are every account's; the others, only the account's own.
SCOPE_OF: dict[str, str | None] = {
    EventType.PET_CREATED: Scope.PETS_READ,
    EventType.PET_STATUS_CHANGED: Scope.PETS_READ,
    EventType.ORDER_PLACED: Scope.ORDERS_READ,
    EventType.ORDER_APPROVED: Scope.ORDERS_READ,
    EventType.ORDER_DELIVERED: Scope.ORDERS_READ,
    EventType.ORDER_CANCELLED: Scope.ORDERS_READ,
    EventType.USAGE_THRESHOLD: None,
    EventType.CATEGORY_CREATED: Scope.PETS_READ,
}
EVENT_TYPES: tuple[str, ...] = tuple(EventType.values)


def visible_types(scopes: frozenset[str], publishable: bool) -> list[str]:
    """The types a key with ``scopes`` may see."""
    return [
        kind
        for kind, scope in SCOPE_OF.items()
        if (scope in scopes if scope is not None else not publishable)
    ]


# The types every account sees (the event has no account); the others are the account's own.
SHARED_TYPES = frozenset(
    {EventType.PET_CREATED, EventType.PET_STATUS_CHANGED, EventType.CATEGORY_CREATED}
)
