from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.created_endpoint import CreatedEndpoint
from ...models.error import Error
from ...models.new_endpoint import NewEndpoint
from ...types import Response


def _get_kwargs(
    *,
    body: NewEndpoint,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/webhook_endpoints",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CreatedEndpoint | Error | None:
    if response.status_code == 201:
        response_201 = CreatedEndpoint.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())

        return response_403

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())

        return response_409

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
) -> Response[CreatedEndpoint | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: NewEndpoint,
) -> Response[CreatedEndpoint | Error]:
    """Add a webhook endpoint

     Events of the listed types made from now on are posted to `url`, signed with the `secret` this
    answer shows once (Standard Webhooks). At most 10 per account. A URL an account manager disabled an
    endpoint of (even one deleted since) is `409` until they lift it.

    **Scope:** `webhooks:write`.

    Args:
        body (NewEndpoint): What a client sends to add a webhook endpoint; its context holds the
            key's ``scopes``.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreatedEndpoint | Error]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: NewEndpoint,
) -> CreatedEndpoint | Error | None:
    """Add a webhook endpoint

     Events of the listed types made from now on are posted to `url`, signed with the `secret` this
    answer shows once (Standard Webhooks). At most 10 per account. A URL an account manager disabled an
    endpoint of (even one deleted since) is `409` until they lift it.

    **Scope:** `webhooks:write`.

    Args:
        body (NewEndpoint): What a client sends to add a webhook endpoint; its context holds the
            key's ``scopes``.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreatedEndpoint | Error
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: NewEndpoint,
) -> Response[CreatedEndpoint | Error]:
    """Add a webhook endpoint

     Events of the listed types made from now on are posted to `url`, signed with the `secret` this
    answer shows once (Standard Webhooks). At most 10 per account. A URL an account manager disabled an
    endpoint of (even one deleted since) is `409` until they lift it.

    **Scope:** `webhooks:write`.

    Args:
        body (NewEndpoint): What a client sends to add a webhook endpoint; its context holds the
            key's ``scopes``.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreatedEndpoint | Error]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: NewEndpoint,
) -> CreatedEndpoint | Error | None:
    """Add a webhook endpoint

     Events of the listed types made from now on are posted to `url`, signed with the `secret` this
    answer shows once (Standard Webhooks). At most 10 per account. A URL an account manager disabled an
    endpoint of (even one deleted since) is `409` until they lift it.

    **Scope:** `webhooks:write`.

    Args:
        body (NewEndpoint): What a client sends to add a webhook endpoint; its context holds the
            key's ``scopes``.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreatedEndpoint | Error
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
