from http import HTTPStatus
from typing import Any, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.category_created_event import CategoryCreatedEvent
from ...models.error import Error
from ...models.event_type import EventType
from ...models.order_approved_event import OrderApprovedEvent
from ...models.order_cancelled_event import OrderCancelledEvent
from ...models.order_delivered_event import OrderDeliveredEvent
from ...models.order_placed_event import OrderPlacedEvent
from ...models.pet_created_event import PetCreatedEvent
from ...models.pet_status_changed_event import PetStatusChangedEvent
from ...models.unknown_event import UnknownEvent
from ...models.usage_threshold_event import UsageThresholdEvent
from ...models.webhook_endpoint_disabled_event import WebhookEndpointDisabledEvent
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 20,
    type_: list[EventType] | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_none_match, Unset):
        headers["If-None-Match"] = if_none_match

    params: dict[str, Any] = {}

    params["cursor"] = cursor

    params["limit"] = limit

    json_type_: list[str] | Unset = UNSET
    if not isinstance(type_, Unset):
        json_type_ = []
        for type_item_data in type_:
            type_item = type_item_data.value
            json_type_.append(type_item)

    params["type"] = json_type_

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/events",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    Any
    | Error
    | list[
        CategoryCreatedEvent
        | OrderApprovedEvent
        | OrderCancelledEvent
        | OrderDeliveredEvent
        | OrderPlacedEvent
        | PetCreatedEvent
        | PetStatusChangedEvent
        | UnknownEvent
        | UsageThresholdEvent
        | WebhookEndpointDisabledEvent
    ]
    | None
):
    if response.status_code == 200:
        response_200 = []
        _response_200 = response.json()
        for componentsschemas_events_item_data in _response_200:

            def _parse_componentsschemas_events_item(
                data: object,
            ) -> (
                CategoryCreatedEvent
                | OrderApprovedEvent
                | OrderCancelledEvent
                | OrderDeliveredEvent
                | OrderPlacedEvent
                | PetCreatedEvent
                | PetStatusChangedEvent
                | UnknownEvent
                | UsageThresholdEvent
                | WebhookEndpointDisabledEvent
            ):
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_0 = PetCreatedEvent.from_dict(data)

                    return componentsschemas_event_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_1 = PetStatusChangedEvent.from_dict(
                        data
                    )

                    return componentsschemas_event_type_1
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_2 = CategoryCreatedEvent.from_dict(
                        data
                    )

                    return componentsschemas_event_type_2
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_3 = OrderPlacedEvent.from_dict(data)

                    return componentsschemas_event_type_3
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_4 = OrderApprovedEvent.from_dict(data)

                    return componentsschemas_event_type_4
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_5 = OrderDeliveredEvent.from_dict(data)

                    return componentsschemas_event_type_5
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_6 = OrderCancelledEvent.from_dict(data)

                    return componentsschemas_event_type_6
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_7 = (
                        WebhookEndpointDisabledEvent.from_dict(data)
                    )

                    return componentsschemas_event_type_7
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_8 = UsageThresholdEvent.from_dict(data)

                    return componentsschemas_event_type_8
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_event_type_9 = UnknownEvent.from_dict(data)

                return componentsschemas_event_type_9

            componentsschemas_events_item = _parse_componentsschemas_events_item(
                componentsschemas_events_item_data
            )

            response_200.append(componentsschemas_events_item)

        return response_200

    if response.status_code == 304:
        response_304 = cast(Any, None)
        return response_304

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())

        return response_403

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = Error.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[
    Any
    | Error
    | list[
        CategoryCreatedEvent
        | OrderApprovedEvent
        | OrderCancelledEvent
        | OrderDeliveredEvent
        | OrderPlacedEvent
        | PetCreatedEvent
        | PetStatusChangedEvent
        | UnknownEvent
        | UsageThresholdEvent
        | WebhookEndpointDisabledEvent
    ]
]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 20,
    type_: list[EventType] | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Response[
    Any
    | Error
    | list[
        CategoryCreatedEvent
        | OrderApprovedEvent
        | OrderCancelledEvent
        | OrderDeliveredEvent
        | OrderPlacedEvent
        | PetCreatedEvent
        | PetStatusChangedEvent
        | UnknownEvent
        | UsageThresholdEvent
        | WebhookEndpointDisabledEvent
    ]
]:
    """List events

     The events the calling key may see, oldest first, kept 30 days: each type's schema in `Event` says
    whose events they are and which keys see them. Follow the `Link` header, also from the last page
    later on: no event is missed or repeated.

    **Scope:** `events:read`.

    Args:
        cursor (str | Unset):
        limit (int | Unset):  Default: 20.
        type_ (list[EventType] | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | list[CategoryCreatedEvent | OrderApprovedEvent | OrderCancelledEvent | OrderDeliveredEvent | OrderPlacedEvent | PetCreatedEvent | PetStatusChangedEvent | UnknownEvent | UsageThresholdEvent | WebhookEndpointDisabledEvent]]
    """

    kwargs = _get_kwargs(
        cursor=cursor,
        limit=limit,
        type_=type_,
        if_none_match=if_none_match,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 20,
    type_: list[EventType] | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> (
    Any
    | Error
    | list[
        CategoryCreatedEvent
        | OrderApprovedEvent
        | OrderCancelledEvent
        | OrderDeliveredEvent
        | OrderPlacedEvent
        | PetCreatedEvent
        | PetStatusChangedEvent
        | UnknownEvent
        | UsageThresholdEvent
        | WebhookEndpointDisabledEvent
    ]
    | None
):
    """List events

     The events the calling key may see, oldest first, kept 30 days: each type's schema in `Event` says
    whose events they are and which keys see them. Follow the `Link` header, also from the last page
    later on: no event is missed or repeated.

    **Scope:** `events:read`.

    Args:
        cursor (str | Unset):
        limit (int | Unset):  Default: 20.
        type_ (list[EventType] | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | list[CategoryCreatedEvent | OrderApprovedEvent | OrderCancelledEvent | OrderDeliveredEvent | OrderPlacedEvent | PetCreatedEvent | PetStatusChangedEvent | UnknownEvent | UsageThresholdEvent | WebhookEndpointDisabledEvent]
    """

    return sync_detailed(
        client=client,
        cursor=cursor,
        limit=limit,
        type_=type_,
        if_none_match=if_none_match,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 20,
    type_: list[EventType] | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Response[
    Any
    | Error
    | list[
        CategoryCreatedEvent
        | OrderApprovedEvent
        | OrderCancelledEvent
        | OrderDeliveredEvent
        | OrderPlacedEvent
        | PetCreatedEvent
        | PetStatusChangedEvent
        | UnknownEvent
        | UsageThresholdEvent
        | WebhookEndpointDisabledEvent
    ]
]:
    """List events

     The events the calling key may see, oldest first, kept 30 days: each type's schema in `Event` says
    whose events they are and which keys see them. Follow the `Link` header, also from the last page
    later on: no event is missed or repeated.

    **Scope:** `events:read`.

    Args:
        cursor (str | Unset):
        limit (int | Unset):  Default: 20.
        type_ (list[EventType] | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | list[CategoryCreatedEvent | OrderApprovedEvent | OrderCancelledEvent | OrderDeliveredEvent | OrderPlacedEvent | PetCreatedEvent | PetStatusChangedEvent | UnknownEvent | UsageThresholdEvent | WebhookEndpointDisabledEvent]]
    """

    kwargs = _get_kwargs(
        cursor=cursor,
        limit=limit,
        type_=type_,
        if_none_match=if_none_match,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 20,
    type_: list[EventType] | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> (
    Any
    | Error
    | list[
        CategoryCreatedEvent
        | OrderApprovedEvent
        | OrderCancelledEvent
        | OrderDeliveredEvent
        | OrderPlacedEvent
        | PetCreatedEvent
        | PetStatusChangedEvent
        | UnknownEvent
        | UsageThresholdEvent
        | WebhookEndpointDisabledEvent
    ]
    | None
):
    """List events

     The events the calling key may see, oldest first, kept 30 days: each type's schema in `Event` says
    whose events they are and which keys see them. Follow the `Link` header, also from the last page
    later on: no event is missed or repeated.

    **Scope:** `events:read`.

    Args:
        cursor (str | Unset):
        limit (int | Unset):  Default: 20.
        type_ (list[EventType] | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | list[CategoryCreatedEvent | OrderApprovedEvent | OrderCancelledEvent | OrderDeliveredEvent | OrderPlacedEvent | PetCreatedEvent | PetStatusChangedEvent | UnknownEvent | UsageThresholdEvent | WebhookEndpointDisabledEvent]
    """

    return (
        await asyncio_detailed(
            client=client,
            cursor=cursor,
            limit=limit,
            type_=type_,
            if_none_match=if_none_match,
        )
    ).parsed
