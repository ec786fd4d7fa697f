"""What a partner reads of its endpoints' deliveries."""

from __future__ import annotations

from django.utils import timezone

from events.selectors import kept_since
from webhooks.models import Delivery, Endpoint


def delivery_page(
    *, endpoint: Endpoint, state: str | None, before: int, limit: int
) -> list[Delivery]:
    """Up to ``limit`` of the endpoint's deliveries still kept (they go with their events),
    newest first, from before the delivery ``before`` (0: from the newest)."""
    deliveries = Delivery.objects.filter(
        endpoint=endpoint, created_at__gte=kept_since(timezone.now())
    ).select_related("event")
    if state is not None:
        deliveries = deliveries.filter(state=state)
    if before:
        deliveries = deliveries.filter(pk__lt=before)
    return list(deliveries.order_by("-id")[:limit])
