"""What a partner changes on its own endpoints through the API (docs/design.md#partners-webhooks):
its URL, types and whether it is sent anything, and its secret, rotated with an overlap (or at
once, as the admin rotates it). Each change is in the trail, with ``by`` as the actor."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from audit.services import Actor, changes_between, record_by
from petstore.exceptions import Conflict
from webhooks import services
from webhooks.models import Delivery, DeliveryState, Endpoint, EndpointState, new_secret


@transaction.atomic
def endpoint_update(
    *,
    endpoint: Endpoint,
    url: str | None = None,
    events: list[str] | None = None,
    description: str | None = None,
    enabled: bool | None = None,
    by: Actor | None = None,
) -> Endpoint:
    """Change what was sent; ``enabled=True`` makes a paused or disabled endpoint healthy, its
    breaker cleared and its pending deliveries due at once (those failed while it was disabled
    are for ``recover``), and ``enabled=False`` stops its deliveries (what is pending waits;
    each new event's delivery is made failed, ``services.fan_out``). An endpoint staff disabled
    is neither enabled nor moved (its URL or types) here, and none is moved to a URL staff
    disabled: a ``Conflict``, and nothing changes."""
    endpoint = Endpoint.objects.select_for_update().get(pk=endpoint.pk)
    if enabled and endpoint.disabled_by_staff:
        raise Conflict(
            "This endpoint was disabled by an account manager: only they can enable it again "
            "(ask them)."
        )
    sent = {
        name: value
        for name, value in (("url", url), ("events", events), ("description", description))
        if value is not None
    }
    was = {"url": endpoint.url, "events": endpoint.events, "description": endpoint.description}
    changes = changes_between(was, sent)
    if endpoint.disabled_by_staff and {"url", "events"} & changes.keys():
        raise Conflict(
            "This endpoint was disabled by an account manager: its URL and events change only "
            "once they enable it again (ask them)."
        )
    if "url" in changes:
        services.refuse_staff_disabled_url(endpoint.account_id, changes["url"][1])
    if changes:
        for name, (_, value) in changes.items():
            setattr(endpoint, name, value)
        endpoint.save(update_fields=list(changes))
    if enabled is not None:
        state = endpoint.state
        reason = "" if enabled else "Disabled through the API."
        services.endpoint_set_enabled(endpoint, enabled, reason, by=by)
        if enabled and state != EndpointState.HEALTHY:
            # Its retries' waits were counted against a receiver now said to be fixed.
            Delivery.objects.filter(
                endpoint=endpoint, state=DeliveryState.PENDING, next_attempt_at__gt=timezone.now()
            ).update(next_attempt_at=timezone.now())
        if state == EndpointState.PAUSED and enabled:
            changes["state"] = [state.value, EndpointState.HEALTHY.value]
    if changes:
        record_by(by, "endpoint.updated", endpoint, changes)
    return endpoint


@transaction.atomic
def endpoint_rotate_secret(
    *, endpoint: Endpoint, expire_current_in_seconds: int = 0, by: Actor | None = None
) -> Endpoint:
    """A new secret; the current one goes on signing beside it for the seconds given, and
    those earlier rotations kept go on until their own overlaps end (``Endpoint.rotated_at``).
    None, as the admin rotates: every one stops at once."""
    endpoint = Endpoint.objects.select_for_update().get(pk=endpoint.pk)
    now = timezone.now()
    expires = None
    if expire_current_in_seconds > 0:
        expires = now + timedelta(seconds=expire_current_in_seconds)
    kept = endpoint.rotated_at(now) if expires is not None else []
    endpoint.previous_secret = endpoint.secret if expires is not None else ""
    endpoint.previous_secret_expires_at = expires
    endpoint.older_secrets = [[secret, until.isoformat()] for secret, until in kept]
    endpoint.secret = new_secret()
    endpoint.save(
        update_fields=["secret", "previous_secret", "previous_secret_expires_at", "older_secrets"]
    )
    # That it changed, and until when the old one signs; never a secret.
    overlap = {"previous_secret_expires_at": [None, expires]} if expires is not None else None
    record_by(by, "endpoint.secret_rotated", endpoint, overlap)
    return endpoint
