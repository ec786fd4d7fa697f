"""Every /v1 response says where the caller stands, whatever its status."""

from __future__ import annotations

import json
from http import HTTPStatus

import pytest
from django.test import Client

RATE_HEADERS = ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset")


def assert_limit_headers(response, limit: int) -> None:
    for name in RATE_HEADERS:
        assert response[name].isdigit(), name
    assert int(response["X-RateLimit-Limit"]) == limit


@pytest.fixture
def auth_client(api_key: str) -> Client:
    return Client(headers={"Authorization": f"Bearer {api_key}"})


@pytest.mark.parametrize(
    ("method", "path", "body", "content_type", "status"),
    [
        ("get", "/v1/pets", None, None, HTTPStatus.OK),
        ("post", "/v1/pets", "{}", "application/json", HTTPStatus.BAD_REQUEST),
        ("get", "/v1/nowhere", None, None, HTTPStatus.NOT_FOUND),
        ("get", "/v1/pets/999999", None, None, HTTPStatus.NOT_FOUND),
        ("delete", "/v1/pets", None, None, HTTPStatus.METHOD_NOT_ALLOWED),
        ("post", "/v1/pets", "x" * 70_000, "application/json", HTTPStatus.REQUEST_ENTITY_TOO_LARGE),
        ("post", "/v1/pets", "name=Rex", "text/plain", HTTPStatus.UNSUPPORTED_MEDIA_TYPE),
    ],
)
def test_headers_are_on_every_status(auth_client, method, path, body, content_type, status):
    kwargs = {"data": body, "content_type": content_type} if body is not None else {}

    response = getattr(auth_client, method)(path, **kwargs)

    assert response.status_code == status
    assert_limit_headers(response, 60)


def test_headers_are_on_a_201(auth_client, dog):
    response = auth_client.post(
        "/v1/pets", json.dumps({"name": "Rex", "categoryId": dog.pk}), "application/json"
    )

    assert response.status_code == HTTPStatus.CREATED
    assert_limit_headers(response, 60)


@pytest.mark.urls("tests.apikeys.crash_urls")
def test_headers_are_on_a_500(auth_client):
    response = auth_client.get("/v1/crash")

    assert response.status_code == HTTPStatus.INTERNAL_SERVER_ERROR
    assert response.json()["code"] == "internal_error"
    assert_limit_headers(response, 60)


def test_headers_are_on_a_429(auth_client, clock):
    for _ in range(60):
        auth_client.get("/v1/categories")

    response = auth_client.get("/v1/categories")

    assert response.status_code == HTTPStatus.TOO_MANY_REQUESTS
    assert_limit_headers(response, 60)
    assert int(response["Retry-After"]) >= 1


def test_a_401_reports_the_limit_of_the_callers_address(client, settings):
    settings.PETSTORE_ANONYMOUS_RATE = "25/m"

    response = client.get("/v1/pets", headers={"Authorization": "Bearer nonsense"})

    assert response.status_code == HTTPStatus.UNAUTHORIZED
    assert_limit_headers(response, 25)
    assert response["X-RateLimit-Remaining"] == "24"


def test_probes_and_the_admin_are_not_limited(client, db):
    assert "X-RateLimit-Limit" not in client.get("/healthz")
    assert "X-RateLimit-Limit" not in client.get("/admin/login/")
