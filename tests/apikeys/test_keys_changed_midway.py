"""A key another process changes while a request is between its read of the key and its count:
the count finds the key generation it was read under out of date, counts nothing, and the key is
read again and counted as that read stands.

The other process is played in this one, at the moment it matters: its write (the row, then
the key's record and a new key generation, as ``apikeys.signals`` publishes a committed change)
is made as soon as the request's own read of the key returns, from PostgreSQL (Django's
``execute_wrapper``) or from Redis (the client's one way out, ``execute_packed``). The reads and
the writes are the real ones; only their moment is chosen."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http import HTTPStatus
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from apikeys import keys
from apikeys.keyring import keyring, publish, record_name
from apikeys.limiter import account_usage
from apikeys.limiter.scripts import CHECK
from apikeys.models import Account, ApiKey
from petstore.redis import RedisClient
from tests.apikeys.test_keys_held import forget_in_redis
from tests.apikeys.test_publishable_keys import SHELTER, from_origin
from tests.assertions import assert_error

URL = "/v1/categories"
LIMITS = "/v1/rate_limit"


MGET = b"*3\r\n$4\r\nMGET\r\n"  # the peek's read: the key generation and the record


def bearer(raw: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {raw}"}


@contextmanager
def after_its_query(raw: str, write: Callable[[], None]) -> Iterator[None]:
    """``write`` made once, as soon as the query that reads the key ``raw`` has returned."""
    digest = keys.digest(raw)
    written = False

    def then_write(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        nonlocal written
        result = execute(sql, params, many, context)
        if not written and '"apikeys_apikey"."digest" =' in sql and digest in params:
            written = True
            write()
        return result

    with connection.execute_wrapper(then_write):
        yield
    assert written, "the request never read the key from PostgreSQL"


@pytest.fixture
def after_each_redis_read(monkeypatch) -> Callable[[str, Callable[[], None]], list[int]]:
    """``after(raw, write)``: ``write`` made each time a command that reads the key ``raw``'s
    record in Redis has returned; the list it returns grows by one with each."""

    def after(raw: str, write: Callable[[], None]) -> list[int]:
        name = record_name(keys.digest(raw)).encode()
        real = RedisClient.execute_packed
        writes: list[int] = []

        def then_write(self: RedisClient, packed: bytes) -> Any:
            result = real(self, packed)
            # The check by record names the record, and so does the peek's read (MGET).
            if name in packed and (CHECK.sha.encode() in packed or packed.startswith(MGET)):
                writes.append(len(writes))
                write()
            return result

        monkeypatch.setattr(RedisClient, "execute_packed", then_write)
        return writes

    return after


def revoke(raw: str) -> Callable[[], None]:
    def write() -> None:
        ApiKey.objects.filter(digest=keys.digest(raw)).update(revoked_at=timezone.now())
        publish([keys.digest(raw)])

    return write


def per_minute(raw: str, account: Account, *limits: int) -> Callable[[], None]:
    """The account's limit a minute changed to each of ``limits`` in turn, one a write."""
    left = list(limits)

    def write() -> None:
        Account.objects.filter(pk=account.pk).update(custom_requests_per_minute=left.pop(0))
        publish([keys.digest(raw)])

    return write


def test_a_key_revoked_between_its_query_and_its_count_is_refused(client, api_key, clock):
    account = ApiKey.objects.get().account_id
    forget_in_redis(api_key)  # nor does this process: the key is read from PostgreSQL

    with after_its_query(api_key, revoke(api_key)):
        response = client.get(URL, headers=bearer(api_key))

    body = assert_error(response, HTTPStatus.UNAUTHORIZED, "unauthorized")
    assert body["message"] == "This API key has been revoked."
    assert account_usage(account).this_minute == 0
    # Limited by address: its count before the query, and its count with the refusal.
    assert response["X-RateLimit-Remaining"] == "58"


def test_a_plan_changed_between_a_read_of_the_limits_and_its_count_is_the_one_shown(
    client, make_account, make_key, clock
):
    account = make_account(plan="enterprise", per_minute=100)
    key = make_key(account)
    forget_in_redis(key)

    with after_its_query(key, per_minute(key, account, 200)):
        response = client.get(LIMITS, headers=bearer(key))

    assert response.status_code == HTTPStatus.OK
    minute = next(w for w in response.json()["windows"] if w["name"] == "minute")
    assert minute["limit"] == 200
    assert response["X-RateLimit-Remaining"] == "59"


def test_a_held_publishable_key_whose_plan_changed_is_counted_by_the_new_plan(
    client, make_account, make_key, clock
):
    account = make_account(plan="enterprise", per_minute=100)
    key = make_key(account, kind="publishable", origins=(SHELTER,))
    assert client.get("/v1/pets", headers=from_origin(key, SHELTER)).status_code == HTTPStatus.OK

    per_minute(key, account, 200)()  # the other process's change, before this request

    response = client.get("/v1/pets", headers=from_origin(key, SHELTER))

    assert response.status_code == HTTPStatus.OK
    assert response["X-RateLimit-Limit"] == "200"
    assert response["X-RateLimit-Remaining"] == "198"
    assert account_usage(account.pk).this_minute == 2


def test_a_key_changed_again_during_its_second_read_is_counted_as_that_read_stands(
    client, make_account, make_key, after_each_redis_read, clock
):
    account = make_account(plan="enterprise", per_minute=100)
    key = make_key(account, kind="publishable", origins=(SHELTER,))
    keyring.clear()  # a process that has not read the key: it is found in Redis
    writes = after_each_redis_read(key, per_minute(key, account, 200, 300))

    response = client.get("/v1/pets", headers=from_origin(key, SHELTER))

    # Read under the first change and counted without looking again: the second change is
    # the next request's to see.
    assert writes == [0, 1]
    assert response.status_code == HTTPStatus.OK
    assert response["X-RateLimit-Limit"] == "200"
    assert account_usage(account.pk).this_minute == 1
