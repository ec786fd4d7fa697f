"""Per-plan limits over the minute and the UTC day, as a client sees them in the headers."""

from __future__ import annotations

from datetime import UTC, datetime
from http import HTTPStatus

import pytest

from apikeys.limiter import account_usage
from tests.assertions import assert_error


def limit_headers(response) -> tuple[int, int, int]:
    return (
        int(response["X-RateLimit-Limit"]),
        int(response["X-RateLimit-Remaining"]),
        int(response["X-RateLimit-Reset"]),
    )


def call(client, key: str, path: str = "/v1/categories"):
    return client.get(path, headers={"Authorization": f"Bearer {key}"})


def spend(client, key: str, count: int) -> None:
    for _ in range(count):
        assert call(client, key).status_code == HTTPStatus.OK


@pytest.mark.parametrize(("plan", "per_minute"), [("free", 60), ("pro", 300), ("business", 1000)])
def test_each_plan_reports_its_minute_limit(client, make_key, clock, plan, per_minute):
    key = make_key(plan=plan)

    response = call(client, key)

    assert response.status_code == HTTPStatus.OK
    minute_end = int(clock.now) // 60 * 60 + 60
    assert limit_headers(response) == (per_minute, per_minute - 1, minute_end)


def test_enterprise_uses_the_accounts_custom_limits(client, make_key, clock):
    key = make_key(plan="enterprise", per_minute=7)

    assert limit_headers(call(client, key))[:2] == (7, 6)


def test_headers_count_down_by_one_per_request(client, api_key, clock):
    remaining = [int(call(client, api_key)["X-RateLimit-Remaining"]) for _ in range(5)]

    assert remaining == [59, 58, 57, 56, 55]


def test_the_61st_request_in_a_minute_is_refused_until_the_minute_ends(client, api_key, clock):
    clock.set(datetime(2026, 11, 21, 12, 30, 20, tzinfo=UTC))
    spend(client, api_key, 60)

    response = call(client, api_key)

    assert_error(response, HTTPStatus.TOO_MANY_REQUESTS, "rate_limited")
    assert response["Retry-After"] == "40"
    assert limit_headers(response) == (
        60,
        0,
        int(datetime(2026, 11, 21, 12, 31, tzinfo=UTC).timestamp()),
    )


def test_the_minute_window_resets_at_the_minute_boundary(client, api_key, clock):
    clock.set(datetime(2026, 11, 21, 12, 30, 59, tzinfo=UTC))
    spend(client, api_key, 60)
    refused = call(client, api_key)
    assert refused.status_code == HTTPStatus.TOO_MANY_REQUESTS
    assert refused["Retry-After"] == "1"

    clock.set(datetime(2026, 11, 21, 12, 31, 0, tzinfo=UTC))
    response = call(client, api_key)

    assert response.status_code == HTTPStatus.OK
    assert response["X-RateLimit-Remaining"] == "59"


def test_the_day_window_is_reported_when_it_has_fewer_requests_left(client, make_key, clock):
    key = make_key(plan="enterprise", per_day=5)

    response = call(client, key)

    next_midnight = int(datetime(2026, 11, 22, tzinfo=UTC).timestamp())
    assert limit_headers(response) == (5, 4, next_midnight)


def test_the_day_window_resets_at_utc_midnight(client, make_key, clock):
    key = make_key(plan="enterprise", per_day=5)
    clock.set(datetime(2026, 11, 21, 23, 59, 59, tzinfo=UTC))
    spend(client, key, 5)
    refused = call(client, key)
    assert_error(refused, HTTPStatus.TOO_MANY_REQUESTS, "rate_limited")
    assert refused["Retry-After"] == "1"
    assert refused["X-RateLimit-Limit"] == "5"

    clock.set(datetime(2026, 11, 22, 0, 0, 0, tzinfo=UTC))
    response = call(client, key)

    assert response.status_code == HTTPStatus.OK
    assert limit_headers(response) == (5, 4, int(datetime(2026, 11, 23, tzinfo=UTC).timestamp()))


def test_retry_after_waits_for_every_exceeded_window(client, make_key, clock):
    # Both windows full: the minute ends in 40 s, but the day only at midnight.
    key = make_key(plan="enterprise", per_minute=3, per_day=3)
    clock.set(datetime(2026, 11, 21, 23, 0, 20, tzinfo=UTC))
    spend(client, key, 3)

    response = call(client, key)

    assert response.status_code == HTTPStatus.TOO_MANY_REQUESTS
    assert response["Retry-After"] == str(3600 - 20)


def test_refused_requests_consume_nothing(client, api_key, key_row, clock):
    spend(client, api_key, 60)
    for _ in range(5):
        assert call(client, api_key).status_code == HTTPStatus.TOO_MANY_REQUESTS

    assert counted(key_row.account_id) == (60, 60, 5)
    clock.advance(60)
    assert call(client, api_key).status_code == HTTPStatus.OK
    assert counted(key_row.account_id) == (1, 61, 5)


def counted(account_id: int) -> tuple[int, int, int]:
    """The account's admitted requests this minute and today, and its refusals today."""
    usage = account_usage(account_id)
    return usage.this_minute, usage.today, usage.refused_today


def test_keys_of_one_account_share_its_quota(client, make_key, key_row, api_key, clock):
    second_key = make_key(account=key_row.account)
    spend(client, api_key, 30)
    spend(client, second_key, 30)

    assert call(client, api_key).status_code == HTTPStatus.TOO_MANY_REQUESTS
    assert call(client, second_key).status_code == HTTPStatus.TOO_MANY_REQUESTS


def test_two_accounts_do_not_affect_each_other(client, make_key, api_key, clock):
    other_key = make_key(name="Another shelter")
    spend(client, api_key, 60)
    assert call(client, api_key).status_code == HTTPStatus.TOO_MANY_REQUESTS

    response = call(client, other_key)

    assert response.status_code == HTTPStatus.OK
    assert response["X-RateLimit-Remaining"] == "59"


def test_a_plan_change_applies_to_the_next_request(client, api_key, key_row, clock):
    from apikeys.models import Plan
    from apikeys.services import account_set_plan

    assert call(client, api_key)["X-RateLimit-Limit"] == "60"
    account_set_plan(account=key_row.account, plan=Plan.objects.get(code="pro"))

    assert call(client, api_key)["X-RateLimit-Limit"] == "300"
