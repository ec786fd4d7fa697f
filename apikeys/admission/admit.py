"""The admission of one API request, in the order it happens.

1. **Read**: the bearer key from ``Authorization`` (``Sent``); a request without one is counted
   against its client's address.
2. **Find** (``Lookup``): by digest, in the process's key ring, else Redis, else PostgreSQL
   (``apikeys.keyring``); a token that is not even shaped like a key is refused without a query
   (``apikeys.keys``), and a digest the service does not know reaches PostgreSQL only within
   its address's limit. A key found in Redis is counted in the same round trip (step 4) when its
   record alone says it is usable.
3. **Check**, as it is found: revoked, expired, suspended; a publishable key against the
   request's ``Origin``, so that another site cannot spend a widget's quota from its visitors'
   browsers. A key the process holds is used only if it passes; else it is read afresh, since
   only a fresh read refuses.
4. **Count** (``Admission``): one Redis round trip (``apikeys.limiter``), against the account's
   plan for a valid key, against the client's address for anything else. ``GET /v1/rate_limit``
   reads the account's windows in that round trip instead of counting against them.
5. **Once more** when the count finds the key changed since it was read (another process's
   write landed between the two, and nothing was counted): read afresh, checked and counted as
   that read stands, so that a request is tried twice at most. Refusing is the middleware's.
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
from apikeys.admission.result import Admission, Counted, ForeignOrigin, Lookup, Sent
from apikeys.events import usage_threshold
from apikeys.keyring import keyring, record_name
from apikeys.lastuse import last_use
from apikeys.limiter import Decision, Policy, Subject, limiter
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
    sent = Sent(token, keys.digest(token), keys.display_prefix(token))
    try:
        return _admit_key(request, sent)
    except DatabaseError:
        # The view answers 503; meanwhile the caller is limited by address.
        return _by_address(request, ServiceUnavailable())


def bearer_token(request: HttpRequest) -> str | None:
    """The token of ``Authorization: Bearer <token>``, or None for no header or another scheme."""
    scheme, _, token = request.META.get("HTTP_AUTHORIZATION", "").partition(" ")
    if scheme.lower() != "bearer":
        return None
    return token.strip()


def _admit_key(request: HttpRequest, sent: Sent) -> Admission:
    """Find the key, check it and count the request; once more, from a fresh read, when the
    count finds that the key changed after it was read."""
    admission = _admitted(request, sent, _held(request, sent) or _read(request, sent))
    if admission.decision.stale_key:
        # Counted as it stands, not verified again: a change landing in this read too is the
        # next request's to see.
        keyring.clear()
        admission = _admitted(request, sent, _read(request, sent), verify=False)
    return admission


def _held(request: HttpRequest, sent: Sent) -> Lookup | None:
    """The key as this process holds it, when that may be used now from the request's origin.
    A held key may predate its restoring (a reactivated account) or a change of its origins:
    only a fresh read refuses."""
    held = keyring.cached(sent.digest)
    if held is None or held.record is None or _refusal(held.record, request) is not None:
        return None
    return Lookup(held.record, held.generation)


def _read(request: HttpRequest, sent: Sent) -> Lookup | Admission:
    """The key read afresh: its shape first, then Redis, then PostgreSQL; or, when there is no
    key to count, the request's admission by its address."""
    if not keys.is_well_formed(sent.token):
        return _by_address(request, AuthenticationFailed("This is not a valid API key."))
    try:
        if _peeking(request):
            found, counted = keyring.fetch(sent.digest), None
        else:
            outcome, now = limiter.check_unread(record_name(sent.digest))
            found = keyring.received(sent.digest, outcome.record, outcome.generation)
            counted = Counted(outcome, now) if outcome.counted else None
    except redis.RedisError:
        # No Redis to ask: PostgreSQL, as for every request without Redis.
        found, counted = keyring.read(sent.digest), None
    address = None
    if found is None:
        # A digest Redis does not know: PostgreSQL is asked only within the address's own
        # limit, so that made-up keys cannot load it.
        address = _by_address(request, AuthenticationFailed(NOT_RECOGNISED))
        if not address.decision.allowed:
            return address
        found = keyring.read(sent.digest)
    record = found.record
    if record is None:
        return address or _by_address(request, AuthenticationFailed(NOT_RECOGNISED))
    return Lookup(record, found.generation, _refusal(record, request), counted, address)


def _refusal(record: KeyRecord, request: HttpRequest) -> APIException | None:
    """Why the key may not be used now from the request's ``Origin``, as the error to refuse it
    with; None when it may (``ApiKey.state``'s precedence)."""
    if record.revoked or record.suspended or record.expires_at is not None:
        expires_at = record.expires_at
        facts = KeyFacts(
            record.revoked,
            record.suspended,
            None if expires_at is None else datetime.fromtimestamp(expires_at, UTC),
        )
        message = refusal_message(key_state(facts, datetime.fromtimestamp(time.time(), UTC)))
        if message is not None:
            return AuthenticationFailed(message)
    origin = request.META.get("HTTP_ORIGIN")
    if not record.publishable or origin is None or origin in record.origin_set:
        return None
    return ForeignOrigin(
        f"This publishable API key may not be used from {origin}; it is bound to: "
        f"{', '.join(sorted(record.origin_set))}."
    )


def _admitted(
    request: HttpRequest, sent: Sent, found: Lookup | Admission, *, verify: bool = True
) -> Admission:
    """The request with what finding its key came to: admitted by its address already, refused,
    or counted. ``verify``: whether the count checks the key generation the key was read under."""
    if isinstance(found, Admission):
        return found
    if found.refusal is not None:
        origins = found.record.origin_set
        if found.address is not None:
            return replace(found.address, error=found.refusal, origins=origins)
        return _by_address(request, found.refusal, origins)
    return _count(request, sent, found, found.generation if verify else "")


def _count(request: HttpRequest, sent: Sent, found: Lookup, generation: str) -> Admission:
    """Count the request against the key's account, or for GET /v1/rate_limit read its windows
    instead. A count that finds ``generation`` out of date counts nothing and says so."""
    record = found.record
    subject = Subject.account(record.account_id, record.limits, key_id=record.id)
    if _peeking(request):
        per_minute = RATE_LIMIT_READS_PER_MINUTE
        decision, standing = limiter.peek(subject, per_minute=per_minute, generation=generation)
    else:
        decision, standing = _counted(sent, found, subject, generation), None
    return Admission(decision, record, sent.prefix, origins=record.origin_set, standing=standing)


def _counted(sent: Sent, found: Lookup, subject: Subject, generation: str) -> Decision:
    """The count (``found.counted``: made already, by the key's record), and what follows from
    it: the key's last use, the day's threshold events."""
    record = found.record
    if found.counted is None:
        decision, now = limiter.check(subject, generation=generation), time.time()
    else:
        decision, now = limiter.decision(subject, *found.counted), found.counted.now
    if decision.record_use:
        with contextlib.suppress(DatabaseError):  # a missed last use is no reason to refuse
            last_use.record(record, sent.digest, now)
    if decision.day_threshold:
        with contextlib.suppress(DatabaseError):  # nor a missed event
            usage_threshold(record.account_id, decision, record.limits.per_day)
    return decision


def _peeking(request: HttpRequest) -> bool:
    """GET /v1/rate_limit reads the account's windows instead of counting against them."""
    return request.path_info == RATE_LIMIT_PATH and request.method in ("GET", "HEAD")


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
