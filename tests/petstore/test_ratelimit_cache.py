"""The cache django-ratelimit counts in (petstore.cache), against the real Redis, read back with
the tests' own Redis client."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import pytest
import redis as redis_py
from django.conf import settings
from django.core.cache import caches

from petstore.cache import RedisCache
from tests.reliability.conftest import ROOT

CLOSED_PORT = "redis://127.0.0.1:9/0"  # the discard port: nothing listens there


@pytest.fixture
def cache() -> Iterator[RedisCache]:
    cache = caches["ratelimit"]
    assert isinstance(cache, RedisCache)
    cache.memory.clear()
    yield cache
    cache.memory.clear()


@pytest.fixture
def seen() -> redis_py.Redis:
    return redis_py.Redis.from_url(settings.REDIS_URL)


def stored_as(key: str, version: int = 1) -> str:
    return f"petstore:cache:{version}:{key}"


def test_add_stores_a_value_only_where_there_is_none(cache):
    assert cache.add("attempts", 1, 60) is True
    assert cache.add("attempts", 5, 60) is False
    assert cache.get("attempts") == 1


def test_incr_counts_up_what_add_stored(cache, seen):
    cache.add("attempts", 1, 60)

    assert cache.incr("attempts") == 2
    assert cache.incr("attempts", 3) == 5
    assert seen.get(stored_as("attempts")) == b"5"  # a plain Redis integer, which INCR counts


def test_incr_of_a_missing_key_raises_value_error_and_creates_nothing(cache, seen):
    with pytest.raises(ValueError, match="not found"):
        cache.incr("attempts")

    assert seen.exists(stored_as("attempts")) == 0


def test_add_expires_the_value_after_its_timeout(cache, seen):
    cache.add("attempts", 1, 65)
    cache.incr("attempts")

    # Counting keeps the expiry: a counter never outlives its window.
    assert 60 < seen.ttl(stored_as("attempts")) <= 65


def test_other_values_are_pickled_and_read_back(cache):
    cache.set("shape", {"window": (60, "s")}, 30)

    assert cache.get("shape") == {"window": (60, "s")}
    assert cache.get("missing", "default") == "default"


def test_set_with_no_timeout_persists_and_touch_gives_it_one(cache, seen):
    cache.set("kept", 7, None)
    assert seen.ttl(stored_as("kept")) == -1

    assert cache.touch("kept", 20) is True
    assert 0 < seen.ttl(stored_as("kept")) <= 20
    assert cache.touch("missing", 20) is False


def test_a_zero_timeout_stores_nothing(cache, seen):
    cache.set("gone", 1, 0)

    assert cache.add("gone", 1, 0) is True
    assert seen.exists(stored_as("gone")) == 0


def test_delete_says_whether_there_was_a_value(cache):
    cache.set("attempts", 1, 60)

    assert cache.delete("attempts") is True
    assert cache.delete("attempts") is False
    assert cache.get("attempts") is None


def test_versions_are_kept_apart(cache, seen):
    cache.set("attempts", 1, 60, version=2)

    assert cache.get("attempts") is None
    assert seen.get(stored_as("attempts", version=2)) == b"1"


def test_clear_is_refused_since_the_database_holds_the_apis_limits(cache, seen):
    seen.set("petstore:other", "kept")

    with pytest.raises(NotImplementedError):
        cache.clear()
    assert seen.get("petstore:other") == b"kept"


def test_it_counts_in_process_memory_while_redis_is_down(cache, settings):
    settings.REDIS_URL = CLOSED_PORT

    assert cache.add("attempts", 1, 60) is True
    assert cache.incr("attempts") == 2
    assert cache.get("attempts") == 2
    with pytest.raises(ValueError, match="not found"):
        cache.incr("missing")


def test_django_ratelimits_own_check_finds_no_error_in_the_cache():
    """django_ratelimit is not an installed app: its check warns of every backend but its three
    (W001), which would fail the deploy check (test_security). Its errors, for a cache that is
    not shared or cannot count atomically, are asked here, in a process of their own, since
    importing the check registers it."""
    run_check = (
        "import django; django.setup()\n"
        "from django_ratelimit.checks import check_caches\n"
        "print(' '.join(message.id for message in check_caches(None)))"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "petstore.settings"}

    found = subprocess.run(
        [sys.executable, "-c", run_check], cwd=ROOT, env=env, capture_output=True, text=True
    )

    assert found.returncode == 0, found.stderr
    assert found.stdout.split() == ["django_ratelimit.W001"]  # "not officially supported"
