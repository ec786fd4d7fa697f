"""The webhooks' state, read from the database at each scrape (``PETSTORE_METRICS_COLLECTORS``):
what is due and how long the oldest has waited, and the endpoints by state. Read, not counted,
so that every web process tells the same, whichever the operator scrapes."""

from __future__ import annotations

from collections.abc import Iterator

from django.db import DatabaseError
from django.db.models import Count, Min, Q
from django.utils import timezone
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from webhooks.models import Delivery, DeliveryState, Endpoint, EndpointState


class WebhookCollector(Collector):
    def collect(self) -> Iterator[GaugeMetricFamily]:
        try:
            yield from self._read()
        except DatabaseError:
            # The database down: the scrape still has everything else, that failure included.
            return

    def _read(self) -> Iterator[GaugeMetricFamily]:
        now = timezone.now()
        # A paused endpoint's deliveries wait by design: the endpoints' gauge shows them.
        due = (
            Delivery.objects.filter(
                state=DeliveryState.PENDING, next_attempt_at__lte=now, endpoint__enabled=True
            )
            .exclude(endpoint__paused_until__gt=now)
            .aggregate(count=Count("pk"), oldest=Min("next_attempt_at"))
        )
        yield GaugeMetricFamily(
            "petstore_webhook_backlog",
            "Deliveries due now to endpoints neither paused nor disabled.",
            due["count"],
        )
        oldest = (now - due["oldest"]).total_seconds() if due["oldest"] else 0.0
        yield GaugeMetricFamily(
            "petstore_webhook_backlog_oldest_seconds",
            "How long the longest-due delivery has been due.",
            oldest,
        )
        counts = Endpoint.objects.aggregate(
            disabled=Count("pk", filter=Q(enabled=False)),
            paused=Count("pk", filter=Q(enabled=True, paused_until__gt=now)),
            all=Count("pk"),
        )
        endpoints = GaugeMetricFamily(
            "petstore_webhook_endpoints", "Webhook endpoints by state.", labels=["state"]
        )
        healthy = counts["all"] - counts["disabled"] - counts["paused"]
        endpoints.add_metric([EndpointState.HEALTHY], healthy)
        endpoints.add_metric([EndpointState.PAUSED], counts["paused"])
        endpoints.add_metric([EndpointState.DISABLED], counts["disabled"])
        yield endpoints
