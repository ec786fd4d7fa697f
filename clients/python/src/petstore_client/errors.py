"""Every answer of 400 or more as an exception, its class chosen by the Error body's ``code``."""

from __future__ import annotations

import json
import time
from email.utils import parsedate_to_datetime
from typing import Any

import httpx


class PetstoreError(Exception):
    """An answer of 400 or more, read from its Error body; the subclass says which kind."""

    def __init__(self, status: int, body: dict[str, Any] | None, headers: httpx.Headers) -> None:
        super().__init__((body or {}).get("message") or f"HTTP {status}")
        self.status = status
        self.body = body
        self.code: str | None = (body or {}).get("code")
        self.headers = headers


class ValidationError(PetstoreError):
    """400: ``validation_error`` (with each field's messages) or ``malformed_request``."""

    @property
    def field_errors(self) -> dict[str, list[str]]:
        return dict((self.body or {}).get("errors") or {})


class UnauthorizedError(PetstoreError):
    pass


class ForbiddenError(PetstoreError):
    pass


class NotFoundError(PetstoreError):
    pass


class ConflictError(PetstoreError):
    pass


class GoneError(PetstoreError):
    pass


class IdempotencyKeyReusedError(PetstoreError):
    pass


class ServiceUnavailableError(PetstoreError):
    pass


class RateLimitError(PetstoreError):
    """429 past the retry budget: ``rate_limited`` or ``temporarily_banned``."""

    @property
    def retry_after(self) -> float | None:
        """Seconds the service asked to wait (``Retry-After``)."""
        return retry_after_seconds(self.headers)


BY_CODE: dict[str, type[PetstoreError]] = {
    "validation_error": ValidationError,
    "malformed_request": ValidationError,
    "unauthorized": UnauthorizedError,
    "forbidden": ForbiddenError,
    "not_found": NotFoundError,
    "conflict": ConflictError,
    "gone": GoneError,
    "idempotency_key_reused": IdempotencyKeyReusedError,
    "rate_limited": RateLimitError,
    "temporarily_banned": RateLimitError,
    "service_unavailable": ServiceUnavailableError,
}

# Answers from something before the service (a proxy's 429, say) may lack the Error body.
BY_STATUS: dict[int, type[PetstoreError]] = {
    400: ValidationError,
    401: UnauthorizedError,
    403: ForbiddenError,
    404: NotFoundError,
    409: ConflictError,
    410: GoneError,
    422: IdempotencyKeyReusedError,
    429: RateLimitError,
    503: ServiceUnavailableError,
}


def error_from(response: httpx.Response) -> PetstoreError:
    try:
        parsed = json.loads(response.read())
    except ValueError:
        parsed = None
    body = parsed if isinstance(parsed, dict) and "code" in parsed else None
    kind = BY_CODE.get(body["code"]) if body else None
    kind = kind or BY_STATUS.get(response.status_code, PetstoreError)
    return kind(response.status_code, body, response.headers)


def retry_after_seconds(headers: httpx.Headers) -> float | None:
    """``Retry-After`` in seconds, whether sent as seconds or as an HTTP date."""
    value = str(headers.get("Retry-After", "")).strip()
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        at = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    seconds: float = at.timestamp() - time.time()
    return max(0.0, seconds)
