"""What a limit is, what it is counted against, and what a check decides: the limiter's values."""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

from apikeys.limiter.fields import Window, header_fields, policy_field
from apikeys.windows import DAY, MINUTE, WINDOWS, Limits, parse_rate

BAN_STRIKES = 10
BAN_BASE_SECONDS = 15 * MINUTE
BAN_MAX_SECONDS = DAY
BAN_MEMORY_SECONDS = DAY
# A key's use is recorded (its last_used_at) at most this often: a busy service's thousands of
# keys would otherwise each write their row every minute.
LAST_USE_SECONDS = 5 * MINUTE
# The shares of the day window whose passing is an event (usage.threshold), in percent.
DAY_THRESHOLDS = (80, 100)
# The name of a peek's own window in the RateLimit fields.
PEEK_WINDOW = "rate_limit"


class Verdict(IntEnum):
    REFUSED = 0
    ADMITTED = 1
    BANNED = 2
    NEWLY_BANNED = 3
    STALE_KEY = 4
    NOT_COUNTED = 5  # a check by record that found no record it may count by (Limiter.check_unread)


class Policy(NamedTuple):
    # The requests each window admits, by window name (Limits.of): a window left out is not
    # counted (an address's minute alone).
    limits: Limits
    bans: bool = False  # whether refused requests can earn the caller a ban

    @classmethod
    def of_rate(cls, rate: str) -> Policy:
        """A rate setting's policy (``parse_rate``): its count in the window of its period,
        and in each shorter one."""
        count, seconds = parse_rate(rate)
        if seconds not in {window.seconds for window in WINDOWS}:
            raise ValueError(f"{rate!r}: its period is none of the windows'")
        return cls(Limits.of(**{w.name: count for w in WINDOWS if w.seconds <= seconds}))


class Subject(NamedTuple):
    """What one request is counted against, and who is banned for misbehaving."""

    counted: str  # "a42", or "ip:203.0.113.0"
    caller: str  # "k17": strikes and bans are per key
    policy: Policy

    @property
    def tag(self) -> str:
        """The hash tag of every name the subject's check touches: one Redis Cluster slot."""
        return "{" + self.counted + "}"

    @classmethod
    def account(cls, account_id: int, limits: Limits, key_id: int | None = None) -> Subject:
        """An account's requests, all its keys together; bans are per key."""
        policy = Policy(limits, bans=True)
        return cls(f"a{account_id}", f"k{key_id}" if key_id is not None else "", policy)

    @classmethod
    def address(cls, address: str, policy: Policy) -> Subject:
        return cls(f"ip:{address}", f"ip:{address}", policy)

    @property
    def account_id(self) -> str:
        """The account's id ("42"), or "" when the subject is not an account."""
        account_id = self.counted[1:]
        return account_id if self.counted[:1] == "a" and account_id.isdigit() else ""


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
    # The RateLimit-Policy field: every window of the policy, and the second the check ran at.
    policy_field: str = ""
    now: int = 0
    # The key's use is due to be recorded (LAST_USE_SECONDS).
    record_use: bool = False
    # The percentage of the day window this request was the first to reach (80 or 100), once
    # per subject and day: each count is returned to one request only. 0: none.
    day_threshold: int = 0
    # Every window of the policy as the check left it (an admitted request's).
    windows: tuple[Window, ...] = ()

    @property
    def headers(self) -> list[tuple[str, str]]:
        """What the client is told, as (name, value) pairs (``apikeys.limiter.fields``)."""
        return header_fields(
            self.window,
            self.policy_field or policy_field((self.window,)),
            self.now,
            retry_after=None if self.allowed else self.retry_after,
        )


class Standing(NamedTuple):
    """Where a subject stands, read without counting: its windows and the caller's ban."""

    windows: tuple[Window, ...]
    ban_ends_at: int | None
    now: int
