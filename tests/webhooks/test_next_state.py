"""What an attempt makes of its delivery and its endpoint's circuit breaker
(webhooks.next_state), decided from facts alone, without a database: a table of cases, then
the rules every attempt keeps, whatever its answer, history and settings."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from webhooks.answers import MAX_RETRY_AFTER_SECONDS
from webhooks.delivery import Attempt
from webhooks.models import DeliveryState
from webhooks.next_state import HEALTHY, Breaker, Disabling, NextState, Policy, after

NOW = datetime(2026, 11, 21, 12, 30, 20, tzinfo=UTC)
POLICY = Policy(
    retry_seconds=(5, 300, 1800),
    pause_after=5,
    pause_seconds=30,
    max_pause_seconds=1800,
    disable_after_days=3,
)
TIMEOUT = Attempt(None, "No answer: timed out after 15 s")
EARLIER = NOW - timedelta(hours=2)
PENDING, DELIVERED, FAILED = DeliveryState.PENDING, DeliveryState.DELIVERED, DeliveryState.FAILED


def seconds(n: float) -> datetime:
    return NOW + timedelta(seconds=n)


def failing(failures: int, since: datetime = EARLIER, **fields) -> Breaker:
    return Breaker(failures=failures, failing_since=since, **fields)


@dataclass(frozen=True)
class Case:
    attempt: Attempt
    expected: NextState
    attempts: int = 0
    breaker: Breaker = HEALTHY
    jitter: float = 0.5  # the schedule's own wait
    policy: Policy = POLICY


CASES = {
    "delivered at once": Case(Attempt(200), NextState(DELIVERED, 1, None, HEALTHY)),
    "delivered clears a paused breaker": Case(
        Attempt(204),
        NextState(DELIVERED, 3, None, HEALTHY),
        attempts=2,
        breaker=failing(9, paused_until=seconds(60)),
    ),
    "410 fails and disables": Case(
        Attempt(410), NextState(FAILED, 2, None, disable=Disabling.GONE), attempts=1
    ),
    "a 4xx waits the schedule's first wait": Case(Attempt(400), NextState(PENDING, 1, seconds(5))),
    "a redirect waits the schedule's last wait": Case(
        Attempt(302), NextState(PENDING, 3, seconds(1800)), attempts=2
    ),
    "a 4xx past the schedule fails": Case(
        Attempt(404),
        NextState(FAILED, 4, None, disable=Disabling.SCHEDULE_SPENT),
        attempts=3,
        breaker=failing(7, paused_until=seconds(60)),  # a 4xx is not the breaker's
    ),
    "the jitter's least": Case(Attempt(400), NextState(PENDING, 2, seconds(270)), 1, jitter=0),
    "the jitter's most": Case(Attempt(400), NextState(PENDING, 2, seconds(330)), 1, jitter=1),
    "a first failure starts the count": Case(
        TIMEOUT, NextState(PENDING, 1, seconds(5), Breaker(1, NOW))
    ),
    "a count goes on from when it started": Case(
        Attempt(500), NextState(PENDING, 1, seconds(5), failing(4)), breaker=failing(3)
    ),
    "the fifth in a row pauses, spending nothing": Case(
        TIMEOUT,
        NextState(PENDING, 2, NOW, failing(5, paused_until=seconds(30))),
        attempts=2,
        breaker=failing(4),
    ),
    "each failed trial doubles the pause": Case(
        Attempt(503),
        NextState(PENDING, 0, NOW, failing(7, paused_until=seconds(120))),
        breaker=failing(6, paused_until=NOW),
    ),
    "the pause is at most the longest": Case(
        TIMEOUT,
        NextState(PENDING, 0, NOW, failing(12, paused_until=seconds(1800))),
        breaker=failing(11),
    ),
    "the doublings stop at sixteen": Case(
        TIMEOUT,
        NextState(PENDING, 0, NOW, failing(30, paused_until=seconds(2**16))),
        breaker=failing(29),
        policy=Policy(
            (5,), pause_after=1, pause_seconds=1, max_pause_seconds=10**9, disable_after_days=3
        ),
    ),
    "a pause already longer is kept": Case(
        TIMEOUT,
        NextState(PENDING, 0, NOW, failing(6, paused_until=seconds(900))),
        breaker=failing(5, paused_until=seconds(900)),
    ),
    "a retry-after pauses a healthy endpoint as asked": Case(
        Attempt(429, retry_after=120), NextState(PENDING, 0, NOW, Breaker(1, NOW, seconds(120)))
    ),
    "a retry-after is at most an hour": Case(
        Attempt(503, retry_after=7200), NextState(PENDING, 0, NOW, Breaker(1, NOW, seconds(3600)))
    ),
    "a retry-after of zero is due at once, spending nothing": Case(
        Attempt(429, retry_after=0), NextState(PENDING, 1, NOW, Breaker(1, NOW, NOW)), attempts=1
    ),
    "a retry-after longer than the breaker's pause wins": Case(
        Attempt(503, retry_after=100),
        NextState(PENDING, 0, NOW, failing(5, paused_until=seconds(100))),
        breaker=failing(4),
    ),
    "the breaker's pause longer than a retry-after wins": Case(
        Attempt(429, retry_after=10),
        NextState(PENDING, 0, NOW, failing(6, paused_until=seconds(60))),
        breaker=failing(5),
    ),
    "a counted failure past the schedule fails": Case(
        Attempt(503),
        NextState(FAILED, 4, None, failing(2), Disabling.SCHEDULE_SPENT),
        attempts=3,
        breaker=failing(1),
    ),
    "a paused endpoint failing for exactly the days is dead": Case(
        TIMEOUT,
        NextState(
            FAILED,
            1,
            None,
            failing(9, NOW - timedelta(days=3), paused_until=seconds(480)),
            Disabling.DEAD,
        ),
        attempts=1,
        breaker=failing(8, NOW - timedelta(days=3)),
    ),
    "a paused endpoint failing for a second less is not": Case(
        TIMEOUT,
        NextState(
            PENDING,
            1,
            NOW,
            failing(9, NOW - timedelta(days=3) + timedelta(seconds=1), paused_until=seconds(480)),
        ),
        attempts=1,
        breaker=failing(8, NOW - timedelta(days=3) + timedelta(seconds=1)),
    ),
    "a disabled endpoint is not disabled again": Case(
        TIMEOUT,
        NextState(
            PENDING,
            0,
            NOW,
            failing(9, NOW - timedelta(days=4), paused_until=seconds(480), enabled=False),
        ),
        breaker=failing(8, NOW - timedelta(days=4), enabled=False),
    ),
    "an endpoint not paused is not dead, however long it fails": Case(
        TIMEOUT,
        NextState(PENDING, 1, seconds(5), failing(2, NOW - timedelta(days=4))),
        breaker=failing(1, NOW - timedelta(days=4)),
    ),
}


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_each_attempt_decides_the_delivery_and_the_breaker(case):
    decided = after(
        case.attempt,
        state=PENDING,
        attempts=case.attempts,
        breaker=case.breaker,
        policy=case.policy,
        now=NOW,
        jitter=case.jitter,
    )

    assert decided == case.expected


statuses = st.sampled_from([None, 200, 204, 301, 400, 404, 409, 410, 429, 500, 502, 503])
instants = st.integers(-10 * 86400, 10 * 86400).map(seconds)


@st.composite
def attempts(draw) -> Attempt:
    status = draw(statuses)
    retry_after = None
    if status in (429, 503):  # the only answers whose Retry-After is read
        retry_after = draw(st.none() | st.floats(0, 10**6))
    return Attempt(status, retry_after=retry_after)


breakers = st.builds(
    Breaker,
    failures=st.integers(0, 60),
    failing_since=st.none() | instants.filter(lambda at: at <= NOW),
    paused_until=st.none() | instants,
    enabled=st.booleans(),
)
policies = st.builds(
    Policy,
    retry_seconds=st.lists(st.integers(1, 86400), min_size=1, max_size=8).map(tuple),
    pause_after=st.integers(1, 10),
    pause_seconds=st.integers(1, 3600),
    max_pause_seconds=st.integers(1, 86400),
    disable_after_days=st.integers(1, 29),
)


@settings(database=None, derandomize=True, max_examples=300)
@given(
    attempt=attempts(),
    spent=st.integers(0, 10),
    breaker=breakers,
    policy=policies,
    jitter=st.floats(0, 1),
)
def test_every_attempt_keeps_the_rules(attempt, spent, breaker, policy, jitter):
    decided = after(
        attempt,
        state=PENDING,
        attempts=spent,
        breaker=breaker,
        policy=policy,
        now=NOW,
        jitter=jitter,
    )

    # Attempts never decrease, and an attempt spends at most one.
    assert spent <= decided.attempts <= spent + 1
    # Only a pending delivery has a next attempt, and never in the past.
    assert (decided.next_attempt_at is None) == (decided.state != PENDING)
    assert decided.next_attempt_at is None or decided.next_attempt_at >= NOW
    if attempt.delivered:  # delivered: the breaker cleared
        assert decided == NextState(DELIVERED, spent + 1, None, HEALTHY)
        return
    if attempt.status == 410:  # gone: failed, and the endpoint disabled
        assert decided == NextState(FAILED, spent + 1, None, disable=Disabling.GONE)
        return
    counted = decided.breaker
    if not attempt.counts_against_receiver:
        assert counted is None  # a 4xx is the delivery's failure, not the receiver's
    else:
        assert counted is not None
        assert counted.failures == breaker.failures + 1
        assert counted.failing_since == (breaker.failing_since or NOW)
        assert counted.enabled == breaker.enabled
        if counted.paused_until != breaker.paused_until:
            # A pause never ends earlier than it did, nor later than the longest asked.
            longest = policy.max_pause_seconds
            if attempt.retry_after is not None:
                longest = max(longest, min(attempt.retry_after, MAX_RETRY_AFTER_SECONDS))
            assert counted.paused_until is not None
            assert breaker.paused_until is None or counted.paused_until > breaker.paused_until
            assert NOW <= counted.paused_until <= seconds(longest)
    if decided.attempts == spent:  # waiting out the pause, or disabled after days of it
        assert counted is not None
        assert counted.paused_until is not None
        assert counted.paused_until >= NOW
        if decided.disable == Disabling.DEAD:
            assert decided.state == FAILED
            assert counted.enabled
            assert counted.failing_since is not None
            assert counted.failing_since <= NOW - timedelta(days=policy.disable_after_days)
        else:
            assert decided == NextState(PENDING, spent, NOW, counted)
    elif spent + 1 > len(policy.retry_seconds):  # the schedule's end fails
        assert decided == NextState(FAILED, spent + 1, None, counted, Disabling.SCHEDULE_SPENT)
    else:  # its wait, within the jitter
        wait = policy.retry_seconds[spent]
        assert decided.state == PENDING
        assert decided.disable is None
        assert decided.next_attempt_at is not None
        assert seconds(wait * 0.9 - 0.001) <= decided.next_attempt_at <= seconds(wait * 1.1 + 0.001)
