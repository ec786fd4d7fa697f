"""With the database unreachable, the API answers 503 Error bodies, not 500s or HTML."""

from __future__ import annotations

from collections.abc import Iterator
from http import HTTPStatus

import pytest
from django.db import connection

from tests.assertions import assert_error

# Real connections are closed and reopened, so no test transaction can wrap them; the seeded
# plans are restored after the flush.
pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


@pytest.fixture
def database_down() -> Iterator[None]:
    """Point the connection at a port where nothing listens, as if PostgreSQL had stopped."""
    real_port = connection.settings_dict["PORT"]
    connection.close()
    connection.settings_dict["PORT"] = "9"
    yield
    connection.close()
    connection.settings_dict["PORT"] = real_port


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
