from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone
from django.utils.dateparse import parse_datetime
from rest_framework import serializers

from events.models import KEPT_DAYS
from events.types import EVENT_TYPES, EventType, unreadable
from petstore.pagination import PageQuery
from petstore.serializers import (
    QuerySerializer,
    StrictCharField,
    StrictChoiceField,
    StrictIntegerField,
    StrictSerializer,
)
from webhooks.addresses import Refused, target
from webhooks.models import (
    MAX_SECRET_OVERLAP_SECONDS,
    RESPONSE_CHARS,
    AttemptError,
    DeliveryState,
    EndpointState,
)


class EndpointSerializer(serializers.Serializer):
    """A URL the account's events are posted to, signed (Standard Webhooks)."""

    id = serializers.IntegerField(read_only=True)
    url = serializers.CharField(read_only=True)
    events = serializers.ListField(
        child=serializers.ChoiceField(choices=EventType.choices), read_only=True
    )
    description = serializers.CharField(read_only=True, help_text="The partner's own note.")
    enabled = serializers.BooleanField(read_only=True)
    state = serializers.ChoiceField(
        choices=EndpointState.choices,
        read_only=True,
        help_text="`healthy`; `paused` while its receiver keeps failing or asked us to wait "
        "(what it is owed waits, and is sent from `pausedUntil`); `disabled` (see "
        "`disabledReason`).",
    )
    pausedUntil = serializers.DateTimeField(
        source="pause_ends",
        read_only=True,
        allow_null=True,
        help_text="When a paused endpoint is tried again; null unless paused.",
    )
    disabledReason = serializers.CharField(
        source="disabled_because",
        read_only=True,
        allow_null=True,
        help_text="Why it is disabled; null unless disabled.",
    )
    createdAt = serializers.DateTimeField(source="created_at", read_only=True)


def refuse_unreadable(types: list[str], scopes: frozenset[str], preface: str) -> None:
    """Refuse types the key may not read in the feed (``events.types``), naming each with the
    scopes it lacks."""
    if lacking := unreadable(types, scopes):
        needs = "; ".join(f"`{kind}` needs {', '.join(s)}" for kind, s in lacking.items())
        raise serializers.ValidationError(f"{preface}: {needs}.")


class NewEndpointSerializer(StrictSerializer):
    """What a client sends to add a webhook endpoint; its context holds the key's ``scopes``."""

    url = StrictCharField(
        max_length=2000,
        help_text="Where events are posted: `https://` to a public address.",
    )
    events = serializers.ListField(
        child=StrictChoiceField(choices=EventType.choices),
        min_length=1,
        max_length=len(EVENT_TYPES),
        help_text="The event types to send: those the key may read in `listEvents` (each "
        "type's scope is in `Event`).",
    )
    description = StrictCharField(
        max_length=200,
        required=False,
        allow_blank=True,
        help_text="A note of the partner's own: what the endpoint is for.",
    )

    def validate_url(self, url: str) -> str:
        try:
            target(url)
        except Refused as exc:
            raise serializers.ValidationError(str(exc)) from None
        return url

    def validate_events(self, events: list[str]) -> list[str]:
        scopes = self.context["scopes"]
        refuse_unreadable(events, scopes, "This key may not read these types in the feed")
        return list(dict.fromkeys(events))


class CreatedEndpointSerializer(EndpointSerializer):
    """The endpoint as made, with its signing secret: shown this once."""

    secret = serializers.CharField(
        read_only=True, help_text="`whsec_…`: verify each delivery's signature with it."
    )

    @staticmethod
    def of(endpoint: Any) -> dict[str, Any]:
        return dict(CreatedEndpointSerializer(endpoint).data)


class StrictBooleanField(serializers.BooleanField):
    """A JSON ``true`` or ``false``: not ``"true"``, ``1`` or ``"on"``, which DRF's accepts."""

    default_error_messages = {"invalid": "A JSON boolean is required."}

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid")
        return data


class EndpointChangesSerializer(NewEndpointSerializer):
    """What a client sends to change a webhook endpoint: any of its fields, each checked as
    at creation; its context holds the key's ``scopes`` and the ``endpoint``."""

    url = StrictCharField(
        max_length=2000,
        required=False,
        help_text="Where events are posted: `https://` to a public address.",
    )
    events = serializers.ListField(
        child=StrictChoiceField(choices=EventType.choices),
        min_length=1,
        max_length=len(EVENT_TYPES),
        required=False,
        help_text="The event types to send, in place of those listed: those the key may read "
        "in `listEvents`.",
    )
    description = StrictCharField(
        max_length=200,
        required=False,
        allow_blank=True,
        help_text="A note of the partner's own, in place of the one it has.",
    )
    enabled = StrictBooleanField(
        required=False,
        help_text="`true`: healthy again, its breaker cleared, and sent at once what was "
        "pending (what failed while it was disabled comes with `recoverWebhookEndpoint`); "
        "`false`: nothing is sent, what is pending waits and each new event is recorded as a "
        "failed delivery (error `disabled`).",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        # A new URL is sent the types the endpoint lists: the key must be able to read them.
        if "url" in attrs and "events" not in attrs:
            listed = self.context["endpoint"].events
            preface = "This key may not read the endpoint's types in the feed, to send them to "
            preface += "a new URL (send `events` too)"
            try:
                refuse_unreadable(listed, self.context["scopes"], preface)
            except serializers.ValidationError as exc:
                raise serializers.ValidationError({"url": exc.detail}) from None
        return attrs


class SecretRotationSerializer(StrictSerializer):
    """What a client sends to rotate an endpoint's secret."""

    expireCurrentInSeconds = StrictIntegerField(
        min_value=0,
        max_value=MAX_SECRET_OVERLAP_SECONDS,
        default=MAX_SECRET_OVERLAP_SECONDS,
        help_text="How long the current secret goes on signing beside the new one (each "
        "delivery then carries both signatures, and those of earlier secrets still in their "
        "own overlap, 4 at most); `0`: it and every earlier one stop at once.",
    )


class RotatedSecretSerializer(serializers.Serializer):
    """The endpoint's new signing secret: shown this once."""

    secret = serializers.CharField(
        read_only=True, help_text="`whsec_…`: verify each delivery's signature with it."
    )
    previousSecretExpiresAt = serializers.DateTimeField(
        source="previous_secret_expires_at",
        read_only=True,
        allow_null=True,
        help_text="Until when deliveries are signed with the previous secret too; null when "
        "it stopped at once.",
    )


class LastAttemptSerializer(serializers.Serializer):
    """How a delivery's last attempt went."""

    at = serializers.DateTimeField(source="last_attempt_at", read_only=True)
    status = serializers.IntegerField(
        source="last_status",
        read_only=True,
        allow_null=True,
        help_text="The receiver's HTTP status; null when it gave none.",
    )
    durationMs = serializers.IntegerField(
        source="last_duration_ms",
        read_only=True,
        allow_null=True,
        help_text="From sending to the answer, or to the failure.",
    )
    # A string, not an enum: drf-spectacular writes a nullable enum as a ``oneOf`` beside
    # ``nullable`` with no ``type``, which OpenAPI 3.0 linters refuse.
    error = serializers.CharField(
        source="last_failure",
        read_only=True,
        allow_null=True,
        help_text="Why it was not delivered; null when it was. "
        + "; ".join(f"`{kind.value}`: {kind.label.partition(': ')[2]}" for kind in AttemptError)
        + ".",
    )
    response = serializers.CharField(
        source="last_response",
        read_only=True,
        help_text=f"The first {RESPONSE_CHARS} bytes of the receiver's answer, as text.",
    )


class DeliverySerializer(serializers.Serializer):
    """An event sent, or to be sent, to an endpoint: never its signature."""

    id = serializers.IntegerField(read_only=True)
    eventId = serializers.CharField(source="event.uid", read_only=True)
    eventType = serializers.ChoiceField(
        source="event.type", choices=EventType.choices, read_only=True
    )
    state = serializers.ChoiceField(choices=DeliveryState.choices, read_only=True)
    attempts = serializers.IntegerField(read_only=True)
    nextAttemptAt = serializers.DateTimeField(
        source="next_attempt_at",
        read_only=True,
        allow_null=True,
        help_text="When it is tried next; null unless pending.",
    )
    createdAt = serializers.DateTimeField(source="created_at", read_only=True)
    lastAttempt = LastAttemptSerializer(
        source="last_attempt",
        read_only=True,
        allow_null=True,
        help_text="Null before the first attempt. A delivery made while its endpoint was "
        "disabled is failed unsent: `error` `disabled`, at the moment it was made.",
    )


class DeliveryListFilter(QuerySerializer):
    state = StrictChoiceField(
        choices=DeliveryState.choices, required=False, help_text="Only deliveries in this state."
    )


class DeliveryListQuery(DeliveryListFilter, PageQuery):
    """Everything a listing of deliveries reads from its query string."""


class Rfc3339Field(serializers.DateTimeField):
    """A time written as RFC 3339 says: with its offset from UTC."""

    default_error_messages = {"offset": "An RFC 3339 time with its offset (Z or +hh:mm)."}

    def to_internal_value(self, value: Any) -> datetime:
        moment = super().to_internal_value(value)
        if isinstance(value, str) and getattr(parse_datetime(value), "tzinfo", None) is None:
            self.fail("offset")
        return moment


class RecoverySerializer(StrictSerializer):
    """What a client sends to have an endpoint's failed deliveries sent once more."""

    since = Rfc3339Field(
        help_text=f"The failed deliveries made from then on are sent; at most {KEPT_DAYS} "
        "days back, as long as deliveries are kept."
    )

    def validate_since(self, since: datetime) -> datetime:
        now = timezone.now()
        if since > now:
            raise serializers.ValidationError("It is in the future.")
        if since < now - timedelta(days=KEPT_DAYS):
            raise serializers.ValidationError(f"Deliveries are kept {KEPT_DAYS} days only.")
        return since


class RecoveredSerializer(serializers.Serializer):
    """What a recovery queued."""

    requeued = serializers.IntegerField(read_only=True, help_text="Deliveries queued again.")
    hasMore = serializers.BooleanField(
        source="has_more",
        read_only=True,
        help_text="More failed deliveries since then are left: call again to queue them.",
    )


class TestSendSerializer(StrictSerializer):
    """What a client sends to have an example event sent to an endpoint."""

    type = StrictChoiceField(
        choices=EventType.choices,
        help_text="The event type to send an example of: any an endpoint may list, whether or "
        "not this one does.",
    )
