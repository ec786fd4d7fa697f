from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.recovered import Recovered
from ...models.recovery import Recovery
from ...types import Response


def _get_kwargs(
    endpoint_id: int,
    *,
    body: Recovery,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/webhook_endpoints/{endpoint_id}/recover".format(
            endpoint_id=quote(str(endpoint_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | Recovered | None:
    if response.status_code == 202:
        response_202 = Recovered.from_dict(response.json())

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
) -> Response[Error | Recovered]:
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
    body: Recovery,
) -> Response[Error | Recovered]:
    """Send a webhook endpoint's failed deliveries again

     Queues once more, oldest first, each of the endpoint's deliveries that failed and was made since
    `since`, up to 1,000 a call (`hasMore`: call again for the rest). The workers send them, each with
    its own `webhook-id`, once the endpoint is neither paused nor disabled.

    **Scope:** `webhooks:write`.

    Args:
        endpoint_id (int):
        body (Recovery): What a client sends to have an endpoint's failed deliveries sent once
            more.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Recovered]
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
    body: Recovery,
) -> Error | Recovered | None:
    """Send a webhook endpoint's failed deliveries again

     Queues once more, oldest first, each of the endpoint's deliveries that failed and was made since
    `since`, up to 1,000 a call (`hasMore`: call again for the rest). The workers send them, each with
    its own `webhook-id`, once the endpoint is neither paused nor disabled.

    **Scope:** `webhooks:write`.

    Args:
        endpoint_id (int):
        body (Recovery): What a client sends to have an endpoint's failed deliveries sent once
            more.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Recovered
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
    body: Recovery,
) -> Response[Error | Recovered]:
    """Send a webhook endpoint's failed deliveries again

     Queues once more, oldest first, each of the endpoint's deliveries that failed and was made since
    `since`, up to 1,000 a call (`hasMore`: call again for the rest). The workers send them, each with
    its own `webhook-id`, once the endpoint is neither paused nor disabled.

    **Scope:** `webhooks:write`.

    Args:
        endpoint_id (int):
        body (Recovery): What a client sends to have an endpoint's failed deliveries sent once
            more.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Recovered]
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
    body: Recovery,
) -> Error | Recovered | None:
    """Send a webhook endpoint's failed deliveries again

     Queues once more, oldest first, each of the endpoint's deliveries that failed and was made since
    `since`, up to 1,000 a call (`hasMore`: call again for the rest). The workers send them, each with
    its own `webhook-id`, once the endpoint is neither paused nor disabled.

    **Scope:** `webhooks:write`.

    Args:
        endpoint_id (int):
        body (Recovery): What a client sends to have an endpoint's failed deliveries sent once
            more.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Recovered
    """

    return (
        await asyncio_detailed(
            endpoint_id=endpoint_id,
            client=client,
            body=body,
        )
    ).parsed
