"""What one check reads, writes and returns, the same in both backends: the counters' names
(``Keys``), the subject's parameters (``Args``), the second it runs at and what follows from it
(``Moment``), and the rules both backends apply as given rather than each working them out:
how long counters live (``lifetimes``) and how long each ban lasts (``BAN_SECONDS``)."""

from __future__ import annotations

from typing import NamedTuple

from apikeys.keyring import KEY_GENERATION
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
from apikeys.models import Limits
from apikeys.usage.tallies import USAGE_GRACE_SECONDS, usage_index_name, usage_name

# Seconds a counter outlives its window, so that a slow clock on one host still finds it.
EXPIRY_MARGIN = 5


def _ban_seconds() -> tuple[int, ...]:
    """Each ban within BAN_MEMORY_SECONDS of the last is twice as long, up to the maximum."""
    lengths = [BAN_BASE_SECONDS]
    while lengths[-1] < BAN_MAX_SECONDS:
        lengths.append(min(lengths[-1] * 2, BAN_MAX_SECONDS))
    return tuple(lengths)


# The length of the first ban, the second…; every ban after the last is as long as the last.
BAN_SECONDS = _ban_seconds()


def lifetimes(now: int) -> tuple[int, int, int]:
    """Seconds the minute's counters, the day's and the day's usage tallies live from ``now``:
    to the end of their window, and a margin (``EXPIRY_MARGIN``, ``USAGE_GRACE_SECONDS``)."""
    to_day_end = DAY - now % DAY
    return (
        MINUTE - now % MINUTE + EXPIRY_MARGIN,
        to_day_end + EXPIRY_MARGIN,
        to_day_end + USAGE_GRACE_SECONDS,
    )


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
    usage: str  # the account's tallies for the day, per key (a hash; apikeys.usage)
    usage_index: str  # the accounts with tallies that day (a set)
    used: str  # set when the key's use is recorded, once in each LAST_USE_SECONDS of the clock
    record: str = ""  # a key's record, for a check by record (Limiter.check_unread)

    @classmethod
    def of(cls, subject: Subject, now: float, prefix: str) -> Keys:
        """``prefix``: of every name (``settings.REDIS_KEY_PREFIX``)."""
        minute, day = int(now // MINUTE), int(now // DAY)
        base = f"{prefix}rl:{subject.tag}"
        caller = f"{base}:{subject.caller}"
        account_id = subject.account_id
        return cls(
            f"{base}:m{minute}",
            f"{base}:d{day}",
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


# A check by record names the counters before the record is read: for this subject, whose
# account and key are 0, and the script gives them the record's ids.
UNREAD = Subject.account(0, Limits(0, 0), key_id=0)


class Args(NamedTuple):
    """A subject's parameters, the same in both backends (0 stands for "none")."""

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
        account_id = subject.account_id
        # Accounts' requests with a key are tallied for the usage history; addresses are not.
        if account_id and subject.caller.startswith("k"):
            return cls(
                policy.per_minute,
                policy.per_day or 0,
                strikes,
                generation,
                subject.caller,
                account_id,
            )
        return cls(policy.per_minute, policy.per_day or 0, strikes, generation)


class Moment(NamedTuple):
    """The second a check runs at, and the lifetimes of what it writes then."""

    now: int
    minute_ttl: int
    day_ttl: int
    usage_ttl: int

    @classmethod
    def at(cls, now: int) -> Moment:
        return cls(now, *lifetimes(now))


class PeekArgs(NamedTuple):
    """A peek's parameters, the same in both backends."""

    limit: int  # peeks per minute per caller
    ttl: int
    now: int
    generation: str  # "": not checked


class Outcome(NamedTuple):
    """What a backend returns for one check."""

    verdict: int  # a Verdict
    minute: int  # the minute window's count after the check
    day: int
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
    minute: int
    day: int
    ban_ends_at: int  # 0: no ban in force
