from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.order_placed_event_type import OrderPlacedEventType

if TYPE_CHECKING:
    from ..models.order import Order


T = TypeVar("T", bound="OrderPlacedEvent")


@_attrs_define
class OrderPlacedEvent:
    """An order was placed. The account's own, seen by keys with `orders:read`.

    Example:
        {'id': 'evt_test_0123456789abcdef0123', 'type': 'order.placed', 'createdAt': '2026-01-02T10:00:00Z', 'data':
            {'id': 7, 'petId': 10, 'quantity': 1, 'shipDate': None, 'complete': False, 'status': 'pending'}}

    Attributes:
        id (str): Unique and stable.
        type_ (OrderPlacedEventType):
        created_at (datetime.datetime):
        data (Order): An adoption order: the template's Order, plus its status.
    """

    id: str
    type_: OrderPlacedEventType
    created_at: datetime.datetime
    data: Order
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
        from ..models.order import Order

        d = dict(src_dict)
        id = d.pop("id")

        type_ = OrderPlacedEventType(d.pop("type"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        data = Order.from_dict(d.pop("data"))

        order_placed_event = cls(
            id=id,
            type_=type_,
            created_at=created_at,
            data=data,
        )

        order_placed_event.additional_properties = d
        return order_placed_event

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
