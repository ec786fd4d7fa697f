"""Where a client stands, and the header fields that tell it: its windows as they stand after
a check, the tightest of them, and ``X-RateLimit-*`` with the IETF ``RateLimit-Policy`` (every
window) and ``RateLimit`` (the tightest) fields of draft-ietf-httpapi-ratelimit-headers-11, made
from the same windows so that the two families can never disagree."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from apikeys.windows import MINUTE, WINDOWS

# Each window's name and length, as the fields show them.
SPANS = tuple((w.name, w.seconds) for w in WINDOWS)


class Window(NamedTuple):
    limit: int
    remaining: int
    reset: int  # Unix seconds at which the window ends
    name: str = "minute"  # the policy's name in the RateLimit fields
    seconds: int = MINUTE  # the window's length

    @property
    def used(self) -> int:
        return self.limit - self.remaining


def windows(limits: tuple[int, ...], second: int, counts: Sequence[int]) -> tuple[Window, ...]:
    """A policy's windows at ``second``, those of ``WINDOWS`` it counts in (the first, and each
    with a limit), given how many requests each has admitted (``counts``, one per window)."""
    made = []
    for n, limit in enumerate(limits):
        if limit or not n:
            name, seconds = SPANS[n]
            reset = second - second % seconds + seconds
            made.append(Window(limit, max(0, limit - counts[n]), reset, name, seconds))
    return tuple(made)


def tightest(windows: tuple[Window, ...]) -> Window:
    # The fewest remaining; on a tie, the later reset, since that is when both have room.
    tightest = windows[0]
    for window in windows[1:]:
        if window.remaining < tightest.remaining or (
            window.remaining == tightest.remaining and window.reset > tightest.reset
        ):
            tightest = window
    return tightest


def policy_field(windows: tuple[Window, ...]) -> str:
    """The RateLimit-Policy field of ``windows``: their names, quotas and lengths."""
    return ", ".join([f'"{w.name}";q={w.limit};w={w.seconds}' for w in windows])


def header_fields(
    window: Window, policy: str, now: int, *, retry_after: int | None
) -> list[tuple[str, str]]:
    """The fields of a decision on ``window`` (its tightest) made at second ``now``, with
    ``Retry-After`` when it was refused. ASCII names, and values made of our own digits and
    window names, so that they need no checking."""
    fields = [
        ("X-RateLimit-Limit", str(window.limit)),
        ("X-RateLimit-Remaining", str(window.remaining)),
        ("X-RateLimit-Reset", str(window.reset)),
        # Structured Field lists whose items are the policies' names; q is the quota, w the
        # window in seconds, r what remains, t the seconds until it is restored.
        ("RateLimit-Policy", policy),
        ("RateLimit", f'"{window.name}";r={window.remaining};t={max(0, window.reset - now)}'),
    ]
    if retry_after is not None:
        fields.append(("Retry-After", str(retry_after)))
    return fields
