"""Reads of adoption orders for the API: compiled once, one query per page."""

from __future__ import annotations

from typing import Any

from petstore.prepared import PreparedQuery
from store.models import Order
from store.serializers import OrderSerializer

_NO_ID = -1
_NO_STATUS = "\0status"

_page_of_all = PreparedQuery(
    lambda account, after: (
        Order.objects.filter(account_id=account, pk__gt=after)
        .order_by("pk")
        .values_list(*OrderSerializer.COLUMNS)
    ),
    account=-2,
    after=_NO_ID,
)
_page_by_status = PreparedQuery(
    lambda account, after, status: (
        Order.objects.filter(account_id=account, pk__gt=after, status=status)
        .order_by("pk")
        .values_list(*OrderSerializer.COLUMNS)
    ),
    account=-2,
    after=_NO_ID,
    status=_NO_STATUS,
)


def order_page(
    *, account_id: int, after: int, limit: int, status: str | None = None
) -> list[dict[str, Any]]:
    """Up to ``limit`` of the account's orders with ids above ``after``, in id order."""
    if status is None:
        rows = _page_of_all.run(limit, account=account_id, after=after)
    else:
        rows = _page_by_status.run(limit, account=account_id, after=after, status=status)
    shape = OrderSerializer()
    return [
        shape.to_representation(dict(zip(OrderSerializer.COLUMNS, row, strict=True)))
        for row in rows
    ]
