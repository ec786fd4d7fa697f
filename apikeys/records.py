"""A key as admission needs it, in a few hundred bytes: what it may do, from where, until when,
and its account's limits. Kept in each process's key ring and, in its wire form, in Redis
beside the counters, in place of the key's, account's and plan's rows."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

import orjson

from apikeys.models import Account, ApiKey, KeyKind, Plan
from apikeys.models.api_keys import KeyFacts, key_state, refusal_message

T = TypeVar("T")

# The record's fields as Redis keeps them, in order: the limiter's check reads a few by name.
WIRE = (
    "id",
    "account_id",
    "publishable",
    "scopes",
    "origins",
    "revoked",
    "suspended",
    "expires_at",
    "used",
    "plan",
    "custom",
    "per_minute",
    "per_day",
    "countable_until",
)
# A time after every clock's: a key that does not expire.
FOREVER = 2**53


@dataclass(frozen=True, slots=True)
class KeyRecord:
    id: int
    account_id: int
    publishable: bool
    scope_set: frozenset[str]
    origin_set: frozenset[str]
    revoked: bool
    suspended: bool
    expires_at: float | None  # Unix seconds
    used: bool  # whether the key's use was ever recorded (its last_used_at)
    plan: tuple[int, str, str, int | None, int | None]  # id, code, name, per minute, per day
    custom: tuple[int | None, int | None]  # the account's own limits (Enterprise)
    per_minute: int  # the limits in force, from Account.limits
    per_day: int

    # The request's user in DRF is the key: any valid key is an authenticated caller.
    is_authenticated = True

    @classmethod
    def of(cls, api_key: ApiKey) -> KeyRecord:
        """The record of a key read with its account and plan."""
        account, plan = api_key.account, api_key.account.plan
        limits = account.limits
        expires_at = api_key.expires_at
        return cls(
            api_key.pk,
            account.pk,
            api_key.kind == KeyKind.PUBLISHABLE,
            _words(api_key.scopes),
            _words(api_key.allowed_origins),
            api_key.revoked_at is not None,
            account.suspended_at is not None,
            expires_at.timestamp() if expires_at is not None else None,
            api_key.last_used_at is not None,
            _shared(
                (plan.pk, plan.code, plan.name, plan.requests_per_minute, plan.requests_per_day)
            ),
            _shared((account.custom_requests_per_minute, account.custom_requests_per_day)),
            _shared(limits.per_minute),
            _shared(limits.per_day),
        )

    def wire(self) -> bytes:
        """The record as Redis keeps it."""
        return orjson.dumps(
            [
                self.id,
                self.account_id,
                self.publishable,
                sorted(self.scope_set),
                sorted(self.origin_set),
                self.revoked,
                self.suspended,
                self.expires_at,
                self.used,
                self.plan,
                self.custom,
                self.per_minute,
                self.per_day,
                self.countable_until,
            ]
        )

    @classmethod
    def from_wire(cls, data: bytes) -> KeyRecord:
        (
            key_id,
            account_id,
            publishable,
            scopes,
            origins,
            revoked,
            suspended,
            expires_at,
            used,
            plan,
            custom,
            per_minute,
            per_day,
            *_,  # countable_until, which follows from the rest
        ) = orjson.loads(data)
        return cls(
            key_id,
            account_id,
            publishable,
            _words(" ".join(scopes)),
            _words(" ".join(origins)),
            revoked,
            suspended,
            expires_at,
            used,
            _shared(tuple(plan)),
            _shared(tuple(custom)),
            _shared(per_minute),
            _shared(per_day),
        )

    @property
    def countable_until(self) -> float:
        """Until when a request with this key counts against its account, whatever its
        origin (Unix seconds; 0: not without a closer look, ``refusal``). The limiter's check
        counts a key it finds in Redis by this alone."""
        if self.revoked or self.suspended or self.publishable:
            return 0
        return FOREVER if self.expires_at is None else self.expires_at

    @property
    def pk(self) -> int:
        return self.id

    @property
    def is_publishable(self) -> bool:
        return self.publishable

    @property
    def scope_list(self) -> list[str]:
        return sorted(self.scope_set)

    def refusal(self, now: float, origin: str | None) -> tuple[str, bool] | None:
        """Why this key may not be used at ``now`` (Unix seconds) from ``origin``, and whether
        only the origin is wrong; None when it may (``ApiKey.state``'s precedence)."""
        if self.revoked or self.suspended or self.expires_at is not None:
            expires_at = self.expires_at
            facts = KeyFacts(
                self.revoked,
                self.suspended,
                None if expires_at is None else datetime.fromtimestamp(expires_at, UTC),
            )
            message = refusal_message(key_state(facts, datetime.fromtimestamp(now, UTC)))
            if message is not None:
                return message, False
        if not self.publishable or origin is None or origin in self.origin_set:
            return None
        return (
            f"This publishable API key may not be used from {origin}; it is bound to: "
            f"{', '.join(sorted(self.origin_set))}.",
            True,
        )

    def account(self) -> Account:
        """The key's account as a model instance made from the record (no query): for the
        views that filter or write by account."""
        plan_id, code, name, plan_per_minute, plan_per_day = self.plan
        plan = Plan(
            pk=plan_id,
            code=code,
            name=name,
            requests_per_minute=plan_per_minute,
            requests_per_day=plan_per_day,
        )
        per_minute, per_day = self.custom
        return Account(
            pk=self.account_id,
            plan=plan,
            custom_requests_per_minute=per_minute,
            custom_requests_per_day=per_day,
        )


# Keys have few distinct plans, limits, scopes and origins: every record of a process shares one
# copy of each, so that a process can hold every key of a busy service.
_SHARED: dict[Any, Any] = {}
_WORDS: dict[str, frozenset[str]] = {}


def _shared(value: T) -> T:
    return _SHARED.setdefault(value, value)


def _words(words: str) -> frozenset[str]:
    found = _WORDS.get(words)
    if found is None:
        found = _WORDS.setdefault(words, frozenset(words.split()))
    return found
