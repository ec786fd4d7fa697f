"""The header fields that tell a client where it stands: ``X-RateLimit-*``, and the IETF
``RateLimit-Policy`` (every window) and ``RateLimit`` (the tightest) fields of
draft-ietf-httpapi-ratelimit-headers-11, made from the same windows so that the two families can
never disagree."""

from __future__ import annotations

from typing import Protocol


class Window(Protocol):
    """What the fields say of a window (``apikeys.limiter.policy.Window``)."""

    @property
    def name(self) -> str: ...
    @property
    def limit(self) -> int: ...
    @property
    def remaining(self) -> int: ...
    @property
    def reset(self) -> int: ...
    @property
    def seconds(self) -> int: ...


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
