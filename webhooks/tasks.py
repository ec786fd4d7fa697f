"""The workers' tasks (Celery): ``dispatch`` every quarter second (``petstore.celery``), a
``deliver`` for each run of deliveries it leases (which goes on with its endpoint's next),
``purge`` every hour."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from celery import shared_task
from django.conf import settings
from django.db import InterfaceError, OperationalError, connection, transaction
from django.utils import timezone

from events import positions
from events.models import Event
from events.selectors import kept_since
from petstore.metrics import WEBHOOK_ATTEMPTS, WEBHOOK_LATENCY
from webhooks import delivery, runs, services
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

    Without the database, the task gives its run back as soon as the database answers again
    (``give_back``), not when the lease ends: its endpoint's place is free within seconds of
    the database's return. An outage fails every task meanwhile, so each says so in one line,
    without a traceback."""
    progress = Progress(run)
    try:
        _deliver(progress)
    except DATABASE_DOWN as exc:
        logger.error("webhook run %s not sent: database unavailable: %s", progress.run, exc)
        give_back(progress)


DATABASE_DOWN = (OperationalError, InterfaceError)
# How often a task that lost the database asks again whether it is back.
ASK_AGAIN_SECONDS = 0.5


@dataclass
class Progress:
    """What the task's current run has done that the database may not hold yet."""

    run: list[int]
    # When the run began: its lease was taken before, so it ends by this plus a lease.
    began: datetime = field(default_factory=timezone.now)
    delivered: list[tuple[int, delivery.Attempt]] = field(default_factory=list)
    unsent: list[int] = field(default_factory=list)  # counted, not sent

    def begin(self, run: list[int]) -> None:
        """Go on with the endpoint's next run, just leased."""
        self.run, self.began, self.delivered, self.unsent = run, timezone.now(), [], []

    @property
    def lease_ends_by(self) -> datetime:
        return self.began + timedelta(seconds=settings.PETSTORE_WEBHOOK_LEASE_SECONDS)


def give_back(progress: Progress) -> None:
    """Settle the run once the database answers (``runs.give_back_lost_run``), asking
    every half second until its lease would have ended anyway."""
    while True:
        if not connection.in_atomic_block:
            connection.close()  # the broken connection goes; the next is a new one
        try:
            runs.give_back_lost_run(
                progress.run, progress.delivered, progress.unsent, progress.lease_ends_by
            )
            return
        except DATABASE_DOWN:
            if timezone.now() >= progress.lease_ends_by:
                return
            time.sleep(ASK_AGAIN_SECONDS)


def _deliver(progress: Progress) -> None:
    for _ in range(RUNS):
        endpoint_id = _send(progress.run, progress)
        following = services.lease_due(endpoint_id=endpoint_id) if endpoint_id else []
        if not following:
            return
        run, *others = following
        for other in others:
            hand_over(other)
        progress.begin(run)
    # This task's turn is over; the next run, leased already, goes to another.
    hand_over(progress.run)


def _send(run: list[int], progress: Progress | None = None) -> int | None:
    """Attempt the run's deliveries still pending, in order, and record them; returns their
    endpoint. Each is counted before any is sent (``runs.count_attempts``). A failure the
    receiver is to blame for ends the run (the circuit breaker counts it), and so does the
    lease's end coming near: what is left is given back, due, uncounted. Only what the lease
    still holds is attempted; what it holds but is no longer pending is given back. What it
    has done is kept in ``progress``, for ``give_back`` if the database is lost. The account's
    own events go first; the catalogue's make way for own events waiting."""
    progress = progress or Progress(run)
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
    # Each instance keeps the count it was read with: ``record`` writes that plus one.
    runs.count_attempts([d.pk for d in owed])
    progress.unsent = [d.pk for d in owed]
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
    looked = time.monotonic()
    with delivery.Sender(endpoint) as sender:
        for n, owing in enumerate(owed):
            if n and time.monotonic() > stop_at:
                break
            if n and owing.lane == Lane.CATALOGUE and time.monotonic() - looked > MAKE_WAY_EVERY:
                looked = time.monotonic()
                if _own_waiting(endpoint.pk):  # given back: leased again behind them
                    break
            progress.unsent = progress.unsent[1:]
            attempt = sender.attempt(owing.event)
            WEBHOOK_ATTEMPTS.labels(attempt.result).inc()
            if attempt.delivered:
                progress.delivered.append((owing.pk, attempt))
                WEBHOOK_LATENCY.observe((timezone.now() - owing.event.created_at).total_seconds())
                continue
            # In the order they were made: the successes before it reset the circuit breaker.
            _record_delivered(endpoint.pk, progress)
            services.record(owing, attempt)
            if attempt.counts_against_receiver or attempt.retry_after or attempt.status == 410:
                break
    _record_delivered(endpoint.pk, progress)
    runs.give_back_unsent(progress.unsent)
    progress.unsent = []
    return endpoint.pk


def _record_delivered(endpoint_id: int, progress: Progress) -> None:
    services.record_delivered(endpoint_id, progress.delivered, timezone.now())
    progress.delivered = []


def _own_waiting(endpoint_id: int) -> bool:
    """``runs.own_waiting``, the connection given back to the pool before the next attempt."""
    waiting = runs.own_waiting(endpoint_id, timezone.now())
    if not connection.in_atomic_block:
        connection.close()
    return waiting


@shared_task
def purge() -> int:
    """Forget events (and their deliveries) older than they are kept."""
    with transaction.atomic():
        deleted, _ = Event.objects.filter(created_at__lt=kept_since(timezone.now())).delete()
    return deleted
