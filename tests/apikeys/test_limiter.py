"""The limiter's two backends are one algorithm: each case of one table runs against both, and
both must give exactly the outcomes the table says (Redis: the real server)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.conf import settings

from apikeys.limiter.backends.memory import MemoryBackend
from apikeys.limiter.backends.redis import RedisBackend
from apikeys.limiter.counters import Args, Keys, Outcome, PeekArgs, Peeked, lifetimes
from apikeys.limiter.policy import BAN_BASE_SECONDS, BAN_STRIKES, Policy, Subject, Verdict
from apikeys.windows import WINDOWS, Limits
from petstore.redis import RedisClient

A, R, B, NB = Verdict.ADMITTED, Verdict.REFUSED, Verdict.BANNED, Verdict.NEWLY_BANNED
T0 = 1_795_000_040  # 20 s into a minute, 11 h into a UTC day
assert T0 % 60 == 20


@dataclass(frozen=True)
class Case:
    name: str
    policy: Policy
    # (seconds after T0, how many calls, the verdict of each)
    steps: list[tuple[int, int, Verdict]]
    # The day's usage tallies of key k1 afterwards: (admitted, refused, banned)
    tallies: tuple[int, int, int] | None = None


CASES = [
    Case(
        "the minute admits up to its limit",
        Policy(Limits.of(minute=3, day=100)),
        [(0, 3, A), (1, 2, R)],
        (3, 2, 0),
    ),
    Case(
        "the day admits up to its limit",
        Policy(Limits.of(minute=10, day=3)),
        [(0, 3, A), (0, 1, R), (60, 1, R)],
        (3, 2, 0),
    ),
    Case(
        "a new minute has room again",
        Policy(Limits.of(minute=2, day=100)),
        [(0, 2, A), (30, 1, R), (40, 2, A)],
        (4, 1, 0),
    ),
    Case(
        "no day window",
        Policy(Limits.of(minute=2)),
        [(0, 2, A), (40, 2, A), (100, 2, A), (100, 1, R)],
    ),
    Case(
        "the tenth refusal in a minute bans",
        Policy(Limits.of(minute=1, day=100), bans=True),
        [(0, 1, A), (1, BAN_STRIKES - 1, R), (2, 1, NB), (3, 1, B), (60, 1, B)],
        (1, BAN_STRIKES - 1, 3),
    ),
    Case(
        "a ban ends and the next one is twice as long",
        Policy(Limits.of(minute=1, day=100), bans=True),
        [
            (0, 1, A),
            (0, BAN_STRIKES - 1, R),
            (0, 1, NB),
            (BAN_BASE_SECONDS - 1, 1, B),
            (BAN_BASE_SECONDS, 1, A),
            (BAN_BASE_SECONDS, BAN_STRIKES - 1, R),
            (BAN_BASE_SECONDS, 1, NB),
            (BAN_BASE_SECONDS + 2 * BAN_BASE_SECONDS - 1, 1, B),
        ],
    ),
    Case(
        "without bans, refusals only refuse",
        Policy(Limits.of(minute=1, day=100)),
        [(0, 1, A), (0, 15, R)],
        (1, 15, 0),
    ),
]


def args_for(policy: Policy, tallied: bool = True) -> Args:
    usage: dict[str, Any] = {"usage_key": "k1", "usage_account": "1"}
    return Args(
        limits=policy.limits,
        strikes=BAN_STRIKES if policy.bans else 0,
        generation="",
        **(usage if tallied else {}),
    )


def test_a_subjects_args_are_the_policys_and_its_keys():
    limits = Limits.of(minute=5, day=100)
    policy = Policy(limits, bans=True)
    address = Policy(Limits.of(minute=5))

    assert Args.of(Subject("a1", "k7", policy), "g") == Args(limits, BAN_STRIKES, "g", "k7", "1")
    assert Args.of(Subject("ip:203.0.113.9", "ip:203.0.113.9", address)) == Args(address.limits, 0)
    assert address.limits.by_name() == {w.name: 5 if w.name == "minute" else 0 for w in WINDOWS}


def test_limits_are_named_and_a_list_of_another_length_is_refused():
    with pytest.raises(TypeError, match="no such window: fortnight"):
        Limits.of(minute=5, fortnight=3)
    with pytest.raises(ValueError, match="name them"):
        Limits([5] * (len(WINDOWS) + 1))


@pytest.mark.parametrize("size", [len(WINDOWS) - 1, len(WINDOWS) + 1])
def test_the_scripts_refuse_arguments_of_another_length_than_the_windows(size):
    """A tuple of limits one short or one long would shift every later argument of the
    script: the app refuses to send it, whoever built it."""
    keys = Keys.of(Subject("a1", "k1", Policy(Limits.of(minute=5))), T0, "limiter-test:")
    client = RedisClient(settings.REDIS_URL)

    with pytest.raises(ValueError, match="one of each per window"):
        RedisBackend(client).run(keys, Args(tuple(range(1, size + 1)), 0), T0)
    with pytest.raises(ValueError, match="one of each per window"):
        RedisBackend(client).run(
            keys._replace(windows=keys.windows[:1] * size),
            args_for(Policy(Limits.of(minute=5))),
            T0,
        )
    assert client.execute("GET", keys.windows[0]) is None  # nothing counted


def run(backend: MemoryBackend | RedisBackend, case: Case) -> list[Outcome]:
    subject = Subject("a1", "k1", case.policy)
    outcomes = []
    for offset, calls, _ in case.steps:
        now = T0 + offset
        args = args_for(case.policy)
        for _ in range(calls):
            outcomes.append(backend.run(Keys.of(subject, now, "limiter-test:"), args, now))
    return outcomes


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_both_backends_give_the_outcomes_of_the_table(case):
    expected = [verdict for _, calls, verdict in case.steps for _ in range(calls)]

    in_memory = run(MemoryBackend(), case)
    in_redis = run(RedisBackend(RedisClient(settings.REDIS_URL)), case)

    assert [o.verdict for o in in_memory] == expected
    assert in_redis == in_memory  # counts, ban ends and ban numbers too


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_both_backends_tally_the_days_usage_alike(case):
    keys = Keys.of(Subject("a1", "k1", case.policy), T0, "limiter-test:")
    memory, redis = MemoryBackend(), RedisBackend(RedisClient(settings.REDIS_URL))
    redis.delete([keys.usage, keys.usage_index])

    run(memory, case)
    run(redis, case)

    in_memory = memory.usage(keys.usage, T0)
    assert redis.usage(keys.usage, T0) == in_memory
    assert redis.usage_accounts(keys.usage_index, T0) == memory.usage_accounts(keys.usage_index, T0)
    assert memory.usage_accounts(keys.usage_index, T0) == {"1"}
    # Every window's limit, those the policy leaves uncounted as 0.
    limits = case.policy.limits.by_name()
    assert {w.per: in_memory[w.per] for w in WINDOWS} == {w.per: limits[w.name] for w in WINDOWS}
    if case.tallies is not None:
        tallied = tuple(
            in_memory.get(f"k1:{kind}", 0) for kind in ("admitted", "refused", "banned")
        )
        assert tallied == case.tallies


def test_requests_without_a_key_are_not_tallied():
    subject = Subject("ip:203.0.113.9", "ip:203.0.113.9", Policy(Limits.of(minute=1, day=100)))
    keys = Keys.of(subject, T0, "limiter-test:")
    memory, redis = MemoryBackend(), RedisBackend(RedisClient(settings.REDIS_URL))
    redis.delete([keys.usage, keys.usage_index])

    for backend in (memory, redis):
        for _ in range(3):
            backend.run(keys, args_for(subject.policy, tallied=False), T0)

    assert memory.usage(keys.usage, T0) == redis.usage(keys.usage, T0) == {}


def test_a_days_tallies_outlive_it_and_then_expire():
    keys = Keys.of(Subject("a1", "k1", Policy(Limits.of(minute=5, day=5))), T0, "limiter-test:")
    client = RedisClient(settings.REDIS_URL)
    redis = RedisBackend(client)
    redis.delete([keys.usage, keys.usage_index])
    memory = MemoryBackend()
    args = args_for(Policy(Limits.of(minute=5, day=5)))
    # To the end of T0's UTC day, and two days more (USAGE_GRACE_SECONDS).
    usage_ttl = (T0 // 86_400 + 1) * 86_400 - T0 + 172_800
    assert lifetimes(T0)[2] == usage_ttl

    memory.run(keys, args, T0)
    redis.run(keys, args, T0)

    ttl = client.execute("TTL", keys.usage)
    assert usage_ttl - 2 <= ttl <= usage_ttl
    assert memory.usage(keys.usage, T0 + usage_ttl - 1)["k1:admitted"] == 1
    assert memory.usage(keys.usage, T0 + usage_ttl) == {}


def test_a_ban_is_numbered_and_ends_when_the_table_says(settings):
    case = CASES[5]

    outcomes = run(MemoryBackend(), case)

    bans = [o for o in outcomes if o.verdict == NB]
    assert [(o.ban_number, o.ban_ends_at - T0) for o in bans] == [
        (1, BAN_BASE_SECONDS),
        (2, BAN_BASE_SECONDS + 2 * BAN_BASE_SECONDS),
    ]


def test_only_redis_can_say_a_cached_key_is_stale():
    # Without Redis no process caches keys (apikeys.keyring), so memory never checks.
    client = RedisClient(settings.REDIS_URL)
    subject = Subject("a1", "k1", Policy(Limits.of(minute=5, day=5)))
    keys = Keys.of(subject, T0, "limiter-test:")
    client.execute("SET", keys.generation, "current")
    args = Args(Limits.of(minute=5, day=5), 0, generation="an-old-one")

    assert RedisBackend(client).run(keys, args, T0).verdict == Verdict.STALE_KEY
    assert client.execute("GET", keys.windows[0]) is None  # nothing counted
    assert MemoryBackend().run(keys, args, T0).verdict == Verdict.ADMITTED


# Peeks (GET /v1/rate_limit) ----------------------------------------------------------------

CHECK, PEEK = "check", "peek"


@dataclass(frozen=True)
class PeekCase:
    name: str
    policy: Policy
    peek_limit: int
    # (seconds after T0, CHECK or PEEK, how many calls); the peeks' outcomes are compared.
    steps: list[tuple[int, str, int]]
    # Each peek's (verdict, its own count, the windows' counts by name, ban ends at - T0 or 0);
    # a window not named counts nothing.
    expected: list[tuple[Verdict, int, dict[str, int], int]]


PEEK_CASES = [
    PeekCase(
        "a peek reads both windows and counts only itself",
        Policy(Limits.of(minute=5, day=100), bans=True),
        3,
        [(0, CHECK, 2), (1, PEEK, 2), (2, CHECK, 1), (3, PEEK, 1)],
        [
            (A, 1, {"minute": 2, "day": 2}, 0),
            (A, 2, {"minute": 2, "day": 2}, 0),
            (A, 3, {"minute": 3, "day": 3}, 0),
        ],
    ),
    PeekCase(
        "peeks have their own limit, and a refused peek counts nothing",
        Policy(Limits.of(minute=5, day=100)),
        2,
        [(0, PEEK, 3), (1, CHECK, 1), (2, PEEK, 1)],
        [(A, 1, {}, 0), (A, 2, {}, 0), (R, 2, {}, 0), (R, 2, {"minute": 1, "day": 1}, 0)],
    ),
    PeekCase(
        "the peeks' window is the minute",
        Policy(Limits.of(minute=5, day=100)),
        1,
        [(0, PEEK, 2), (40, PEEK, 1)],
        [(A, 1, {}, 0), (R, 1, {}, 0), (A, 1, {}, 0)],
    ),
    PeekCase(
        "a peek sees a ban in force, and its end",
        Policy(Limits.of(minute=1, day=100), bans=True),
        5,
        [(0, CHECK, 1 + BAN_STRIKES), (1, PEEK, 1), (BAN_BASE_SECONDS, PEEK, 1)],
        [(A, 1, {"minute": 1, "day": 1}, BAN_BASE_SECONDS), (A, 1, {"minute": 0, "day": 1}, 0)],
    ),
]


def run_peeks(backend: MemoryBackend | RedisBackend, case: PeekCase) -> list[Peeked]:
    subject = Subject("a1", "k1", case.policy)
    peeks = []
    for offset, kind, calls in case.steps:
        now = T0 + offset
        minute_end = (now // 60 + 1) * 60
        keys = Keys.of(subject, now, "limiter-test:")
        for _ in range(calls):
            if kind == PEEK:
                peeks.append(
                    backend.peek(keys, PeekArgs(case.peek_limit, minute_end - now + 5, now, ""))
                )
            else:
                backend.run(keys, args_for(case.policy, tallied=False), now)
    return peeks


@pytest.mark.parametrize("case", PEEK_CASES, ids=[case.name for case in PEEK_CASES])
def test_both_backends_peek_as_the_table_says(case):
    expected = [
        Peeked(verdict, peeks, [counts.get(w.name, 0) for w in WINDOWS], T0 + ban if ban else 0)
        for verdict, peeks, counts, ban in case.expected
    ]

    in_memory = run_peeks(MemoryBackend(), case)
    in_redis = run_peeks(RedisBackend(RedisClient(settings.REDIS_URL)), case)

    assert in_memory == expected
    assert in_redis == expected


def test_a_peek_is_one_round_trip_and_says_a_cached_key_is_stale():
    client = RedisClient(settings.REDIS_URL)
    subject = Subject("a1", "k1", Policy(Limits.of(minute=5, day=5)))
    keys = Keys.of(subject, T0, "limiter-test:")
    client.execute("SET", keys.generation, "current")

    peeked = RedisBackend(client).peek(keys, PeekArgs(3, 45, T0, generation="an-old-one"))

    assert peeked.verdict == Verdict.STALE_KEY
    assert client.execute("GET", keys.peeks) is None
