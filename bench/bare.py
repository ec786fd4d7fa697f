"""The least that keys and limits could cost: the open stack and one bare Redis round trip.

Admission asks Redis about every request, one round trip, so that a key revoked in one
process is refused by the very next request in every process, and a limit holds across all of
them (``apikeys.admission``). This application is the open stack (``bench.open_settings``:
no keys, no limits) with only that round trip added, an ``INCR`` through the process's Redis
client (``petstore.redis``): no key, no script, no headers. `make bench` runs it beside
``open``, so that the price of keys and limits (stack / open) can be read against the price of
the round trip alone (bare / open), measured in the same run.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from petstore import redis
from petstore.wsgi import application as open_stack


def application(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    client = redis.client()
    if client is None:
        raise RuntimeError("the bench runs with REDIS_URL set")
    client.execute("INCR", "bench:bare")
    return open_stack(environ, start_response)
