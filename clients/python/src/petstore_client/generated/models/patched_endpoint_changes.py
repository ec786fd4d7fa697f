from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.event_type import EventType
from ..types import UNSET, Unset

T = TypeVar("T", bound="PatchedEndpointChanges")


@_attrs_define
class PatchedEndpointChanges:
    """What a client sends to change a webhook endpoint: any of its fields, each checked as
    at creation; its context holds the key's ``scopes`` and the ``endpoint``.

        Attributes:
            url (str | Unset): Where events are posted: `https://` to a public address.
            events (list[EventType] | Unset): The event types to send, in place of those listed: those the key may read in
                `listEvents`.
            description (str | Unset): A note of the partner's own, in place of the one it has.
            enabled (bool | Unset): `true`: healthy again, its breaker cleared, and sent at once what was pending (what
                failed while it was disabled comes with `recoverWebhookEndpoint`); `false`: nothing is sent, what is pending
                waits and each new event is recorded as a failed delivery (error `disabled`).
    """

    url: str | Unset = UNSET
    events: list[EventType] | Unset = UNSET
    description: str | Unset = UNSET
    enabled: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        events: list[str] | Unset = UNSET
        if not isinstance(self.events, Unset):
            events = []
            for events_item_data in self.events:
                events_item = events_item_data.value
                events.append(events_item)

        description = self.description

        enabled = self.enabled

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if url is not UNSET:
            field_dict["url"] = url
        if events is not UNSET:
            field_dict["events"] = events
        if description is not UNSET:
            field_dict["description"] = description
        if enabled is not UNSET:
            field_dict["enabled"] = enabled

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        url = d.pop("url", UNSET)

        _events = d.pop("events", UNSET)
        events: list[EventType] | Unset = UNSET
        if _events is not UNSET:
            events = []
            for events_item_data in _events:
                events_item = EventType(events_item_data)

                events.append(events_item)

        description = d.pop("description", UNSET)

        enabled = d.pop("enabled", UNSET)

        patched_endpoint_changes = cls(
            url=url,
            events=events,
            description=description,
            enabled=enabled,
        )

        patched_endpoint_changes.additional_properties = d
        return patched_endpoint_changes

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
