"""The SDK's entry point: the generated client, configured, and paging."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from types import ModuleType
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx

from .generated import AuthenticatedClient
from .generated.types import UNSET, Unset
from .transport import EtagCache, RateLimit, Retry, SdkTransport

# The servers the OpenAPI document lists.
SERVERS = {
    "production": "https://petstore.example.com/v1",
    "staging": "https://staging.petstore.example.com/v1",
}

NEXT = re.compile(r'<([^>]*)>\s*;\s*rel="?next"?')


class Petstore:
    """The API through the generated client (``list_pets.sync(client=petstore.client)``), with
    the partner's chores done: the key sent, ``429`` and ``503`` waited out, connection errors
    retried for GETs and for POSTs (each gets an ``Idempotency-Key``), errors raised as
    ``PetstoreError`` by code.

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
        base_url = SERVERS.get(server, server)
        if not base_url.startswith(("https://", "http://")):
            raise ValueError(f'server: "production", "staging" or a URL, not {server!r}')
        self.cache = EtagCache() if cache is True else cache or None
        self.transport = SdkTransport(retry or Retry(), self.cache, transport)
        self.client = AuthenticatedClient(
            base_url=base_url,
            token=api_key,
            timeout=httpx.Timeout(timeout),
            httpx_args={"transport": self.transport},
        )

    @property
    def rate_limit(self) -> RateLimit | None:
        """The limit's headers of the latest answer, as numbers."""
        return self.transport.rate_limit

    def paginate(self, operation: ModuleType, /, **params: Any) -> Iterator[Any]:
        """Every item of a listing, page after page, following ``Link: rel="next"`` to the end
        (no link, or an empty page): ``petstore.paginate(list_pets, status=…)``."""
        return self._walk(operation, params, every=None)

    def follow(self, operation: ModuleType, /, every: float = 5.0, **params: Any) -> Iterator[Any]:
        """The events feed as it grows (``petstore.follow(list_events)``): at its end, asked
        again every ``every`` seconds (with the cache on, a ``304`` spends nothing of the
        day). Never ends: break out of it."""
        return self._walk(operation, params, every=every)

    def _walk(
        self, operation: ModuleType, params: dict[str, Any], every: float | None
    ) -> Iterator[Any]:
        cursor: str | Unset = UNSET
        while True:
            response = operation.sync_detailed(client=self.client, cursor=cursor, **params)
            items = response.parsed or []
            yield from items
            found = next_cursor(response.headers.get("Link"))
            # The feed links on from its last page too; a listing stops linking.
            if found is None or (not items and every is None):
                return
            if not items and every is not None:
                time.sleep(every)
            cursor = found


def next_cursor(link: str | None) -> str | None:
    """The cursor of the ``rel="next"`` link; the link keeps the listing's other parameters,
    which the next call sends again itself, typed."""
    # Not split at commas: a listing's own parameters may hold some (categoryId=1,2).
    match = NEXT.search(link or "")
    if not match:
        return None
    cursors = parse_qs(urlsplit(match[1]).query).get("cursor")
    return cursors[0] if cursors else None
