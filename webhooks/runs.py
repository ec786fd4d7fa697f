"""A worker's run of deliveries, between its lease and its records: each attempt counted before
it is sent, the catalogue's run making way for the account's own events, and what a run did not
do given back (``webhooks.tasks``)."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from webhooks.models import Delivery, DeliveryState, Lane
from webhooks.services import record_delivered, release

if TYPE_CHECKING:
    from webhooks.delivery import Attempt


def own_waiting(endpoint_id: int, now: datetime) -> bool:
    """Whether the endpoint has deliveries of its account's own events due that no run holds:
    a run of the catalogue's makes way for them (``tasks``), so that they wait for one attempt
    at most, not for the catalogue's runs to end."""
    return (
        Delivery.objects.filter(
            Q(leased_until__isnull=True) | Q(leased_until__lte=now),
            endpoint_id=endpoint_id,
            state=DeliveryState.PENDING,
            lane=Lane.OWN,
            next_attempt_at__lte=now,
        )
        .only("pk")
        .exists()
    )


def count_attempts(deliveries: list[int]) -> None:
    """Count an attempt of each of a run's ``deliveries`` before any is sent, so that one that
    reaches its receiver is counted even if what became of it is never recorded (the database
    lost, the worker killed). ``record`` and ``record_delivered`` then count nothing more."""
    if deliveries:
        Delivery.objects.filter(pk__in=deliveries).update(attempts=F("attempts") + 1)


def give_back_unsent(deliveries: list[int]) -> None:
    """``release`` of deliveries counted by ``count_attempts`` and never sent: their count
    taken back."""
    if deliveries:
        Delivery.objects.filter(pk__in=deliveries).update(
            leased_until=None, run=None, attempts=F("attempts") - 1
        )


def give_back_lost_run(
    run: list[int],
    delivered: list[tuple[int, Attempt]],
    unsent: list[int],
    lease_ends_by: datetime,
) -> None:
    """A run whose task lost the database, settled once it answers again: of the run's
    deliveries no other run has leased since (their lease ends by ``lease_ends_by``; a later
    one is another run's), those ``delivered`` are recorded, those ``unsent`` given back
    uncounted, and the rest (an attempt made but not recorded) given back, due at once."""
    now = timezone.now()
    with transaction.atomic():
        ours = set(
            Delivery.objects.select_for_update()
            .filter(pk__in=run, leased_until__lte=lease_ends_by)
            .values_list("pk", flat=True)
        )
        arrived = [(pk, attempt) for pk, attempt in delivered if pk in ours]
        if arrived:
            endpoint_id = Delivery.objects.get(pk=arrived[0][0]).endpoint_id
            record_delivered(endpoint_id, arrived, now)
        give_back_unsent([pk for pk in unsent if pk in ours])
        settled = {pk for pk, _ in arrived} | set(unsent)
        release([pk for pk in ours if pk not in settled])
