"""Delivery attempts: each event, signed as Standard Webhooks says, posted to the endpoint's
checked address, without following redirects; any 2xx within the timeout is delivered."""

from __future__ import annotations

import io
import socket
import ssl
import time
from datetime import UTC, datetime
from http.client import HTTPException, HTTPResponse
from typing import TYPE_CHECKING, Any, NamedTuple

import orjson
import urllib3
from django.conf import settings
from standardwebhooks import Webhook
from urllib3.connection import HTTPConnection, HTTPSConnection

from events.models import Event
from events.serializers import EventSerializer
from webhooks import answers
from webhooks.addresses import DEFAULT_PORTS, Refused, Target, target
from webhooks.models import RESPONSE_CHARS, AttemptError, Endpoint

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

USER_AGENT = "petstore-webhooks/1"
# Header fields, each named once: a field's name is case-insensitive (RFC 9110 §5.1).
WEBHOOK_ID, WEBHOOK_TIMESTAMP = "webhook-id", "webhook-timestamp"
WEBHOOK_SIGNATURE, CONTENT_TYPE = "webhook-signature", "Content-Type"
USER_AGENT_FIELD, HOST, RETRY_AFTER = "User-Agent", "Host", "Retry-After"
# How an attempt refused by the address rules, never sent, says so.
REFUSED = "Not sent: "
# The most of an attempt's error kept with its delivery (Delivery.last_error).
ERROR_CHARS = 300


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
        WEBHOOK_ID: event_id,
        WEBHOOK_TIMESTAMP: str(int(at.timestamp())),
        WEBHOOK_SIGNATURE: " ".join(Webhook(s).sign(event_id, at, text) for s in secrets),
        CONTENT_TYPE: "application/json",
        USER_AGENT_FIELD: USER_AGENT,
    }


def host_header(where: Target) -> str:
    """The ``Host`` a post to ``where`` names: its host as the URL has it, an IPv6 address in
    brackets, and its port unless it is the scheme's default."""
    host = f"[{where.host}]" if ":" in where.host else where.host
    return host if where.port == DEFAULT_PORTS[where.scheme] else f"{host}:{where.port}"


class Sender:
    """Posts events to one endpoint, each to the address checked for it, over a connection
    kept open between them where the receiver allows."""

    def __init__(self, endpoint: Endpoint) -> None:
        self.endpoint = endpoint
        self.connection: Connection | None = None
        self.to: tuple[str, str, int, str] | None = None  # where the connection goes
        self.connect_timeout = settings.PETSTORE_WEBHOOK_CONNECT_TIMEOUT_SECONDS
        self.timeout = settings.PETSTORE_WEBHOOK_TIMEOUT_SECONDS

    def __enter__(self) -> Sender:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._close()

    def attempt(self, event: Event) -> Attempt:
        try:
            where = target(self.endpoint.url)
        except Refused as exc:
            return Attempt(None, f"{REFUSED}{exc}", no_answer=AttemptError.ADDRESS)
        body = body_of(event)
        at = datetime.now(UTC)
        headers = signed_headers(self.endpoint.secrets_at(at), event.uid, at, body)
        headers[HOST] = host_header(where)
        started = time.monotonic()
        try:
            connection = self._connection(where)
            connection.request(
                "POST",
                where.path,
                body=body,
                headers=headers,
                preload_content=False,
                decode_content=False,  # only the start is kept, as the receiver sent it
            )
        except UNANSWERED as exc:
            return self._failed(started, exc, "No connection", self.connect_timeout)
        connection.timeout = self.timeout  # the whole answer's, from here (TimedResponse)
        try:
            response = connection.getresponse()
            # The start of the answer only: a receiver's body may be of any size.
            start = response.read(RESPONSE_CHARS)
            # A connection carries the next delivery only once this answer has been read whole.
            whole = response.read(1) == b""
        except UNANSWERED as exc:
            return self._failed(started, exc, "No whole answer", self.timeout)
        # After an interim answer (1xx) the final one is still to come, unread.
        if not whole or response.status < 200:
            self._close()
        retry_after = None
        if response.status in (429, 503):
            retry_after = answers.retry_after(response.headers.get(RETRY_AFTER, ""), at)
        return Attempt(
            response.status,
            retry_after=retry_after,
            duration_ms=_ms_since(started),
            response=answers.printable(start, RESPONSE_CHARS),
        )

    def _failed(self, started: float, exc: Exception, what: str, seconds: int) -> Attempt:
        """No answer, because of ``exc``: the connection is closed, and why is said as
        printable text (a timeout, as the ``seconds`` that were up)."""
        self._close()
        why = _why(exc)
        if why == AttemptError.TIMEOUT:
            error = f"{what}: timed out after {seconds} s"
        else:
            error = f"{what}: {type(exc).__name__}: {exc}"
        return Attempt(
            None,
            answers.printable(error, ERROR_CHARS),
            duration_ms=_ms_since(started),
            no_answer=why,
        )

    def _connection(self, where: Target) -> Connection:
        """The connection to the address just checked, open still or made anew."""
        to = (where.scheme, where.host, where.port, where.address)
        if self.connection is not None and self.to == to and self.connection.is_connected:
            return self.connection
        self._close()
        if where.scheme == "https":
            self.connection = TLSConnection(
                where.address,
                where.port,
                server_hostname=where.host,  # sent as SNI, and the certificate checked for it
                timeout=self.connect_timeout,
            )
        else:
            self.connection = PlainConnection(
                where.address, where.port, timeout=self.connect_timeout
            )
        self.to = to
        return self.connection

    def _close(self) -> None:
        if self.connection is not None:
            self.connection.close()
        self.connection = self.to = None


class Until(io.RawIOBase):
    """A socket's bytes, each read waiting only for the time left until ``at``
    (``time.monotonic``): a receiver trickling its answer cannot hold it past its timeout, as
    it could the socket's own timeout, which each byte would start again."""

    def __init__(self, sock: socket.socket, at: float) -> None:
        self.sock, self.at = sock, at
        self.stream = sock.makefile("rb", buffering=0)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: WriteableBuffer) -> int | None:
        left = self.at - time.monotonic()
        if left <= 0:
            raise TimeoutError
        self.sock.settimeout(left)
        return self.stream.readinto(buffer)

    def close(self) -> None:
        self.stream.close()
        super().close()


class TimedResponse(HTTPResponse):
    """An answer read whole within the socket's timeout from when it is awaited, status line to
    the last byte, however the receiver trickles it."""

    def __init__(self, sock: socket.socket, *args: Any, **kwargs: Any) -> None:
        super().__init__(sock, *args, **kwargs)
        timeout = sock.gettimeout()
        if timeout is not None:
            self.fp.close()
            self.fp = io.BufferedReader(Until(sock, time.monotonic() + timeout))


class PlainConnection(HTTPConnection):
    response_class = TimedResponse


class TLSConnection(HTTPSConnection):
    response_class = TimedResponse


Connection = PlainConnection | TLSConnection


# What a receiver's answer (or its absence) can raise while it is read: urllib3's errors,
# http.client's for what it cannot parse, and the socket's.
UNANSWERED = (urllib3.exceptions.HTTPError, HTTPException, OSError, ValueError)


def _ms_since(started: float) -> int:
    return round((time.monotonic() - started) * 1000)


def _why(exc: Exception) -> AttemptError:
    # A refused connection is a ConnectTimeoutError to urllib3, for its callers of old.
    if isinstance(exc, urllib3.exceptions.NewConnectionError):
        return AttemptError.CONNECTION
    if isinstance(exc, (urllib3.exceptions.TimeoutError, TimeoutError)):
        return AttemptError.TIMEOUT
    if isinstance(exc, (urllib3.exceptions.SSLError, ssl.SSLError, ssl.CertificateError)):
        return AttemptError.TLS
    return AttemptError.CONNECTION
