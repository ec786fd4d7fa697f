from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.pet_status_changed_event_type import PetStatusChangedEventType

if TYPE_CHECKING:
    from ..models.pet_status_change import PetStatusChange


T = TypeVar("T", bound="PetStatusChangedEvent")


@_attrs_define
class PetStatusChangedEvent:
    """An animal's status changed. Every account's, seen by keys with `pets:read`.

    Example:
        {'id': 'evt_test_0123456789abcdef0123', 'type': 'pet.status_changed', 'createdAt': '2026-01-02T10:00:00Z',
            'data': {'id': 10, 'name': 'Fido', 'categoryId': 1, 'status': 'pending', 'breed': 'Beagle', 'previousStatus':
            'available'}}

    Attributes:
        id (str): Unique and stable.
        type_ (PetStatusChangedEventType):
        created_at (datetime.datetime):
        data (PetStatusChange): An animal whose status has just changed, with the status it had before.
    """

    id: str
    type_: PetStatusChangedEventType
    created_at: datetime.datetime
    data: PetStatusChange
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
        from ..models.pet_status_change import PetStatusChange

        d = dict(src_dict)
        id = d.pop("id")

        type_ = PetStatusChangedEventType(d.pop("type"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        data = PetStatusChange.from_dict(d.pop("data"))

        pet_status_changed_event = cls(
            id=id,
            type_=type_,
            created_at=created_at,
            data=data,
        )

        pet_status_changed_event.additional_properties = d
        return pet_status_changed_event

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
