"""Where an API request is admitted: the key read and checked, the caller limited or refused.

For every request under /v1, in this order:

1. The bearer key is read from ``Authorization``. A malformed one is refused on its shape and
   checksum, without a query (``apikeys.keys``).
2. A well-formed key is found by digest (``apikeys.keyring``: PostgreSQL once, then the process
   cache) and checked: revoked, expired, suspended; and a publishable key, against the
   request's ``Origin``: one sent from a web origin it does not list is refused as if it had no
   key, so that another site cannot spend a widget's quota from its visitors' browsers.
3. The caller is counted (``apikeys.limiter``): a valid key against its account's plan, anything
   else against its client address. One Redis round trip. If the key came from the cache and
   has changed since, nothing was counted: it is read again from PostgreSQL and counted then.
   ``GET /v1/rate_limit`` is the exception: it reads the account's windows without counting
   against them, in the same one round trip that counts it against a small window of its own.
4. Over a limit, the answer is a 429 from here, and the view never runs; a publishable key from
   a foreign origin is a 403 from here; otherwise the view runs and finds the outcome on the
   request: ``request.api_key`` and ``request.account`` for a valid key, ``request.auth_error``
   for a key that was refused (the DRF authentication class raises it, so that the view's own
   401 is DRF's). The request log reads the same attributes; ``apikeys.cors`` reads
   ``request.cors_origins``, the origins of the key sent, to answer CORS for them.
5. Every answer under /v1 (401, 403, 404, 405, 500 and 429 included) carries the limit's
   headers, both families (``Decision.headers``).

This is middleware rather than a DRF throttle so that unknown paths, wrong methods and crashes
are limited and reported too, and a refused request reaches no view.
"""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.core.signals import setting_changed
from django.db import DatabaseError
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from rest_framework.exceptions import APIException, AuthenticationFailed, PermissionDenied

from apikeys import keys, services
from apikeys.keyring import MAX_ENTRIES, Found, keyring
from apikeys.limiter import PEEK_WINDOW, Decision, Policy, Subject, limiter
from apikeys.models import ApiKey
from petstore.errors import ServiceUnavailable, error_response, is_api_path
from petstore.headers import set_our_headers

logger = logging.getLogger("petstore.ratelimit")

RATE_LIMIT_PATH = "/v1/rate_limit"
# GET /v1/rate_limit per key per minute: enough to poll every second, little enough to be cheap.
RATE_LIMIT_READS_PER_MINUTE = 60


class ForeignOrigin(PermissionDenied):
    """A publishable key sent from a web origin it is not bound to."""


class ApiGatewayMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not is_api_path(request.path_info):
            return self.get_response(request)
        # ALLOWED_HOSTS, checked here since the admin's CommonMiddleware does not run on /v1:
        # DisallowedHost becomes a 400 Error body. Kept for the Link header's URLs.
        request.checked_host = checked_host(request)  # type: ignore[attr-defined]
        decision = admit(request)
        fields = request.META.get("QUERY_STRING", "").count("&") + 1
        if fields > settings.DATA_UPLOAD_MAX_NUMBER_FIELDS and decision.allowed:
            # Django would refuse them only when a view reads them; refused here for every path,
            # the public schema included, as what it is: the client's mistake.
            refused = error_response(
                400, "malformed_request", "The request has too many query parameters."
            )
            set_our_headers(refused, decision.headers)
            return refused
        error = request.auth_error  # type: ignore[attr-defined]
        response: HttpResponse
        if decision.allowed and isinstance(error, ForeignOrigin):
            # Answered here whatever the path, like a 429: the key is not this site's to use.
            response = error_response(403, "forbidden", str(error.detail))
        elif decision.allowed:
            response = self.get_response(request)
        else:
            response = _refusal(request.api_key, decision)  # type: ignore[attr-defined]
        set_our_headers(response, decision.headers)
        return response


# The Host headers this process has seen pass ALLOWED_HOSTS: Django's check parses the header
# with a regular expression and matches it against every pattern, which costs as much as the
# rest of admitting a request; the answer only changes with the settings.
_allowed_hosts: set[str] = set()
MAX_ALLOWED_HOSTS_KEPT = 1_000


def checked_host(request: HttpRequest) -> str:
    """``request.get_host()``, which raises DisallowedHost for a host ALLOWED_HOSTS refuses."""
    raw = request.META.get("HTTP_HOST")
    if raw in _allowed_hosts:
        return raw
    host = request.get_host()
    # get_host answers the Host header itself unless a proxy's header takes its place.
    if raw and host == raw and not settings.USE_X_FORWARDED_HOST:
        if len(_allowed_hosts) >= MAX_ALLOWED_HOSTS_KEPT:
            _allowed_hosts.clear()
        _allowed_hosts.add(raw)
    return host


@receiver(setting_changed)
def _forget_allowed_hosts(*, setting: str, **kwargs: Any) -> None:
    # Tests, and nothing else, change settings while the process runs.
    if setting in ("ALLOWED_HOSTS", "USE_X_FORWARDED_HOST", "DEBUG"):
        _allowed_hosts.clear()


def admit(request: HttpRequest) -> Decision:
    """Authenticate and count ``request``; sets ``api_key``, ``account`` and ``auth_error``."""
    request.api_key = request.account = request.auth_error = None  # type: ignore[attr-defined]
    request.cors_origins = frozenset()  # type: ignore[attr-defined]
    request.rate_limit_standing = None  # type: ignore[attr-defined]
    token = bearer_token(request)
    if token is None:
        return limiter.check(address_subject(request))
    found = _find(request, token, cached=True)
    if found.api_key is None:
        return limiter.check(address_subject(request))
    decision = _count(request, found.api_key, found.generation)
    if decision.stale_key:
        # The key, its account or its plan changed since this process cached it. The lookup
        # below is this request's own, so there is nothing left to verify the second time.
        keyring.clear()
        found = _find(request, token, cached=False)
        if found.api_key is None:
            return limiter.check(address_subject(request))
        decision = _count(request, found.api_key)
    return decision


def _count(request: HttpRequest, api_key: ApiKey, generation: str = "") -> Decision:
    subject = account_subject(api_key)
    if request.path_info == RATE_LIMIT_PATH and request.method in ("GET", "HEAD"):
        decision, standing = limiter.peek(
            subject, per_minute=RATE_LIMIT_READS_PER_MINUTE, generation=generation
        )
        request.rate_limit_standing = standing  # type: ignore[attr-defined]
        return decision
    return limiter.check(subject, generation=generation)


def bearer_token(request: HttpRequest) -> str | None:
    """The token of ``Authorization: Bearer <token>``, or None for no header or another scheme."""
    scheme, _, token = request.META.get("HTTP_AUTHORIZATION", "").partition(" ")
    if scheme.lower() != "bearer":
        return None
    return token.strip()


def _find(request: HttpRequest, token: str, *, cached: bool) -> Found:
    """Look the key up and check it; on refusal, ``request.auth_error`` says why."""
    if not token:
        return _refuse(request, AuthenticationFailed("The bearer token is empty."))
    now = timezone.now()
    digest = keys.digest(token)
    try:
        found = keyring.cached(digest, now) if cached else None
        read = found is None
        if found is None:
            # Not a key this process holds: its shape first, then PostgreSQL. (A cached key had
            # its shape checked when it was read.)
            if not keys.is_well_formed(token):
                return _refuse(request, AuthenticationFailed("This is not a valid API key."))
            found = keyring.read(digest)
        api_key = found.api_key
        if api_key is None:
            return _refuse(request, AuthenticationFailed("This API key is not recognised."))
        # Even a refused key's own origins may read why it was refused (apikeys.cors).
        request.cors_origins = api_key.origin_set  # type: ignore[attr-defined]
        # (The cache serves only keys usable at ``now``.)
        if read and (reason := api_key.refusal_reason(now)) is not None:
            return _refuse(request, AuthenticationFailed(reason))
        if (reason := api_key.origin_refusal(request.META.get("HTTP_ORIGIN"))) is not None:
            if cached:
                # A cached key may predate a change of its origins, and the limiter's check
                # that would say so is not made for a refusal: only a fresh read refuses.
                return _find(request, token, cached=False)
            return _refuse(request, ForeignOrigin(reason))
        api_key.touch(now)
    except DatabaseError as exc:
        # Answered as 503 by the view; meanwhile the caller is limited by address.
        error = ServiceUnavailable()
        error.__cause__ = exc
        return _refuse(request, error)
    request.api_key = api_key  # type: ignore[attr-defined]
    request.account = api_key.account  # type: ignore[attr-defined]
    request.auth_error = None  # type: ignore[attr-defined]
    return found


def _refuse(request: HttpRequest, error: APIException) -> Found:
    request.api_key = request.account = None  # type: ignore[attr-defined]
    request.auth_error = error  # type: ignore[attr-defined]
    return Found(None)


# The subject of each key the key cache holds, made once per key instance: the cache replaces
# an instance, never edits it, when the key, its account or its plan changes (apikeys.keyring).
_subjects: dict[int, tuple[ApiKey, Subject]] = {}


def account_subject(api_key: ApiKey) -> Subject:
    made = _subjects.get(id(api_key))
    if made is not None and made[0] is api_key:
        return made[1]
    subject = Subject.account(api_key.account_id, api_key.account.limits, key_id=api_key.pk)
    if len(_subjects) >= MAX_ENTRIES:
        _subjects.clear()
    _subjects[id(api_key)] = (api_key, subject)
    return subject


def address_subject(request: HttpRequest) -> Subject:
    """Requests without a valid key count against the client's address: an IPv4 address, or an
    IPv6 /64, since one subscriber usually holds a whole /64 (2^64 addresses)."""
    address = client_address(request)
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        pass
    else:
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            address = str(ip.ipv4_mapped)
        elif isinstance(ip, ipaddress.IPv6Address):
            address = str(ipaddress.IPv6Network((int(ip), 64), strict=False))
        else:
            address = str(ip)
    return Subject.address(address, anonymous_policy())


def anonymous_policy() -> Policy:
    """``PETSTORE_ANONYMOUS_RATE``: ``N/m`` (per minute) or ``N/d`` (per UTC day)."""
    rate = settings.PETSTORE_ANONYMOUS_RATE
    count, _, unit = rate.partition("/")
    if unit == "m":
        return Policy(per_minute=int(count))
    return Policy(per_minute=int(count), per_day=int(count))


def client_address(request: HttpRequest) -> str:
    """The caller's address: REMOTE_ADDR, or the entry our own proxies vouch for."""
    proxies = settings.PETSTORE_TRUSTED_PROXIES
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if proxies > 0 and forwarded:
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if len(hops) >= proxies:
            return hops[-proxies]
    return str(request.META.get("REMOTE_ADDR", ""))


def _refusal(api_key: ApiKey | None, decision: Decision) -> HttpResponse:
    if decision.new_ban is not None and api_key is not None:
        _record_ban(api_key, decision)
    if decision.banned:
        return error_response(
            429,
            "temporarily_banned",
            "This API key kept calling while rate limited and is banned for "
            f"{decision.retry_after} more seconds; back off exponentially after a 429.",
        )
    if decision.window.name == PEEK_WINDOW:
        return error_response(
            429,
            "rate_limited",
            f"GET /v1/rate_limit answers {decision.window.limit} times a minute per key; "
            f"retry after {decision.retry_after} seconds. Every response's RateLimit and "
            "X-RateLimit-* headers say the same without a call of its own.",
        )
    return error_response(
        429,
        "rate_limited",
        f"Rate limit of {decision.window.limit} requests exceeded; "
        f"retry after {decision.retry_after} seconds.",
    )


def _record_ban(api_key: ApiKey, decision: Decision) -> None:
    ban = decision.new_ban
    if ban is None:
        return
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
