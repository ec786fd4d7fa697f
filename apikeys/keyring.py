"""API keys as admission finds them: by digest, from PostgreSQL once, then from a process cache.

Looking a key up on every request would cost a query beside the one the request is for; caching
it in the process saves that, but must never let a revoked key through. So every cached key is
stamped with the *key generation* current when it was read, and the limiter's check (the one
round trip every request makes anyway) refuses to count a request whose generation is no longer
current (``apikeys.limiter``). Any change to a key, an account or a plan sets a new generation
(``apikeys.signals``, the one invalidation path), so the very next request in every process
reads the database again.

Without Redis (embedded mode) or while it is unreachable, nothing is cached: no process could
hear of a change, so every request reads the database.
"""

from __future__ import annotations

import contextlib
import threading
import time
import uuid
from collections import OrderedDict
from typing import NamedTuple

from django.conf import settings

from apikeys.models import ApiKey
from petstore import redis

# The key generation's name in Redis (after settings.REDIS_KEY_PREFIX).
KEY_GENERATION = "auth:key-generation"
MAX_ENTRIES = 10_000
# A last guard for the one change no process can hear of: one made while Redis was unreachable
# for its writer only.
MAX_AGE_SECONDS = 60.0


class Found(NamedTuple):
    """A key looked up, and the generation it was read under ("" when it was not cached)."""

    api_key: ApiKey | None
    generation: str = ""


class _Entry(NamedTuple):
    api_key: ApiKey
    generation: str
    cached_at: float


class KeyRing:
    def __init__(self) -> None:
        self._entries: OrderedDict[str, _Entry] = OrderedDict()
        self._lock = threading.Lock()

    def cached(self, digest: str) -> Found | None:
        """The key of ``digest`` from the cache, if it is there."""
        entry = self._get(digest)
        if entry is None:
            return None
        return Found(entry.api_key, entry.generation)

    def read(self, digest: str) -> Found:
        """The key of ``digest`` (its account and plan loaded) from PostgreSQL, cached when a
        generation can be had."""
        # Read the generation first: a change committed after it makes this lookup stale.
        generation = key_generation()
        api_key = ApiKey.objects.for_digest(digest)
        if api_key is None or generation is None:
            return Found(api_key)
        self._put(digest, api_key, generation)
        return Found(api_key, generation)

    def _get(self, digest: str) -> _Entry | None:
        with self._lock:
            entry = self._entries.get(digest)
            if entry is None:
                return None
            if time.monotonic() - entry.cached_at > MAX_AGE_SECONDS:
                del self._entries[digest]
                return None
            self._entries.move_to_end(digest)
            return entry

    def _put(self, digest: str, api_key: ApiKey, generation: str) -> None:
        with self._lock:
            self._entries[digest] = _Entry(api_key, generation, time.monotonic())
            self._entries.move_to_end(digest)
            while len(self._entries) > MAX_ENTRIES:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


keyring = KeyRing()


def key_generation() -> str | None:
    """The current key generation, or None when keys must not be cached: without Redis, or
    while it is unreachable, no process could hear of a change."""
    client = redis.client()
    if client is None or client.down_since is not None:
        return None
    fresh = uuid.uuid4().hex
    try:
        # One round trip: the current value, or ours if there was none.
        current = client.execute("SET", _generation_name(), fresh, "NX", "GET")
    except redis.RedisError:
        return None
    return current.decode() if isinstance(current, bytes) else fresh


def new_key_generation() -> None:
    """Declare every cached key lookup, in every process, out of date."""
    client = redis.client()
    if client is None:
        return
    # Random, not a counter: a Redis that restarted empty can never repeat an old value. In an
    # outage nothing is set, and no process caches keys until it ends.
    with contextlib.suppress(redis.RedisError):
        client.execute("SET", _generation_name(), uuid.uuid4().hex)


def _generation_name() -> str:
    return settings.REDIS_KEY_PREFIX + KEY_GENERATION
