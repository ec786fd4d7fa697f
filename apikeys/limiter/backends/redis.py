"""The check and the peek as Lua scripts in Redis: one round trip (``EVALSHA``) each, atomic
across every process and host, so that none ever admits more than a limit, where
INCR-then-compare, or DRF's ``SimpleRateThrottle``, would race."""

from __future__ import annotations

from apikeys.limiter.counters import Args, GiveBack, Keys, Moment, Outcome, PeekArgs, Peeked
from apikeys.limiter.scripts import CHECK, GIVE_BACK, PEEK
from apikeys.usage.tallies import RedisTallies
from petstore import redis
from petstore.redis import RedisClient


class RedisBackend:
    def __init__(self, client: RedisClient | None = None) -> None:
        # None: the process's client, while Redis may be asked (petstore.redis.usable).
        self.client = client

    def run(self, keys: Keys, args: Args, now: int) -> Outcome:
        names, moment = keys.names, Moment.at(now)
        arguments = CHECK.arguments(names, args, moment)
        client = self.client or redis.usable()
        return Outcome(*client.evalsha(CHECK.sha, CHECK.source, *arguments))

    def peek(self, keys: Keys, args: PeekArgs) -> Peeked:
        arguments = PEEK.arguments(keys.names, args)
        client = self.client or redis.usable()
        return Peeked(*client.evalsha(PEEK.sha, PEEK.source, *arguments))

    def give_back(self, keys: Keys, args: GiveBack, now: int) -> int:
        arguments = GIVE_BACK.arguments(keys.names, args)
        return int(self._client().evalsha(GIVE_BACK.sha, GIVE_BACK.source, *arguments))

    def _client(self) -> RedisClient:
        return self.client or redis.usable()

    def read(self, names: list[str], now: float) -> list[int]:
        return [int(value or 0) for value in self._client().execute("MGET", *names)]

    def delete(self, names: list[str]) -> None:
        self._client().execute("DEL", *names)

    def usage(self, name: str, now: float) -> dict[str, int | str]:
        return RedisTallies(self._client()).read(name, now)

    def usage_accounts(self, index: str, now: float) -> set[str]:
        return RedisTallies(self._client()).accounts(index, now)
