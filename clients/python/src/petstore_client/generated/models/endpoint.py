from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.endpoint_state import EndpointState
from ..models.event_type import EventType

T = TypeVar("T", bound="Endpoint")


@_attrs_define
class Endpoint:
    """A URL the account's events are posted to, signed (Standard Webhooks).

    Attributes:
        id (int):
        url (str):
        events (list[EventType | str]):
        description (str): The partner's own note.
        enabled (bool):
        state (EndpointState | str): `healthy`; `paused` while its receiver keeps failing or asked us to wait (what it
            is owed waits, and is sent from `pausedUntil`); `disabled` (see `disabledReason`).

            * `healthy` - Healthy
            * `paused` - Paused: its receiver is failing, or asked us to wait
            * `disabled` - Disabled
        paused_until (datetime.datetime | None): When a paused endpoint is tried again; null unless paused.
        disabled_reason (None | str): Why it is disabled; null unless disabled.
        created_at (datetime.datetime):
    """

    id: int
    url: str
    events: list[EventType | str]
    description: str
    enabled: bool
    state: EndpointState | str
    paused_until: datetime.datetime | None
    disabled_reason: None | str
    created_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        url = self.url

        events = []
        for events_item_data in self.events:
            events_item: str
            if isinstance(events_item_data, EventType):
                events_item = events_item_data.value
            else:
                events_item = events_item_data
            events.append(events_item)

        description = self.description

        enabled = self.enabled

        state: str
        if isinstance(self.state, EndpointState):
            state = self.state.value
        else:
            state = self.state

        paused_until: None | str
        if isinstance(self.paused_until, datetime.datetime):
            paused_until = self.paused_until.isoformat()
        else:
            paused_until = self.paused_until

        disabled_reason: None | str
        disabled_reason = self.disabled_reason

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "url": url,
                "events": events,
                "description": description,
                "enabled": enabled,
                "state": state,
                "pausedUntil": paused_until,
                "disabledReason": disabled_reason,
                "createdAt": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        url = d.pop("url")

        events = []
        _events = d.pop("events")
        for events_item_data in _events:

            def _parse_events_item(data: object) -> EventType | str:
                try:
                    if not isinstance(data, str):
                        raise TypeError()
                    events_item_type_0 = EventType(data)

                    return events_item_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                return cast(EventType | str, data)

            events_item = _parse_events_item(events_item_data)

            events.append(events_item)

        description = d.pop("description")

        enabled = d.pop("enabled")

        def _parse_state(data: object) -> EndpointState | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                state_type_0 = EndpointState(data)

                return state_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EndpointState | str, data)

        state = _parse_state(d.pop("state"))

        def _parse_paused_until(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                paused_until_type_0 = datetime.datetime.fromisoformat(data)

                return paused_until_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        paused_until = _parse_paused_until(d.pop("pausedUntil"))

        def _parse_disabled_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        disabled_reason = _parse_disabled_reason(d.pop("disabledReason"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        endpoint = cls(
            id=id,
            url=url,
            events=events,
            description=description,
            enabled=enabled,
            state=state,
            paused_until=paused_until,
            disabled_reason=disabled_reason,
            created_at=created_at,
        )

        endpoint.additional_properties = d
        return endpoint

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
