from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="NewOrder")


@_attrs_define
class NewOrder:
    """What a client sends to adopt an animal.

    Attributes:
        pet_id (int): The ID of the animal to adopt.
    """

    pet_id: int

    def to_dict(self) -> dict[str, Any]:
        pet_id = self.pet_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "petId": pet_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        pet_id = d.pop("petId")

        new_order = cls(
            pet_id=pet_id,
        )

        return new_order
