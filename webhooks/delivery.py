"""Delivery attempts: each event, signed as Standard Webhooks says, posted to the endpoint's
checked address, without following redirects; any 2xx within the timeout is delivered."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import NamedTuple

import orjson
import urllib3
from django.conf import settings
from standardwebhooks import Webhook

from events.models import Event
from events.serializers import EventSerializer
from webhooks.addresses import Refused, Target, target
from webhooks.models import RESPONSE_CHARS, AttemptError, Endpoint

USER_AGENT = "petstore-webhooks/1"
# How an attempt refused by the address rules, never sent, says so.
REFUSED = "Not sent: "


class Attempt(NamedTuple):
    status: int | None  # the HTTP status; None when there was no answer
    error: str = ""
    retry_after: float | None = None  # seconds, from a 429's or 503's Retry-After
    duration_ms: int | None = None  # from sending to the answer's end, or to the failure
    response: str = ""  # the start of the receiver's answer, as text
    no_answer: AttemptError | None = None  # why there was none, when there was none

    @property
    def error_kind(self) -> AttemptError | None:
        """Why it was not delivered; None when it was."""
        if self.delivered:
            return None
        if self.status is None:
            return self.no_answer or AttemptError.CONNECTION
        return AttemptError.REDIRECT if 300 <= self.status < 400 else AttemptError.STATUS

    @property
    def delivered(self) -> bool:
        return self.status is not None and 200 <= self.status < 300

    @property
    def result(self) -> str:
        """What became of it, as the operator counts it (petstore.metrics)."""
        if self.delivered:
            return "delivered"
        if self.status is None:
            return "refused_address" if self.error.startswith(REFUSED) else "no_answer"
        return "failing" if self.counts_against_receiver else "rejected"

    @property
    def counts_against_receiver(self) -> bool:
        """A failure that says the receiver is down or overwhelmed (the circuit breaker's)."""
        return self.status is None or self.status >= 500 or self.status == 429


def body_of(event: Event) -> bytes:
    return orjson.dumps(EventSerializer.of(event))


def signed_headers(secrets: list[str], event_id: str, at: datetime, body: bytes) -> dict[str, str]:
    """The Standard Webhooks headers for ``body``, signed at ``at`` with each of ``secrets``
    (space-separated signatures, which a receiver holding any one of them verifies)."""
    text = body.decode()
    return {
        "webhook-id": event_id,
        "webhook-timestamp": str(int(at.timestamp())),
        "webhook-signature": " ".join(Webhook(s).sign(event_id, at, text) for s in secrets),
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
    }


class Sender:
    """Posts events to one endpoint, each to the address checked for it, over connections kept
    open between them where the receiver allows."""

    def __init__(self, endpoint: Endpoint) -> None:
        self.endpoint = endpoint
        self.pool: urllib3.HTTPConnectionPool | None = None
        self.timeout = urllib3.Timeout(
            connect=settings.PETSTORE_WEBHOOK_CONNECT_TIMEOUT_SECONDS,
            read=settings.PETSTORE_WEBHOOK_TIMEOUT_SECONDS,
        )

    def __enter__(self) -> Sender:
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self.pool is not None:
            self.pool.close()

    def attempt(self, event: Event) -> Attempt:
        try:
            where = target(self.endpoint.url)
        except Refused as exc:
            return Attempt(None, f"{REFUSED}{exc}", no_answer=AttemptError.ADDRESS)
        body = body_of(event)
        at = datetime.now(UTC)
        headers = signed_headers(self.endpoint.secrets_at(at), event.uid, at, body)
        default_port = 443 if where.scheme == "https" else 80
        host = f"[{where.host}]" if ":" in where.host else where.host
        headers["Host"] = host if where.port == default_port else f"{host}:{where.port}"
        started = time.monotonic()
        try:
            response = self._pool(where).urlopen(
                "POST",
                where.path,
                body=body,
                headers=headers,
                redirect=False,
                retries=False,
                preload_content=False,
            )
            # The start of the answer only: a receiver's body may be of any size.
            start = response.read(RESPONSE_CHARS)
            # A connection carries the next delivery only once this answer has been read whole.
            whole = response.read(1) == b""
        except urllib3.exceptions.HTTPError as exc:
            return Attempt(
                None,
                f"{type(exc).__name__}: {exc}"[:300],
                duration_ms=_ms_since(started),
                no_answer=_why(exc),
            )
        if not whole:
            response.close()  # more follows, unread: the connection cannot carry another
        response.release_conn()
        retry_after = None
        if response.status in (429, 503):
            retry_after = seconds_to_wait(
                response.headers.get("Retry-After", ""), datetime.now(UTC)
            )
        return Attempt(
            response.status,
            retry_after=retry_after,
            duration_ms=_ms_since(started),
            response=start.decode(errors="replace"),
        )

    def _pool(self, where: Target) -> urllib3.HTTPConnectionPool:
        """Connections to the address just checked: those to another are closed."""
        if self.pool is not None and self.pool.host == where.address:
            return self.pool
        if self.pool is not None:
            self.pool.close()
        if where.scheme == "https":
            self.pool = urllib3.HTTPSConnectionPool(
                where.address,
                where.port,
                server_hostname=where.host,
                assert_hostname=where.host,
                timeout=self.timeout,
                retries=False,
            )
        else:
            self.pool = urllib3.HTTPConnectionPool(
                where.address, where.port, timeout=self.timeout, retries=False
            )
        return self.pool


def _ms_since(started: float) -> int:
    return round((time.monotonic() - started) * 1000)


def _why(exc: urllib3.exceptions.HTTPError) -> AttemptError:
    # A refused connection is a ConnectTimeoutError to urllib3, for its callers of old.
    if isinstance(exc, urllib3.exceptions.NewConnectionError):
        return AttemptError.CONNECTION
    if isinstance(exc, urllib3.exceptions.TimeoutError):
        return AttemptError.TIMEOUT
    if isinstance(exc, urllib3.exceptions.SSLError):
        return AttemptError.TLS
    return AttemptError.CONNECTION


def seconds_to_wait(retry_after: str, now: datetime) -> float | None:
    """A ``Retry-After`` (seconds, or an HTTP date) as seconds from ``now``; None if unreadable."""
    if retry_after.strip().isdigit():
        return float(retry_after)
    try:
        when = parsedate_to_datetime(retry_after)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        return None
    return max((when - now).total_seconds(), 0.0)
