from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.order_status import OrderStatus

T = TypeVar("T", bound="Order")


@_attrs_define
class Order:
    """An adoption order: the template's Order, plus its status.

    Attributes:
        id (int): Unique order identifier.
        pet_id (int): The animal adopted.
        quantity (int): Always 1: one animal.
        ship_date (datetime.datetime | None): When the animal is handed over; null until then.
        complete (bool): True once delivered.
        status (OrderStatus | str):
    """

    id: int
    pet_id: int
    quantity: int
    ship_date: datetime.datetime | None
    complete: bool
    status: OrderStatus | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        pet_id = self.pet_id

        quantity = self.quantity

        ship_date: None | str
        if isinstance(self.ship_date, datetime.datetime):
            ship_date = self.ship_date.isoformat()
        else:
            ship_date = self.ship_date

        complete = self.complete

        status: str
        if isinstance(self.status, OrderStatus):
            status = self.status.value
        else:
            status = self.status

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "petId": pet_id,
                "quantity": quantity,
                "shipDate": ship_date,
                "complete": complete,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        pet_id = d.pop("petId")

        quantity = d.pop("quantity")

        def _parse_ship_date(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                ship_date_type_0 = datetime.datetime.fromisoformat(data)

                return ship_date_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        ship_date = _parse_ship_date(d.pop("shipDate"))

        complete = d.pop("complete")

        def _parse_status(data: object) -> OrderStatus | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_0 = OrderStatus(data)

                return status_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(OrderStatus | str, data)

        status = _parse_status(d.pop("status"))

        order = cls(
            id=id,
            pet_id=pet_id,
            quantity=quantity,
            ship_date=ship_date,
            complete=complete,
            status=status,
        )

        order.additional_properties = d
        return order

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
