from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.endpoint import Endpoint
from ...models.error import Error
from ...models.patched_endpoint_changes import PatchedEndpointChanges
from ...types import UNSET, Response, Unset


def _get_kwargs(
    endpoint_id: int,
    *,
    body: PatchedEndpointChanges | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/webhook_endpoints/{endpoint_id}".format(
            endpoint_id=quote(str(endpoint_id), safe=""),
        ),
    }

    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Endpoint | Error | None:
    if response.status_code == 200:
        response_200 = Endpoint.from_dict(response.json())

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
) -> Response[Endpoint | Error]:
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
    body: PatchedEndpointChanges | Unset = UNSET,
) -> Response[Endpoint | Error]:
    """Change a webhook endpoint

     Only the fields sent change, each checked as at creation; nothing changes when any is refused.
    `enabled: true` makes a paused or disabled endpoint healthy and sends at once what was pending; the
    events that came while it was disabled are failed deliveries (error `disabled`), sent by
    `recoverWebhookEndpoint` since the outage. An endpoint an account manager disabled is enabled by
    them only: `409`, and so is a new `url` or `events` for it, or a `url` they disabled for another.

    **Scope:** `webhooks:write`.

    Args:
        endpoint_id (int):
        body (PatchedEndpointChanges | Unset): What a client sends to change a webhook endpoint:
            any of its fields, each checked as
            at creation; its context holds the key's ``scopes`` and the ``endpoint``.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Endpoint | Error]
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
    body: PatchedEndpointChanges | Unset = UNSET,
) -> Endpoint | Error | None:
    """Change a webhook endpoint

     Only the fields sent change, each checked as at creation; nothing changes when any is refused.
    `enabled: true` makes a paused or disabled endpoint healthy and sends at once what was pending; the
    events that came while it was disabled are failed deliveries (error `disabled`), sent by
    `recoverWebhookEndpoint` since the outage. An endpoint an account manager disabled is enabled by
    them only: `409`, and so is a new `url` or `events` for it, or a `url` they disabled for another.

    **Scope:** `webhooks:write`.

    Args:
        endpoint_id (int):
        body (PatchedEndpointChanges | Unset): What a client sends to change a webhook endpoint:
            any of its fields, each checked as
            at creation; its context holds the key's ``scopes`` and the ``endpoint``.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Endpoint | Error
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
    body: PatchedEndpointChanges | Unset = UNSET,
) -> Response[Endpoint | Error]:
    """Change a webhook endpoint

     Only the fields sent change, each checked as at creation; nothing changes when any is refused.
    `enabled: true` makes a paused or disabled endpoint healthy and sends at once what was pending; the
    events that came while it was disabled are failed deliveries (error `disabled`), sent by
    `recoverWebhookEndpoint` since the outage. An endpoint an account manager disabled is enabled by
    them only: `409`, and so is a new `url` or `events` for it, or a `url` they disabled for another.

    **Scope:** `webhooks:write`.

    Args:
        endpoint_id (int):
        body (PatchedEndpointChanges | Unset): What a client sends to change a webhook endpoint:
            any of its fields, each checked as
            at creation; its context holds the key's ``scopes`` and the ``endpoint``.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Endpoint | Error]
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
    body: PatchedEndpointChanges | Unset = UNSET,
) -> Endpoint | Error | None:
    """Change a webhook endpoint

     Only the fields sent change, each checked as at creation; nothing changes when any is refused.
    `enabled: true` makes a paused or disabled endpoint healthy and sends at once what was pending; the
    events that came while it was disabled are failed deliveries (error `disabled`), sent by
    `recoverWebhookEndpoint` since the outage. An endpoint an account manager disabled is enabled by
    them only: `409`, and so is a new `url` or `events` for it, or a `url` they disabled for another.

    **Scope:** `webhooks:write`.

    Args:
        endpoint_id (int):
        body (PatchedEndpointChanges | Unset): What a client sends to change a webhook endpoint:
            any of its fields, each checked as
            at creation; its context holds the key's ``scopes`` and the ``endpoint``.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Endpoint | Error
    """

    return (
        await asyncio_detailed(
            endpoint_id=endpoint_id,
            client=client,
            body=body,
        )
    ).parsed
