"""Events written where the change happens, in the caller's transaction: an event exists if
and only if its change was committed."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.db import transaction

from apikeys.limiter import Decision, day_threshold_count
from events.models import Event
from events.types import EventType
from pets.models import Category, Pet
from pets.selectors import PET
from pets.serializers import CategorySerializer
from store.models import Order, OrderStatus
from store.serializers import OrderSerializer

ORDER_EVENTS = {
    OrderStatus.PENDING: EventType.ORDER_PLACED,
    OrderStatus.APPROVED: EventType.ORDER_APPROVED,
    OrderStatus.DELIVERED: EventType.ORDER_DELIVERED,
    OrderStatus.CANCELLED: EventType.ORDER_CANCELLED,
}


def event_record(kind: str, data: dict[str, Any], *, account_id: int | None = None) -> Event:
    """Write an event; in a transaction, so that it stands or falls with its change."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("an event is written in its change's transaction")
    return Event.objects.create(type=kind, data=data, account_id=account_id)


def pet_created(pet: Pet) -> Event:
    return event_record(EventType.PET_CREATED, PET.of(pet))


def category_created(category: Category) -> Event:
    return event_record(EventType.CATEGORY_CREATED, dict(CategorySerializer(category).data))


def pet_status_changed(pet: Pet, previous: str) -> Event:
    return event_record(EventType.PET_STATUS_CHANGED, PET.of(pet) | {"previousStatus": previous})


def usage_threshold(account_id: int, decision: Decision, per_day: int) -> Event:
    """The account's day window has just passed ``decision.day_threshold`` percent."""
    day = datetime.fromtimestamp(decision.now, UTC).date()
    data = {
        "window": "day",
        "percent": decision.day_threshold,
        "limit": per_day,
        "used": day_threshold_count(per_day, decision.day_threshold),
        "date": day.isoformat(),
    }
    with transaction.atomic():
        return event_record(EventType.USAGE_THRESHOLD, data, account_id=account_id)


def order_moved(order: Order) -> Event:
    """The order's event for the status it has just taken."""
    return event_record(
        ORDER_EVENTS[OrderStatus(order.status)],
        dict(OrderSerializer(order).data),
        account_id=order.account_id,
    )
