from __future__ import annotations

from typing import cast

from django.http import HttpResponse
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.request import Request

from events import positions, selectors
from events.serializers import EventListQuery, EventSerializer, event_schema
from events.types import EVENT_TYPES, visible_types
from petstore import conditional, pagination
from petstore.callers import Caller, caller
from petstore.openapi import error_responses, response_headers
from petstore.pagination import KeysetPagination
from petstore.scopes import Scope
from petstore.viewsets import ConditionalViewSet, Validators

# The query's ``type`` as a generator types it: an array of EventType written comma-separated,
# which EventListQuery parses.
TYPES_PARAMETER = OpenApiParameter(
    "type",
    {
        "type": "array",
        "items": {"$ref": "#/components/schemas/EventType"},
        "minItems": 1,
        "maxItems": len(EVENT_TYPES),
        "uniqueItems": True,
    },
    OpenApiParameter.QUERY,
    style="form",
    explode=False,
    description="Only events of this type, or of any of these (comma-separated).",
)


@extend_schema(tags=["events"])
class EventViewSet(ConditionalViewSet):
    """What happened that the calling key may see, oldest first."""

    pagination_class = KeysetPagination
    serializer_class = EventSerializer
    required_scopes = {"list": Scope.EVENTS_READ}

    @staticmethod
    def versions(action: str, caller: Caller) -> Validators:
        """The events every account sees and the caller's own, from the hour they are kept
        from (``selectors.kept_since``); the key's scopes are in every tag already."""
        hour = selectors.kept_since(timezone.now()).isoformat()
        own = selectors.own_version(caller.account_id)
        return Validators((selectors.SHARED_VERSION, own), (hour,))

    @extend_schema(
        operation_id="listEvents",
        summary="List events",
        description="The events the calling key may see, oldest first, kept 30 days: each "
        "type's schema in `Event` says whose events they are and which keys see them. Follow "
        "the `Link` header, also from the last page later on: no event is missed or repeated.",
        # TYPES_PARAMETER replaces the query's own `type`, a string to DRF.
        parameters=[
            EventListQuery,
            TYPES_PARAMETER,
            *response_headers("Link", on=(200,)),
            *conditional.PARAMETERS,
        ],
        responses={
            200: OpenApiResponse(event_schema(many=True), "A page of events."),
            **conditional.RESPONSES,
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
