"""API keys as admission finds them, by digest: in this process's key ring, else in Redis, else
in PostgreSQL.

Every key the service has read or changed has its record (``apikeys.records``) in Redis, so a
process that has not seen a key yet finds it there, with no query; a digest PostgreSQL says is
no key is remembered there too, for a while. A change to a key, an account or a plan withdraws
the records it touches at once and writes them anew after its commit (``apikeys.signals``).

The process's ring must never let a revoked key through, so it holds records read under one
*key generation*: any change sets a new one, and the limiter's check (the one round trip every
request makes anyway) refuses to count a request whose generation is no longer current
(``apikeys.limiter``), so the very next request in every process reads the key again.

Without Redis (embedded mode) or while it is unreachable, nothing is cached: no process could
hear of a change, so every request reads the database. A change made by a process that cannot
reach Redis while the API's processes can is the one that goes unheard: its keys' records are
corrected by their next change, or when Redis starts empty.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import itertools
import threading
import uuid
from collections.abc import Iterable
from typing import NamedTuple

from django.conf import settings

from apikeys.models import ApiKey
from apikeys.records import KeyRecord
from petstore import redis

# Names in Redis (after settings.REDIS_KEY_PREFIX).
KEY_GENERATION = "auth:key-generation"
RECORD = "auth:key:"  # + the key's digest
# What a digest that is no key reads as, and how long that is remembered.
NO_KEY = b"-"
NO_KEY_SECONDS = 600
# Enough for every key of a busy service in each process, at a few hundred bytes each.
MAX_ENTRIES = 25_000
# Records written in one command when a change touches many keys (a plan's).
BATCH = 500


class Found(NamedTuple):
    """A digest looked up: its record, or None when it is no key; and the generation it was
    read under ("" when there is none to verify)."""

    record: KeyRecord | None
    generation: str = ""


class KeyRing:
    def __init__(self) -> None:
        # By the digest's 32 bytes, half the size of its hex.
        self._entries: dict[bytes, KeyRecord] = {}
        self.generation = ""
        self._lock = threading.Lock()

    def cached(self, digest: str) -> Found | None:
        """The record of ``digest`` from this process, if it holds it."""
        record = self._entries.get(bytes.fromhex(digest))
        if record is None:
            return None
        return Found(record, self.generation)

    def fetch(self, digest: str) -> Found | None:
        """The record of ``digest`` from Redis, in one round trip; None when Redis does not
        know the digest. ``redis.RedisError`` when it cannot be asked."""
        client = redis.usable()
        generation, data = client.execute("MGET", _name(KEY_GENERATION), record_name(digest))
        return self.received(digest, data, generation)

    def received(self, digest: str, data: bytes | None, generation: bytes | None) -> Found | None:
        """What Redis holds for ``digest`` (``data``, read under ``generation``), as ``fetch``
        returns it."""
        if data is None:
            return None
        record = None
        if data != NO_KEY:
            record = KeyRecord.from_wire(data)
            if record is None:
                # A record of another shape, written before a change of its fields: the key is
                # read afresh and its record put in that one's place.
                return self.read(digest, replacing=data)
        # No generation: Redis restarted, and there is nothing to verify against.
        return self._found(digest, record, generation.decode() if generation else None)

    def read(self, digest: str, replacing: bytes | None = None) -> Found:
        """The record of ``digest`` from PostgreSQL, kept in Redis (in place of ``replacing``,
        when that is what Redis held) and in this process."""
        # Read the generation first: a change committed after it makes this lookup stale.
        generation = key_generation()
        api_key = ApiKey.objects.for_digest(digest)
        record = KeyRecord.of(api_key) if api_key is not None else None
        client = redis.client()
        if client is not None and generation is not None:
            stored = record.wire() if record is not None else NO_KEY
            seconds = () if record is not None else (NO_KEY_SECONDS,)
            with contextlib.suppress(redis.RedisError):
                if replacing is None:
                    # NX: a change written meanwhile is newer than this read.
                    expiry = ("EX", *seconds) if seconds else ()
                    client.execute("SET", record_name(digest), stored, "NX", *expiry)
                else:
                    _replace(client, record_name(digest), replacing, stored, *seconds)
        return self._found(digest, record, generation)

    def _found(self, digest: str, record: KeyRecord | None, generation: str | None) -> Found:
        """What a lookup found; a key read under a generation is kept for the next request."""
        if generation is None:
            return Found(record)
        if record is not None:
            self._put(digest, record, generation)
        return Found(record, generation)

    def _put(self, digest: str, record: KeyRecord, generation: str) -> None:
        with self._lock:
            if generation != self.generation:
                # Read under another generation than the rest: those are out of date.
                self._entries.clear()
                self.generation = generation
            elif len(self._entries) >= MAX_ENTRIES:
                # The oldest tenth read goes (dicts keep their order), all at once: one at a
                # time would leave a dict whose oldest entry takes ever longer to find.
                oldest = itertools.islice(self._entries.items(), MAX_ENTRIES // 10, None)
                self._entries = dict(oldest)
            self._entries[bytes.fromhex(digest)] = record

    def replace(self, digest: str, record: KeyRecord) -> None:
        """``record`` in place of the one this process holds for ``digest``, if any."""
        with self._lock:
            held = bytes.fromhex(digest)
            if held in self._entries:
                self._entries[held] = record

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
        current = client.execute("SET", _name(KEY_GENERATION), fresh, "NX", "GET")
    except redis.RedisError:
        return None
    return current.decode() if isinstance(current, bytes) else fresh


def withdraw(digests: list[str]) -> None:
    """Forget the records of ``digests`` and every process's cached keys: until the change
    that touches them is committed, they are read from PostgreSQL."""
    client = redis.client()
    if client is None:
        return
    # Random, not a counter: a Redis that restarted empty can never repeat an old value. In an
    # outage nothing is set, and no process caches keys until it ends.
    with contextlib.suppress(redis.RedisError):
        for start in range(0, len(digests), BATCH):
            client.execute("DEL", *map(record_name, digests[start : start + BATCH]))
        client.execute("SET", _name(KEY_GENERATION), uuid.uuid4().hex)


def publish(digests: Iterable[str]) -> None:
    """Write the records of ``digests`` as PostgreSQL now has them (after a committed change),
    and declare every process's cached keys out of date."""
    client = redis.client()
    if client is None:
        return
    wanted = list(digests)
    with contextlib.suppress(redis.RedisError):
        for start in range(0, len(wanted), BATCH):
            api_keys = ApiKey.objects.select_related("account__plan").filter(
                digest__in=wanted[start : start + BATCH]
            )
            pairs = [(record_name(k.digest), KeyRecord.of(k).wire()) for k in api_keys]
            if pairs:
                client.execute("MSET", *(part for pair in pairs for part in pair))
        client.execute("SET", _name(KEY_GENERATION), uuid.uuid4().hex)


def mark_used(digest: str, record: KeyRecord) -> None:
    """Note in ``record`` that its key has been used, in this process and in Redis, unless a
    change has replaced the record there meanwhile."""
    used = dataclasses.replace(record, used=True)
    keyring.replace(digest, used)
    client = redis.client()
    if client is None:
        return
    with contextlib.suppress(redis.RedisError):
        _replace(client, record_name(digest), record.wire(), used.wire())


def _replace(client: redis.RedisClient, name: str, read: bytes, new: bytes, *seconds: int) -> None:
    """``new`` in place of ``read`` at ``name`` (expiring in ``seconds``, if given), only while
    ``read`` is still there: a change written meanwhile is newer."""
    client.evalsha(_REPLACE_SHA, _REPLACE, 1, name, read, new, *seconds)


_REPLACE = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return false end
if ARGV[3] then return redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3]) end
return redis.call('SET', KEYS[1], ARGV[2])
"""
_REPLACE_SHA = hashlib.sha1(_REPLACE.encode(), usedforsecurity=False).hexdigest()


def _name(name: str) -> str:
    return settings.REDIS_KEY_PREFIX + name


def record_name(digest: str) -> str:
    return f"{settings.REDIS_KEY_PREFIX}{RECORD}{digest}"
