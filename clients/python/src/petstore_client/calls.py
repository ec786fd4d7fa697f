"""What the sync and async resources share: the operation each method calls, the arguments as the
generated code takes them, the answer as its model, and the walk from page to page."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from enum import Enum
from typing import Any, TypeVar
from urllib.parse import parse_qs, urlsplit

import httpx

from .errors import NotFoundError, PetstoreError
from .generated.models import (
    CategoryCreatedEvent,
    OrderApprovedEvent,
    OrderCancelledEvent,
    OrderDeliveredEvent,
    OrderPlacedEvent,
    PetCreatedEvent,
    PetStatusChangedEvent,
    UnknownEvent,
    UsageThresholdEvent,
    WebhookEndpointDisabledEvent,
)
from .generated.types import UNSET, Response, Unset
from .transport import AsyncSdkTransport, RateLimit, SdkTransport

T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])

# An event of the feed, as list_events parses it (tests/clients checks it is the generated union).
Event = (
    CategoryCreatedEvent
    | OrderApprovedEvent
    | OrderCancelledEvent
    | OrderDeliveredEvent
    | OrderPlacedEvent
    | PetCreatedEvent
    | PetStatusChangedEvent
    | UsageThresholdEvent
    | WebhookEndpointDisabledEvent
    | UnknownEvent
)
EVENT_CLASSES = (
    CategoryCreatedEvent,
    OrderApprovedEvent,
    OrderCancelledEvent,
    OrderDeliveredEvent,
    OrderPlacedEvent,
    PetCreatedEvent,
    PetStatusChangedEvent,
    UsageThresholdEvent,
    WebhookEndpointDisabledEvent,
    UnknownEvent,
)

NEXT = re.compile(r'<([^>]*)>\s*;\s*rel="?next"?')


def operation(operation_id: str) -> Callable[[F], F]:
    """Names the document's operation a method calls: tests/clients checks that every one of the
    document's operations has a method."""

    def mark(method: F) -> F:
        setattr(method, "operation_id", operation_id)  # noqa: B010 (a function's own attribute)
        return method

    return mark


class Plain(str):
    """A plain string where the generated code reads an enum member's ``value``: ``"available"``
    as well as ``ListPetsStatus.AVAILABLE``, and a value this SDK does not list yet, which the
    service judges."""

    @property
    def value(self) -> str:
        return str(self)


def given(**arguments: Any) -> dict[str, Any]:
    """The arguments given (``None``: not given, so the generated call's default holds, and one
    generated before a parameter existed is not handed it), plain strings made ``Plain``."""
    return {name: _sendable(value) for name, value in arguments.items() if value is not None}


def _sendable(value: Any) -> Any:
    if isinstance(value, str) and not isinstance(value, Enum):
        return Plain(value)
    if isinstance(value, list):
        return [_sendable(item) for item in value]
    return value


def ids(value: int | Sequence[int] | None) -> list[int] | None:
    """One id or several, as the list a comma-separated parameter takes."""
    if value is None:
        return None
    return [value] if isinstance(value, int) else list(value)


def model(response: Response[Any], kind: type[T]) -> T:
    """The answer's model: the transport raised every error already."""
    parsed: object = response.parsed
    if isinstance(parsed, kind):
        return parsed
    raise unexpected(response)


def models(response: Response[Any], kind: type[T]) -> list[T]:
    parsed: object = response.parsed
    items = [item for item in parsed if isinstance(item, kind)] if isinstance(parsed, list) else []
    if not isinstance(parsed, list) or len(items) != len(parsed):
        raise unexpected(response)
    return items


def events(response: Response[Any]) -> list[Event]:
    parsed: object = response.parsed
    if not isinstance(parsed, list):
        raise unexpected(response)
    return [item for item in parsed if isinstance(item, EVENT_CLASSES)]


def nothing(response: Response[Any]) -> None:
    """An answer without a body (``204``)."""
    if response.status_code >= 300:
        raise unexpected(response)


def first(found: list[T], response: Response[Any], what: str) -> T:
    """The one item a listing by id found; none is the service's ``404``, as a ``NotFoundError``
    with its Error body."""
    if found:
        return found[0]
    message = f"No {what} found."
    body = {"code": "not_found", "message": message, "status": 404}
    raise NotFoundError(404, body, httpx.Headers(response.headers))


def unexpected(response: Response[Any]) -> PetstoreError:
    return PetstoreError(int(response.status_code), None, httpx.Headers(response.headers))


class LatestLimit:
    """The limit's headers of the latest answer, as numbers, read without a call: what
    ``petstore.rate_limit`` was before it became a resource (``petstore.rate_limit.get()``), so
    that ``petstore.rate_limit.remaining`` reads as it did. False until an answer carried them
    (it was ``None``); ``latest`` is the ``RateLimit`` itself, or ``None``."""

    def __init__(self, transport: SdkTransport | AsyncSdkTransport) -> None:
        self._transport = transport

    @property
    def latest(self) -> RateLimit | None:
        return self._transport.rate_limit

    @property
    def limit(self) -> int:
        return self._latest().limit

    @property
    def remaining(self) -> int:
        return self._latest().remaining

    @property
    def reset(self) -> int:
        """Unix time, in seconds, at which the window with the fewest requests left ends."""
        return self._latest().reset

    def __bool__(self) -> bool:
        return self.latest is not None

    def _latest(self) -> RateLimit:
        if self.latest is None:
            raise AttributeError("no answer has carried the limit's headers yet")
        return self.latest


class Pages:
    """Where a walk through a listing goes after each page. A listing ends when it stops linking
    or a page is empty; the events feed links on from its last page, so that ``following`` it
    waits there and asks again."""

    def __init__(self, *, following: bool) -> None:
        self.following = following
        self.cursor: str | Unset = UNSET

    def turn(self, response: Response[Any], got: int) -> bool:
        """Whether there is a next page to ask for (at ``self.cursor``)."""
        found = next_cursor(response.headers.get("Link"))
        if found is None or (not got and not self.following):
            return False
        self.cursor = found
        return True


def next_cursor(link: str | None) -> str | None:
    """The cursor of the ``rel="next"`` link; the link keeps the listing's other parameters,
    which the next call sends again itself, typed."""
    # Not split at commas: a listing's own parameters may hold some (categoryId=1,2).
    match = NEXT.search(link or "")
    if not match:
        return None
    cursors = parse_qs(urlsplit(match[1]).query).get("cursor")
    return cursors[0] if cursors else None
