from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.rotated_secret import RotatedSecret
from ...models.secret_rotation import SecretRotation
from ...types import UNSET, Response, Unset


def _get_kwargs(
    endpoint_id: int,
    *,
    body: SecretRotation | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/webhook_endpoints/{endpoint_id}/rotate_secret".format(
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
) -> Error | RotatedSecret | None:
    if response.status_code == 200:
        response_200 = RotatedSecret.from_dict(response.json())

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
) -> Response[Error | RotatedSecret]:
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
    body: SecretRotation | Unset = UNSET,
) -> Response[Error | RotatedSecret]:
    """Rotate a webhook endpoint's secret

     A new secret, shown in this answer only. Until the current one expires, each delivery's `webhook-
    signature` carries a signature with each (space-separated, as Standard Webhooks allows), so that the
    receiver can switch without refusing one. A secret rotated away earlier signs too until its own
    overlap ends: rotated twice in a day, three secrets sign; at most 4, the newest (the current one and
    the 3 rotated away last).

    **Scope:** `webhooks:write`.

    Args:
        endpoint_id (int):
        body (SecretRotation | Unset): What a client sends to rotate an endpoint's secret.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | RotatedSecret]
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
    body: SecretRotation | Unset = UNSET,
) -> Error | RotatedSecret | None:
    """Rotate a webhook endpoint's secret

     A new secret, shown in this answer only. Until the current one expires, each delivery's `webhook-
    signature` carries a signature with each (space-separated, as Standard Webhooks allows), so that the
    receiver can switch without refusing one. A secret rotated away earlier signs too until its own
    overlap ends: rotated twice in a day, three secrets sign; at most 4, the newest (the current one and
    the 3 rotated away last).

    **Scope:** `webhooks:write`.

    Args:
        endpoint_id (int):
        body (SecretRotation | Unset): What a client sends to rotate an endpoint's secret.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | RotatedSecret
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
    body: SecretRotation | Unset = UNSET,
) -> Response[Error | RotatedSecret]:
    """Rotate a webhook endpoint's secret

     A new secret, shown in this answer only. Until the current one expires, each delivery's `webhook-
    signature` carries a signature with each (space-separated, as Standard Webhooks allows), so that the
    receiver can switch without refusing one. A secret rotated away earlier signs too until its own
    overlap ends: rotated twice in a day, three secrets sign; at most 4, the newest (the current one and
    the 3 rotated away last).

    **Scope:** `webhooks:write`.

    Args:
        endpoint_id (int):
        body (SecretRotation | Unset): What a client sends to rotate an endpoint's secret.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | RotatedSecret]
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
    body: SecretRotation | Unset = UNSET,
) -> Error | RotatedSecret | None:
    """Rotate a webhook endpoint's secret

     A new secret, shown in this answer only. Until the current one expires, each delivery's `webhook-
    signature` carries a signature with each (space-separated, as Standard Webhooks allows), so that the
    receiver can switch without refusing one. A secret rotated away earlier signs too until its own
    overlap ends: rotated twice in a day, three secrets sign; at most 4, the newest (the current one and
    the 3 rotated away last).

    **Scope:** `webhooks:write`.

    Args:
        endpoint_id (int):
        body (SecretRotation | Unset): What a client sends to rotate an endpoint's secret.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | RotatedSecret
    """

    return (
        await asyncio_detailed(
            endpoint_id=endpoint_id,
            client=client,
            body=body,
        )
    ).parsed
