from __future__ import annotations

from typing import cast

from django.http import HttpResponse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import viewsets
from rest_framework.request import Request

from events import positions, selectors
from events.serializers import EventListQuery, EventSerializer
from events.types import visible_types
from petstore import pagination
from petstore.callers import caller
from petstore.openapi import error_responses, response_headers
from petstore.pagination import KeysetPagination
from petstore.scopes import Scope


@extend_schema(tags=["events"])
class EventViewSet(viewsets.GenericViewSet):
    """What happened that the calling key may see, oldest first."""

    pagination_class = KeysetPagination
    serializer_class = EventSerializer
    required_scopes = {"list": Scope.EVENTS_READ}

    @extend_schema(
        operation_id="listEvents",
        summary="List events",
        description="Animals added and moved (every account's), and the calling account's "
        "orders moving and its day window passing 80 % and 100 %, as far as the key's scopes "
        "allow, oldest first, kept 30 days. Follow the `Link` header, also from the last page "
        "later on: no event is missed or repeated.",
        parameters=[EventListQuery, *response_headers("Link", on=(200,))],
        responses={
            200: OpenApiResponse(EventSerializer(many=True), "A page of events."),
            **error_responses(400),
        },
    )
    def list(self, request: Request) -> HttpResponse:
        query = EventListQuery.parse(request.query_params)
        # Two numbers: a cursor issued before the feed's positions (events.selectors).
        wanted = pagination.page(request, query, sizes=(1, 2))
        key = caller(request)
        types = visible_types(key.scope_set, key.is_publishable)
        if "type" in query:
            types = [kind for kind in query["type"] if kind in types]
        positions.place_committed()
        events = selectors.event_page(
            account_id=key.account_id, types=types, after=wanted.position, limit=wanted.limit + 1
        )
        rows = [EventSerializer.of(event) for event in events]
        # Every event listed has its position (events.selectors).
        placed = [(cast(int, event.position),) for event in events]
        return pagination.page_response(request, wanted, rows, placed)
