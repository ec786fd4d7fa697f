"""The event the limiter writes: an account's day window passing a threshold, the account's
own, seen by any of its secret keys."""

from __future__ import annotations

from datetime import UTC, datetime

from django.db import transaction

from apikeys.limiter import Decision, day_threshold_count
from apikeys.serializers import UsageThresholdSerializer
from events.models import Event
from events.services import event_record
from events.types import EventType


def usage_threshold(account_id: int, decision: Decision, per_day: int) -> Event:
    """The account's day window has just passed ``decision.day_threshold`` percent."""
    day = datetime.fromtimestamp(decision.now, UTC).date()
    passed = {
        "window": "day",
        "percent": decision.day_threshold,
        "limit": per_day,
        "used": day_threshold_count(per_day, decision.day_threshold),
        "date": day,
    }
    data = dict(UsageThresholdSerializer(passed).data)
    with transaction.atomic():
        return event_record(EventType.USAGE_THRESHOLD, data, account_id=account_id)
