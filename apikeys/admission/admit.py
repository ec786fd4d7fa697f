"""The admission of one API request, in the order it happens.

1. **Read**: the bearer key from ``Authorization``; a request without one is counted against
   its client's address.
2. **Find**: by digest, in the process cache, else Redis, else PostgreSQL (``apikeys.keyring``);
   a token that is not even shaped like a key is refused without a query (``apikeys.keys``),
   and a digest the service does not know reaches PostgreSQL only within its address's limit.
   A key found in Redis is counted in the same round trip (step 4) when its record alone says
   it is usable.
3. **Check**: revoked, expired, suspended; a publishable key against the request's ``Origin``,
   so that another site cannot spend a widget's quota from its visitors' browsers.
4. **Count**: one Redis round trip (``apikeys.limiter``), against the account's plan for a valid
   key, against the client's address for anything else. ``GET /v1/rate_limit`` reads the
   account's windows in that round trip instead of counting against them.
5. A key served from the cache may be out of date: the count then says so (it counted nothing)
   and the key is read again, once. Refusing is the middleware's.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import replace
from datetime import UTC, datetime

from django.conf import settings
from django.db import DatabaseError
from django.http import HttpRequest
from rest_framework.exceptions import APIException, AuthenticationFailed

from apikeys import keys
from apikeys.admission.result import Admission, ForeignOrigin
from apikeys.events import usage_threshold
from apikeys.keyring import Found, keyring, record_name
from apikeys.lastuse import last_use
from apikeys.limiter import Outcome, Policy, Subject, limiter
from apikeys.models.api_keys import KeyFacts, key_state, refusal_message
from apikeys.records import KeyRecord
from petstore import redis
from petstore.addresses import client_subscriber
from petstore.errors import ServiceUnavailable

RATE_LIMIT_PATH = "/v1/rate_limit"
# GET /v1/rate_limit per key per minute: enough to poll every second, little enough to be cheap.
RATE_LIMIT_READS_PER_MINUTE = 60
NOT_RECOGNISED = "This API key is not recognised."


def admit(request: HttpRequest) -> Admission:
    token = bearer_token(request)
    if token is None:
        return _by_address(request)
    if not token:
        return _by_address(request, AuthenticationFailed("The bearer token is empty."))
    try:
        return _admit_key(request, token)
    except DatabaseError as exc:
        # The view answers 503; meanwhile the caller is limited by address.
        unavailable = ServiceUnavailable()
        unavailable.__cause__ = exc
        return _by_address(request, unavailable)


def bearer_token(request: HttpRequest) -> str | None:
    """The token of ``Authorization: Bearer <token>``, or None for no header or another scheme."""
    scheme, _, token = request.META.get("HTTP_AUTHORIZATION", "").partition(" ")
    if scheme.lower() != "bearer":
        return None
    return token.strip()


def _admit_key(request: HttpRequest, token: str) -> Admission:
    """A request with a key: the process's own record of it if it holds one still usable and
    current, else the key read afresh."""
    digest, prefix = keys.digest(token), keys.display_prefix(token)
    cached = keyring.cached(digest)
    if cached is None:
        return _admit_read(request, token, digest, prefix, verify=True)
    # A cached key may predate its restoring (a reactivated account) or a change of its
    # origins: only a fresh read refuses.
    record = cached.record
    if record is not None and _refusal(record, request) is None:
        admission = _count(request, prefix, digest, record, cached.generation)
        if not admission.decision.stale_key:
            return admission
        keyring.clear()
    return _admit_read(request, token, digest, prefix, verify=False)


def _admit_read(
    request: HttpRequest, token: str, digest: str, prefix: str, *, verify: bool
) -> Admission:
    """A key this process does not hold, or held out of date: its shape first, then Redis,
    then PostgreSQL; checked, then counted. ``verify``: whether the count checks the key
    generation the record was read under, which only the request's first read needs."""
    if not keys.is_well_formed(token):
        return _by_address(request, AuthenticationFailed("This is not a valid API key."))
    # checked: a check by record, the key found in Redis and counted at once.
    found, checked = _unread(digest, _peeking(request))
    counted = None  # the count against the address that let an unknown digest reach PostgreSQL
    if found is None:
        # A digest the service does not know: PostgreSQL is asked only within the address's
        # own limit, so that made-up keys cannot load it.
        counted = _by_address(request, AuthenticationFailed(NOT_RECOGNISED))
        if not counted.decision.allowed:
            return counted
        found = keyring.read(digest)
    record = found.record
    if record is None:
        return counted or _by_address(request, AuthenticationFailed(NOT_RECOGNISED))
    # A key counted by its record is usable from any origin.
    refusal = None if checked is not None else _refusal(record, request)
    if refusal is not None:
        reason, foreign_origin = refusal
        error = ForeignOrigin if foreign_origin else AuthenticationFailed
        if counted is not None:
            return replace(counted, error=error(reason), origins=record.origin_set)
        return _by_address(request, error(reason), record.origin_set)
    generation = found.generation if verify else ""
    admission = _count(request, prefix, digest, record, generation, checked)
    if admission.decision.stale_key:
        keyring.clear()
        return _admit_read(request, token, digest, prefix, verify=False)
    return admission


def _count(
    request: HttpRequest,
    prefix: str,
    digest: str,
    record: KeyRecord,
    generation: str,
    checked: tuple[Outcome, float] | None = None,
) -> Admission:
    """Count the request against the key's account (``checked``: already counted, by its
    record), or for GET /v1/rate_limit read its windows instead; then what follows from the
    count: the key's last use, the day's threshold events."""
    subject = Subject.account(record.account_id, record.limits, key_id=record.id)
    standing = None
    if checked is not None:
        decision = limiter.decision(subject, *checked)
        now = checked[1]
    elif _peeking(request):
        per_minute = RATE_LIMIT_READS_PER_MINUTE
        decision, standing = limiter.peek(subject, per_minute=per_minute, generation=generation)
        now = time.time()
    else:
        decision = limiter.check(subject, generation=generation)
        now = time.time()
    if decision.stale_key:
        return Admission(decision)
    if decision.record_use:
        with contextlib.suppress(DatabaseError):  # a missed last use is no reason to refuse
            last_use.record(record, digest, now)
    if decision.day_threshold:
        with contextlib.suppress(DatabaseError):  # nor a missed event
            usage_threshold(record.account_id, decision, record.limits.per_day)
    return Admission(
        decision,
        key=record,
        key_prefix=prefix,
        origins=record.origin_set,
        standing=standing,
    )


def _refusal(record: KeyRecord, request: HttpRequest) -> tuple[str, bool] | None:
    """Why the key may not be used now from the request's ``Origin``, and whether only the
    origin is wrong; None when it may (``ApiKey.state``'s precedence)."""
    if record.revoked or record.suspended or record.expires_at is not None:
        expires_at = record.expires_at
        facts = KeyFacts(
            record.revoked,
            record.suspended,
            None if expires_at is None else datetime.fromtimestamp(expires_at, UTC),
        )
        message = refusal_message(key_state(facts, datetime.fromtimestamp(time.time(), UTC)))
        if message is not None:
            return message, False
    origin = request.META.get("HTTP_ORIGIN")
    if not record.publishable or origin is None or origin in record.origin_set:
        return None
    return (
        f"This publishable API key may not be used from {origin}; it is bound to: "
        f"{', '.join(sorted(record.origin_set))}.",
        True,
    )


def _peeking(request: HttpRequest) -> bool:
    """GET /v1/rate_limit reads the account's windows instead of counting against them."""
    return request.path_info == RATE_LIMIT_PATH and request.method in ("GET", "HEAD")


def _unread(digest: str, peeking: bool) -> tuple[Found | None, tuple[Outcome, float] | None]:
    """A key this process has not read, from Redis: found and counted in one round trip, or
    only found for a peek, or for a key the check leaves to admission (``check_unread``); or
    from PostgreSQL when Redis cannot be asked. None when neither knows the digest."""
    try:
        if peeking:
            return keyring.fetch(digest), None
        outcome, now = limiter.check_unread(record_name(digest))
        found = keyring.received(digest, outcome.record, outcome.generation)
        return found, (outcome, now) if outcome.counted else None
    except redis.RedisError:
        # No Redis to ask: PostgreSQL, as for every request without Redis.
        return keyring.read(digest), None


def _by_address(
    request: HttpRequest, error: APIException | None = None, origins: frozenset[str] = frozenset()
) -> Admission:
    """Requests without a valid key count against the client's address."""
    subject = Subject.address(client_subscriber(request), anonymous_policy())
    return Admission(limiter.check(subject), error=error, origins=origins)


def anonymous_policy() -> Policy:
    """``PETSTORE_ANONYMOUS_RATE``: ``N/m`` (per minute), ``N/d`` (per UTC day, and per minute
    too), read as every rate setting is (``apikeys.models.accounts.parse_rate``)."""
    return Policy.of_rate(settings.PETSTORE_ANONYMOUS_RATE)
