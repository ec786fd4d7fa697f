"""The day's tallies the limiter's check keeps for the usage history: their names, where they
are kept (Redis, or this process's memory), and reading them back.

One hash per account and UTC day, ``usage:{a<id>}:d<day>``, with a field per key and outcome
(``k17:admitted``, ``k17:refused``, ``k17:banned``) and the day's limits (``per_<window>``);
and one set per day of the accounts with tallies (``usage:accounts:d<day>``), which the roll-up
reads instead of scanning. The check writes them in its one round trip (``apikeys.limiter``);
nothing here is on a request's path but ``usage_today``.
"""

from __future__ import annotations

import threading
import time
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path

from django.conf import settings

from apikeys.windows import WINDOWS
from petstore import redis

KINDS = ("admitted", "refused", "banned")
# A day's tallies outlive it by this much, so that the roll-up after midnight, or one that
# missed a run, still finds yesterday's.
USAGE_GRACE_SECONDS = 2 * 86_400
_EPOCH_DAY = date(1970, 1, 1)
_CLAIM_SCRIPT = (Path(__file__).parent / "claim.lua").read_text()


def utc_today() -> date:
    return datetime.now(UTC).date()


def day_number(day: date) -> int:
    """The tallies' name for a UTC day: days since the Unix epoch."""
    return (day - _EPOCH_DAY).days


def usage_name(account_id: int | str, day: int, prefix: str) -> str:
    """The hash of one account's tallies on UTC day ``day``. Its hash tag is the account's
    counters' (``Subject.tag``), so that the check's script touches one Redis Cluster slot."""
    return f"{prefix}usage:{{a{account_id}}}:d{day}"


def usage_index_name(day: int, prefix: str) -> str:
    return f"{prefix}usage:accounts:d{day}"


@dataclass(frozen=True)
class Tally:
    admitted: int = 0
    refused: int = 0
    banned: int = 0

    def __add__(self, other: Tally) -> Tally:
        pairs = zip(self.counts, other.counts, strict=True)
        return Tally(*(mine + theirs for mine, theirs in pairs))

    @property
    def counts(self) -> tuple[int, int, int]:
        return self.admitted, self.refused, self.banned


def tallies_by_key(fields: dict[str, int | str]) -> dict[int, Tally]:
    """``{"k17:admitted": 3, …}`` → ``{17: Tally(admitted=3, …)}``."""
    counts: dict[int, dict[str, int]] = defaultdict(dict)
    for name, value in fields.items():
        key, _, kind = name.partition(":")
        if key.startswith("k") and kind in KINDS and key[1:].isdigit():
            counts[int(key[1:])][kind] = int(value)
    return {key_id: Tally(**kinds) for key_id, kinds in counts.items()}


def limits_of(fields: dict[str, int | str]) -> dict[str, int]:
    """The day's limits in an account's tallies, by window name: those of the windows it
    recorded (``per_minute``…; a window added since is not there)."""
    return {w.name: int(fields[w.per]) for w in WINDOWS if w.per in fields}


class MemoryTallies:
    """The tallies kept in this process's memory: in embedded mode (no Redis), and those of
    the requests answered while Redis is unreachable, which only this process can read."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        # hash -> (fields, expires at); index -> (account ids, expires at)
        self._hashes: dict[str, tuple[dict[str, int | str], float]] = {}
        self._sets: dict[str, tuple[set[str], float]] = {}

    def add(
        self,
        name: str,
        index: str,
        account_id: str,
        field: str,
        limits: tuple[int, ...],
        *,
        now: int,
        ttl: int,
    ) -> None:
        """The check's tally, as its script keeps it in Redis: one more of ``field``; on the
        field's first count of the day, the day's limits, the lifetime and the index too."""
        with self._lock:
            fields, expires_at = self._hashes.get(name, ({}, 0.0))
            if expires_at <= now:
                fields = {}
            count = int(fields.get(field, 0)) + 1
            fields[field] = count
            if count == 1:
                fields.update(zip([w.per for w in WINDOWS], limits, strict=True))
                expires_at = now + ttl
                members, _ = self._sets.get(index, (set(), 0.0))
                members.add(account_id)
                self._sets[index] = (members, expires_at)
            self._hashes[name] = (fields, expires_at)

    def subtract(self, name: str, field: str, now: float) -> None:
        """One less of ``field``, as ``scripts/give_back.lua`` takes it in Redis."""
        with self._lock:
            fields, expires_at = self._hashes.get(name, ({}, 0.0))
            if expires_at > now and field in fields:
                fields[field] = int(fields[field]) - 1

    def read(self, name: str, now: float) -> dict[str, int | str]:
        with self._lock:
            fields, expires_at = self._hashes.get(name, ({}, 0.0))
            return dict(fields) if expires_at > now else {}

    def accounts(self, index: str, now: float) -> set[str]:
        with self._lock:
            members, expires_at = self._sets.get(index, (set(), 0.0))
            return set(members) if expires_at > now else set()

    def claim(self, name: str, epoch: str, now: float) -> dict[str, int | str]:
        """The hash's tallies, marked with ``epoch`` unless an earlier roll-up marked it."""
        with self._lock:
            fields, expires_at = self._hashes.get(name, ({}, 0.0))
            if expires_at <= now:
                return {}
            fields.setdefault("epoch", epoch)
            return dict(fields)

    def purge(self, now: float) -> None:
        with self._lock:
            self._hashes = {k: v for k, v in self._hashes.items() if v[1] > now}
            self._sets = {k: v for k, v in self._sets.items() if v[1] > now}

    def clear(self) -> None:
        with self._lock:
            self._hashes.clear()
            self._sets.clear()


class RedisTallies:
    """The tallies in Redis, read as ``MemoryTallies`` reads its own."""

    def __init__(self, client: redis.RedisClient) -> None:
        self.client = client

    def read(self, name: str, now: float) -> dict[str, int | str]:
        return _fields(self.client.execute("HGETALL", name))

    def accounts(self, index: str, now: float) -> set[str]:
        return {member.decode() for member in self.client.execute("SMEMBERS", index)}

    def claim(self, name: str, epoch: str, now: float) -> dict[str, int | str]:
        return _fields(self.client.execute("EVAL", _CLAIM_SCRIPT, 1, name, epoch))


def _fields(flat: list[bytes]) -> dict[str, int | str]:
    fields: dict[str, int | str] = {}
    for name, value in zip(flat[::2], flat[1::2], strict=True):
        text = value.decode()
        fields[name.decode()] = text if name == b"epoch" else int(text)
    return fields


# This process's own tallies (the limiter's memory backend keeps them).
in_memory = MemoryTallies()


def usage_store() -> RedisTallies | MemoryTallies:
    """Where the tallies are kept, for the roll-up: Redis when it is configured (its errors are
    the caller's), this process's memory otherwise."""
    client = redis.client()
    return in_memory if client is None else RedisTallies(client)


def usage_today(account_id: int, day: int) -> dict[str, int | str]:
    """An account's tallies of UTC day ``day`` as they stand: one round trip (``HGETALL``).
    While Redis is unreachable, this process's own tallies of the outage."""
    now, name = time.time(), usage_name(account_id, day, settings.REDIS_KEY_PREFIX)
    return redis.or_else(
        lambda client: RedisTallies(client).read(name, now), lambda: in_memory.read(name, now)
    )
