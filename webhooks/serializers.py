from __future__ import annotations

from typing import Any

from rest_framework import serializers

from events.types import EVENT_TYPES, EventType
from petstore.serializers import StrictCharField, StrictChoiceField, StrictSerializer
from webhooks.addresses import Refused, target
from webhooks.models import EndpointState


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
