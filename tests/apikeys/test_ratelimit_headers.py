"""Every /v1 response says where the caller stands, whatever its status."""

from __future__ import annotations

import json
import re
from http import HTTPStatus

import pytest
from django.test import Client

from apikeys.windows import WINDOWS

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


# The IETF fields (draft-ietf-httpapi-ratelimit-headers-11) beside X-RateLimit-* ----------------

POLICY_ITEM = re.compile(r'^"(?P<name>[a-z_]+)";q=(?P<q>\d+);w=(?P<w>\d+)$')
LIMIT_ITEM = re.compile(r'^"(?P<name>[a-z_]+)";r=(?P<r>\d+);t=(?P<t>\d+)$')


def ietf_fields(response) -> tuple[dict[str, tuple[int, int]], tuple[str, int, int]]:
    """RateLimit-Policy as {name: (q, w)}, and RateLimit as (name, r, t)."""
    policies = {}
    for item in response["RateLimit-Policy"].split(","):
        match = POLICY_ITEM.match(item.strip())
        assert match, response["RateLimit-Policy"]
        policies[match["name"]] = (int(match["q"]), int(match["w"]))
    match = LIMIT_ITEM.match(response["RateLimit"])
    assert match, response["RateLimit"]
    return policies, (match["name"], int(match["r"]), int(match["t"]))


def assert_both_families_agree(response, now: float) -> None:
    policies, (name, remaining, seconds_left) = ietf_fields(response)
    assert name in policies
    assert policies[name][0] == int(response["X-RateLimit-Limit"])
    assert remaining == int(response["X-RateLimit-Remaining"])
    assert seconds_left == int(response["X-RateLimit-Reset"]) - int(now)


@pytest.fixture
def widget(make_key) -> dict[str, str]:
    raw = make_key(kind="publishable", origins=("https://shelter.example",))
    return {"Authorization": f"Bearer {raw}"}


@pytest.mark.parametrize(
    ("case", "status"),
    [
        ("a list", HTTPStatus.OK),
        ("no key", HTTPStatus.UNAUTHORIZED),
        ("a missing scope", HTTPStatus.FORBIDDEN),
        ("a foreign origin", HTTPStatus.FORBIDDEN),
        ("an unknown path", HTTPStatus.NOT_FOUND),
        ("over the minute", HTTPStatus.TOO_MANY_REQUESTS),
    ],
)
def test_both_header_families_agree_on_every_status(client, widget, clock, case, status):
    requests = {
        "a list": lambda: client.get("/v1/pets", headers=widget),
        "no key": lambda: client.get("/v1/pets"),
        "a missing scope": lambda: client.get("/v1/store/orders", headers=widget),
        "a foreign origin": lambda: client.get(
            "/v1/pets", headers={**widget, "Origin": "https://evil.example"}
        ),
        "an unknown path": lambda: client.get("/v1/nowhere", headers=widget),
    }
    if case == "over the minute":
        for _ in range(60):
            client.get("/v1/pets", headers=widget)
        requests[case] = lambda: client.get("/v1/pets", headers=widget)
    clock.advance(3)

    response = requests[case]()

    assert response.status_code == status
    assert_both_families_agree(response, clock.now)


def test_a_keys_policy_lists_every_window_of_its_plan(client, auth, key_row, clock):
    response = client.get("/v1/pets", headers=auth)

    plan = key_row.account.plan
    assert response["RateLimit-Policy"] == ", ".join(
        f'"{w.name}";q={getattr(plan, w.plan_field)};w={w.seconds}' for w in WINDOWS
    )
    assert response["RateLimit-Policy"].startswith('"minute";q=60;w=60, ')  # the Free plan's
    assert '"day";q=1000;w=86400' in response["RateLimit-Policy"]
    assert response["RateLimit"] == '"minute";r=59;t=40'


def test_the_day_is_named_when_it_is_the_tightest(client, make_key, clock):
    headers = {"Authorization": f"Bearer {make_key(plan='enterprise', per_minute=50, per_day=3)}"}

    response = client.get("/v1/pets", headers=headers)

    policies, (name, remaining, seconds_left) = ietf_fields(response)
    assert (policies["minute"], policies["day"]) == ((50, 60), (3, 86_400))
    assert (name, remaining) == ("day", 2)
    assert seconds_left == 86_400 - int(clock.now) % 86_400


def test_a_ban_reports_its_end_in_both_families(client, auth, clock):
    for _ in range(70):
        client.get("/v1/categories", headers=auth)

    response = client.get("/v1/categories", headers=auth)

    assert response.json()["code"] == "temporarily_banned"
    assert_both_families_agree(response, clock.now)
    assert response["RateLimit"].endswith(f";r=0;t={response['Retry-After']}")
