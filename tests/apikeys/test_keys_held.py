"""What one process holds of a key, and what another process changes under it, in this process:
the other process is played by writing its rows and Redis records directly, as its own
``apikeys.keyring`` calls would, so that the tests need no committed rows."""

from __future__ import annotations

from datetime import timedelta
from http import HTTPStatus

from django.utils import timezone

from apikeys import keys
from apikeys.keyring import keyring, publish, record_name
from apikeys.models import ApiKey
from events.models import Event
from petstore import redis
from tests.apikeys.test_publishable_keys import SHELTER, assert_cors_for, from_origin
from tests.assertions import assert_error

URL = "/v1/categories"
# Reading its own limits is the request that needs nothing but the key (and Redis's counts).
LIMITS = "/v1/rate_limit"


def bearer(raw: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {raw}"}


def forget_in_redis(raw: str) -> None:
    """Redis lets the key's record go (evicted, say), the key generation unchanged."""
    client = redis.client()
    assert client is not None
    assert client.execute("DEL", record_name(keys.digest(raw))) == 1


def test_a_key_this_process_holds_needs_neither_redis_record_nor_query(
    client, api_key, django_assert_num_queries
):
    assert client.get(URL, headers=bearer(api_key)).status_code == HTTPStatus.OK
    forget_in_redis(api_key)

    with django_assert_num_queries(0):
        response = client.get(LIMITS, headers=bearer(api_key))

    assert response.status_code == HTTPStatus.OK


def test_a_key_first_found_in_redis_is_held_by_the_process_that_found_it(
    client, api_key, django_assert_num_queries
):
    assert client.get(URL, headers=bearer(api_key)).status_code == HTTPStatus.OK
    keyring.clear()  # another process, which has never read the key: it finds it in Redis
    assert client.get(URL, headers=bearer(api_key)).status_code == HTTPStatus.OK
    forget_in_redis(api_key)

    with django_assert_num_queries(0):
        response = client.get(LIMITS, headers=bearer(api_key))

    assert response.status_code == HTTPStatus.OK


def test_a_key_revoked_by_another_process_is_refused_by_the_next_request_here(client, api_key):
    assert client.get(URL, headers=bearer(api_key)).status_code == HTTPStatus.OK

    # The other process's revocation: the row, then its record and a new key generation.
    ApiKey.objects.filter(digest=keys.digest(api_key)).update(revoked_at=timezone.now())
    publish([keys.digest(api_key)])

    response = client.get(URL, headers=bearer(api_key))
    body = assert_error(response, HTTPStatus.UNAUTHORIZED, "unauthorized")
    assert body["message"] == "This API key has been revoked."


def test_a_401_for_a_key_expired_elsewhere_is_readable_from_its_origin_in_a_new_process(
    client, make_key
):
    key = make_key(kind="publishable", origins=(SHELTER,))
    assert client.get("/v1/pets", headers=from_origin(key, SHELTER)).status_code == HTTPStatus.OK
    ApiKey.objects.filter(digest=keys.digest(key)).update(
        expires_at=timezone.now() - timedelta(minutes=1)
    )
    publish([keys.digest(key)])
    keyring.clear()  # a process that has never read the key: the refusal comes from Redis

    response = client.get("/v1/pets", headers=from_origin(key, SHELTER))

    assert_error(response, HTTPStatus.UNAUTHORIZED, "unauthorized")
    assert_cors_for(response, SHELTER)


def test_the_days_threshold_event_belongs_to_the_keys_account(client, make_key, make_account):
    account = make_account(name="Busy shelter", plan="enterprise", per_minute=100, per_day=10)
    key = make_key(account)

    for _ in range(8):
        assert client.get(URL, headers=bearer(key)).status_code == HTTPStatus.OK

    passed = Event.objects.get(type="usage.threshold")
    assert passed.account_id == account.pk
    assert passed.data["percent"] == 80


def test_a_key_refused_after_a_query_counts_once_against_the_address(client, make_key, clock):
    key = make_key(kind="publishable", origins=(SHELTER,))
    ApiKey.objects.filter(digest=keys.digest(key)).update(revoked_at=timezone.now())
    forget_in_redis(key)  # a digest Redis does not know: counted by address before the query

    response = client.get("/v1/pets", headers=from_origin(key, SHELTER))

    body = assert_error(response, HTTPStatus.UNAUTHORIZED, "unauthorized")
    assert body["message"] == "This API key has been revoked."
    assert response["X-RateLimit-Remaining"] == "59"
    assert_cors_for(response, SHELTER)
