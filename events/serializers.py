from __future__ import annotations

from typing import Any

from rest_framework import serializers

from events.models import Event
from events.types import AUDIENCE, EVENT_TYPES, EventType
from petstore.pagination import PageQuery
from petstore.serializers import QueryCharField


class EventSerializer(serializers.Serializer):
    """Something that happened: an animal added or moved, an order moved, a limit neared."""

    id = serializers.CharField(source="uid", read_only=True, help_text="Unique and stable.")
    type = serializers.ChoiceField(choices=EventType.choices, read_only=True)
    createdAt = serializers.DateTimeField(source="created_at", read_only=True)
    data = serializers.DictField(  # type: ignore[assignment]  # DRF pops declared fields
        read_only=True,
        help_text="The resource as the API showed it then, by type: "
        + "; ".join(f"`{kind}`: {audience.data}" for kind, audience in AUDIENCE.items())
        + ".",
    )

    @staticmethod
    def of(event: Event) -> dict[str, Any]:
        return dict(_SHAPE.to_representation(event))


# One instance for every event: a serializer's fields are bound once, not for each row.
_SHAPE = EventSerializer()


class EventTypeListField(QueryCharField):
    """One event type, or a comma-separated list of them."""

    default_error_messages = {"unknown": "Unknown event type {kind!r}; known: {known}."}

    def to_internal_value(self, data: Any) -> list[str]:  # type: ignore[override]
        kinds = [kind.strip() for kind in str(super().to_internal_value(data)).split(",")]
        for kind in kinds:
            if kind not in EVENT_TYPES:
                self.fail("unknown", kind=kind, known=", ".join(EVENT_TYPES))
        return list(dict.fromkeys(kinds))


class EventListQuery(PageQuery):
    type = EventTypeListField(
        required=False,
        # Every type once, comma-separated, with room for a space after each comma.
        max_length=len(", ".join(EVENT_TYPES)),
        help_text="Only events of this type, or of any of these (comma-separated).",
    )
