from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.webhook_endpoint_disabled_event_type import (
    WebhookEndpointDisabledEventType,
)

if TYPE_CHECKING:
    from ..models.endpoint import Endpoint


T = TypeVar("T", bound="WebhookEndpointDisabledEvent")


@_attrs_define
class WebhookEndpointDisabledEvent:
    """A webhook endpoint was disabled. The account's own, seen by keys with `webhooks:read`.

    Example:
        {'id': 'evt_test_0123456789abcdef0123', 'type': 'webhook_endpoint.disabled', 'createdAt':
            '2026-01-02T10:00:00Z', 'data': {'id': 3, 'url': 'https://partner.example/hooks', 'events': ['order.placed'],
            'description': "Orders, to the shelter's stock system", 'enabled': False, 'state': 'disabled', 'pausedUntil':
            None, 'disabledReason': 'Every attempt failed for 3 days; the last: 503.', 'createdAt': '2026-01-01T09:00:00Z'}}

    Attributes:
        id (str): Unique and stable.
        type_ (WebhookEndpointDisabledEventType):
        created_at (datetime.datetime):
        data (Endpoint): A URL the account's events are posted to, signed (Standard Webhooks).
    """

    id: str
    type_: WebhookEndpointDisabledEventType
    created_at: datetime.datetime
    data: Endpoint
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
        from ..models.endpoint import Endpoint

        d = dict(src_dict)
        id = d.pop("id")

        type_ = WebhookEndpointDisabledEventType(d.pop("type"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        data = Endpoint.from_dict(d.pop("data"))

        webhook_endpoint_disabled_event = cls(
            id=id,
            type_=type_,
            created_at=created_at,
            data=data,
        )

        webhook_endpoint_disabled_event.additional_properties = d
        return webhook_endpoint_disabled_event

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
