"""The events an order's moves write: one for each status it takes, the account's own, in the
move's transaction (``events.services.event_record``)."""

from __future__ import annotations

from events.models import Event
from events.services import event_record
from events.types import EventType
from store.models import Order, OrderStatus
from store.serializers import OrderSerializer

ORDER_EVENTS = {
    OrderStatus.PENDING: EventType.ORDER_PLACED,
    OrderStatus.APPROVED: EventType.ORDER_APPROVED,
    OrderStatus.DELIVERED: EventType.ORDER_DELIVERED,
    OrderStatus.CANCELLED: EventType.ORDER_CANCELLED,
}


def order_moved(order: Order) -> Event:
    """The order's event for the status it has just taken."""
    return event_record(
        ORDER_EVENTS[OrderStatus(order.status)],
        dict(OrderSerializer(order).data),
        account_id=order.account_id,
    )
