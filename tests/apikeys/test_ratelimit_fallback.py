"""Without a reachable Redis the API keeps answering, counting limits in process memory."""

from __future__ import annotations

import logging
from http import HTTPStatus

import pytest
from django.core.checks import Warning as CheckWarning

from apikeys.checks import shared_redis_check

CLOSED_PORT = "redis://127.0.0.1:9/0"  # the discard port: nothing listens there


@pytest.fixture
def redis_down(settings):
    settings.REDIS_URL = CLOSED_PORT


@pytest.fixture
def embedded(settings):
    settings.REDIS_URL = ""


def test_the_api_keeps_answering_and_limiting_when_redis_is_down(
    client, auth, redis_down, clock, caplog
):
    caplog.set_level(logging.WARNING, logger="petstore.ratelimit")

    responses = [client.get("/v1/pets", headers=auth) for _ in range(61)]

    assert [r.status_code for r in responses[:60]] == [HTTPStatus.OK] * 60
    assert responses[59]["X-RateLimit-Remaining"] == "0"
    assert responses[60].status_code == HTTPStatus.TOO_MANY_REQUESTS
    outage_warnings = [r for r in caplog.records if "unreachable" in r.getMessage()]
    assert len(outage_warnings) == 1


def test_requests_without_a_key_are_still_answered_when_redis_is_down(client, redis_down, db):
    response = client.get("/v1/pets")

    assert response.status_code == HTTPStatus.UNAUTHORIZED
    assert response["X-RateLimit-Limit"] == "60"


def test_readyz_reports_the_cache_down(client, redis_down, db):
    response = client.get("/readyz")

    assert response.status_code == HTTPStatus.SERVICE_UNAVAILABLE
    assert response.json()["checks"] == {"database": "ok", "cache": "down", "host": "ok"}


def test_limits_hold_in_one_process_without_redis(client, auth, embedded, clock):
    statuses = [client.get("/v1/categories", headers=auth).status_code for _ in range(61)]

    assert statuses.count(HTTPStatus.OK) == 60
    assert statuses[-1] == HTTPStatus.TOO_MANY_REQUESTS


def test_a_system_check_warns_without_a_shared_cache_when_debug_is_off(settings, embedded):
    settings.DEBUG = False

    warnings = shared_redis_check(None)

    assert [w.id for w in warnings] == ["apikeys.W001"]
    assert isinstance(warnings[0], CheckWarning)


def test_the_system_check_is_quiet_with_redis(settings):
    settings.DEBUG = False

    assert shared_redis_check(None) == []


def test_keys_are_not_cached_while_redis_is_down(client, auth, redis_down, clock):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.get("/v1/categories", headers=auth)
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/v1/categories", headers=auth)

    # No process could hear of a revocation now: the key is read from the database again.
    assert response.status_code == HTTPStatus.OK
    assert any("digest" in query["sql"] for query in queries.captured_queries)
