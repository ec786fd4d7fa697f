"""Keyset pagination by id: bare JSON arrays, the next page in a ``Link`` header.

Written here rather than taken from DRF's CursorPagination because that one puts the page in an
envelope, answers a bad cursor with 404, and its cursors are plain base64 that a client can
edit. Ours are ``<id>:<mac>``: one HMAC-SHA256 of the path and the id (Django's signing costs
several), so a cursor we did not issue is a 400, and one issued for another listing too. The
query is ``WHERE id > cursor ORDER BY id LIMIT n + 1``: no COUNT(*), no OFFSET, the same cost on
page 1 and page 10,000.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Collection, Sequence
from typing import Any, NamedTuple
from urllib.parse import quote, urlencode

from django.conf import settings
from rest_framework import serializers
from rest_framework.pagination import BasePagination
from rest_framework.request import Request

from petstore.api_request import api_request
from petstore.renderers import JsonAnswer
from petstore.serializers import INT64_MAX, QueryCharField, QueryIntegerField, QuerySerializer

DEFAULT_LIMIT = 20
MAX_LIMIT = 100
_MAC_BYTES = 16


MAX_CURSOR_LENGTH = 200


class PageQuery(QuerySerializer):
    limit = QueryIntegerField(min_value=1, max_value=MAX_LIMIT, default=DEFAULT_LIMIT)
    cursor = QueryCharField(required=False, max_length=MAX_CURSOR_LENGTH)


class Page(NamedTuple):
    limit: int
    after: int  # the last id of the previous page; 0 on the first
    # The listing's own parameters as the client sent them, cursor aside: the next page's URL
    # carries exactly these.
    kept: tuple[tuple[str, str], ...] = ()
    # Where the previous page ended, for a listing ordered by more than its id (the events'
    # feed): () on the first page.
    position: tuple[int, ...] = ()


def _mac(path: str, payload: str) -> str:
    # A key of its own, derived from SECRET_KEY, so that cursors sign nothing else.
    key = hashlib.sha256(b"petstore.cursor\0" + settings.SECRET_KEY.encode()).digest()
    digest = hmac.digest(key, f"{path}\0{payload}".encode(), "sha256")
    return base64.urlsafe_b64encode(digest[:_MAC_BYTES]).rstrip(b"=").decode()


def encode_cursor(path: str, *position: int) -> str:
    payload = ".".join(map(str, position))
    return f"{payload}:{_mac(path, payload)}"


def decode_cursor(path: str, cursor: str) -> int:
    """The id a cursor of ``path``'s listing points after."""
    return decode_position(path, cursor, (1,))[0]


def decode_position(path: str, cursor: str, sizes: Collection[int]) -> tuple[int, ...]:
    """The numbers of a cursor of ``path``'s listing, as many as one of ``sizes``."""
    payload, _, mac = cursor.partition(":")
    parts = payload.split(".")
    if (
        cursor.isascii()  # compare_digest refuses other strings
        and hmac.compare_digest(mac, _mac(path, payload))
        and len(parts) in sizes
        and all(part.isdigit() and int(part) <= INT64_MAX for part in parts)
        and int(parts[-1]) > 0
    ):
        return tuple(map(int, parts))
    raise serializers.ValidationError(
        {"cursor": ["Not a cursor this listing issued; use the Link header's URL."]}
    )


def page(request: Request, query: dict[str, Any], sizes: Collection[int] = (1,)) -> Page:
    """The page that ``query`` (a ``PageQuery``'s parse of the request's parameters) asks for;
    ``sizes``: how many numbers a position of the listing's order may have."""
    cursor = query.get("cursor")
    position = decode_position(request.path, cursor, sizes) if cursor is not None else ()
    params = request.query_params
    # ``query`` holds every parameter the listing declares, given or defaulted.
    # A list sent once per item (``?type=a&type=b``) is kept as one (``type=a,b``).
    kept = tuple(
        (name, ",".join(params.getlist(name)) if isinstance(value, list) else params[name])
        for name, value in query.items()
        if name != "cursor" and name in params
    )
    after = position[0] if position else 0
    return Page(limit=query["limit"], after=after, kept=kept, position=position)


def page_response(
    request: Request,
    page: Page,
    rows: list[dict[str, Any]],
    positions: Sequence[tuple[int, ...]] | None = None,
) -> JsonAnswer:
    """``rows`` (up to ``page.limit + 1``, in the listing's order) as a page, with the next
    page's ``Link`` when there is one; ``positions``: each row's, when it is not its id (a
    feed, whose every page links to what comes after it, the last one too)."""
    headers = {}
    more = len(rows) > page.limit
    rows = rows[: page.limit]
    if positions is not None:
        after = positions[len(rows) - 1] if rows else page.position
        headers["Link"] = _next_link(request, page, after)
    elif more:
        headers["Link"] = _next_link(request, page, (rows[-1]["id"],))
    return JsonAnswer(rows, headers=headers)


def _next_link(request: Request, page: Page, after: tuple[int, ...]) -> str:
    path = request.path
    cursor = (("cursor", encode_cursor(path, *after)),) if after else ()
    # A cursor's ":" may stand as it is in a query (RFC 3986, 3.4); escaped, it would send
    # every character of the cursor through urllib's slow path.
    query = urlencode([*page.kept, *cursor], safe=":")
    # The host petstore.api_http checked, not read and checked again.
    url = f"{request.scheme}://{api_request(request).checked_host}{quote(path)}?{query}"
    return f'<{url}>; rel="next"'


def schema_parameters() -> list[dict[str, Any]]:
    """``limit`` and ``cursor`` as the OpenAPI document lists them."""
    return [
        {
            "name": "limit",
            "in": "query",
            "required": False,
            "description": f"Maximum number of items to return (1 to {MAX_LIMIT}).",
            "schema": {
                "type": "integer",
                "minimum": 1,
                "maximum": MAX_LIMIT,
                "default": DEFAULT_LIMIT,
            },
        },
        {
            "name": "cursor",
            "in": "query",
            "required": False,
            "description": 'Opaque position from the `Link: rel="next"` header of the '
            "previous page.",
            "schema": {"type": "string", "maxLength": MAX_CURSOR_LENGTH},
        },
    ]


class KeysetPagination(BasePagination):
    """What drf-spectacular reads to document a listing (its parameters, a bare array); the
    paging itself is ``page`` and ``page_response``, which no DRF machinery stands between."""

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        return schema

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        return schema_parameters()
