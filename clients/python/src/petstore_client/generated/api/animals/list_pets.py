from http import HTTPStatus
from typing import Any, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.list_pets_status import ListPetsStatus
from ...models.pet import Pet
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    breed: str | Unset = UNSET,
    category_id: list[int] | Unset = UNSET,
    cursor: str | Unset = UNSET,
    id: list[int] | Unset = UNSET,
    limit: int | Unset = 20,
    name: str | Unset = UNSET,
    status: ListPetsStatus | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_none_match, Unset):
        headers["If-None-Match"] = if_none_match

    params: dict[str, Any] = {}

    params["breed"] = breed

    json_category_id: list[int] | Unset = UNSET
    if not isinstance(category_id, Unset):
        json_category_id = category_id

    params["categoryId"] = json_category_id

    params["cursor"] = cursor

    json_id: list[int] | Unset = UNSET
    if not isinstance(id, Unset):
        json_id = id

    params["id"] = json_id

    params["limit"] = limit

    params["name"] = name

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status.value

    params["status"] = json_status

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/pets",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Error | list[Pet] | None:
    if response.status_code == 200:
        response_200 = []
        _response_200 = response.json()
        for componentsschemas_pets_item_data in _response_200:
            componentsschemas_pets_item = Pet.from_dict(
                componentsschemas_pets_item_data
            )

            response_200.append(componentsschemas_pets_item)

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
) -> Response[Any | Error | list[Pet]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    breed: str | Unset = UNSET,
    category_id: list[int] | Unset = UNSET,
    cursor: str | Unset = UNSET,
    id: list[int] | Unset = UNSET,
    limit: int | Unset = 20,
    name: str | Unset = UNSET,
    status: ListPetsStatus | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | Error | list[Pet]]:
    """List animals

     Animals in id order, `limit` at a time, of the `status`, categories and `name` asked for (all of
    them). When more follow, the `Link` header has the next page's URL (`rel="next"`), with the same
    filters.

    **Scope:** `pets:read`.

    Args:
        breed (str | Unset):
        category_id (list[int] | Unset):
        cursor (str | Unset):
        id (list[int] | Unset):
        limit (int | Unset):  Default: 20.
        name (str | Unset):
        status (ListPetsStatus | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | list[Pet]]
    """

    kwargs = _get_kwargs(
        breed=breed,
        category_id=category_id,
        cursor=cursor,
        id=id,
        limit=limit,
        name=name,
        status=status,
        if_none_match=if_none_match,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    breed: str | Unset = UNSET,
    category_id: list[int] | Unset = UNSET,
    cursor: str | Unset = UNSET,
    id: list[int] | Unset = UNSET,
    limit: int | Unset = 20,
    name: str | Unset = UNSET,
    status: ListPetsStatus | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Any | Error | list[Pet] | None:
    """List animals

     Animals in id order, `limit` at a time, of the `status`, categories and `name` asked for (all of
    them). When more follow, the `Link` header has the next page's URL (`rel="next"`), with the same
    filters.

    **Scope:** `pets:read`.

    Args:
        breed (str | Unset):
        category_id (list[int] | Unset):
        cursor (str | Unset):
        id (list[int] | Unset):
        limit (int | Unset):  Default: 20.
        name (str | Unset):
        status (ListPetsStatus | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | list[Pet]
    """

    return sync_detailed(
        client=client,
        breed=breed,
        category_id=category_id,
        cursor=cursor,
        id=id,
        limit=limit,
        name=name,
        status=status,
        if_none_match=if_none_match,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    breed: str | Unset = UNSET,
    category_id: list[int] | Unset = UNSET,
    cursor: str | Unset = UNSET,
    id: list[int] | Unset = UNSET,
    limit: int | Unset = 20,
    name: str | Unset = UNSET,
    status: ListPetsStatus | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | Error | list[Pet]]:
    """List animals

     Animals in id order, `limit` at a time, of the `status`, categories and `name` asked for (all of
    them). When more follow, the `Link` header has the next page's URL (`rel="next"`), with the same
    filters.

    **Scope:** `pets:read`.

    Args:
        breed (str | Unset):
        category_id (list[int] | Unset):
        cursor (str | Unset):
        id (list[int] | Unset):
        limit (int | Unset):  Default: 20.
        name (str | Unset):
        status (ListPetsStatus | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | list[Pet]]
    """

    kwargs = _get_kwargs(
        breed=breed,
        category_id=category_id,
        cursor=cursor,
        id=id,
        limit=limit,
        name=name,
        status=status,
        if_none_match=if_none_match,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    breed: str | Unset = UNSET,
    category_id: list[int] | Unset = UNSET,
    cursor: str | Unset = UNSET,
    id: list[int] | Unset = UNSET,
    limit: int | Unset = 20,
    name: str | Unset = UNSET,
    status: ListPetsStatus | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Any | Error | list[Pet] | None:
    """List animals

     Animals in id order, `limit` at a time, of the `status`, categories and `name` asked for (all of
    them). When more follow, the `Link` header has the next page's URL (`rel="next"`), with the same
    filters.

    **Scope:** `pets:read`.

    Args:
        breed (str | Unset):
        category_id (list[int] | Unset):
        cursor (str | Unset):
        id (list[int] | Unset):
        limit (int | Unset):  Default: 20.
        name (str | Unset):
        status (ListPetsStatus | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | list[Pet]
    """

    return (
        await asyncio_detailed(
            client=client,
            breed=breed,
            category_id=category_id,
            cursor=cursor,
            id=id,
            limit=limit,
            name=name,
            status=status,
            if_none_match=if_none_match,
        )
    ).parsed
