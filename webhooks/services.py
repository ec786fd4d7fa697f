"""Webhook endpoints, and their deliveries' lifecycle: made for each new event, leased to a
worker when due, and after each attempt delivered, tried again later, or failed."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from apikeys.models import Account
from events.models import Event
from petstore.exceptions import Conflict
from webhooks.models import MAX_ENDPOINTS, Delivery, DeliveryState, Endpoint, new_secret

if TYPE_CHECKING:
    # Only the workers load the HTTP client (webhooks.delivery); the web processes never do.
    from webhooks.delivery import Attempt

# Events fanned out, and deliveries leased, per pass.
BATCH = 500


def endpoint_create(*, account: Account, url: str, events: list[str]) -> Endpoint:
    with transaction.atomic():
        # Locks the account's row: two requests cannot both make the eleventh.
        Account.objects.select_for_update().get(pk=account.pk)
        if Endpoint.objects.filter(account=account).count() >= MAX_ENDPOINTS:
            raise Conflict(f"An account has at most {MAX_ENDPOINTS} webhook endpoints.")
        return Endpoint.objects.create(account=account, url=url, events=events)


def endpoint_set_enabled(endpoint: Endpoint, enabled: bool, reason: str = "") -> None:
    endpoint.enabled, endpoint.disabled_reason = enabled, "" if enabled else reason
    endpoint.save(update_fields=["enabled", "disabled_reason"])


def endpoint_rotate_secret(endpoint: Endpoint) -> str:
    endpoint.secret = new_secret()
    endpoint.save(update_fields=["secret"])
    return endpoint.secret


def redeliver(delivery: Delivery) -> None:
    """Send a delivery again, at once, whatever became of it."""
    Delivery.objects.filter(pk=delivery.pk).update(
        state=DeliveryState.PENDING, next_attempt_at=timezone.now(), leased_until=None
    )


def fan_out() -> int:
    """Make the deliveries of events that have none yet: one for each enabled endpoint made
    before the event that lists its type and may see it. Returns the events fanned out."""
    with transaction.atomic():
        events = list(
            Event.objects.select_for_update(skip_locked=True)
            .filter(fanned_out=False)
            .order_by("id")[:BATCH]
        )
        if not events:
            return 0
        endpoints = list(Endpoint.objects.filter(enabled=True).select_related("account"))
        now = timezone.now()
        deliveries = [
            Delivery(endpoint=endpoint, event=event, next_attempt_at=now)
            for event in events
            for endpoint in endpoints
            if sees(endpoint, event)
        ]
        Delivery.objects.bulk_create(deliveries, ignore_conflicts=True)
        Event.objects.filter(pk__in=[event.pk for event in events]).update(fanned_out=True)
    return len(events)


def sees(endpoint: Endpoint, event: Event) -> bool:
    """Whether ``endpoint`` is sent ``event``: a type it lists, made after it, and one its
    account may see (pet events are everyone's; the others the account's own)."""
    if not endpoint.wants(event.type) or event.created_at < endpoint.created_at:
        return False
    return event.account_id is None or event.account_id == endpoint.account_id


def lease_due(now: datetime | None = None) -> list[int]:
    """The deliveries due now, leased for ``PETSTORE_WEBHOOK_LEASE_SECONDS``: a worker that
    dies with one, or a message the broker loses, leaves it due again when the lease ends."""
    now = now or timezone.now()
    lease = timedelta(seconds=settings.PETSTORE_WEBHOOK_LEASE_SECONDS)
    with transaction.atomic():
        due = list(
            Delivery.objects.select_for_update(skip_locked=True)
            .filter(state=DeliveryState.PENDING, next_attempt_at__lte=now, endpoint__enabled=True)
            .exclude(leased_until__gt=now)
            .order_by("next_attempt_at")
            .values_list("pk", flat=True)[:BATCH]
        )
        Delivery.objects.filter(pk__in=due).update(leased_until=now + lease)
    return due


def record(delivery: Delivery, attempt: Attempt, now: datetime | None = None) -> None:
    """What became of an attempt: delivered; or tried again after the schedule's next wait;
    or, at the schedule's end, failed. A ``410 Gone`` disables the endpoint at once, and an
    endpoint none of whose deliveries succeeded through a whole schedule is disabled."""
    now = now or timezone.now()
    schedule = settings.PETSTORE_WEBHOOK_RETRY_SECONDS
    delivery.attempts += 1
    delivery.last_attempt_at, delivery.last_status = now, attempt.status
    delivery.last_error, delivery.leased_until = attempt.error, None
    endpoint = delivery.endpoint
    if attempt.delivered:
        delivery.state, delivery.next_attempt_at = DeliveryState.DELIVERED, None
    elif attempt.status == 410 or delivery.attempts > len(schedule):
        delivery.state, delivery.next_attempt_at = DeliveryState.FAILED, None
    else:
        wait = schedule[delivery.attempts - 1] * random.uniform(0.9, 1.1)  # noqa: S311
        delivery.next_attempt_at = now + timedelta(seconds=wait)
    with transaction.atomic():
        delivery.save()
        if attempt.status == 410:
            endpoint_set_enabled(endpoint, False, "The endpoint answered 410 Gone.")
        elif delivery.state == DeliveryState.FAILED and not _delivered_since(delivery):
            endpoint_set_enabled(endpoint, False, "Every delivery failed through the schedule.")


def _delivered_since(delivery: Delivery) -> bool:
    return Delivery.objects.filter(
        endpoint_id=delivery.endpoint_id,
        state=DeliveryState.DELIVERED,
        last_attempt_at__gte=delivery.created_at,
    ).exists()
