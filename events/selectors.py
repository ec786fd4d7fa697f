"""The events feed's reads, in the feed's order (``events.positions``)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import connection
from django.db.models import Q
from django.utils import timezone

from events.models import KEPT_DAYS, Event
from events.types import SHARED_TYPES

# The versions of the events every account sees, and of an account's own (petstore.conditional).
SHARED_VERSION = "events"


def own_version(account_id: int | None) -> str:
    """The version of the events ``account_id`` alone sees; of every account's for None."""
    return SHARED_VERSION if account_id is None else f"events:{account_id}"


def kept_since(now: datetime) -> datetime:
    """The oldest moment whose events are listed and kept: ``KEPT_DAYS`` ago, from the start of
    its hour, so that the feed's answers change with the hour and not with every second."""
    return (now - timedelta(days=KEPT_DAYS)).replace(minute=0, second=0, microsecond=0)


def event_page(
    *, account_id: int, types: list[str], after: tuple[int, ...], limit: int
) -> list[Event]:
    """Up to ``limit`` of the events of ``types`` the account may see, after position ``after``
    (or, from a cursor issued before positions, after the event its second number names)."""
    since = kept_since(timezone.now())
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
