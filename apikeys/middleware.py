from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime

from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse

from apikeys import authentication, keycache, ratelimit, services
from apikeys.models import ApiKey
from petstore.errors import error_response, is_api_path

logger = logging.getLogger("petstore.ratelimit")


class RateLimitMiddleware:
    """Admits or refuses each /v1 request by its account's plan (or its address, without a
    valid key) and reports the limit on every response. See ``apikeys.ratelimit``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not is_api_path(request.path_info):
            return self.get_response(request)
        api_key, decision = self._check(request)
        if decision.stale_key:
            # The cached key changed since it was read: read it again from the database, and
            # check again; that read is this request's own, so there is nothing left to verify.
            keycache.clear()
            authentication.forget(request)
            api_key, decision = self._check(request, from_cache=False)
        if decision.allowed:
            response = self.get_response(request)
        else:
            response = self._refusal(api_key, decision)
        for name, value in decision.headers.items():
            response[name] = value
        return response

    @staticmethod
    def _check(
        request: HttpRequest, *, from_cache: bool = True
    ) -> tuple[ApiKey | None, ratelimit.Decision]:
        api_key = authentication.authenticated_key(request)
        if api_key is None:
            return None, ratelimit.check_address(request)
        return api_key, ratelimit.check_account(
            account_id=api_key.account_id,
            key_id=api_key.pk,
            limits=api_key.account.limits,
            key_generation=authentication.key_generation(request) if from_cache else "",
        )

    @staticmethod
    def _refusal(api_key: ApiKey | None, decision: ratelimit.Decision) -> HttpResponse:
        if decision.new_ban is not None and api_key is not None:
            _record_ban(api_key, decision.new_ban)
        if decision.banned:
            return error_response(
                429,
                "temporarily_banned",
                "This API key kept calling while rate limited and is banned for "
                f"{decision.retry_after} more seconds; back off exponentially after a 429.",
            )
        return error_response(
            429,
            "rate_limited",
            f"Rate limit of {decision.window.limit} requests exceeded; "
            f"retry after {decision.retry_after} seconds.",
        )


def _record_ban(api_key: ApiKey, ban: ratelimit.Ban) -> None:
    try:
        services.ban_record(
            api_key=api_key,
            started_at=datetime.fromtimestamp(ban.started_at, tz=UTC),
            ends_at=datetime.fromtimestamp(ban.ends_at, tz=UTC),
            number=ban.number,
        )
    except DatabaseError:
        # The ban is in force in the shared cache already; only its record is missing.
        logger.exception("could not record ban #%d of key %s", ban.number, api_key.prefix)
