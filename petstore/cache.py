"""A Django cache over the process's one Redis client (``petstore.redis``), for django-ratelimit's
counters (the admin's sign-in limit): Django's own Redis backend would bring redis-py into every
web worker. It holds what django-ratelimit asks of a cache; ``clear`` is refused.

While Redis cannot be asked (no ``REDIS_URL``, or an outage), it works in this process's memory,
as the API's limiter does: limits then hold per process until Redis returns.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT, BaseCache
from django.core.cache.backends.locmem import LocMemCache

# Django's serializer for its Redis backend: integers as they are (so that INCR works on them),
# anything else pickled. Its module imports redis-py only when its own client is made.
from django.core.cache.backends.redis import RedisSerializer

from petstore import redis
from petstore.redis import RedisClient

# INCRBY creates a missing key, without an expiry; Django's contract is a ValueError instead,
# so the test and the increment must be one step, or a counter read as present could expire
# in between and come back for ever.
INCR_IF_PRESENT = """
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
return redis.call('INCRBY', KEYS[1], ARGV[1])
"""
INCR_IF_PRESENT_SHA = hashlib.sha1(INCR_IF_PRESENT.encode(), usedforsecurity=False).hexdigest()


class RedisCache(BaseCache):
    def __init__(self, location: str, params: dict[str, Any]) -> None:
        super().__init__(params)
        self._serializer = RedisSerializer()
        # Where entries are kept while Redis cannot be asked. LocMemCache keeps them by name for
        # the whole process, not per cache instance (Django makes one per thread).
        self.memory = LocMemCache(f"petstore.cache:{location}", params)

    def get_backend_timeout(self, timeout: float | None = DEFAULT_TIMEOUT) -> int | None:
        """Seconds from now, as Redis counts them (None: for ever)."""
        if timeout is DEFAULT_TIMEOUT:
            timeout = self.default_timeout
        return None if timeout is None else max(0, int(timeout))

    def add(
        self,
        key: Any,
        value: Any,
        timeout: float | None = DEFAULT_TIMEOUT,
        version: int | None = None,
    ) -> bool:
        name = self.make_and_validate_key(key, version=version)
        seconds = self.get_backend_timeout(timeout)

        def add_in_redis(client: RedisClient) -> bool:
            stored = self._serializer.dumps(value)
            # A zero timeout expires at once (Django's contract), which EX cannot say.
            expiry = () if seconds is None else ("EX", max(seconds, 1))
            added = client.execute("SET", name, stored, "NX", *expiry) is not None
            if added and seconds == 0:
                client.execute("DEL", name)
            return added

        return redis.or_else(add_in_redis, lambda: self.memory.add(key, value, timeout, version))

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        name = self.make_and_validate_key(key, version=version)

        def get_from_redis(client: RedisClient) -> Any:
            stored = client.execute("GET", name)
            return default if stored is None else self._serializer.loads(stored)

        return redis.or_else(get_from_redis, lambda: self.memory.get(key, default, version))

    def set(
        self,
        key: Any,
        value: Any,
        timeout: float | None = DEFAULT_TIMEOUT,
        version: int | None = None,
    ) -> None:
        name = self.make_and_validate_key(key, version=version)
        seconds = self.get_backend_timeout(timeout)

        def set_in_redis(client: RedisClient) -> None:
            if seconds == 0:
                client.execute("DEL", name)
                return
            expiry = () if seconds is None else ("EX", seconds)
            client.execute("SET", name, self._serializer.dumps(value), *expiry)

        redis.or_else(set_in_redis, lambda: self.memory.set(key, value, timeout, version))

    def touch(
        self, key: Any, timeout: float | None = DEFAULT_TIMEOUT, version: int | None = None
    ) -> bool:
        name = self.make_and_validate_key(key, version=version)
        seconds = self.get_backend_timeout(timeout)

        def touch_in_redis(client: RedisClient) -> bool:
            if seconds is None:
                return bool(client.execute("PERSIST", name))
            return bool(client.execute("EXPIRE", name, seconds))

        return redis.or_else(touch_in_redis, lambda: self.memory.touch(key, timeout, version))

    def delete(self, key: Any, version: int | None = None) -> bool:
        name = self.make_and_validate_key(key, version=version)
        return redis.or_else(
            lambda client: bool(client.execute("DEL", name)),
            lambda: self.memory.delete(key, version),
        )

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        name = self.make_and_validate_key(key, version=version)

        def incr_in_redis(client: RedisClient) -> int | None:
            return client.evalsha(INCR_IF_PRESENT_SHA, INCR_IF_PRESENT, 1, name, delta)

        count = redis.or_else(incr_in_redis, lambda: self.memory.incr(key, delta, version))
        if count is None:
            raise ValueError(f"Key '{name}' not found.")
        return count

    def clear(self) -> None:
        # The Redis database also holds the API's counters, bans and key records: FLUSHDB
        # would lose them, and these entries all expire by themselves.
        raise NotImplementedError("RedisCache shares its database: delete keys one by one")
