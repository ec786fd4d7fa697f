from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="SecretRotation")


@_attrs_define
class SecretRotation:
    """What a client sends to rotate an endpoint's secret.

    Attributes:
        expire_current_in_seconds (int | Unset): How long the current secret goes on signing beside the new one (each
            delivery then carries both signatures, and those of earlier secrets still in their own overlap, 4 at most); `0`:
            it and every earlier one stop at once. Default: 86400.
    """

    expire_current_in_seconds: int | Unset = 86400
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        expire_current_in_seconds = self.expire_current_in_seconds

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if expire_current_in_seconds is not UNSET:
            field_dict["expireCurrentInSeconds"] = expire_current_in_seconds

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        expire_current_in_seconds = d.pop("expireCurrentInSeconds", UNSET)

        secret_rotation = cls(
            expire_current_in_seconds=expire_current_in_seconds,
        )

        secret_rotation.additional_properties = d
        return secret_rotation

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
