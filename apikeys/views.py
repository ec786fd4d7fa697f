from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import viewsets
from rest_framework.request import Request
from rest_framework.response import Response

from apikeys.authentication import caller_account
from apikeys.serializers import UsageDaySerializer, UsageQuery
from apikeys.usage import usage_history


@extend_schema(tags=["usage"])
class UsageViewSet(viewsets.GenericViewSet):
    """The calling account's own usage, day by day."""

    serializer_class = UsageDaySerializer
    # The scope a key needs (issue 13's scopes): any key may read its own account's usage; a
    # key with only read scopes included. Set when scopes are enforced.
    required_scope: str | None = None

    @extend_schema(
        operation_id="getUsage",
        summary="My usage, day by day",
        description="The calling account's requests per UTC day, all its keys together, "
        "oldest day first, today (live) last: admitted, refused as over a limit, refused "
        "while banned, and that day's limits. Days without requests are listed with zeros.",
        parameters=[UsageQuery],
        responses={200: OpenApiResponse(UsageDaySerializer(many=True), "One entry per day.")},
    )
    def list(self, request: Request) -> Response:
        days = UsageQuery.parse(request.query_params)["days"]
        history = usage_history(account=caller_account(request), days=days)
        return Response(UsageDaySerializer(history.days, many=True).data)
