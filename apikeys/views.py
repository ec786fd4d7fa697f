from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import viewsets
from rest_framework.request import Request
from rest_framework.response import Response

from apikeys.admission.admit import RATE_LIMIT_READS_PER_MINUTE
from apikeys.admission.result import admission_of
from apikeys.authentication import caller_key
from apikeys.scopes import HasScope, SecretKeysOnly
from apikeys.serializers import RateLimitSerializer, UsageDaySerializer, UsageQuery
from apikeys.usage import usage_history
from apikeys.windows import in_words
from petstore.errors import ServiceUnavailable
from petstore.openapi import error_responses
from petstore.renderers import JsonAnswer


@extend_schema(tags=["rate limits"])
class RateLimitViewSet(viewsets.ViewSet):
    # Any valid key may read its own limits, a publishable one too.
    required_scopes = {"retrieve": None}

    @extend_schema(
        operation_id="getRateLimit",
        summary="Read my rate limits",
        description=f"The calling account's plan, each of its windows ({in_words()}: limit, "
        "used, remaining, reset) and the calling key's ban, if one is in force. "
        "It does not count against the plan: it is limited on its own, to "
        f"{RATE_LIMIT_READS_PER_MINUTE} calls a minute per key, and its `X-RateLimit-*` and "
        "`RateLimit` headers describe that window, not the plan's.",
        responses={
            200: OpenApiResponse(RateLimitSerializer, "The limits, as they stand."),
            **error_responses(),
        },
    )
    def retrieve(self, request: Request) -> Response:
        key = caller_key(request)
        # Read in the round trip that admitted this request.
        admission = admission_of(request)
        standing = admission.standing if admission is not None else None
        if standing is None:
            raise ServiceUnavailable("The limits could not be read; try again shortly.")
        ban: dict[str, Any] | None = None
        if standing.ban_ends_at is not None:
            ban = {
                "endsAt": standing.ban_ends_at,
                "retryAfter": max(1, standing.ban_ends_at - standing.now),
            }
        body = {
            "plan": {"code": key.plan.code, "name": key.plan.name},
            "windows": [{**window._asdict(), "used": window.used} for window in standing.windows],
            "ban": ban,
        }
        return Response(RateLimitSerializer(body).data)


@extend_schema(tags=["usage"])
class UsageViewSet(viewsets.GenericViewSet):
    """The calling account's own usage, day by day."""

    serializer_class = UsageDaySerializer
    # Any secret key may read its own account's usage, one with only read scopes included; a
    # publishable key may not (apikeys.scopes.SecretKeysOnly).
    required_scopes = {"list": None}
    permission_classes = [HasScope, SecretKeysOnly]

    @extend_schema(
        operation_id="getUsage",
        summary="My usage, day by day",
        description="The calling account's requests per UTC day, all its keys together, "
        "oldest day first, today (live) last: admitted, refused as over a limit, refused "
        "while banned, and that day's limits. Days without requests are listed with zeros. "
        "Any secret key may call it; publishable keys may not.",
        parameters=[UsageQuery],
        responses={
            200: OpenApiResponse(UsageDaySerializer(many=True), "One entry per day."),
            **error_responses(400),
        },
    )
    def list(self, request: Request) -> HttpResponse:
        days = UsageQuery.parse(request.query_params)["days"]
        key = caller_key(request)
        history = usage_history(account_id=key.account_id, limits=key.limits, days=days)
        return JsonAnswer(UsageDaySerializer(history.days, many=True).data)
