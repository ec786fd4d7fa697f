"""Events written where the change happens, in the caller's transaction: an event exists if
and only if its change was committed. Each type is written by one function of the app that
makes its change (``pets.events``, ``store.events``, ``apikeys.events``), whatever path made
it: the API, the admin or a command."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from events.models import Event
from events.selectors import own_version
from events.types import EVENT_TYPES
from petstore.conditional import changed


def event_record(kind: str, data: dict[str, Any], *, account_id: int | None = None) -> Event:
    """Write an event; in a transaction, so that it stands or falls with its change."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("an event is written in its change's transaction")
    # The table is the one gate: the column's choices are not checked on save.
    if kind not in EVENT_TYPES:
        raise ValueError(f"{kind!r} is not a type of events.types.EventType")
    # Listed once placed (events.positions), which the feed does when its tag has changed.
    changed(own_version(account_id))
    return Event.objects.create(type=kind, data=data, account_id=account_id)
