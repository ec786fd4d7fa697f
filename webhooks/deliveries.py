"""What a partner has sent through the API beside its events (docs/design.md#partners-webhooks):
one delivery again, at once; every failed one of an endpoint since a time; an example event, to
test its receiver. Each is in the trail, with ``by`` as the actor. The workers send them: never
the web process."""

from __future__ import annotations

import math
import secrets
from datetime import datetime, timedelta
from typing import NamedTuple

from django.db import transaction
from django.utils import timezone

from audit.services import Actor, record_by
from events.examples import EXAMPLE_DATA
from events.models import Event
from petstore.exceptions import Conflict
from webhooks.models import Delivery, DeliveryState, Endpoint, ExampleSend

# The most failed deliveries one recovery queues: a partner calls again for the rest.
MAX_RECOVERED = 1000
# The most test sends an endpoint is made in a minute.
TESTS_A_MINUTE = 10


class Recovered(NamedTuple):
    requeued: int
    has_more: bool


IN_FLIGHT = (
    "This delivery is being sent right now, so nothing changed: retry it once its attempt is "
    "listed."
)


@transaction.atomic
def delivery_retry(*, delivery: Delivery, by: Actor | None = None) -> Delivery:
    """Send it again now, whatever became of it, with the same ``webhook-id``: the workers
    send it once its endpoint is neither paused nor disabled. Refused while a worker holds it
    (its lease is its endpoint's place in flight), and a test delivery's counts among the
    endpoint's test sends."""
    if delivery.event.test:
        _count_test_send(delivery.endpoint_id)
    was, now = delivery.state, timezone.now()
    # One statement decides: a lease taken meanwhile makes it match nothing.
    requeued = (
        Delivery.objects.filter(pk=delivery.pk)
        .exclude(leased_until__gt=now)
        .update(state=DeliveryState.PENDING, next_attempt_at=now)
    )
    if not requeued:
        raise Conflict(IN_FLIGHT)
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
    # One still held by a run (its endpoint disabled as it was sent) keeps its lease: it is
    # leased again once that run gives it back.
    requeued = Delivery.objects.filter(pk__in=chosen, state=DeliveryState.FAILED).update(
        state=DeliveryState.PENDING, next_attempt_at=timezone.now()
    )
    record_by(
        by, "endpoint.recovered", endpoint, {"since": [None, since], "requeued": [None, requeued]}
    )
    return Recovered(requeued, has_more)


class TestsSpent(Exception):
    """The endpoint has had its test sends of the last minute; ``wait`` seconds until the next."""

    def __init__(self, wait: int) -> None:
        super().__init__(f"{TESTS_A_MINUTE} test sends a minute at most; {wait} s to the next.")
        self.wait = wait


@transaction.atomic
def endpoint_test(*, endpoint: Endpoint, event_type: str, by: Actor | None = None) -> Delivery:
    """Queue a signed example event of ``event_type`` to the endpoint alone (``evt_test_…``,
    never in the feed), whether or not it lists the type; at most ``TESTS_A_MINUTE`` a minute."""
    now = _count_test_send(endpoint.pk)
    event = Event.objects.create(
        uid="evt_test_" + secrets.token_hex(10),
        type=event_type,
        account_id=endpoint.account_id,
        data=EXAMPLE_DATA[event_type],
        created_at=now,
        fanned_out=True,
        test=True,
    )
    delivery = Delivery.objects.create(
        endpoint=endpoint, event=event, next_attempt_at=now, created_at=now
    )
    record_by(
        by, "endpoint.tested", endpoint, {"type": [None, event_type], "event": [None, event.uid]}
    )
    return delivery


def _count_test_send(endpoint_id: int) -> datetime:
    """Count one more test send of the endpoint, by ``test`` or by ``retry``, in the caller's
    transaction; raise ``TestsSpent`` past ``TESTS_A_MINUTE`` in the last minute. Returns now."""
    # Locked, so that concurrent sends count each other.
    Endpoint.objects.select_for_update().filter(pk=endpoint_id).first()
    now = timezone.now()
    minute_ago = now - timedelta(minutes=1)
    sends = ExampleSend.objects.filter(endpoint_id=endpoint_id)
    sends.filter(sent_at__lte=minute_ago).delete()
    recent = list(sends.order_by("-sent_at").values_list("sent_at", flat=True)[:TESTS_A_MINUTE])
    if len(recent) >= TESTS_A_MINUTE:
        raise TestsSpent(math.ceil((recent[-1] - minute_ago).total_seconds()))
    ExampleSend.objects.create(endpoint_id=endpoint_id, sent_at=now)
    return now
