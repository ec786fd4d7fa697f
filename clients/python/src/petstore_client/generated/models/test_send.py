from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.event_type import EventType

T = TypeVar("T", bound="TestSend")


@_attrs_define
class TestSend:
    """What a client sends to have an example event sent to an endpoint.

    Attributes:
        type_ (EventType): * `pet.created` - An animal was added
            * `pet.status_changed` - An animal's status changed
            * `order.placed` - An order was placed
            * `order.approved` - An order was approved
            * `order.delivered` - An order was delivered
            * `order.cancelled` - An order was cancelled
            * `usage.threshold` - The account's day window passed 80 % or 100 %
            * `category.created` - A category was added
            * `webhook_endpoint.disabled` - A webhook endpoint was disabled
    """

    type_: EventType
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = EventType(d.pop("type"))

        test_send = cls(
            type_=type_,
        )

        test_send.additional_properties = d
        return test_send

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
