from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="UnknownEvent")


@_attrs_define
class UnknownEvent:
    """An Event of a type added after this SDK was made: what every type has.

    Attributes:
        id (str): Unique and stable.
        type_ (str): A type this SDK does not list.
        created_at (datetime.datetime):
        data (Any):
    """

    id: str
    type_: str
    created_at: datetime.datetime
    data: Any
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        type_ = self.type_

        created_at = self.created_at.isoformat()

        data = self.data

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
        d = dict(src_dict)
        id = d.pop("id")

        type_ = d.pop("type")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        data = d.pop("data")

        unknown_event = cls(
            id=id,
            type_=type_,
            created_at=created_at,
            data=data,
        )

        unknown_event.additional_properties = d
        return unknown_event

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
