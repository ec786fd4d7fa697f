from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.event_type import EventType
from ..types import UNSET, Unset

T = TypeVar("T", bound="NewEndpoint")


@_attrs_define
class NewEndpoint:
    """What a client sends to add a webhook endpoint; its context holds the key's ``scopes``.

    Attributes:
        url (str): Where events are posted: `https://` to a public address.
        events (list[EventType]): The event types to send: those the key may read in `listEvents` (each type's scope is
            in `Event`).
        description (str | Unset): A note of the partner's own: what the endpoint is for.
    """

    url: str
    events: list[EventType]
    description: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        events = []
        for events_item_data in self.events:
            events_item = events_item_data.value
            events.append(events_item)

        description = self.description

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "url": url,
                "events": events,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        url = d.pop("url")

        events = []
        _events = d.pop("events")
        for events_item_data in _events:
            events_item = EventType(events_item_data)

            events.append(events_item)

        description = d.pop("description", UNSET)

        new_endpoint = cls(
            url=url,
            events=events,
            description=description,
        )

        return new_endpoint
