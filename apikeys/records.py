"""A key as admission needs it, in a few hundred bytes: what it may do, from where, until when,
and its account's limits. Kept in each process's key ring and, in its wire form, in Redis
beside the counters, in place of the key's, account's and plan's rows."""

from __future__ import annotations

import dataclasses
import hashlib
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeVar

import orjson

from apikeys.models import ApiKey, KeyKind, Limits
from apikeys.windows import WINDOWS

T = TypeVar("T")

# A time after every clock's: a key that does not expire.
FOREVER = 2**53


class PlanFacts(NamedTuple):
    """The account's plan, as GET /v1/rate_limit names it."""

    id: int
    code: str
    name: str


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
    plan: PlanFacts  # the account's
    limits: Limits  # the limits in force, from Account.limits

    # The request's user in DRF is the key: any valid key is an authenticated caller.
    is_authenticated = True

    @classmethod
    def of(cls, api_key: ApiKey) -> KeyRecord:
        """The record of a key read with its account and plan."""
        account, plan = api_key.account, api_key.account.plan
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
            _shared(PlanFacts(plan.pk, plan.code, plan.name)),
            _shared(account.limits),
        )

    def wire(self) -> bytes:
        """The record as Redis keeps it."""
        return orjson.dumps(
            {
                "v": RECORD_VERSION,
                "id": self.id,
                "account_id": self.account_id,
                "publishable": self.publishable,
                "scopes": sorted(self.scope_set),
                "origins": sorted(self.origin_set),
                "revoked": self.revoked,
                "suspended": self.suspended,
                "expires_at": self.expires_at,
                "used": self.used,
                "plan": self.plan._asdict(),
                "limits": list(self.limits),
                # What the check by record reads; it follows from the rest.
                "countable_until": self.countable_until,
            }
        )

    @classmethod
    def from_wire(cls, data: bytes) -> KeyRecord | None:
        """The record Redis keeps as ``data``; None for one of another shape than this code's
        (written before a change of fields), which is read from PostgreSQL instead."""
        fields = orjson.loads(data)
        if not isinstance(fields, dict) or fields.get("v") != RECORD_VERSION:
            return None
        expires_at = fields["expires_at"]
        return cls(
            fields["id"],
            fields["account_id"],
            fields["publishable"],
            _words(" ".join(fields["scopes"])),
            _words(" ".join(fields["origins"])),
            fields["revoked"],
            fields["suspended"],
            expires_at,
            fields["used"],
            _shared(PlanFacts(**fields["plan"])),
            _shared(Limits(fields["limits"])),
        )

    @property
    def countable_until(self) -> float:
        """Until when a request with this key counts against its account, whatever its
        origin (Unix seconds; 0: not without admission's closer look). The limiter's check
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


def _shape() -> str:
    """The record's shape, made from its fields' names, its plan's and the windows': a record in
    Redis written by code of another shape is never read as this one's, and the key's next read
    replaces it (``apikeys.keyring``), so a change of fields needs no clearing by hand."""
    names = (
        [f.name for f in dataclasses.fields(KeyRecord)]
        + [*PlanFacts._fields]
        + [w.name for w in WINDOWS]
    )
    return hashlib.sha1(" ".join(names).encode(), usedforsecurity=False).hexdigest()[:12]


# The form of the record as Redis keeps it: a JSON object read by name on both sides (here, and
# the limiter's check by record, scripts/check.lua), with its shape in "v".
RECORD_VERSION = _shape()


# Keys have few distinct plans, limits, scopes and origins: every record of a process shares one
# copy of each, so that a process can hold every key of a busy service.
_SHARED: dict[Any, Any] = {}
_WORDS: dict[str, frozenset[str]] = {}


def _shared(value: T) -> T:
    # By type too: equal tuples of another kind (a plan's, limits) stay apart.
    return _SHARED.setdefault((type(value), value), value)


def _words(words: str) -> frozenset[str]:
    found = _WORDS.get(words)
    if found is None:
        found = _WORDS.setdefault(words, frozenset(words.split()))
    return found
