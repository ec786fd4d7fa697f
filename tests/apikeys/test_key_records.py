"""A key this process has not read is found by its record in Redis and counted in the same
round trip, against its own account; a record that does not say on its own that the key is
usable leaves the decision to admission, which refuses as for a key it reads."""

from __future__ import annotations

from datetime import timedelta
from http import HTTPStatus

import orjson
import pytest

from apikeys import keys
from apikeys.keyring import keyring, record_name
from apikeys.limiter import account_usage
from apikeys.models import ApiKey
from apikeys.records import RECORD_VERSION, KeyRecord
from apikeys.services import apikey_revoke
from apikeys.windows import WINDOWS
from petstore import redis
from tests.assertions import assert_error

SHELTER = "https://shelter.example"


def bearer(raw: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {raw}"}


def read_elsewhere(client, raw: str, origin: str | None = None):
    """The request of a process that has not read the key: its record is in Redis only."""
    keyring.clear()
    headers = bearer(raw) | ({"Origin": origin} if origin else {})
    return client.get("/v1/categories", headers=headers)


def test_it_is_counted_against_its_own_account(client, make_account, make_key, redis_commands):
    first, second = make_account(), make_account()
    make_key(first)
    raw = make_key(second)
    client.get("/v1/categories", headers=bearer(raw))  # its first use is recorded
    redis_commands.clear()

    response = read_elsewhere(client, raw)

    assert response.status_code == HTTPStatus.OK
    assert redis_commands == ["EVALSHA"]
    assert account_usage(second.pk).this_minute == 2
    assert account_usage(first.pk).this_minute == 0
    assert response["X-RateLimit-Remaining"] == str(int(response["X-RateLimit-Limit"]) - 2)


def test_its_refusals_are_its_accounts(client, make_key):
    raw = make_key(plan="enterprise", per_minute=2)
    statuses = [read_elsewhere(client, raw).status_code for _ in range(3)]

    assert statuses == [HTTPStatus.OK, HTTPStatus.OK, HTTPStatus.TOO_MANY_REQUESTS]


def test_a_revoked_key_is_refused_and_counted_against_the_address(
    client, api_key, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        apikey_revoke(api_key=ApiKey.objects.get())
    assert redis.usable().execute("GET", record_name(keys.digest(api_key))) is not None

    response = read_elsewhere(client, api_key)

    assert_error(response, HTTPStatus.UNAUTHORIZED, "unauthorized")
    assert account_usage(ApiKey.objects.get().account_id).this_minute == 0


def test_an_expired_key_is_refused(client, make_key, clock):
    raw = make_key(expires_in=timedelta(minutes=1))
    assert read_elsewhere(client, raw).status_code == HTTPStatus.OK

    clock.now += 60
    response = read_elsewhere(client, raw)

    body = assert_error(response, HTTPStatus.UNAUTHORIZED, "unauthorized")
    assert "expired" in body["message"]


@pytest.mark.parametrize(
    ("origin", "status"), [(SHELTER, HTTPStatus.OK), ("https://evil.example", HTTPStatus.FORBIDDEN)]
)
def test_a_publishable_key_has_its_origin_checked(client, make_key, origin, status):
    raw = make_key(kind="publishable", origins=(SHELTER,))

    response = read_elsewhere(client, raw, origin)

    assert response.status_code == status


def test_a_record_written_before_the_check_read_records_is_still_read(
    client, api_key, redis_commands
):
    client.get("/v1/categories", headers=bearer(api_key))
    name = record_name(keys.digest(api_key))
    fields = orjson.loads(KeyRecord.of(ApiKey.objects.get()).wire())
    older = orjson.dumps(
        {name: value for name, value in fields.items() if name != "countable_until"}
    )
    redis.usable().execute("SET", name, older)
    redis_commands.clear()

    response = read_elsewhere(client, api_key)

    # Left to admission, which reads the record as ever and counts in a second round trip.
    assert response.status_code == HTTPStatus.OK
    assert redis_commands == ["EVALSHA", "EVALSHA"]


def test_a_record_of_an_older_shape_is_rewritten_on_first_use(client, api_key, redis_commands):
    client.get("/v1/categories", headers=bearer(api_key))
    name = record_name(keys.digest(api_key))
    fields = orjson.loads(KeyRecord.of(ApiKey.objects.get()).wire())
    # As an earlier release wrote it: another shape, its windows by name.
    limits = {w.per: limit for w, limit in zip(WINDOWS, fields.pop("limits"), strict=True)}
    redis.usable().execute("SET", name, orjson.dumps(fields | limits | {"v": 1}))
    redis_commands.clear()

    response = read_elsewhere(client, api_key)

    # Read from PostgreSQL once and counted against its own account, never against the address:
    # the check by record, the key generation, the record replaced, the account's count.
    assert response.status_code == HTTPStatus.OK
    assert redis_commands == ["EVALSHA", "SET", "EVALSHA", "EVALSHA"]
    assert account_usage(ApiKey.objects.get().account_id).this_minute == 2
    rewritten = orjson.loads(redis.usable().execute("GET", name))
    assert rewritten["v"] == RECORD_VERSION
    assert rewritten["limits"] == list(KeyRecord.of(ApiKey.objects.get()).limits)

    redis_commands.clear()
    assert read_elsewhere(client, api_key).status_code == HTTPStatus.OK
    assert redis_commands == ["EVALSHA"]  # found and counted by its record, in one round trip
