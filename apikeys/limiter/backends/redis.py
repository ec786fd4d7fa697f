"""The check and the peek as Lua scripts in Redis: one round trip (``EVALSHA``) each, atomic
across every process and host, so that none ever admits more than a limit, where
INCR-then-compare, or DRF's ``SimpleRateThrottle``, would race."""

from __future__ import annotations

from typing import Any

from apikeys.limiter.counters import Args, Keys, Moment, Outcome, PeekArgs, Peeked
from apikeys.limiter.policy import Verdict
from apikeys.limiter.scripts import CHECK, PEEK, Script
from apikeys.usage.tallies import RedisTallies
from petstore.redis import RedisClient, ReplyError


class RedisBackend:
    def __init__(self, client: RedisClient) -> None:
        self.client = client

    def _evalsha(self, script: Script, arguments: list[Any]) -> Any:
        try:
            return self.client.execute("EVALSHA", script.sha, *arguments)
        except ReplyError as exc:
            if not str(exc).startswith("NOSCRIPT"):
                raise
        # Redis restarted, or is new, and does not know the script yet: load it, once.
        self.client.execute("SCRIPT", "LOAD", script.source)
        return self.client.execute("EVALSHA", script.sha, *arguments)

    def run(self, keys: Keys, args: Args, now: int) -> Outcome:
        verdict, *counts = self._evalsha(CHECK, CHECK.arguments(keys, args, Moment.at(now)))
        return Outcome(Verdict(verdict), *counts)

    def peek(self, keys: Keys, args: PeekArgs) -> Peeked:
        verdict, *counts = self._evalsha(PEEK, PEEK.arguments(keys, args))
        return Peeked(Verdict(verdict), *counts)

    def read(self, names: list[str], now: float) -> list[int]:
        return [int(value or 0) for value in self.client.execute("MGET", *names)]

    def delete(self, names: list[str]) -> None:
        self.client.execute("DEL", *names)

    def usage(self, name: str, now: float) -> dict[str, int | str]:
        return RedisTallies(self.client).read(name, now)

    def usage_accounts(self, index: str, now: float) -> set[str]:
        return RedisTallies(self.client).accounts(index, now)
