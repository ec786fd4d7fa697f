"""What an attempt makes of its delivery and of its endpoint's circuit breaker, decided from
facts alone: delivered, tried again at a time, waiting out the endpoint's pause, or failed, and
whether the endpoint is to be disabled, and why. ``services.record`` reads the rows, asks
``after``, and writes what it answers; nothing here reads a clock, a setting or the database."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import TYPE_CHECKING

from webhooks.answers import MAX_RETRY_AFTER_SECONDS
from webhooks.models import DeliveryState

if TYPE_CHECKING:
    from webhooks.delivery import Attempt

# Each wait of the schedule is drawn within this share of it either side, so that deliveries
# that failed together are not all tried again together.
JITTER = 0.1
# The breaker's pause stops doubling here, however long the endpoint fails: a bound on the
# power of two, whatever the longest pause is set to.
MOST_DOUBLINGS = 16


@dataclass(frozen=True)
class Breaker:
    """An endpoint's circuit breaker as its row holds it: its failed attempts in a row, since
    when, the pause they earned, and whether the endpoint is enabled."""

    failures: int = 0
    failing_since: datetime | None = None
    paused_until: datetime | None = None
    enabled: bool = True


# A breaker that has counted nothing: what a delivered attempt leaves.
HEALTHY = Breaker()


@dataclass(frozen=True)
class Policy:
    """The settings that decide: ``PETSTORE_WEBHOOK_RETRY_SECONDS`` and the breaker's
    ``PETSTORE_WEBHOOK_PAUSE_AFTER``, ``_PAUSE_SECONDS``, ``_MAX_PAUSE_SECONDS`` and
    ``_DISABLE_AFTER_DAYS``."""

    retry_seconds: tuple[int, ...]
    pause_after: int
    pause_seconds: int
    max_pause_seconds: int
    disable_after_days: int


class Disabling(StrEnum):
    """Why the endpoint is to be disabled."""

    GONE = "410"  # the receiver answered 410 Gone
    # The delivery failed at its schedule's end: the endpoint is disabled if none of its
    # deliveries arrived since this one was made, which ``record`` asks (a query) only then.
    SCHEDULE_SPENT = "schedule spent"
    DEAD = "dead for days"  # every attempt failed for the policy's days: what it is owed fails


@dataclass(frozen=True)
class NextState:
    """What becomes of the delivery, and of its endpoint's breaker (None: left as it was)."""

    state: str
    attempts: int
    next_attempt_at: datetime | None
    breaker: Breaker | None = None
    disable: Disabling | None = None


def after(
    attempt: Attempt,
    *,
    state: str,
    attempts: int,
    breaker: Breaker = HEALTHY,
    policy: Policy,
    now: datetime,
    jitter: float,
) -> NextState:
    """What ``attempt``, made ``now``, makes of a delivery in ``state`` with ``attempts`` spent
    of its schedule. ``breaker`` is its endpoint's, as its locked row holds it: read only for
    an attempt that ``counts_against_receiver``, the only one it counts. ``jitter``, in [0, 1],
    is where within ``JITTER`` of the schedule's wait the next attempt falls.

    A delivered attempt clears the breaker. One the breaker counts pauses the endpoint from
    ``pause_after`` failures in a row, doubling each time up to ``max_pause_seconds``, or as a
    ``Retry-After`` asks (at most ``MAX_RETRY_AFTER_SECONDS``); while it pauses, the delivery
    waits for the endpoint without spending its schedule, and an endpoint failing for
    ``disable_after_days`` is disabled. A ``410`` fails the delivery and disables the endpoint;
    any other failure spends one wait of the schedule, and at its end fails the delivery."""
    if attempt.delivered:
        return NextState(DeliveryState.DELIVERED, attempts + 1, None, HEALTHY)
    if attempt.status == 410:
        return NextState(DeliveryState.FAILED, attempts + 1, None, disable=Disabling.GONE)
    counted = None
    if attempt.counts_against_receiver:
        counted, paused = _tripped(breaker, attempt, now, policy)
        if paused and _dead(counted, now, policy):
            return NextState(DeliveryState.FAILED, attempts, None, counted, Disabling.DEAD)
        if paused:
            return NextState(state, attempts, now, counted)  # due, sent once the pause ends
    spent = attempts + 1
    if spent > len(policy.retry_seconds):
        return NextState(DeliveryState.FAILED, spent, None, counted, Disabling.SCHEDULE_SPENT)
    wait = policy.retry_seconds[spent - 1] * (1 + JITTER * (2 * jitter - 1))
    return NextState(state, spent, now + timedelta(seconds=wait), counted)


def _tripped(
    breaker: Breaker, attempt: Attempt, now: datetime, policy: Policy
) -> tuple[Breaker, bool]:
    """The breaker with the failure counted; whether the endpoint is now paused."""
    failures = breaker.failures + 1
    pause = None
    if failures >= policy.pause_after:
        doublings = min(failures - policy.pause_after, MOST_DOUBLINGS)
        pause = min(policy.pause_seconds * 2**doublings, policy.max_pause_seconds)
    if attempt.retry_after is not None:
        pause = max(pause or 0, min(attempt.retry_after, MAX_RETRY_AFTER_SECONDS))
    paused_until = breaker.paused_until
    if pause is not None:
        until = now + timedelta(seconds=pause)
        paused_until = max(until, paused_until or until)
    failing_since = breaker.failing_since or now
    return Breaker(failures, failing_since, paused_until, breaker.enabled), pause is not None


def _dead(breaker: Breaker, now: datetime, policy: Policy) -> bool:
    """Whether every attempt has failed for the policy's days: a paused endpoint's deliveries
    never spend their schedule, so without this a receiver that never comes back would be
    tried for as long as events are kept."""
    days = timedelta(days=policy.disable_after_days)
    failing_since = breaker.failing_since
    return breaker.enabled and failing_since is not None and now - failing_since >= days
