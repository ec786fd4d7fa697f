"""The workers' tasks (Celery): ``dispatch`` every half second (``petstore.celery``), a ``deliver``
for each delivery it leases (which goes on with its endpoint's next), ``purge`` every hour."""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.db import connection, transaction
from django.utils import timezone

from events import positions
from events.models import KEPT_DAYS, Event
from petstore.metrics import WEBHOOK_ATTEMPTS, WEBHOOK_LATENCY
from webhooks import delivery, services
from webhooks.models import Delivery, DeliveryState


@shared_task
def dispatch() -> int:
    """Place the committed events in the feed, make their deliveries, and hand each due
    delivery to a worker."""
    positions.place_committed()
    services.fan_out()
    due = services.lease_due()
    for delivery_id in due:
        deliver.delay(delivery_id)
    return len(due)


# Deliveries one task makes to its endpoint, one after another, before it leaves the rest to
# the next pass of ``dispatch``.
RUN = 100


@shared_task(acks_late=True)
def deliver(delivery_id: int) -> None:
    """Attempt a leased delivery and record what became of it; then, while its endpoint has
    more due and a place free, the next of them: an endpoint's deliveries follow each other
    as fast as its receiver answers, never more at once than its share."""
    for _ in range(RUN):
        found = Delivery.objects.select_related("endpoint", "event").filter(pk=delivery_id).first()
        if found is None or found.state != DeliveryState.PENDING:
            return
        # The connection goes back to the pool while the receiver takes its time (unless a
        # caller's transaction holds it: a test that runs the task in its own).
        if not connection.in_atomic_block:
            connection.close()
        attempt = delivery.attempt(found.endpoint, found.event)
        services.record(found, attempt)
        WEBHOOK_ATTEMPTS.labels(attempt.result).inc()
        if attempt.delivered:
            WEBHOOK_LATENCY.observe((timezone.now() - found.event.created_at).total_seconds())
        following = services.lease_due(endpoint_id=found.endpoint_id)
        if not following:
            return
        delivery_id, *others = following
        for other in others:
            deliver.delay(other)
    else:
        # This task's run is over; the next delivery, leased already, goes to another.
        deliver.delay(delivery_id)


@shared_task
def purge() -> int:
    """Forget events (and their deliveries) older than they are kept."""
    with transaction.atomic():
        deleted, _ = Event.objects.filter(
            created_at__lt=timezone.now() - timedelta(days=KEPT_DAYS)
        ).delete()
    return deleted
