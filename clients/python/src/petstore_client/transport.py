"""The httpx transport under the generated client: every call goes through it."""

from __future__ import annotations

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


class SdkTransport(httpx.BaseTransport):
    def __init__(
        self, retry: Retry, cache: EtagCache | None, inner: httpx.BaseTransport | None = None
    ) -> None:
        self.retry = retry
        self.cache = cache
        self.inner = inner or httpx.HTTPTransport()
        self.rate_limit: RateLimit | None = None  # the latest answer's

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        # One key per operation meant to happen once: the service replays its first answer.
        if request.method == "POST" and "Idempotency-Key" not in request.headers:
            request.headers["Idempotency-Key"] = str(uuid.uuid4())
        cache_key = f"{request.url} {request.headers.get('Authorization', '')}"
        kept = self.cache.get(cache_key) if self.cache and request.method == "GET" else None
        if kept and "If-None-Match" not in request.headers:
            request.headers["If-None-Match"] = kept.etag
        request.read()  # the body, to send again
        reconnects = request.method == "GET" or "Idempotency-Key" in request.headers
        waited = 0.0
        attempt = 0
        while True:
            try:
                response = self.inner.handle_request(request)
            except CONNECTION_ERRORS as error:
                wait = self.retry.backoff(attempt)
                if not reconnects or not self._may_wait(attempt, waited, wait):
                    raise
                self._wait(RetryInfo(attempt + 1, wait, error=error))
                waited, attempt = waited + wait, attempt + 1
                continue
            self.rate_limit = RateLimit.from_headers(response.headers) or self.rate_limit
            if response.status_code in RETRIED_STATUSES:
                after = retry_after_seconds(response.headers)
                wait = self.retry.backoff(attempt) if after is None else after
                if self._may_wait(attempt, waited, wait):
                    response.close()
                    self._wait(RetryInfo(attempt + 1, wait, status=response.status_code))
                    waited, attempt = waited + wait, attempt + 1
                    continue
            if response.status_code == 304 and kept and self.cache:
                self.cache.hits += 1
                return self._from_cache(kept, response, request)
            if response.status_code >= 400:
                raise error_from(response)
            etag = response.headers.get("ETag")
            if self.cache and request.method == "GET" and response.status_code == 200 and etag:
                self.cache.set(cache_key, Kept(etag, response.read(), response.headers))
            return response

    def close(self) -> None:
        self.inner.close()

    def _may_wait(self, attempt: int, waited: float, wait: float) -> bool:
        return attempt < self.retry.max_retries and waited + wait <= self.retry.budget_seconds

    def _wait(self, retry: RetryInfo) -> None:
        if self.retry.on_retry:
            self.retry.on_retry(retry)
        time.sleep(retry.wait_seconds)

    @staticmethod
    def _from_cache(kept: Kept, fresh: httpx.Response, request: httpx.Request) -> httpx.Response:
        """The kept answer as a ``200``, with the fresh answer's headers (the limit's, the
        ``ETag``)."""
        fresh.close()
        headers = httpx.Headers(
            {k: v for k, v in kept.headers.items() if k.lower() not in NOT_REPLAYED}
        )
        for name, value in fresh.headers.items():
            if name.lower() not in NOT_REPLAYED | {"content-type"}:
                headers[name] = value
        return httpx.Response(200, headers=headers, content=kept.content, request=request)
