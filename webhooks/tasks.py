"""The workers' tasks (Celery): ``dispatch`` every quarter second (``petstore.celery``), a
``deliver`` for each run of deliveries it leases (which goes on with its endpoint's next),
``purge`` every hour."""

from __future__ import annotations

import logging
import time

from celery import shared_task
from django.conf import settings
from django.db import InterfaceError, OperationalError, connection, transaction
from django.utils import timezone

from events import positions
from events.models import Event
from events.selectors import kept_since
from petstore.metrics import WEBHOOK_ATTEMPTS, WEBHOOK_LATENCY
from webhooks import delivery, services
from webhooks.models import Delivery, DeliveryState, Lane

logger = logging.getLogger("webhooks.tasks")


@shared_task
def dispatch() -> int:
    """Place the committed events in the feed, make their deliveries, and hand each run of
    due deliveries to a worker."""
    positions.place_committed()
    services.fan_out()
    runs = services.lease_due()
    for run in runs:
        hand_over(run)
    return sum(len(run) for run in runs)


def hand_over(run: list[int]) -> None:
    """Queue a leased run for a worker. A message still queued when its lease ends is dropped
    unsent (its deliveries are leased again when due): a worker never starts on a run whose
    place another may have taken."""
    deliver.apply_async((run,), expires=settings.PETSTORE_WEBHOOK_LEASE_SECONDS)


# Runs one task sends, one after another, before it leaves the rest to the next pass of
# ``dispatch``.
RUNS = 20
# How often a run of the catalogue's looks, between attempts, for its endpoint's own events
# waiting: a slow receiver's looks cost a query a second, a quick one's run ends first.
MAKE_WAY_EVERY = 1.0


@shared_task(acks_late=True)
def deliver(run: list[int]) -> None:
    """Attempt a leased run of an endpoint's deliveries and record what became of them; then,
    while its endpoint has more due and a place free, the next run: an endpoint's deliveries
    follow each other as fast as its receiver answers, never more at once than its share.

    Without the database the run is left leased, and is leased again when its lease ends: an
    outage fails every task meanwhile, so each says so in one line, without a traceback."""
    try:
        _deliver(run)
    except (OperationalError, InterfaceError) as exc:
        logger.error("webhook run %s not sent: database unavailable: %s", run, exc)


def _deliver(run: list[int]) -> None:
    for _ in range(RUNS):
        endpoint_id = _send(run)
        following = services.lease_due(endpoint_id=endpoint_id) if endpoint_id else []
        if not following:
            return
        run, *others = following
        for other in others:
            hand_over(other)
    # This task's turn is over; the next run, leased already, goes to another.
    hand_over(run)


def _send(run: list[int]) -> int | None:
    """Attempt the run's deliveries still pending, in order, and record them; returns their
    endpoint. A failure the receiver is to blame for ends the run (the circuit breaker counts
    it), and so does the lease's end coming near: what is left is given back, due. Only what
    the lease still holds is attempted; what it holds but is no longer pending is given back.
    The account's own events go first; the catalogue's make way for own events waiting."""
    now = timezone.now()
    held = list(
        Delivery.objects.select_related("endpoint", "event")
        .filter(pk__in=run, leased_until__gt=now)
        .order_by("lane", "id")
    )
    services.release([d.pk for d in held if d.state != DeliveryState.PENDING])
    owed = [d for d in held if d.state == DeliveryState.PENDING]
    if not owed:
        return None
    endpoint = owed[0].endpoint
    lease_left = min(d.leased_until or now for d in owed) - now
    # The connection goes back to the pool while receivers take their time (unless a caller's
    # transaction holds it: a test that runs the task in its own).
    if not connection.in_atomic_block:
        connection.close()
    # The last attempt begun must end, answered or timed out, before the lease does.
    longest = (
        settings.PETSTORE_WEBHOOK_CONNECT_TIMEOUT_SECONDS
        + settings.PETSTORE_WEBHOOK_TIMEOUT_SECONDS
    )
    stop_at = time.monotonic() + lease_left.total_seconds() - longest
    delivered: list[tuple[int, delivery.Attempt]] = []
    left: list[Delivery] = []
    looked = time.monotonic()
    with delivery.Sender(endpoint) as sender:
        for n, owing in enumerate(owed):
            if n and time.monotonic() > stop_at:
                left = owed[n:]
                break
            if n and owing.lane == Lane.CATALOGUE and time.monotonic() - looked > MAKE_WAY_EVERY:
                looked = time.monotonic()
                if _own_waiting(endpoint.pk):  # given back: leased again behind them
                    left = owed[n:]
                    break
            attempt = sender.attempt(owing.event)
            WEBHOOK_ATTEMPTS.labels(attempt.result).inc()
            if attempt.delivered:
                delivered.append((owing.pk, attempt))
                WEBHOOK_LATENCY.observe((timezone.now() - owing.event.created_at).total_seconds())
                continue
            # In the order they were made: the successes before it reset the circuit breaker.
            services.record_delivered(endpoint.pk, delivered, timezone.now())
            delivered = []
            services.record(owing, attempt)
            if attempt.counts_against_receiver or attempt.retry_after or attempt.status == 410:
                left = owed[n + 1 :]
                break
    services.record_delivered(endpoint.pk, delivered, timezone.now())
    services.release([owing.pk for owing in left])
    return endpoint.pk


def _own_waiting(endpoint_id: int) -> bool:
    """``services.own_waiting``, the connection given back to the pool before the next attempt."""
    waiting = services.own_waiting(endpoint_id, timezone.now())
    if not connection.in_atomic_block:
        connection.close()
    return waiting


@shared_task
def purge() -> int:
    """Forget events (and their deliveries) older than they are kept."""
    with transaction.atomic():
        deleted, _ = Event.objects.filter(created_at__lt=kept_since(timezone.now())).delete()
    return deleted
