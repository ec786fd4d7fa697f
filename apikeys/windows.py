"""The windows an account's requests are counted in: one table, ``WINDOWS``, that the models,
the limiter, the usage history, the API, the admin and the command all read, and the limits of
one account or policy in those windows, given by window name. It imports no model, so that a
settings module can read it before Django has loaded the apps."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

MINUTE = 60
DAY = 86_400


# A rate setting as django-ratelimit reads it: a count per optional multiple of a unit.
_RATE = re.compile(r"(\d+)/(\d*)([smhd])")
_UNITS = {"s": 1, "m": MINUTE, "h": 60 * MINUTE, "d": DAY}


def parse_rate(rate: str) -> tuple[int, int]:
    """``N/m``, ``N/h``, ``N/d`` or ``N/5m``: (N, the period in seconds). The one reading of
    every rate setting, the sign-in's (django-ratelimit) and the API's without a key."""
    found = _RATE.fullmatch(rate)
    if found is None:
        raise ValueError(f"{rate!r} is not a rate: N/m, N/h or N/d")
    count, multiple, unit = found.groups()
    return int(count), int(multiple or 1) * _UNITS[unit]


class WindowSpec(NamedTuple):
    """A window requests are counted in: its name (in the RateLimit fields and ``per_<name>``),
    its length, the Plan and Account fields its limit is read from, and whether a ``304`` (an
    unchanged answer to a conditional GET) counts in it."""

    name: str
    seconds: int
    plan_field: str
    custom_field: str
    counts_304: bool = True

    @property
    def per(self) -> str:
        """Its limit's name in the usage tallies, the history, its CSV and the command."""
        return f"per_{self.name}"

    @property
    def period(self) -> str:
        """The window as a sentence names its length ("minute", "UTC day")."""
        return "UTC day" if self.seconds == DAY else self.name

    @property
    def current(self) -> str:
        """The window as it stands now, as the admin heads its count ("this minute", "today")."""
        return "today" if self.seconds == DAY else f"this {self.name}"


# Every window an account's requests are counted in, shortest first, in the order every tuple
# of limits or counts follows. A new window is a row here, its Plan and Account fields
# (apikeys.models.accounts), and a migration that fills its limits (apikeys.window_migration).
WINDOWS: tuple[WindowSpec, ...] = (
    WindowSpec("minute", MINUTE, "requests_per_minute", "custom_requests_per_minute"),
    WindowSpec("day", DAY, "requests_per_day", "custom_requests_per_day", counts_304=False),
)


def in_words() -> str:
    """The windows as a sentence lists them: "the minute and the UTC day"."""
    named = [f"the {window.period}" for window in WINDOWS]
    return " and ".join([", ".join(named[:-1]), named[-1]] if len(named) > 1 else named)


class Limits(tuple[int, ...]):
    """The requests each window of ``WINDOWS`` admits, one per window in its order, made by
    window name (``Limits.of(minute=60, day=1000)``) or from a list as long as the table; 0: the
    window is not counted, but for the first, where it admits nothing. ``limits.per_day`` reads
    one by its window's name."""

    __slots__ = ()

    def __new__(cls, values: Iterable[int] = ()) -> Limits:
        made = super().__new__(cls, values)
        if len(made) != len(WINDOWS):
            raise ValueError(f"{len(made)} limits for {len(WINDOWS)} windows: name them (of)")
        return made

    @classmethod
    def of(cls, **by_name: int) -> Limits:
        """Each named window's limit; a window not named is not counted."""
        unknown = set(by_name) - {window.name for window in WINDOWS}
        if unknown:
            raise TypeError(f"no such window: {', '.join(sorted(unknown))}")
        return cls(by_name.get(window.name, 0) for window in WINDOWS)

    def by_name(self) -> dict[str, int]:
        return {window.name: limit for window, limit in zip(WINDOWS, self, strict=True)}

    def __getattr__(self, name: str) -> int:
        for window, limit in zip(WINDOWS, self, strict=True):
            if name == window.per:
                return limit
        raise AttributeError(name)
