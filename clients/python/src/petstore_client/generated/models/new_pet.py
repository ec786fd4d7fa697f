from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

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
    """

    name: str
    category_id: int
    status: PetStatus | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        category_id = self.category_id

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "categoryId": category_id,
            }
        )
        if status is not UNSET:
            field_dict["status"] = status

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

        new_pet = cls(
            name=name,
            category_id=category_id,
            status=status,
        )

        return new_pet
