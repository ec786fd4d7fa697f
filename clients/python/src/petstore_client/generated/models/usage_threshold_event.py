from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.usage_threshold_event_type import UsageThresholdEventType

if TYPE_CHECKING:
    from ..models.usage_threshold import UsageThreshold


T = TypeVar("T", bound="UsageThresholdEvent")


@_attrs_define
class UsageThresholdEvent:
    """The account's day window passed 80 % or 100 %. The account's own, seen by its secret keys.

    Example:
        {'id': 'evt_test_0123456789abcdef0123', 'type': 'usage.threshold', 'createdAt': '2026-01-02T10:00:00Z', 'data':
            {'window': 'day', 'percent': 80, 'limit': 1000, 'used': 800, 'date': '2026-01-02'}}

    Attributes:
        id (str): Unique and stable.
        type_ (UsageThresholdEventType):
        created_at (datetime.datetime):
        data (UsageThreshold): The account's day window, just past a share of its limit.
    """

    id: str
    type_: UsageThresholdEventType
    created_at: datetime.datetime
    data: UsageThreshold
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        type_ = self.type_.value

        created_at = self.created_at.isoformat()

        data = self.data.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "type": type_,
                "createdAt": created_at,
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.usage_threshold import UsageThreshold

        d = dict(src_dict)
        id = d.pop("id")

        type_ = UsageThresholdEventType(d.pop("type"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        data = UsageThreshold.from_dict(d.pop("data"))

        usage_threshold_event = cls(
            id=id,
            type_=type_,
            created_at=created_at,
            data=data,
        )

        usage_threshold_event.additional_properties = d
        return usage_threshold_event

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
