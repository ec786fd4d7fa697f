"""The limiter: which backend counts a check (Redis while it answers, this process's memory
otherwise), and what the backend's outcome means for the request."""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable, Sequence
from typing import TypeVar

from django.conf import settings

from apikeys.keyring import keyring
from apikeys.limiter.backends.memory import MemoryBackend
from apikeys.limiter.backends.redis import RedisBackend
from apikeys.limiter.counters import Args, GiveBack, Keys, Outcome, PeekArgs, lifetimes
from apikeys.limiter.fields import policy_field, tightest, windows
from apikeys.limiter.policy import (
    BAN_STRIKES,
    DAY_THRESHOLDS,
    PEEK_WINDOW,
    Ban,
    Decision,
    Standing,
    Subject,
    Verdict,
    Window,
)
from apikeys.usage.tallies import in_memory
from apikeys.windows import MINUTE, WINDOWS, Limits
from petstore import redis
from petstore.metrics import LIMITER_FALLBACKS

T = TypeVar("T")


@functools.lru_cache(maxsize=1_000)
def _counting(subject: Subject, generation: str, minute: int, prefix: str) -> tuple[Keys, Args]:
    """``subject``'s counters' names and its check's arguments, the same all minute long:
    naming them is a good part of a check's own work. Kept for the busiest subjects only: with
    thousands of keys in use, a larger cache would be most of a worker's memory."""
    return Keys.of(subject, minute * MINUTE, prefix), Args.of(subject, generation)


@functools.lru_cache(maxsize=2)
def _by_record(minute: int, prefix: str) -> Keys:
    """The names of a check by record, the same all minute long (``Keys.by_record``)."""
    return Keys.by_record(minute * MINUTE, prefix)


# A check by record's arguments: the script takes the limits and the key from the record.
_BY_RECORD = Args(Limits.of(), BAN_STRIKES)

# The day window's place in WINDOWS: its passing thresholds are events (DAY_THRESHOLDS).
DAY_WINDOW = [w.name for w in WINDOWS].index("day")
# The windows a 304 does not count in (Limiter.spare_304), by name: their places in WINDOWS.
_SPARED = {w.name: n for n, w in enumerate(WINDOWS) if not w.counts_304}


def day_threshold_count(per_day: int, percent: int) -> int:
    """The first count of the day at or past ``percent`` of ``per_day``."""
    return -(-per_day * percent // 100)


def _day_threshold(limits: tuple[int, ...], counts: Sequence[int]) -> int:
    """The threshold this request, the day's ``counts[DAY_WINDOW]``-th, is the first to reach
    of the day's limit, or 0."""
    if not limits[DAY_WINDOW]:
        return 0
    per_day, day = limits[DAY_WINDOW], counts[DAY_WINDOW]
    for percent in DAY_THRESHOLDS:
        if day == day_threshold_count(per_day, percent):
            return percent
    return 0


@functools.lru_cache(maxsize=100)
def _thresholds(per_day: int) -> str:
    """The day's counts a threshold event is written at, which a give-back keeps."""
    return ",".join(str(day_threshold_count(per_day, p)) for p in DAY_THRESHOLDS)


Backend = RedisBackend | MemoryBackend


class Limiter:
    """Checks subjects against their policies, in Redis when it is configured and reachable,
    in process memory otherwise."""

    def __init__(self) -> None:
        self.memory = MemoryBackend(in_memory)
        self.redis = RedisBackend()

    def _after_outage(self) -> MemoryBackend:
        """This process's memory, where requests are counted without Redis (embedded mode) or
        while it is unreachable; and since the key generation cannot be heard meanwhile, no key
        cached before is trusted after it."""
        keyring.clear()
        return self.memory

    def _on_counters(self, use: Callable[[Backend], T]) -> T:
        """``use`` on Redis while it answers, on this process's memory otherwise: the one
        fallback every count and read of a subject takes. An outage is logged once when it
        starts and once when it ends (``petstore.redis``)."""
        try:
            return use(self.redis)
        except redis.RedisError:
            if settings.REDIS_URL:  # not merely embedded, where memory is the only place
                LIMITER_FALLBACKS.inc()
            return use(self._after_outage())

    def check(self, subject: Subject, *, generation: str = "") -> Decision:
        """Count one request against ``subject`` if its windows have room.

        ``generation``: for a caller whose key came from a process cache, the key generation
        it was read under; when that is no longer current nothing is counted (``stale_key``).
        """
        now = time.time()
        keys, args = _counting(subject, generation, int(now // MINUTE), settings.REDIS_KEY_PREFIX)
        outcome = self._on_counters(lambda backend: backend.run(keys, args, int(now)))
        return self.decision(subject, outcome, now)

    def check_unread(self, record_name: str) -> tuple[Outcome, float]:
        """Count one request with a key this process has not read, by its record in Redis
        (``record_name``): found and counted in one round trip. The outcome carries the record
        and its generation; ``Verdict.NOT_COUNTED`` when there is none, or none that may be
        counted by its expiry alone, and the caller decides. Redis only: ``redis.RedisError``
        when it cannot be asked, and the caller reads PostgreSQL instead."""
        now = time.time()
        # Names made here, as templates the script fills in with the record's ids; the limits
        # and the key to tally are the record's too (scripts/check.lua).
        keys = _by_record(int(now // MINUTE), settings.REDIS_KEY_PREFIX)
        outcome = self.redis.run(keys._replace(record=record_name), _BY_RECORD, int(now))
        return outcome, now

    def decision(self, subject: Subject, outcome: Outcome, now: float) -> Decision:
        """What ``outcome``, a check of ``subject`` at ``now``, decides."""
        second = int(now)
        verdict = outcome.verdict
        if verdict == Verdict.STALE_KEY:
            return Decision(allowed=False, window=Window(0, 0, 0), stale_key=True)
        policy = subject.policy
        counted = windows(policy.limits, second, outcome.counts)
        window = tightest(counted)
        field = policy_field(counted)
        if verdict == Verdict.ADMITTED:
            return Decision(
                True,
                window,
                policy_field=field,
                now=second,
                record_use=outcome.record_use == 1,
                day_threshold=_day_threshold(policy.limits, outcome.counts),
                windows=counted,
            )
        if verdict in (Verdict.BANNED, Verdict.NEWLY_BANNED):
            new_ban = None
            if verdict == Verdict.NEWLY_BANNED:
                new_ban = Ban(outcome.ban_number, second, outcome.ban_ends_at)
            return Decision(
                allowed=False,
                window=window._replace(remaining=0, reset=outcome.ban_ends_at),
                retry_after=max(1, math.ceil(outcome.ban_ends_at - now)),
                banned=True,
                new_ban=new_ban,
                policy_field=field,
                now=second,
            )
        wait = max(w.reset for w in counted if w.remaining == 0) - now
        return Decision(
            allowed=False,
            window=window._replace(remaining=0),
            retry_after=max(1, math.ceil(wait)),
            policy_field=field,
            now=second,
        )

    def spare_304(self, subject: Subject, decision: Decision) -> Decision:
        """Give the count of an admitted request answered ``304`` (a conditional GET whose
        answer had not changed: docs/design.md#conditional-gets) back to every window a 304
        does not count in (``WindowSpec.counts_304``), and the decision as if they had not
        counted it. Not from a count a threshold event was written at, so that none is
        passed twice."""
        give, kept = [0] * len(WINDOWS), [""] * len(WINDOWS)
        counted = list(decision.windows)
        for at, window in enumerate(counted):
            n = _SPARED.get(window.name)
            if n is not None and window.limit:
                give[n] = 1
                if n == DAY_WINDOW:
                    kept[n] = _thresholds(window.limit)
                counted[at] = window._replace(remaining=min(window.limit, window.remaining + 1))
        if 1 not in give:
            return decision
        # The counters at the check's second, as the check named them.
        keys, counting = _counting(subject, "", decision.now // MINUTE, settings.REDIS_KEY_PREFIX)
        usage_key = counting.usage_key
        args = GiveBack(tuple(give), tuple(kept), f"{usage_key}:admitted" if usage_key else "")
        if not self._on_counters(lambda backend: backend.give_back(keys, args, decision.now)):
            return decision
        windows = tuple(counted)
        return decision._replace(window=tightest(windows), windows=windows)

    def peek(
        self, subject: Subject, *, per_minute: int, generation: str = ""
    ) -> tuple[Decision, Standing | None]:
        """Read ``subject``'s windows and its caller's ban without counting anything against
        them, counting the peek instead against the caller's own ``per_minute`` window, so
        that reading limits cannot itself become a way to load us.

        Returns that window's decision (its headers describe it), and the subject's standing,
        None when the peek was refused or the cached key it was made for is stale.
        """
        now = time.time()
        second = int(now)
        minute_reset = (second // MINUTE + 1) * MINUTE
        keys = Keys.of(subject, now, settings.REDIS_KEY_PREFIX)
        args = PeekArgs(per_minute, lifetimes(second)[0], second, generation)
        peeked = self._on_counters(lambda backend: backend.peek(keys, args))
        if peeked.verdict == Verdict.STALE_KEY:
            return Decision(allowed=False, window=Window(0, 0, 0), stale_key=True), None
        own = Window(per_minute, max(0, per_minute - peeked.peeks), minute_reset, PEEK_WINDOW)
        field = policy_field((own,))
        if peeked.verdict != Verdict.ADMITTED:
            retry_after = max(1, math.ceil(minute_reset - now))
            refused = Decision(False, own, retry_after, policy_field=field, now=second)
            return refused, None
        counted = windows(subject.policy.limits, second, peeked.counts)
        standing = Standing(counted, peeked.ban_ends_at or None, now=second)
        return Decision(True, own, policy_field=field, now=second), standing

    def counts(self, subjects: list[Subject]) -> list[tuple[int, ...]]:
        """Each subject's admitted requests in each window as it stands, then today's
        refusals, all read in one round trip."""
        now = time.time()
        names = []
        for subject in subjects:
            keys = Keys.of(subject, now, settings.REDIS_KEY_PREFIX)
            names += [*keys.windows, keys.refused]
        if not names:
            return []
        values = self._on_counters(lambda backend: backend.read(names, now))
        size = len(WINDOWS) + 1
        return [tuple(values[n : n + size]) for n in range(0, len(values), size)]

    def lift_ban(self, subject: Subject) -> None:
        """End the caller's ban and its strikes at once, in every process."""
        keys = Keys.of(subject, time.time(), settings.REDIS_KEY_PREFIX)
        names = [keys.ban, keys.strikes]
        self.memory.delete(names)
        redis.or_else(lambda client: RedisBackend(client).delete(names), lambda: None)

    def reset(self) -> None:
        """Forget in-process counts, and the outage state of the process's Redis client (tests)."""
        self.memory.clear()
        redis.forget()


limiter = Limiter()


class Usage(tuple[int, ...]):
    """An account's admitted requests in each window of ``WINDOWS`` as it stands, then today's
    refusals: ``usage.this_minute``, ``usage.today`` (the day's), ``usage.refused_today``."""

    __slots__ = ()

    def __new__(cls, *counts: int) -> Usage:
        return super().__new__(cls, counts)

    @property
    def counts(self) -> tuple[int, ...]:
        return self[:-1]

    @property
    def refused_today(self) -> int:
        return self[-1]

    def __getattr__(self, name: str) -> int:
        for window, count in zip(WINDOWS, self[:-1], strict=False):
            if name == window.current.replace(" ", "_"):
                return count
        raise AttributeError(name)


def account_usages(account_ids: list[int]) -> dict[int, Usage]:
    """``account_usage`` of each account, in one round trip (an admin changelist's page)."""
    no_limits = Limits.of()
    subjects = [Subject.account(account_id, no_limits) for account_id in account_ids]
    counts = limiter.counts(subjects)
    return {
        account_id: Usage(*count) for account_id, count in zip(account_ids, counts, strict=True)
    }


def account_usage(account_id: int) -> Usage:
    """Requests the account made in each window as it stands, and how many were refused
    today."""
    return account_usages([account_id])[account_id]
