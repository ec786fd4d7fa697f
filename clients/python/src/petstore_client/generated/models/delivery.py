from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.delivery_state import DeliveryState
from ..models.event_type import EventType

if TYPE_CHECKING:
    from ..models.last_attempt import LastAttempt


T = TypeVar("T", bound="Delivery")


@_attrs_define
class Delivery:
    """An event sent, or to be sent, to an endpoint: never its signature.

    Attributes:
        id (int):
        event_id (str):
        event_type (EventType | str):
        state (DeliveryState | str):
        attempts (int):
        next_attempt_at (datetime.datetime | None): When it is tried next; null unless pending.
        created_at (datetime.datetime):
        last_attempt (LastAttempt | None): Null before the first attempt. A delivery made while its endpoint was
            disabled is failed unsent: `error` `disabled`, at the moment it was made.
    """

    id: int
    event_id: str
    event_type: EventType | str
    state: DeliveryState | str
    attempts: int
    next_attempt_at: datetime.datetime | None
    created_at: datetime.datetime
    last_attempt: LastAttempt | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.last_attempt import LastAttempt

        id = self.id

        event_id = self.event_id

        event_type: str
        if isinstance(self.event_type, EventType):
            event_type = self.event_type.value
        else:
            event_type = self.event_type

        state: str
        if isinstance(self.state, DeliveryState):
            state = self.state.value
        else:
            state = self.state

        attempts = self.attempts

        next_attempt_at: None | str
        if isinstance(self.next_attempt_at, datetime.datetime):
            next_attempt_at = self.next_attempt_at.isoformat()
        else:
            next_attempt_at = self.next_attempt_at

        created_at = self.created_at.isoformat()

        last_attempt: dict[str, Any] | None
        if isinstance(self.last_attempt, LastAttempt):
            last_attempt = self.last_attempt.to_dict()
        else:
            last_attempt = self.last_attempt

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "eventId": event_id,
                "eventType": event_type,
                "state": state,
                "attempts": attempts,
                "nextAttemptAt": next_attempt_at,
                "createdAt": created_at,
                "lastAttempt": last_attempt,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.last_attempt import LastAttempt

        d = dict(src_dict)
        id = d.pop("id")

        event_id = d.pop("eventId")

        def _parse_event_type(data: object) -> EventType | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                event_type_type_0 = EventType(data)

                return event_type_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EventType | str, data)

        event_type = _parse_event_type(d.pop("eventType"))

        def _parse_state(data: object) -> DeliveryState | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                state_type_0 = DeliveryState(data)

                return state_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DeliveryState | str, data)

        state = _parse_state(d.pop("state"))

        attempts = d.pop("attempts")

        def _parse_next_attempt_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_attempt_at_type_0 = datetime.datetime.fromisoformat(data)

                return next_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_attempt_at = _parse_next_attempt_at(d.pop("nextAttemptAt"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        def _parse_last_attempt(data: object) -> LastAttempt | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                last_attempt_type_1 = LastAttempt.from_dict(data)

                return last_attempt_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(LastAttempt | None, data)

        last_attempt = _parse_last_attempt(d.pop("lastAttempt"))

        delivery = cls(
            id=id,
            event_id=event_id,
            event_type=event_type,
            state=state,
            attempts=attempts,
            next_attempt_at=next_attempt_at,
            created_at=created_at,
            last_attempt=last_attempt,
        )

        delivery.additional_properties = d
        return delivery

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
