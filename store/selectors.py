"""Reads of adoption orders for the API."""

from __future__ import annotations

from store.models import Order


def orders_version(account_id: int) -> str:
    """The version of the account's orders as the API shows them (petstore.conditional)."""
    return f"orders:{account_id}"


def order_page(
    *, account_id: int, after: int, limit: int, status: str | None = None
) -> list[Order]:
    """Up to ``limit`` of the account's orders with ids above ``after``, in id order (one
    query)."""
    orders = Order.objects.filter(account_id=account_id, pk__gt=after)
    if status is not None:
        orders = orders.filter(status=status)
    return list(orders.order_by("pk")[:limit])


def order_get(*, order_id: int, account_id: int) -> Order | None:
    """The account's order ``order_id``; None for another account's order or none."""
    return Order.objects.filter(pk=order_id, account_id=account_id).first()
