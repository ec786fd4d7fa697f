"""The SDK's entry points: the generated client, configured, with the API's resources on it."""

from __future__ import annotations

import time
from collections.abc import Iterator
from types import ModuleType, TracebackType
from typing import Any

import httpx

from . import async_resources, resources
from .calls import Pages, given, next_cursor
from .generated import AuthenticatedClient
from .transport import AsyncSdkTransport, EtagCache, Retry, SdkTransport

# The servers the OpenAPI document lists.
SERVERS = {
    "production": "https://petstore.example.com/v1",
    "staging": "https://staging.petstore.example.com/v1",
}

__all__ = ["SERVERS", "AsyncPetstore", "Petstore", "next_cursor"]


class Petstore:
    """The API as resources (``petstore.pets.list()``, ``petstore.orders.place(pet_id=…)``),
    with the partner's chores done: the key sent, ``429`` and ``503`` waited out, connection
    errors retried for GETs and for POSTs (each gets an ``Idempotency-Key``), errors raised as
    ``PetstoreError`` by code. The generated client stays reachable as ``petstore.client``
    (``list_pets.sync(client=petstore.client)``).

    ``server``: ``production``, ``staging``, or any base URL ending in ``/v1``. ``cache``: keep
    answers by their ``ETag`` and ask with ``If-None-Match`` (``True``, or a cache to share).
    """

    def __init__(
        self,
        api_key: str,
        *,
        server: str = "production",
        retry: Retry | None = None,
        cache: bool | EtagCache = False,
        timeout: float = 30.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.cache = EtagCache() if cache is True else cache or None
        self.transport = SdkTransport(retry or Retry(), self.cache, transport)
        self.client = _client(api_key, server, timeout, self.transport)
        self.pets = resources.Pets(self.client)
        self.categories = resources.Categories(self.client)
        self.orders = resources.Orders(self.client)
        self.events = resources.Events(self.client)
        self.webhook_endpoints = resources.WebhookEndpoints(self.client)
        # Also the latest answer's limit headers (limit, remaining, reset), as in 1.0 and 1.1.
        self.rate_limit = resources.RateLimit(self.client, self.transport)
        self.usage = resources.Usage(self.client)

    def paginate(self, operation: ModuleType, /, **params: Any) -> Iterator[Any]:
        """Every item of a generated listing, page after page, following ``Link: rel="next"``
        to the end: ``petstore.paginate(list_pets, status="available")``. The resources' own
        ``list()`` does this, typed."""
        return self._walk(operation, params, every=None)

    def follow(self, operation: ModuleType, /, every: float = 5.0, **params: Any) -> Iterator[Any]:
        """The events feed as it grows (``petstore.follow(list_events)``), as
        ``petstore.events.follow()`` does, typed. Never ends: break out of it."""
        return self._walk(operation, params, every=every)

    def _walk(
        self, operation: ModuleType, params: dict[str, Any], every: float | None
    ) -> Iterator[Any]:
        pages = Pages(following=every is not None)
        arguments = given(**params)
        while True:
            response = operation.sync_detailed(client=self.client, cursor=pages.cursor, **arguments)
            items = response.parsed or []
            yield from items
            if not pages.turn(response, len(items)):
                return
            if not items and every is not None:
                time.sleep(every)


class AsyncPetstore:
    """``Petstore`` for asyncio: the same resources, their methods awaited and their listings
    iterated with ``async for``, on the same transport rules. Close it with ``await
    petstore.aclose()``, or use it as ``async with AsyncPetstore(…) as petstore:``."""

    def __init__(
        self,
        api_key: str,
        *,
        server: str = "production",
        retry: Retry | None = None,
        cache: bool | EtagCache = False,
        timeout: float = 30.0,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.cache = EtagCache() if cache is True else cache or None
        self.transport = AsyncSdkTransport(retry or Retry(), self.cache, transport)
        self.client = _client(api_key, server, timeout, self.transport)
        self.pets = async_resources.Pets(self.client)
        self.categories = async_resources.Categories(self.client)
        self.orders = async_resources.Orders(self.client)
        self.events = async_resources.Events(self.client)
        self.webhook_endpoints = async_resources.WebhookEndpoints(self.client)
        self.rate_limit = async_resources.RateLimit(self.client, self.transport)
        self.usage = async_resources.Usage(self.client)

    async def aclose(self) -> None:
        await self.client.get_async_httpx_client().aclose()

    async def __aenter__(self) -> AsyncPetstore:
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.aclose()


def _client(
    api_key: str, server: str, timeout: float, transport: SdkTransport | AsyncSdkTransport
) -> AuthenticatedClient:
    base_url = SERVERS.get(server, server)
    if not base_url.startswith(("https://", "http://")):
        raise ValueError(f'server: "production", "staging" or a URL, not {server!r}')
    return AuthenticatedClient(
        base_url=base_url,
        token=api_key,
        timeout=httpx.Timeout(timeout),
        httpx_args={"transport": transport},
    )
