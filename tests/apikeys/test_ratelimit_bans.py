"""A key that keeps calling while limited is banned: 15 minutes, doubling within a day."""

from __future__ import annotations

from http import HTTPStatus

from apikeys import services
from apikeys.models import Ban
from tests.assertions import assert_error


def call(client, key: str):
    return client.get("/v1/categories", headers={"Authorization": f"Bearer {key}"})


def exhaust(client, key: str) -> None:
    for _ in range(60):
        assert call(client, key).status_code == HTTPStatus.OK


def strike(client, key: str, times: int) -> list:
    return [call(client, key) for _ in range(times)]


def test_the_tenth_refused_request_within_a_minute_starts_a_ban(client, api_key, key_row, clock):
    exhaust(client, api_key)

    refused = strike(client, api_key, 9)
    assert {r.json()["code"] for r in refused} == {"rate_limited"}
    assert not Ban.objects.exists()

    banned = call(client, api_key)
    assert_error(banned, HTTPStatus.TOO_MANY_REQUESTS, "temporarily_banned")
    assert banned["Retry-After"] == "900"
    assert banned["X-RateLimit-Remaining"] == "0"
    ban = Ban.objects.get()
    assert (ban.api_key, ban.account) == (key_row, key_row.account)
    assert ban.started_at.timestamp() == int(clock.now)
    assert (ban.ends_at - ban.started_at).total_seconds() == 900
    assert ban.is_active


def test_a_ban_outlasts_the_window_and_then_ends(client, api_key, clock):
    exhaust(client, api_key)
    strike(client, api_key, 10)

    clock.advance(60)  # the minute has room again, but the key is banned
    still_banned = call(client, api_key)
    assert_error(still_banned, HTTPStatus.TOO_MANY_REQUESTS, "temporarily_banned")
    assert still_banned["Retry-After"] == str(900 - 60)

    clock.advance(900 - 60)
    assert call(client, api_key).status_code == HTTPStatus.OK


def test_each_further_ban_within_a_day_doubles(client, api_key, clock):
    durations = []
    for _ in range(3):
        clock.advance(60 - clock.now % 60)  # a fresh minute
        exhaust(client, api_key)
        durations.append(int(strike(client, api_key, 10)[-1]["Retry-After"]))
        clock.advance(durations[-1])

    assert durations == [900, 1800, 3600]
    assert Ban.objects.count() == 3


def test_other_keys_of_the_account_are_not_banned(client, api_key, key_row, make_key, clock):
    other = make_key(account=key_row.account)
    exhaust(client, api_key)
    strike(client, api_key, 10)

    # Same account, same full minute: limited, not banned.
    assert call(client, other).json()["code"] == "rate_limited"
    clock.advance(60)
    assert call(client, other).status_code == HTTPStatus.OK
    assert call(client, api_key).json()["code"] == "temporarily_banned"


def test_lifting_a_ban_clears_it_at_once(client, api_key, admin_user, clock):
    exhaust(client, api_key)
    strike(client, api_key, 10)
    clock.advance(60)
    ban = Ban.objects.get()

    services.ban_lift(ban=ban, lifted_by=admin_user)

    assert call(client, api_key).status_code == HTTPStatus.OK
    ban.refresh_from_db()
    assert ban.lifted_by == admin_user
    assert ban.lifted_at is not None
    assert not ban.is_active
