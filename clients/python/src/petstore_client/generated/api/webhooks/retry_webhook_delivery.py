from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.delivery import Delivery
from ...models.error import Error
from ...types import Response


def _get_kwargs(
    endpoint_id: int,
    delivery_id: int,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/webhook_endpoints/{endpoint_id}/deliveries/{delivery_id}/retry".format(
            endpoint_id=quote(str(endpoint_id), safe=""),
            delivery_id=quote(str(delivery_id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Delivery | Error | None:
    if response.status_code == 202:
        response_202 = Delivery.from_dict(response.json())

        return response_202

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())

        return response_409

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
) -> Response[Delivery | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    endpoint_id: int,
    delivery_id: int,
    *,
    client: AuthenticatedClient,
) -> Response[Delivery | Error]:
    """Send a delivery again

     Sends it again now, whatever its state, with the same `webhook-id`, once its endpoint is neither
    paused nor disabled; the deliveries list shows how it went. While it is being sent, `409`
    (`conflict`) and nothing changes. A test delivery's retry counts among the endpoint's 10 test sends
    a minute (`429` past them).

    **Scope:** `webhooks:write`.

    Args:
        endpoint_id (int):
        delivery_id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Delivery | Error]
    """

    kwargs = _get_kwargs(
        endpoint_id=endpoint_id,
        delivery_id=delivery_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    endpoint_id: int,
    delivery_id: int,
    *,
    client: AuthenticatedClient,
) -> Delivery | Error | None:
    """Send a delivery again

     Sends it again now, whatever its state, with the same `webhook-id`, once its endpoint is neither
    paused nor disabled; the deliveries list shows how it went. While it is being sent, `409`
    (`conflict`) and nothing changes. A test delivery's retry counts among the endpoint's 10 test sends
    a minute (`429` past them).

    **Scope:** `webhooks:write`.

    Args:
        endpoint_id (int):
        delivery_id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Delivery | Error
    """

    return sync_detailed(
        endpoint_id=endpoint_id,
        delivery_id=delivery_id,
        client=client,
    ).parsed


async def asyncio_detailed(
    endpoint_id: int,
    delivery_id: int,
    *,
    client: AuthenticatedClient,
) -> Response[Delivery | Error]:
    """Send a delivery again

     Sends it again now, whatever its state, with the same `webhook-id`, once its endpoint is neither
    paused nor disabled; the deliveries list shows how it went. While it is being sent, `409`
    (`conflict`) and nothing changes. A test delivery's retry counts among the endpoint's 10 test sends
    a minute (`429` past them).

    **Scope:** `webhooks:write`.

    Args:
        endpoint_id (int):
        delivery_id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Delivery | Error]
    """

    kwargs = _get_kwargs(
        endpoint_id=endpoint_id,
        delivery_id=delivery_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    endpoint_id: int,
    delivery_id: int,
    *,
    client: AuthenticatedClient,
) -> Delivery | Error | None:
    """Send a delivery again

     Sends it again now, whatever its state, with the same `webhook-id`, once its endpoint is neither
    paused nor disabled; the deliveries list shows how it went. While it is being sent, `409`
    (`conflict`) and nothing changes. A test delivery's retry counts among the endpoint's 10 test sends
    a minute (`429` past them).

    **Scope:** `webhooks:write`.

    Args:
        endpoint_id (int):
        delivery_id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Delivery | Error
    """

    return (
        await asyncio_detailed(
            endpoint_id=endpoint_id,
            delivery_id=delivery_id,
            client=client,
        )
    ).parsed
