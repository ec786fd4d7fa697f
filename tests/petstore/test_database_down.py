"""With the database unreachable, the API answers 503 Error bodies, not 500s or HTML."""

from __future__ import annotations

import logging
from http import HTTPStatus

import pytest

from tests.assertions import assert_error

# Real connections are closed and reopened, so no test transaction can wrap them; the seeded
# plans are restored after the flush.
pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def test_an_api_request_gets_503_when_the_database_is_down(client, api_key, database_down):
    response = client.get("/v1/pets", headers={"Authorization": f"Bearer {api_key}"})

    assert_error(response, HTTPStatus.SERVICE_UNAVAILABLE, "service_unavailable")
    # Limited by address meanwhile: the account could not be looked up.
    assert response["X-RateLimit-Limit"] == "60"


def test_readyz_reports_the_database_down(client, database_down):
    response = client.get("/readyz")

    assert response.status_code == HTTPStatus.SERVICE_UNAVAILABLE
    assert response.json()["checks"]["database"] == "down"


def test_a_503_says_when_to_retry(client, api_key, database_down):
    response = client.get("/v1/pets", headers={"Authorization": f"Bearer {api_key}"})

    assert_error(response, HTTPStatus.SERVICE_UNAVAILABLE, "service_unavailable")
    assert 1 <= int(response["Retry-After"]) <= 5


def test_an_outage_is_logged_once_a_second_with_the_refusals_counted(
    client, api_key, database_down, caplog, clock
):
    auth = {"Authorization": f"Bearer {api_key}"}
    with caplog.at_level(logging.INFO):
        answers = [client.get("/v1/pets", headers=auth) for _ in range(50)]
        clock.advance(1)
        answers.append(client.get("/v1/pets", headers=auth))

    assert {answer.status_code for answer in answers} == {HTTPStatus.SERVICE_UNAVAILABLE}
    lines = [record for record in caplog.records if record.levelno >= logging.WARNING]
    assert len(lines) == 2
    # The first line when the outage starts; the next, a second on, counts what came between.
    assert [line.refused for line in lines] == [1, 50]
    assert "50 requests refused" in lines[1].getMessage()
