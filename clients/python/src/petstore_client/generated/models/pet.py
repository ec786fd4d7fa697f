from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.pet_status import PetStatus
from ..types import UNSET, Unset

T = TypeVar("T", bound="Pet")


@_attrs_define
class Pet:
    """An animal available for adoption, or once was.

    Attributes:
        id (int): Unique identifier assigned on creation.
        name (str): The animal's name.
        category_id (int): The animal's category.
        status (PetStatus): * `available` - Available
            * `pending` - Pending
            * `sold` - Sold
        breed (None | str | Unset): The animal's breed; null when unknown.
    """

    id: int
    name: str
    category_id: int
    status: PetStatus
    breed: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        category_id = self.category_id

        status = self.status.value

        breed: None | str | Unset
        if isinstance(self.breed, Unset):
            breed = UNSET
        else:
            breed = self.breed

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "categoryId": category_id,
                "status": status,
            }
        )
        if breed is not UNSET:
            field_dict["breed"] = breed

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        category_id = d.pop("categoryId")

        status = PetStatus(d.pop("status"))

        def _parse_breed(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        breed = _parse_breed(d.pop("breed", UNSET))

        pet = cls(
            id=id,
            name=name,
            category_id=category_id,
            status=status,
            breed=breed,
        )

        pet.additional_properties = d
        return pet

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
