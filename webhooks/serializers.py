from __future__ import annotations

from typing import Any

from rest_framework import serializers

from events.types import EVENT_TYPES, EventType
from petstore.serializers import (
    StrictCharField,
    StrictChoiceField,
    StrictIntegerField,
    StrictSerializer,
)
from webhooks.addresses import Refused, target
from webhooks.models import MAX_SECRET_OVERLAP_SECONDS, EndpointState


class EndpointSerializer(serializers.Serializer):
    """A URL the account's events are posted to, signed (Standard Webhooks)."""

    id = serializers.IntegerField(read_only=True)
    url = serializers.CharField(read_only=True)
    events = serializers.ListField(
        child=serializers.ChoiceField(choices=EventType.choices), read_only=True
    )
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


class NewEndpointSerializer(StrictSerializer):
    """What a client sends to add a webhook endpoint."""

    url = StrictCharField(
        max_length=2000,
        help_text="Where events are posted: `https://` to a public address.",
    )
    events = serializers.ListField(
        child=StrictChoiceField(choices=EventType.choices),
        min_length=1,
        max_length=len(EVENT_TYPES),
        help_text="The event types to send.",
    )

    def validate_url(self, url: str) -> str:
        try:
            target(url)
        except Refused as exc:
            raise serializers.ValidationError(str(exc)) from None
        return url

    def validate_events(self, events: list[str]) -> list[str]:
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
    at creation."""

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
        help_text="The event types to send, in place of those listed.",
    )
    enabled = StrictBooleanField(
        required=False,
        help_text="`true`: healthy again, its breaker cleared, and sent what it is owed; "
        "`false`: nothing is sent (what it is owed waits).",
    )


class SecretRotationSerializer(StrictSerializer):
    """What a client sends to rotate an endpoint's secret."""

    expireCurrentInSeconds = StrictIntegerField(
        min_value=0,
        max_value=MAX_SECRET_OVERLAP_SECONDS,
        default=MAX_SECRET_OVERLAP_SECONDS,
        help_text="How long the current secret goes on signing beside the new one (each "
        "delivery then carries both signatures); `0`: it stops at once.",
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
