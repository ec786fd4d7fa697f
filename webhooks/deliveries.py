"""What a partner has sent again through the API (DESIGN §15): one delivery, at once, or every
failed one of an endpoint since a time. Each is in the trail, with ``by`` as the actor."""

from __future__ import annotations

from datetime import datetime
from typing import NamedTuple

from django.db import transaction
from django.utils import timezone

from audit.services import Actor, record_by
from webhooks import services
from webhooks.models import Delivery, DeliveryState, Endpoint

# The most failed deliveries one recovery queues: a partner calls again for the rest.
MAX_RECOVERED = 1000


class Recovered(NamedTuple):
    requeued: int
    has_more: bool


@transaction.atomic
def delivery_retry(*, delivery: Delivery, by: Actor | None = None) -> Delivery:
    """Send it again now, whatever became of it, with the same ``webhook-id``: the workers
    send it once its endpoint is neither paused nor disabled."""
    was = delivery.state
    services.redeliver(delivery)
    record_by(by, "delivery.retried", delivery, {"state": [was, DeliveryState.PENDING.value]})
    delivery.refresh_from_db()
    return delivery


@transaction.atomic
def endpoint_recover(*, endpoint: Endpoint, since: datetime, by: Actor | None = None) -> Recovered:
    """Queue once more the endpoint's failed deliveries made from ``since`` on, oldest first,
    up to ``MAX_RECOVERED`` of them; what is left is for the next call."""
    failed = Delivery.objects.filter(
        endpoint=endpoint, state=DeliveryState.FAILED, created_at__gte=since
    ).order_by("id")
    chosen = list(failed.values_list("pk", flat=True)[: MAX_RECOVERED + 1])
    chosen, has_more = chosen[:MAX_RECOVERED], len(chosen) > MAX_RECOVERED
    requeued = Delivery.objects.filter(pk__in=chosen, state=DeliveryState.FAILED).update(
        state=DeliveryState.PENDING, next_attempt_at=timezone.now(), leased_until=None, run=None
    )
    record_by(
        by, "endpoint.recovered", endpoint, {"since": [None, since], "requeued": [None, requeued]}
    )
    return Recovered(requeued, has_more)
