"""The events feed's reads, in the feed's order (``events.positions``)."""

from __future__ import annotations

from datetime import timedelta

from django.db import connection
from django.db.models import Q
from django.utils import timezone

from events.models import KEPT_DAYS, Event
from events.types import SHARED_TYPES


def event_page(
    *, account_id: int, types: list[str], after: tuple[int, ...], limit: int
) -> list[Event]:
    """Up to ``limit`` of the events of ``types`` the account may see, after position ``after``
    (or, from a cursor issued before positions, after the event its second number names)."""
    since = timezone.now() - timedelta(days=KEPT_DAYS)
    after_it = Event.objects.filter(position__gt=_position_after(after), created_at__gte=since)
    if connection.vendor != "postgresql" or not types:
        mine = Q(account_id__isnull=True) | Q(account_id=account_id)
        return list(after_it.filter(mine, type__in=types).order_by("position")[:limit])
    # PostgreSQL reads each type from its own index in the feed's order (events.models), up to
    # ``limit`` of each, and keeps the first ``limit``: a page costs the same whatever the
    # table holds of other types or other accounts.
    branches = [
        after_it.filter(
            Q(account__isnull=True) if kind in SHARED_TYPES else Q(account_id=account_id),
            type=kind,
        ).order_by("position")[:limit]
        for kind in types
    ]
    if len(branches) == 1:
        return list(branches[0])
    first, *rest = branches
    return list(first.union(*rest, all=True).order_by("position")[:limit])


def _position_after(after: tuple[int, ...]) -> int:
    if len(after) == 2:  # a cursor issued before events.0002: (transaction, event id)
        found = Event.objects.filter(pk=after[1]).values_list("position", flat=True).first()
        return found or 0
    return after[0] if after else 0
