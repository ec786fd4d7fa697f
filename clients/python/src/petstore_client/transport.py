"""The httpx transport under the generated client: every call goes through it."""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

import httpx

from .errors import error_from, retry_after_seconds

RETRIED_STATUSES = frozenset({429, 503})
# What a lost connection looks like: the request may or may not have reached the service.
CONNECTION_ERRORS = (httpx.NetworkError, httpx.TimeoutException, httpx.RemoteProtocolError)
# The kept answer's body is stored decoded, so its encoding and length are not replayed.
NOT_REPLAYED = frozenset({"content-length", "content-encoding", "transfer-encoding"})


@dataclass(frozen=True)
class RetryInfo:
    attempt: int
    wait_seconds: float
    status: int | None = None
    error: Exception | None = None


@dataclass(frozen=True)
class Retry:
    """How long the SDK keeps trying before an error reaches the caller. A ``Retry-After``
    past ``budget_seconds`` (the waiting allowed for one call) is not waited out: the caller
    gets the error with the time to retry. Without one, the backoff is exponential from
    ``base_delay_seconds``, capped at ``max_delay_seconds``, with full jitter."""

    max_retries: int = 3
    budget_seconds: float = 60.0
    base_delay_seconds: float = 0.5
    max_delay_seconds: float = 8.0
    on_retry: Callable[[RetryInfo], None] | None = None  # told of each wait: for logs

    def backoff(self, attempt: int) -> float:
        # Full jitter: clients that failed together do not come back together.
        ceiling = min(self.max_delay_seconds, self.base_delay_seconds * 2**attempt)
        return random.uniform(0, ceiling)  # noqa: S311 (spreads retries; no secret)


@dataclass(frozen=True)
class RateLimit:
    """The ``X-RateLimit-*`` headers, as numbers: the window with the fewest requests left."""

    limit: int
    remaining: int
    reset: int  # Unix time, in seconds, at which that window ends

    @classmethod
    def from_headers(cls, headers: httpx.Headers) -> RateLimit | None:
        try:
            numbers = (
                int(headers[f"X-RateLimit-{name}"]) for name in ("Limit", "Remaining", "Reset")
            )
            return cls(*numbers)
        except (KeyError, ValueError):
            return None


@dataclass(frozen=True)
class Kept:
    etag: str
    content: bytes
    headers: httpx.Headers


class EtagCache:
    """Answers kept by their ``ETag``: a GET sends ``If-None-Match``, and a ``304``, which
    spends nothing of the day window, is answered from here. Opt-in."""

    def __init__(self, max_entries: int = 500) -> None:
        self.max_entries = max_entries
        self.hits = 0
        self._kept: OrderedDict[str, Kept] = OrderedDict()

    def get(self, key: str) -> Kept | None:
        return self._kept.get(key)

    def set(self, key: str, kept: Kept) -> None:
        self._kept[key] = kept
        self._kept.move_to_end(key)
        if len(self._kept) > self.max_entries:
            self._kept.popitem(last=False)


class Attempts:
    """The decisions for one request, shared by the sync and async transports, which only send
    and wait: the headers it gets, whether a failure is tried again and after how long, and
    what reaches the caller (the answer, the kept one after a ``304``, or the error)."""

    def __init__(self, transport: SdkTransport | AsyncSdkTransport, request: httpx.Request) -> None:
        self.transport = transport
        self.retry = transport.retry
        self.cache = transport.cache
        self.request = request
        # One key per operation meant to happen once: the service replays its first answer.
        if request.method == "POST" and "Idempotency-Key" not in request.headers:
            request.headers["Idempotency-Key"] = str(uuid.uuid4())
        self.cache_key = f"{request.url} {request.headers.get('Authorization', '')}"
        self.kept = (
            self.cache.get(self.cache_key) if self.cache and request.method == "GET" else None
        )
        if self.kept and "If-None-Match" not in request.headers:
            request.headers["If-None-Match"] = self.kept.etag
        self.reconnects = request.method == "GET" or "Idempotency-Key" in request.headers
        self.waited = 0.0
        self.attempt = 0

    def wait_after_error(self, error: Exception) -> float | None:
        """Seconds to wait before sending again after a lost connection; ``None``: give up."""
        if not self.reconnects:
            return None
        return self._wait(self.retry.backoff(self.attempt), error=error)

    def wait_after(self, response: httpx.Response) -> float | None:
        """Seconds to wait before sending again after this answer; ``None``: it is the one."""
        self.transport.rate_limit = (
            RateLimit.from_headers(response.headers) or self.transport.rate_limit
        )
        if response.status_code not in RETRIED_STATUSES:
            return None
        after = retry_after_seconds(response.headers)
        wait = self.retry.backoff(self.attempt) if after is None else after
        return self._wait(wait, status=response.status_code)

    def body_needed(self, response: httpx.Response) -> bool:
        """Whether ``answer`` reads the body: an error's, or one the cache keeps."""
        return response.status_code >= 400 or self._keeps(response)

    def answer(self, response: httpx.Response) -> httpx.Response:
        """What the caller gets, its body read if ``body_needed``: the kept answer for a ``304``
        (the fresh one, bodiless, is done with), or the answer; an error raises."""
        if response.status_code == 304 and self.kept and self.cache:
            self.cache.hits += 1
            return self._from_cache(self.kept, response, self.request)
        if response.status_code >= 400:
            raise error_from(response)
        if self._keeps(response) and self.cache:
            etag = response.headers["ETag"]
            self.cache.set(self.cache_key, Kept(etag, response.content, response.headers))
        return response

    def _keeps(self, response: httpx.Response) -> bool:
        return (
            self.cache is not None
            and self.request.method == "GET"
            and response.status_code == 200
            and "ETag" in response.headers
        )

    def _wait(
        self, wait: float, *, status: int | None = None, error: Exception | None = None
    ) -> float | None:
        if self.attempt >= self.retry.max_retries or self.waited + wait > self.retry.budget_seconds:
            return None
        self.waited, self.attempt = self.waited + wait, self.attempt + 1
        if self.retry.on_retry:
            self.retry.on_retry(RetryInfo(self.attempt, wait, status=status, error=error))
        return wait

    @staticmethod
    def _from_cache(kept: Kept, fresh: httpx.Response, request: httpx.Request) -> httpx.Response:
        """The kept answer as a ``200``, with the fresh answer's headers (the limit's, the
        ``ETag``)."""
        headers = httpx.Headers(
            {k: v for k, v in kept.headers.items() if k.lower() not in NOT_REPLAYED}
        )
        for name, value in fresh.headers.items():
            if name.lower() not in NOT_REPLAYED | {"content-type"}:
                headers[name] = value
        return httpx.Response(200, headers=headers, content=kept.content, request=request)


class SdkTransport(httpx.BaseTransport):
    def __init__(
        self, retry: Retry, cache: EtagCache | None, inner: httpx.BaseTransport | None = None
    ) -> None:
        self.retry = retry
        self.cache = cache
        self.inner = inner or httpx.HTTPTransport()
        self.rate_limit: RateLimit | None = None  # the latest answer's

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        attempts = Attempts(self, request)
        request.read()  # the body, to send again
        while True:
            try:
                response = self.inner.handle_request(request)
            except CONNECTION_ERRORS as error:
                if (wait := attempts.wait_after_error(error)) is None:
                    raise
                time.sleep(wait)
                continue
            if (wait := attempts.wait_after(response)) is not None:
                response.close()
                time.sleep(wait)
                continue
            if attempts.body_needed(response) or response.status_code == 304:
                response.read()
                response.close()
            return attempts.answer(response)

    def close(self) -> None:
        self.inner.close()


class AsyncSdkTransport(httpx.AsyncBaseTransport):
    """``SdkTransport`` for ``httpx.AsyncClient``: the same decisions (``Attempts``), awaited."""

    def __init__(
        self,
        retry: Retry,
        cache: EtagCache | None,
        inner: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.retry = retry
        self.cache = cache
        self.inner = inner or httpx.AsyncHTTPTransport()
        self.rate_limit: RateLimit | None = None  # the latest answer's

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        attempts = Attempts(self, request)
        await request.aread()  # the body, to send again
        while True:
            try:
                response = await self.inner.handle_async_request(request)
            except CONNECTION_ERRORS as error:
                if (wait := attempts.wait_after_error(error)) is None:
                    raise
                await asyncio.sleep(wait)
                continue
            if (wait := attempts.wait_after(response)) is not None:
                await response.aclose()
                await asyncio.sleep(wait)
                continue
            if attempts.body_needed(response) or response.status_code == 304:
                await response.aread()
                await response.aclose()
            return attempts.answer(response)

    async def aclose(self) -> None:
        await self.inner.aclose()
