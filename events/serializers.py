from __future__ import annotations

import functools
import re
from typing import Any, cast

from django.utils.module_loading import import_string
from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from events.models import Event
from events.shapes import filled, type_shape
from events.types import AUDIENCE, EVENT_TYPES, Audience, EventType
from petstore.pagination import PageQuery
from petstore.serializers import QueryCharField, sent_list

DATA_HELP = (
    "The resource as the API showed it then. A field added to the resource since the event "
    "happened is `null` in it (or its documented default)."
)


class EventSerializer(serializers.Serializer):
    """Something that happened, of one of the types of ``events.types``."""

    id = serializers.CharField(source="uid", read_only=True, help_text="Unique and stable.")
    type = serializers.ChoiceField(choices=EventType.choices, read_only=True)
    createdAt = serializers.DateTimeField(source="created_at", read_only=True)
    data = serializers.DictField(  # type: ignore[assignment]  # DRF pops declared fields
        read_only=True, help_text=DATA_HELP
    )

    @staticmethod
    def of(event: Event) -> dict[str, Any]:
        """The event as the feed and webhooks serve it: its data in its type's shape today."""
        served = dict(_SHAPE.to_representation(event))
        shape = type_shape(event.type)
        if shape is not None:
            served["data"] = filled(served["data"], shape)
        return served


# One instance for every event: a serializer's fields are bound once, not for each row.
_SHAPE = EventSerializer()


def _seen_by(audience: Audience) -> str:
    whose = "Every account's" if audience.shared else "The account's own"
    keys = f"keys with `{audience.scope}`" if audience.scope else "its secret keys"
    return f"{whose}, seen by {keys}."


def _typed(kind: str, audience: Audience) -> type[EventSerializer]:
    """The events of type ``kind``, for the document: ``type`` that one, ``data`` in the shape
    of the table's serializer for it."""
    label = EventType(kind).label
    name = "".join(word.capitalize() for word in re.split(r"[._]", kind)) + "Event"
    fields = {
        "__doc__": f"{label}. {_seen_by(audience)}",
        "__module__": __name__,
        "type": serializers.ChoiceField(choices=[(kind, label)], read_only=True),
        "data": import_string(audience.data)(read_only=True, help_text=DATA_HELP),
    }
    return cast(type[EventSerializer], type(name, (EventSerializer,), fields))


@functools.cache
def event_types_schemas() -> dict[str, serializers.Serializer | type[serializers.Serializer]]:
    """Each type of the table and its events' serializer, made once: the document names each
    component after one class."""
    return {str(kind): _typed(kind, audience) for kind, audience in AUDIENCE.items()}


def event_schema(*, many: bool = False) -> PolymorphicProxySerializer:
    """``Event`` in the OpenAPI document: one of the types' schemas, told apart by ``type``."""
    # ``many`` is passed only when true: an explicit ``many=False`` turns off drf-spectacular's
    # handling of a list of the union.
    options: dict[str, Any] = {"many": True} if many else {}
    return PolymorphicProxySerializer(
        component_name="Event",
        # Resolved when the document is made: the serializers are in the apps that write events.
        serializers=event_types_schemas,
        resource_type_field_name="type",
        **options,
    )


class EventTypeListField(QueryCharField):
    """One event type, or a comma-separated list of them."""

    default_error_messages = {
        "unknown": '"{kind}" is not an event type; the types: {known}.',
        # The document says each type once (uniqueItems), so a repeat is refused, not merged.
        "repeated": '"{kind}" is named twice; name each type once.',
    }

    def get_value(self, dictionary: Any) -> Any:
        return sent_list(self, dictionary)

    def to_internal_value(self, data: Any) -> list[str]:  # type: ignore[override]
        kinds = [kind.strip() for kind in str(super().to_internal_value(data)).split(",")]
        for at, kind in enumerate(kinds):
            if kind not in EVENT_TYPES:
                self.fail("unknown", kind=kind, known=", ".join(EVENT_TYPES))
            if kind in kinds[:at]:
                self.fail("repeated", kind=kind)
        return kinds


class EventListQuery(PageQuery):
    # Documented as an array of EventType by the view, which says how it is written.
    type = EventTypeListField(
        required=False,
        # Every type once, comma-separated, with room for a space after each comma.
        max_length=len(", ".join(EVENT_TYPES)),
    )
