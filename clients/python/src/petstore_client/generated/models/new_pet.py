from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.pet_status import PetStatus
from ..types import UNSET, Unset

T = TypeVar("T", bound="NewPet")


@_attrs_define
class NewPet:
    """What a client sends to add an animal.

    Attributes:
        name (str): The animal's name.
        category_id (int): The ID of the category this animal belongs to.
        status (PetStatus | Unset): * `available` - Available
            * `pending` - Pending
            * `sold` - Sold
        breed (None | str | Unset): The animal's breed (e.g. Beagle); none when omitted or null.
    """

    name: str
    category_id: int
    status: PetStatus | Unset = UNSET
    breed: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        category_id = self.category_id

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        breed: None | str | Unset
        if isinstance(self.breed, Unset):
            breed = UNSET
        else:
            breed = self.breed

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "categoryId": category_id,
            }
        )
        if status is not UNSET:
            field_dict["status"] = status
        if breed is not UNSET:
            field_dict["breed"] = breed

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        category_id = d.pop("categoryId")

        _status = d.pop("status", UNSET)
        status: PetStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = PetStatus(_status)

        def _parse_breed(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        breed = _parse_breed(d.pop("breed", UNSET))

        new_pet = cls(
            name=name,
            category_id=category_id,
            status=status,
            breed=breed,
        )

        return new_pet
