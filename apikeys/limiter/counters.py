"""What one check reads, writes and returns, the same in both backends: the counters' names
(``Keys``), the subject's parameters (``Args``), the second it runs at and what follows from it
(``Moment``), and the rules both backends apply as given rather than each working them out:
how long counters live (``lifetimes``) and how long each ban lasts (``BAN_SECONDS``)."""

from __future__ import annotations

from typing import NamedTuple

from apikeys.keyring import KEY_GENERATION
from apikeys.limiter.fields import SPANS
from apikeys.limiter.policy import (
    BAN_BASE_SECONDS,
    BAN_MAX_SECONDS,
    BAN_STRIKES,
    DAY,
    LAST_USE_SECONDS,
    MINUTE,
    Subject,
    Verdict,
)
from apikeys.usage.tallies import USAGE_GRACE_SECONDS, usage_index_name, usage_name
from apikeys.windows import WINDOWS

# Seconds a counter outlives its window, so that a slow clock on one host still finds it.
EXPIRY_MARGIN = 5


def _ban_seconds() -> dict[int, int]:
    """Each ban within BAN_MEMORY_SECONDS of the last is twice as long, up to the maximum."""
    lengths = {1: BAN_BASE_SECONDS}
    while lengths[len(lengths)] < BAN_MAX_SECONDS:
        lengths[len(lengths) + 1] = min(lengths[len(lengths)] * 2, BAN_MAX_SECONDS)
    return lengths


# The length of ban number 1 (the first within BAN_MEMORY_SECONDS), 2…, numbered from 1 in both
# backends, as the check returns them; every ban after the last is as long as the last.
BAN_SECONDS = _ban_seconds()


def lifetimes(now: int) -> tuple[int, int, int]:
    """Seconds the minute's counters (strikes, peeks), the day's (refusals) and the day's usage
    tallies live from ``now``: to the end of their period, and a margin (``EXPIRY_MARGIN``,
    ``USAGE_GRACE_SECONDS``)."""
    to_day_end = DAY - now % DAY
    return (
        MINUTE - now % MINUTE + EXPIRY_MARGIN,
        to_day_end + EXPIRY_MARGIN,
        to_day_end + USAGE_GRACE_SECONDS,
    )


class Keys(NamedTuple):
    """The counters one check reads and writes, named the same in both backends."""

    windows: tuple[str, ...]  # each window's count, the windows of WINDOWS in order
    strikes: str
    ban: str
    bans: str
    refused: str
    generation: str
    peeks: str  # the caller's own window for reading its limits (Limiter.peek)
    usage: str  # the account's tallies for the day, per key (a hash; apikeys.usage)
    usage_index: str  # the accounts with tallies that day (a set)
    used: str  # set when the key's use is recorded, once in each LAST_USE_SECONDS of the clock
    record: str = ""  # a key's record, for a check by record (Limiter.check_unread)

    @classmethod
    def of(cls, subject: Subject, now: float, prefix: str) -> Keys:
        """``prefix``: of every name (``settings.REDIS_KEY_PREFIX``)."""
        return cls._named(subject.tag, subject.caller, subject.account_id, now, prefix)

    @classmethod
    def by_record(cls, now: float, prefix: str, record: str = "") -> Keys:
        """The names of a check by record (``Limiter.check_unread``), whose account and key
        only the record says: each of the account's a template (``%d`` for the account's id,
        then the key's), which the script fills in with ``string.format`` once it has read the
        record, so that every name is still made here alone. The key generation's and the
        usage index's are no account's, and used as they are."""
        names = cls._named("{a%d}", "k%d", "%d", now, prefix.replace("%", "%%"))
        own = cls._named("", "", "", now, prefix)
        return names._replace(generation=own.generation, usage_index=own.usage_index, record=record)

    @classmethod
    def _named(cls, tag: str, caller_id: str, account_id: str, now: float, prefix: str) -> Keys:
        minute, day = int(now // MINUTE), int(now // DAY)
        base = f"{prefix}rl:{tag}"
        caller = f"{base}:{caller_id}"
        return cls(
            tuple([f"{base}:{w.name[0]}{int(now // w.seconds)}" for w in WINDOWS]),
            f"{caller}:strikes:m{minute}",
            f"{caller}:ban",
            f"{caller}:bans",
            f"{base}:refused:d{day}",
            f"{prefix}{KEY_GENERATION}",
            f"{caller}:peeks:m{minute}",
            # Only accounts have tallies; a subject without one names none.
            usage_name(account_id, day, prefix) if account_id else "",
            usage_index_name(day, prefix),
            f"{caller}:used:p{int(now // LAST_USE_SECONDS)}",
        )

    @property
    def names(self) -> list[str]:
        """Every name, flat, in order: the script's KEYS."""
        return [*self.windows, *self[1:]]


class Args(NamedTuple):
    """A subject's parameters, the same in both backends (0 stands for "none")."""

    # One per window of WINDOWS (Limits); 0: the window is not counted, but for the first,
    # which every policy has (an account left without limits admits nothing).
    limits: tuple[int, ...]
    strikes: int  # refused requests within a minute that earn a ban; 0: never
    generation: str = ""  # "" : not checked
    usage_key: str = ""  # the key whose request this is ("k17"); "": not tallied
    usage_account: str = ""  # its account's id, for the day's index

    @classmethod
    def of(cls, subject: Subject, generation: str = "") -> Args:
        policy = subject.policy
        limits = policy.limits
        strikes = BAN_STRIKES if policy.bans else 0
        account_id = subject.account_id
        # Accounts' requests with a key are tallied for the usage history; addresses are not.
        if account_id and subject.caller.startswith("k"):
            return cls(limits, strikes, generation, subject.caller, account_id)
        return cls(limits, strikes, generation)


class Moment(NamedTuple):
    """The second a check runs at, and the lifetimes of what it writes then."""

    now: int
    window_ttls: tuple[int, ...]  # each window's counter's: to the window's end, and a margin
    minute_ttl: int
    day_ttl: int
    usage_ttl: int

    @classmethod
    def at(cls, now: int) -> Moment:
        ttls = []
        for _, seconds in SPANS:
            ttls.append(seconds - now % seconds + EXPIRY_MARGIN)
        return cls(now, tuple(ttls), *lifetimes(now))


class PeekArgs(NamedTuple):
    """A peek's parameters, the same in both backends."""

    limit: int  # peeks per minute per caller
    ttl: int
    now: int
    generation: str  # "": not checked


class GiveBack(NamedTuple):
    """A count given back to the windows a ``304`` does not count in (``Limiter.spare_304``),
    all or none of them, the same in both backends."""

    windows: tuple[int, ...]  # one per window of WINDOWS: 1, give its count back; 0, keep it
    # One per window: its counts that wrote an event, comma-separated, which it keeps.
    thresholds: tuple[str, ...]
    usage_field: str  # the key's tally of admitted requests ("k17:admitted"); "": none


class Outcome(NamedTuple):
    """What a backend returns for one check."""

    verdict: int  # a Verdict
    # Each window's count after the check (0: not counted), a list as Redis answers it.
    counts: list[int]
    ban_ends_at: int = 0
    ban_number: int = 0
    record_use: int = 0  # 1: the key's use is due to be recorded
    # A check by record: the record found (None: none; apikeys.keyring.NO_KEY: no key), and
    # the key generation it was read under (None: none).
    record: bytes | None = None
    generation: bytes | None = None

    @property
    def counted(self) -> bool:
        """Whether the check decided (a check by record may leave it to its caller)."""
        return self.verdict != Verdict.NOT_COUNTED


class Peeked(NamedTuple):
    """What a backend returns for one peek: the peek's own verdict and count (ADMITTED,
    REFUSED or STALE_KEY), and the subject's windows and ban, untouched."""

    verdict: int  # a Verdict
    peeks: int
    counts: list[int]  # each window's count, a list as Redis answers it
    ban_ends_at: int  # 0: no ban in force
