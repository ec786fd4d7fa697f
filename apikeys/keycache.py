"""Key lookups cached in each process, kept honest by one shared generation in Redis.

Looking a key up in PostgreSQL on every request costs a query; caching it in the process saves
that, but a cache must never let a revoked key through. So every cached lookup is stamped with
the *key generation* current when it was read, and the rate limiter's script (one round trip
that every request makes anyway) refuses to count a request whose generation is no longer
current. Any change to a key, an account or a plan sets a new generation once its transaction
commits (``apikeys.signals``), so the very next request in every process reads the database
again.

Without Redis (embedded mode) or while it is unreachable, nothing is cached: no process could
hear of a change, so every request reads the database.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass

from apikeys import ratelimit
from apikeys.models import ApiKey

MAX_ENTRIES = 10_000
# A last guard for the one change no process can hear of: one made while Redis was unreachable
# for its writer only.
MAX_AGE_SECONDS = 60.0


@dataclass(frozen=True)
class CachedKey:
    api_key: ApiKey
    generation: str
    outages: int
    cached_at: float


_entries: OrderedDict[str, CachedKey] = OrderedDict()
_lock = threading.Lock()


def get(digest: str) -> CachedKey | None:
    with _lock:
        entry = _entries.get(digest)
        if entry is None:
            return None
        if (
            entry.outages != ratelimit.redis_outages()
            or time.monotonic() - entry.cached_at > MAX_AGE_SECONDS
        ):
            del _entries[digest]
            return None
        _entries.move_to_end(digest)
        return entry


def put(digest: str, api_key: ApiKey, generation: str) -> None:
    with _lock:
        _entries[digest] = CachedKey(
            api_key, generation, ratelimit.redis_outages(), time.monotonic()
        )
        _entries.move_to_end(digest)
        while len(_entries) > MAX_ENTRIES:
            _entries.popitem(last=False)


def clear() -> None:
    with _lock:
        _entries.clear()
