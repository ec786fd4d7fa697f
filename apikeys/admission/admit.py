"""The admission of one API request, in the order it happens.

1. **Read**: the bearer key from ``Authorization``; a request without one is counted against
   its client's address.
2. **Find**: by digest, in the process cache or else PostgreSQL (``apikeys.keyring``); a token
   that is not even shaped like a key is refused without a query (``apikeys.keys``).
3. **Check**: revoked, expired, suspended; a publishable key against the request's ``Origin``,
   so that another site cannot spend a widget's quota from its visitors' browsers.
4. **Count**: one Redis round trip (``apikeys.limiter``), against the account's plan for a valid
   key, against the client's address for anything else. ``GET /v1/rate_limit`` reads the
   account's windows in that round trip instead of counting against them.
5. A key served from the cache may be out of date: the count then says so (it counted nothing)
   and the key is read again from PostgreSQL, once. Refusing is the middleware's.
"""

from __future__ import annotations

from django.conf import settings
from django.db import DatabaseError
from django.http import HttpRequest
from django.utils import timezone
from rest_framework.exceptions import APIException, AuthenticationFailed

from apikeys import keys
from apikeys.admission.result import Admission, ForeignOrigin
from apikeys.keyring import keyring
from apikeys.limiter import Policy, Subject, limiter
from petstore.addresses import client_address, subscriber
from petstore.errors import ServiceUnavailable

RATE_LIMIT_PATH = "/v1/rate_limit"
# GET /v1/rate_limit per key per minute: enough to poll every second, little enough to be cheap.
RATE_LIMIT_READS_PER_MINUTE = 60


def admit(request: HttpRequest) -> Admission:
    token = bearer_token(request)
    if token is None:
        return _by_address(request)
    if not token:
        return _by_address(request, AuthenticationFailed("The bearer token is empty."))
    for use_cache in (True, False):
        admission = _admit_key(request, token, use_cache=use_cache)
        if admission is not None:
            return admission
    raise AssertionError("a key read from the database is always decided")


def bearer_token(request: HttpRequest) -> str | None:
    """The token of ``Authorization: Bearer <token>``, or None for no header or another scheme."""
    scheme, _, token = request.META.get("HTTP_AUTHORIZATION", "").partition(" ")
    if scheme.lower() != "bearer":
        return None
    return token.strip()


def _admit_key(request: HttpRequest, token: str, *, use_cache: bool) -> Admission | None:
    """The admission of a request with this key, or None when a key from the cache turned out
    to need a fresh read."""
    digest = keys.digest(token)
    try:
        found = keyring.cached(digest) if use_cache else None
        from_cache = found is not None
        if found is None:
            # Not a key this process holds: its shape first, then PostgreSQL. (A cached key had
            # its shape checked when it was read.)
            if not keys.is_well_formed(token):
                return _by_address(request, AuthenticationFailed("This is not a valid API key."))
            found = keyring.read(digest)
        api_key = found.api_key
        if api_key is None:
            return _by_address(request, AuthenticationFailed("This API key is not recognised."))
        refusal = api_key.use(timezone.now(), request.META.get("HTTP_ORIGIN"))
        if refusal is not None:
            # A cached key may predate its restoring (a reactivated account) or a change of its
            # origins: only a fresh read refuses.
            if from_cache:
                return None
            error = ForeignOrigin if refusal.foreign_origin else AuthenticationFailed
            return _by_address(request, error(refusal.reason), api_key.origin_set)
    except DatabaseError as exc:
        # The view answers 503; meanwhile the caller is limited by address.
        unavailable = ServiceUnavailable()
        unavailable.__cause__ = exc
        return _by_address(request, unavailable)
    # Counted against the account; GET /v1/rate_limit reads its windows instead. The second
    # attempt's read is this request's own: there is no generation left to verify.
    generation = found.generation if use_cache else ""
    subject = Subject.account(api_key.account_id, api_key.account.limits, key_id=api_key.pk)
    standing = None
    if request.path_info == RATE_LIMIT_PATH and request.method in ("GET", "HEAD"):
        per_minute = RATE_LIMIT_READS_PER_MINUTE
        decision, standing = limiter.peek(subject, per_minute=per_minute, generation=generation)
    else:
        decision = limiter.check(subject, generation=generation)
    if decision.stale_key:
        keyring.clear()
        return None
    return Admission(
        decision,
        key=api_key,
        account=api_key.account,
        origins=api_key.origin_set,
        standing=standing,
    )


def _by_address(
    request: HttpRequest, error: APIException | None = None, origins: frozenset[str] = frozenset()
) -> Admission:
    """Requests without a valid key count against the client's address."""
    subject = Subject.address(subscriber(client_address(request)), anonymous_policy())
    return Admission(limiter.check(subject), error=error, origins=origins)


def anonymous_policy() -> Policy:
    """``PETSTORE_ANONYMOUS_RATE``: ``N/m`` (per minute) or ``N/d`` (per UTC day)."""
    count, _, unit = settings.PETSTORE_ANONYMOUS_RATE.partition("/")
    if unit == "m":
        return Policy(per_minute=int(count))
    return Policy(per_minute=int(count), per_day=int(count))
