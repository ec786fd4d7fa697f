"""The limiter costs one Redis round trip per request: ban check and both windows in one."""

from __future__ import annotations

from http import HTTPStatus

import redis
from django.conf import settings

from apikeys.keyring import keyring
from apikeys.limiter import account_usage


def test_an_authenticated_request_costs_one_round_trip(client, auth, redis_commands):
    client.get("/v1/pets", headers=auth)  # loads the script, once per Redis server
    redis_commands.clear()

    response = client.get("/v1/pets", headers=auth)

    assert response.status_code == HTTPStatus.OK
    assert redis_commands == ["EVALSHA"]


def test_a_refused_request_costs_one_round_trip(client, auth, redis_commands, clock):
    for _ in range(60):
        client.get("/v1/categories", headers=auth)
    redis_commands.clear()

    response = client.get("/v1/categories", headers=auth)

    assert response.status_code == HTTPStatus.TOO_MANY_REQUESTS
    assert redis_commands == ["EVALSHA"]


def test_the_script_is_loaded_again_after_redis_forgets_it(client, auth, redis_commands):
    client.get("/v1/pets", headers=auth)
    redis.Redis.from_url(settings.REDIS_URL).script_flush()
    redis_commands.clear()

    response = client.get("/v1/pets", headers=auth)

    assert response.status_code == HTTPStatus.OK
    assert redis_commands[-2:] == ["SCRIPT LOAD", "EVALSHA"]


def test_a_key_this_process_has_not_read_costs_one_round_trip(
    client, auth, make_account, make_key, redis_commands
):
    client.get("/v1/pets", headers=auth)  # the script is loaded, another key is warm
    account = make_account()
    key = make_key(account)
    cold = {"Authorization": f"Bearer {key}"}
    client.get("/v1/pets", headers=cold)  # its first use, recorded once in its life
    keyring.clear()  # as if this process had never seen it
    redis_commands.clear()

    response = client.get("/v1/pets", headers=cold)

    # The key's record, read and counted by the check in one call (no query: the service
    # knows the key), against the key's own account.
    assert response.status_code == HTTPStatus.OK
    assert redis_commands == ["EVALSHA"]
    limit = int(response.headers["X-RateLimit-Limit"])
    assert int(response.headers["X-RateLimit-Remaining"]) == limit - 2
    assert account_usage(account.pk).this_minute == 2
    redis_commands.clear()
    response = client.get("/v1/pets", headers=cold)
    assert redis_commands == ["EVALSHA"]
    assert int(response.headers["X-RateLimit-Remaining"]) == limit - 3


def test_a_keys_first_use_costs_one_round_trip_more_once(client, auth, make_key, redis_commands):
    client.get("/v1/pets", headers=auth)
    fresh = {"Authorization": f"Bearer {make_key()}"}
    redis_commands.clear()

    client.get("/v1/pets", headers=fresh)

    # The check with the key's record, and its record marked used (a script, loaded once).
    assert redis_commands[0] == "EVALSHA"
    assert redis_commands[-1] == "EVALSHA"
    assert len(redis_commands) in (2, 4)
