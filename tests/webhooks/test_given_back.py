"""A run whose task lost the database, given back once it answers (webhooks.services
.give_back_lost_run): what was delivered is recorded, what was never sent uncounted, and a
lease another run took since is left alone."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from events.models import Event
from webhooks import runs
from webhooks.delivery import Attempt
from webhooks.models import Delivery, DeliveryState, Endpoint

pytestmark = pytest.mark.django_db


def test_a_lost_run_is_recorded_uncounted_and_given_back_but_not_another_runs_lease(
    make_account,
):
    endpoint = Endpoint.objects.create(
        account=make_account(), url="https://hooks.example/in", events=["pet.created"]
    )
    now = timezone.now()
    lease = now + timedelta(minutes=1)
    sent, unsent, unrecorded, taken = (
        Delivery.objects.create(
            endpoint=endpoint,
            event=Event.objects.create(type="pet.created", data={}, created_at=now),
            next_attempt_at=now,
            leased_until=lease,
            run=7,
        ).pk
        for _ in range(4)
    )
    runs.count_attempts([sent, unsent, unrecorded, taken])
    # The run's lease ended and another run leased this one since: its lease ends later.
    Delivery.objects.filter(pk=taken).update(leased_until=lease + timedelta(minutes=1), run=8)

    runs.give_back_lost_run(
        [sent, unsent, unrecorded, taken], [(sent, Attempt(200, duration_ms=5))], [unsent], lease
    )

    rows = dict(
        (pk, (state, attempts, leased is None))
        for pk, state, attempts, leased in Delivery.objects.values_list(
            "pk", "state", "attempts", "leased_until"
        )
    )
    assert rows == {
        sent: (DeliveryState.DELIVERED, 1, True),
        unsent: (DeliveryState.PENDING, 0, True),
        unrecorded: (DeliveryState.PENDING, 1, True),
        taken: (DeliveryState.PENDING, 1, False),
    }
