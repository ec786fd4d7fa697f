from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.delivery import Delivery
from ...models.error import Error
from ...models.list_webhook_deliveries_state import ListWebhookDeliveriesState
from ...types import UNSET, Response, Unset


def _get_kwargs(
    endpoint_id: int,
    *,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 20,
    state: ListWebhookDeliveriesState | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["cursor"] = cursor

    params["limit"] = limit

    json_state: str | Unset = UNSET
    if not isinstance(state, Unset):
        json_state = state.value

    params["state"] = json_state

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/webhook_endpoints/{endpoint_id}/deliveries".format(
            endpoint_id=quote(str(endpoint_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | list[Delivery] | None:
    if response.status_code == 200:
        response_200 = []
        _response_200 = response.json()
        for componentsschemas_deliverys_item_data in _response_200:
            componentsschemas_deliverys_item = Delivery.from_dict(
                componentsschemas_deliverys_item_data
            )

            response_200.append(componentsschemas_deliverys_item)

        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

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
) -> Response[Error | list[Delivery]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    endpoint_id: int,
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 20,
    state: ListWebhookDeliveriesState | Unset = UNSET,
) -> Response[Error | list[Delivery]]:
    """List a webhook endpoint's deliveries

     Newest first, kept 30 days, paged like `listPets`: each with how its last attempt went (the
    receiver's status, how long it took, why it failed, the start of its answer).

    **Scope:** `webhooks:read`.

    Args:
        endpoint_id (int):
        cursor (str | Unset):
        limit (int | Unset):  Default: 20.
        state (ListWebhookDeliveriesState | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | list[Delivery]]
    """

    kwargs = _get_kwargs(
        endpoint_id=endpoint_id,
        cursor=cursor,
        limit=limit,
        state=state,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    endpoint_id: int,
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 20,
    state: ListWebhookDeliveriesState | Unset = UNSET,
) -> Error | list[Delivery] | None:
    """List a webhook endpoint's deliveries

     Newest first, kept 30 days, paged like `listPets`: each with how its last attempt went (the
    receiver's status, how long it took, why it failed, the start of its answer).

    **Scope:** `webhooks:read`.

    Args:
        endpoint_id (int):
        cursor (str | Unset):
        limit (int | Unset):  Default: 20.
        state (ListWebhookDeliveriesState | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | list[Delivery]
    """

    return sync_detailed(
        endpoint_id=endpoint_id,
        client=client,
        cursor=cursor,
        limit=limit,
        state=state,
    ).parsed


async def asyncio_detailed(
    endpoint_id: int,
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 20,
    state: ListWebhookDeliveriesState | Unset = UNSET,
) -> Response[Error | list[Delivery]]:
    """List a webhook endpoint's deliveries

     Newest first, kept 30 days, paged like `listPets`: each with how its last attempt went (the
    receiver's status, how long it took, why it failed, the start of its answer).

    **Scope:** `webhooks:read`.

    Args:
        endpoint_id (int):
        cursor (str | Unset):
        limit (int | Unset):  Default: 20.
        state (ListWebhookDeliveriesState | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | list[Delivery]]
    """

    kwargs = _get_kwargs(
        endpoint_id=endpoint_id,
        cursor=cursor,
        limit=limit,
        state=state,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    endpoint_id: int,
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 20,
    state: ListWebhookDeliveriesState | Unset = UNSET,
) -> Error | list[Delivery] | None:
    """List a webhook endpoint's deliveries

     Newest first, kept 30 days, paged like `listPets`: each with how its last attempt went (the
    receiver's status, how long it took, why it failed, the start of its answer).

    **Scope:** `webhooks:read`.

    Args:
        endpoint_id (int):
        cursor (str | Unset):
        limit (int | Unset):  Default: 20.
        state (ListWebhookDeliveriesState | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | list[Delivery]
    """

    return (
        await asyncio_detailed(
            endpoint_id=endpoint_id,
            client=client,
            cursor=cursor,
            limit=limit,
            state=state,
        )
    ).parsed
