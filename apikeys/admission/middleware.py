"""Admission as middleware: every request under /v1 is admitted or refused before any view, and
every answer there, refusals and errors included, carries the limit's headers. It is one of the
API's own layers (settings.API_MIDDLEWARE), which only /v1 requests pass through."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime
from typing import cast

from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse

from apikeys import services
from apikeys.admission.admit import admit
from apikeys.admission.result import Admission, ForeignOrigin
from apikeys.limiter import PEEK_WINDOW, Subject, limiter
from petstore.api_request import ApiRequest
from petstore.errors import ErrorCode, error_response
from petstore.metrics import ADMISSIONS, labelled

logger = logging.getLogger("petstore.ratelimit")


class AdmissionMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        admission = cast(ApiRequest, request).admission = admit(request)
        plan = admission.key.plan[1] if admission.key else "none"
        labelled(ADMISSIONS, outcome(admission), plan).inc()
        response: HttpResponse
        if not admission.decision.allowed:
            response = refusal(admission)
        elif isinstance(admission.error, ForeignOrigin):
            # Answered here whatever the path, like a 429: the key is not this site's to use.
            response = error_response(403, ErrorCode.FORBIDDEN, str(admission.error.detail))
        else:
            response = self.get_response(request)
        decision, key = admission.decision, admission.key
        if response.status_code == 304 and key is not None:
            # A conditional GET whose answer had not changed (petstore.conditional).
            subject = Subject.account(key.account_id, key.limits, key_id=key.id)
            decision = limiter.spare_304(subject, decision)
        for name, value in decision.headers:
            response[name] = value
        return response


def outcome(admission: Admission) -> str:
    """What admission decided, as the operator counts it."""
    if not admission.decision.allowed:
        return "banned" if admission.decision.banned else "refused"
    if isinstance(admission.error, ForeignOrigin):
        return "foreign_origin"
    return "unauthorized" if admission.key is None else "admitted"


def refusal(admission: Admission) -> HttpResponse:
    """The 429 of a request over a limit, and the record of a ban it has just earned."""
    decision = admission.decision
    if decision.new_ban is not None and admission.key is not None:
        _record_ban(admission)
    if decision.banned:
        return error_response(
            429,
            ErrorCode.TEMPORARILY_BANNED,
            "This API key kept calling while rate limited and is banned for "
            f"{decision.retry_after} more seconds; back off exponentially after a 429.",
        )
    if decision.window.name == PEEK_WINDOW:
        return error_response(
            429,
            ErrorCode.RATE_LIMITED,
            f"GET /v1/rate_limit answers {decision.window.limit} times a minute per key; "
            f"retry after {decision.retry_after} seconds. Every response's RateLimit and "
            "X-RateLimit-* headers say the same without a call of its own.",
        )
    return error_response(
        429,
        ErrorCode.RATE_LIMITED,
        f"Rate limit of {decision.window.limit} requests exceeded; "
        f"retry after {decision.retry_after} seconds.",
    )


def _record_ban(admission: Admission) -> None:
    ban, api_key = admission.decision.new_ban, admission.key
    if ban is None or api_key is None:
        return
    try:
        services.ban_record(
            api_key=api_key,
            started_at=datetime.fromtimestamp(ban.started_at, tz=UTC),
            ends_at=datetime.fromtimestamp(ban.ends_at, tz=UTC),
            number=ban.number,
        )
    except DatabaseError:
        # The ban is in force in the shared Redis already; only its record is missing.
        logger.exception("could not record ban #%d of key %s", ban.number, admission.key_prefix)
