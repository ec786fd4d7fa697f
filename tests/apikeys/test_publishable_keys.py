"""Publishable keys: read-only, bound to web origins, answered through CORS for those only."""

from __future__ import annotations

import json
from datetime import timedelta
from http import HTTPStatus

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from apikeys import keys
from apikeys.models import ApiKey, normalize_origin
from apikeys.services import apikey_issue, apikey_revoke
from pets.models import Pet
from tests.assertions import assert_error

SHELTER = "https://shelter.example"
EVIL = "https://evil.example"
EXPOSED = (
    "X-RateLimit-Limit",
    "X-RateLimit-Remaining",
    "X-RateLimit-Reset",
    "RateLimit",
    "RateLimit-Policy",
    "Retry-After",
    "X-Request-ID",
    "Link",
)


@pytest.fixture
def widget_key(make_key) -> str:
    return make_key(kind="publishable", origins=(SHELTER, "http://127.0.0.1:8765"))


def from_origin(raw: str, origin: str | None) -> dict[str, str]:
    headers = {"Authorization": f"Bearer {raw}"}
    if origin is not None:
        headers["Origin"] = origin
    return headers


def assert_cors_for(response, origin: str) -> None:
    assert response["Access-Control-Allow-Origin"] == origin
    assert "origin" in response["Vary"].lower()
    exposed = {
        name.strip().lower() for name in response["Access-Control-Expose-Headers"].split(",")
    }
    assert {name.lower() for name in EXPOSED} <= exposed


# Issuing ------------------------------------------------------------------------------------


def test_a_publishable_key_says_so_at_a_glance(widget_key):
    assert widget_key.startswith("petstore_pub_live_")
    assert keys.is_well_formed(widget_key)
    key = ApiKey.objects.get()
    assert key.prefix.startswith("petstore_pub_live_")
    assert (key.kind, key.scope_list) == ("publishable", ["pets:read"])


def test_a_mistyped_publishable_key_is_refused_without_a_query(
    client, widget_key, django_assert_num_queries
):
    mistyped = widget_key[:-1] + ("A" if widget_key[-1] != "A" else "B")

    with django_assert_num_queries(0):
        response = client.get("/v1/pets", headers=from_origin(mistyped, SHELTER))

    assert_error(response, HTTPStatus.UNAUTHORIZED, "unauthorized")


def test_a_staging_publishable_key_reads_petstore_pub_test(settings):
    settings.PETSTORE_ENVIRONMENT = "staging"

    raw = keys.generate_key(publishable=True)

    assert raw.startswith("petstore_pub_test_")
    assert keys.is_well_formed(raw)


@pytest.mark.parametrize("scope", ["pets:write", "orders:write"])
def test_a_publishable_key_cannot_be_given_a_write_scope(make_account, scope):
    with pytest.raises(ValidationError, match="read-only"):
        apikey_issue(
            account=make_account(),
            kind="publishable",
            scopes=["pets:read", scope],
            origins=[SHELTER],
        )

    assert not ApiKey.objects.exists()


def test_the_database_refuses_a_publishable_key_with_a_write_scope(widget_key):
    with pytest.raises(IntegrityError), transaction.atomic():
        ApiKey.objects.filter(kind="publishable").update(scopes="pets:read pets:write")


def test_a_publishable_key_needs_an_origin(make_account):
    with pytest.raises(ValidationError, match="origin"):
        apikey_issue(account=make_account(), kind="publishable")


def test_a_secret_key_has_no_origins(make_account):
    with pytest.raises(ValidationError, match="Only publishable keys"):
        apikey_issue(account=make_account(), origins=[SHELTER])


@pytest.mark.parametrize(
    ("given", "stored"),
    [
        ("https://Shelter.Example", "https://shelter.example"),
        ("https://shelter.example:443/", "https://shelter.example"),
        ("http://127.0.0.1:8000", "http://127.0.0.1:8000"),
        ("http://[::1]:3000", "http://[::1]:3000"),
        ("https://bücher.example", "https://xn--bcher-kva.example"),
    ],
)
def test_origins_are_stored_as_browsers_send_them(given, stored):
    assert normalize_origin(given) == stored


@pytest.mark.parametrize(
    "given",
    [
        "shelter.example",
        "ftp://shelter.example",
        "https://shelter.example/widget",
        "https://shelter.example?x=1",
        "https://user@shelter.example",
        "https://*.shelter.example",
        "https://shelter.example:99999",
        "null",
    ],
)
def test_anything_but_an_origin_is_refused(make_account, given):
    with pytest.raises(ValidationError, match="not a web origin"):
        apikey_issue(account=make_account(), kind="publishable", origins=[given])


# Using one ----------------------------------------------------------------------------------


def test_it_works_from_a_listed_origin_with_cors_headers(client, widget_key, make_pet):
    make_pet()

    response = client.get("/v1/pets", headers=from_origin(widget_key, SHELTER))

    assert response.status_code == HTTPStatus.OK
    assert len(response.json()) == 1
    assert_cors_for(response, SHELTER)


def test_it_is_refused_from_another_origin_without_cors(client, widget_key):
    response = client.get("/v1/pets", headers=from_origin(widget_key, EVIL))

    body = assert_error(response, HTTPStatus.FORBIDDEN, "forbidden")
    assert body["message"] == (
        f"This publishable API key may not be used from {EVIL}; it is bound to: "
        f"http://127.0.0.1:8765, {SHELTER}."
    )
    assert "Access-Control-Allow-Origin" not in response
    assert response["X-RateLimit-Remaining"].isdigit()


def test_another_origin_cannot_spend_the_widgets_quota(client, widget_key, settings):
    settings.PETSTORE_ANONYMOUS_RATE = "5/m"
    for _ in range(5):
        refused = client.get("/v1/pets", headers=from_origin(widget_key, EVIL))
        assert refused.status_code == HTTPStatus.FORBIDDEN

    limited = client.get("/v1/pets", headers=from_origin(widget_key, EVIL))
    widget = client.get("/v1/pets", headers=from_origin(widget_key, SHELTER))

    # The foreign site's calls count against its visitors' address, never the account.
    assert limited.status_code == HTTPStatus.TOO_MANY_REQUESTS
    assert widget.status_code == HTTPStatus.OK
    assert widget["X-RateLimit-Remaining"] == "59"


def test_it_is_read_only_even_from_its_origin(client, widget_key, dog):
    response = client.post(
        "/v1/pets",
        json.dumps({"name": "Rex", "categoryId": dog.pk}),
        content_type="application/json",
        headers=from_origin(widget_key, SHELTER),
    )

    assert_error(response, HTTPStatus.FORBIDDEN, "forbidden")
    assert_cors_for(response, SHELTER)
    assert not Pet.objects.exists()


def test_without_origin_it_is_accepted_since_a_server_could_forge_one(client, widget_key):
    response = client.get("/v1/pets", headers=from_origin(widget_key, None))

    assert response.status_code == HTTPStatus.OK
    assert "Access-Control-Allow-Origin" not in response


def test_a_secret_key_ignores_origin_and_gets_no_cors(client, api_key):
    response = client.get("/v1/pets", headers=from_origin(api_key, EVIL))

    assert response.status_code == HTTPStatus.OK
    assert "Access-Control-Allow-Origin" not in response


def test_an_origin_change_holds_on_the_very_next_request(client, widget_key):
    assert client.get("/v1/pets", headers=from_origin(widget_key, SHELTER)).status_code == 200
    key = ApiKey.objects.get()
    key.set_origins([EVIL])
    key.save()

    moved = client.get("/v1/pets", headers=from_origin(widget_key, SHELTER))
    now_allowed = client.get("/v1/pets", headers=from_origin(widget_key, EVIL))

    assert moved.status_code == HTTPStatus.FORBIDDEN
    assert now_allowed.status_code == HTTPStatus.OK


# CORS on every status, for the key's origins ------------------------------------------------


def test_a_404_is_readable_from_the_keys_origin(client, widget_key):
    response = client.get("/v1/nowhere", headers=from_origin(widget_key, SHELTER))

    assert_error(response, HTTPStatus.NOT_FOUND, "not_found")
    assert_cors_for(response, SHELTER)


def test_a_403_for_a_missing_scope_is_readable_from_the_keys_origin(client, widget_key):
    response = client.get("/v1/store/orders", headers=from_origin(widget_key, SHELTER))

    assert_error(response, HTTPStatus.FORBIDDEN, "forbidden")
    assert_cors_for(response, SHELTER)


def test_a_401_for_a_revoked_key_is_readable_from_its_origin(client, widget_key):
    apikey_revoke(api_key=ApiKey.objects.get())

    response = client.get("/v1/pets", headers=from_origin(widget_key, SHELTER))

    assert_error(response, HTTPStatus.UNAUTHORIZED, "unauthorized")
    assert_cors_for(response, SHELTER)


def test_a_401_for_a_key_that_expired_in_use_is_readable_from_its_origin(client, make_key, clock):
    # Read and counted while it was valid, the key is known to Redis and the process when it
    # expires: the refusal comes from that record, not from a fresh read.
    key = make_key(kind="publishable", origins=(SHELTER,), expires_in=timedelta(minutes=5))
    assert client.get("/v1/pets", headers=from_origin(key, SHELTER)).status_code == HTTPStatus.OK
    clock.advance(301)

    response = client.get("/v1/pets", headers=from_origin(key, SHELTER))

    assert_error(response, HTTPStatus.UNAUTHORIZED, "unauthorized")
    assert_cors_for(response, SHELTER)


def test_a_429_is_readable_from_the_keys_origin(client, widget_key, clock):
    for _ in range(60):
        client.get("/v1/pets", headers=from_origin(widget_key, SHELTER))

    response = client.get("/v1/pets", headers=from_origin(widget_key, SHELTER))

    assert_error(response, HTTPStatus.TOO_MANY_REQUESTS, "rate_limited")
    assert_cors_for(response, SHELTER)
    assert response["Retry-After"].isdigit()


# Preflights ----------------------------------------------------------------------------------


def preflight(client, origin: str, method: str = "GET", headers: str = "authorization"):
    return client.options(
        "/v1/pets",
        headers={
            "Origin": origin,
            "Access-Control-Request-Method": method,
            "Access-Control-Request-Headers": headers,
        },
    )


def test_a_preflight_for_a_read_is_allowed_from_any_origin(client, db):
    response = preflight(client, EVIL)

    assert response.status_code == HTTPStatus.NO_CONTENT
    assert response["Access-Control-Allow-Origin"] == EVIL
    assert response["Access-Control-Allow-Methods"] == "GET, HEAD"
    assert "authorization" in response["Access-Control-Allow-Headers"]
    assert "origin" in response["Vary"].lower()


@pytest.mark.parametrize(
    ("method", "headers"),
    [("POST", "authorization, content-type"), ("DELETE", "authorization"), ("GET", "x-custom")],
)
def test_a_preflight_for_anything_else_is_not_allowed(client, db, method, headers):
    response = preflight(client, EVIL, method, headers)

    assert "Access-Control-Allow-Origin" not in response


def test_the_operators_origins_keep_every_method(client, db, settings):
    settings.CORS_ALLOWED_ORIGINS = ["https://partner.example"]

    response = preflight(client, "https://partner.example", "POST", "authorization, content-type")

    assert response["Access-Control-Allow-Origin"] == "https://partner.example"
    assert "POST" in response["Access-Control-Allow-Methods"]
