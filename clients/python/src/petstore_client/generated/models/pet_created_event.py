from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.pet_created_event_type import PetCreatedEventType

if TYPE_CHECKING:
    from ..models.pet import Pet


T = TypeVar("T", bound="PetCreatedEvent")


@_attrs_define
class PetCreatedEvent:
    """An animal was added. Every account's, seen by keys with `pets:read`.

    Example:
        {'id': 'evt_test_0123456789abcdef0123', 'type': 'pet.created', 'createdAt': '2026-01-02T10:00:00Z', 'data':
            {'id': 10, 'name': 'Fido', 'categoryId': 1, 'status': 'available', 'breed': 'Beagle'}}

    Attributes:
        id (str): Unique and stable.
        type_ (PetCreatedEventType):
        created_at (datetime.datetime):
        data (Pet): An animal available for adoption, or once was.
    """

    id: str
    type_: PetCreatedEventType
    created_at: datetime.datetime
    data: Pet
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
        from ..models.pet import Pet

        d = dict(src_dict)
        id = d.pop("id")

        type_ = PetCreatedEventType(d.pop("type"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        data = Pet.from_dict(d.pop("data"))

        pet_created_event = cls(
            id=id,
            type_=type_,
            created_at=created_at,
            data=data,
        )

        pet_created_event.additional_properties = d
        return pet_created_event

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
