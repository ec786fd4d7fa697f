"""Fixtures of the key and limiter tests."""

from __future__ import annotations

import pytest
import redis

from petstore.redis import RedisClient


@pytest.fixture
def redis_commands(monkeypatch):
    """Every command any Redis client in this process sends, in order (a spy: they still run):
    the process's own (petstore.redis) and redis-py's (Django's cache)."""
    sent: list[str] = []

    def spy(cls, method):
        real = getattr(cls, method)

        def counting(self, *args, **options):
            name = str(args[0])
            if name == "SCRIPT":
                name = f"SCRIPT {args[1]}"
            sent.append(name)
            return real(self, *args, **options)

        monkeypatch.setattr(cls, method, counting)

    def spy_packed(cls, method):
        # Commands as they go on the wire (RESP): b"*3\r\n$6\r\nSCRIPT\r\n$4\r\nLOAD\r\n…".
        real = getattr(cls, method)

        def counting(self, packed):
            arguments = [part.decode() for part in packed.split(b"\r\n")[2::2]]
            name = arguments[0]
            if name == "SCRIPT":
                name = f"SCRIPT {arguments[1]}"
            sent.append(name)
            return real(self, packed)

        monkeypatch.setattr(cls, method, counting)

    spy(redis.Redis, "execute_command")
    spy_packed(RedisClient, "execute_packed")  # execute() packs, then sends through it
    return sent
