"""GET /v1/rate_limit: where the caller stands, read without spending anything."""

from __future__ import annotations

from http import HTTPStatus

from apikeys.admission.admit import RATE_LIMIT_READS_PER_MINUTE
from apikeys.keyring import keyring
from apikeys.limiter import BAN_STRIKES
from apikeys.models import Plan
from apikeys.services import account_set_plan
from apikeys.windows import WINDOWS
from tests.assertions import assert_error


def test_reading_the_limits_a_hundred_times_spends_nothing(client, auth, clock):
    before = client.get("/v1/pets", headers=auth)

    statuses = [client.get("/v1/rate_limit", headers=auth).status_code for _ in range(100)]
    after = client.get("/v1/pets", headers=auth)

    # Its own window answers 60 a minute; none of the 100 touched the plan's.
    assert statuses.count(HTTPStatus.OK) == RATE_LIMIT_READS_PER_MINUTE
    assert statuses.count(HTTPStatus.TOO_MANY_REQUESTS) == 100 - RATE_LIMIT_READS_PER_MINUTE
    assert before["X-RateLimit-Remaining"] == "59"
    assert after["X-RateLimit-Remaining"] == "58"  # only the one real call


def test_its_figures_match_the_headers_after_n_real_calls(client, auth, clock):
    for _ in range(7):
        last = client.get("/v1/pets", headers=auth)

    response = client.get("/v1/rate_limit", headers=auth)

    assert response.status_code == HTTPStatus.OK
    body = response.json()
    assert body["plan"] == {"code": "free", "name": "Free"}
    windows = {window["name"]: window for window in body["windows"]}
    assert list(windows) == [w.name for w in WINDOWS]
    minute, day = windows["minute"], windows["day"]
    assert minute == {
        "name": "minute",
        "limit": int(last["X-RateLimit-Limit"]),
        "used": 7,
        "remaining": int(last["X-RateLimit-Remaining"]),
        "reset": int(last["X-RateLimit-Reset"]),
        "seconds": 60,
    }
    assert (day["name"], day["limit"], day["used"], day["remaining"]) == ("day", 1000, 7, 993)
    assert day["reset"] % 86_400 == 0
    assert body["ban"] is None


def test_its_own_headers_describe_its_own_window(client, auth, clock):
    client.get("/v1/pets", headers=auth)

    first = client.get("/v1/rate_limit", headers=auth)
    second = client.get("/v1/rate_limit", headers=auth)

    assert first["X-RateLimit-Limit"] == str(RATE_LIMIT_READS_PER_MINUTE)
    assert first["X-RateLimit-Remaining"] == str(RATE_LIMIT_READS_PER_MINUTE - 1)
    assert second["X-RateLimit-Remaining"] == str(RATE_LIMIT_READS_PER_MINUTE - 2)
    assert second["RateLimit-Policy"] == f'"rate_limit";q={RATE_LIMIT_READS_PER_MINUTE};w=60'


def test_past_its_own_window_it_is_a_429_with_headers(client, auth, clock):
    for _ in range(RATE_LIMIT_READS_PER_MINUTE):
        client.get("/v1/rate_limit", headers=auth)

    refused = client.get("/v1/rate_limit", headers=auth)
    clock.advance(40)  # 20 s into the minute at the start: a new minute
    again = client.get("/v1/rate_limit", headers=auth)

    assert_error(refused, HTTPStatus.TOO_MANY_REQUESTS, "rate_limited")
    assert refused["Retry-After"] == "40"
    assert refused["X-RateLimit-Remaining"] == "0"
    assert refused["RateLimit"] == '"rate_limit";r=0;t=40'
    assert again.status_code == HTTPStatus.OK


def test_it_reports_a_ban_in_force(client, auth, clock):
    for _ in range(60 + BAN_STRIKES):
        client.get("/v1/categories", headers=auth)

    response = client.get("/v1/rate_limit", headers=auth)

    assert response.status_code == HTTPStatus.OK
    ban = response.json()["ban"]
    assert ban["retryAfter"] == 15 * 60
    assert ban["endsAt"] == int(clock.now) + 15 * 60
    assert response.json()["windows"][0]["remaining"] == 0


def test_the_plan_is_counted_per_account_and_the_window_per_key(client, make_key, make_account):
    account = make_account(plan="pro")
    first = {"Authorization": f"Bearer {make_key(account=account)}"}
    second = {"Authorization": f"Bearer {make_key(account=account)}"}
    client.get("/v1/pets", headers=first)
    client.get("/v1/rate_limit", headers=first)

    response = client.get("/v1/rate_limit", headers=second)

    assert response.json()["windows"][0]["used"] == 1
    assert response.json()["windows"][0]["limit"] == 300
    assert response["X-RateLimit-Remaining"] == str(RATE_LIMIT_READS_PER_MINUTE - 1)


def test_it_needs_a_key(client, db):
    response = client.get("/v1/rate_limit")

    assert_error(response, HTTPStatus.UNAUTHORIZED, "unauthorized")


def test_any_valid_key_may_read_its_limits(client, make_key):
    widget = make_key(kind="publishable", origins=("https://shelter.example",))

    response = client.get("/v1/rate_limit", headers={"Authorization": f"Bearer {widget}"})

    assert response.status_code == HTTPStatus.OK


def test_a_plan_change_shows_on_the_next_read(client, auth, key_row):
    client.get("/v1/rate_limit", headers=auth)
    account_set_plan(account=key_row.account, plan=Plan.objects.get(code="business"))

    response = client.get("/v1/rate_limit", headers=auth)

    assert response.json()["plan"]["code"] == "business"
    assert response.json()["windows"][0]["limit"] == 1000


def test_head_reads_the_limits_without_spending_them(client, auth, clock):
    client.get("/v1/pets", headers=auth)

    heads = [client.head("/v1/rate_limit", headers=auth).status_code for _ in range(3)]
    after = client.get("/v1/pets", headers=auth)

    assert heads == [HTTPStatus.OK] * 3
    assert after["X-RateLimit-Remaining"] == "58"


def test_a_key_known_to_redis_reads_its_limits_without_a_query(
    client, auth, django_assert_num_queries, clock
):
    client.get("/v1/pets", headers=auth)
    keyring.clear()  # as in another process, which holds only what Redis holds

    with django_assert_num_queries(0):
        response = client.get("/v1/rate_limit", headers=auth)

    assert response.status_code == HTTPStatus.OK
