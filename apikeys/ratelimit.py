"""Request limits: per account over two clock-aligned fixed windows, bans, and per address.

**Where it runs.** In middleware (``apikeys.middleware.RateLimitMiddleware``), not as a DRF
throttle: every response under /v1 reports the limit in ``X-RateLimit-*`` headers, including
the ones DRF never sees (unknown paths, 405s from the router, crashes), and a refused request
should not reach the view at all.

**Per account.** A request is admitted only if the minute window (aligned to the clock) and the
UTC-day window both have room; a refused request consumes nothing. A key that makes
``BAN_STRIKES`` refused requests within one minute is banned for ``BAN_BASE_SECONDS``, doubling
with each further ban within ``BAN_MEMORY_SECONDS`` of the last, up to ``BAN_MAX_SECONDS``.

**Atomic, one round trip.** With Redis, the ban check, both counters and the strike count are one
Lua script (one ``EVALSHA``), so any number of processes never admit more than a limit, and a
refused request never increments a counter (unlike INCR-then-compare, or DRF's
``SimpleRateThrottle``, whose read-modify-write races and stores every timestamp).

**Without Redis.** In embedded mode (no ``REDIS_URL``) and while Redis is unreachable, the same
algorithm runs in process memory under a lock: right for one process, per-process otherwise.
An outage is logged once when it starts and once when it ends, not per request.

**Per address.** Requests without a valid key are counted per client address with
django-ratelimit's ``get_usage`` (``PETSTORE_ANONYMOUS_RATE``); ``X-Forwarded-For`` is believed
only as far as ``PETSTORE_TRUSTED_PROXIES`` proxies vouch for it.
"""

from __future__ import annotations

import ipaddress
import logging
import math
import threading
import time
import uuid
import weakref
from dataclasses import dataclass
from typing import Any

import redis
from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.http import HttpRequest

# _split_rate: the same "60/m" parsing as get_usage's, for the fallback while Redis is down.
from django_ratelimit.core import _split_rate, get_usage

from apikeys.models import Limits

logger = logging.getLogger("petstore.ratelimit")

MINUTE = 60
DAY = 86_400
BAN_STRIKES = 10
BAN_BASE_SECONDS = 15 * MINUTE
BAN_MAX_SECONDS = DAY
BAN_MEMORY_SECONDS = DAY
# Seconds a counter outlives its window, so that a slow clock on one host still finds it.
EXPIRY_MARGIN = 5
# While Redis is down, try it again this often (real seconds), not on every request.
REDIS_RETRY_SECONDS = 2.0
ANONYMOUS_GROUP = "petstore.anonymous"

# Outcomes of a check, as the script returns them.
REFUSED, ADMITTED, BANNED, NEWLY_BANNED, STALE_KEY = 0, 1, 2, 3, 4
KEY_GENERATION = "auth:key-generation"


@dataclass(frozen=True)
class Window:
    limit: int
    remaining: int
    reset: int  # Unix seconds at which the window ends


@dataclass(frozen=True)
class Decision:
    allowed: bool
    window: Window  # the window with the fewest requests remaining, for the headers
    retry_after: int = 0  # whole seconds, >= 1 when refused
    banned: bool = False
    new_ban: Ban | None = None
    # The cached key the check was made for is out of date: nothing was counted; look the key
    # up again and check again.
    stale_key: bool = False

    @property
    def headers(self) -> dict[str, str]:
        headers = {
            "X-RateLimit-Limit": str(self.window.limit),
            "X-RateLimit-Remaining": str(self.window.remaining),
            "X-RateLimit-Reset": str(self.window.reset),
        }
        if not self.allowed:
            headers["Retry-After"] = str(self.retry_after)
        return headers


@dataclass(frozen=True)
class Ban:
    number: int  # the how-many-th ban within BAN_MEMORY_SECONDS
    # Unix seconds, both from the one clock the check ran on, so that a record of the ban
    # lasts exactly as long as the ban itself.
    started_at: int
    ends_at: int


def ban_seconds(number: int) -> int:
    return int(min(BAN_BASE_SECONDS * 2 ** (number - 1), BAN_MAX_SECONDS))


# KEYS: minute counter, day counter, strike counter, ban, ban count, refused-today counter,
#       key generation (see apikeys.keycache).
# ARGV: per minute, per day, minute ttl, day ttl, now, strikes, base ban, max ban, ban memory,
#       the key generation the caller's cached key was read under ("" when not cached).
# Returns {outcome, minute count, day count, ban ends at, ban number}.
_SCRIPT = """
if ARGV[10] ~= '' and redis.call('GET', KEYS[7]) ~= ARGV[10] then
  return {4, 0, 0, 0, 0}
end
local now = tonumber(ARGV[5])
local banned_until = tonumber(redis.call('GET', KEYS[4]) or '0')
local minute = tonumber(redis.call('GET', KEYS[1]) or '0')
local day = tonumber(redis.call('GET', KEYS[2]) or '0')
if banned_until <= now and minute < tonumber(ARGV[1]) and day < tonumber(ARGV[2]) then
  minute = redis.call('INCR', KEYS[1])
  if minute == 1 then redis.call('EXPIRE', KEYS[1], ARGV[3]) end
  day = redis.call('INCR', KEYS[2])
  if day == 1 then redis.call('EXPIRE', KEYS[2], ARGV[4]) end
  return {1, minute, day, 0, 0}
end
if redis.call('INCR', KEYS[6]) == 1 then redis.call('EXPIRE', KEYS[6], ARGV[4]) end
if banned_until > now then
  return {2, minute, day, banned_until, 0}
end
local strikes = redis.call('INCR', KEYS[3])
if strikes == 1 then redis.call('EXPIRE', KEYS[3], ARGV[3]) end
if strikes < tonumber(ARGV[6]) then
  return {0, minute, day, 0, 0}
end
redis.call('DEL', KEYS[3])
local number = redis.call('INCR', KEYS[5])
redis.call('EXPIRE', KEYS[5], ARGV[9])
local seconds = math.min(tonumber(ARGV[7]) * 2 ^ (number - 1), tonumber(ARGV[8]))
local ends_at = now + seconds
redis.call('SET', KEYS[4], ends_at, 'EX', seconds)
return {3, minute, day, ends_at, number}
"""


class _LocalStore:
    """The script's algorithm in process memory: embedded mode, and the fallback for outages."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._values: dict[str, tuple[int, float]] = {}  # key -> (value, expires at)
        self._next_purge = 0.0

    def _get(self, key: str, now: float) -> int:
        value, expires_at = self._values.get(key, (0, 0.0))
        return value if expires_at > now else 0

    def _incr(self, key: str, now: float, ttl: float) -> int:
        value = self._get(key, now) + 1
        expires_at = self._values[key][1] if value > 1 else now + ttl
        self._values[key] = (value, expires_at)
        return value

    def run(self, keys: list[str], args: list[int]) -> list[int]:
        # Without Redis no key is cached (see apikeys.keycache): the generation is not checked.
        minute_key, day_key, strikes_key, ban_key, bans_key, refused_key, _ = keys
        per_minute, per_day, minute_ttl, day_ttl, now = args[:5]
        strikes_needed, base_ban, max_ban, ban_memory = args[5:9]
        with self._lock:
            self._purge(now)
            banned_until = self._get(ban_key, now)
            minute, day = self._get(minute_key, now), self._get(day_key, now)
            if banned_until <= now and minute < per_minute and day < per_day:
                minute = self._incr(minute_key, now, minute_ttl)
                day = self._incr(day_key, now, day_ttl)
                return [ADMITTED, minute, day, 0, 0]
            self._incr(refused_key, now, day_ttl)
            if banned_until > now:
                return [BANNED, minute, day, banned_until, 0]
            if self._incr(strikes_key, now, minute_ttl) < strikes_needed:
                return [REFUSED, minute, day, 0, 0]
            self._values.pop(strikes_key, None)
            number = self._get(bans_key, now) + 1
            self._values[bans_key] = (number, now + ban_memory)
            seconds = min(base_ban * 2 ** (number - 1), max_ban)
            self._values[ban_key] = (now + seconds, now + seconds)
            return [NEWLY_BANNED, minute, day, now + seconds, number]

    def hit(self, key: str, limit: int, now: float, ttl: float) -> tuple[bool, int]:
        """One window on its own (addresses while Redis is down): admitted, and the count."""
        with self._lock:
            self._purge(now)
            count = self._get(key, now)
            if count >= limit:
                return False, count
            return True, self._incr(key, now, ttl)

    def delete(self, *keys: str) -> None:
        with self._lock:
            for key in keys:
                self._values.pop(key, None)

    def get(self, key: str, now: float) -> int:
        with self._lock:
            return self._get(key, now)

    def _purge(self, now: float) -> None:
        if now < self._next_purge:
            return
        self._values = {k: v for k, v in self._values.items() if v[1] > now}
        self._next_purge = now + MINUTE

    def clear(self) -> None:
        with self._lock:
            self._values.clear()


class _RedisHealth:
    """Remembers an outage, so that it is logged once and Redis is not retried per request."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.down_since: float | None = None
        self._retry_at = 0.0
        # Bumped at each outage: what was cached before one cannot be trusted after it.
        self.outages = 0

    def should_try(self) -> bool:
        return self.down_since is None or time.monotonic() >= self._retry_at

    def failed(self, exc: Exception) -> None:
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

    def succeeded(self) -> None:
        if self.down_since is None:
            return
        with self._lock:
            if self.down_since is not None:
                logger.warning(
                    "Redis is reachable again after %.0f s: rate limits are shared again",
                    time.monotonic() - self.down_since,
                )
                self.down_since = None


_local = _LocalStore()
_health = _RedisHealth()
_script_sha: dict[str, str] = {}


def reset_local_state() -> None:
    """Forget in-process counters and outage state (tests, and after a settings change)."""
    _local.clear()
    _health.down_since = None


# One client per cache object: Django's get_client() builds a new redis.Redis (and its table of
# ~170 response callbacks) on every call, which cost more than the round trip itself.
_clients: weakref.WeakKeyDictionary[RedisCache, redis.Redis] = weakref.WeakKeyDictionary()


def _redis() -> tuple[RedisCache, redis.Redis] | None:
    cache = caches["default"]
    if not isinstance(cache, RedisCache):
        return None
    client = _clients.get(cache)
    if client is None:
        # Django has no public way to reach the client behind its cache; the script needs it.
        client = _clients[cache] = cache._cache.get_client(write=True)  # type: ignore[attr-defined]
    return cache, client


def _run_script(client: redis.Redis, keys: list[str], args: list[int | str]) -> list[int]:
    sha = _script_sha.get("sha")
    if sha is not None:
        try:
            return client.evalsha(sha, len(keys), *keys, *args)
        except redis.exceptions.NoScriptError:
            pass  # Redis restarted and forgot it: load it again below.
    _script_sha["sha"] = client.script_load(_SCRIPT)
    return client.evalsha(_script_sha["sha"], len(keys), *keys, *args)


def _account_keys(account_id: int, key_id: int, now: float) -> list[str]:
    minute, day = int(now // MINUTE), int(now // DAY)
    names = [
        f"rl:a{account_id}:m{minute}",
        f"rl:a{account_id}:d{day}",
        f"rl:k{key_id}:strikes:m{minute}",
        f"rl:k{key_id}:ban",
        f"rl:k{key_id}:bans",
        f"rl:a{account_id}:refused:d{day}",
        KEY_GENERATION,
    ]
    connection = _redis()
    if connection is None:
        return names
    return [connection[0].make_key(name) for name in names]


def _execute(keys: list[str], args: list[int | str]) -> list[int]:
    connection = _redis()
    if connection is not None and _health.should_try():
        try:
            result = [int(value) for value in _run_script(connection[1], keys, args)]
        except redis.RedisError as exc:
            _health.failed(exc)
        else:
            _health.succeeded()
            return result
    return _local.run(keys, args)  # type: ignore[arg-type]


def check_account(
    *, account_id: int, key_id: int, limits: Limits, key_generation: str = ""
) -> Decision:
    """Count one request of ``account_id`` (made with ``key_id``) if both windows have room.

    ``key_generation``: for a key served from the key cache, the generation it was read under;
    when that is no longer current the check counts nothing and says ``stale_key``.
    """
    now = time.time()
    second = int(now)
    minute_reset = (second // MINUTE + 1) * MINUTE
    day_reset = (second // DAY + 1) * DAY
    args: list[int | str] = [
        limits.per_minute,
        limits.per_day,
        minute_reset - second + EXPIRY_MARGIN,
        day_reset - second + EXPIRY_MARGIN,
        second,
        BAN_STRIKES,
        BAN_BASE_SECONDS,
        BAN_MAX_SECONDS,
        BAN_MEMORY_SECONDS,
        key_generation,
    ]
    outcome, minute, day, ban_ends_at, ban_number = _execute(
        _account_keys(account_id, key_id, now), args
    )
    if outcome == STALE_KEY:
        return Decision(allowed=False, window=Window(0, 0, 0), stale_key=True)
    windows = [
        Window(limits.per_minute, max(0, limits.per_minute - minute), minute_reset),
        Window(limits.per_day, max(0, limits.per_day - day), day_reset),
    ]
    # The fewest remaining; on a tie, the later reset, since that is when both have room.
    tightest = min(windows, key=lambda w: (w.remaining, -w.reset))
    if outcome == ADMITTED:
        return Decision(allowed=True, window=tightest)
    if outcome in (BANNED, NEWLY_BANNED):
        return Decision(
            allowed=False,
            window=Window(tightest.limit, 0, ban_ends_at),
            retry_after=max(1, math.ceil(ban_ends_at - now)),
            banned=True,
            new_ban=Ban(ban_number, second, ban_ends_at) if outcome == NEWLY_BANNED else None,
        )
    exceeded = [w for w, count in zip(windows, (minute, day), strict=True) if count >= w.limit]
    wait = max(w.reset for w in exceeded) - now
    return Decision(
        allowed=False,
        window=Window(tightest.limit, 0, tightest.reset),
        retry_after=max(1, math.ceil(wait)),
    )


def redis_outages() -> int:
    """How many Redis outages this process has seen (to date the key cache's entries)."""
    return _health.outages


def key_generation() -> str | None:
    """The current key generation, to cache a key lookup under; None when keys must not be
    cached (no Redis, or Redis unreachable: then no process could hear of a change)."""
    connection = _redis()
    if connection is None or not _health.should_try() or _health.down_since is not None:
        return None
    cache, client = connection
    name = cache.make_key(KEY_GENERATION)
    fresh = uuid.uuid4().hex
    try:
        # One round trip: the current value, or ours if there was none.
        current = client.set(name, fresh, nx=True, get=True)
    except redis.RedisError as exc:
        _health.failed(exc)
        return None
    if isinstance(current, bytes):
        return current.decode()
    return fresh


def new_key_generation() -> None:
    """Declare every cached key lookup, in every process, out of date."""
    connection = _redis()
    if connection is None:
        return
    cache, client = connection
    try:
        # Random, not a counter: a Redis that restarted empty can never repeat an old value.
        client.set(cache.make_key(KEY_GENERATION), uuid.uuid4().hex)
    except redis.RedisError as exc:
        _health.failed(exc)


def clear_ban(key_id: int) -> None:
    """Lift a key's ban at once, in every process (the Ban row is the caller's business)."""
    names = [f"rl:k{key_id}:ban", f"rl:k{key_id}:strikes:m{int(time.time() // MINUTE)}"]
    _local.delete(*names)
    connection = _redis()
    if connection is not None:
        try:
            connection[1].delete(*(connection[0].make_key(name) for name in names))
        except redis.RedisError as exc:
            _health.failed(exc)


@dataclass(frozen=True)
class Usage:
    this_minute: int
    today: int
    refused_today: int


def account_usage(account_id: int) -> Usage:
    """Requests the account made this minute and this UTC day, and how many were refused."""
    now = time.time()
    all_keys = _account_keys(account_id, 0, now)
    keys = [all_keys[0], all_keys[1], all_keys[5]]
    connection = _redis()
    if connection is not None and _health.should_try():
        try:
            values = connection[1].mget(keys)
        except redis.RedisError as exc:
            _health.failed(exc)
        else:
            return Usage(*(int(value or 0) for value in values))
    return Usage(*(_local.get(key, now) for key in keys))


def client_address(request: HttpRequest) -> str:
    """The caller's address: REMOTE_ADDR, or the entry our own proxies vouch for."""
    proxies = settings.PETSTORE_TRUSTED_PROXIES
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if proxies > 0 and forwarded:
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if len(hops) >= proxies:
            return hops[-proxies]
    return str(request.META.get("REMOTE_ADDR", ""))


def address_subject(address: str) -> str:
    """What a request without a key is counted under: an IPv4 address, or an IPv6 /64.

    One IPv6 subscriber usually holds a whole /64 (2^64 addresses), so counting per address
    would give one caller as many budgets as it cares to use.
    """
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(ip), 64), strict=False))
    return str(ip)


def _address_key(group: str, request: HttpRequest) -> str:
    return address_subject(client_address(request))


def check_address(request: HttpRequest) -> Decision:
    """Count one request without a valid key against its client address."""
    rate = settings.PETSTORE_ANONYMOUS_RATE
    usage: dict[str, Any] | None = None
    if _health.should_try():
        try:
            usage = get_usage(
                request, group=ANONYMOUS_GROUP, key=_address_key, rate=rate, increment=True
            )
        except redis.RedisError as exc:
            _health.failed(exc)
        else:
            if _redis() is not None:
                _health.succeeded()
    now = time.time()
    if usage is None:
        return _check_address_locally(address_subject(client_address(request)), rate, now)
    limit, time_left = usage["limit"], max(1, usage["time_left"])
    reset = int(now) + time_left
    if usage["should_limit"]:
        return Decision(allowed=False, window=Window(limit, 0, reset), retry_after=time_left)
    return Decision(allowed=True, window=Window(limit, max(0, limit - usage["count"]), reset))


def _check_address_locally(address: str, rate: str, now: float) -> Decision:
    limit, period = _split_rate(rate)
    reset = (int(now) // period + 1) * period
    admitted, count = _local.hit(f"anon:{address}:{reset}", limit, now, period + EXPIRY_MARGIN)
    if not admitted:
        return Decision(
            allowed=False,
            window=Window(limit, 0, reset),
            retry_after=max(1, math.ceil(reset - now)),
        )
    return Decision(allowed=True, window=Window(limit, max(0, limit - count), reset))
