"""Request limits: one algorithm, behind one interface, with two backends.

**The algorithm.** A subject (an account, or a client address) is admitted only if the minute
window and the UTC-day window, both aligned to the clock, have room; a refused request consumes
nothing. A subject whose policy bans: the caller that makes ``BAN_STRIKES`` refused requests
within one minute is banned for ``BAN_BASE_SECONDS``, doubling with each further ban within
``BAN_MEMORY_SECONDS`` of the last, up to ``BAN_MAX_SECONDS``.

**The backends.** ``RedisBackend`` runs it as one Lua script (one ``EVALSHA``: the ban check,
both counters and the strikes), so any number of processes and hosts never admit more than a
limit, where INCR-then-compare, or DRF's ``SimpleRateThrottle``, would race. ``MemoryBackend``
runs the same steps in process memory under a lock: embedded mode (no Redis), and the fallback
while Redis is unreachable, where limits hold per process. Both take the same keys and arguments
and return the same ``Outcome``; ``tests/apikeys/test_limiter.py`` runs one table of cases
against each. An outage is logged once when it starts and once when it ends.

**Peeks.** ``GET /v1/rate_limit`` reads an account's windows and the caller's ban without
counting anything against them (``Limiter.peek``): the same keys, read in the same one round
trip that counts the peek against a small window of its own, per key, so that reading limits
cannot itself become a way to load us.

**Headers.** ``Decision.headers`` is the one place that writes what a client is told: the
``X-RateLimit-*`` fields of the tightest window, and the IETF ``RateLimit-Policy`` (every
window) and ``RateLimit`` (the tightest) fields of draft-ietf-httpapi-ratelimit-headers-11, made
from the same figures so that the two families can never disagree.

**Stale keys.** A check may carry the key generation its caller's cached key was read under
(see ``apikeys.keyring``); when that is no longer current the check counts nothing and says so,
in the same round trip.

**Usage.** The same script tallies each account's requests per key and UTC day, for the usage
history (``apikeys.usage``): one hash per account and day, ``usage:{a<id>}:d<day>``, with a
field per key and outcome (``k17:admitted``, ``k17:refused``, ``k17:banned``). An admitted
request costs one ``HINCRBY`` more; only a key's first request of a kind in a day also records
the day's limits in the hash, sets its lifetime and adds the account to the day's index
(``usage:accounts:d<day>``), which the roll-up reads instead of scanning. Requests without a
valid key are not tallied.

Every key of one account shares the hash tag ``{a<id>}``, so the script would run unchanged on
Redis Cluster, the key generation and the usage index aside (global keys, to be moved to each
account's slot).
"""

from __future__ import annotations

import hashlib
import logging
import math
import threading
import time
import uuid
from collections.abc import Callable
from enum import IntEnum
from typing import Any, NamedTuple, TypeVar

from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver

from apikeys.models import Limits
from apikeys.redis_client import (
    RedisClient,
    RedisError,
    ReplyError,
    pack_argument,
    pack_head,
)

logger = logging.getLogger("petstore.ratelimit")

MINUTE = 60
DAY = 86_400
BAN_STRIKES = 10
BAN_BASE_SECONDS = 15 * MINUTE
BAN_MAX_SECONDS = DAY
BAN_MEMORY_SECONDS = DAY
# Seconds a counter outlives its window, so that a slow clock on one host still finds it.
EXPIRY_MARGIN = 5
# A day's usage hash outlives its day by this much, so that the roll-up after midnight, or one
# that missed a run, still finds yesterday's counts.
USAGE_GRACE_SECONDS = 2 * DAY
# While Redis is down, try it again this often (real seconds), not on every request.
REDIS_RETRY_SECONDS = 2.0
KEY_GENERATION = "auth:key-generation"
# Subjects whose counters' names a process keeps for the current minute (Limiter._keys).
MAX_SUBJECTS_NAMED = 10_000
# The name of a peek's own window in the RateLimit fields.
PEEK_WINDOW = "rate_limit"


class Verdict(IntEnum):
    REFUSED = 0
    ADMITTED = 1
    BANNED = 2
    NEWLY_BANNED = 3
    STALE_KEY = 4


class Policy(NamedTuple):
    per_minute: int
    per_day: int | None = None  # None: no day window
    bans: bool = False  # whether refused requests can earn the caller a ban


class Subject(NamedTuple):
    """What one request is counted against, and who is banned for misbehaving."""

    counted: str  # "a42", or "ip:203.0.113.0"
    caller: str  # "k17": strikes and bans are per key
    policy: Policy

    @property
    def tag(self) -> str:
        return "{" + self.counted + "}"

    @classmethod
    def account(cls, account_id: int, limits: Limits, key_id: int | None = None) -> Subject:
        """An account's requests, all its keys together; bans are per key."""
        policy = Policy(limits.per_minute, limits.per_day, bans=True)
        return cls(f"a{account_id}", f"k{key_id}" if key_id else "", policy)

    @classmethod
    def address(cls, address: str, policy: Policy) -> Subject:
        return cls(f"ip:{address}", f"ip:{address}", policy)


class Window(NamedTuple):
    limit: int
    remaining: int
    reset: int  # Unix seconds at which the window ends
    name: str = "minute"  # the policy's name in the RateLimit fields
    seconds: int = MINUTE  # the window's length

    @property
    def used(self) -> int:
        return self.limit - self.remaining


class Ban(NamedTuple):
    number: int  # the how-many-th ban within BAN_MEMORY_SECONDS
    # Unix seconds, both from the clock the check ran on: the record lasts as long as the ban.
    started_at: int
    ends_at: int


class Decision(NamedTuple):
    allowed: bool
    window: Window  # the window with the fewest requests remaining, for the headers
    retry_after: int = 0  # whole seconds, >= 1 when refused
    banned: bool = False
    new_ban: Ban | None = None
    # The cached key the check was made for is out of date: nothing was counted.
    stale_key: bool = False
    # The RateLimit-Policy field: every window of the policy (policy_field), and the second
    # the check ran at.
    policy_field: str = ""
    now: int = 0

    @property
    def headers(self) -> list[tuple[str, str]]:
        """What the client is told, as (name, value) pairs: ASCII names, and values made of
        our own digits and window names, so that they need no checking (``apikeys.gateway``)."""
        window = self.window
        headers = [
            ("X-RateLimit-Limit", str(window.limit)),
            ("X-RateLimit-Remaining", str(window.remaining)),
            ("X-RateLimit-Reset", str(window.reset)),
            # draft-ietf-httpapi-ratelimit-headers-11: Structured Field lists whose items are
            # the policies' names; q is the quota, w the window in seconds, r what remains,
            # t the seconds until it is restored. Made from the same Window as X-RateLimit-*.
            ("RateLimit-Policy", self.policy_field or policy_field((window,))),
            (
                "RateLimit",
                f'"{window.name}";r={window.remaining};t={max(0, window.reset - self.now)}',
            ),
        ]
        if not self.allowed:
            headers.append(("Retry-After", str(self.retry_after)))
        return headers


def policy_field(windows: tuple[Window, ...]) -> str:
    """The RateLimit-Policy field of ``windows``: their names, quotas and lengths."""
    return ", ".join(f'"{w.name}";q={w.limit};w={w.seconds}' for w in windows)


class Outcome(NamedTuple):
    """What a backend returns for one check."""

    verdict: Verdict
    minute: int  # the minute window's count after the check
    day: int
    ban_ends_at: int = 0
    ban_number: int = 0


class Keys(NamedTuple):
    """The counters one check reads and writes, named the same in both backends."""

    minute: str
    day: str
    strikes: str
    ban: str
    bans: str
    refused: str
    generation: str
    peeks: str  # the caller's own window for reading its limits (Limiter.peek)
    usage: str  # the account's tallies for the day, per key (a hash)
    usage_index: str  # the accounts with tallies that day (a set)

    @classmethod
    def of(cls, subject: Subject, now: float, prefix: str = "") -> Keys:
        minute, day = int(now // MINUTE), int(now // DAY)
        base = f"{prefix}rl:{subject.tag}"
        return cls(
            minute=f"{base}:m{minute}",
            day=f"{base}:d{day}",
            strikes=f"{base}:{subject.caller}:strikes:m{minute}",
            ban=f"{base}:{subject.caller}:ban",
            bans=f"{base}:{subject.caller}:bans",
            refused=f"{base}:refused:d{day}",
            generation=f"{prefix}{KEY_GENERATION}",
            peeks=f"{base}:{subject.caller}:peeks:m{minute}",
            usage=usage_name(subject.tag, day, prefix),
            usage_index=usage_index_name(day, prefix),
        )

    def as_list(self) -> list[str]:
        return [
            self.minute,
            self.day,
            self.strikes,
            self.ban,
            self.bans,
            self.refused,
            self.generation,
            self.usage,
            self.usage_index,
        ]


def usage_name(tag: str, day: int, prefix: str = "") -> str:
    """The hash of one account's tallies on one UTC day (``day``: days since the epoch)."""
    return f"{prefix}usage:{tag}:d{day}"


def usage_index_name(day: int, prefix: str = "") -> str:
    return f"{prefix}usage:accounts:d{day}"


class Args(NamedTuple):
    """A subject's parameters, the same in both backends (0 stands for "none"), and the same
    from one check to the next: the second a check runs at is passed beside them, and the
    counters' lifetimes follow from it (``lifetimes``)."""

    per_minute: int
    per_day: int  # 0: no day window
    strikes: int  # refused requests within a minute that earn a ban; 0: never
    generation: str = ""  # "" : not checked
    usage_key: str = ""  # the key whose request this is ("k17"); "": not tallied
    usage_account: str = ""  # its account's id, for the day's index

    @classmethod
    def of(cls, subject: Subject, generation: str = "") -> Args:
        policy = subject.policy
        strikes = BAN_STRIKES if policy.bans else 0
        # Accounts' requests with a key are tallied for the usage history; addresses are not.
        if subject.caller.startswith("k") and subject.counted.startswith("a"):
            return cls(
                policy.per_minute,
                policy.per_day or 0,
                strikes,
                generation,
                subject.caller,
                subject.counted[1:],
            )
        return cls(policy.per_minute, policy.per_day or 0, strikes, generation)

    def as_list(self) -> list[int | str]:
        """The script's ARGV but for its last, the second (``now``)."""
        return [
            *self,
            BAN_BASE_SECONDS,
            BAN_MAX_SECONDS,
            BAN_MEMORY_SECONDS,
            EXPIRY_MARGIN,
            USAGE_GRACE_SECONDS,
        ]


def lifetimes(now: int) -> tuple[int, int, int]:
    """Seconds the minute's counters, the day's and the day's usage tallies live from ``now``:
    to the end of their window, and a margin (``EXPIRY_MARGIN``, ``USAGE_GRACE_SECONDS``)."""
    to_day_end = DAY - now % DAY
    return (
        MINUTE - now % MINUTE + EXPIRY_MARGIN,
        to_day_end + EXPIRY_MARGIN,
        to_day_end + USAGE_GRACE_SECONDS,
    )


_SCRIPT = """
-- ARGV: Args.as_list(), then the second the check runs at; KEYS: Keys.as_list().
local per_minute, per_day = tonumber(ARGV[1]), tonumber(ARGV[2])
local strikes_needed, generation = tonumber(ARGV[3]), ARGV[4]
local usage_key, usage_account = ARGV[5], ARGV[6]
local now, margin = tonumber(ARGV[12]), tonumber(ARGV[10])
-- lifetimes(): to the end of the minute (60 s), of the UTC day (86,400 s), and a margin.
local minute_ttl = 60 - now % 60 + margin
local day_ttl = 86400 - now % 86400 + margin
local usage_ttl = 86400 - now % 86400 + tonumber(ARGV[11])
-- The key's tally for the day's usage; the rest only on its first request of a kind that day.
local function tally(kind)
  if usage_key == '' then return end
  if redis.call('HINCRBY', KEYS[8], usage_key .. ':' .. kind, 1) == 1 then
    redis.call('HSET', KEYS[8], 'per_minute', ARGV[1], 'per_day', ARGV[2])
    redis.call('EXPIRE', KEYS[8], usage_ttl)
    redis.call('SADD', KEYS[9], usage_account)
    redis.call('EXPIRE', KEYS[9], usage_ttl)
  end
end
-- Everything a check reads, in one call: generation, ban, minute, day.
local read = redis.call('MGET', KEYS[7], KEYS[4], KEYS[1], KEYS[2])
if generation ~= '' and read[1] ~= generation then
  return {4, 0, 0, 0, 0}
end
local banned_until = tonumber(read[2] or '0')
local minute = tonumber(read[3] or '0')
local day = 0
if per_day > 0 then day = tonumber(read[4] or '0') end
if banned_until <= now and minute < per_minute and (per_day == 0 or day < per_day) then
  minute = redis.call('INCR', KEYS[1])
  if minute == 1 then redis.call('EXPIRE', KEYS[1], minute_ttl) end
  if per_day > 0 then
    day = redis.call('INCR', KEYS[2])
    if day == 1 then redis.call('EXPIRE', KEYS[2], day_ttl) end
  end
  tally('admitted')
  return {1, minute, day, 0, 0}
end
if redis.call('INCR', KEYS[6]) == 1 then redis.call('EXPIRE', KEYS[6], day_ttl) end
if banned_until > now then
  tally('banned')
  return {2, minute, day, banned_until, 0}
end
if strikes_needed == 0 then
  tally('refused')
  return {0, minute, day, 0, 0}
end
local strikes = redis.call('INCR', KEYS[3])
if strikes == 1 then redis.call('EXPIRE', KEYS[3], minute_ttl) end
if strikes < strikes_needed then
  tally('refused')
  return {0, minute, day, 0, 0}
end
-- The request that earns the ban is answered as banned, and tallied so.
tally('banned')
redis.call('DEL', KEYS[3])
local number = redis.call('INCR', KEYS[5])
redis.call('EXPIRE', KEYS[5], ARGV[9])
local seconds = math.min(tonumber(ARGV[7]) * 2 ^ (number - 1), tonumber(ARGV[8]))
local ends_at = now + seconds
redis.call('SET', KEYS[4], ends_at, 'EX', seconds)
return {3, minute, day, ends_at, number}
"""


_PEEK_SCRIPT = """
if ARGV[4] ~= '' and redis.call('GET', KEYS[4]) ~= ARGV[4] then
  return {4, 0, 0, 0, 0}
end
local minute = tonumber(redis.call('GET', KEYS[1]) or '0')
local day = tonumber(redis.call('GET', KEYS[2]) or '0')
local banned_until = tonumber(redis.call('GET', KEYS[3]) or '0')
if banned_until <= tonumber(ARGV[3]) then banned_until = 0 end
local peeks = tonumber(redis.call('GET', KEYS[5]) or '0')
if peeks >= tonumber(ARGV[1]) then
  return {0, peeks, minute, day, banned_until}
end
peeks = redis.call('INCR', KEYS[5])
if peeks == 1 then redis.call('EXPIRE', KEYS[5], ARGV[2]) end
return {1, peeks, minute, day, banned_until}
"""


# The name Redis gives each script: EVALSHA sends the name, not the script.
_SHAS = {
    script: hashlib.sha1(script.encode(), usedforsecurity=False).hexdigest()
    for script in (_SCRIPT, _PEEK_SCRIPT)
}


class PeekArgs(NamedTuple):
    """A peek's parameters, the same in both backends."""

    limit: int  # peeks per minute per caller
    ttl: int
    now: int
    generation: str  # "": not checked

    def as_list(self) -> list[int | str]:
        return [self.limit, self.ttl, self.now, self.generation]


class Peeked(NamedTuple):
    """What a backend returns for one peek: the peek's own verdict and count (ADMITTED,
    REFUSED or STALE_KEY), and the subject's windows and ban, untouched."""

    verdict: Verdict
    peeks: int
    minute: int
    day: int
    ban_ends_at: int  # 0: no ban in force


def _peek_names(keys: Keys) -> list[str]:
    return [keys.minute, keys.day, keys.ban, keys.generation, keys.peeks]


class MemoryBackend:
    """The script's steps in process memory, for one process."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._values: dict[str, tuple[int, float]] = {}  # key -> (value, expires at)
        # The usage tallies: hash -> (fields, expires at); index -> (account ids, expires at).
        self._hashes: dict[str, tuple[dict[str, int | str], float]] = {}
        self._sets: dict[str, tuple[set[str], float]] = {}
        self._next_purge = 0.0

    def _get(self, key: str, now: float) -> int:
        value, expires_at = self._values.get(key, (0, 0.0))
        return value if expires_at > now else 0

    def _incr(self, key: str, now: float, ttl: float) -> int:
        value = self._get(key, now) + 1
        expires_at = self._values[key][1] if value > 1 else now + ttl
        self._values[key] = (value, expires_at)
        return value

    def _tally(self, keys: Keys, args: Args, kind: str, now: int) -> None:
        if not args.usage_key:
            return
        fields, expires_at = self._hashes.get(keys.usage, ({}, 0.0))
        if expires_at <= now:
            fields = {}
        name = f"{args.usage_key}:{kind}"
        count = int(fields.get(name, 0)) + 1
        fields[name] = count
        self._hashes[keys.usage] = (fields, expires_at)
        if count == 1:
            fields.update(per_minute=args.per_minute, per_day=args.per_day)
            usage_ttl = lifetimes(now)[2]
            self._hashes[keys.usage] = (fields, now + usage_ttl)
            members, _ = self._sets.get(keys.usage_index, (set(), 0.0))
            members.add(args.usage_account)
            self._sets[keys.usage_index] = (members, now + usage_ttl)

    def run(self, keys: Keys, args: Args, now: int) -> Outcome:
        # No process caches keys without Redis (apikeys.keyring): no generation to check.
        minute_ttl, day_ttl, _ = lifetimes(now)
        with self._lock:
            self._purge(now)
            banned_until = self._get(keys.ban, now)
            minute = self._get(keys.minute, now)
            day = self._get(keys.day, now) if args.per_day else 0
            if (
                banned_until <= now
                and minute < args.per_minute
                and (not args.per_day or day < args.per_day)
            ):
                minute = self._incr(keys.minute, now, minute_ttl)
                if args.per_day:
                    day = self._incr(keys.day, now, day_ttl)
                self._tally(keys, args, "admitted", now)
                return Outcome(Verdict.ADMITTED, minute, day)
            self._incr(keys.refused, now, day_ttl)
            if banned_until > now:
                self._tally(keys, args, "banned", now)
                return Outcome(Verdict.BANNED, minute, day, banned_until)
            if not args.strikes or self._incr(keys.strikes, now, minute_ttl) < args.strikes:
                self._tally(keys, args, "refused", now)
                return Outcome(Verdict.REFUSED, minute, day)
            self._tally(keys, args, "banned", now)
            self._values.pop(keys.strikes, None)
            number = self._get(keys.bans, now) + 1
            self._values[keys.bans] = (number, now + BAN_MEMORY_SECONDS)
            seconds = min(BAN_BASE_SECONDS * 2 ** (number - 1), BAN_MAX_SECONDS)
            self._values[keys.ban] = (now + seconds, now + seconds)
            return Outcome(Verdict.NEWLY_BANNED, minute, day, now + seconds, number)

    def peek(self, keys: Keys, args: PeekArgs) -> Peeked:
        now = args.now
        with self._lock:
            self._purge(now)
            minute, day = self._get(keys.minute, now), self._get(keys.day, now)
            banned_until = self._get(keys.ban, now)
            banned_until = banned_until if banned_until > now else 0
            peeks = self._get(keys.peeks, now)
            if peeks >= args.limit:
                return Peeked(Verdict.REFUSED, peeks, minute, day, banned_until)
            peeks = self._incr(keys.peeks, now, args.ttl)
            return Peeked(Verdict.ADMITTED, peeks, minute, day, banned_until)

    def read(self, names: list[str], now: float) -> list[int]:
        with self._lock:
            return [self._get(name, now) for name in names]

    def delete(self, names: list[str]) -> None:
        with self._lock:
            for name in names:
                self._values.pop(name, None)

    # The usage tallies, as RedisBackend reads them.

    def usage(self, name: str, now: float) -> dict[str, int | str]:
        with self._lock:
            fields, expires_at = self._hashes.get(name, ({}, 0.0))
            return dict(fields) if expires_at > now else {}

    def usage_accounts(self, index: str, now: float) -> set[str]:
        with self._lock:
            members, expires_at = self._sets.get(index, (set(), 0.0))
            return set(members) if expires_at > now else set()

    def claim_usage(self, name: str, epoch: str, now: float) -> dict[str, int | str]:
        """The hash's tallies, marked with ``epoch`` unless an earlier roll-up marked it."""
        with self._lock:
            fields, expires_at = self._hashes.get(name, ({}, 0.0))
            if expires_at <= now:
                return {}
            fields.setdefault("epoch", epoch)
            return dict(fields)

    def _purge(self, now: float) -> None:
        if now < self._next_purge:
            return
        self._values = {k: v for k, v in self._values.items() if v[1] > now}
        self._hashes = {k: v for k, v in self._hashes.items() if v[1] > now}
        self._sets = {k: v for k, v in self._sets.items() if v[1] > now}
        self._next_purge = now + MINUTE

    def clear(self) -> None:
        with self._lock:
            self._values.clear()
            self._hashes.clear()
            self._sets.clear()


class RedisBackend:
    """The script in Redis: one round trip per check, atomic across every process."""

    def __init__(self, client: RedisClient) -> None:
        self.client = client
        # Each subject's check, packed for the wire but for its last argument, the second:
        # the same from one request to the next within a minute, and packing two dozen
        # arguments is most of what a check costs this process.
        self._packed: dict[tuple[Keys, Args], bytes] = {}

    def _evalsha(self, script: str, packed: bytes) -> Any:
        try:
            return self.client.execute_packed(packed)
        except ReplyError as exc:
            if not str(exc).startswith("NOSCRIPT"):
                raise
        # Redis restarted, or is new, and does not know the script yet: load it, once.
        self.client.execute("SCRIPT", "LOAD", script)
        return self.client.execute_packed(packed)

    def run(self, keys: Keys, args: Args, now: int) -> Outcome:
        head = self._packed.get((keys, args))
        if head is None:
            if len(self._packed) >= MAX_SUBJECTS_NAMED:
                self._packed.clear()  # mostly names of minutes gone by
            names = keys.as_list()
            head = self._packed[(keys, args)] = pack_head(
                ("EVALSHA", _SHAS[_SCRIPT], len(names), *names, *args.as_list()), more=1
            )
        return _outcome(self._evalsha(_SCRIPT, head + pack_argument(now)))

    def peek(self, keys: Keys, args: PeekArgs) -> Peeked:
        names = _peek_names(keys)
        command = ("EVALSHA", _SHAS[_PEEK_SCRIPT], len(names), *names, *args.as_list())
        raw = self._evalsha(_PEEK_SCRIPT, pack_head(command))
        verdict, peeks, minute, day, ban_ends_at = (int(value) for value in raw)
        return Peeked(_VERDICTS[verdict], peeks, minute, day, ban_ends_at)

    def read(self, names: list[str], now: float) -> list[int]:
        return [int(value or 0) for value in self.client.execute("MGET", *names)]

    def delete(self, names: list[str]) -> None:
        self.client.execute("DEL", *names)

    def usage(self, name: str, now: float) -> dict[str, int | str]:
        return _fields(self.client.execute("HGETALL", name))

    def usage_accounts(self, index: str, now: float) -> set[str]:
        return {member.decode() for member in self.client.execute("SMEMBERS", index)}

    def claim_usage(self, name: str, epoch: str, now: float) -> dict[str, int | str]:
        # One script, so that a hash that expires or is new in between is never re-created
        # by the mark alone (it would then live for ever).
        reply = self.client.execute("EVAL", _CLAIM_SCRIPT, 1, name, epoch)
        return _fields(reply)


# The roll-up's read of one account's day: its tallies, marked with the caller's epoch unless an
# earlier roll-up marked them already (apikeys.usage says why).
_CLAIM_SCRIPT = """
if redis.call('EXISTS', KEYS[1]) == 0 then return {} end
redis.call('HSETNX', KEYS[1], 'epoch', ARGV[1])
return redis.call('HGETALL', KEYS[1])
"""


def _fields(flat: list[bytes]) -> dict[str, int | str]:
    fields: dict[str, int | str] = {}
    for name, value in zip(flat[::2], flat[1::2], strict=True):
        text = value.decode()
        fields[name.decode()] = text if name == b"epoch" else int(text)
    return fields


# The script's numbers as verdicts: a lookup, since calling the enum costs more than a whole
# check's other arithmetic; and the two every check compares with, named once (reading an
# enum's member costs as much again).
_VERDICTS = {verdict.value: verdict for verdict in Verdict}
_ADMITTED, _STALE_KEY = Verdict.ADMITTED, Verdict.STALE_KEY


Backend = RedisBackend | MemoryBackend
T = TypeVar("T")


def _outcome(raw: list[int]) -> Outcome:
    verdict, minute, day, ban_ends_at, ban_number = raw
    return Outcome(_VERDICTS[verdict], minute, day, ban_ends_at, ban_number)


class Limiter:
    """Checks subjects against their policies, in Redis when it is configured and reachable,
    in process memory otherwise."""

    def __init__(self) -> None:
        self.memory = MemoryBackend()
        self._lock = threading.Lock()
        self._redis: tuple[str, RedisBackend] | None = None
        self.down_since: float | None = None
        self._retry_at = 0.0
        # Bumped at each outage: what a process cached before one cannot be trusted after it.
        self.outages = 0
        self._minute = 0
        self._counting_made: dict[tuple[Subject, str, str], tuple[Keys, Args]] = {}
        # The backend and the counters' prefix the settings name (None: not read yet).
        self._configured: tuple[RedisBackend | None, str] | None = None

    # Which backend ---------------------------------------------------------------------------

    def _redis_backend(self) -> RedisBackend | None:
        """The shared Redis of Django's default cache, if that is where the cache lives."""
        return (self._configured or self._configure())[0]

    def _prefix(self) -> str:
        return (self._configured or self._configure())[1]

    def _configure(self) -> tuple[RedisBackend | None, str]:
        """Read the settings once, and again after they change (``forget_settings``)."""
        prefix = settings.CACHES["default"].get("KEY_PREFIX", "")
        self._configured = (self._read_redis_backend(), f"{prefix}:" if prefix else "")
        return self._configured

    def forget_settings(self) -> None:
        self._configured = None

    def _read_redis_backend(self) -> RedisBackend | None:
        """A client of our own, built from the cache's setting (``apikeys.redis_client`` says
        why); the same client as long as the setting names the same server."""
        config: dict[str, Any] = settings.CACHES["default"]
        if config["BACKEND"] != "django.core.cache.backends.redis.RedisCache":
            return None
        location = config["LOCATION"]
        current = self._redis
        if current is None or current[0] != location:
            options = config.get("OPTIONS", {})
            client = RedisClient(
                location,
                socket_timeout=options.get("socket_timeout", 0.5),
                socket_connect_timeout=options.get("socket_connect_timeout", 0.5),
            )
            current = self._redis = (location, RedisBackend(client))
        return current[1]

    @property
    def shared(self) -> bool:
        """Whether counts are shared between processes right now."""
        return self._redis_backend() is not None and self.down_since is None

    def _failed(self, exc: Exception) -> None:
        with self._lock:
            self._retry_at = time.monotonic() + REDIS_RETRY_SECONDS
            if self.down_since is None:
                self.down_since = time.monotonic()
                self.outages += 1
                logger.warning(
                    "Redis is unreachable (%s): rate limits are now counted per process "
                    "until it returns",
                    exc,
                )

    def _succeeded(self) -> None:
        if self.down_since is None:
            return
        with self._lock:
            if self.down_since is not None:
                logger.warning(
                    "Redis is reachable again after %.0f s: rate limits are shared again",
                    time.monotonic() - self.down_since,
                )
                self.down_since = None

    def _usable_redis(self) -> RedisBackend | None:
        backend = self._redis_backend()
        if backend is None or (self.down_since is not None and time.monotonic() < self._retry_at):
            return None
        return backend

    # Checks ----------------------------------------------------------------------------------

    def check(self, subject: Subject, *, generation: str = "") -> Decision:
        """Count one request against ``subject`` if its windows have room.

        ``generation``: for a caller whose key came from a process cache, the key generation
        it was read under; when that is no longer current nothing is counted (``stale_key``).
        """
        now = time.time()
        second = int(now)
        policy = subject.policy
        outcome = self._on_counters(
            subject,
            now,
            lambda backend, keys, args: backend.run(keys, args, second),
            generation=generation,
        )
        verdict = outcome.verdict
        if verdict is _STALE_KEY:
            return Decision(allowed=False, window=Window(0, 0, 0), stale_key=True)
        windows = _windows(policy, second, outcome.minute, outcome.day)
        tightest = _tightest(windows)
        field = _policy_field(policy, windows)
        if verdict is _ADMITTED:
            return Decision(True, tightest, policy_field=field, now=second)
        if verdict in (Verdict.BANNED, Verdict.NEWLY_BANNED):
            new_ban = None
            if verdict == Verdict.NEWLY_BANNED:
                new_ban = Ban(outcome.ban_number, second, outcome.ban_ends_at)
            return Decision(
                allowed=False,
                window=tightest._replace(remaining=0, reset=outcome.ban_ends_at),
                retry_after=max(1, math.ceil(outcome.ban_ends_at - now)),
                banned=True,
                new_ban=new_ban,
                policy_field=field,
                now=second,
            )
        wait = max(w.reset for w in windows if w.remaining == 0) - now
        return Decision(
            allowed=False,
            window=tightest._replace(remaining=0),
            retry_after=max(1, math.ceil(wait)),
            policy_field=field,
            now=second,
        )

    def peek(
        self, subject: Subject, *, per_minute: int, generation: str = ""
    ) -> tuple[Decision, Standing | None]:
        """Read ``subject``'s windows and its caller's ban without counting anything against
        them, counting the peek instead against the caller's own ``per_minute`` window.

        Returns that window's decision (its headers describe it), and the subject's standing,
        None when the peek was refused or the cached key it was made for is stale.
        """
        now = time.time()
        second = int(now)
        minute_reset = (second // MINUTE + 1) * MINUTE
        args = PeekArgs(
            limit=per_minute,
            ttl=minute_reset - second + EXPIRY_MARGIN,
            now=second,
            generation=generation,
        )
        peeked = self._peek(subject, now, args)
        if peeked.verdict == Verdict.STALE_KEY:
            return Decision(allowed=False, window=Window(0, 0, 0), stale_key=True), None
        own = Window(per_minute, max(0, per_minute - peeked.peeks), minute_reset, PEEK_WINDOW)
        if peeked.verdict != Verdict.ADMITTED:
            refused = Decision(
                allowed=False,
                window=own,
                retry_after=max(1, math.ceil(minute_reset - now)),
                policy_field=policy_field((own,)),
                now=second,
            )
            return refused, None
        windows = _windows(subject.policy, second, peeked.minute, peeked.day)
        standing = Standing(windows, peeked.ban_ends_at or None, now=second)
        admitted = Decision(True, own, policy_field=policy_field((own,)), now=second)
        return admitted, standing

    def _counting(
        self, subject: Subject, generation: str, now: float, prefix: str
    ) -> tuple[Keys, Args]:
        """``subject``'s counters' names and its check's arguments, made once a minute: naming
        ten counters is most of a check's own work."""
        minute = int(now // MINUTE)
        if minute != self._minute or len(self._counting_made) > MAX_SUBJECTS_NAMED:
            self._minute, self._counting_made = minute, {}
        made = self._counting_made.get((subject, generation, prefix))
        if made is None:
            made = (Keys.of(subject, now, prefix), Args.of(subject, generation))
            self._counting_made[(subject, generation, prefix)] = made
        return made

    def _on_counters(
        self,
        subject: Subject,
        now: float,
        use: Callable[[Backend, Keys, Args], T],
        *,
        generation: str = "",
    ) -> T:
        """``use`` on ``subject``'s counters in Redis while it answers, in this process's
        memory otherwise: the one fallback every count and read of a subject takes."""
        backend = self._usable_redis()
        if backend is not None:
            try:
                result = use(backend, *self._counting(subject, generation, now, self._prefix()))
            except RedisError as exc:
                self._failed(exc)
            else:
                self._succeeded()
                return result
        return use(self.memory, *self._counting(subject, generation, now, ""))

    def _peek(self, subject: Subject, now: float, args: PeekArgs) -> Peeked:
        return self._on_counters(subject, now, lambda backend, keys, _: backend.peek(keys, args))

    def counts(self, subject: Subject) -> tuple[int, int, int]:
        """This minute's and today's admitted requests of ``subject``, and today's refusals."""
        now = time.time()
        minute, day, refused = self._on_counters(
            subject,
            now,
            lambda backend, keys, _: backend.read([keys.minute, keys.day, keys.refused], now),
        )
        return minute, day, refused

    # Usage tallies (see apikeys.usage) ------------------------------------------------------

    def usage_today(self, account_id: int, day: int) -> dict[str, int | str]:
        """An account's tallies of UTC day ``day`` as they stand: one round trip (``HGETALL``).
        While Redis is unreachable, this process's own tallies of the outage."""
        now = time.time()
        tag = "{" + f"a{account_id}" + "}"
        backend = self._usable_redis()
        if backend is not None:
            try:
                return backend.usage(usage_name(tag, day, self._prefix()), now)
            except RedisError as exc:
                self._failed(exc)
        return self.memory.usage(usage_name(tag, day), now)

    def usage_store(self) -> tuple[RedisBackend | MemoryBackend, str]:
        """Where the tallies are kept, and the prefix of their names, for the roll-up: Redis
        when it is configured (its errors are the caller's), this process's memory otherwise."""
        backend = self._redis_backend()
        if backend is not None:
            return backend, self._prefix()
        return self.memory, ""

    def lift_ban(self, subject: Subject) -> None:
        """End the caller's ban and its strikes at once, in every process."""
        now = time.time()
        self.memory.delete(_ban_names(Keys.of(subject, now)))
        backend = self._usable_redis()
        if backend is not None:
            try:
                backend.delete(_ban_names(Keys.of(subject, now, self._prefix())))
            except RedisError as exc:
                self._failed(exc)

    # Key generations (see apikeys.keyring) ---------------------------------------------------

    def key_generation(self) -> str | None:
        """The current key generation, or None when keys must not be cached: without Redis,
        or while it is unreachable, no process could hear of a change."""
        backend = self._redis_backend()
        if backend is None or self.down_since is not None:
            return None
        fresh = uuid.uuid4().hex
        try:
            # One round trip: the current value, or ours if there was none.
            current = backend.client.execute(
                "SET", self._prefix() + KEY_GENERATION, fresh, "NX", "GET"
            )
        except RedisError as exc:
            self._failed(exc)
            return None
        return current.decode() if isinstance(current, bytes) else fresh

    def new_key_generation(self) -> None:
        """Declare every cached key lookup, in every process, out of date."""
        backend = self._redis_backend()
        if backend is None:
            return
        try:
            # Random, not a counter: a Redis that restarted empty can never repeat an old value.
            backend.client.execute("SET", self._prefix() + KEY_GENERATION, uuid.uuid4().hex)
        except RedisError as exc:
            self._failed(exc)

    def reset(self) -> None:
        """Forget in-process counts and outage state (tests, and after a settings change)."""
        self.memory.clear()
        self.down_since = None
        self._configured = None


def _windows(policy: Policy, second: int, minute: int, day: int) -> tuple[Window, ...]:
    """The policy's windows at ``second``, given how many requests each has admitted."""
    per_minute, per_day = policy.per_minute, policy.per_day
    minute_window = Window(
        per_minute, max(0, per_minute - minute), second - second % MINUTE + MINUTE
    )
    if per_day is None:
        return (minute_window,)
    day_reset = second - second % DAY + DAY
    return minute_window, Window(per_day, max(0, per_day - day), day_reset, "day", DAY)


# Each policy's RateLimit-Policy field, made once: it changes only with the policy.
_POLICY_FIELDS: dict[Policy, str] = {}


def _policy_field(policy: Policy, windows: tuple[Window, ...]) -> str:
    field = _POLICY_FIELDS.get(policy)
    if field is None:
        if len(_POLICY_FIELDS) >= MAX_SUBJECTS_NAMED:
            _POLICY_FIELDS.clear()
        field = _POLICY_FIELDS[policy] = policy_field(windows)
    return field


def _tightest(windows: tuple[Window, ...]) -> Window:
    # The fewest remaining; on a tie, the later reset, since that is when both have room.
    tightest = windows[0]
    for window in windows[1:]:
        if window.remaining < tightest.remaining or (
            window.remaining == tightest.remaining and window.reset > tightest.reset
        ):
            tightest = window
    return tightest


class Standing(NamedTuple):
    """Where a subject stands, read without counting: its windows and the caller's ban."""

    windows: tuple[Window, ...]
    ban_ends_at: int | None
    now: int

    @property
    def tightest(self) -> Window:
        return _tightest(self.windows)


def _ban_names(keys: Keys) -> list[str]:
    return [keys.ban, keys.strikes]


limiter = Limiter()


@receiver(setting_changed)
def _forget_cache_settings(*, setting: str, **kwargs: Any) -> None:
    # Tests, and nothing else, change settings while the process runs.
    if setting == "CACHES":
        limiter.forget_settings()


class Usage(NamedTuple):
    this_minute: int
    today: int
    refused_today: int


def account_usage(account_id: int) -> Usage:
    """Requests the account made this minute and this UTC day, and how many were refused."""
    return Usage(*limiter.counts(Subject.account(account_id, Limits(0, 0))))
