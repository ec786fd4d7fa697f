"""The check's and the peek's steps in this process's memory, under a lock: embedded mode (no
Redis), and the fallback while Redis is unreachable, where limits hold per process. The same
steps as ``scripts/check.lua`` and ``scripts/peek.lua``, given the same keys and arguments;
``tests/apikeys/test_limiter.py`` runs one table of cases against both."""

from __future__ import annotations

import threading

from apikeys.limiter.counters import (
    BAN_SECONDS,
    Args,
    GiveBack,
    Keys,
    Moment,
    Outcome,
    PeekArgs,
    Peeked,
)
from apikeys.limiter.policy import BAN_MEMORY_SECONDS, LAST_USE_SECONDS, MINUTE, Verdict
from apikeys.usage.tallies import MemoryTallies


class MemoryBackend:
    def __init__(self, tallies: MemoryTallies | None = None) -> None:
        self._lock = threading.Lock()
        self._values: dict[str, tuple[int, float]] = {}  # key -> (value, expires at)
        self.tallies = tallies or MemoryTallies()
        self._next_purge = 0.0

    def _get(self, key: str, now: float) -> int:
        value, expires_at = self._values.get(key, (0, 0.0))
        return value if expires_at > now else 0

    def _incr(self, key: str, now: float, ttl: float) -> int:
        value = self._get(key, now) + 1
        expires_at = self._values[key][1] if value > 1 else now + ttl
        self._values[key] = (value, expires_at)
        return value

    def _tally(self, keys: Keys, args: Args, kind: str, moment: Moment) -> None:
        if args.usage_key:
            self.tallies.add(
                keys.usage,
                keys.usage_index,
                args.usage_account,
                f"{args.usage_key}:{kind}",
                args.limits,
                now=moment.now,
                ttl=moment.usage_ttl,
            )

    def run(self, keys: Keys, args: Args, now: int) -> Outcome:
        # No process caches keys without Redis (apikeys.keyring): no generation to check.
        moment = Moment.at(now)
        with self._lock:
            self._purge(now)
            banned_until = self._get(keys.ban, now)
            # The first window always counts; each later one when its limit is not 0 (Args).
            counted = [n for n, limit in enumerate(args.limits) if n == 0 or limit > 0]
            counts = [0] * len(args.limits)
            for n in counted:
                counts[n] = self._get(keys.windows[n], now)
            if banned_until <= now and all(counts[n] < args.limits[n] for n in counted):
                for n in counted:
                    counts[n] = self._incr(keys.windows[n], now, moment.window_ttls[n])
                self._tally(keys, args, "admitted", moment)
                record_use = 0
                if args.usage_key and not self._get(keys.used, now):
                    self._values[keys.used] = (1, now + LAST_USE_SECONDS)
                    record_use = 1
                return Outcome(Verdict.ADMITTED, counts, 0, 0, record_use)
            self._incr(keys.refused, now, moment.day_ttl)
            if banned_until > now:
                self._tally(keys, args, "banned", moment)
                return Outcome(Verdict.BANNED, counts, banned_until)
            if not args.strikes or self._incr(keys.strikes, now, moment.minute_ttl) < args.strikes:
                self._tally(keys, args, "refused", moment)
                return Outcome(Verdict.REFUSED, counts)
            self._tally(keys, args, "banned", moment)
            self._values.pop(keys.strikes, None)
            number = self._get(keys.bans, now) + 1
            self._values[keys.bans] = (number, now + BAN_MEMORY_SECONDS)
            seconds = BAN_SECONDS[min(number, len(BAN_SECONDS))]
            self._values[keys.ban] = (now + seconds, now + seconds)
            return Outcome(Verdict.NEWLY_BANNED, counts, now + seconds, number)

    def peek(self, keys: Keys, args: PeekArgs) -> Peeked:
        now = args.now
        with self._lock:
            self._purge(now)
            counts = [self._get(name, now) for name in keys.windows]
            banned_until = self._get(keys.ban, now)
            banned_until = banned_until if banned_until > now else 0
            peeks = self._get(keys.peeks, now)
            if peeks >= args.limit:
                return Peeked(Verdict.REFUSED, peeks, counts, banned_until)
            peeks = self._incr(keys.peeks, now, args.ttl)
            return Peeked(Verdict.ADMITTED, peeks, counts, banned_until)

    def give_back(self, keys: Keys, args: GiveBack, now: int) -> int:
        with self._lock:
            given = [n for n, give in enumerate(args.windows) if give]
            counts = {n: self._get(keys.windows[n], now) for n in given}
            for n, count in counts.items():
                if count <= 0 or str(count) in args.thresholds[n].split(","):
                    return 0
            if not given:
                return 0
            for n, count in counts.items():
                self._values[keys.windows[n]] = (count - 1, self._values[keys.windows[n]][1])
        if args.usage_field:
            self.tallies.subtract(keys.usage, args.usage_field, now)
        return 1

    def read(self, names: list[str], now: float) -> list[int]:
        with self._lock:
            return [self._get(name, now) for name in names]

    def delete(self, names: list[str]) -> None:
        with self._lock:
            for name in names:
                self._values.pop(name, None)

    def usage(self, name: str, now: float) -> dict[str, int | str]:
        return self.tallies.read(name, now)

    def usage_accounts(self, index: str, now: float) -> set[str]:
        return self.tallies.accounts(index, now)

    def _purge(self, now: float) -> None:
        if now < self._next_purge:
            return
        self._values = {k: v for k, v in self._values.items() if v[1] > now}
        self.tallies.purge(now)
        self._next_purge = now + MINUTE

    def clear(self) -> None:
        with self._lock:
            self._values.clear()
        self.tallies.clear()
