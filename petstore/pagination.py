"""Keyset pagination by id: bare JSON arrays, the next page in a ``Link`` header.

Written here rather than taken from DRF's CursorPagination because that one puts the page in an
envelope, answers a bad cursor with 404, and its cursors are plain base64 that a client can
edit. Ours are signed (a cursor we did not issue is a 400), bound to the path that issued them,
and the query is ``WHERE id > cursor ORDER BY id LIMIT n + 1``: no COUNT(*), no OFFSET, the same
cost on page 1 and page 10,000.
"""

from __future__ import annotations

from typing import Any

from django.core import signing
from django.db.models import QuerySet
from rest_framework import serializers
from rest_framework.pagination import BasePagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param

from petstore.serializers import INT64_MAX, QueryCharField, QueryIntegerField, QuerySerializer

DEFAULT_LIMIT = 20
MAX_LIMIT = 100


class PageQuery(QuerySerializer):
    limit = QueryIntegerField(min_value=1, max_value=MAX_LIMIT, default=DEFAULT_LIMIT)
    cursor = QueryCharField(required=False, max_length=200)


def _salt(request: Request) -> str:
    return "petstore.cursor:" + request.path


class KeysetPagination(BasePagination):
    def paginate_queryset(
        self, queryset: QuerySet[Any], request: Request, view: Any = None
    ) -> list[Any]:
        query = PageQuery.parse(request.query_params)
        limit = query["limit"]
        cursor = query.get("cursor")
        if cursor is not None:
            queryset = queryset.filter(pk__gt=self._decode(cursor, request))
        rows = list(queryset.order_by("pk")[: limit + 1])
        self.request = request
        self.next_after: int | None = None
        if len(rows) > limit:
            rows = rows[:limit]
            last = rows[-1]
            self.next_after = last["id"] if isinstance(last, dict) else last.pk
        return rows

    @staticmethod
    def _decode(cursor: str, request: Request) -> int:
        try:
            after = signing.loads(cursor, salt=_salt(request))
        except signing.BadSignature:
            after = None
        if isinstance(after, bool) or not isinstance(after, int) or not 0 < after <= INT64_MAX:
            raise serializers.ValidationError(
                {"cursor": ["Not a cursor this listing issued; use the Link header's URL."]}
            )
        return after

    def get_paginated_response(self, data: Any) -> Response:
        headers = {}
        if self.next_after is not None:
            cursor = signing.dumps(self.next_after, salt=_salt(self.request))
            url = replace_query_param(self.request.build_absolute_uri(), "cursor", cursor)
            headers["Link"] = f'<{url}>; rel="next"'
        return Response(data, headers=headers)

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        return schema

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
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
                "schema": {"type": "string"},
            },
        ]
