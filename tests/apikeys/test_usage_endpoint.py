"""GET /v1/usage: the calling account's days, oldest first, today live."""

from __future__ import annotations

from datetime import timedelta
from http import HTTPStatus

import pytest

from apikeys.usage import usage_rollup
from apikeys.windows import WINDOWS
from tests.conftest import CLOCK_START

TODAY = CLOCK_START.date()


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def test_it_lists_thirty_days_oldest_first_with_today_live(client, clock, make_account, make_key):
    account = make_account()
    key = make_key(account=account)
    clock.set(CLOCK_START - timedelta(days=2))
    for _ in range(4):
        client.get("/v1/categories", headers=bearer(key))
    usage_rollup()
    clock.set(CLOCK_START)
    for _ in range(2):
        client.get("/v1/pets", headers=bearer(key))

    response = client.get("/v1/usage", headers=bearer(key))

    assert response.status_code == HTTPStatus.OK
    days = response.json()
    assert len(days) == 30
    assert [day["date"] for day in days] == [
        (TODAY - timedelta(days=29 - n)).isoformat() for n in range(30)
    ]
    # Today counts this request too: the limiter admitted it before the view ran.
    assert days[-1] == {
        "date": TODAY.isoformat(),
        "admitted": 3,
        "refused": 0,
        "banned": 0,
        **each_windows_limit(account.limits.by_name()),
    }
    assert days[-3] == {
        "date": (TODAY - timedelta(days=2)).isoformat(),
        "admitted": 4,
        "refused": 0,
        "banned": 0,
        **each_windows_limit(account.limits.by_name()),
    }
    assert (days[-1]["perMinute"], days[-1]["perDay"]) == (60, 1000)  # the Free plan's
    assert days[-2]["admitted"] == 0
    # Nothing recorded the limits of a day without requests.
    assert {name: days[-2][name] for name in each_windows_limit({})} == each_windows_limit({})


def each_windows_limit(limits: dict[str, int]) -> dict[str, int | None]:
    """Each window's limit as an entry names it (``perMinute``), None where not given."""
    return {"per" + w.name.title(): limits.get(w.name) for w in WINDOWS}


def test_refusals_are_reported_and_the_call_is_counted_like_any(client, clock, make_key):
    key = make_key()
    for _ in range(62):
        client.get("/v1/categories", headers=bearer(key))
    clock.advance(60)

    response = client.get("/v1/usage?days=1", headers=bearer(key))

    assert response.status_code == HTTPStatus.OK
    assert response["X-RateLimit-Limit"] == "60"
    assert response["X-RateLimit-Remaining"] == "59"
    (today,) = response.json()
    assert (today["admitted"], today["refused"], today["banned"]) == (61, 2, 0)


@pytest.mark.parametrize("days", ["1", "90"])
def test_it_takes_one_to_ninety_days(client, auth, days):
    response = client.get(f"/v1/usage?days={days}", headers=auth)

    assert response.status_code == HTTPStatus.OK
    assert len(response.json()) == int(days)


@pytest.mark.parametrize("days", ["0", "91", "-1", "ten", "", "7.0", " 7", "1e1"])
def test_any_other_number_of_days_is_a_validation_error(client, auth, days):
    response = client.get(f"/v1/usage?days={days}", headers=auth)

    assert response.status_code == HTTPStatus.BAD_REQUEST
    body = response.json()
    assert body["code"] == "validation_error"
    assert set(body["errors"]) == {"days"}


def test_it_needs_a_key(client):
    response = client.get("/v1/usage")

    assert response.status_code == HTTPStatus.UNAUTHORIZED
    assert response.json()["code"] == "unauthorized"


def test_another_accounts_requests_are_not_in_it(client, clock, make_key):
    mine, theirs = make_key(), make_key()
    for _ in range(5):
        client.get("/v1/categories", headers=bearer(theirs))
    usage_rollup()

    (today,) = client.get("/v1/usage?days=1", headers=bearer(mine)).json()

    assert today["admitted"] == 1


def test_a_warm_key_costs_one_query_and_one_round_trip_more(
    client,
    clock,
    auth,
    django_assert_num_queries,
    redis_commands,
):
    client.get("/v1/usage", headers=auth)  # the key is cached, its last use written
    usage_rollup()
    redis_commands.clear()

    with django_assert_num_queries(1):
        response = client.get("/v1/usage?days=90", headers=auth)

    assert response.status_code == HTTPStatus.OK
    # The limiter's check, then today's tallies.
    assert redis_commands == ["EVALSHA", "HGETALL"]


def test_a_key_with_only_a_read_scope_may_read_its_accounts_usage(client, clock, make_key):
    key = make_key(scopes=["orders:read"])

    response = client.get("/v1/usage?days=1", headers=bearer(key))

    assert response.status_code == HTTPStatus.OK
    assert response.json()[0]["admitted"] == 1


def test_a_publishable_key_may_not_read_its_accounts_usage(client, make_key):
    key = make_key(kind="publishable", origins=("https://shelter.example",))

    response = client.get("/v1/usage?days=1", headers=bearer(key))

    assert response.status_code == HTTPStatus.FORBIDDEN
    assert response.json()["code"] == "forbidden"
    assert "secret key" in response.json()["message"]
