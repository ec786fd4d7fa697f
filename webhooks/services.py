"""Webhook endpoints, and their deliveries' lifecycle: made for each new event, leased to a
worker when due, and after each attempt delivered, tried again later, or failed."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import transaction
from django.db.models import Case, Count, F, OuterRef, Subquery, Value, When, Window
from django.db.models.functions import Coalesce, RowNumber
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
# The longest a receiver's Retry-After is honoured.
MAX_RETRY_AFTER_SECONDS = 3600


def endpoint_create(*, account: Account, url: str, events: list[str]) -> Endpoint:
    with transaction.atomic():
        # Locks the account's row: two requests cannot both make the eleventh.
        Account.objects.select_for_update().get(pk=account.pk)
        if Endpoint.objects.filter(account=account).count() >= MAX_ENDPOINTS:
            raise Conflict(f"An account has at most {MAX_ENDPOINTS} webhook endpoints.")
        return Endpoint.objects.create(account=account, url=url, events=events)


def endpoint_set_enabled(endpoint: Endpoint, enabled: bool, reason: str = "") -> None:
    """Disable an endpoint, or enable it afresh: healthy, its circuit breaker's count cleared."""
    endpoint.enabled, endpoint.disabled_reason = enabled, "" if enabled else reason
    if enabled:
        endpoint.failures, endpoint.failing_since, endpoint.paused_until = 0, None, None
    endpoint.save(
        update_fields=["enabled", "disabled_reason", "failures", "failing_since", "paused_until"]
    )


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
    """Make the deliveries of events that have none yet, by one INSERT … SELECT over the
    enabled endpoints that list each event's type (an index finds them), were made before the
    event, and may see it. Returns the events fanned out."""
    now = timezone.now()
    with transaction.atomic():
        events = list(
            Event.objects.select_for_update(skip_locked=True)
            .filter(fanned_out=False)
            .order_by("id")
            .values_list("pk", flat=True)[:BATCH]
        )
        if not events:
            return 0
        connection = transaction.get_connection()
        with connection.cursor() as cursor:
            cursor.execute(_fan_out_sql(connection.vendor, len(events)), [now, now, *events])
        Event.objects.filter(pk__in=events).update(fanned_out=True)
    return len(events)


def _fan_out_sql(vendor: str, count: int) -> str:
    # Written by hand: the ORM has no INSERT … SELECT. Only names from the models are formatted
    # in; every value is a parameter.
    delivery, endpoint, event = (
        Delivery._meta.db_table,
        Endpoint._meta.db_table,
        Event._meta.db_table,
    )
    if vendor == "postgresql":
        lists_type = "en.events @> jsonb_build_array(ev.type)"  # the GIN index's operator
    else:
        lists_type = "EXISTS (SELECT 1 FROM json_each(en.events) WHERE json_each.value = ev.type)"
    return (
        f"INSERT INTO {delivery} "  # noqa: S608
        "(endpoint_id, event_id, state, attempts, next_attempt_at, created_at, last_error) "
        f"SELECT en.id, ev.id, '{DeliveryState.PENDING}', 0, %s, %s, '' "
        f"FROM {event} ev JOIN {endpoint} en ON {lists_type} AND en.enabled "
        "AND en.created_at <= ev.created_at "
        "AND (ev.account_id IS NULL OR ev.account_id = en.account_id) "
        f"WHERE ev.id IN ({', '.join(['%s'] * count)}) "
        "ON CONFLICT DO NOTHING"
    )


def lease_due(now: datetime | None = None, *, endpoint_id: int | None = None) -> list[int]:
    """The deliveries due now, leased for ``PETSTORE_WEBHOOK_LEASE_SECONDS`` (a worker that
    dies with one, or a message the broker loses, leaves it due again when the lease ends):
    of endpoints neither disabled nor paused, and no more per endpoint than
    ``PETSTORE_WEBHOOK_ENDPOINT_CONCURRENCY`` in flight (one while it is on trial after a
    pause), so that a slow receiver holds no more than that of the workers. ``endpoint_id``:
    that endpoint's next only."""
    now = now or timezone.now()
    lease = timedelta(seconds=settings.PETSTORE_WEBHOOK_LEASE_SECONDS)
    with transaction.atomic():
        # The endpoints' rows are locked while their deliveries are counted and leased, so
        # that two passes cannot both take an endpoint's last free place.
        ready = Endpoint.objects.select_for_update(skip_locked=True).filter(enabled=True)
        ready = ready.exclude(paused_until__gt=now)
        if endpoint_id is not None:
            ready = ready.filter(pk=endpoint_id)
        else:
            due_somewhere = Delivery.objects.filter(
                state=DeliveryState.PENDING, next_attempt_at__lte=now
            ).values("endpoint_id")
            ready = ready.filter(pk__in=due_somewhere)
        endpoints = list(ready.values_list("pk", flat=True))
        if not endpoints:
            return []
        in_flight = (
            Delivery.objects.filter(
                endpoint_id=OuterRef("endpoint_id"),
                state=DeliveryState.PENDING,
                leased_until__gt=now,
            )
            .order_by()
            .values("endpoint_id")
            .annotate(count=Count("pk"))
            .values("count")
        )
        places = Case(
            When(
                endpoint__failures__gte=settings.PETSTORE_WEBHOOK_PAUSE_AFTER,
                then=Value(1),  # on trial
            ),
            default=Value(settings.PETSTORE_WEBHOOK_ENDPOINT_CONCURRENCY),
        )
        due = list(
            Delivery.objects.filter(
                endpoint_id__in=endpoints,
                state=DeliveryState.PENDING,
                next_attempt_at__lte=now,
            )
            .exclude(leased_until__gt=now)
            .annotate(
                turn=Window(
                    RowNumber(),
                    partition_by=[F("endpoint_id")],
                    order_by=[F("next_attempt_at").asc(), F("pk").asc()],
                ),
                free=places - Coalesce(Subquery(in_flight), Value(0)),
            )
            .filter(turn__lte=F("free"))
            .order_by("next_attempt_at")
            .values_list("pk", flat=True)[:BATCH]
        )
        Delivery.objects.filter(pk__in=due).update(leased_until=now + lease)
    return due


def record(delivery: Delivery, attempt: Attempt, now: datetime | None = None) -> None:
    """What became of an attempt: delivered; or tried again after the schedule's next wait;
    or, at the schedule's end, failed. A ``410 Gone`` disables the endpoint at once, and an
    endpoint none of whose deliveries succeeded through a whole schedule is disabled.

    The endpoint's circuit breaker counts its failed attempts in a row (no answer, 5xx, 429):
    from ``PETSTORE_WEBHOOK_PAUSE_AFTER`` on it is paused, and what it is owed waits without
    spending its schedule; a ``Retry-After`` on a 429 or 503 pauses it as asked (at most an
    hour); a success resumes it."""
    now = now or timezone.now()
    schedule = settings.PETSTORE_WEBHOOK_RETRY_SECONDS
    delivery.last_attempt_at, delivery.last_status = now, attempt.status
    delivery.last_error, delivery.leased_until = attempt.error, None
    with transaction.atomic():
        endpoint = Endpoint.objects.select_for_update().get(pk=delivery.endpoint_id)
        paused = _trip(endpoint, attempt, now)
        if attempt.delivered:
            delivery.attempts += 1
            delivery.state, delivery.next_attempt_at = DeliveryState.DELIVERED, None
        elif attempt.status == 410:
            delivery.attempts += 1
            delivery.state, delivery.next_attempt_at = DeliveryState.FAILED, None
        elif paused:
            delivery.next_attempt_at = now  # due, and sent once the endpoint resumes
        else:
            delivery.attempts += 1
            if delivery.attempts > len(schedule):
                delivery.state, delivery.next_attempt_at = DeliveryState.FAILED, None
            else:
                wait = schedule[delivery.attempts - 1] * random.uniform(0.9, 1.1)  # noqa: S311
                delivery.next_attempt_at = now + timedelta(seconds=wait)
        delivery.save()
        if attempt.status == 410:
            endpoint.enabled, endpoint.disabled_reason = False, "The endpoint answered 410 Gone."
        elif delivery.state == DeliveryState.FAILED and not _delivered_since(delivery):
            endpoint.enabled = False
            endpoint.disabled_reason = "Every delivery failed through the schedule."
        elif paused and now - (endpoint.failing_since or now) > timedelta(seconds=sum(schedule)):
            endpoint.enabled = False
            endpoint.disabled_reason = "No delivery succeeded for as long as the schedule lasts."
        endpoint.save(
            update_fields=[
                "failures",
                "failing_since",
                "paused_until",
                "enabled",
                "disabled_reason",
            ]
        )
    # The endpoint instance the caller holds shows what was recorded.
    delivery.endpoint = endpoint


def _trip(endpoint: Endpoint, attempt: Attempt, now: datetime) -> bool:
    """Count the attempt on the endpoint's circuit breaker; whether the endpoint is now paused."""
    if attempt.delivered:
        endpoint.failures, endpoint.failing_since, endpoint.paused_until = 0, None, None
        return False
    if not attempt.counts_against_receiver:
        return False
    endpoint.failures += 1
    endpoint.failing_since = endpoint.failing_since or now
    pause = None
    threshold = settings.PETSTORE_WEBHOOK_PAUSE_AFTER
    if endpoint.failures >= threshold:
        doublings = min(endpoint.failures - threshold, 16)
        pause = min(
            settings.PETSTORE_WEBHOOK_PAUSE_SECONDS * 2**doublings,
            settings.PETSTORE_WEBHOOK_MAX_PAUSE_SECONDS,
        )
    if attempt.retry_after is not None:
        pause = max(pause or 0, min(attempt.retry_after, MAX_RETRY_AFTER_SECONDS))
    if pause is None:
        return False
    until = now + timedelta(seconds=pause)
    endpoint.paused_until = max(until, endpoint.paused_until or until)
    return True


def _delivered_since(delivery: Delivery) -> bool:
    return Delivery.objects.filter(
        endpoint_id=delivery.endpoint_id,
        state=DeliveryState.DELIVERED,
        last_attempt_at__gte=delivery.created_at,
    ).exists()
