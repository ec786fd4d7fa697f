"""The workers' tasks (Celery): ``dispatch`` every second (``petstore.celery``), one
``deliver`` per due delivery, ``purge`` every hour."""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.db import transaction
from django.utils import timezone

from events.models import KEPT_DAYS, Event
from webhooks import delivery, services
from webhooks.models import Delivery, DeliveryState


@shared_task
def dispatch() -> int:
    """Make the new events' deliveries, and hand each due delivery to a worker."""
    services.fan_out()
    due = services.lease_due()
    for delivery_id in due:
        deliver.delay(delivery_id)
    return len(due)


@shared_task(acks_late=True)
def deliver(delivery_id: int) -> None:
    """Attempt one delivery, and record what became of it."""
    found = Delivery.objects.select_related("endpoint", "event").filter(pk=delivery_id).first()
    if found is None or found.state != DeliveryState.PENDING:
        return
    attempt = delivery.attempt(found.endpoint, found.event)
    services.record(found, attempt)


@shared_task
def purge() -> int:
    """Forget events (and their deliveries) older than they are kept."""
    with transaction.atomic():
        deleted, _ = Event.objects.filter(
            created_at__lt=timezone.now() - timedelta(days=KEPT_DAYS)
        ).delete()
    return deleted
