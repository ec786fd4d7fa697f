from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.delivery import Delivery
from ...models.error import Error
from ...models.test_send import TestSend
from ...types import Response


def _get_kwargs(
    endpoint_id: int,
    *,
    body: TestSend,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/webhook_endpoints/{endpoint_id}/test".format(
            endpoint_id=quote(str(endpoint_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Delivery | Error | None:
    if response.status_code == 202:
        response_202 = Delivery.from_dict(response.json())

        return response_202

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

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Error.from_dict(response.json())

        return response_415

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
    *,
    client: AuthenticatedClient,
    body: TestSend,
) -> Response[Delivery | Error]:
    """Send an example event to a webhook endpoint

     Queues a signed example of the type (id `evt_test_…`, `data` the type's example in this document) to
    this endpoint alone, whether or not it lists the type; never in the feed. The workers send it like
    any delivery, once the endpoint is neither paused nor disabled, and the deliveries list shows how it
    went. At most 10 a minute for each endpoint, retries of its test deliveries included.

    **Scope:** `webhooks:write`.

    Args:
        endpoint_id (int):
        body (TestSend): What a client sends to have an example event sent to an endpoint.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Delivery | Error]
    """

    kwargs = _get_kwargs(
        endpoint_id=endpoint_id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    endpoint_id: int,
    *,
    client: AuthenticatedClient,
    body: TestSend,
) -> Delivery | Error | None:
    """Send an example event to a webhook endpoint

     Queues a signed example of the type (id `evt_test_…`, `data` the type's example in this document) to
    this endpoint alone, whether or not it lists the type; never in the feed. The workers send it like
    any delivery, once the endpoint is neither paused nor disabled, and the deliveries list shows how it
    went. At most 10 a minute for each endpoint, retries of its test deliveries included.

    **Scope:** `webhooks:write`.

    Args:
        endpoint_id (int):
        body (TestSend): What a client sends to have an example event sent to an endpoint.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Delivery | Error
    """

    return sync_detailed(
        endpoint_id=endpoint_id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    endpoint_id: int,
    *,
    client: AuthenticatedClient,
    body: TestSend,
) -> Response[Delivery | Error]:
    """Send an example event to a webhook endpoint

     Queues a signed example of the type (id `evt_test_…`, `data` the type's example in this document) to
    this endpoint alone, whether or not it lists the type; never in the feed. The workers send it like
    any delivery, once the endpoint is neither paused nor disabled, and the deliveries list shows how it
    went. At most 10 a minute for each endpoint, retries of its test deliveries included.

    **Scope:** `webhooks:write`.

    Args:
        endpoint_id (int):
        body (TestSend): What a client sends to have an example event sent to an endpoint.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Delivery | Error]
    """

    kwargs = _get_kwargs(
        endpoint_id=endpoint_id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    endpoint_id: int,
    *,
    client: AuthenticatedClient,
    body: TestSend,
) -> Delivery | Error | None:
    """Send an example event to a webhook endpoint

     Queues a signed example of the type (id `evt_test_…`, `data` the type's example in this document) to
    this endpoint alone, whether or not it lists the type; never in the feed. The workers send it like
    any delivery, once the endpoint is neither paused nor disabled, and the deliveries list shows how it
    went. At most 10 a minute for each endpoint, retries of its test deliveries included.

    **Scope:** `webhooks:write`.

    Args:
        endpoint_id (int):
        body (TestSend): What a client sends to have an example event sent to an endpoint.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Delivery | Error
    """

    return (
        await asyncio_detailed(
            endpoint_id=endpoint_id,
            client=client,
            body=body,
        )
    ).parsed
