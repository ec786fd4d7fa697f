"""Webhook endpoints, and their deliveries' lifecycle: made for each new event, leased to a
worker when due, and after each attempt delivered, tried again later, or failed."""

from __future__ import annotations

import random
import secrets
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import transaction
from django.db.models import Case, F, Q, Value, When
from django.db.models.lookups import IsNull
from django.utils import timezone

from apikeys.models import Account
from audit.services import Actor, record_by
from events.models import Event
from petstore.exceptions import Conflict
from webhooks import events as webhook_events
from webhooks import next_state, sql
from webhooks.models import (
    MAX_ENDPOINTS,
    Delivery,
    DeliveryState,
    Endpoint,
    StaffDisabledUrl,
)
from webhooks.next_state import HEALTHY, Breaker, Disabling, NextState, Policy

if TYPE_CHECKING:
    # Only the workers load the HTTP client (webhooks.delivery); the web processes never do.
    from webhooks.delivery import Attempt

# Events fanned out, and deliveries leased, per pass.
BATCH = 500
# Deliveries one lease hands a worker, to be sent one after another: an endpoint's place in
# flight is a run of them, so that its receiver's pace, not the bookkeeping of each delivery,
# sets how fast they go.
RUN = 25


# The endpoint's endpoint_* changes are recorded in the trail (``audit``), never its secret;
# ``by`` is who acts (``system`` when no one is, as when a failing endpoint is disabled).


def endpoint_create(
    *,
    account_id: int,
    url: str,
    events: list[str],
    description: str = "",
    by: Actor | None = None,
) -> Endpoint:
    with transaction.atomic():
        # Locks the account's row: two requests cannot both make the eleventh.
        Account.objects.select_for_update().get(pk=account_id)
        if Endpoint.objects.filter(account_id=account_id).count() >= MAX_ENDPOINTS:
            raise Conflict(f"An account has at most {MAX_ENDPOINTS} webhook endpoints.")
        refuse_staff_disabled_url(account_id, url)
        endpoint = Endpoint.objects.create(
            account_id=account_id, url=url, events=events, description=description
        )
        record_by(
            by,
            "endpoint.created",
            endpoint,
            {"account": [None, account_id], "url": [None, url], "events": [None, endpoint.events]},
        )
        return endpoint


@transaction.atomic
def endpoint_delete(*, endpoint: Endpoint, by: Actor | None = None) -> None:
    changes = {"url": [endpoint.url, None], "events": [endpoint.events, None]}
    record_by(by, "endpoint.deleted", endpoint, {"account": [endpoint.account_id, None], **changes})
    endpoint.delete()


def refuse_staff_disabled_url(account_id: int, url: str) -> None:
    """A ``Conflict`` when an account manager disabled this account's endpoint for ``url``
    and staff have not lifted it: making or moving an endpoint there would undo their disable."""
    if StaffDisabledUrl.objects.filter(account_id=account_id, url=url).exists():
        raise Conflict(
            "An endpoint for this URL was disabled by an account manager: no endpoint is made "
            "for it, or moved to it, until they lift it (ask them)."
        )


@transaction.atomic
def staff_disabled_url_lift(*, disabled: StaffDisabledUrl, by: Actor | None = None) -> None:
    """Staff let the account use the URL again (its endpoint, if it is still there, stays
    disabled until they enable it)."""
    record_by(
        by,
        "endpoint_url.lifted",
        disabled,
        {"url": [disabled.url, None]},
        target_repr=disabled.url,
    )
    disabled.delete()


_ENABLING = [
    "enabled",
    "disabled_reason",
    "disabled_by_staff",
    "failures",
    "failing_since",
    "paused_until",
]


@transaction.atomic
def endpoint_set_enabled(
    endpoint: Endpoint,
    enabled: bool,
    reason: str = "",
    *,
    by: Actor | None = None,
    staff: bool = False,
) -> None:
    """Disable an endpoint, or enable it afresh: healthy, its circuit breaker's count cleared.
    A disabling is recorded, in the trail and as ``webhook_endpoint.disabled``, once however
    many happen at once (two attempts in flight may both be answered 410). One disabled by
    ``staff`` stays so until staff enable it (``endpoints.endpoint_update`` refuses the
    partner), even if it was disabled already for another reason."""
    # Decided from the locked row, not the instance in hand: a concurrent disabling waits here
    # and then finds the endpoint disabled already.
    current = Endpoint.objects.select_for_update().get(pk=endpoint.pk)
    was, was_reason = current.enabled, current.disabled_reason
    if staff and not enabled:  # its URL stays refused to the account, whatever becomes of it
        StaffDisabledUrl.objects.get_or_create(account_id=current.account_id, url=current.url)
    elif enabled and current.disabled_by_staff:
        StaffDisabledUrl.objects.filter(account_id=current.account_id, url=current.url).delete()
    staff_takes_over = staff and not enabled and not current.disabled_by_staff
    # One disabled already keeps the reason it was disabled for, unless staff take it over.
    if was or enabled or staff_takes_over:
        current.enabled, current.disabled_reason = enabled, "" if enabled else reason
        current.disabled_by_staff = staff and not enabled
        if enabled:
            current.failures, current.failing_since, current.paused_until = 0, None, None
        current.save(update_fields=_ENABLING)
    for field in _ENABLING:  # the caller's instance shows what the row now holds
        setattr(endpoint, field, getattr(current, field))
    if was != enabled:
        changes: dict[str, list[object]] = {"enabled": [was, enabled]}
        if reason:
            changes["reason"] = [None, reason]
        action = "endpoint.enabled" if enabled else "endpoint.disabled"
        record_by(by, action, current, changes)
        if not enabled:
            webhook_events.endpoint_disabled(current)
    elif staff_takes_over:
        record_by(by, "endpoint.disabled", current, {"reason": [was_reason, reason]})


# What a delivery made while its endpoint was disabled says, before the endpoint's reason.
DISABLED_ERROR = "Not sent: the endpoint was disabled. "


def fan_out() -> int:
    """Make the deliveries of events that have none yet, by one INSERT … SELECT over the
    endpoints that list each event's type (an index finds them), were made before the event,
    and may see it: pending, or, for a disabled endpoint, failed unsent (``disabled``), owed
    for ``recover``. An account's own events go first, then every account's, oldest first in
    each: a bulk of new animals never holds up an order's. Returns the events fanned out."""
    now = timezone.now()
    with transaction.atomic():
        events = list(
            Event.objects.select_for_update(skip_locked=True)
            .filter(fanned_out=False)
            .order_by(IsNull(F("account"), True), "id")
            .values_list("pk", flat=True)[:BATCH]
        )
        if not events:
            return 0
        connection = transaction.get_connection()
        with connection.cursor() as cursor:
            cursor.execute(
                sql.fan_out(connection.vendor, len(events)),
                {"now": now, "disabled": DISABLED_ERROR, **_named(events)},
            )
        Event.objects.filter(pk__in=events).update(fanned_out=True)
    return len(events)


def lease_due(now: datetime | None = None, *, endpoint_id: int | None = None) -> list[list[int]]:
    """The deliveries due now, leased in runs of up to ``RUN`` of an endpoint's, each for
    ``PETSTORE_WEBHOOK_LEASE_SECONDS`` (a worker that dies with one, or a message the broker
    loses, leaves it due again when the lease ends): of endpoints neither disabled nor paused,
    and no more runs per endpoint than ``PETSTORE_WEBHOOK_ENDPOINT_CONCURRENCY`` (one while it
    is on trial after a pause). A run's deliveries are sent one after another, so that a slow
    receiver holds no more than that of the workers. The only place a lease is taken: every
    lease neither ended nor given back counts, whatever became of its delivery meanwhile.
    ``endpoint_id``: that endpoint's next only (a worker going on with it). Returns each run's
    deliveries, in order."""
    now = now or timezone.now()
    lease = timedelta(seconds=settings.PETSTORE_WEBHOOK_LEASE_SECONDS)
    params = {
        "now": now,
        "until": now + lease,
        "trial_after": settings.PETSTORE_WEBHOOK_PAUSE_AFTER,
        "places": settings.PETSTORE_WEBHOOK_ENDPOINT_CONCURRENCY,
        "endpoint": endpoint_id,
        "batch": BATCH,
        "run": RUN,
        # A run's name is this number plus its place among its endpoint's leased now: unlike
        # any other of the endpoint's runs in flight, which the next lease counts.
        "runs_from": secrets.randbits(62),
    }
    with transaction.atomic():
        connection = transaction.get_connection()
        with connection.cursor() as cursor:
            # The endpoints' rows are locked first, and their places counted by the next
            # statement, which sees every lease committed before: two passes cannot both take
            # an endpoint's last place. Dispatch's pass leaves an endpoint locked by another.
            cursor.execute(sql.ready(connection.vendor, endpoint_id is not None), params)
            ready = [int(row[0]) for row in cursor.fetchall()]
            if not ready:
                return []
            cursor.execute(sql.lease(len(ready)), {**params, **_named(ready)})
            runs: dict[tuple[int, int], list[int]] = {}
            for delivery, endpoint, run in cursor.fetchall():
                runs.setdefault((endpoint, run), []).append(int(delivery))
    return [sorted(deliveries) for deliveries in runs.values()]


def release(deliveries: list[int]) -> None:
    """Give back leased deliveries a worker will not attempt: those still pending due again at
    once, and their places free."""
    if deliveries:
        Delivery.objects.filter(pk__in=deliveries).update(leased_until=None, run=None)


def _named(ids: list[int]) -> dict[str, int]:
    return {f"e{n}": value for n, value in enumerate(ids)}


@transaction.atomic  # the delivery's end and what it does to its endpoint, seen together
def record(delivery: Delivery, attempt: Attempt, now: datetime | None = None) -> None:
    """What became of an attempt, as ``next_state.after`` decides it from the delivery's and
    its endpoint's rows: the delivery and the endpoint's circuit breaker written, and the
    endpoint disabled if it says so (one dead for days, with what it is owed failed). A
    success costs two UPDATEs."""
    now = now or timezone.now()
    delivery.last_attempt_at, delivery.last_status = now, attempt.status
    delivery.last_error, delivery.leased_until, delivery.run = attempt.error, None, None
    delivery.last_error_kind = attempt.error_kind or ""
    delivery.last_duration_ms, delivery.last_response = attempt.duration_ms, attempt.response
    if attempt.counts_against_receiver:  # the only attempt the breaker counts: its row read
        with transaction.atomic():
            endpoint = Endpoint.objects.select_for_update().get(pk=delivery.endpoint_id)
            outcome = _next_state(delivery, attempt, now, _breaker(endpoint))
            if outcome.breaker is not None:  # always, for an attempt the breaker counts
                endpoint.failures = outcome.breaker.failures
                endpoint.failing_since = outcome.breaker.failing_since
                endpoint.paused_until = outcome.breaker.paused_until
                endpoint.save(update_fields=["failures", "failing_since", "paused_until"])
        delivery.endpoint = endpoint  # the caller's instance shows what was recorded
    else:
        outcome = _next_state(delivery, attempt, now)
        if outcome.breaker is not None:  # delivered: cleared, if it had counted anything
            _resume(delivery.endpoint_id)
    delivery.state, delivery.attempts = outcome.state, outcome.attempts
    delivery.next_attempt_at = outcome.next_attempt_at
    delivery.save(update_fields=_RECORDED)
    if outcome.disable == Disabling.GONE:
        endpoint_set_enabled(delivery.endpoint, False, "The endpoint answered 410 Gone.")
    elif outcome.disable == Disabling.SCHEDULE_SPENT and not _delivered_since(delivery):
        endpoint_set_enabled(
            delivery.endpoint, False, "Every delivery failed through the schedule."
        )
    elif outcome.disable == Disabling.DEAD:
        _disable_dead(delivery, attempt)


def _next_state(
    delivery: Delivery, attempt: Attempt, now: datetime, breaker: Breaker = HEALTHY
) -> NextState:
    policy = Policy(
        retry_seconds=tuple(settings.PETSTORE_WEBHOOK_RETRY_SECONDS),
        pause_after=settings.PETSTORE_WEBHOOK_PAUSE_AFTER,
        pause_seconds=settings.PETSTORE_WEBHOOK_PAUSE_SECONDS,
        max_pause_seconds=settings.PETSTORE_WEBHOOK_MAX_PAUSE_SECONDS,
        disable_after_days=settings.PETSTORE_WEBHOOK_DISABLE_AFTER_DAYS,
    )
    return next_state.after(
        attempt,
        state=delivery.state,
        attempts=delivery.attempts,
        breaker=breaker,
        policy=policy,
        now=now,
        jitter=random.random(),  # noqa: S311
    )


def _breaker(endpoint: Endpoint) -> Breaker:
    return Breaker(
        endpoint.failures, endpoint.failing_since, endpoint.paused_until, endpoint.enabled
    )


_RECORDED = [
    "state",
    "attempts",
    "next_attempt_at",
    "leased_until",
    "run",
    "last_attempt_at",
    "last_status",
    "last_error",
    "last_error_kind",
    "last_duration_ms",
    "last_response",
]


def record_delivered(endpoint_id: int, delivered: list[tuple[int, Attempt]], now: datetime) -> None:
    """A run's deliveries that arrived, as (delivery, attempt): as ``record`` records each, in
    one UPDATE for them all and one that resumes the endpoint if it was failing. Their attempts
    were counted before they were sent (``count_attempts``)."""
    if not delivered:
        return
    _resume(endpoint_id)
    # One UPDATE for each status (one, usually): only each attempt's duration and answer vary
    # within it. Django's bulk_update, a CASE for every column, made a run's record the
    # workers' bottleneck (docs/performance.md).
    by_status: dict[int | None, list[tuple[int, Attempt]]] = {}
    for delivery, attempt in delivered:
        by_status.setdefault(attempt.status, []).append((delivery, attempt))
    for status, attempts in by_status.items():
        Delivery.objects.filter(pk__in=[delivery for delivery, _ in attempts]).update(
            state=DeliveryState.DELIVERED,
            next_attempt_at=None,
            leased_until=None,
            run=None,
            last_attempt_at=now,
            last_status=status,
            last_error="",
            last_error_kind="",
            last_duration_ms=_each(attempts, "duration_ms"),
            last_response=_each(attempts, "response"),
        )


def _each(attempts: list[tuple[int, Attempt]], field: str) -> Case | Value:
    """Each delivery's own value of its attempt's ``field``, or the one they share (its type,
    and so the SQL, Django's from the value's)."""
    values = {getattr(attempt, field) for _, attempt in attempts}
    if len(values) == 1:
        return Value(values.pop())
    return Case(*[When(pk=delivery, then=Value(getattr(a, field))) for delivery, a in attempts])


def _resume(endpoint_id: int) -> None:
    """A success: the endpoint's circuit breaker cleared, if it had counted anything."""
    Endpoint.objects.filter(pk=endpoint_id).filter(
        Q(failures__gt=0) | Q(paused_until__isnull=False)
    ).update(failures=0, failing_since=None, paused_until=None)


def _disable_dead(delivery: Delivery, attempt: Attempt) -> None:
    """Disable the delivery's endpoint, saying why, and fail what it is owed, for ``recover``
    to send once the receiver is fixed (the endpoint's row is locked by ``record``). What
    another run holds keeps its lease, and its place, until that run gives it back."""
    days = settings.PETSTORE_WEBHOOK_DISABLE_AFTER_DAYS
    last = attempt.error or f"HTTP {attempt.status}"
    reason = f"Every attempt failed for {days} days; the last: {last}"
    endpoint_set_enabled(delivery.endpoint, False, reason[:200])
    Delivery.objects.filter(endpoint_id=delivery.endpoint_id, state=DeliveryState.PENDING).update(
        state=DeliveryState.FAILED, next_attempt_at=None
    )


def _delivered_since(delivery: Delivery) -> bool:
    return Delivery.objects.filter(
        endpoint_id=delivery.endpoint_id,
        state=DeliveryState.DELIVERED,
        last_attempt_at__gte=delivery.created_at,
    ).exists()
