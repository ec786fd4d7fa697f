"""The events feed's reads.

Events are listed in the order their transactions may no longer be preceded: by writing
transaction, then id, and only those written by transactions older than every transaction
still in flight (PostgreSQL's snapshot ``xmin``). An event whose transaction commits late was
never listed before it, and sorts after everything listed then: a client that follows the
``Link`` from its last page misses none and sees none twice. A transaction left open holds the
feed back until it ends. SQLite (``make run``) commits one writer at a time, in id order.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import connection
from django.db.models import Q, QuerySet
from django.db.models.expressions import RawSQL
from django.utils import timezone

from events.models import KEPT_DAYS, Event

# The oldest transaction still in flight, as ``Event.transaction`` numbers them.
_HORIZON = "SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint"


def event_page(
    *, account_id: int, types: list[str], after: tuple[int, ...], limit: int
) -> list[Event]:
    """Up to ``limit`` of the events of ``types`` the account may see, after ``after`` (a
    transaction and an id), in the feed's order (one query)."""
    events = visible(account_id, types)
    if after:
        transaction, event_id = after
        events = events.filter(
            Q(transaction__gt=transaction) | Q(transaction=transaction, id__gt=event_id)
        )
    if connection.vendor == "postgresql":
        events = events.filter(transaction__lt=RawSQL(_HORIZON, []))  # noqa: S611
    return list(events.order_by("transaction", "id")[:limit])


def visible(account_id: int, types: list[str]) -> QuerySet[Event]:
    """The kept events of ``types`` every account sees, and the account's own."""
    since = timezone.now() - timedelta(days=KEPT_DAYS)
    return Event.objects.filter(
        Q(account_id__isnull=True) | Q(account_id=account_id),
        type__in=types,
        created_at__gte=since,
    )
